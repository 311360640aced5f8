"""A session's review as the page draws it (issue 38.3 and 38.4): a view model, no Streamlit.

From a replay (:class:`present.replay.Replay`) and the graded rows of :func:`solver.review.review`
it gives the coverage with the reasons of the rest, the luck apart from decisions
(:class:`analytics.luck.LuckTracker`, stake units) beside the EV lost to decisions (antes, floats:
an equilibrium's expectation, never money), the three moments that cost or won the most (each a
link to its replay step), the accuracy by phase (blind, seen, showdown) and the cards of the deck
of one's own mistakes.

The reasons a decision is not graded come from :mod:`solver.review` in the solver's words ("no
reference: off the solution's path"), which ``brag review --json`` keeps stable; the page says
them in a club player's words (:func:`plain_reason`), and a session with nothing graded in one
short line (:func:`nothing_graded`).

The sight rule (:mod:`present.sight`): ``hidden`` is the set of deals a device receives only as a
spectator (:func:`present.sight.guards`: a session in progress, every deal since the last
shuffle). A grade, a best action, a luck term all depend on hole cards, so nothing of those deals
is given: their decisions are counted as withheld, with the reason.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from analytics.luck import LuckTracker
from events.model import Dealt, Shuffled
from present.numbers import amount
from solver.grades import rank
from solver.review import Row

__all__ = [
    "DECK_MARGIN",
    "PHASES",
    "REFERENCE",
    "WITHHELD",
    "Card",
    "Moment",
    "Summary",
    "deck_cards",
    "luck_by_player",
    "nothing_graded",
    "plain_reason",
    "positions",
    "replay_href",
    "review_href",
    "summarise",
]

PHASES = ("blind", "seen", "showdown")
"""The phases of the accuracy table: a decision taken blind (RULES 5.1), seen, or a see (5.7)."""
DECK_MARGIN = 0.25
"""A decision joins the deck when the best action beats the one taken by at least this (antes)."""
WITHHELD = "withheld until the deal opens (a session in progress: its hands are hidden, RULES 3.3)"
GOOD = rank("good")

_MORE_THAN_TWO = "more than two players were still in when the betting began"
PLAIN_REASONS = {
    "more than two in": _MORE_THAN_TWO,
    "the betting began outside the solved game (more than two in, or two hands)": _MORE_THAN_TWO,
    "a look before the first bet, in a deal the solved game does not play": (
        "it was a look before the first bet of a deal the reference does not play"
    ),
    "the other player had looked first (the solved game has the first to act decide first)": (
        "the other player had looked first, and the reference has the first to act choose first"
    ),
    "the first to act looked after this (the solved game has the first to act decide first)": (
        "the first to act looked after this, and the reference has the first to act choose first"
    ),
    "out of turn": "it was played out of turn",
    "rules outside the solved game (ante 1, open 1..2, raise 1)": (
        "the table's rules are not the ones the reference plays (ante 1, open 1 or 2, raise 1)"
    ),
    "two hands held (RULES 6.4 is not in the solved game)": (
        "a player held two hands, which the reference does not play"
    ),
    "the two left had paid more than the ante": (
        "the two players left had paid more than the ante before the betting"
    ),
    "outside the abstraction (its bets, levels and caps)": (
        "the betting went past what the reference plays (its bet sizes, levels and number of bets)"
    ),
    "the hand is not known": "the player's cards are not recorded",
    "off the solution's path": (
        "the play left the lines the reference plays, so it has no sure figure here"
    ),
    "solving... (this betting game is being solved in the background)": (
        "it is being worked out now (it fills in by itself)"
    ),
    "not solved yet (open this session's review to solve it)": (
        "it is not worked out yet (opening this session's review works it out)"
    ),
}
"""The solver's reasons (:mod:`solver.review`, :mod:`dashboard.stats.reviewing`) as a club
player reads them; "the reference" is the solved two-player game the decisions are graded
against (docs/review.md)."""
NOT_GRADED_WHY = {
    _MORE_THAN_TWO: "more than two players were in at every bet",
    PLAIN_REASONS["a look before the first bet, in a deal the solved game does not play"]: (
        "more than two players were in at every bet"
    ),
}
"""A session's one line when nothing is graded and every decision has the one reason."""
REFERENCE = (
    "A decision is graded against the reference: the best play worked out for two players left "
    "in a deal, each holding one hand, at ante 1."
)
"""What "the reference" of the reasons is, said under the coverage."""


def plain_reason(why: str) -> str:
    """The reason of a decision not graded (the solver's words, with or without its ``no
    reference: `` prefix) in a club player's words; a reason not known comes back as it is."""
    why = why.removeprefix("no reference: ")
    return PLAIN_REASONS.get(why, why)


def replay_href(session: str, deal: int, step: str, view: str | None = None) -> str:
    """The replay link of one step: ``replay?session=S&deal=D&step=K[&view=P]``."""
    q: dict[str, Any] = {"session": session, "deal": deal, "step": step}
    if view:
        q["view"] = view
    return "replay?" + urlencode(q)


