"""``brag simulate``: sessions played by simulated players (``sim``), to files or to the store.

``brag simulate --players 2-10 --sessions 100 --seed 7 --out DIR`` writes ``DIR/SESSION.jsonl``,
one FORMAT.md log per session (derived events and envelope included). Without ``--out`` the
sessions are appended to the event store (the global ``--db``), one deal per append.
``--season`` plays the bundled club season instead (:mod:`sim.season`). Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from brag.console import console as safe_console
from events.codec import write_events
from events.errors import PlainError
from events.model import AnyEvent, Dealt
from log.open import open_store
from present.numbers import count_of, plural
from sim.batch import deal_chunks, generate, parse_players
from sim.season import SESSIONS, season


class SimulateError(PlainError):
    """``brag simulate`` refuses its arguments (one line, exit 1)."""

    rule_name = "SIM"


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "simulate",
        parents=[common],
        help="play sessions with simulated players and write or store their logs",
        description="Play complete 8-pot sessions with simulated players of five styles (rock, "
        "loose, blind, seer, bluffer) who choose only among the engine's legal actions. "
        "With --out, write one SESSION.jsonl per session; otherwise append them to the event "
        "store (--db), one deal per append. Same seed, same sessions, byte for byte.",
    )
    p.add_argument(
        "--players",
        default="4-7",
        help="players per session, a number or a range such as 2-10 (default 4-7; RULES 1.3)",
    )
    p.add_argument("--sessions", type=int, default=1, help="how many sessions (default 1)")
    p.add_argument("--seed", default="0", help="the seed: same seed, same sessions (default 0)")
    p.add_argument(
        "--cards",
        choices=("all", "shown"),
        default="all",
        help='record every dealt card ("all", default) or only the showdown cards ("shown")',
    )
    p.add_argument("--out", metavar="DIR", help="write SESSION.jsonl files into DIR")
    p.add_argument(
        "--season",
        action="store_true",
        help="play the bundled club season (autumn 2026, about 40 sessions; ignores --players, "
        "--sessions and --cards)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    p.set_defaults(func=cmd_simulate)


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _sessions(args: argparse.Namespace) -> tuple[Iterator[list[AnyEvent]], int]:
    seed = _seed(args.seed)
    if args.season:
        return season(seed), SESSIONS
    try:
        players = parse_players(args.players)
    except ValueError as err:
        raise SimulateError(str(err)) from None
    if args.sessions < 1:
        raise SimulateError("--sessions must be at least 1")
    return generate(seed, args.sessions, players, args.cards), args.sessions


def cmd_simulate(args: argparse.Namespace) -> int:
    sessions, total = _sessions(args)
    sink = _FileSink(Path(args.out)) if args.out else _StoreSink(args.db)
    console = safe_console(stderr=True)
    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet or total < 2 or not console.is_terminal,
        transient=True,
    )
    t0 = time.perf_counter()
    n = deals = events = 0
    with progress:
        task = progress.add_task("simulate", total=total)
        for stream in sessions:
            sink.put(stream)
            n += 1
            events += len(stream)
            deals += sum(1 for e in stream if isinstance(e, Dealt))
            progress.advance(task)
    if not args.quiet:
        dt = time.perf_counter() - t0
        print(
            f"{count_of(n, 'session')}, {count_of(deals, 'deal')}, {count_of(events, 'event')} in "
            f"{dt:.1f}s; {sink.where}",
            file=sys.stderr,
        )
    return 0


class _FileSink:
    def __init__(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        self.out = out
        self.where = f"written to {out}"

    def put(self, stream: list[AnyEvent]) -> None:
        first = stream[0]
        session = getattr(first, "session", "session")
        # newline="\n": the same bytes on every platform
        with open(self.out / f"{session}.jsonl", "w", encoding="utf-8", newline="\n") as fp:
            write_events(stream, fp)


class _StoreSink:
    def __init__(self, url: str) -> None:
        self.store = open_store(url)
        self.new = self.known = 0

    @property
    def where(self) -> str:
        """What was stored: the same seed again finds its sessions already there (their event
        ids are the simulator's, so appending them again is a no-op)."""
        known = f" ({self.known} were stored already)" if self.known else ""
        new = f"{self.new:,} new {plural(self.new, 'event')}"
        return f"{new} stored in {self.store.where}{known}"

    def put(self, stream: list[AnyEvent]) -> None:
        first = stream[0]
        session = getattr(first, "session", "session")
        before = self.store.last_seq(session)
        seq = 0
        for chunk in deal_chunks(stream):
            self.store.append(session, chunk, seq)
            seq += len(chunk)
        added = self.store.last_seq(session) - before
        self.new += added
        self.known += len(stream) - added
