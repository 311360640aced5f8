"""Explore: read-only SQL over the DuckDB projection, the schema beside it, results as a table
with a CSV download. Statements that write are refused."""

import streamlit as st

from dashboard import cache, stats_view, ui
from dashboard import state_keys as keys

st.title("Explore")
st.caption("One SELECT at a time over the analytics projection (DuckDB); nothing can be written.")

# The store asked every run (one small query): this page reads only the statistics, which a
# refresh checked less than stats_cache.REFRESH_EVERY seconds ago may answer without the store,
# yet a store that cannot be reached is every page's one line (dashboard.faults).
cache.store().last_position()
ui.analytics_or_stop(cache.refresh_statistics)  # the projection caught up, then read
tables = ui.analytics_or_stop(cache.schema)

left, right = st.columns([3, 2])
with right:
    st.subheader("Schema")
    ui.schema(tables)
with left:
    sql = ui.sql_box()
    if sql:
        result = ui.query_or_refusal(cache.run_sql, sql, key=st.session_state.get(keys.SQL_RUNS))
        if result is not None:
            columns, rows = result.columns, result.rows
            st.caption(stats_view.rows_caption(len(rows), result.cut))
            st.dataframe(stats_view.result_rows(columns, rows), hide_index=True, width="stretch")
            st.download_button(
                "Download CSV",
                stats_view.csv_text(columns, rows),
                file_name="query.csv",
                mime="text/csv",
                icon=":material/download:",
            )
