"""A :class:`~timeline.Timeline` as the replays show it: each step's number and sentence
(:class:`~present.narrate.StepLabel`), in force (the default view) or as recorded (corrections and
what they withdrew included); a correction worded by the step it corrects."""

from __future__ import annotations

from collections.abc import Sequence

from engine.state import State
from events.model import AnyEvent, Voided
from present.narrate import StepLabel, sentence
from timeline import Record, Step, Timeline

__all__ = [
    "correction_text",
    "in_force_labels",
    "latest",
    "numbered",
    "record_text",
    "recorded_labels",
    "recorded_view",
    "step_text",
]


def step_text(s: Step) -> str:
    """The sentence of a step, from the states either side of it. A step a correction left
    unfit (:class:`timeline.Unfit`: its states are the one it was refused at) is worded from
    its event alone: the player and what was recorded."""
    try:
        return sentence(s.before, s.event, s.after)
    except (IndexError, KeyError, ValueError):
        who = getattr(s.event, "player", None)
        what = s.event.type.replace("_", " ")
        return f"{who}: {what}" if isinstance(who, str) else what


def in_force_labels(t: Timeline) -> list[StepLabel]:
    """The label of each step in force (:attr:`Timeline.steps`)."""
    return [StepLabel(s.label.deal, s.label.step, step_text(s), sub=s.label.sub) for s in t.steps]


def correction_text(r: Record) -> str:
    """A ``voided`` or ``amended`` in words, by the steps it corrects: ``"Correction: step 7
    (Ann folds, ...) is withdrawn; the table goes back to step 6"``."""
    e = r.event
    if isinstance(e, Voided):
        gone = r.withdrew
        if not gone:
            return sentence(r.state, e, r.state)
        first = gone[-1]
        n = first.label.step
        back = (
            f"the table goes back to step {n - 1}"
            if n > 1 and not first.label.sub
            else "the table goes back to before that step"
        )
        also = "".join(f", with step {g.label.text} ({step_text(g)})" for g in reversed(gone[:-1]))
        what = f"step {first.label.text} ({step_text(first)})"
        return f"Correction: {what} is withdrawn{also}; {back}"
    old = r.withdrew[0] if r.withdrew else None
    put = r.put
    if put is not None and old is None:
        return f"Correction: step {put.label.text} is inserted: {step_text(put)}"
    if old is None:
        return sentence(r.state, e, r.state)
    head = f"Correction: step {old.label.text} ({step_text(old)})"
    if put is not None:
        return f"{head} is replaced: {step_text(put)}"
    return f"{head} is withdrawn"


def recorded_labels(t: Timeline) -> list[StepLabel]:
    """The label of each event of the log as recorded (:attr:`Timeline.log`): a step no longer
    in force keeps its number, ``withdrawn``; a correction carries the number of the step it
    corrects."""
    live = t.in_force()
    out: list[StepLabel] = []
    before = State()
    for r in t.log:
        lab = r.label
        if r.correction:
            out.append(StepLabel(lab.deal, lab.step, correction_text(r), False, True, lab.sub))
        else:
            text = sentence(before, r.event, r.state)
            gone = (r.seq, 0) not in live
            out.append(StepLabel(lab.deal, lab.step, text, gone, False, lab.sub))
        before = r.state
    return out


def recorded_view(t: Timeline) -> tuple[list[AnyEvent], list[State], list[StepLabel]]:
    """The log as recorded: its events, the state after each, their labels."""
    return [r.event for r in t.log], [r.state for r in t.log], recorded_labels(t)


def numbered(events: Sequence[AnyEvent], states: Sequence[State] | None = None) -> list[StepLabel]:
    """The step number and sentence of every event of a stored stream as recorded, for ``brag
    replay`` and the dashboard alike: the labels of its :class:`timeline.Timeline`
    (:func:`recorded_labels`). ``states`` is not needed (kept for old callers)."""
    return recorded_labels(Timeline.of(events))


def record_text(t: Timeline, seq: int) -> str:
    """The sentence of the log's event at ``seq`` as :func:`recorded_labels` words it (O(1): the
    Record page's pad words its last step, its Undo and its Redo without a replay)."""
    r = t.log[seq - 1]
    if r.correction:
        return correction_text(r)
    before = t.log[seq - 2].state if seq > 1 else State()
    return sentence(before, r.event, r.state)


def latest(
    t: Timeline, labels: Sequence[StepLabel], count: int
) -> list[tuple[StepLabel, str, str | None]]:
    """The last ``count`` of ``labels`` (the log as recorded, :func:`recorded_labels`), newest
    first, each as ``(label, sentence, now)``: a step still in force told as it stands now
    (after a correction of an earlier step its amounts may differ from when it was recorded,
    RULES 5.4); a withdrawn step as it was, with ``now`` the sentence of the step of that number
    in force where the log as recorded has no row for it (a conclusion a correction drew again,
    such as the pot won for another amount), else ``None``; a correction as it is."""
    now = {(lab.deal, lab.number): lab.text for lab in in_force_labels(t)}
    kept = {(lab.deal, lab.number) for lab in labels if not (lab.withdrawn or lab.correction)}
    out: list[tuple[StepLabel, str, str | None]] = []
    for lab in reversed(labels[max(len(labels) - count, 0) :]):
        key = (lab.deal, lab.number)
        if lab.correction:
            out.append((lab, lab.text, None))
        elif not lab.withdrawn:
            out.append((lab, now.get(key, lab.text), None))
        else:
            new = now.get(key) if key not in kept else None
            out.append((lab, lab.text, new if new != lab.text else None))
    return out
