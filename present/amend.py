"""A correction (:mod:`log.amend`) as ``brag amend`` and the Record page both show it: the target
named by its deal and step (the one numbering of :func:`present.narrate.numbered`), what is
withdrawn and recorded in its place, the later events kept or left out, and the impact (changed
deals, nets, standings). Wording only; the plan is the log's, the rules the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.state import Outcome, State
from events.model import AnyEvent, SessionStarted, Voided, is_derived
from log.amend import Amendment, AmendRefused, Impact
from present.narrate import StepLabel
from present.numbers import amount, signed
from present.replay import Replay
from present.rows import leaderboard

__all__ = ["AmendView", "Line", "describe", "outcome_text", "step_choices", "target_seq"]


def target_seq(replay: Replay, deal: int, step: int) -> int:
    """The seq of the event at ``step`` of ``deal`` in force (``replay`` as corrected, the
    numbering ``brag replay`` and the Replay page show); :class:`AmendRefused` if there is none."""
    if replay.recorded:
        raise ValueError("target_seq wants the replay as corrected")
    slices = {s.deal: s for s in replay.slices}
    sl = slices.get(deal)
    if sl is None:
        deals = [d for d in slices if d > 0]
        have = f"deals 1 to {max(deals)}" if deals else "no deal yet"
        raise AmendRefused(f"session {replay.session!r} has {have}; there is no deal {deal}")
    for i in range(sl.start, sl.stop):
        if replay.labels[i].step == step:
            e = replay.events[i]
            if _correctable(e):
                return e.seq if e.seq is not None else i + 1
            where = f"deal {deal}, step {step} ({replay.labels[i].text})"
            if is_derived(e):
                raise AmendRefused(
                    f"{where} is the engine's conclusion; correct the action that caused it"
                )
            raise AmendRefused(f"{where} cannot be corrected: the session's start")
    raise AmendRefused(f"deal {deal} has steps 1 to {sl.steps}; there is no step {step}")


def step_choices(replay: Replay, deal: int) -> list[tuple[int, str]]:
    """``(step, "14. Ann bets level 4: pays 4")`` for each step of ``deal`` a correction may
    target (recorded events in force; the session's start and the engine's conclusions aside)."""
    sl = replay.slice(deal)
    return [
        (replay.labels[i].step, f"{replay.labels[i].step}. {replay.labels[i].text}")
        for i in range(sl.start, sl.stop)
        if _correctable(replay.events[i])
    ]


def _correctable(e: AnyEvent) -> bool:
    """In the stream as corrected every event is in force: the recorded ones but the session's
    start may be corrected (:func:`log.amend.in_force`, the seqs :mod:`log.amend` accepts)."""
    return not is_derived(e) and not isinstance(e, SessionStarted)


def outcome_text(o: Outcome | None) -> str:
    """``"Ann wins 12 at the showdown"``, ``"pot of 6 carried (Bob blind)"``, ``"not ended"``."""
    if o is None:
        return "not ended"
    if o.result == "carried":
        return f"pot of {amount(o.amount)} carried ({o.blind} blind)"
    how = "at the showdown" if o.showdown else "uncontested"
    return f"{o.winner} wins {amount(o.amount)} {how}"


@dataclass(frozen=True, slots=True)
class Line:
    """One event of the plan: where it stands (``"deal 2, step 5"``) and its sentence;
    ``why``: the engine's reason a later event no longer fits."""

    where: str
    text: str
    why: str = ""


