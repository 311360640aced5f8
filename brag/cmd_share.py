"""``brag share SESSION --deal N [--step K] [--view PLAYER] -o FILE``: a hand to share (issue 21,
item 3).

FILE's ending says the format: ``.svg`` or ``.png``, the picture of step K of deal N (its last
step when no ``--step``); ``.gif``, the deal stepped from its first step up to K, one frame a
step. The step is numbered as ``brag replay`` and the Replay page number it. The picture is
drawn from the view's own frame (:mod:`present.share`): ``--view PLAYER`` shows only what that
player knew at that step (RULES 3.5, 5.1), without it every card the log knows; and as a picture
is made to be sent, a deal still in play is drawn as a spectator sees it (only the cards shown),
as the Replay page draws it for any device but the organiser's. Errors are one line and exit 1
(:func:`brag.cli.main`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from brag.console import shown
from brag.errors import CommandError
from brag.output import write_output
from brag.store_access import open_event_store
from events.errors import UnknownSession
from present.replay import Replay
from present.share import FORMATS, share, sight_of

__all__ = ["cmd_share", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "share",
        parents=[common],
        help="a picture of a deal to share: .svg, .png, or a .gif stepping through it",
        description="Write a picture of step K of deal N of SESSION (numbered as brag replay "
        "numbers it; the deal's last step without --step) to FILE: .svg or .png, or .gif for "
        "the deal from its first step up to K, one frame a step. --view PLAYER draws only what "
        "that player knew at that step; a deal still in play shows only the cards shown.",
    )
    p.add_argument("session", help="the session id (see brag sessions)")
    p.add_argument("--deal", type=int, required=True, metavar="N", help="the deal (1-based)")
    p.add_argument("--step", type=int, metavar="K", help="the step in that deal (default: last)")
    p.add_argument("--view", metavar="PLAYER", help="as this player saw it (default: everyone)")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="the picture's file: its ending (.svg, .png, .gif) says the format",
    )
    p.set_defaults(func=cmd_share)


def cmd_share(args: argparse.Namespace) -> int:
    fmt = Path(args.output).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise CommandError(
            f"{args.output}: a picture's file ends in .svg, .png or .gif", command="share"
        )
    with open_event_store(args) as store:
        t = store.timeline(args.session)  # a tampered stream: one line, session and seq
    if not t.last_seq:
        raise UnknownSession(args.session)
    rp = Replay.from_timeline(t)  # as corrected, as the Replay page shows it by default
    sight = sight_of(rp, args.deal, args.view)  # the one rule, as for a visitor of the page
    data = share(sight, args.step, fmt)
    write_output(args.output, data, command="share")
    step = f"step {args.step}" if args.step is not None else "its last step"
    who = f"as {args.view} saw it" if args.view else "every card the log knows"
    print(
        shown(
            f"{args.output}: session {args.session}, deal {args.deal}, "
            f"{'up to ' if fmt == 'gif' else ''}{step}, {who} ({len(data):,} bytes)"
        ),
        file=sys.stderr,
    )
    note = sight.note  # why the picture shows less than was asked
    if note:
        print(shown(note), file=sys.stderr)
    return 0
