"""Analytics: a DuckDB projection of the event log and the players' statistics.

What the command line and the dashboard call::

    con = analytics.connect("brag.duckdb")          # tables created if missing
    analytics.refresh(store, con)                  # catch up with the store (resumable)
    analytics.queries.player_stats(con, session=None, player=None, table=None)   # list[dict]
    analytics.queries.leaderboard(con, session=None)
    analytics.schema(con); analytics.run_readonly(con, "SELECT ...")
    analytics.export_lake(con, "out/")             # Hive-partitioned Parquet + _dictionary
    analytics.api.load_player_deals(...)           # for analysts: DuckDB relations
    analytics.api.load_decisions(...)              # one row per decision, with its context

Layers: :mod:`analytics.facts` (pure: rows from the engine's replay), :mod:`analytics.projector`
(the DuckDB writer), :mod:`analytics.tables` (the tables and the checkpoint),
``analytics/sql/*.sql`` (schema and statistics), :mod:`analytics.queries` (typed functions over
the statistics).

Importing :mod:`analytics` loads none of these: each name is imported from its module on first
use (PEP 562), and so is a submodule named as an attribute (``analytics.sources``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events.lazy import LazyNames

if TYPE_CHECKING:
    from analytics import queries
    from analytics.building import current_checkpoint, replacing
    from analytics.errors import ProjectionError
    from analytics.explore import (
        Limited,
        LimitReached,
        Limits,
        QueryError,
        ReadOnlyError,
        run_limited,
        run_readonly,
        schema,
        without_paths,
    )
    from analytics.lake import LakeReport, export_lake
    from analytics.projector import Projector, RefreshReport, rebuild, refresh
    from analytics.tables import checkpoint, connect

_WHERE = {
    "queries": "analytics.queries",
    "current_checkpoint": "analytics.building",
    "replacing": "analytics.building",
    "Limited": "analytics.explore",
    "LimitReached": "analytics.explore",
    "Limits": "analytics.explore",
    "QueryError": "analytics.explore",
    "ReadOnlyError": "analytics.explore",
    "run_limited": "analytics.explore",
    "run_readonly": "analytics.explore",
    "schema": "analytics.explore",
    "without_paths": "analytics.explore",
    "ProjectionError": "analytics.errors",
    "LakeReport": "analytics.lake",
    "export_lake": "analytics.lake",
    "Projector": "analytics.projector",
    "RefreshReport": "analytics.projector",
    "checkpoint": "analytics.tables",
    "connect": "analytics.tables",
    "rebuild": "analytics.projector",
    "refresh": "analytics.projector",
}
"""Each public name and the module it is defined in (``queries``: the module itself)."""

__all__ = [
    "LakeReport",
    "LimitReached",
    "Limited",
    "Limits",
    "ProjectionError",
    "Projector",
    "QueryError",
    "ReadOnlyError",
    "RefreshReport",
    "checkpoint",
    "connect",
    "current_checkpoint",
    "export_lake",
    "queries",
    "rebuild",
    "refresh",
    "replacing",
    "run_limited",
    "run_readonly",
    "schema",
    "without_paths",
]


_NAMES = LazyNames(__name__, _WHERE, __all__, modules=["queries"])


def __getattr__(name: str) -> Any:
    return _NAMES.get(name)


def __dir__() -> list[str]:
    return _NAMES.dir()
