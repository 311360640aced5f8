"""A correction (:mod:`log.amend`) as ``brag amend`` and the Record page both show it: the target
named by its deal and step (the timeline's numbers, :class:`timeline.Label`), what the
``amended`` does, the later steps the rules now refuse with the repair proposed for each
(numbered), the conclusions the corrected end draws, and the impact (changed deals, nets,
standings). Wording only; the plan is the log's, the rules the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.state import Outcome, State
from events.model import AnyEvent, SessionStarted, is_derived
from log.amend import Amendment, AmendRefused, Impact
from log.annotations import Touched
from present.numbers import amount, count_of, signed
from present.replay import Replay
from present.rows import leaderboard
from present.steps import step_text
from timeline import Step, Timeline

__all__ = [
    "AmendView",
    "Line",
    "describe",
    "outcome_text",
    "step_choices",
    "target_seq",
    "target_step",
]


def _timeline(source: Replay | Timeline) -> Timeline:
    if isinstance(source, Timeline):
        return source
    if source.timeline is None:
        raise ValueError("the replay was not built from a timeline")
    return source.timeline


def target_step(source: Replay | Timeline, deal: int, step: object) -> Step:
    """The step in force numbered ``step`` (``7``, ``"7a"``) of ``deal``, as ``brag replay`` and
    the Replay page number it; :class:`AmendRefused` if there is none or it cannot be corrected
    (the session's start, an engine's conclusion)."""
    t = _timeline(source)
    deals = sorted({s.label.deal for s in t.steps})
    if deal not in deals:
        have = f"deals 1 to {max(deals)}" if deals and max(deals) > 0 else "no deal yet"
        raise AmendRefused(f"session {t.session!r} has {have}; there is no deal {deal}")
    found = t.find(deal, step)
    if found is None:
        mine = [s.label.text for s in t.steps if s.label.deal == deal]
        raise AmendRefused(
            f"deal {deal} has steps {mine[0]} to {mine[-1]}; there is no step {step} in force"
        )
    where = f"deal {deal}, step {found.label.text} ({step_text(found)})"
    if is_derived(found.event):
        raise AmendRefused(f"{where} is the engine's conclusion; correct the action that caused it")
    if isinstance(found.event, SessionStarted):
        raise AmendRefused(f"{where} cannot be corrected: the session's start")
    return found


def target_seq(source: Replay | Timeline, deal: int, step: object) -> int:
    """The seq of the log event that carries :func:`target_step`."""
    return target_step(source, deal, step).row


def step_choices(source: Replay | Timeline, deal: int) -> list[tuple[str, str]]:
    """``("14", "14. Ann bets level 4: pays 4")`` for each step of ``deal`` a correction may
    target (recorded events in force; the session's start and the engine's conclusions aside)."""
    return [
        (s.label.text, f"{s.label.text}. {step_text(s)}")
        for s in _timeline(source).steps
        if s.label.deal == deal and _correctable(s.event)
    ]


def _correctable(e: AnyEvent) -> bool:
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
    """One step of the plan: where it stands (``"deal 2, step 5"``) and its sentence; ``why``:
    the engine's reason a later step no longer fits, ``repair``: what the plan proposes."""

    where: str
    text: str
    why: str = ""
    repair: str = ""


@dataclass(frozen=True, slots=True)
class AmendView:
    """Everything the terminal and the page print about a plan."""

    target: Line
    action: str
    """``"withdraw"``, ``"replace"`` or ``"insert"``."""
    replacement: Line | None
    repairs: tuple[Line, ...]
    """The later steps the rules now refuse, each with the repair proposed (numbered from 1)."""
    concluded: tuple[Line, ...]
    """The conclusions the corrected end draws, stored with the correction."""
    deals: tuple[dict[str, Any], ...]
    nets: tuple[dict[str, Any], ...]
    standings_before: tuple[dict[str, Any], ...]
    standings_after: tuple[dict[str, Any], ...]
    winners_before: str
    winners_after: str
    stored: int
    """How many events the append stores."""
    corrected: Replay
    touched: tuple[Line, ...] = ()
    """The notes and remembered cards on the steps the correction takes out of force
    (:func:`log.amend.touched_by`): they stay on their action, shown withdrawn."""

    @property
    def summary(self) -> str:
        """``"Corrected: deal 2, step 5 (Ann bets ...) replaced by ...; ..."``, after storing."""
        what = f"{self.target.where} ({self.target.text})"
        if self.replacement is not None and self.action == "insert":
            head = f"{self.replacement.where} ({self.replacement.text}) inserted before {what}"
        elif self.replacement is not None:
            head = f"{what} replaced by {self.replacement.text}"
        else:
            head = f"{what} removed"
        tail = f"; {count_of(len(self.repairs), 'repair')}" if self.repairs else ""
        return f"Corrected: {head}{tail}; winners {self.winners_after}"


def _where(s: Step) -> str:
    return f"deal {s.label.deal}, step {s.label.text}"


def _winners(state: State) -> str:
    if not state.seats:
        return "none"
    who = ", ".join(state.winners)
    if not state.finished:
        return f"the highest net so far {who} (the session is not over)"
    return who + (" (shared win)" if len(state.winners) > 1 else "")


def describe(plan: Amendment, events: object = None, touched: Sequence[Touched] = ()) -> AmendView:
    """The plan in words (``events``, the stored stream, is not needed: kept for old callers);
    ``touched``: the annotations on the steps it takes out of force
    (:func:`log.amend.touched_by`), listed by the step they are on."""
    after = plan.timeline
    put = after.log[plan.expected_seq].put
    repairs = tuple(
        Line(
            _where(r.step),
            step_text(r.step),
            f"RULES {r.rule}: {r.reason}",
            "insert a shuffle before it (RULES 3.2)" if r.action == "insert" else "withdraw it",
        )
        for r in plan.repairs
    )
    concluded = tuple(
        Line(f"deal {r.label.deal}, step {r.label.text}", step_text(s))
        for r in after.log[plan.expected_seq :]
        if is_derived(r.event)
        for s in after.steps
        if s.key == (r.seq, 0)
    )
    return AmendView(
        Line(_where(plan.step), step_text(plan.step)),
        plan.correction.action,
        Line(_where(put), step_text(put)) if put is not None else None,
        repairs,
        concluded,
        _changed_deals(plan.impact),
        _nets(plan.impact),
        tuple(leaderboard(plan.before)),
        tuple(leaderboard(plan.after)),
        _winners(plan.before),
        _winners(plan.after),
        after.last_seq - plan.expected_seq,
        Replay.from_timeline(after),
        tuple(_touched_line(plan, a) for a in touched),
    )


def _touched_line(plan: Amendment, a: Touched) -> Line:
    """One annotation the correction touches: on which step, whose, what."""
    on = plan.step if plan.step.id is not None and str(plan.step.id) == a.event else None
    on = on or next(
        (r.step for r in plan.repairs if r.step.id is not None and str(r.step.id) == a.event),
        None,
    )
    where = _where(on) if on is not None else f"deal {a.deal}, step {a.step}"
    what = f"{a.by}'s note: {a.text}" if a.kind == "note" else f"{a.by}'s remembered cards"
    return Line(where, what, "stays on this action, shown withdrawn")


def _changed_deals(imp: Impact) -> tuple[dict[str, Any], ...]:
    """:attr:`AmendView.deals`: each deal whose outcome changes, before and after."""
    return tuple(
        {"deal": c.deal, "before": outcome_text(c.before), "after": outcome_text(c.after)}
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
