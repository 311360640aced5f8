"""The director's desk on the Night page (issue 36 items 1, 4 and 5; ``view=desk``) under
Streamlit's ``AppTest``, over a store of the bundled season's night of 2026-09-25 (four finished
sessions) with the organiser secret set.

Only the organiser's unlocked device sees the desk. Its pills are the club's known players (the
names recorded in the store's sessions, read here from the events themselves); a tap checks a
player in, a second out, each read back from the store's night facts (:func:`log.night_facts
.facts_of`). The stake turns the board's settlement into money: each transfer read from the
board, summed per player, squares the engine's nets times the stake (RULES 1.5). A flag raised
through the service shows with its reason as text; Corrected is refused while the deal has no
correction (one line), Dismiss with a reason resolves it; Finalise makes the board say Final,
Reopen Provisional. A device locked meanwhile writes nothing."""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from datetime import date
from fractions import Fraction
from html import unescape
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("streamlit")
from apptest_helpers import APP
from dashboard_store_helpers import dashboard_store
from streamlit.testing.v1 import AppTest

from dashboard.common.pages import PAGE_FILES
from engine.fold import fold
from events.amounts import parse_amount
from log.night_facts import facts_of
from log.open import open_store
from service import night_facts as nf

ROOT = Path(__file__).resolve().parents[2]
SEASON = sorted((ROOT / "data" / "season").glob("2026-09-25-*.jsonl"))
DAY = date(2026, 9, 25)
SECRET = "open sesame please, the desk"


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    url = dashboard_store(tmp_path, monkeypatch, SEASON)
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    return url


