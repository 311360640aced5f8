"""A value of the deal that knows the players' tendencies, fitted once offline on simulation.

    .venv/bin/python bench/luck_fit_styles.py [--sessions 1500] [--seed fit-styles]

For each table size of ``--sizes`` (2 to 10, RULES 1.3), simulates ``--sessions`` sessions
(``cards: "all"``, default rules, the styles of :data:`sim.players.STYLES` seated at random, some
twice above five players, a seed that ``bench/luck.py`` never uses)
and, over the fresh deals (RULES 3.2), averages each seat's net in the deal by the key
``(rank of its new hand, its style, the style of the player holding the best of the others'
hands)``. Each average is shrunk toward the rank's :data:`analytics.luck.RANK_VALUES` value with
the weight of 20 deals, rounded to whole half units. Over every deal it also counts how often each
style plays each signature (:func:`analytics.tendencies.signature`: what a player did in a deal,
the tendency model's evidence), as log-chances with half a deal added to every count (``"?"``: a
signature never seen). Both are written to ``analytics/luck_model.json`` with how they were fitted:
the product's luck term reads them (:mod:`analytics.tendencies`), and ``bench/luck.py`` measures
the term the values give when the styles are known. Run it again only to refit (then the
projection's schema version goes up: every luck term changes).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # not bench/analytics.py

from analytics.luck import RANK_VALUES, deal_ranks
from analytics.tendencies import Tendencies
from engine.apply import apply
from engine.state import initial_state
from sim.players import STYLES
from sim.table import SessionSpec, play

NAMES = tuple(sorted(STYLES))
OUT = Path(__file__).resolve().parents[1] / "analytics" / "luck_model.json"
SHRINK = 20


def fit(players: int, sessions: int, seed: str) -> tuple[dict[str, int], dict[str, Any]]:
    """``"rank/style/other"`` -> the value in half units, and style -> signature -> log-chance,
    for a table of ``players``."""
    sums: dict[tuple[int, str, str], Fraction] = defaultdict(Fraction)
    counts: dict[tuple[int, str, str], int] = defaultdict(int)
    played: dict[str, Counter[str]] = {s: Counter() for s in NAMES}
    for k in range(sessions):
        rng = random.Random(f"{seed}/{players}/{k}")
        styles = rng.sample(NAMES, min(players, len(NAMES)))
        styles += [rng.choice(NAMES) for _ in range(players - len(styles))]  # as bench/luck.py
        rng.shuffle(styles)
        spec = SessionSpec(
            "fit", tuple((f"P{i}", s) for i, s in enumerate(styles)), f"{seed}/{players}/{k}"
        )
        state, since, keys, seen = initial_state(), set[int](), None, Tendencies()
        for e in play(spec):
            before, state = state, apply(state, e)
            who = getattr(e, "player", None)
            if who is not None and e.type != "dealer_chosen" and before.index is not None:
                seen.acted(e.type, who, before.players[before.seat(who)].seen)
            if e.type == "dealt":
                seen.dealt(state.seats)
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
        seen.dealt(())  # the last deal closes
        for i, s in enumerate(styles):
            played[s].update(seen.signatures(f"P{i}"))
    out = {}
    for r in range(1, players + 1):
        prior = RANK_VALUES[players][r - 1]
        for s in NAMES:
            for o in NAMES:
                c = counts[(r, s, o)]
                v = (sums[(r, s, o)] + prior * SHRINK) / (c + SHRINK)
                out[f"{r}/{s}/{o}"] = round(v * 2)
    every = set().union(*played.values())
    chances: dict[str, Any] = {}
    for s in NAMES:
        total = sum(played[s].values()) + 0.5 * (len(every) + 1)
        row = {g: round(math.log((played[s][g] + 0.5) / total), 4) for g in sorted(every)}
        row["?"] = round(math.log(0.5 / total), 4)
        chances[s] = row
    return out, chances


def other(ranks: tuple[int, ...], i: int) -> int:
    """The seat holding the best hand among the others of seat ``i``."""
    return min((j for j in range(len(ranks)) if j != i), key=lambda j: ranks[j])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, default=1500)
    ap.add_argument("--sizes", default="2,3,4,5,6,7,8,9,10", help="table sizes (RULES 1.3)")
    ap.add_argument("--jobs", type=int, default=2, help="processes, one table size each")
    ap.add_argument("--seed", default="fit-styles")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    with multiprocessing.Pool(args.jobs) as pool:
        got = pool.starmap(fit, [(n, args.sessions, args.seed) for n in sizes])
    fitted = {str(n): g for n, g in zip(sizes, got, strict=True)}
    doc = {
        "styles": list(NAMES),
        "signatures": {n: got[1] for n, got in fitted.items()},
        "about": (
            "Half units of stake: the average net in a fresh deal of a seat by (rank of its new"
            " hand, its style, the style of the holder of the best other hand), shrunk toward the"
            f" rank's RANK_VALUES with the weight of {SHRINK} deals. Fitted by"
            f" bench/luck_fit_styles.py --sessions {args.sessions} --seed {args.seed}"
            f" --sizes {args.sizes} (default rules; the styles of sim/players.py seated at random,"
            " some twice above five players)."
            " signatures: per style, the natural log of the chance of each signature of a deal"
            " (analytics/tendencies.py), half a deal added to each count; '?' one never seen."
        ),
        "values": {n: got[0] for n, got in fitted.items()},
    }
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