@dataclass(frozen=True, slots=True)
class AmendView:
    """Everything the terminal and the page print about a plan."""

    target: Line
    withdrawn: tuple[Line, ...]
    """The recorded events voided, latest first."""
    replacement: Line | None
    recorded: tuple[Line, ...]
    """After the replacement: the later events recorded again and the engine's conclusions."""
    dropped: tuple[Line, ...]
    deals: tuple[dict[str, Any], ...]
    nets: tuple[dict[str, Any], ...]
    standings_before: tuple[dict[str, Any], ...]
    standings_after: tuple[dict[str, Any], ...]
    winners_before: str
    winners_after: str
    again: int
    """Later recorded events recorded again (kept)."""
    corrected: Replay

    @property
    def summary(self) -> str:
        """``"Corrected: deal 2, step 5 (Ann bets ...) replaced by ...; ..."``, after storing."""
        what = f"{self.target.where} ({self.target.text})"
        if self.replacement is not None:
            head = f"{what} replaced by {self.replacement.text}"
        else:
            head = f"{what} removed"
        again = self.again
        tail = f"; {again} later event(s) recorded again" if again else ""
        if self.dropped:
            tail += f"; {len(self.dropped)} left out (no longer fit)"
        return f"Corrected: {head}{tail}; winners {self.winners_after}"


def _where(label: StepLabel) -> str:
    return f"deal {label.deal}, step {label.step}"


def _winners(state: State) -> str:
    if not state.seats:
        return "none"
    who = ", ".join(state.winners)
    if not state.finished:
        return f"the highest net so far {who} (the session is not over)"
    return who + (" (shared win)" if len(state.winners) > 1 else "")


def describe(events: Sequence[AnyEvent], plan: Amendment) -> AmendView:
    """The plan for the stored stream ``events`` (the one it was made from) in words."""
    before = Replay.of(events)
    label_of = {
        (e.seq if e.seq is not None else i + 1): lab
        for i, (e, lab) in enumerate(zip(before.events, before.labels, strict=True))
    }
    after = Replay.of([*events, *plan.preview])

    def old(seq: int, why: str = "") -> Line:
        lab = label_of[seq]
        return Line(_where(lab), lab.text, why)

    recorded = _recorded(after, plan)
    replacement = recorded.pop(0) if plan.replacement is not None else None
    return AmendView(
        old(plan.target),
        tuple(old(s) for s in plan.withdrawn),
        replacement,
        tuple(recorded),
        tuple(old(d.seq, d.refused or "") for d in plan.dropped),
        _changed_deals(plan.impact),
        _nets(plan.impact),
        tuple(leaderboard(plan.before)),
        tuple(leaderboard(plan.after)),
        _winners(plan.before),
        _winners(plan.after),
        len(plan.kept),
        after,
    )


def _recorded(after: Replay, plan: Amendment) -> list[Line]:
    """The events the plan records (the replacement first, if any), as numbered in ``after``,
    the stream with the plan's preview appended; its ``voided`` aside."""
    new_label = {
        e.seq: lab
        for e, lab in zip(after.events, after.labels, strict=True)
        if e.seq is not None and e.seq > plan.expected_seq
    }
    return [
        Line(_where(new_label[e.seq]), new_label[e.seq].text)
        for e in plan.preview
        if not isinstance(e, Voided) and e.seq is not None and e.seq in new_label
    ]


def _changed_deals(imp: Impact) -> tuple[dict[str, Any], ...]:
    """:attr:`AmendView.deals`: each deal whose outcome changes, before and after."""
    return tuple(
        {
            "deal": c.deal,
            "before": outcome_text(c.before),
            "after": outcome_text(c.after),
        }
        for c in imp.changed
    )


def _nets(imp: Impact) -> tuple[dict[str, Any], ...]:
    """:attr:`AmendView.nets`: each player's net and the pot on the table, before and after."""
    nets = tuple(
        {
            "player": p,
            "before": signed(v),
            "after": signed(imp.nets_after[p]),
            "change": signed(imp.nets_after[p] - v) if imp.nets_after[p] != v else "",
        }
        for p, v in imp.nets_before.items()
    )
    pot = {
        "player": "pot on the table",
        "before": amount(imp.pot_before),
        "after": amount(imp.pot_after),
        "change": signed(imp.pot_after - imp.pot_before) if imp.pot_after != imp.pot_before else "",
    }
    return (*nets, pot)