def desk(token: str | None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    if token:
        at.session_state["device_token"] = token
    at.switch_page(PAGE_FILES["night"])
    at.query_params["date"] = DAY.isoformat()
    at.query_params["view"] = "desk"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def token() -> str:
    from dashboard.access import check as access

    return access.issue_token()


def recorded_players(url: str) -> list[str]:
    """Every name seated in a session of the store, from the events (no register facts here)."""
    with open_store(url) as store:
        names = {p for i in store.sessions() for p in fold(store.events(i.session)).seats}
    return sorted(names, key=lambda n: (n.casefold(), n))


def present(url: str) -> set[str]:
    with open_store(url) as store:
        return set(facts_of(store, DAY).present)


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += (
        [e.value for e in at.error] + [s.value for s in at.success] + [i.value for i in at.info]
    )
    return "\n".join(str(p) for p in parts)


def test_only_the_organisers_unlocked_device_sees_the_desk(served: str) -> None:
    at = desk(None)
    assert "The desk is the organiser's" in at.info[0].value
    assert not [p for p in at.get("button_group") if getattr(p, "key", "") == "desk_present"]
    assert "Finalise the night" not in [b.label for b in at.button]


def test_a_tap_checks_in_a_second_checks_out(served: str) -> None:
    at = desk(token())
    pills = at.pills(key="desk_present")
    assert list(pills.options) == recorded_players(served)
    a, b = recorded_players(served)[:2]
    pills.set_value([a, b]).run()
    assert present(served) == {a, b}
    assert "**2 present**" in texts(at) and f"{b} checked in: recorded." in texts(at)
    at.pills(key="desk_present").set_value([a]).run()
    assert present(served) == {a}
    assert "**1 present**" in texts(at) and f"{b} checked out: recorded." in texts(at)
    # a new player, with markup in the name: stored as typed, shown as text
    at.text_input(key="desk_new").input("Zoë <b>New</b>")
    next(x for x in at.button if x.label == "Add and check in").click().run()
    assert present(served) == {a, "Zoë <b>New</b>"}
    assert "Zoë \\<b\\>New\\</b\\>" in at.pills(key="desk_present").options  # its label: text
    assert "Zoë \\<b\\>New\\</b\\> checked in" in texts(at)


def _board_html(url: str) -> str:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(PAGE_FILES["night"])
    at.query_params["date"] = DAY.isoformat()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return next(str(m.value) for m in at.markdown if "brag-board" in m.value)


def _board_pays(url: str) -> list[tuple[str, str, Fraction]]:
    board = _board_html(url)
    assert "(money, at 0.5 a stake unit)" in board
    got = re.findall(r"<li>(.*?) pays (.*?) <b>(.*?)</b></li>", board)
    return [(unescape(p), unescape(q), parse_amount(v)) for p, q, v in got]


def test_the_stake_puts_the_settlement_in_money(served: str) -> None:
    at = desk(token())
    at.text_input(key="desk_stake").input("0.50")
    at.text_input(key="desk_limit").input("5")
    next(x for x in at.button if x.label == "Set the stake").click().run()
    with open_store(served) as store:
        stake = facts_of(store, DAY).stake
        nets: dict[str, Fraction] = defaultdict(Fraction)
        for i in store.sessions():
            for p, v in fold(store.events(i.session)).nets.items():
                nets[p] += v
    assert stake is not None and (stake.money, stake.limit) == (Fraction(1, 2), Fraction(5))
    left = {p: v / 2 for p, v in nets.items()}
    pays = _board_pays(served)
    assert 0 < len(pays) < len(nets)
    for payer, payee, amount in pays:
        left[payer] += amount
        left[payee] -= amount
    assert set(left.values()) == {0}
    # above the house limit: one line, nothing stored
    at.text_input(key="desk_stake").input("6")
    next(x for x in at.button if x.label == "Set the stake").click().run()
    assert "Not done: the stake 6 a unit is above the house limit" in texts(at)
    with open_store(served) as store:
        assert facts_of(store, DAY).stake == stake


def _flag(url: str, reason: str) -> Any:
    with open_store(url) as store:
        session = store.sessions(order="oldest")[0].session
        return nf.flag(store, DAY, session, 1, None, reason, by="Ann")


def test_a_flag_is_dismissed_or_refused_and_the_night_finalised(served: str) -> None:
    fact = _flag(served, "wrong card <script>x</script>")
    at = desk(token())
    flag_html = next(str(m.value) for m in at.markdown if "class='desk-flag'" in m.value)
    assert "&lt;script&gt;x&lt;/script&gt;" in flag_html and "<script>" not in flag_html
    assert f"replay?session={fact.subject}&amp;deal=1" in flag_html
    # finalising is refused while the flag is open
    next(x for x in at.button if x.label == "Finalise the night").click().run()
    assert f"flag {fact.position} on session" in texts(at)
    # corrected without a correction: one line from the service
    at.text_input(key=f"desk_reason_{fact.position}").input("checked")
    at.button(key=f"desk_fixed_{fact.position}").click().run()
    assert "has no correction since flag" in texts(at)
    at.button(key=f"desk_dismiss_{fact.position}").click().run()
    with open_store(served) as store:
        flags = facts_of(store, DAY).flags
    assert [(f.position, f.status, f.resolution) for f in flags] == [
        (fact.position, "dismissed", "checked")
    ]
    assert f"Flag {fact.position} dismissed: recorded." in texts(at)
    next(x for x in at.button if x.label == "Finalise the night").click().run()
    with open_store(served) as store:
        assert facts_of(store, DAY).state == "final"
    assert ":green-badge[Final]" in texts(at)
    assert at.pills(key="desk_present").disabled  # a final night's check-in is closed
    assert "The night is final: recorded." in texts(at)
    # reopening asks why, and keeps the reason with it
    next(x for x in at.button if x.label == "Reopen the night").click().run()
    assert "Not done: say why the night is reopened" in texts(at)
    with open_store(served) as store:
        assert facts_of(store, DAY).state == "final"
    at.text_input(key="desk_reopen_reason").input("a flag came in late")
    next(x for x in at.button if x.label == "Reopen the night").click().run()
    with open_store(served) as store:
        assert facts_of(store, DAY).state == "provisional"
    assert "The night is provisional again: recorded." in texts(at)


def test_a_device_locked_meanwhile_writes_nothing(served: str) -> None:
    from dashboard.access import check as access

    mine = token()
    at = desk(mine)
    access.revoke_all()
    a = recorded_players(served)[0]
    at.pills(key="desk_present").set_value([a]).run()
    assert present(served) == set()
    assert any("This device is locked" in e.value for e in at.error)


def test_make_tables_seats_everyone_present_and_a_move_is_kept(served: str) -> None:
    from service.seating import table_sizes

    names = recorded_players(served) + [f"Guest {n}" for n in range(1, 5)]  # 12 present
    with open_store(served) as store:
        for name in names:
            nf.check_in(store, DAY, name, by="test")
    at = desk(token())
    next(x for x in at.button if x.label == "Make tables").click().run()
    assert not at.exception, [e.value for e in at.exception]
    with open_store(served) as store:
        seats = [(t, ps) for t, ps in facts_of(store, DAY).seats if ps]
    assert [len(ps) for _, ps in seats] == table_sizes(len(names))
    assert sorted(p for _, ps in seats for p in ps) == sorted(names)
    assert [t for t, _ in seats] == [f"Table {n}" for n in range(1, len(seats) + 1)]
    board = next(str(m.value) for m in at.markdown if "class='desk-tables'" in m.value)
    assert all(f"<li>{p}</li>" in board for p in names)
    # each table not yet played starts with its name, table and players in their seats
    from urllib.parse import urlencode

    for table, ps in seats:
        slug = table.casefold().replace(" ", "-")
        q = urlencode([("name", f"{DAY.isoformat()}-{slug}"), ("table", table)])
        q += "".join("&" + urlencode([("player", p)]) for p in ps)
        assert f"href='record?{q.replace('&', '&amp;')}'" in board, table
    # move the first player of table 1 to table 2: kept; to their own table: one line
    who = seats[0][1][0]
    at.selectbox(key="desk_move_who").select(who)
    at.selectbox(key="desk_move_to").select("Table 2")
    next(x for x in at.button if x.label == "Move the player").click().run()
    with open_store(served) as store:
        after = dict((t, ps) for t, ps in facts_of(store, DAY).seats if ps)
    assert who in after["Table 2"] and who not in after["Table 1"]
    assert len(after["Table 1"]) == len(seats[0][1]) - 1
    at.selectbox(key="desk_move_who").select(who)
    at.selectbox(key="desk_move_to").select("Table 2")
    next(x for x in at.button if x.label == "Move the player").click().run()
    assert f"Not done: {who} is already at table 2." in texts(at)


def test_a_correction_after_final_is_marked_on_the_desk_and_the_board(served: str) -> None:
    from events.amounts import amount_text
    from log.amend import plan_stored, store_amendment

    at = desk(token())
    next(x for x in at.button if x.label == "Finalise the night").click().run()
    with open_store(served) as store:
        assert facts_of(store, DAY).state == "final"
        session = store.sessions(order="oldest")[0].session
        old = store.events(session)
        last = next(x for x in reversed(list(store.timeline(session).steps)) if not x.derived)
        # independently: the engine's fold of the log without the step withdrawn
        before, after = fold(old).nets, fold(old[: last.row - 1]).nets
        late = nf.flag(store, DAY, session, last.label.deal, last.label.text, "that bet", by="Bev")
        store_amendment(store, plan_stored(store, session, last))
    at.run()
    at.text_input(key=f"desk_reason_{late.position}").input("withdrawn (brag amend)")
    at.button(key=f"desk_fixed_{late.position}").click().run()
    assert f"Flag {late.position} corrected: recorded." in texts(at)
    with open_store(served) as store:
        got = facts_of(store, DAY).flag(late.position)
    assert got is not None and got.status == "corrected"
    board = _board_html(served)
    # the withdrawn step put the pot back on the table: provisional again, and it says why
    assert "nb-state final'>Final<" not in board and "Provisional" in board
    assert "Finalised, then a correction put a pot back on a table" in board
    changed = [p for p in before if before[p] != after.get(p, Fraction(0))]
    assert changed
    fixed = board.split("aria-label='Corrected after final'")[1].split("</ul>")[0]
    assert f"corrected after final: session {session} deal {last.label.deal}" in fixed
    for p in changed:
        was, now = amount_text(before[p]), amount_text(after.get(p, Fraction(0)))
        assert f"{p} {was} -&gt; {now}" in fixed


def test_the_board_follows_the_nights_facts_not_only_the_log(served: str) -> None:
    """The board is kept per log position AND night-facts position: finalising (no event, the
    log's position unmoved) redraws it, and so does the stake, once the poll is fresh again."""
    import time

    from dashboard.common.polling import FRESH

    with open_store(served) as store:
        at_before = store.last_position()
    assert "nb-state provisional'>Provisional<" in _board_html(served)  # now kept in the cache
    with open_store(served) as store:
        nf.finalise(store, DAY, by="test")
        assert store.last_position() == at_before  # a fact, not an event
    time.sleep(FRESH + 0.05)
    assert "nb-state final'>Final<" in _board_html(served)
    with open_store(served) as store:
        nf.reopen(store, DAY, by="test", reason="a stake to set")
        nf.set_stake(store, DAY, Fraction(1, 4), by="test")
    time.sleep(FRESH + 0.05)
    board = _board_html(served)
    assert "Provisional" in board and "(money, at 0.25 a stake unit)" in board


def test_check_in_opens_before_the_nights_first_session(served: str) -> None:
    """A date without a session yet: the players check in at the door; the night's part says
    in one line that no session started, and offers no Finalise."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.session_state["device_token"] = token()
    at.switch_page(PAGE_FILES["night"])
    at.query_params["date"] = "2026-10-02"
    at.query_params["view"] = "desk"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    first = recorded_players(served)[0]
    at.pills(key="desk_present").set_value([first]).run()
    with open_store(served) as store:
        assert facts_of(store, date(2026, 10, 2)).present == (first,)
    assert "no session started on 2026-10-02 (see brag sessions)." in texts(at)
    assert "Finalise the night" not in [b.label for b in at.button]


def test_a_seated_table_shows_its_sessions_once_started() -> None:
    from dashboard.night.desk_seating import _table_html, session_name

    assert session_name(DAY, "Table 2 <b>", set()) == f"{DAY.isoformat()}-table-2-b"
    taken = {f"{DAY.isoformat()}-table-2", f"{DAY.isoformat()}-table-2-2"}
    assert session_name(DAY, "Table 2", taken) == f"{DAY.isoformat()}-table-2-3"
    before = _table_html(DAY, "Table 2", ["Ann", "Bob"], [], set())
    assert "Start its session" in before and "in progress" not in before
    after = _table_html(DAY, "Table 2", ["Ann", "Bob"], [("t2 <i>", False), ("t2b", True)], set())
    assert "Start its session" not in after
    assert "replay?session=t2+%3Ci%3E&amp;follow=1" in after and "t2 &lt;i&gt;" in after
    assert "in progress" in after and "finished" in after and "<i>" not in after
