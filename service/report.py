"""The night's report (issue 36.6): the standings, the biggest pots and the best hands shown, each
linked to its replay step, stamped with the log position and the rules it was made from.

What it may carry is what anyone may see (issue 33.1, :mod:`present.sight`): a hand is taken
only from the cards shown at a showdown in force (RULES 3.5, 5.8: :func:`present.sight.public_cards`
is the same set), never from a ``dealt`` or a ``shuffled`` order, so no hole card of an unshown
hand is in it, whether the session is over or not (a report is published: it is stricter than
RULES 1.4's "everything opens"). It carries no note at all (a note's text is its author's; a
shared note stays on the Replay page). A pot is taken from its ``pot_won`` in force (RULES 5.6,
5.9); a correction that withdrew a step is not in it.

:func:`report_of` reads a store (:class:`log.service.EventStore`); :func:`pots_of`,
:func:`hands_of` take one replay (:class:`present.replay.Replay`); the rendering is
:mod:`service.report_html` (HTML) and :mod:`service.report_pdf` (PDF).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from engine.hands import describe, strength
from events.cards import Card, canonical
from events.model import PotWon, Rules, Shown
from present.replay import Replay
from present.sight import in_force
from service.night import Night, night_of

if TYPE_CHECKING:
    from log.service import EventStore

__all__ = [
    "HandLine",
    "PotLine",
    "Report",
    "hands_of",
    "pots_of",
    "replay_href",
    "report_of",
    "rules_name",
]

_DEFAULT = Rules()

TOP = 5
"""Pots and hands a report lists, at most."""


def replay_href(session: str, deal: int, step: str) -> str:
    """The relative link to a replay step, as the dashboard's links give it (README, Replay):
    ``replay?session=S&deal=D&step=K`` (``K`` a step number as printed, ``"14"`` or ``"14a"``)."""
    return "replay?" + urlencode({"session": session, "deal": deal, "step": step})


@dataclass(frozen=True, slots=True)
class PotLine:
    """A pot won (RULES 5.6, 5.9): ``amount`` (stake units, exact) taken by ``winner`` in ``deal``
    of ``session`` (at ``table``), at a showdown or uncontested; ``step`` the ``pot_won``'s step
    number; ``href`` its replay link."""

    session: str
    table: str | None
    deal: int
    step: str
    amount: Fraction
    winner: str
    showdown: bool
    href: str


@dataclass(frozen=True, slots=True)
class HandLine:
    """A hand shown at a showdown (RULES 5.8): ``player``'s three ``cards`` (canonical text, highest
    first), ``hand`` as RULES 2.2 names it (``engine.hands.describe``), ``strength`` its key
    (RULES 2.2-2.7: larger is better); ``step`` the step that showed its last card."""

    session: str
    table: str | None
    deal: int
    step: str
    player: str
    cards: tuple[str, ...]
    hand: str
    strength: int
    href: str


@dataclass(frozen=True, slots=True)
class Report:
    """The night's report: the :class:`~service.night.Night`, its biggest pots (largest first, at
    most :data:`TOP`), its best hands shown (strongest first, at most :data:`TOP`), ``position``:
    the store's last global position it was made from, ``rules``: the rules' name
    (:func:`rules_name`, each distinct one, joined by ``"; "``)."""

    night: Night
    pots: tuple[PotLine, ...]
    hands: tuple[HandLine, ...]
    position: int
    rules: str

    @property
    def stamp(self) -> str:
        """``"made from log position 1234, rules standard"``: every page carries it (issue 36.7),
        so two copies can be told apart."""
        return f"made from log position {self.position}, rules {self.rules}"


def rules_name(rules: Rules) -> str:
    """A session's rules (FORMAT.md ``rules``) named: ``"standard"`` for the defaults, else the
    parameters that differ, ``"ante 2, pots 10"``, in the order FORMAT.md lists them."""
    diff = [
        f"{k.replace('_', ' ')} {v}"
        for k, v in rules.model_dump().items()
        if v != getattr(_DEFAULT, k)
    ]
    return ", ".join(diff) if diff else "standard"


def pots_of(rp: Replay, table: str | None) -> list[PotLine]:
    """Every pot won in force in ``rp`` (a ``pot_won``; a carried pot is not won, RULES 6.1), in
    the order played."""
    out = []
    for k in in_force(rp):
        e = rp.events[k]
        if isinstance(e, PotWon):
            lab = rp.labels[k]
            step = lab.number
            out.append(
                PotLine(
                    rp.session,
                    table,
                    e.deal,
                    step,
                    Fraction(e.amount),
                    e.player,
                    e.showdown,
                    replay_href(rp.session, e.deal, step),
                )
            )
    return out


def hands_of(rp: Replay, table: str | None) -> list[HandLine]:
    """Every hand shown whole at a showdown in force in ``rp`` (RULES 5.8: three cards, in one
    ``shown`` or one at a time when both are blind), in the order shown. Only ``shown`` events
    are read: a card dealt but never shown is never in a :class:`HandLine`."""
    held: dict[tuple[int, str], list[str]] = {}
    out = []
    for k in in_force(rp):
        e = rp.events[k]
        if not isinstance(e, Shown):
            continue
        lab = rp.labels[k]
        cards = held.setdefault((lab.deal, e.player), [])
        cards.extend(canonical(c) for c in e.cards)
        if len(cards) != 3:
            continue
        parsed = [Card.parse(c) for c in cards]
        order = sorted(parsed, key=lambda c: (-c.rank, c.suit))
        out.append(
            HandLine(
                rp.session,
                table,
                lab.deal,
                lab.number,
                e.player,
                tuple(str(c) for c in order),
                describe(parsed),
                strength(parsed),
                replay_href(rp.session, lab.deal, lab.number),
            )
        )
    return out


def _made(store: EventStore, day: date, top: int) -> Report:
    position = int(store.last_position())
    night = night_of(store, day)
    pots: list[PotLine] = []
    hands: list[HandLine] = []
    names: list[str] = []
    for s in night.sessions:
        rp = Replay.from_timeline(store.timeline(s.session))
        pots += pots_of(rp, s.table)
        hands += hands_of(rp, s.table)
        name = rules_name(rp.final.rules)
        if name not in names:
            names.append(name)
    pots.sort(key=lambda p: -p.amount)  # stable: ties in the order played
    hands.sort(key=lambda h: -h.strength)
    return Report(night, tuple(pots[:top]), tuple(hands[:top]), position, "; ".join(names))


def report_of(store: EventStore, day: date, *, top: int = TOP) -> Report:
    """The report of the night of ``day`` in ``store``: made again while the store moved as it
    was read (at most 5 times), so its ``position`` is the one every part was read at. Raises
    :class:`service.night.NightRefused` when no session started that day."""
    for _ in range(5):
        report = _made(store, day, top)
        if int(store.last_position()) == report.position:
            return report
    return report
