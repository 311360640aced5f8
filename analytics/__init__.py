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

Each name has one address, its module (``from analytics.api import stat``); this file imports
nothing.
"""
