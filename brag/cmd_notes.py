"""``brag notes``: the notes on the steps of a stored session (issue 21, item 2), kept beside the
session's stream (:mod:`log.annotations`; the game log and ``brag export`` are unchanged by them).

- ``brag notes SESSION [--json] [--hidden]``: the notes by deal and step, each with the step's
  sentence as ``brag replay`` prints it; ``--hidden`` adds those the organiser hid, marked. A note
  is shown where its action stands now (issue 32: it points at the event, not the number); a
  note whose action was withdrawn says so ("on a withdrawn step: ...").
- ``brag notes add SESSION --deal N --step K --text T --by NAME``: a note on the action at step
  K of deal N now (numbered as ``brag replay`` numbers them), at most 500 characters, at most 500
  shown a session. The organiser's terminal is not limited in how often (the Replay page's route
  is, :mod:`dashboard.replay.notes_limits`).
- ``brag notes hide SESSION NOTE [--by NAME]``: the organiser hides a note, named by its number
  in the session as listed (``#2``); the hiding is recorded beside it (the note is kept, never
  deleted).

A note is numbered in its session, 1, 2, 3... in the order written (``log.annotations.Note``
``number``; hidden notes keep theirs), never by the store's global id (which ``--json`` gives as
``id``, beside ``number``).

A note's text and writer are data: shown inert on the terminal (:mod:`brag.console`), never
obeyed. Refusals are one line, exit 1 (:func:`brag.cli.main`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from brag.errors import CommandError
from brag.store_access import open_event_store, store_console
from events.errors import UnknownSession
from log.annotations import add_note, hide_note, notes
from log.service import EventStore
from present.replay import Replay

__all__ = ["cmd_notes", "register"]

_ACTIONS = {"add": 2, "hide": 3}
"""The words that start an action, and how many words it takes (the action's own included)."""


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "notes",
        parents=[common],
        help="list, add or hide the notes on a session's steps (kept beside its log)",
        description="brag notes SESSION lists the notes on the steps of SESSION; brag notes add "
        "SESSION --deal N --step K --text T --by NAME adds one (steps numbered as brag replay "
        "numbers them; at most 500 characters, 500 notes a session); brag notes hide SESSION "
        "NOTE hides one (its number in the session as listed, 1, 2, 3...; recorded, the note "
        "is kept). Notes are never part of the session's log: brag export is unchanged by them.",
        usage="brag notes [add|hide] SESSION [NOTE] [options]",
    )
    p.add_argument("words", nargs="+", metavar="SESSION", help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="one JSON object per note")
    p.add_argument("--hidden", action="store_true", help="list the hidden notes too, marked")
    p.add_argument("--deal", type=int, metavar="N", help="add: the deal (0: before the first)")
    p.add_argument("--step", type=int, metavar="K", help="add: the step in that deal")
    p.add_argument("--text", metavar="T", help="add: the note (at most 500 characters)")
    p.add_argument("--by", metavar="NAME", help="add: who writes it; hide: who hides it")
    p.set_defaults(func=cmd_notes)


def cmd_notes(args: argparse.Namespace) -> int:
    words: list[str] = args.words
    action = words[0] if words[0] in _ACTIONS and len(words) > 1 else None
    if action is None:
        if len(words) != 1:
            raise CommandError(f"one session to list, not {len(words)} words", command="notes")
        return _list(args, words[0])
    if len(words) != _ACTIONS[action]:
        usage = "add SESSION --deal N --step K" if action == "add" else "hide SESSION NOTE"
        raise CommandError(f"usage: brag notes {usage}", command="notes")
    if action == "add":
        return _add(args, words[1])
    return _hide(args, words[1], words[2])


def _replay(store: EventStore, session: str) -> Replay:
    """The session as recorded (withdrawn steps in it: a note on one is shown where it was)."""
    events = store.events(session)
    if not events:
        raise UnknownSession(session)
    return Replay.of(events, recorded=True)


def _list(args: argparse.Namespace, session: str) -> int:
    with open_event_store(args) as store:
        rp = _replay(store, session)
        got = notes(store, rp, include_hidden=args.hidden)
    if args.json:
        for n in got:
            row = {
                "id": n.id,
                "number": n.number,
                "session": n.session,
                "deal": n.deal,
                "step": n.step,
                "event": n.event,
                "withdrawn": n.withdrawn,
                "action": n.action,
                "by": n.by,
                "text": n.text,
                "at": n.at.isoformat(),
                "hidden": n.hidden,
            }
            print(json.dumps(row, ensure_ascii=False))
        return 0
    console = store_console()
    if not got:
        console.print(f"no notes on session {session}")
        return 0
    for n in got:
        hidden = "  [hidden]" if n.hidden else ""
        console.print(f"#{n.number} {n.where}, by {n.by}, {n.at:%Y-%m-%d %H:%M} UTC{hidden}")
        console.print(f"    {n.text}")
    return 0


def _add(args: argparse.Namespace, session: str) -> int:
    missing = [f"--{k}" for k in ("deal", "step", "text", "by") if getattr(args, k) is None]
    if missing:
        raise CommandError(f"add needs {', '.join(missing)}", command="notes")
    with open_event_store(args, write=True) as store:
        n = add_note(store, _replay(store, session), args.deal, args.step, args.text, args.by)
        where = store.where
    store_console().print(f"Stored note #{n.number} on {n.where} of session {session} in {where}.")
    return 0


def _hide(args: argparse.Namespace, session: str, note: str) -> int:
    text = note.removeprefix("#")
    if not (text.isascii() and text.isdigit()):
        raise CommandError(f"NOTE is a note's number (brag notes {session}), not {note!r}",
                           command="notes")  # fmt: skip
    number = int(text)
    with open_event_store(args, write=True) as store:
        every = {n.number: n for n in notes(store, _replay(store, session), include_hidden=True)}
        if number not in every:
            raise CommandError(f"session {session!r} has no note #{number}", command="notes")
        hide_note(store, every[number].id, args.by or "organiser")
    already = " (it was hidden already)" if every[number].hidden else ""
    store_console().print(f"Note #{number} of session {session} is hidden{already}; it is kept.")
    return 0
