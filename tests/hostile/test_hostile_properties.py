"""The hostile-input property (issue 13): logs drawn from ``legal_actions``
(``tests/session_strategies.py``) and then mutated: numbers pushed to their bounds and past
them, names and ids with any Unicode (control, format and bidi characters, lone surrogates,
Markdown), lines dropped or repeated.

``brag verify`` (read and fold), ``brag import`` (the store's own check and write) and the
analytics projection accept exactly the same logs, and nothing raises outside the project's error
family (:class:`~events.errors.BragError`)."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from session_strategies import Session, lines_of, sessions

import analytics.projector
import analytics.tables
from analytics.projector import skipped
from engine.fold import verify_events
from events.codec import read_file
from events.errors import BragError
from log.open import open_store

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

NUMBERS: list[Any] = [
    0, 1, -1, 5, 1000, 1001, 10**6, 10**6 + 1, 2**31 - 1, 2**31, 10**12, 10**12 + 1, 10**19,
    "1/2", "1/3", "3/2", "1/25200", "1/7919", "1/1073741824", "999999/25200", "0.5", "1e3",
    "٢", "１", "1" * 41, "RAW:1e5000", "RAW:1e-5000", "RAW:1e40000000", "RAW:1.5", "RAW:-0.0",
    "RAW:" + "9" * 41, True, None, [], {},
]  # fmt: skip
"""Values for a numeric field: within the bounds, at them, just past them, far past them, in
other digits, and as raw JSON numbers (``RAW:``) the standard library would take a long time
over."""

FIELDS = ("level", "paid", "amount", "deal", "seq", "v", "pots", "ante", "open_min", "open_max",
          "raise_max")  # fmt: skip

NAMES = st.one_of(
    st.text(min_size=0, max_size=70),
    st.text(st.characters(codec="utf-8", categories=["L", "N", "P", "S"]), min_size=1, max_size=64),
    st.sampled_from(
        [
            "\x1b[2J",
            "A\rB",
            "A\nB",
            "\x00",
            "\u202eevil",
            "\ud800",
            "\u2028",
            " ",
            "[Log in](https://attacker.example)",
            "![t](https://attacker.example/t.png)",
            "x" * 64,
            "x" * 65,
        ]
    ),
)


@st.composite
def mutated(draw: st.DrawFn, session: Session) -> str:
    """The session's log (with or without the derived events) mutated up to three times (now and
    then not at all, so that accepted logs come up too); returned as the file's text."""
    events = session.events
    if draw(st.booleans()):
        events = tuple(
            e for e in events if e.type not in ("pot_won", "pot_carried", "session_ended")
        )
    raws = [json.loads(x) for x in lines_of(events)]
    numbers: dict[str, str] = {}  # placeholder -> the raw JSON number written in its place
    for n in range(draw(st.sampled_from([0, 1, 1, 1, 2, 3]))):
        how = draw(
            st.sampled_from(["number", "number", "name", "name", "session", "drop", "repeat"])
        )
        k = draw(st.integers(0, len(raws) - 1))
        if how == "number":
            field = draw(st.sampled_from(FIELDS))
            value = draw(st.sampled_from(NUMBERS))
            target = raws[k] if field in FIELDS[:6] else raws[0].setdefault("rules", {})
            if isinstance(value, str) and value.startswith("RAW:"):
                numbers[f"@@{n}@@"] = value[4:]
                value = f"@@{n}@@"
            target[field] = value
        elif how == "name" and isinstance(raws[0].get("seats"), list) and raws[0]["seats"]:
            # (a "drop" may have taken the session_started line away: then no name to change)
            old = json.dumps(draw(st.sampled_from(list(raws[0]["seats"]))))
            new = json.dumps(draw(NAMES))
            raws = [json.loads(json.dumps(r).replace(old, new)) for r in raws]
        elif how == "session":
            raws[0]["session"] = draw(NAMES)
        elif how == "drop" and len(raws) > 1:
            del raws[k]
        elif how == "repeat":
            raws.insert(k, json.loads(json.dumps(raws[k])))
    text = "\n".join(json.dumps(r) for r in raws)
    for mark, number in numbers.items():
        text = text.replace(f'"{mark}"', number)
    return text


def _verify(path: str) -> bool:
    try:
        events = read_file(path)
        if not events:
            return False
        verify_events(events)
    except BragError:
        return False
    return True


def _import_and_project(path: str, folder: str) -> tuple[bool, bool]:
    """Whether the import stored the log, and whether the projection took it whole."""
    db = os.path.join(folder, "club.db")
    with open_store(db) as store:
        try:
            store.import_log(path)
        except BragError:
            return False, False
        con = analytics.tables.connect(None)
        try:
            analytics.projector.refresh(store, con)
            return True, not skipped(con)
        finally:
            con.close()


@pytest.mark.slow
@SETTINGS
@given(sessions(max_events=60), st.data())
def test_verify_import_and_the_projection_accept_the_same_logs(session: Session, data: Any) -> None:
    text = data.draw(mutated(session))
    with tempfile.TemporaryDirectory(prefix="brag-prop-") as folder:
        path = os.path.join(folder, "log.jsonl")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as fp:
            fp.write(text + "\n")
        verified = _verify(path)
        imported, projected = _import_and_project(path, folder)
    event("accepted" if verified else "refused")
    assert verified == imported == projected, (verified, imported, projected, text[:2000])
