"""Decisions: pick a spot by its context and see what players do there and how it pays, one
player beside the field and the club's winning players; the decisions behind each figure as
links to their steps; where the player strays most from the winning players."""

import streamlit as st

from analytics import spots
from dashboard.common import escape
from dashboard.stats import decisions as ui_decisions
from dashboard.stats import stats_cache, widgets
from present.numbers import count_of

st.title("Decisions")
st.markdown(ui_decisions.THUMB_CSS, unsafe_allow_html=True)
st.caption(
    "Every recorded decision with its context as the engine saw it before it: who was still in, "
    "blind or seen, the level, the pot, the hand where the log knows it."
)

widgets.analytics_or_stop(stats_cache.checked_version)  # what the writer reached, read
names = [r["player"] for r in widgets.analytics_or_stop(lambda: stats_cache.stat("player_stats"))]
if not names:
    st.info("No deal has ended yet, so there are no decisions to explore.")
    st.stop()
player = ui_decisions.player_choice(names)
table = widgets.table_choice(stats_cache.stat("tables"))
cards = ui_decisions.cards_choice()

spot = ui_decisions.spot_pickers(ui_decisions.spot_from_link())
answer = widgets.analytics_or_stop(
    lambda: stats_cache.spots("explore", spot=str(spot), player=player, table=table, cards=cards)
)

st.subheader(escape.md(spot.words().capitalize()))
totals = ", ".join(f"{g} {n:,}" for g, n in answer.totals.items())
st.caption(
    f"Decisions in the spot: {escape.md(totals)}. Share: of the group's decisions in the spot, "
    "with its Wilson score 95% interval. Net: the mean of the player's net in the deal "
    "(stake units; ≈ to the nearest quarter) ± its standard error (rounded up to a quarter)."
)
if not any(answer.totals.values()):
    st.info("No decision in this spot: widen it above.")
else:
    widgets.plain_table(spots.answer_rows(answer))
winners = ", ".join(answer.winners) or "none yet"
st.caption(
    f"Winning players: net above 0 over at least {count_of(answer.min_deals, 'deal')}"
    f"{', the player apart' if player else ''}: {escape.md(winners)}. The field: every "
    f"{'other ' if player else ''}player."
)

st.subheader("The decisions behind a figure")
group, action = ui_decisions.cell_choice(answer)
rows = stats_cache.spots(
    "behind", spot=str(spot), group=group, action=action, player=player, table=table, cards=cards
)
deals = len({(r["session"], r["deal"]) for r in rows})
what = f"{action}" if action else "every action"
whose = player if group == "player" and player else f"the {group}"
st.caption(
    f"{escape.md(whose)}, {escape.md(what)}: {count_of(len(rows), 'decision')} in "
    f"{count_of(deals, 'deal')}."
)
ui_decisions.decision_links(rows)

if player:
    st.subheader(f"Biggest differences: {escape.md(player)} beside the winning players")
    st.caption(
        "Each spot of the standard bands once, under the action whose share strays most; a tap "
        "opens the spot. "
        "Difference: the player's share minus the winning players', in share points, with its "
        "95% interval (Newcombe). Score: of every 100 of the player's decisions, at least this "
        "many are made differently from the winning players in that spot (the spot's share of "
        "the player's decisions times the part of the difference beyond its interval); a "
        "difference that could be chance scores 0."
    )
    found = stats_cache.spots("differences", player=player, table=table, cards=cards)
    if not found:
        st.info("Nothing to compare: no winning player has met this player's spots.")
    else:
        ui_decisions.difference_links(found, player)
