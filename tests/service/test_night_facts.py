"""A club night's facts (issue 36 items 1, 4 and 5; :mod:`service.night_facts`): check-in, the
night's stake, finalising refused while a session is in progress or a flag is open, flags
dismissed or corrected with their reasons kept, and a correction of a session after the night
was final reported with the change in each net, as the engine folds the log before and after
(RULES 1.5). On memory, SQLite and PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.fold import fold
from log.amend import plan_stored, store_amendment
from log.night_facts import facts_of
from log.open import open_store
from log.register import rename, seated_of
from service.night import NightRefused, night_of, settle
from service.night_facts import (
    check_in,
    dismiss,
    finalise,
    flag,
    mark_corrected,
    reopen,
    seat_table,
    seat_tables,
    set_stake,
)

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
FIRST = [p for p in SEASON if p.name.startswith("2026-09-24-")]
DAY = date(2026, 9, 24)
TOP = "2026-09-24-top-1"


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """The four sessions of the first night of the bundled season, in each kind of store."""
    if request.param == "memory":
        s = open_store("memory://")
    elif request.param == "sqlite":
        s = open_store(str(tmp_path / "club.db"))
    else:
        from store_helpers import pg_store, require_pg

        require_pg()
        with pg_store() as s:
            for path in FIRST:
                s.import_log(str(path))
            yield s
        return
    with s:
        for path in FIRST:
            s.import_log(str(path))
        yield s


def _last_recorded(store: Any, session: str) -> Any:
    t = store.timeline(session)
    return next(x for x in reversed(list(t.steps)) if not x.derived)


def test_check_in_stake_and_a_second_tap(store: Any) -> None:
    assert check_in(store, DAY, "Sandra") is not None
    assert check_in(store, DAY, " sandra ") is None  # present already: nothing stored
    check_in(store, DAY, "Bev", by="Ann")
    check_in(store, DAY, "Gary")
    assert check_in(store, DAY, "Gary", present=False) is not None
    stake = set_stake(store, DAY, Fraction(1, 2), Fraction(5), by="Ann")
    facts = facts_of(store.reopen(), DAY)  # another handle reads the same facts
    assert facts.present == ("Sandra", "Bev")
    assert facts.stake is not None and (facts.stake.money, facts.stake.limit) == (
        Fraction(1, 2),
        Fraction(5),
    )
    assert facts.stake.position == stake.position and facts.state == "provisional"
    assert facts_of(store, DAY, "Elsewhere").present == ()  # another club's night is its own
    with pytest.raises(NightRefused, match=r"^the stake 6 a unit is above the house limit 5"):
        set_stake(store, DAY, Fraction(6), Fraction(5))
    with pytest.raises(NightRefused, match="a player's name is 1 to 64 printable"):
        check_in(store, DAY, "Bad\x1b[2J")
    assert len(store.recorder.night_facts(DAY.isoformat())) == 5  # nothing stored by a refusal
    early = date(2026, 9, 25)  # players arrive before any session of the night is recorded
    assert check_in(store, early, "Ann") is not None and facts_of(store, early).present == ("Ann",)


def test_a_renamed_player_checks_in_under_the_name_they_go_by(store: Any) -> None:
    rename(store, "Sandra", "Sandra B", seated_of(store), by="test")
    check_in(store, DAY, "Sandra")
    assert facts_of(store, DAY).present == ("Sandra B",)


def test_seats_move_a_player_from_the_table_they_left(store: Any) -> None:
    seat_table(store, DAY, "Top table", ["Sandra", "Bev", "Gary"], by="Ann")
    seat_table(store, DAY, "Window table", ["Tony", "Gary"], by="Ann")
    assert facts_of(store, DAY).seats == (
        ("Top table", ("Sandra", "Bev")),
        ("Window table", ("Tony", "Gary")),
    )
    with pytest.raises(NightRefused, match=r"a table seats 2 to 10 \(RULES 1\.3\)"):
        seat_table(store, DAY, "Top table", ["Sandra"], by="Ann")
    with pytest.raises(NightRefused, match=r"seated twice \(RULES 1\.3\)"):
        seat_table(store, DAY, "Top table", ["Sandra", "sandra"], by="Ann")


def test_made_tables_are_stored_all_or_none(store: Any) -> None:
    """ "Make tables" is one write: a table the rules refuse (RULES 1.3) stores none of them."""
    before = facts_of(store, DAY)
    with pytest.raises(NightRefused, match=r"Table 2: 1 player; a table seats 2 to 10"):
        seat_tables(store, DAY, [("Table 1", ["Sandra", "Bev"]), ("Table 2", ["Tony"])], by="Ann")
    with pytest.raises(NightRefused, match=r"seated at two tables \(RULES 1\.3\)"):
        seat_tables(
            store, DAY, [("Table 1", ["Sandra", "Bev"]), ("Table 2", ["Tony", "Bev"])], by="Ann"
        )
    assert facts_of(store, DAY) == before
    made = seat_tables(
        store, DAY, [("Table 1", ["Sandra", "Bev"]), ("Table 2", ["Tony", "Gary"])], by="Ann"
    )
    assert [f.position for f in made] == sorted(f.position for f in made)
    assert facts_of(store, DAY).seats == (
        ("Table 1", ("Sandra", "Bev")),
        ("Table 2", ("Tony", "Gary")),
    )


def test_finalise_is_refused_while_a_flag_is_open(store: Any) -> None:
    f = flag(store, DAY, TOP, 2, None, "the shown cards were wrong", by="Bev")
    with pytest.raises(
        NightRefused, match=rf"^flag {f.position} on session '{TOP}' deal 2 is open"
    ):
        finalise(store, DAY, by="Ann")
    with pytest.raises(NightRefused, match=rf"^deal 2 of session '{TOP}' has no correction"):
        mark_corrected(store, DAY, f.position, "fixed", by="Ann")
    d = dismiss(store, DAY, f.position, "the cards were right", by="Ann")
    with pytest.raises(NightRefused, match=rf"^flag {f.position} is dismissed already"):
        dismiss(store, DAY, f.position, "again", by="Ann")
    flags = facts_of(store, DAY).flags
    assert [(x.position, x.status, x.resolution, x.resolved_by, x.resolved_at) for x in flags] == [
        (f.position, "dismissed", "the cards were right", "Ann", d.position)
    ]
    final = finalise(store, DAY, by="Ann")
    night = night_of(store, DAY)
    assert night.state == "final" and night.corrections == ()
    assert (
        night.facts.final_at == store.last_position() and night.facts.final_fact == final.position
    )
    with pytest.raises(NightRefused, match="is final already"):
        finalise(store, DAY, by="Ann")
    with pytest.raises(NightRefused, match="is final: reopen it to change its check-in"):
        check_in(store, DAY, "Sandra")
    reopen(store, DAY, by="Ann", reason="a late correction")
    assert night_of(store, DAY).state == "provisional"
    with pytest.raises(NightRefused, match="is not final: nothing to reopen"):
        reopen(store, DAY, by="Ann")


def test_flags_name_a_deal_and_step_the_session_has(store: Any) -> None:
    deals = store.state(TOP).deals
    with pytest.raises(NightRefused, match=rf"has no deal {deals + 1} \(deals 1 to {deals}\)"):
        flag(store, DAY, TOP, deals + 1, None, "why", by="Bev")
    with pytest.raises(NightRefused, match="has no step '999'"):
        flag(store, DAY, TOP, 1, "999", "why", by="Bev")
    with pytest.raises(NightRefused, match="is not of the night of 2026-09-24"):
        flag(store, DAY, "nosuch", 1, None, "why", by="Bev")
    with pytest.raises(NightRefused, match="give a reason"):
        flag(store, DAY, TOP, 1, "1", "  ", by="Bev")
    f = flag(store, DAY, TOP, 1, "1", "wrong dealer", by="Bev")
    got = facts_of(store, DAY).flag(f.position)
    assert got is not None and (got.session, got.deal, got.step, got.reason, got.by) == (
        TOP, 1, "1", "wrong dealer", "Bev",
    )  # fmt: skip


def test_finalise_is_refused_while_a_session_is_in_progress() -> None:
    lines = FIRST[0].read_text(encoding="utf-8").splitlines()[:12]  # bets made, no pot won
    with open_store("memory://") as s:
        s.import_log(lines)
        with pytest.raises(NightRefused, match=rf"^session '{TOP}' is in progress \(RULES 1\.4\)"):
            finalise(s, DAY, by="Ann")
        assert s.recorder.night_facts(DAY.isoformat()) == []


def test_a_correction_after_final_is_reported_with_the_change(store: Any) -> None:
    f = flag(store, DAY, TOP, 1, None, "the last bet was never made", by="Bev")
    dismiss(store, DAY, f.position, "it was", by="Ann")
    finalise(store, DAY, by="Ann")
    before = night_of(store, DAY)
    old = store.events(TOP)
    last = _last_recorded(store, TOP)
    # Independently: the engine's fold of the log without the step withdrawn.
    want_before, want_after = fold(old).nets, fold(old[: last.row - 1]).nets
    late = flag(store, DAY, TOP, last.label.deal, last.label.text, "that bet", by="Bev")
    store_amendment(store, plan_stored(store, TOP, last))
    mark_corrected(store, DAY, late.position, "withdrawn (brag amend)", by="Ann")
    night = night_of(store, DAY)
    # the withdrawn step put the pot back on the table (RULES 1.4: the session is in progress
    # again): the night was finalised, is provisional now, and says what was corrected
    assert (night.facts.state, night.state) == ("final", "provisional")
    assert any(not s.finished for s in night.sessions if s.session == TOP)
    with pytest.raises(NightRefused, match=r"is in progress \(RULES 1\.4\)"):
        finalise(store, DAY, by="Ann")  # again only once that session is over
    [c] = night.corrections
    assert c.session == TOP and c.flags == (late.position,)
    assert c.steps == (f"deal {last.label.deal} step {last.label.text} (withdraw)",)
    changed = {p for p in want_before if want_before[p] != want_after.get(p, 0)}
    assert changed and {x.player: (x.before, x.after) for x in c.changes} == {
        p: (want_before[p], want_after.get(p, Fraction(0))) for p in changed
    }
    assert c.text().startswith(f"corrected after final: session {TOP} deal {last.label.deal}")
    # The night's standings moved by exactly those changes.
    moved = {r.player: r.net for r in night.standings}
    for r in before.standings:
        delta = sum((x.after - x.before for x in c.changes if x.player == r.player), Fraction(0))
        assert moved[r.player] == r.net + delta
    with pytest.raises(NightRefused, match="has a pot of"):
        settle(night)  # the withdrawn step left a pot on the table


def test_a_final_night_with_nothing_corrected_is_not_finalised_twice(store: Any) -> None:
    finalise(store, DAY, by="Ann")
    with pytest.raises(NightRefused, match=r"is final already .*nothing was corrected since"):
        finalise(store, DAY, by="Ann")
    assert night_of(store, DAY).state == "final"


def test_only_a_correction_stored_after_the_flag_answers_it(store: Any) -> None:
    first = _last_recorded(store, TOP)
    store_amendment(store, plan_stored(store, TOP, first))  # corrected before anyone flagged
    f = flag(store, DAY, TOP, first.label.deal, None, "still wrong", by="Bev")
    with pytest.raises(NightRefused, match=rf"has no correction since flag {f.position}"):
        mark_corrected(store, DAY, f.position, "done", by="Ann")
    second = _last_recorded(store, TOP)
    assert second.label.deal == first.label.deal
    store_amendment(store, plan_stored(store, TOP, second))
    done = mark_corrected(store, DAY, f.position, "withdrawn too", by="Ann")
    got = facts_of(store, DAY).flag(f.position)
    assert got is not None and (got.status, got.resolved_at) == ("corrected", done.position)
