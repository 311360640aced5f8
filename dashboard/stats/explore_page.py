"""Explore: read-only SQL over the DuckDB projection, the schema beside it, results as a table
with a CSV download. Statements that write are refused."""

import streamlit as st

from dashboard.common import state_keys as keys
from dashboard.common import stores
from dashboard.stats import stats_cache, widgets
from dashboard.stats import tables as stat_tables

st.title("Explore")
st.caption("One SELECT at a time over the analytics projection (DuckDB); nothing can be written.")

# The store asked every run (one small query): this page reads only the statistics, which a
# refresh checked less than stats_cache.REFRESH_EVERY seconds ago may answer without the store,
# yet a store that cannot be reached is every page's one line (dashboard.common.faults).
stores.store().last_position()
widgets.analytics_or_stop(stats_cache.checked_version)  # what the writer reached, read
tables = widgets.analytics_or_stop(stats_cache.schema)

left, right = st.columns([3, 2])
with right:
    st.subheader("Schema")
    widgets.schema(tables)
with left:
    sql = widgets.sql_box()
    if sql:
        result = widgets.query_or_refusal(
            stats_cache.run_sql, sql, key=st.session_state.get(keys.SQL_RUNS)
        )
        if result is not None:
            columns, rows = result.columns, result.rows
            st.caption(stat_tables.rows_caption(len(rows), result.cut))
            st.dataframe(stat_tables.result_rows(columns, rows), hide_index=True, width="stretch")
            st.download_button(
                "Download CSV",
                stat_tables.csv_text(columns, rows),
                file_name="query.csv",
                mime="text/csv",
                icon=":material/download:",
            )
