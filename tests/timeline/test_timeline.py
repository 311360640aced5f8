"""The :class:`timeline.Timeline` on concrete sessions (issue 32, items 1 to 3): old logs with
``voided`` number exactly as before; an ``amended`` keeps every other step's number, a replacement
takes its target's, an inserted step gets a letter; a correction names a step in force by id and
seq; an Undo after a correction withdraws the step the correction put in force."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from pathlib import Path

import pytest
from shared_paths import ROOT, VALID_SCENARIOS
from timeline_helpers import stamped as _stamped

from engine.fold import complete
from engine.state import State
from events.codec import read_file
from events.errors import FormatError
from events.model import Amended, AnyEvent, Folded, Looked, Shuffled, Voided
from sim.randplay import random_session
from timeline import Label, Step, Timeline, Unfit, letters, parse_step

# --- old logs number exactly as brag replay numbered them before issue 32 ---------------------


def _old_numbering(events: Sequence[AnyEvent], states: Sequence[State]) -> list[tuple[int, int]]:
    """``(deal, step)`` of each event as ``present.narrate.numbered`` gave them before the
    timeline (a ``voided`` is numbered as the first step it withdrew), kept as the reference."""
    out: list[tuple[int, int]] = []
    kept: list[tuple[int, int]] = []  # (seq, index) in force
    gone: set[int] = set()
    deal = 0
    for k, (e, after) in enumerate(zip(events, states, strict=True)):
        if isinstance(e, Voided):
            back: list[int] = []
            while kept and kept[-1][0] >= e.seq:
                back.append(kept.pop()[1])
            gone.update(back)
            out.append(out[back[-1]] if back else (deal, 0))
            continue
        deal = max(deal, after.deals)
        live = [i for _, i in kept]
        last = out[live[-1]] if live else None
        out.append((deal, last[1] + 1 if last and last[0] == deal else 1))
        kept.append((e.seq if e.seq is not None else k + 1, k))
    return out


def _logs() -> list[Path]:
    return sorted((ROOT / "data").rglob("*.jsonl")) + [Path(p) for p in VALID_SCENARIOS]


@pytest.mark.parametrize("path", _logs(), ids=lambda p: p.name)
def test_old_logs_number_as_before(path: Path) -> None:
    steps = list(complete(read_file(str(path))))
    events = [s.event for s in steps]
    t = Timeline.of(events)
    want = _old_numbering(events, [s.state for s in steps])
    assert [(r.label.deal, r.label.step) for r in t.log] == want
    assert all(r.label.sub == 0 for r in t.log)
    assert t.state.nets == steps[-1].state.nets


def test_the_season_and_the_scenarios_are_there() -> None:
    assert len([p for p in _logs() if "season" in p.parts]) >= 30


# --- corrections ------------------------------------------------------------------------------


def _session(seed: int = 7) -> Timeline:
    rng = random.Random(seed)
    events = random_session(rng, "t", players=4, cards="shown", pots=8, void_rate=0.0)
    return Timeline.of(_stamped(events))


def _look_then_fold(t: Timeline) -> int:
    """The index of the first step in force that is a look by a player whose next action is to
    fold (so nothing after it changes: a blind player pays half, RULES 5.3)."""
    for k, s in enumerate(t.steps):
        if isinstance(s.event, Looked):
            who = s.event.player
            mine = [x for x in t.steps[k + 1 :] if getattr(x.event, "player", None) == who]
            if mine and isinstance(mine[0].event, Folded) and mine[0].label.deal == s.label.deal:
                return k
    raise AssertionError("no look then fold in this session")


def _early_look() -> tuple[Timeline, int, Step]:
    """A session, the index of a look its player folds after in the same deal, and that look."""
    t = _session()
    k = _look_then_fold(t)
    return t, k, t.steps[k]


def test_withdrawing_an_early_look_keeps_every_later_label_and_event() -> None:
    t, _, look = _early_look()
    assert look.id is not None
    fix = Amended(action="withdraw", target=look.id, target_seq=look.row)
    after = t.extend(fix)
    assert after.last_seq == t.last_seq + 1  # one fact, nothing voided and recorded again
    before = {s.key: (s.label, s.event) for s in t.steps}
    for s in after.steps:
        if s.key in before:
            assert before[s.key] == (s.label, s.event)
    assert look.key not in after.in_force()
    assert len(after.steps) == len(t.steps) - 1
    assert after.state.nets == t.state.nets  # a look costs nothing
    assert after.state.seq == after.last_seq
    assert after.log[-1].withdrew == (look,)


def test_an_inserted_step_takes_a_letter_and_a_replacement_its_targets_label() -> None:
    t, k, look = _early_look()
    assert look.id is not None
    first = t.extend(Amended(action="withdraw", target=look.id, target_seq=look.row))
    again = Looked(player=look.event.player, id=uuid.uuid4())  # type: ignore[union-attr]
    back = first.extend(
        Amended(
            action="insert", target=t.steps[k + 1].id, target_seq=t.steps[k + 1].row, event=again
        )
    )
    put = back.log[-1].put
    assert put is not None
    prev = t.steps[k - 1].label
    assert put.label == Label(prev.deal, prev.step, 1)
    assert put.label.text == f"{prev.step}a"
    assert back.find(prev.deal, f"{prev.step}a") is put
    # A replacement of the inserted step keeps its label; the table is as it was.
    other = Looked(player=again.player, id=uuid.uuid4())
    swap = back.extend(Amended(action="replace", target=again.id, target_seq=put.row, event=other))
    assert swap.log[-1].put is not None and swap.log[-1].put.label == put.label
    assert swap.state.nets == t.state.nets
    # An Undo withdraws the latest step in force, whatever carries it.
    undo = swap.extend(Voided(seq=swap.state.recorded_seq or 0))
    assert undo.log[-1].withdrew[-1].key == swap.steps[len(swap.steps) - 1 - _tail(swap)].key


def _tail(t: Timeline) -> int:
    """How many conclusions follow the latest recorded step in force."""
    n = 0
    while t.steps[len(t.steps) - 1 - n].derived:
        n += 1
    return n


def test_an_undo_after_a_correction_goes_back_one_step() -> None:
    t, _, look = _early_look()
    assert look.id is not None
    fixed = t.extend(Amended(action="withdraw", target=look.id, target_seq=look.row))
    last = fixed.steps[len(fixed.steps) - 1 - _tail(fixed)]
    assert fixed.state.recorded_seq == last.row
    undone = fixed.extend(Voided(seq=last.row))
    assert last.key not in undone.in_force()
    assert undone.state.seq == undone.last_seq


def test_a_correction_names_a_step_in_force_by_id_and_seq() -> None:
    t = _session()
    look = t.steps[_look_then_fold(t)]
    assert look.id is not None
    with pytest.raises(FormatError, match="target_seq"):
        t.extend(Amended(action="withdraw", target=look.id, target_seq=look.row + 1))
    with pytest.raises(FormatError, match="no recorded event in force"):
        t.extend(Amended(action="withdraw", target=uuid.uuid4(), target_seq=look.row))
    gone = t.extend(Amended(action="withdraw", target=look.id, target_seq=look.row))
    with pytest.raises(FormatError, match="no recorded event in force"):
        gone.extend(Amended(action="withdraw", target=look.id, target_seq=look.row))
    start = t.steps[0]
    assert start.id is not None
    with pytest.raises(FormatError, match="start"):
        t.extend(Amended(action="withdraw", target=start.id, target_seq=1))


def test_a_later_step_that_no_longer_fits_is_named_with_its_rule() -> None:
    t = _session()
    first_deal = next(s for s in t.steps if s.event.type == "dealt")
    assert first_deal.id is not None
    # Withdrawing the first shuffle leaves the first deal without one (RULES 3.2).
    shuffle = next(s for s in t.steps if isinstance(s.event, Shuffled))
    assert shuffle.id is not None
    with pytest.raises(Unfit) as err:
        t.extend(Amended(action="withdraw", target=shuffle.id, target_seq=shuffle.row))
    assert err.value.step.key == first_deal.key
    assert err.value.rule == "3.2" and err.value.shuffle_due
    assert f"step {first_deal.label.text}" in err.value.message


def test_labels_print_and_parse() -> None:
    assert [letters(n) for n in (0, 1, 26, 27)] == ["", "a", "z", "aa"]
    assert parse_step("12b") == (12, 2) and parse_step(" 3 ") == (3, 0)
    assert parse_step(None) is None and parse_step("b3") is None
    assert str(Label(2, 7, 1)) == "7a"
