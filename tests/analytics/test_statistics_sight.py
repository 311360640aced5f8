"""The statistics go through the sight rule (issue 33.1, :mod:`present.sight`): until a session
ends, what the projection holds of every deal dealt since the last shuffle (RULES 3.2) is what a
spectator at the table could have written (the showdown hands, RULES 3.5), whatever else the log
knows; the rest opens at a shuffle or at the session's end.

The class, not an example: a ``cards: "all"`` session and the same session as a spectator records
it (:func:`sim.randplay.shown_only`: no dealt hand, no shuffle's order) are cut between every two
deals and after every Undo; the projection of each cut must be the same for every guarded deal
(:func:`present.sight.guarded_from`, the one rule the frames use), column by column but for the
session's card mode. The open deals must keep what the log knows (their luck terms,
docs/luck.md); an incremental
refresh, event by event, must equal a projection built at once; Undo of the step that ended the
session or of a shuffle must veil the deals again.
"""

from __future__ import annotations

import random
from typing import Any

import duckdb
import pytest

import analytics.projector
import analytics.tables
from analytics.projector import Projector
from analytics.sources import MemorySource
from events.model import AnyEvent, Dealt, SessionEnded, Shuffled, Voided, is_derived
from present.replay import Replay
from present.sight import guarded_from
from sim.randplay import random_session, shown_only

TABLES = {
    "deals": "deal",
    "player_deals": "deal, seat",
    "decisions": "deal, seq",
}


def _project(events: list[AnyEvent], *, batch: int = 10_000) -> duckdb.DuckDBPyConnection:
    src = MemorySource()
    src.append("s", events)
    con = analytics.tables.connect()
    analytics.projector.refresh(src, con, batch_size=batch)
    return con


def _rows(con: duckdb.DuckDBPyConnection, table: str, since: int | None) -> list[tuple[Any, ...]]:
    """The rows of ``table`` for the deals from ``since`` on (none for ``None``: nothing is
    guarded), the card mode left out."""
    if since is None:
        return []
    cols = [
        r[0] for r in con.execute(f"DESCRIBE {table}").fetchall() if r[0] not in ("cards_mode",)
    ]
    return con.execute(
        f"SELECT {', '.join(cols)} FROM {table} WHERE deal >= $d ORDER BY {TABLES[table]}",
        {"d": since},
    ).fetchall()


def _cuts(stream: list[AnyEvent]) -> list[int]:
    """Every length a store can hold of ``stream``: after a recorded event and the engine's
    conclusions that follow it (the store writes them together)."""
    return [k for k in range(2, len(stream) + 1) if k == len(stream) or not is_derived(stream[k])]


def _turns(stream: list[AnyEvent]) -> list[int]:
    """The cuts of ``stream`` (:func:`_cuts`) where the statistics can change: between deals
    (before a deal or a shuffle), after an Undo, and the whole stream."""
    return [
        k
        for k in _cuts(stream)
        if k == len(stream)
        or isinstance(stream[k], Dealt | Shuffled)
        or isinstance(stream[k - 1], Voided)
    ]


def _session(seed: int, *, players: int, pots: int, void_rate: float = 0.0) -> list[AnyEvent]:
    return random_session(random.Random(seed), "s", players=players, pots=pots, void_rate=void_rate)


PRIAL_SEED = 300
"""A 2-player, 4-pot random session shuffled again after a showdown won by a prial (RULES 3.2)
well before its end (the first such seed from 0: 300)."""


def _prial_session() -> list[AnyEvent]:
    """The random session of :data:`PRIAL_SEED`: a shuffle after one of its deals and more deals
    after that shuffle."""
    s = _session(PRIAL_SEED, players=2, pots=4)
    shuffles = [k for k, e in enumerate(s) if isinstance(e, Shuffled)]
    assert len(shuffles) >= 2 and shuffles[1] < len(s) * 2 // 3, "the simulator changed: pick again"
    return s


@pytest.mark.parametrize(
    ("seed", "players", "pots", "void_rate"),
    [(1, 3, 3, 0.0), (2, 5, 3, 0.0), (3, 4, 3, 0.08), (4, 2, 4, 0.08), (PRIAL_SEED, 2, 4, 0.0)],
)
def test_a_guarded_deal_projects_as_a_spectators_copy(
    seed: int, players: int, pots: int, void_rate: float
) -> None:
    full = _session(seed, players=players, pots=pots, void_rate=void_rate)
    theirs_all = shown_only(full)  # event for event
    mine_src, theirs_src = MemorySource(), MemorySource()
    mine, theirs = analytics.tables.connect(), analytics.tables.connect()
    mine_p, theirs_p = Projector(mine_src, mine), Projector(theirs_src, theirs)
    veiled_somewhere = done = 0
    for k in _turns(full):
        mine_src.append("s", full[done:k])
        theirs_src.append("s", theirs_all[done:k])
        done = k
        mine_p.refresh()
        theirs_p.refresh()
        since = guarded_from(Replay.of(full[:k]))
        for table in TABLES:
            assert _rows(mine, table, since) == _rows(theirs, table, since), (table, k)
        if since is not None:
            veiled_somewhere += mine.execute(
                "SELECT count(*) FROM player_deals WHERE deal >= $d", {"d": since}
            ).fetchone()[0]  # type: ignore[index]
    assert veiled_somewhere > 0  # the cuts did hold guarded deals that ended


