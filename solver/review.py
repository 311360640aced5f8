"""Graded decisions of a session against the solved heads-up game (issue 38.2).

A decision (``looked``, ``kept``, ``thrown``, ``bet``, ``folded``, ``saw``) is covered when the
solver's game is the deal being played: exactly two players are in when the betting starts (the
others folded before any bet: their antes are dead money, RULES 4.1 and 5.6), each holds one hand
(RULES 6.4 is not modelled), the ante is 1 and the bets stay inside the abstraction (open at 1 or
raise by its step, under its caps). The player's hand must be known for a seen decision (a
``cards: "all"`` session, or the hand shown at the showdown); a blind decision is judged on what
the player knew: nothing of the hand (RULES 5.1). Anything else is "no reference", with the reason.

A player's own remembered cards (their private note, :mod:`log.annotations`) grade that player's
seen decisions where the log does not know the hand, for that player's own view only: the rows are
marked ``from_note`` and no other player's row uses them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from engine.hands import strength_codes
from engine.state import State
from events.cards import Card
from events.model import Bet, Dealt, Folded, Kept, Looked, Saw, Shown, Thrown
from solver.buckets import buckets
from solver.game import ACTIONS, FOLD, KEEP, LOOK, RAISE, SEE, Abstraction, Node
from solver.grades import grade
from solver.looks import Opening, look_evs
from solver.solution import ITERATIONS, Subgame, subgame
from timeline.steps import Step

__all__ = ["ABSTRACTION", "DECISIONS", "ON_PATH", "Review", "Row", "review"]

ABSTRACTION = Abstraction(buckets=100, max_bets=5, max_level=5, raise_by=1)
"""The abstraction the shipped reference uses (docs/review.md)."""

ON_PATH = 0.01
"""A decision is graded only where the solution itself comes with a chance of at least this, for
each player (the player with the hand held, or blind; the opponent over its range): off the
solution's path an equilibrium does not fix the play, and two solutions disagree there."""

DECISIONS = (Looked, Kept, Thrown, Bet, Folded, Saw)
LOOK_FIRST = "a look before the first bet, in a deal the solved game does not play"
"""Why a look before the first bet has no reference (else it is graded: :mod:`solver.looks`)."""
Solver = Callable[[tuple[bool, bool], float], "Subgame | str"]
"""Who is seen when the betting starts, the dead money -> the betting game, or why there is none
(a page that will not wait for a solve says "solving...")."""


@dataclass(frozen=True)
class Row:
    """One decision: ``ev_loss`` (antes, float) and ``best`` are ``None`` with no reference."""

    deal: int
    step: str
    player: str
    action: str
    best: str | None
    ev_loss: float | None
    grade: str
    phase: str = ""
    """``blind`` (the player had not looked), ``seen``, or ``showdown`` (a see, RULES 5.7)."""
    options: tuple[tuple[str, float], ...] = ()
    """Each action of the solved game here and its EV (antes: the player's expected net in the
    deal, what it wins less what it paid, the dead antes counted in the pot), for a graded
    row."""
    from_note: bool = False
    """Graded on the cards the player remembers (their private note), not on the log's."""

    def as_dict(self) -> dict[str, object]:
        return {
            "deal": self.deal,
            "step": self.step,
            "player": self.player,
            "action": self.action,
            "best": self.best,
            "ev_loss": None if self.ev_loss is None else round(self.ev_loss, 4),
            "grade": self.grade,
        }


@dataclass
class Review:
    """The rows, in the log's order, and the coverage (covered rows over all decisions)."""

    rows: list[Row] = field(default_factory=list)

    @property
    def covered(self) -> int:
        return sum(r.ev_loss is not None for r in self.rows)

    def coverage(self) -> dict[str, object]:
        n = len(self.rows)
        return {
            "decisions": n,
            "covered": self.covered,
            "share": round(self.covered / n, 4) if n else 0.0,
        }


def _action_text(e: object) -> str:
    match e:
        case Bet():
            return f"bet {e.level}"
        case Folded():
            return "fold"
        case Saw():
            return "see"
        case Looked():
            return "look"
        case Kept():
            return "keep"
        case _:
            return "throw"


def _abstract_text(n: Node, a: int, ab: Abstraction) -> str:
    if a == KEEP:
        return f"bet {n.level or 1}"
    if a == RAISE:
        return f"bet {(n.level or 1) + ab.raise_by}"
    return ACTIONS[a]


