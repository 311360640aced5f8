"""Issue 35, items 4 and 5, under ``AppTest`` (the browser's part is
``tests/browser/test_follow_live.py``): ``follow=1`` on a session in progress sends the latest
deal and step with ``follow`` on (whatever deal and step the link names); on a finished session
it is ignored (nothing more is played); a deal the session lacks says so in one line and sends
the start, not the end."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("streamlit")
from apptest_helpers import page
from example_logs import ALL_CARDS
from streamlit.testing.v1 import AppTest

from log.open import open_store
from present.replay import Replay


def sent(at: AppTest) -> dict[str, Any]:
    """The data the page sends the browser replayer (one deal's frames)."""
    return dict(json.loads(at.get("bidi_component")[0].proto.json))


def _replay(store_url: str, session: str) -> Replay:
    with open_store(store_url) as store:
        return Replay.from_timeline(store.timeline(session))


def test_follow_sends_the_latest_step_of_a_session_in_progress(store_url: str) -> None:
    rp = _replay(store_url, "card-example")
    assert not rp.final.finished
    last = rp.last_position()
    at = page("replay", session="card-example", deal="1", step="1", follow="1")
    assert not at.exception, [e.value for e in at.exception]
    data = sent(at)
    assert data["live"] is True and data["follow"] is True
    assert data["deal"] == last.deal and data["start"] == last.step - 1
    assert data["latest"] == {"deal": last.deal, "step": rp.label(last).step}
    assert not at.info  # nothing lacking


def test_without_follow_the_link_is_kept(store_url: str) -> None:
    data = sent(page("replay", session="card-example", deal="1", step="2"))
    assert data["live"] is True and data["follow"] is False and data["start"] == 1


def test_follow_on_a_finished_session_is_ignored(store_url: str) -> None:
    assert _replay(store_url, ALL_CARDS).final.finished
    data = sent(page("replay", session=ALL_CARDS, follow="1"))
    assert data["live"] is False and data["follow"] is False
    assert data["deal"] == 1 and data["start"] == 0  # its start, not the winner's step


def test_a_deal_the_session_lacks_sends_the_start(store_url: str) -> None:
    rp = _replay(store_url, ALL_CARDS)
    at = page("replay", session=ALL_CARDS, deal="42", step="999")
    data = sent(at)
    assert [i.value for i in at.info] == [
        f"This session has no deal 42: it has {rp.final.deals} "
        f"deal{'' if rp.final.deals == 1 else 's'}. Showing the start."
    ]
    assert data["deal"] == 1 and data["start"] == 0
    assert at.query_params["deal"] == "1" and at.query_params["step"] == "1"


def test_picking_another_session_stops_following(store_url: str) -> None:
    at = page("replay", session="card-example", follow="1")
    assert sent(at)["follow"] is True
    at.selectbox[0].set_value("blind-half").run()  # in progress too: opened at its start
    assert "follow" not in at.query_params
    data = sent(at)
    assert data["session"] == "blind-half" and data["follow"] is False and data["start"] == 0
