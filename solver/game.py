"""The heads-up game the solver plays: RULES 4 to 6 for two players, as a public tree.

Two players, ``0`` (on the dealer's left: acts first, RULES 5.2) and ``1`` (the dealer). The pot
starts with both antes (RULES 4.1) plus ``dead`` antes (antes of players who folded before any bet,
when the game is entered with two left). Each turn (RULES 5.2) the player to act may:

* ``look`` (a blind player, at the start of the turn, RULES 5.1): the same turn goes on seen;
* ``fold`` (RULES 5.6): the other survives; a seen survivor takes the pot, a blind survivor's pot
  is carried (RULES 6.1), valued as half the pot to each (the abstraction, docs/review.md);
* ``keep`` / ``raise``: bet at the level or raise it (RULES 5.3 to 5.5): a seen player pays the
  level, a blind one half of it; the first bet opens at 1 (``keep``) or 1 + the raise;
* ``see`` (RULES 5.7), once the deal has a level: seen against seen pays 2 x level; a blind player
  pays the level; a seen player may not see a blind one. RULES 5.8: the payer wins only with a
  strictly better hand.

The abstraction (:class:`Abstraction`): one raise size, levels capped at ``max_level``, at most
``max_bets`` bets (after that a player who may see must see or fold; a seen player facing a blind
one may still bet once more, so the game ends). Amounts are floats in antes (an equilibrium value
is a float; the log's money stays exact elsewhere). Node 0 is the root; children follow parents.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ACTIONS", "Abstraction", "Node", "Tree", "build"]

ACTIONS = ("fold", "see", "keep", "raise", "look")
FOLD, SEE, KEEP, RAISE, LOOK = range(5)


@dataclass(frozen=True)
class Abstraction:
    """The stated abstraction: buckets of hands, bet cap, level cap, raise size (seen units)."""

    buckets: int = 100
    max_bets: int = 6
    max_level: int = 4
    raise_by: int = 1

    def as_dict(self) -> dict[str, object]:
        """JSON-ready description (``brag solve --json``)."""
        return {
            "buckets": self.buckets,
            "bucketing": "equal-mass strength quantiles of the 22,100 hands (engine.hands)",
            "card_removal": "dropped: the two hands are drawn independently",
            "max_bets": self.max_bets,
            "max_level": self.max_level,
            "open_level": 1,
            "raise_by": self.raise_by,
            "explore": 1e-6,
            "carried_pot": "valued as half the pot to each player (retaining not modelled)",
            "looks": "before the first bet each may look (0 then 1); later at a turn's start",
        }


@dataclass
class Node:
    """One public node: a decision of ``player`` (``blind`` when unseen) or a terminal.

    Terminal kinds: ``fold`` (``value`` = player 0's net less half the dead money: the two
    players' values then sum to 0), ``show`` (``payer``, ``paid``, ``pot``).
    ``paid`` is each player's total in the pot including the ante, in antes.
    """

    kind: str
    player: int = -1
    blind: bool = False
    seen: tuple[bool, bool] = (False, False)
    level: int = 0
    bets: int = 0
    paid: tuple[float, float] = (1.0, 1.0)
    pot: float = 2.0
    payer: int = -1
    value: float = 0.0
    history: tuple[str, ...] = ()
    actions: list[int] = field(default_factory=list)
    children: list[int] = field(default_factory=list)
    parent: int = -1
    depth: int = 0


@dataclass
class Tree:
    """The nodes (index = id, parents before children) and a lookup by public history."""

    nodes: list[Node]
    by_history: dict[tuple[str, ...], int]


def _legal(n: Node, ab: Abstraction) -> list[int]:
    me_seen, opp_seen = not n.blind, n.seen[1 - n.player]
    acts = [FOLD]
    if n.level and (not me_seen or opp_seen):
        acts.append(SEE)
    may_bet = n.bets < ab.max_bets or (me_seen and not opp_seen)
    if may_bet:
        acts.append(KEEP)
        nxt = (n.level or 0) + ab.raise_by + (0 if n.level else 1)
        if nxt <= ab.max_level and n.bets < ab.max_bets:
            acts.append(RAISE)
    if n.blind:
        acts.append(LOOK)
    return acts


def _child(n: Node, a: int, ab: Abstraction) -> Node:
    p, q = n.player, 1 - n.player
    hist = (*n.history, f"{ACTIONS[a]}{p}")
    paid = list(n.paid)
    if a == LOOK:
        seen = (True, n.seen[1]) if p == 0 else (n.seen[0], True)
        return Node("dec", p, False, seen, n.level, n.bets, n.paid, n.pot, history=hist)
    if a == FOLD:
        pot = n.pot
        win = pot if n.seen[q] else pot / 2  # RULES 5.6 / 6.1: a blind survivor's pot is carried
        net_q = win - paid[q]
        net_p = (pot - win) - paid[p]
        # less half the dead money (antes of others, RULES 4.1): every terminal then sums to 0
        v0 = (net_p if p == 0 else net_q) - (pot - paid[0] - paid[1]) / 2
        return Node(
            "fold", seen=n.seen, level=n.level, paid=n.paid, pot=pot, value=v0, history=hist
        )
    if a == SEE:
        cost = n.level if n.blind else 2 * n.level  # RULES 5.7
        paid[p] += cost
        return Node(
            "show",
            seen=n.seen,
            level=n.level,
            paid=(paid[0], paid[1]),
            pot=n.pot + cost,
            payer=p,
            history=hist,
        )
    level = (n.level or 1) if a == KEEP else (n.level or 1) + ab.raise_by
    stake = level / 2 if n.blind else float(level)  # RULES 5.3
    paid[p] += stake
    return Node(
        "dec",
        q,
        not n.seen[q],
        n.seen,
        level,
        n.bets + 1,
        (paid[0], paid[1]),
        n.pot + stake,
        history=hist,
    )


def build(ab: Abstraction, seen: tuple[bool, bool], dead: float = 0.0) -> Tree:
    """The public tree of the betting from a deal's first bet with the looks ``seen`` given.

    ``dead``: antes already in the pot from others (RULES 4.1), won by the deal's winner.
    """
    root = Node("dec", 0, not seen[0], seen, 0, 0, (1.0, 1.0), 2.0 + dead)
    nodes = [root]
    i = 0
    while i < len(nodes):
        n = nodes[i]
        if n.kind == "dec":
            n.actions = _legal(n, ab)
            for a in n.actions:
                c = _child(n, a, ab)
                c.parent, c.depth = i, n.depth + 1
                n.children.append(len(nodes))
                nodes.append(c)
        i += 1
    return Tree(nodes, {n.history: k for k, n in enumerate(nodes)})
