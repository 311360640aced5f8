"""A simulated heads-up session of every card (Ann, Bob; seed 3) for the Review page's tests,
finished or cut in the middle of a deal (in progress), and its review from the shipped games."""

from __future__ import annotations

from pathlib import Path

from events.codec import write_events
from events.model import AnyEvent, Bet
from sim.table import SessionSpec, simulate
from solver.review import ABSTRACTION, Review, review
from solver.solution import ITERATIONS, Subgame, available, subgame
from timeline.core import Timeline

SESSION, LIVE = "hu-review", "hu-live"
SEATS = (("Ann", "rock"), ("Bob", "loose"))


def events(session: str = SESSION, seed: int = 3) -> list[AnyEvent]:
    """Seed 3 needs only shipped games; seed 8 also a game with 4.5 antes of dead money."""
    return list(simulate(SessionSpec(session=session, seats=SEATS, seed=seed)))


def in_progress() -> list[AnyEvent]:
    """The session cut after the first bet of its sixth deal: that deal is in play."""
    evs = events(LIVE)
    t = Timeline.of(evs)
    k = next(i for i, s in enumerate(t.steps) if s.label.deal == 6 and isinstance(s.event, Bet))
    return evs[: k + 1]


def write(path: Path, evs: list[AnyEvent]) -> Path:
    with open(path, "w", encoding="utf-8") as fp:
        write_events(evs, fp)
    return path


def shipped_only(seen: tuple[bool, bool], dead: float) -> Subgame | str:
    """The review's games as a page that does not wait has them: shipped (or cached) only."""
    if available(ABSTRACTION, seen, dead, ITERATIONS, 0):
        return subgame(ABSTRACTION, seen, dead)
    return "not at hand"


def reviewed(evs: list[AnyEvent]) -> tuple[Timeline, Review]:
    t = Timeline.of(evs)
    return t, review(t.steps, games=shipped_only)
