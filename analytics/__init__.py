"""Analytics: a DuckDB projection of the event log and the players' statistics (issue 5).

What the command line and the dashboard call::

    con = analytics.connect("brag.duckdb")          # tables created if missing
    analytics.refresh(store, con)                  # catch up with the store (resumable)
    analytics.queries.player_stats(con, session=None, player=None, table=None)   # list[dict]
    analytics.queries.leaderboard(con, session=None)
    analytics.schema(con); analytics.run_readonly(con, "SELECT ...")
    analytics.export_parquet(con, "out/")

Layers: :mod:`analytics.facts` (pure: rows from the engine's replay), :mod:`analytics.projector`
(the DuckDB writer and its checkpoint), ``analytics/sql/*.sql`` (schema and statistics),
:mod:`analytics.queries` (typed functions over the statistics).
"""

from analytics import queries
from analytics.explore import ReadOnlyError, export_parquet, run_readonly, schema
from analytics.facts import ProjectionError
from analytics.projector import Projector, RefreshReport, checkpoint, connect, rebuild, refresh

__all__ = [
    "ProjectionError",
    "Projector",
    "ReadOnlyError",
    "RefreshReport",
    "checkpoint",
    "connect",
    "export_parquet",
    "queries",
    "rebuild",
    "refresh",
    "run_readonly",
    "schema",
]
