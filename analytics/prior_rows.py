"""The projection's record of what each session tells of each player, and which sessions' luck
terms must be folded again when an earlier session changes (issue 37 item 1).

:mod:`analytics.priors` says what a session's prior is: each player's signature counts over
their latest :data:`~analytics.priors.HISTORY` earlier sessions by date. Here is how the
projection keeps it:

- ``luck_history`` (:data:`LUCK_HISTORY`) holds, per (session, player), the player's counts in
  the session and the digest of the prior its fold took; written with the session's other rows
  in the batch's transaction.
- :class:`PriorKeeper` answers a fold's question (:meth:`PriorKeeper.prior`) from those rows and
  from the sessions folded in the current batch (not yet written), and after a batch names the
  sessions whose prior is no longer the one they were folded with (:meth:`PriorKeeper.stale`):
  a later session of a player whose earlier session the batch added, corrected or re-dated, or
  one folded before an earlier session of the same batch had ended. The projector folds those
  again (:meth:`analytics.facts.SessionFolder.relucked`), in the same transaction, so that an
  incremental refresh and a rebuild hold the same rows at every checkpoint. Folding again
  changes no session's own counts, so it goes no further.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter, deque
from collections.abc import Container, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import duckdb

from analytics.ddl import table
from analytics.priors import HISTORY, Entry, OrderKey, digest, order_key, window
from events.text import normal

if TYPE_CHECKING:
    from analytics.facts import SessionFolder

__all__ = [
    "LUCK_HISTORY",
    "Foreseen",
    "PriorKeeper",
    "entries_of",
    "foreseen",
    "out_of_order",
    "session_priors",
]

LUCK_HISTORY = table(
    "luck_history",
    "What each session tells of each player's play, the prior of their later sessions' luck "
    "terms (analytics/priors.py, docs/luck.md).",
    {
        "session VARCHAR NOT NULL": "The session id.",
        "player_key VARCHAR NOT NULL": "The player's name in its normal form (events.text.normal).",
        "order_kind INTEGER NOT NULL": "0: the session has a time (session_started.at); 1: none.",
        "order_at BIGINT NOT NULL": "Its time in microseconds since 1970 UTC (0 without one).",
        "first_position BIGINT NOT NULL": "The global position of the session's first event.",
        "luck BOOLEAN NOT NULL": "The session has luck terms (cards: all).",
        "signatures VARCHAR NOT NULL": (
            "The player's signature counts in the session, JSON (analytics/tendencies.py)."
        ),
        "prior VARCHAR": (
            "The digest of the prior the session's luck terms took for the player (NULL without "
            "luck terms)."
        ),
    },
    order="player_key, session",
)


def entries_of(folder: SessionFolder) -> dict[str, Entry]:
    """What ``folder``'s session tells of each player (by normal form) so far, with the digest
    of the prior its written rows took (:meth:`~analytics.facts.SessionFolder.prior_digests`)."""
    own = folder.luck.own(closing=folder.state.finished)
    digests = folder.prior_digests()
    key = folder.order_key()
    luck = folder.state.cards_mode == "all"
    counts: dict[str, Counter[str]] = {}
    priors: dict[str, str] = {}
    for name in {*own, *digests}:
        k = normal(name)
        counts.setdefault(k, Counter()).update(own.get(name, {}))
        if name in digests:
            priors[k] = digests[name]
    # a session without luck terms took no prior that matters: none recorded
    return {k: Entry(key, c, priors.get(k) if luck else None, luck) for k, c in counts.items()}


Foreseen = dict[str, dict[str, Entry]]
"""session -> player key -> what the session tells of the player, read ahead of the fold."""


def out_of_order(source: Any) -> list[str] | None:
    """The sessions of ``source`` stored after a session dated later than they are: the ones a
    fold in the store's order meets after a later session has taken its prior without them
    (those :func:`foreseen` must read; none for a club that records its nights in order).
    ``None`` when ``source`` cannot list its sessions."""
    listing = getattr(source, "sessions", None)
    if listing is None:
        return None
    keys: list[tuple[int, OrderKey, str]] = []
    rows = listing()
    if rows and isinstance(rows[0], str):  # names only (an in-memory or file source): one scan
        firsts: dict[str, Any] = {}
        position = 0
        while batch := source.read_all(after=position):
            for x in batch:
                firsts.setdefault(x.session, x)
            position = batch[-1].position
        for session, first in firsts.items():
            at = getattr(first.event, "at", None)
            keys.append((first.position, order_key(at, first.position), session))
    else:
        for x in rows:
            keys.append((x.first_position, order_key(x.first_at, x.first_position), x.session))
    keys.sort()
    out: list[str] = []
    latest: OrderKey | None = None
    for _, key, session in keys:
        if latest is not None and key < latest:
            out.append(session)
        latest = key if latest is None or key > latest else latest
    return out


def foreseen(source: Any, sessions: Iterable[str] | None = None) -> Foreseen:
    """What each session of ``source`` (or of ``sessions``) tells of its players, read ahead of
    a fold from nothing (a rebuild, a first catch-up): the steps in force
    (:class:`timeline.Timeline`, about a seventh of a fold's cost) through the tendencies' own
    counting, so that every session's fold takes its final prior at once instead of being folded
    again each time an earlier-dated session comes later in the store. Only a head start: a
    session it cannot read (a correction not whole) is left to the fold, and whatever it says is
    checked after each batch (:meth:`PriorKeeper.stale`). Needs ``source.sessions()`` (names or
    catalogue rows) and ``source.read``; empty otherwise."""
    if sessions is None:
        listing = getattr(source, "sessions", None)
        if listing is None:
            return {}
        sessions = [getattr(x, "session", x) for x in listing()]
    out: Foreseen = {}
    for session in sessions:
        stored = list(source.read(session))
        if not stored:
            continue
        try:
            seen, final = _counted([x.event for x in stored])
        except Exception:  # refused, or a correction not whole: the fold will say
            continue
        key = order_key(getattr(stored[0].event, "at", None), stored[0].position)
        luck = final.cards_mode == "all"
        counts: dict[str, Counter[str]] = {}
        for name, c in seen.own(closing=final.finished).items():
            counts.setdefault(normal(name), Counter()).update(c)
        out[session] = {k: Entry(key, c, None, luck) for k, c in counts.items()}
    return out


def _counted(events: list[Any]) -> tuple[Any, Any]:
    """The tendencies' counts of a stored stream's steps in force, and its last state: the
    engine's fold where the stream has no correction, else its timeline's steps."""
    from analytics.tendencies import ACTION_TYPES, Tendencies
    from engine.apply import apply
    from engine.state import initial_state
    from timeline import Timeline

    seen = Tendencies()
    steps: list[Any]
    if any(e.type in ("voided", "amended") for e in events):
        t = Timeline.of(events)
        steps = [(s.event, s.before, s.after) for s in t.steps]
        final = t.state
    else:
        steps, final = _applied(events, apply, initial_state())
    for e, before, after in steps:
        if e.type in ACTION_TYPES:
            who: str = e.player  # every action names its player
            seen.acted(e.type, who, before.players[before.seat(who)].seen)
        elif e.type == "dealt":
            seen.dealt(after.seats)
    return seen, final


def _applied(events: list[Any], apply: Any, state: Any) -> tuple[list[Any], Any]:
    out = []
    for e in events:
        before, state = state, apply(state, e)
        out.append((e, before, state))
    return out, state


class _Record:
    """One player's sessions (:class:`~analytics.priors.Entry` by session), sorted on demand."""

    __slots__ = ("_sorted", "changed", "entries")

    def __init__(self, entries: dict[str, Entry]) -> None:
        self.entries = entries
        self._sorted: list[tuple[OrderKey, str]] | None = None
        self.changed: list[OrderKey] = []
        """The keys of the sessions written since the last :meth:`PriorKeeper.stale`."""

    def put(self, session: str, entry: Entry | None) -> None:
        old = self.entries.pop(session, None)
        if old is not None:
            self.changed.append(old.key)
        if entry is not None:
            self.entries[session] = entry
            self.changed.append(entry.key)
        self._sorted = None

    def order(self) -> list[tuple[OrderKey, str]]:
        if self._sorted is None:
            self._sorted = sorted((e.key, s) for s, e in self.entries.items())
        return self._sorted

    def before(self, key: OrderKey, skip: Container[str]) -> dict[str, Entry]:
        """The latest :data:`HISTORY` entries earlier than ``key`` by session, ``skip``'s left
        out."""
        order = self.order()
        i = bisect.bisect_left(order, (key, ""))
        out: dict[str, Entry] = {}
        while i > 0 and len(out) < HISTORY:
            i -= 1
            if order[i][1] not in skip:
                out[order[i][1]] = self.entries[order[i][1]]
        return out


class PriorKeeper:
    """The projector's view of ``luck_history``: loaded a player at a time, kept up to date by
    :meth:`write`; :attr:`live` holds the folders of the batch being folded."""

    def __init__(self) -> None:
        self._by_player: dict[str, _Record] = {}
        self.live: Mapping[str, SessionFolder] = {}
        """The sessions folded in the current batch, not yet written."""
        self._ahead: dict[str, _Record] = {}
        self._seen: dict[str, tuple[int, dict[str, Entry]]] = {}
        """:func:`entries_of` of the batch's folders, as of their last event."""
        """:func:`foreseen` sessions by player, for those not written yet."""

    def clear(self) -> None:
        """Forgets what was loaded (the database may have rolled back)."""
        self._by_player.clear()
        self._ahead.clear()
        self._seen.clear()
        self.live = {}

    def foresee(self, ahead: Foreseen) -> None:
        """Takes :func:`foreseen` sessions as the priors' head start (those written since, and
        the batch's, take precedence)."""
        self._ahead.clear()
        for session, players in ahead.items():
            for player, e in players.items():
                self._ahead.setdefault(player, _Record({})).entries[session] = e

    def _record(self, con: duckdb.DuckDBPyConnection, player: str) -> _Record:
        got = self._by_player.get(player)
        if got is None:
            rows = con.execute(
                "SELECT session, order_kind, order_at, first_position, luck, signatures, prior "
                "FROM luck_history WHERE player_key = $p",
                {"p": player},
            ).fetchall()
            got = _Record(
                {
                    r[0]: Entry((r[1], r[2], r[3]), Counter(json.loads(r[5])), r[6], r[4])
                    for r in rows
                }
            )
            self._by_player[player] = got
        return got

    def prior(
        self,
        con: duckdb.DuckDBPyConnection,
        session: str,
        key: OrderKey,
        name: str,
        skipped: Container[str] = (),
    ) -> Counter[str]:
        """The prior of ``name`` in ``session`` (order key ``key``): their counts over their
        latest earlier sessions (:func:`analytics.priors.window`), the batch's sessions folded
        so far (:attr:`live`) as they stand."""
        player = normal(name)
        record = self._record(con, player)
        live = {}
        for other, folder in self.live.items():
            if other != session and folder.order_key() < key:
                mine = self._live_entries(other, folder).get(player)
                if mine is not None:
                    live[other] = mine
        skip = {session, *live} if not skipped else _Union(skipped, {session, *live})
        entries = record.before(key, skip)
        ahead = self._ahead.get(player)
        if ahead is not None:
            for s, e in ahead.before(key, skip).items():
                entries[s] = _fuller(entries.get(s), e)
        return window([*entries.values(), *live.values()], key)

    def _live_entries(self, session: str, folder: SessionFolder) -> dict[str, Entry]:
        got = self._seen.get(session)
        if got is None or got[0] != folder.last_seq:
            got = (folder.last_seq, entries_of(folder))
            self._seen[session] = got
        return got[1]

    def ahead(self) -> bool:
        """Sessions read ahead are held (:meth:`foresee`)."""
        return bool(self._ahead)

    def digests(self, con: duckdb.DuckDBPyConnection, session: str) -> dict[str, str]:
        """The digests of the priors ``session``'s written rows took, by player key."""
        rows = con.execute(
            "SELECT player_key, prior FROM luck_history WHERE session = $s AND prior IS NOT NULL",
            {"s": session},
        ).fetchall()
        return dict(rows)

    def write(
        self, con: duckdb.DuckDBPyConnection, folders: Mapping[str, SessionFolder]
    ) -> set[str]:
        """Writes what ``folders``' sessions tell of their players (their earlier rows
        replaced); returns the players whose record changed or may have."""
        names = list(folders)
        self.live = {}
        self._seen.clear()
        if not names:
            return set()
        touched: set[str] = set()
        for player, record in self._by_player.items():
            for s in names:
                if s in record.entries:
                    record.put(s, None)
                    touched.add(player)
        con.execute("DELETE FROM luck_history WHERE session IN $s", {"s": names})
        rows: list[tuple[Any, ...]] = []
        for session, folder in folders.items():
            for player, e in entries_of(folder).items():
                touched.add(player)
                rows.append((session, player, *e.key, e.luck, json.dumps(dict(e.counts)), e.prior))
                if player in self._by_player:
                    self._by_player[player].put(session, e)
        if rows:  # column by column, one statement (executemany is a statement a row)
            names = [c.name for c in LUCK_HISTORY.columns]
            con.execute(
                LUCK_HISTORY.insert_sql,
                {n: list(v) for n, v in zip(names, zip(*rows, strict=True), strict=True)},
            )
        return touched

    def stale(
        self, con: duckdb.DuckDBPyConnection, players: Iterable[str], skipped: Container[str] = ()
    ) -> set[str]:
        """The sessions with luck terms of ``players`` whose fold took another prior than their
        earlier sessions now give: those within :data:`HISTORY` sessions after one written
        since the last call (or the written ones themselves)."""
        out: set[str] = set()
        for player in players:
            record = self._record(con, player)
            changed = sorted(record.changed) or [(-1, 0, 0)]  # loaded just now: check them all
            every = not record.changed
            record.changed = []
            entries = dict(record.entries)
            ahead = self._ahead.get(player)
            if ahead is not None:  # sessions read ahead (as prior() has them)
                for s, e in ahead.entries.items():
                    entries[s] = _fuller(entries.get(s), e)
            out |= _stale(record, entries, changed, every, skipped)
        return out


def _stale(
    record: _Record,
    entries: Mapping[str, Entry],
    changed: list[OrderKey],
    every: bool,
    skipped: Container[str],
) -> set[str]:
    """One player's sessions (``entries``: what each tells, ``record``: the priors their rows
    took) whose prior is not the window of the ones before: every one (``every``), or those
    within :data:`HISTORY` sessions after a key of ``changed``."""
    out: set[str] = set()
    order = sorted((e.key, s) for s, e in entries.items() if s not in skipped)
    recent: deque[Entry] = deque(maxlen=HISTORY)
    c, since = 0, HISTORY + 1
    for k, s in order:
        while c < len(changed) and changed[c] <= k:
            c, since = c + 1, 0
        w = record.entries.get(s)  # the prior its rows took is the written one
        taken = w.prior if w is not None and w.luck and (every or since <= HISTORY) else None
        if taken is not None and digest(window(recent, k)) != taken:
            out.add(s)
        recent.append(entries[s])
        since += 1
    return out


def _fuller(written: Entry | None, ahead: Entry) -> Entry:
    """Of a session's written entry and the one read ahead, the one with more deals: a session
    written in part (a batch ended inside it) counts as it will be once folded whole."""
    if written is None or sum(ahead.counts.values()) >= sum(written.counts.values()):
        return ahead
    return written


class _Union:
    """Two containers as one."""

    __slots__ = ("_a", "_b")

    def __init__(self, a: Container[str], b: Container[str]) -> None:
        self._a, self._b = a, b

    def __contains__(self, x: object) -> bool:
        return x in self._a or x in self._b


def session_priors(con: duckdb.DuckDBPyConnection, session: str) -> dict[str, dict[str, int]]:
    """Each seat's prior in ``session`` as its projected rows took it, by the name seated
    (signature counts; empty for a name with no earlier session, and for a session the
    projection does not hold yet): what a replay of the session needs to give its luck terms
    as the projection has them (:func:`analytics.priors.window`)."""
    names = [
        r[0]
        for r in con.execute(
            "SELECT player FROM session_players WHERE session = $s ORDER BY seat", {"s": session}
        ).fetchall()
    ]
    out: dict[str, dict[str, int]] = {}
    for name in names:
        rows = con.execute(
            "SELECT h.session, order_kind, order_at, first_position, luck, signatures, prior "
            "FROM luck_history h WHERE player_key = $p "
            "AND h.session NOT IN (SELECT session FROM skipped_sessions)",
            {"p": normal(name)},
        ).fetchall()
        mine = next((r for r in rows if r[0] == session), None)
        if mine is None:
            out[name] = {}
            continue
        others = (
            Entry((r[1], r[2], r[3]), Counter(json.loads(r[5])), r[6], r[4])
            for r in rows
            if r[0] != session
        )
        out[name] = dict(window(others, (mine[1], mine[2], mine[3])))
    return out