def test_the_deals_open_at_the_end_and_keep_what_the_log_knows() -> None:
    """An ended session's luck terms (every fresh deal has one, docs/luck.md) and the categories
    of hands never shown are there once the session ends, and not one step before."""
    full = _session(5, players=4, pots=3)
    assert isinstance(full[-1], SessionEnded)
    before_end = max(k for k in _cuts(full) if k < len(full) - 1)
    ended, just_before = _project(full), _project(full[:before_end])
    luck = "SELECT count(*) FROM player_deals WHERE luck_t IS NOT NULL"
    assert ended.execute(luck).fetchone()[0] > 0  # type: ignore[index]
    assert just_before.execute(luck).fetchone()[0] == 0  # type: ignore[index]
    hidden = (
        "SELECT count(*) FROM decisions d JOIN player_deals p USING (session, deal, player) "
        "WHERE d.hand_category IS NOT NULL AND p.hand_cards IS NULL"
    )
    assert ended.execute(hidden).fetchone()[0] > 0  # type: ignore[index]
    assert just_before.execute(hidden).fetchone()[0] == 0  # type: ignore[index]
    summary = "SELECT sum(luck_deals) FROM player_session_summary"
    assert ended.execute(summary).fetchone()[0] > 0  # type: ignore[index]
    assert just_before.execute(summary).fetchone()[0] == 0  # type: ignore[index]


def test_a_shuffle_opens_the_deals_before_it() -> None:
    full = _prial_session()
    second = [k for k, e in enumerate(full) if isinstance(e, Shuffled)][1]
    con = _project(full[: second + 1])  # up to the shuffle after the prial
    open_deals = con.execute(
        "SELECT count(*) FROM player_deals WHERE luck_t IS NOT NULL"
    ).fetchone()[0]  # type: ignore[index]
    assert open_deals > 0
    assert (
        guarded_from(Replay.of(full[: second + 1]))
        == con.execute("SELECT max(deal) + 1 FROM deals").fetchone()[0]
    )  # type: ignore[index]


@pytest.mark.parametrize("batch", [1, 3, 10_000])
def test_event_by_event_equals_at_once(batch: int) -> None:
    """The veils put on and taken off by later events (a shuffle, the end) written in any batch
    size give the rows a projection built at once gives, for every cut."""
    full = _prial_session()
    for k in _turns(full):
        a, b = _project(full[:k], batch=batch), _project(full[:k])
        for table in (*TABLES, "player_session_summary"):
            q = f"SELECT * FROM {table} ORDER BY ALL"
            assert a.execute(q).fetchall() == b.execute(q).fetchall(), (table, k)


def test_undo_of_the_end_or_of_a_shuffle_veils_the_deals_again() -> None:
    """An Undo (``voided``) of the step that ended the session, or of the step that won a pot
    with a prial (and so of the shuffle after it): the deals dealt since the shuffle before are
    guarded again, as in a projection of the log without those steps; incremental or at once."""
    for full, last in ((_session(5, players=4, pots=3), "end"), (_prial_session(), "shuffle")):
        if last == "end":
            k = len(full)
        else:
            k = [i for i, e in enumerate(full) if isinstance(e, Shuffled)][1] + 1
        cut = full[:k]
        undone = [*cut, Voided(seq=_last_recorded_seq(cut))]
        at_once, stepwise = _project(undone), _project(undone, batch=1)
        since = guarded_from(Replay.of(undone))
        assert since is not None
        for con in (at_once, stepwise):
            assert (
                con.execute(
                    "SELECT count(*) FROM player_deals WHERE luck_t IS NOT NULL AND deal >= $d",
                    {"d": since},
                ).fetchone()[0]
                == 0
            )  # type: ignore[index]
        q = "SELECT * FROM player_deals ORDER BY ALL"
        assert at_once.execute(q).fetchall() == stepwise.execute(q).fetchall()


def _last_recorded_seq(stream: list[AnyEvent]) -> int:
    """The seq (1-based position) of the last recorded (not derived) event of ``stream``."""
    return max(k for k, e in enumerate(stream, start=1) if not is_derived(e))
