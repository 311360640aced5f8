"""My sessions: pick your name once (remembered on this browser); your sessions, newest first,
each opening its replay viewed as you by one tap; the deals of one of them, each to its replay
as you; at a real table the cards you remember for a deal (your private note); with "Show
results" on, your net in each session and over time. "Your reviews" lists only the reviews that
grade a decision of yours (a decision is graded with two players left before any bet), and says
in one short line each why a newer session has nothing graded."""

from functools import partial

import streamlit as st

from dashboard.access import gate
from dashboard.common import cache, escape, params, ui
from dashboard.common.links import LinkRow
from dashboard.stats import mine as ui_own
from dashboard.stats import own, reviewing, stats_cache, widgets
from dashboard.stats import tables as stat_tables
from dashboard.stats.review_view import review_href
from present import sight

st.title("My sessions")

# (comments, not docstrings: Streamlit's magic would print a bare string on the page)
REVIEWS_LOOKED = 40  # how many of your newest sessions "Your reviews" may look through (cached;
# it stops once REVIEWS_SHOWN grade something: a walk found a player's graded sessions older
# than the ten newest, none of which graded anything)
REVIEWS_SHOWN = 5  # how many reviews it lists, and how many sessions with nothing graded it names

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
    st.subheader("Your reviews")  # each session's own is under "Your deals"
    looked = [i.session for i in mine[:REVIEWS_LOOKED]]
    graded, empty = reviewing.my_reviews(looked, me, REVIEWS_SHOWN)
    reviews = [
        LinkRow(
            href=review_href(sid, me),
            title=f"★ Review {sid}",
            details=(f"{s.graded} of your {s.decisions} decisions graded",),
        )
        for sid, s in graded[:REVIEWS_SHOWN]
    ]
    deck = LinkRow(href=review_href(None, me, view="deck"), title="Your deck of mistakes")
    ui.link_rows([deck, *reviews], "Your reviews: a tap opens a session's review")
    if empty:
        lines = [f"- {escape.md(sid)}: nothing graded: {escape.md(why)}." for sid, why in empty]
        st.markdown("\n".join(lines[:REVIEWS_SHOWN]))
        if len(lines) > REVIEWS_SHOWN:
            st.caption(f"… and {len(lines) - REVIEWS_SHOWN} more with nothing graded.")
        st.caption(
            "A decision is graded only when two players are left before any bet: at a table "
            "of more, most sessions grade few or none."
        )
    if standings is not None:
        st.subheader("Your net over time")
        my_nets = {me: stats_cache.session_net_ticks(me)}
        widgets.net_over_time(
            stat_tables.net_over_ticks(my_nets), labels=stat_tables.session_labels(my_nets)
        )
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
