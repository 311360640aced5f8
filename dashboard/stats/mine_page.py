"""My sessions: pick your name once (remembered on this browser); your sessions, newest first,
each opening its replay viewed as you by one tap; the deals of one of them, each to its replay
as you; at a real table the cards you remember for a deal (your private note); with "Show
results" on, your net in each session and over time."""

from functools import partial

import streamlit as st

from dashboard.access import gate
from dashboard.common import cache, escape, params, ui
from dashboard.common.links import LinkRow
from dashboard.stats import mine as ui_own
from dashboard.stats import own, stats_cache, widgets
from dashboard.stats import tables as stat_tables
from dashboard.stats.review_view import review_href
from present import sight

st.title("My sessions")

players = cache.session_facets()[0]
if not players:
    st.info("No sessions in the store yet: `brag run` imports the bundled season.")
    st.stop()

me = ui_own.who_am_i(players)
if me is None:
    st.caption("Pick your name once: this browser remembers it.")
    st.stop()
results = ui.show_results()

wanted = params.param("session")  # one of your sessions: its deals ("Your deals" on its row)
if wanted is None or not own.sat_in(cache.session_info(wanted), me):
    kept = cache.session_count([me])
    mine = cache.session_page([me], page=ui.page_choice(kept, cache.SESSIONS_PAGE))
    standings = None
    if results:  # what the projection's writer reached, read
        widgets.analytics_or_stop(stats_cache.checked_version)
        standings = widgets.analytics_or_stop(lambda: stats_cache.stat("leaderboard"))
    nets = own.nets(standings, me) if standings is not None else None
    st.subheader("Your sessions")
    st.caption(f"Newest first, {kept:,} in all: a tap opens the replay as {escape.md(me)} saw it.")
    ui.link_rows(own.session_rows(mine, me, nets), "Your sessions: a tap opens the replay as you")
    st.subheader("Your reviews")  # the newest five: each session's own is under "Your deals"
    reviews = [
        LinkRow(href=review_href(i.session, me), title=f"★ Review {i.session}") for i in mine[:5]
    ]
    deck = LinkRow(href=review_href(None, me, view="deck"), title="Your deck of mistakes")
    ui.link_rows([deck, *reviews], "Your reviews: a tap opens a session's review")
    if standings is not None:
        st.subheader("Your net over time")
        widgets.net_over_time(stat_tables.net_over_sessions({me: stats_cache.session_nets(me)}))
    st.stop()

rp = cache.replay(wanted)
if rp is None or not rp.states:
    st.stop()
st.subheader(f"Your deals in {escape.md(wanted)}")
ui.session_heading(rp)
shown_only = rp.final.cards_mode == "shown"
# whether this device receives a deal only as a spectator saw it (RULES 3.3, 3.5)
guarded = partial(sight.guards, rp, organiser=gate.organiser_device())
noted = cache.my_cards(wanted, me) if shown_only else {}
deal = params.param("deal")  # "Your cards" on a deal's row: the cards first
if shown_only and deal is not None:
    ui_own.my_cards(wanted, own.my_deals(rp, me), me, noted, deal, guarded=guarded)
ui.link_rows(
    own.deal_rows(rp, me, noted, results=results), "Your deals: a tap opens the replay as you"
)
if shown_only and deal is None:
    ui_own.my_cards(wanted, own.my_deals(rp, me), me, noted, deal, guarded=guarded)
review = LinkRow(href=review_href(wanted, me), title="★ Review your decisions here")
ui.link_rows([review, own.ALL_MINE], "Your review, or back to your sessions")
