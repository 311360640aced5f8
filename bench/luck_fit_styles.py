"""A value of the deal that knows the players' tendencies, fitted once offline on simulation.

    .venv/bin/python bench/luck_fit_styles.py [--sessions 1500] [--seed fit-styles]

For two and five players, simulates ``--sessions`` sessions (``cards: "all"``, default rules, the
styles of :data:`sim.players.STYLES` seated at random, a seed that ``bench/luck.py`` never uses)
and, over the fresh deals (RULES 3.2), averages each seat's net in the deal by the key
``(rank of its new hand, its style, the style of the player holding the best of the others'
hands)``. Each average is shrunk toward the rank's :data:`analytics.luck.RANK_VALUES` value with
the weight of 20 deals, rounded to whole half units, and written to
``data/luck_style_values.json`` with how it was fitted. ``bench/luck.py`` measures the term it
gives (:func:`analytics.luck.style_value`): the styles stand for what a club would know of its
players from their earlier sessions. Run it again only to refit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # not bench/analytics.py

from analytics.luck import RANK_VALUES, deal_ranks
from engine.apply import apply
from engine.state import initial_state
from sim.players import STYLES
from sim.table import SessionSpec, play

NAMES = tuple(sorted(STYLES))
OUT = Path(__file__).resolve().parents[1] / "data" / "luck_style_values.json"
SHRINK = 20


def fit(players: int, sessions: int, seed: str) -> dict[str, int]:
    """``"rank/style/other"`` -> the value in half units, for a table of ``players``."""
    sums: dict[tuple[int, str, str], Fraction] = defaultdict(Fraction)
    counts: dict[tuple[int, str, str], int] = defaultdict(int)
    for k in range(sessions):
        rng = random.Random(f"{seed}/{players}/{k}")
        styles = rng.sample(NAMES, min(players, len(NAMES)))
        rng.shuffle(styles)
        spec = SessionSpec(
            "fit", tuple((f"P{i}", s) for i, s in enumerate(styles)), f"{seed}/{players}/{k}"
        )
        state, since, keys = initial_state(), set[int](), None
        for e in play(spec):
            before, state = state, apply(state, e)
            if e.type == "shuffled":
                since.clear()
            elif e.type == "dealt":
                hands = [next(h.cards for h in p.hands if h.origin == "new") for p in state.players]
                cards = {c for h in hands if h is not None for c in h}
                keys = None
                if since.isdisjoint(cards):
                    ranks = deal_ranks(hands)  # type: ignore[arg-type]  # cards: all, all dealt
                    keys = [(ranks[i], styles[i], styles[other(ranks, i)]) for i in range(players)]
                since |= cards
            if len(state.outcomes) > len(before.outcomes):
                o = state.outcomes[-1]
                for i, p in enumerate(state.players):
                    if keys is not None:
                        net = (o.amount if o.winner == p.name else 0) - Fraction(
                            p.paid, state.scale
                        )
                        sums[keys[i]] += net
                        counts[keys[i]] += 1
                keys = None
    out = {}
    for r in range(1, players + 1):
        prior = RANK_VALUES[players][r - 1]
        for s in NAMES:
            for o in NAMES:
                c = counts[(r, s, o)]
                v = (sums[(r, s, o)] + prior * SHRINK) / (c + SHRINK)
                out[f"{r}/{s}/{o}"] = round(v * 2)
    return out


def other(ranks: tuple[int, ...], i: int) -> int:
    """The seat holding the best hand among the others of seat ``i``."""
    return min((j for j in range(len(ranks)) if j != i), key=lambda j: ranks[j])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=1500)
    ap.add_argument("--seed", default="fit-styles")
    args = ap.parse_args(argv)
    table = {str(n): fit(n, args.sessions, args.seed) for n in (2, 5)}
    doc = {
        "about": (
            "Half units of stake: the average net in a fresh deal of a seat by (rank of its new"
            " hand, its style, the style of the holder of the best other hand), shrunk toward the"
            f" rank's RANK_VALUES with the weight of {SHRINK} deals. Fitted by"
            f" bench/luck_fit_styles.py --sessions {args.sessions} --seed {args.seed}"
            " (default rules; the styles of sim/players.py seated at random; two and five players)."
        ),
        "values": table,
    }
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
