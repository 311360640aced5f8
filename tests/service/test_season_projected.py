"""The season read through the projection (issue 37 item 5, :mod:`service.season_nights`,
:mod:`analytics.season_parts`): the same season as folded from the store, on the bundled season
(SQLite) and its first night (SQLite and PostgreSQL); a night the projection has caught up with
is summed in DuckDB (no session folded); a session stored or corrected since the projection's
last catch-up is folded from the store and the rest of its night still taken from the
projection; a merge in the register, a log without times and a projection of another schema
give the same season too; each read from the nights' summaries the projection keeps
(:mod:`analytics.summaries`) and, with them marked stale, from the sessions' rows."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest
from amend_helpers import withdraw_last

import analytics.projector
import analytics.tables
from analytics import summaries
from analytics.season_parts import season_parts
from log.open import open_store
from log.register import merge, seated_of
from log.service import EventStore
from service import season_nights
from service.season import Points, SeasonCache, Total, season_of

ROOT = Path(__file__).resolve().parents[2]
SEASON = sorted((ROOT / "data" / "season").glob("*.jsonl"))
ALL = (date(2026, 9, 1), date(2026, 12, 31))
FORMULAS = [Total(), Points()]


class Projection:
    """A DuckDB projection of ``store`` (in memory), brought up to date by :meth:`catch_up`, and
    :data:`service.season_nights.Projected` over it; counts the sessions folded from the store."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.con = analytics.tables.connect()
        self.catch_up()

    def catch_up(self) -> None:
        analytics.projector.refresh(self.store, self.con)

    def __call__(self, sums: Any, listing: Any) -> Any:
        return season_parts(self.con, sums, listing)


@pytest.fixture(autouse=True, params=["summaries", "sessions"])
def read_from(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: the nights read from the summaries the projection keeps, then from its
    sessions' rows (the summaries marked stale after each catch-up, as during a refresh)."""
    if request.param == "sessions":
        caught_up = Projection.catch_up

        def catch_up(self: Projection) -> None:
            caught_up(self)
            summaries.mark_stale(self.con)

        monkeypatch.setattr(Projection, "catch_up", catch_up)
    return str(request.param)


@pytest.fixture()
def folds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What :mod:`service.season_nights` folds from the store: a whole night (its date, then its
    sessions) or a session (its id, noted by :func:`_made`)."""
    seen: list[str] = []
    night = season_nights.folded

    def folded(store: EventStore, day: date) -> Any:
        seen.append(day.isoformat())
        return night(store, day)

    monkeypatch.setattr(season_nights, "folded", folded)
    return seen


def _made(
    store: EventStore, projection: Projection, seen: list[str], first: date, last: date
) -> Any:
    """The season read through ``projection``, each session state asked of the store noted."""

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def state(self, session: str) -> Any:
            seen.append(session)
            return store.state(session)

    return season_of(Counting(), first, last, FORMULAS, projected=projection)  # type: ignore[arg-type]


def test_the_bundled_season_equals_its_fold_and_folds_nothing(
    tmp_path: Path, folds: list[str]
) -> None:
    with open_store(f"sqlite:///{tmp_path / 'club.db'}") as store:
        for path in SEASON:
            store.import_log(str(path))
        projection = Projection(store)
        got = _made(store, projection, folds, *ALL)
        assert folds == []  # every night taken whole from the projection
        want = season_of(store, *ALL, FORMULAS)
        assert got.nights == want.nights and got.rankings == want.rankings
        assert len(got.nights) == 17 and got.state == want.state == "provisional"
        assert got.rules == want.rules == ("standard",)


def test_the_summaries_are_what_is_read_when_kept(
    tmp_path: Path, folds: list[str], read_from: str
) -> None:
    """A name's net in the nights' summaries tampered with: the season shows it when they are
    kept (they are what is read), not when they are stale (the sessions' rows are)."""
    with open_store(f"sqlite:///{tmp_path / 'club.db'}") as store:
        for path in SEASON[:6]:
            store.import_log(str(path))
        projection = Projection(store)
        before = _made(store, projection, folds, *ALL)
        (player,) = projection.con.execute(
            "SELECT player FROM night_player_nets ORDER BY day, player LIMIT 1"
        ).fetchone()
        projection.con.execute(
            "UPDATE night_player_nets SET net_t = net_t + 2 * den WHERE player = ?", [player]
        )
        after = _made(store, projection, folds, *ALL)
        assert folds == []
        moved = sum(n.nets.get(player, 0) for n in after.nights) - sum(
            n.nets.get(player, 0) for n in before.nights
        )
        nights = sum(1 for n in before.nights if player in n.nets)
        assert moved == (2 * nights if read_from == "summaries" else 0)


def test_a_correction_since_the_catch_up_is_folded_the_rest_taken(
    first_night: EventStore, folds: list[str]
) -> None:
    store, day = first_night, date(2026, 9, 24)
    projection = Projection(store)
    session = "2026-09-24-top-2"
    withdraw_last(store, session, datetime(2026, 9, 25, 9, 0, tzinfo=UTC))

    got = _made(store, projection, folds, day, day)
    assert folds == [session]  # the corrected session only; the other three from the projection
    want = season_of(store, day, day, FORMULAS)
    assert got.nights == want.nights and got.rankings == want.rankings

    projection.catch_up()
    folds.clear()
    assert _made(store, projection, folds, day, day).nights == want.nights and folds == []


def test_a_session_stored_since_the_catch_up_and_a_merge(
    first_night: EventStore, folds: list[str]
) -> None:
    store, day = first_night, date(2026, 9, 24)
    projection = Projection(store)
    new = SEASON[4]  # 2026-09-25's first session: another night
    store.import_log(str(new))
    merge(store, "Keith", "Gary", seated_of(store), by="organiser")
    got = _made(store, projection, folds, day, date(2026, 9, 25))
    assert folds[0] == "2026-09-25"  # the new night: none of it projected, folded whole
    assert all(f.startswith("2026-09-25") for f in folds)
    want = season_of(store, day, date(2026, 9, 25), FORMULAS)
    assert got.nights == want.nights and got.rankings == want.rankings
    assert "Keith" not in got.nights[0].nets and "Gary" in got.nights[0].nets


def test_a_log_without_times_is_dated_by_the_store_and_still_taken(
    tmp_path: Path, folds: list[str]
) -> None:
    lines = [json.loads(x) for x in SEASON[0].read_text().splitlines() if x.strip()]
    for e in lines:
        e.pop("at", None)
    untimed = tmp_path / "untimed.jsonl"
    untimed.write_text("".join(json.dumps(e) + "\n" for e in lines))
    with open_store(f"sqlite:///{tmp_path / 'club.db'}") as store:
        store.import_log(str(untimed))
        today = store.sessions()[0].started
        assert today is not None
        day = today.date()
        projection = Projection(store)
        got = _made(store, projection, folds, day, day)
        assert folds == []  # listed by the store (no time in the projection), taken one by one
        assert got.nights == season_of(store, day, day, FORMULAS).nights


def test_a_projection_it_cannot_read_leaves_every_night_folded(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'club.db'}") as store:
        for path in SEASON[:4]:
            store.import_log(str(path))
        day = date(2026, 9, 24)
        cache = SeasonCache()

        def unreadable(sums: Any, listing: Any) -> None:
            with pytest.raises(duckdb.Error):  # a projection of schema 12 has no open_min
                season_parts(duckdb.connect(), sums, listing)
            return None

        got = cache.season(store, day, day, FORMULAS, projected=unreadable)
        assert cache.folded == 1 and got.nights == season_of(store, day, day, FORMULAS).nights
