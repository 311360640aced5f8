"""``brag solve`` and ``brag review``: the solved heads-up game and a session's graded decisions.

::

    brag solve [--iterations N] [--seed S] [--json]
    brag review SESSION [--deal N] [--json]

``solve`` solves (or reads from its cache) the heads-up deal (:mod:`solver.solution`) and prints
the game, the abstraction, the iterations, the game value and the exploitability measured by an
independent best response (antes, floats: an equilibrium value), the solution's sha256 and the
seconds taken. ``review`` grades each decision of a stored session the solved game covers
(:mod:`solver.review`; docs/review.md) and prints the coverage.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from brag.errors import CommandError
from brag.store_access import open_event_store, store_console
from events.errors import UnknownSession
from present.numbers import count_of

__all__ = ["cmd_review", "cmd_solve", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "solve",
        parents=[common],
        help="solve heads-up Brag by CFR+ and measure the solution's exploitability",
        description="The heads-up deal of RULES 4 to 6 under a stated abstraction, solved by "
        "CFR+ (numpy); the exploitability comes from an independent best response (antes).",
    )
    p.add_argument("--iterations", type=int, default=None, metavar="N", help="CFR+ iterations")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the regrets' random start")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_solve)
    r = sub.add_parser(
        "review",
        parents=[common],
        help="grade a session's decisions against the solved heads-up game",
        description="One row per decision: the action, the solution's best, the EV lost "
        "(antes, a float) and a grade (docs/review.md); decisions the game does not cover say "
        "'no reference', and the coverage is printed.",
    )
    r.add_argument("session", help="the session id (see brag sessions)")
    r.add_argument("--deal", type=int, metavar="N", help="only deal N (1-based)")
    r.add_argument("--json", action="store_true", help="one JSON object")
    r.set_defaults(func=cmd_review)


def cmd_solve(args: argparse.Namespace) -> int:
    from solver.review import ABSTRACTION
    from solver.solution import ITERATIONS, solve_game

    its = ITERATIONS if args.iterations is None else args.iterations
    if its < 1:
        raise CommandError(f"--iterations must be at least 1, not {its}")
    t0 = time.perf_counter()
    sol = solve_game(ABSTRACTION, its, args.seed)
    out = {
        "game": "heads-up Three-Card Brag, RULES 4-6 (ante 1, blind and seen, looks, see, "
        "carried pot), player 0 acts first",
        "abstraction": ABSTRACTION.as_dict(),
        "iterations": its,
        "seed": args.seed,
        "game_value": round(sol.value(), 6),
        "exploitability": round(sol.exploitability(), 7),
        "hash": sol.digest(),
        "seconds": round(time.perf_counter() - t0, 2),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from solver.review import review

    with open_event_store(args) as store:
        t = store.timeline(args.session)
    if not t.last_seq:
        raise UnknownSession(args.session)
    deals = t.state.deals
    if args.deal is not None and not 1 <= args.deal <= deals:
        raise CommandError(
            f"session {args.session!r} has {count_of(deals, 'deal')}; there is no deal {args.deal}"
        )
    rv = review(t.steps, args.deal)
    rows = [r.as_dict() for r in rv.rows]
    if args.json:
        print(json.dumps({"session": args.session, "rows": rows, "coverage": rv.coverage()}))
        return 0
    console = store_console()
    for r in rows:
        loss = "" if r["ev_loss"] is None else f"  lost {r['ev_loss']:.3f}, best {r['best']}"
        console.print(
            f"{r['deal']:>3} {r['step']:>5}  {r['player']}: {r['action']}  {r['grade']}{loss}",
            markup=False,
        )
    c = rv.coverage()
    console.print(
        f"coverage: {c['covered']} of {count_of(int(str(c['decisions'])), 'decision')}"
        f" ({float(str(c['share'])):.1%})",
        markup=False,
    )
    return 0
