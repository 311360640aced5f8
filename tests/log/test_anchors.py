""":mod:`log.anchors`, the one place a step number becomes an event and back (issue 32), read
through a replay's public surface only: so a numbering whose labels are not numbers (an inserted
step "7a", as a timeline may number it) slots in, and a withdrawn step keeps its place."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import pytest
from shared_paths import HAVE_SHARED, NO_SHARED, SCENARIOS

from engine.fold import replay
from engine.state import State
from events.codec import read_file
from events.model import AnyEvent
from log.anchors import AnnotationRefused, dealt_at, event_at, step_of

if not HAVE_SHARED:  # the module reads a scenario as it is imported
    pytest.skip(NO_SHARED, allow_module_level=True)

EVENTS = [
    e.model_copy(update={"id": UUID(int=k + 1), "seq": k + 1})
    for k, (_, e) in enumerate(read_file(str(SCENARIOS / "card_example.jsonl")))
]


@dataclass(frozen=True)
class Label:
    deal: int
    step: int | str
    text: str
    withdrawn: bool = False
    correction: bool = False


@dataclass(frozen=True)
class Numbered:
    """A replay of another numbering: steps 1-3 of deal 0, deal 1 numbered 1..6, "6a" (a step
    inserted after 6), then 7.. (one step withdrawn in its place: 8)."""

    session: str
    events: tuple[AnyEvent, ...]
    states: tuple[State, ...]
    labels: tuple[Label, ...]


def _numbered() -> Numbered:
    events = EVENTS[:12]
    steps: list[int | str] = [1, 2, 3, 1, 2, 3, 4, 5, 6, "6a", 7, 8]
    labels = [
        Label(0 if k < 3 else 1, s, f"event {k + 1}", withdrawn=k == 11)
        for k, s in enumerate(steps)
    ]
    return Numbered("card-example", tuple(events), tuple(replay(events)), tuple(labels))


def test_a_label_is_matched_as_the_replay_shows_it() -> None:
    rp = _numbered()
    assert event_at(rp, 1, "6a") == str(UUID(int=10))
    assert event_at(rp, 1, 7) == event_at(rp, 1, "7") == str(UUID(int=11))
    assert event_at(rp, 0, 2) == str(UUID(int=2))
    assert dealt_at(rp, 1) == str(UUID(int=4))
    at = step_of(rp, str(UUID(int=10)))
    assert at is not None and (at.index, at.deal, at.step, at.withdrawn) == (9, 1, "6a", False)
    gone = step_of(rp, str(UUID(int=12)))  # a withdrawn step keeps its place, said withdrawn
    assert gone is not None and (gone.deal, gone.step, gone.withdrawn) == (1, 8, True)
    assert step_of(rp, str(UUID(int=99))) is None and step_of(rp, None) is None


@pytest.mark.parametrize(
    ("deal", "step", "said"),
    [
        (1, 8, "deal 1 of session 'card-example' has no step 8 (its steps are 1 to 7)"),
        (1, "6b", "has no step 6b"),
        (2, 1, "session 'card-example' has no deal 2 (its deals are 1 to 1)"),
    ],
)
def test_a_step_not_in_force_is_refused_in_one_line(deal: int, step: int | str, said: str) -> None:
    with pytest.raises(AnnotationRefused, match=said.replace("(", r"\(").replace(")", r"\)")):
        event_at(_numbered(), deal, step)
    with pytest.raises(AnnotationRefused, match="has no deal 3"):
        dealt_at(_numbered(), 3)
