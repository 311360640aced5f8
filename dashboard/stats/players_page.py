"""Players: each player's statistics with their counts (over every session, or the sessions of
one table, and of a season or two dates: ``?from=``/``?to=``), net over time, showdown hands
beside RULES 2.8, blind and see habits; two players side by side; the season's standings by two
formulas (issue 36)."""

import streamlit as st

from analytics import luck
from dashboard.common import cache, escape, stores, ui
from dashboard.common import state_keys as keys
from dashboard.stats import dates as date_filter
from dashboard.stats import figures as stats_view
from dashboard.stats import register_panel, season_panel, skill_panel, stats_cache, widgets
from dashboard.stats import tables as stat_tables

st.title("Players")

widgets.analytics_or_stop(stats_cache.checked_version)  # what the writer reached, read
table = widgets.table_choice(widgets.analytics_or_stop(lambda: stats_cache.stat("tables")))
span = cache.session_facets()[2]  # the first and last dates of the sessions (None: no session)
dates = date_filter.date_range(span)
stats = widgets.analytics_or_stop(
    lambda: stats_cache.stat("player_stats", table=table, dates=dates)
)
if not stats:
    st.info(
        "No deal ended in these dates, so there are no statistics for them."
        if dates
        else "No deal has ended yet, so there are no statistics."
    )
    season_panel.season_panel(dates, span)
    st.stop()

within = f", {dates[0].isoformat()} to {dates[1].isoformat()}" if dates else ""
st.subheader((f"Every player, {escape.md(table)}" if table else "Every player") + within)
widgets.plain_table(stats_view.stats_table(stats))
if note := luck.luck_note(stats):
    st.caption(escape.unreferenced(note))
register, recorded = register_panel.register_now()  # the club's register (issue 35)
for also in register_panel.also_lines([r["player"] for r in stats], register, recorded):
    st.caption(escape.md(also))

names = [r["player"] for r in stats]
first, second = widgets.two_players(names)
a = next(r for r in stats if r["player"] == first)
b = next((r for r in stats if r["player"] == second), None)

st.subheader("Side by side" if b else escape.md(first))
widgets.wrapped_table(stats_view.side_by_side(a, b, stats_view.SUMMARY + stats_view.HABITS))

skill_panel.skill_panel(first, second, table, stats, dates)  # issue 37

st.subheader("Net over time")
chosen = [first, *([second] if second else [])]
nets = {p: stats_cache.session_net_ticks(p, table, dates) for p in chosen}
# The store's one cheap query of each run (its last position), as when this chart read the
# catalogue: a store that cannot be reached is still said here (dashboard/common/faults.py),
# though the chart now comes from the projection alone.
stores.store().last_position()
widgets.net_over_time(
    stat_tables.net_over_ticks(nets), frame=True, labels=stat_tables.session_labels(nets)
)

st.subheader("Hands shown at showdowns, beside RULES 2.8")
hands = {p: stats_cache.stat("showdown_hands", player=p, table=table, dates=dates) for p in chosen}
widgets.categories_chart(stat_tables.categories_vs_rules(hands), stat_tables.PACK, chosen)
widgets.wrapped_table(stat_tables.category_table(hands))  # one table, whole at 390 px

# the deals behind a figure: a long list (50 a page), under the charts so they stay in reach
st.subheader(f"The deals behind {escape.md(first)}'s figures")
statistic = widgets.statistic_choice(stats_view.DRILLED, stats_view.label)
total = stats_cache.deals_behind_total(first, statistic, table, dates)
listed = "|".join(map(str, (first, statistic, table, dates)))  # a page number per list
page = ui.page_choice(total["deals"], stats_cache.DRILL_PAGE, f"{keys.DEALS_PAGE}-{listed}", "page")
deals = stats_cache.deals_behind(first, statistic, table, page=page, dates=dates)
st.caption(stats_view.drill_caption(a, statistic, deals, total))
if which := stat_tables.drill_page_caption(
    total["deals"], page, len(deals), stats_cache.DRILL_PAGE
):
    st.caption(which)
ui.link_box(stats_view.drill_links(deals, statistic), "Deals: a tap opens the replay", "deals")

season_panel.season_panel(dates, span)  # its own title: the dates, else this season

register_panel.register_panel(register, recorded)  # the organiser's unlocked device only
