"""The Record page's correction panel previews and stores the correction (dashboard.record.amend).
The log's side of corrections is in tests/log/test_corrections.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from corrections_helpers import finished as _finished
from corrections_helpers import last_step as _last_step
from corrections_helpers import stored as _stored

from engine.fold import fold
from log.open import open_store
from present.numbers import signed


def _panel(session):  # type: ignore[no-untyped-def]  # run as a script: no annotations
    from dashboard.record import amend as ui_amend

    ui_amend.amend_panel(session)


def test_the_panel_previews_and_stores_the_correction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from dashboard.record.amend import REMOVE

    # Streamlit's script runner makes the script the process's __main__ and leaves it there; a
    # later test whose multiprocessing spawns children would run it again: it is put back after.
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    url = str(tmp_path / "p.db")
    old = _stored(_finished(), url).events("s")
    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "p.duckdb"))
    last = _last_step(open_store(url))
    deal, step = last.label.deal, last.label.text
    expected = fold(old[: last.row - 1])

    monkeypatch.setenv("BRAG_ORGANISER_SECRET", "open sesame please")
    from dashboard.access import check as access

    at = AppTest.from_function(_panel, args=("s",), default_timeout=60)
    at.session_state["device_token"] = access.issue_token()  # an unlocked device (issue 33)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="amend-s-deal").set_value(deal).run()
    at.selectbox(key=f"amend-s-step-{deal}").set_value(step).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key=f"amend-s-as-{deal}-{step}").value == REMOVE
    nets = next(d.value for d in at.dataframe if "change" in d.value)
    shown = dict(zip(nets["player"], nets["after"], strict=True))
    for p, v in expected.nets.items():
        assert shown[p] == signed(v)
    assert len(open_store(url).read("s")) == len(old)  # nothing stored by the preview
    at.button(key="amend-s-store").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success and at.success[0].value.startswith("Corrected:")
    stored = open_store(url)
    assert len(stored.read("s")) == len(old) + 1 and stored.state("s").nets == expected.nets
