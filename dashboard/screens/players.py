"""Players: each player's statistics with their counts (over every session, or the sessions of
one table), net over time, showdown hands beside RULES 2.8, blind and see habits; two players
side by side."""

import streamlit as st

from dashboard import cache, stats_view, ui
from dashboard import state_keys as keys

st.title("Players")

ui.analytics_or_stop(cache.refresh_statistics)  # the projection caught up, then read
table = ui.table_choice(ui.analytics_or_stop(lambda: cache.stat("tables")))
stats = ui.analytics_or_stop(lambda: cache.stat("player_stats", table=table))
if not stats:
    st.info("No deal has ended yet, so there are no statistics.")
    st.stop()

st.subheader(f"Every player, {ui.md(table)}" if table else "Every player")
ui.plain_table(stats_view.stats_table(stats))
if note := stats_view.luck_note(stats):
    st.caption(note)

names = [r["player"] for r in stats]
first, second = ui.two_players(names)
a = next(r for r in stats if r["player"] == first)
b = next((r for r in stats if r["player"] == second), None)

st.subheader("Side by side" if b else ui.md(first))
ui.plain_table(stats_view.side_by_side(a, b, stats_view.SUMMARY + stats_view.HABITS))

st.subheader(f"The deals behind {ui.md(first)}'s figures")
statistic = ui.statistic_choice(stats_view.DRILLED, stats_view.label)
total = cache.deals_behind_total(first, statistic, table)
page = ui.page_choice(total["deals"], cache.DRILL_PAGE, key=keys.DEALS_PAGE)
deals = cache.deals_behind(first, statistic, table, page=page)
st.caption(stats_view.drill_caption(a, statistic, deals, total))
if which := stats_view.drill_page_caption(total["deals"], page, len(deals), cache.DRILL_PAGE):
    st.caption(which)
with st.container(height=520 if len(deals) > 8 else "content"):
    ui.link_rows(stats_view.drill_links(deals, statistic), "Deals: a tap opens the replay")

st.subheader("Net over time")
chosen = [first, *([second] if second else [])]
nets = {p: cache.session_nets(p, table) for p in chosen}
# The store's one cheap query of each run (its last position), as when this chart read the
# catalogue: a store that cannot be reached is still said here (dashboard/faults.py), though the
# chart now comes from the projection alone.
cache.store().last_position()
ui.net_over_time(stats_view.net_over_sessions(nets), frame=True)

st.subheader("Hands shown at showdowns, beside RULES 2.8")
hands = {p: cache.stat("showdown_hands", player=p, table=table) for p in chosen}
ui.categories_chart(stats_view.categories_vs_rules(hands))
cols = st.columns(len(chosen))
for col, p in zip(cols, chosen, strict=True):
    with col:
        st.markdown(f"**{ui.md(p)}**")
        ui.plain_table(stats_view.category_rows(hands[p]))