def _known_hands(steps: Iterable[Step]) -> dict[str, int]:
    """Each player's hand strength known in the deal: dealt (``cards: "all"``) or shown (5.8)."""
    known: dict[str, tuple[int, ...]] = {}
    shown: dict[str, list[int]] = {}
    for s in steps:
        e = s.event
        if isinstance(e, Dealt) and e.hands:
            known.update({p: tuple(Card.parse(c).code for c in h) for p, h in e.hands.items()})
        elif isinstance(e, Shown):
            shown.setdefault(e.player, []).extend(Card.parse(c).code for c in e.cards)
    for p, codes in shown.items():
        if len(set(codes)) == 3:
            known.setdefault(p, tuple(codes))
    return {p: strength_codes(*c) for p, c in known.items() if len(c) == 3}


def _phase(s: Step, player: str) -> str:
    if isinstance(s.event, Saw):
        return "showdown"
    b = s.before
    return "blind" if b.players[b.seat(player)].blind else "seen"


def _map(e: object, n: Node, ab: Abstraction) -> int | None:
    match e:
        case Looked():
            return LOOK
        case Folded():
            return FOLD
        case Saw():
            return SEE
        case Bet():
            base = n.level or 1
            if e.level == base:
                return KEEP
            if e.level == base + ab.raise_by:
                return RAISE
    return None


def _entry(before: State, player: str, look: bool) -> str | None:
    """Why the betting game cannot start at this decision (``None``: it can)."""
    r = before.rules
    if len(before.active) != 2:
        return "more than two in"
    if before.level is not None:
        return "the betting began outside the solved game (more than two in, or two hands)"
    if look:  # RULES 5.1: the looks before the first bet are the game's first move (solver.looks)
        return LOOK_FIRST
    if before.turn_name != player:
        return "out of turn"
    if r.ante != 1 or r.open_min != 1 or r.open_max < 2 or r.raise_max < 1:
        return "rules outside the solved game (ante 1, open 1..2, raise 1)"
    if any(before.players[i].two_hands for i in before.active):
        return "two hands held (RULES 6.4 is not in the solved game)"
    return None


