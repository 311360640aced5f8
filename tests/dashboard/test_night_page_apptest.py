"""The Night page (issue 36.3, 36.5, 36.6) under Streamlit's ``AppTest``, over a store of two
nights of the bundled season (2026-09-24: four finished sessions and one simulated session cut in
deal 2, in progress; 2026-09-25: four finished sessions).

The board's standings are each player's nets summed over the date's sessions, folded here by the
engine from the stored events (RULES 1.5); the pot on the tables is the live session's; while it
is there the settlement is one line naming that session, and on a night where every pot is won
the transfers square every net (at most n-1 of them). The TV display draws no control; the
Report view carries the store's position and offers the HTML page and the PDF."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import UTC, datetime
from fractions import Fraction
from html import unescape
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("streamlit")
from apptest_helpers import page
from dashboard_store_helpers import dashboard_store
from live_helpers import cut_in_deal

from engine.fold import fold
from events.amounts import parse_amount
from events.model import is_derived
from log.open import open_store
from sim import simulate_session

GLYPHS = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}


def person_amount(text: str) -> Fraction:
    """An amount as the pages write it (``9½``, ``-2¼``, ``¾``, ``-7/3``), read back exactly."""
    text = text.strip()
    if text and text[-1] in GLYPHS:
        sign = -1 if text.startswith("-") else 1
        whole = text.lstrip("+-")[:-1]
        return sign * (Fraction(whole or 0) + GLYPHS[text[-1]])
    return parse_amount(text)


ROOT = Path(__file__).resolve().parents[2]
SEASON = sorted((ROOT / "data" / "season").glob("2026-09-2[45]-*.jsonl"))
LIVE = "night-live"


@pytest.fixture
def nights(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = dashboard_store(tmp_path, monkeypatch, SEASON)
    live = simulate_session(
        seed="night-live", players=4, cards="all", session=LIVE, table="Bar <i>x</i>",
        start=datetime(2026, 9, 24, 21, 0, tzinfo=UTC),
    )  # fmt: skip
    with open_store(url) as store:
        store.append(LIVE, [e for e in cut_in_deal(live, 2, 3) if not is_derived(e)], 0)
    return url


def _folded(url: str, day: str) -> tuple[dict[str, Fraction], Fraction]:
    """Each player's net summed over ``day``'s sessions, and the pot on their tables: the
    engine's fold of each stored stream."""
    nets: dict[str, Fraction] = defaultdict(Fraction)
    pot = Fraction(0)
    with open_store(url) as store:
        for info in store.sessions():
            if info.started and info.started.date().isoformat() == day:
                state = fold(store.events(info.session))
                pot += state.pot
                for p, v in state.nets.items():
                    nets[p] += v
    return dict(nets), pot


def _board(at: Any) -> str:
    found = [str(m.value) for m in at.markdown if "brag-board" in m.value]
    assert len(found) == 1, [m.value[:80] for m in at.markdown]
    return found[0]


def _standings(board: str) -> dict[str, Fraction]:
    body = board.split("aria-label='Standings'")[1].split("</table>")[0]
    rows = re.findall(r"<tr><td class='num'>\d+</td><td>(.*?)</td><td class='num'>(.*?)</td>", body)
    return {unescape(p): person_amount(re.sub(r"<[^>]+>|\+", "", n)) for p, n in rows}


def test_the_board_sums_the_folded_nets_and_keeps_the_pot_apart(nights: str) -> None:
    at = page("night", date="2026-09-24")
    assert not at.exception, [e.value for e in at.exception]
    board = _board(at)
    nets, pot = _folded(nights, "2026-09-24")
    assert pot > 0 and sum(nets.values()) + pot == 0  # RULES 1.5
    assert _standings(board) == nets
    assert "Provisional" in board
    assert f"pot {pot}</span> on the table" in board  # the live table's pot, as the commands
    assert "replay?session=night-live&amp;follow=1" in board  # follow it live
    assert "Bar &lt;i&gt;x&lt;/i&gt;" in board and "<i>x</i>" not in board  # a name is text
    # money in is not money out: no transfer, one line naming the table's session
    assert "aria-label='Who pays whom'" not in board
    assert (
        "No settlement yet: money in is not money out while a pot is on a table "
        f"(Bar &lt;i&gt;x&lt;/i&gt; {pot}; RULES 1.4, 6.1)" in board
    )


def test_a_settled_night_squares_every_net(nights: str) -> None:
    at = page("night")  # the latest date with sessions
    assert not at.exception, [e.value for e in at.exception]
    board = _board(at)
    assert "Night of 2026-09-25" in board
    nets, pot = _folded(nights, "2026-09-25")
    assert pot == 0 and _standings(board) == nets
    pays = re.findall(r"<li>(.*?) pays (.*?) <b>(.*?)</b></li>", board)
    assert 0 < len(pays) <= len([v for v in nets.values() if v]) - 1
    left = dict(nets)
    for payer, payee, amount in pays:
        left[unescape(payer)] += person_amount(amount)
        left[unescape(payee)] -= person_amount(amount)
    assert set(left.values()) == {0}


def test_the_tv_display_has_no_control(nights: str) -> None:
    at = page("night", display="tv")
    assert not at.exception, [e.value for e in at.exception]
    assert "brag-board tv" in _board(at)
    assert not at.date_input and not at.button and not at.get("segmented_control")


def test_the_report_view_is_stamped_with_the_store_position(nights: str) -> None:
    at = page("night", date="2026-09-25", view="report")
    assert not at.exception, [e.value for e in at.exception]
    with open_store(nights) as store:
        position = store.last_position()
    report = [m.value for m in at.markdown if "brag-report" in m.value]
    assert report and f"made from log position {position}, rules standard" in report[0]
    assert "replay?session=2026-09-25-" in report[0]
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Page to publish (HTML)", "PDF"]


def test_a_date_without_a_session_and_a_bad_date_say_so_in_one_line(nights: str) -> None:
    at = page("night", date="2026-01-01")
    assert not at.exception, [e.value for e in at.exception]
    assert [i.value for i in at.info] == ["no session started on 2026-01-01 (see brag sessions)."]
    assert not [m for m in at.markdown if "brag-board" in m.value]
    at = page("night", date="not a date")
    assert not at.exception, [e.value for e in at.exception]
    assert "is not YYYY-MM-DD" in at.warning[0].value
    assert "Night of 2026-09-25" in _board(at)  # the latest night instead
