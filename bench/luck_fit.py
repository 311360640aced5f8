"""The luck term's baseline, fitted once offline: the average net of each rank of new hand.

    .venv/bin/python bench/luck_fit.py [--sessions 200] [--seed fit]

For each table size 2..10, simulates ``--sessions`` sessions (``cards: "all"``, default rules,
each seat a style of :data:`sim.players.STYLES` drawn at random) and, over the *fresh* deals
(``analytics.luck``: no card dealt before since the last shuffle), averages each seat's net in the
deal by the rank of its new hand among the table's (:func:`analytics.luck.deal_ranks`). The
averages, centred and rounded to whole half units with the row summing to 0, are printed as the
``RANK_VALUES`` table that ``analytics/luck.py`` freezes (any values keep the luck term's mean at
0; these make its spread small). Run it again only to refit; the tests never do.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # not bench/analytics.py

from analytics.luck import deal_ranks
from engine.apply import apply
from engine.state import initial_state
from events.model import AnyEvent
from sim.players import STYLES
from sim.table import SessionSpec, simulate


def fresh_deals(events: list[AnyEvent]) -> Iterator[tuple[tuple[int, ...], tuple[Fraction, ...]]]:
    """Each fresh deal of a ``cards: "all"`` session: (rank of each seat's new hand, its net in
    the deal in stake units), read from the engine's states."""
    state = initial_state()
    since: set[int] = set()
    ranks: tuple[int, ...] | None = None
    for event in events:
        before, state = state, apply(state, event)
        if event.type == "shuffled":
            since.clear()
        elif event.type == "dealt":
            hands = [next(h.cards for h in p.hands if h.origin == "new") for p in state.players]
            cards = {c for h in hands if h is not None for c in h}
            ranks = deal_ranks(hands) if since.isdisjoint(cards) else None  # type: ignore[arg-type]
            since |= cards
        if len(state.outcomes) > len(before.outcomes):
            out = state.outcomes[-1]
            if ranks is not None:
                nets = tuple(
                    (out.amount if out.winner == p.name else 0) - Fraction(p.paid, state.scale)
                    for p in state.players
                )
                yield ranks, nets
            ranks = None


def centred_halves(means: list[Fraction]) -> list[int]:
    """``means`` minus their mean, in whole half units, the largest remainders adjusted so the
    row sums to exactly 0."""
    c = sum(means, Fraction(0)) / len(means)
    exact = [(m - c) * 2 for m in means]
    out = [round(x) for x in exact]
    while (s := sum(out)) != 0:
        step = -1 if s > 0 else 1
        k = max(range(len(out)), key=lambda i: (out[i] - exact[i]) * -step)
        out[k] += step
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--seed", default="fit")
    args = ap.parse_args(argv)
    styles = sorted(STYLES)
    for n in range(2, 11):
        sums = [Fraction(0)] * n
        deals = 0
        for k in range(args.sessions):
            rng = random.Random(f"{args.seed}/{n}/{k}")
            seats = tuple((f"P{i}", rng.choice(styles)) for i in range(n))
            spec = SessionSpec(session=f"fit-{n}-{k}", seats=seats, seed=f"{args.seed}/{n}/{k}")
            for ranks, nets in fresh_deals(simulate(spec)):
                deals += 1
                for r, v in zip(ranks, nets, strict=True):
                    sums[r - 1] += v
        means = [s / deals for s in sums]
        halves = centred_halves(means)
        shown = ", ".join(f"{float(m):.2f}" for m in means)
        print(f"        {n}: {tuple(halves)},  # {deals} fresh deals; means {shown}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