class _Deal:
    """One deal's walk through the solved game."""

    def __init__(
        self,
        steps: list[Step],
        solver: Solver,
        ab: Abstraction,
        note: tuple[str, Sequence[str]] | None = None,
    ) -> None:
        self.steps, self.solver, self.ab = steps, solver, ab
        self.known = _known_hands(steps)
        self.noted: str | None = None
        if note is not None and note[0] not in self.known and len(set(note[1])) == 3:
            self.noted = note[0]
            self.known[note[0]] = strength_codes(*(Card.parse(c).code for c in note[1]))
        self.game: Subgame | None = None
        self.order: tuple[str, str] = ("", "")
        self.node = 0
        self.left: str | None = None
        self.opening: Opening | None = None
        self.closed = LOOK_FIRST  # why the looks before the first bet have no reference
        self._open()

    def _open(self) -> None:
        """How the deal's betting began (:attr:`opening`), when the solved game plays it (the
        first bet or fold with two in, inside its rules); else why not (:attr:`closed`)."""
        s = next((x for x in self.steps if isinstance(x.event, DECISIONS[1:])), None)
        if s is None or not isinstance(s.event, DECISIONS):
            return
        player = str(s.event.player)
        b = s.before
        why = _entry(b, player, False)
        if why is not None:
            self.closed = why
            return
        other = next(b.seats[i] for i in b.active if b.seats[i] != player)
        if b.paid_in_deal(player) != 1 or b.paid_in_deal(other) != 1:
            self.closed = "the two left had paid more than the ante"
            return
        seen = (not b.players[b.seat(player)].blind, not b.players[b.seat(other)].blind)
        self.opening = Opening(player, other, seen, float(b.pot - Fraction(2)))

    def rows(self) -> list[Row]:
        out = []
        for s in self.steps:
            if isinstance(s.event, DECISIONS):
                out.append(self._row(s))
        return out

    def _start(self, s: Step, player: str) -> str | None:
        why = _entry(s.before, player, isinstance(s.event, Looked))
        if why is not None:
            return why
        b = s.before
        other = next(b.seats[i] for i in b.active if b.seats[i] != player)
        seen = (not b.players[b.seat(player)].blind, not b.players[b.seat(other)].blind)
        if b.paid_in_deal(player) != 1 or b.paid_in_deal(other) != 1:
            return "the two left had paid more than the ante"
        dead = float(b.pot - Fraction(2))
        game = self.solver(seen, dead)
        if isinstance(game, str):
            return game
        self.game = game
        self.order, self.node = (player, other), 0
        return None

    def _row(self, s: Step) -> Row:
        e = s.event
        assert isinstance(e, DECISIONS)
        player = str(e.player)
        base = (s.label.deal, str(s.label), player, _action_text(e))
        phase = _phase(s, player)
        why = self.left
        if why is None and self.game is None:
            why = self._start(s, player)
            if why == LOOK_FIRST and self.opening is not None:
                return self._look(s, base, phase)
            if why == LOOK_FIRST:
                why = self.closed
        if why is not None or self.game is None:
            return Row(*base, None, None, f"no reference: {why}", phase)
        tree = self.game.tree
        n = tree.nodes[self.node]
        a = _map(e, n, self.ab)
        if self.order[n.player] != player or a is None or a not in n.actions:
            self.left = "outside the abstraction (its bets, levels and caps)"
            return Row(*base, None, None, f"no reference: {self.left}", phase)
        here, self.node = self.node, n.children[n.actions.index(a)]
        return self._judge(base, phase, here, a)

    def _look(self, s: Step, base: tuple[int, str, str, str], phase: str) -> Row:
        """A look before the first bet, graded against staying blind (:mod:`solver.looks`)."""
        op = self.opening
        assert op is not None

        def games(seen: tuple[bool, bool]) -> float | str:
            g = self.solver(seen, op.dead)
            return g if isinstance(g, str) else g.value()

        evs = look_evs(op, s.before, base[2], games)
        if isinstance(evs, str):
            return Row(*base, None, None, f"no reference: {evs}", phase)
        top = max(evs.values())
        best = max(evs, key=lambda k: evs[k])
        loss = max(top - evs["look"], 0.0)
        runner = min((top - v for k, v in evs.items() if k != best), default=0.0)
        opts = tuple((k, v + op.dead / 2) for k, v in evs.items())  # the real net: see _judge
        return Row(*base, best, loss, grade(loss, runner, "look"), phase, opts)

    def _pinned(self, here: int, evs: dict[int, float]) -> dict[int, float]:
        """A blind decision's EVs, each action the solution does not play here valued by the
        game solved again with it played (:meth:`Subgame.pinned_ev`): fixed, where the
        solution's own figure rests on play it never makes."""
        assert self.game is not None
        pins = set(self.game.pins(ON_PATH))
        out = dict(evs)
        for a in evs:
            if (here, a) in pins:
                got = self.game.pinned_ev(here, a)
                if got is not None:
                    out[a] = got
        return out

    def _judge(self, base: tuple[int, str, str, str], phase: str, here: int, a: int) -> Row:
        """The row of action ``a`` taken at node ``here`` of the game."""
        assert self.game is not None
        n = self.game.tree.nodes[here]
        player = base[2]
        hand = None
        if not n.blind:
            if player not in self.known:
                return Row(*base, None, None, "no reference: the hand is not known", phase)
            hand = buckets(self.ab.buckets).of_strength(self.known[player])
        evs = self.game.ev(here, hand, ON_PATH)
        if evs is None or self.game.reach(here, hand) < ON_PATH:
            return Row(*base, None, None, "no reference: off the solution's path", phase)
        if hand is None:
            evs = self._pinned(here, evs)
        top = max(evs.values())
        best = max(evs, key=lambda k: evs[k])
        loss = max(top - evs[a], 0.0)
        runner = min((top - v for k, v in evs.items() if k != best), default=0.0)
        # shown as the player's real expected net in the deal: the game takes half the dead
        # antes off each player's value (a zero sum); the losses are the same either way
        half = self.game.dead / 2
        opts = tuple((_abstract_text(n, k, self.ab), v + half) for k, v in evs.items())
        text = _abstract_text(n, best, self.ab)
        noted = hand is not None and player == self.noted
        return Row(*base, text, loss, grade(loss, runner, base[3]), phase, opts, noted)


def review(
    steps: Iterable[Step],
    deal: int | None = None,
    *,
    ab: Abstraction = ABSTRACTION,
    iterations: int = ITERATIONS,
    seed: int = 0,
    games: Solver | None = None,
    remembered: tuple[str, Mapping[int, Sequence[str]]] | None = None,
) -> Review:
    """The graded decisions of a session's steps in force (``Timeline.steps``), or of one deal.

    Betting games are solved on first use and cached (:func:`solver.solution.subgame`);
    ``games``, when given, answers instead: a game, or why there is none (its deal's decisions
    say "no reference: " and the reason). ``remembered``: ``(player, {deal: three cards})``, the
    cards that player remembers (FORMAT.md notation), grading that player's seen decisions of a
    deal whose hand the log does not know (rows ``from_note``); for that player's view only.
    """
    by_deal: dict[int, list[Step]] = {}
    for s in steps:
        by_deal.setdefault(s.label.deal, []).append(s)

    def solver(seen: tuple[bool, bool], dead: float) -> Subgame:
        return subgame(ab, seen, dead, iterations, seed)

    solve: Solver = games if games is not None else solver
    out = Review()
    for d, group in sorted(by_deal.items()):
        if deal is None or d == deal:
            note = None
            if remembered is not None and d in remembered[1]:
                note = (remembered[0], remembered[1][d])
            out.rows.extend(_Deal(group, solve, ab, note).rows())
    return out
