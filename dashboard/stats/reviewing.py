"""What the Review page reads (issue 38.3): a session's graded rows, never waiting for a solve.

The games of the standard rules ship with the product (:mod:`solver.shipped`); a review that asks
for another betting game (other dead money) does not wait for it: its deal says "no reference:
solving..." and the game is solved once in a background thread (one at a time, for the whole
server), after which the page, which polls every few seconds while any is pending, fills it in.
A review is cached per session and version of its stream (its last seq) and per count of games
solved since the server started.

:func:`reviewed` gives a session's replay, rows and the deals this device may not see graded
(the sight rule, :mod:`present.sight`); :func:`my_reviews` sorts a player's newest sessions into
those whose review grades a decision of theirs and those with nothing graded, with why (My
sessions, :mod:`dashboard.stats.mine_page`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import streamlit as st

from dashboard.access import gate
from dashboard.common import cache, prefs
from dashboard.common import state_keys as keys
from dashboard.stats import review_view as rv
from present import sight
from solver.review import ABSTRACTION, ON_PATH, Row, review
from solver.solution import ITERATIONS, Subgame, available, subgame

__all__ = ["SOLVING", "my_reviews", "pending", "reviewed", "session_rows"]

SOLVING = "solving... (this betting game is being solved in the background)"
NOT_SOLVED = "not solved yet (open this session's review to solve it)"

_LOCK = threading.Lock()
_PENDING: set[tuple[tuple[bool, bool], float]] = set()
_SOLVED = [0]


def _solve(key: tuple[tuple[bool, bool], float]) -> None:
    try:
        with _LOCK:  # one solve at a time: two cores shared with the pages
            g = subgame(ABSTRACTION, key[0], key[1], ITERATIONS, 0)
            for node, a in g.pins(ON_PATH):  # the off-path blind actions' values too
                g.pinned_ev(node, a)
    finally:
        _PENDING.discard(key)
        _SOLVED[0] += 1


def _games(start: bool) -> Any:
    def games(seen: tuple[bool, bool], dead: float) -> Subgame | str:
        if available(ABSTRACTION, seen, dead, ITERATIONS, 0):
            return subgame(ABSTRACTION, seen, dead, ITERATIONS, 0)
        if not start:
            return NOT_SOLVED
        key = (seen, dead)
        if key not in _PENDING:
            _PENDING.add(key)
            threading.Thread(target=_solve, args=(key,), daemon=True).start()
        return SOLVING

    return games


Note = tuple[str, tuple[tuple[int, tuple[str, ...]], ...]] | None
"""A player's remembered cards, hashable: ``(player, ((deal, cards), ...))``."""


@st.cache_resource(show_spinner=False, max_entries=128)
def _rows(
    session: str, version: int, solved: int, start: bool, note: Note, _steps: Any
) -> list[Row]:
    remembered = None if note is None else (note[0], dict(note[1]))
    return review(_steps, games=_games(start), remembered=remembered).rows


def session_rows(
    session: str, version: int, steps: Any, *, start: bool = True, note: Note = None
) -> list[Row]:
    """The graded rows of ``session`` at ``version`` (its last seq; ``steps``: its timeline's
    steps in force). ``start``: a game not at hand is solved in the background (the page's own
    session); else its deal says "no reference: not solved yet" (a previous session).
    ``note``: the viewing player's own remembered cards (their browser only), grading that
    player's seen decisions the log has no hand for (rows ``from_note``)."""
    rows = _rows(session, version, _SOLVED[0], start, note, steps)
    if any(r.grade.endswith(SOLVING) for r in rows) and not _PENDING:
        rows = _rows(session, version, _SOLVED[0], start, note, steps)  # solved meanwhile
    return rows


def pending(rows: Sequence[Row]) -> bool:
    """Whether some of ``rows`` wait for a game being solved."""
    return any(r.grade.endswith(SOLVING) for r in rows)


def _hidden(rp: Any) -> set[int]:
    org = gate.organiser_device()
    return {d for d in range(1, rp.final.deals + 1) if sight.guards(rp, d, organiser=org)}


def _note(session: str, player: str | None, seats: Sequence[str]) -> Note:
    """The cards ``player`` remembers in ``session``, on the browser that picked ``player`` on
    My sessions only (their private note: never another device's review)."""
    if not player or player not in seats or prefs.get_pref(keys.ME) != player:
        return None
    noted = cache.my_cards(session, player)
    return (player, tuple(sorted(noted.items()))) if noted else None


def reviewed(
    session: str, *, start: bool = True, player: str | None = None
) -> tuple[Any, list[Row], set[int]] | None:
    """``(replay, rows, hidden deals)`` of ``session`` (``None`` without events): the rows as
    :func:`session_rows` gives them; ``hidden`` the deals this device receives only as a
    spectator (:func:`present.sight.guards`), of which nothing is graded here. ``player``: the
    review's player; on that player's own browser (My sessions' choice) their remembered cards
    grade their seen decisions the log has no hand for."""
    rp = cache.replay(session)
    if rp is None or not rp.states or rp.timeline is None:
        return None
    note = _note(session, player, rp.final.seats)
    rows = session_rows(session, cache.last_seq(session), rp.timeline.steps, start=start, note=note)
    return rp, rows, _hidden(rp)


def my_reviews(
    sessions: Sequence[str], player: str, enough: int | None = None
) -> tuple[list[tuple[str, rv.Summary]], list[tuple[str, str]]]:
    """``player``'s reviews of ``sessions`` (newest first, kept in that order): those grading at
    least one of their decisions, each with its :class:`~dashboard.stats.review_view.Summary`,
    and those grading none, each with why in a few plain words
    (:func:`~dashboard.stats.review_view.nothing_graded`). A game not at hand is not solved for
    this (``start=False``). ``enough``: stop once that many grading something are found (older
    sessions are looked through only while the newest grade nothing)."""
    graded: list[tuple[str, rv.Summary]] = []
    empty: list[tuple[str, str]] = []
    for sid in sessions:
        if enough is not None and len(graded) >= enough:
            break
        got = reviewed(sid, start=False, player=player)
        if got is None:
            continue
        _rp, rows, hidden = got
        s = rv.summarise(sid, rows, hidden, player)
        why = rv.nothing_graded(s)
        if why is None:
            graded.append((sid, s))
        else:
            empty.append((sid, why))
    return graded, empty