def review_href(session: str | None, player: str | None = None, **extra: str) -> str:
    """The Review page's link: ``review?session=S[&player=P][&view=deck]``."""
    q = {"session": session, "player": player, **extra}
    return "review?" + urlencode({k: v for k, v in q.items() if v})


@dataclass(frozen=True)
class Moment:
    """A decision that cost (``swing`` < 0: minus its EV loss) or won (``swing`` > 0: a best
    decision's EV over the worst other action there) the most, antes."""

    row: Row
    swing: float
    href: str


@dataclass
class Summary:
    """What the page shows of one session for one player (or every player)."""

    decisions: int = 0
    graded: int = 0
    withheld: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    ev_lost: float = 0.0
    phases: dict[str, tuple[int, float, float]] = field(default_factory=dict)
    """phase -> (graded decisions, share graded best or good, mean EV loss in antes)."""
    moments: list[Moment] = field(default_factory=list)

    @property
    def mean_loss(self) -> float | None:
        return self.ev_lost / self.graded if self.graded else None

    def coverage_line(self) -> str:
        """``graded 12 of 40 decisions; not graded: 28 because more than two players were still
        in when the betting began``, each reason in plain words (:func:`plain_reason`) with its
        count, and ``; 5 withheld until the deal opens (...)`` before them when some are."""
        line = f"graded {self.graded} of {self.decisions} decisions"
        if self.withheld:
            line += f"; {self.withheld} {WITHHELD}"
        rest = [f"{n} because {why}" for why, n in self.reasons.most_common()]
        if rest:
            line += "; not graded: " + "; ".join(rest)
        return line


def _swing(r: Row) -> float:
    loss = r.ev_loss or 0.0
    if loss > 0.02 or not r.options:
        return -loss
    top = max(v for _, v in r.options)
    others = [v for a, v in r.options if a != r.action]
    return max((top - loss) - min(others), 0.0) if others else 0.0


def summarise(
    session: str,
    rows: Sequence[Row],
    hidden: Iterable[int] = (),
    player: str | None = None,
) -> Summary:
    """The summary of ``rows`` (one session's review), of ``player``'s decisions when given,
    leaving out the deals of ``hidden`` (counted as withheld)."""
    hide = set(hidden)
    out = Summary()
    graded: list[Row] = []
    for r in rows:
        if player is not None and r.player != player:
            continue
        out.decisions += 1
        if r.deal in hide:
            out.withheld += 1
        elif r.ev_loss is None:
            out.reasons[plain_reason(r.grade)] += 1
        else:
            graded.append(r)
    out.graded = len(graded)
    out.ev_lost = sum(r.ev_loss or 0.0 for r in graded)
    out.phases = _phases(graded)
    out.moments = [
        Moment(r, _swing(r), replay_href(session, r.deal, r.step, r.player)) for r in _top(graded)
    ]
    return out


def nothing_graded(s: Summary) -> str | None:
    """Why a session's review grades none of the decisions, in a few plain words ("more than two
    players were in at every bet"); ``None`` when it grades one or more."""
    if s.graded:
        return None
    if not s.decisions:
        return "no decision was recorded"
    if s.withheld == s.decisions:
        return "its deals open when the session ends"
    (why, n), *_ = s.reasons.most_common(1)
    if n == s.decisions:
        return NOT_GRADED_WHY.get(why, why)
    if why == _MORE_THAN_TWO:
        return "more than two players were in at most bets"
    return why


def _top(graded: Sequence[Row]) -> list[Row]:
    """The three moments: the two costliest decisions and the one that won the most, the rest
    filled by the largest swings; in the log's order."""
    costs = sorted((r for r in graded if _swing(r) < 0), key=_swing)
    wins = sorted((r for r in graded if _swing(r) > 0), key=_swing, reverse=True)
    picked = costs[:2] + wins[:1]
    rest = sorted((r for r in costs[2:] + wins[1:]), key=lambda r: -abs(_swing(r)))
    picked += rest[: 3 - len(picked)]
    order = {id(r): i for i, r in enumerate(graded)}
    return sorted(picked, key=lambda r: order[id(r)])


def _phases(graded: Sequence[Row]) -> dict[str, tuple[int, float, float]]:
    out = {}
    for ph in PHASES:
        got = [r for r in graded if r.phase == ph]
        if got:
            good = sum(rank(r.grade) >= GOOD for r in got) / len(got)
            out[ph] = (len(got), good, sum(r.ev_loss or 0.0 for r in got) / len(got))
    return out


