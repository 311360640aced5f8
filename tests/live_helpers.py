"""Sessions with a deal still in play, for the tests of what a visitor may see (issue 24.1): a
simulated session that records every card (``brag simulate --cards all``), cut in the middle of a
deal, so that the deal is live at the table."""

from __future__ import annotations

from pathlib import Path

from engine.state import card_texts
from events.codec import write_events
from events.model import AnyEvent, Dealt
from present.replay import Replay
from sim import simulate_session


def cut_in_deal(events: list[AnyEvent], deal: int, steps: int) -> list[AnyEvent]:
    """``events`` up to and including step ``steps`` of deal ``deal`` (its ``dealt`` is step 1)."""
    dealt = [k for k, e in enumerate(events) if isinstance(e, Dealt)]
    return events[: dealt[deal - 1] + steps]


def live_session(seed: str = "live", deal: int = 2, steps: int = 6) -> list[AnyEvent]:
    """A four-player all-cards simulated session cut after ``steps`` steps of deal ``deal``
    (seed ``"live"``: deal 2 is in its betting then, deal 1 ended at a showdown)."""
    return cut_in_deal(simulate_session(seed=seed, players=4, cards="all"), deal, steps)


def unshown(rp: Replay) -> set[str]:
    """The cards held in the session's latest state that nobody has shown (canonical text)."""
    out: set[str] = set()
    for p in rp.final.players:
        shown = set(card_texts(p.shown))
        for h in p.hands:
            out |= set(h.texts() or ()) - shown
    return out


def write_log(events: list[AnyEvent], path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as fp:
        write_events(events, fp)
    return path
