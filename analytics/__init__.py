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
(the DuckDB writer and its checkpoint), ``analytics/sql/*.sql`` (schema and statistics),
:mod:`analytics.queries` (typed functions over the statistics).
"""

from analytics import queries
from analytics.building import current_checkpoint, replacing
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
from analytics.facts import ProjectionError
from analytics.lake import LakeReport, export_lake
from analytics.projector import Projector, RefreshReport, checkpoint, connect, rebuild, refresh

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