def luck_by_player(
    steps: Iterable[Any],
    hidden: Iterable[int] = (),
    prior: Mapping[str, Mapping[str, int]] | None = None,
) -> dict[str, Fraction]:
    """Each player's luck over the deals of ``steps`` (a timeline's steps in force), stake units
    (:mod:`analytics.luck`: the value of the hands dealt given the seats' places and the
    tendencies shown in the earlier deals and, ``prior``, each name's earlier sessions
    (:func:`analytics.prior_rows.session_priors`), less its average over the deals that could
    have come; 0 for a deal under the pack),
    leaving out the deals of ``hidden``; empty for a ``cards: "shown"`` session."""
    hide = set(hidden)
    tracker = LuckTracker(prior)
    out: dict[str, Fraction] = {}
    for s in steps:
        tracker.acted(s.event, s.before)
        if isinstance(s.event, Shuffled):
            tracker.shuffled()
        elif isinstance(s.event, Dealt):
            after = s.after
            ticks = tracker.dealt(after)
            if ticks is None or s.label.deal in hide:
                continue
            for p, t in zip(after.seats, ticks, strict=True):
                out[p] = out.get(p, Fraction(0)) + Fraction(t, after.scale)
    return out


@dataclass(frozen=True)
class Card:
    """One card of the deck: the position as the player saw it, the choices and the answer."""

    id: str
    session: str
    deal: int
    step: str
    player: str
    seen_as: list[str]
    choices: list[tuple[str, float]]
    taken: str
    best: str
    ev_loss: float
    href: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "where": f"{self.session} · deal {self.deal} · step {self.step}",
            "seen": self.seen_as,
            "choices": [[a, round(v, 6)] for a, v in self.choices],  # one loss, however shown
            "taken": self.taken,
            "best": self.best,
            "loss": round(self.ev_loss, 6),
            "href": self.href,
        }


def card_id(session: str, deal: int, step: str, player: str) -> str:
    """A short stable id of a decision (the deck's progress keeps these per browser)."""
    return hashlib.sha256(f"{session}\0{deal}\0{step}\0{player}".encode()).hexdigest()[:12]


def deck_cards(
    session: str,
    rows: Sequence[Row],
    player: str,
    positions: Mapping[tuple[int, str], list[str]],
    hidden: Iterable[int] = (),
    margin: float = DECK_MARGIN,
) -> list[Card]:
    """``player``'s decisions of ``rows`` whose best action beats the one taken by ``margin``
    antes or more, outside ``hidden``, each with its position as the player saw it
    (``positions``: (deal, step) -> lines, :func:`dashboard.stats.review_positions.seen_as`)."""
    hide = set(hidden)
    out = []
    for r in rows:
        if r.player != player or r.deal in hide or r.ev_loss is None or r.ev_loss < margin:
            continue
        out.append(
            Card(
                card_id(session, r.deal, r.step, player),
                session,
                r.deal,
                r.step,
                player,
                positions.get((r.deal, r.step), []),
                list(r.options),
                r.action,
                r.best or "",
                r.ev_loss,
                replay_href(session, r.deal, r.step, player),
            )
        )
    return out


_SUIT = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _card(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + _SUIT.get(code[1], code[1])


def _seen_as(b: Any, who: str, hand: Sequence[str], before: Sequence[str]) -> list[str]:
    me = b.players[b.seat(who)]
    mine = "not looked at (blind)" if me.blind else " ".join(map(_card, hand))
    others = [
        f"{b.seats[i]} {'blind' if b.players[i].blind else 'seen'}"
        for i in b.active
        if b.seats[i] != who
    ]
    return [
        f"You are {who}. Your hand: {mine or 'not recorded'}",
        f"In against you: {', '.join(others) or 'nobody'}",
        f"Pot {amount(b.pot)}, level {b.level or 'none yet'}",
        *(["So far: " + "; ".join(before[-6:])] if before else []),
    ]


def positions(
    steps: Iterable[Any], sentences: Mapping[tuple[int, str], str], rows: Sequence[Row]
) -> dict[tuple[int, str], list[str]]:
    """Each row's position as its player saw it, a few lines: their hand only once they had
    looked (RULES 5.1; a blind player's is "not looked at"), who is in, blind or seen, the pot
    and the level, and the deal's earlier decisions in the replay's words (``sentences``:
    (deal, step number) -> the sentence; a sentence of a ``dealt`` or ``shown`` is never used)."""
    wanted = {(r.deal, r.step): r.player for r in rows}
    out: dict[tuple[int, str], list[str]] = {}
    hands: dict[str, list[str]] = {}
    before: list[str] = []
    deal = -1
    for s in steps:
        d, k = s.label.deal, str(s.label)
        if d != deal:
            deal, hands, before = d, {}, []
        if isinstance(s.event, Dealt):
            hands = {p: list(h) for p, h in (s.event.hands or {}).items()}
            continue
        who = wanted.get((d, k))
        if who is not None:
            out[(d, k)] = _seen_as(s.before, who, hands.get(who, []), before)
        if s.event.type in ("looked", "bet", "folded", "saw", "kept", "thrown"):
            before.append(sentences.get((d, k), s.event.type))
    return out
