"""Every key of ``st.session_state`` the dashboard's pages and widgets use: one name each, here.

``st.session_state`` is one browser session's store (reruns, other pages); a widget's ``key`` is
a key of it too. Two modules that meant one key spell it the same way by importing it from here;
two that did not, cannot collide. Each constant is the key's text; the functions give the keys
made per session, per picker or per follow.
"""

from __future__ import annotations

__all__ = [
    "AMEND_DONE",
    "CLOSE_NAMES",
    "COOKIE_CODE",
    "COOKIE_FOR",
    "DEALS_PAGE",
    "DECISIONS_PAGE",
    "DEVICE_COOKIE",
    "DEVICE_PANEL",
    "DEVICE_PREFS",
    "DEVICE_TOKEN",
    "FLASH",
    "GATE_SESSION",
    "LAST_SESSION",
    "LINKED_PAGE",
    "LINK_SAID",
    "LIVE",
    "LOCK",
    "LOCKED",
    "LOCKED_OUT",
    "LOCK_ALL",
    "ME",
    "ME_THIS_SESSION",
    "MY_CARDS",
    "MY_CARDS_FLASH",
    "MY_CARDS_NAMES",
    "NOTES",
    "PICK_CELL_ACTION",
    "PICK_CELL_GROUP",
    "PICK_DEALS",
    "PICK_DEC_CARDS",
    "PICK_DEC_PLAYER",
    "PICK_FROM",
    "PICK_PLAYER",
    "PICK_SEASON",
    "PICK_SESSION",
    "PICK_TABLE",
    "PICK_TO",
    "PICK_VS",
    "PREFS",
    "PREFS_WRITER",
    "RECORDED_BY_INPUT",
    "RECORDED_BY_NAME",
    "RECORDING",
    "RECORD_SESSION",
    "REPLAYER",
    "REPLAY_NONCE",
    "RESULTS",
    "SEAT_ORDER",
    "SECRET_INPUT",
    "SESSIONS_PAGE",
    "SIDEBAR_CLOSE",
    "SPOT_PICKERS",
    "SQL_FORM",
    "SQL_RAN",
    "SQL_RESULT",
    "SQL_RUNS",
    "SQL_TEXT",
    "START_ASK",
    "START_CARDS",
    "START_DEALER",
    "START_FORM",
    "START_KEPT",
    "START_LINKED",
    "START_PLAYERS",
    "START_POTS",
    "START_SESSION",
    "START_TABLE",
    "UNLOCK_FORM",
    "live_seen",
    "my_cards_deal",
    "my_cards_form",
    "my_cards_link",
    "my_cards_suit",
    "spot_part",
]

# --- sessions and the replay (dashboard.common.ui)
# ------------------------------------------------------

LAST_SESSION = "brag_last_session"
"""The session this browser session last showed on the Session or Replay page (an id)."""

DEALS_PAGE = "deals_page"
"""The Players page's page number of the deals behind a statistic."""

DECISIONS_PAGE = "decisions_page"
"""The Decisions page's page number of the decisions behind a cell (one per list: the key ends
with what the list holds)."""

LINKED_PAGE = "linked_page_"
"""With a link parameter's name: the page number in the link has been read (once a browser
session, :func:`dashboard.common.ui.page_choice`)."""

NET_POINT = "net_point"
"""The point of the net over time a tap picked (``st.altair_chart`` selection)."""

PICK_SESSION = "pick_session"
"""The session picker's widget (:func:`dashboard.common.ui.session_picker`, its default key)."""

SESSIONS_PAGE = "sessions_page"
"""The Sessions page's page number widget (:func:`dashboard.common.ui.page_choice`, its default
key)."""

REPLAYER = "replayer"
"""The replayer component (:mod:`dashboard.replay.replayer`): its state, ``["nav"]``, the frames the
browser asks for."""

REPLAY_NONCE = "replay_nonce"
"""How many times the browser asked for other frames (an int): sent with the frames, so that the
browser takes a new request's step anew."""

NOTES = "notes"
"""The notes panel beside the replayer (:mod:`dashboard.replay.notes_panel`, its default key)."""

LINK_SAID = "link_said"
"""What a Replay link lacked: ``(session, index, line)``, the line shown while the replayer
stands where that link opened (:func:`dashboard.replay.widgets.replay_stage`)."""

LIVE = "live"
"""A page's follow of a session (:func:`dashboard.common.live.follow`, its default key)."""

RESULTS = "show_results"
"""The "Show results" toggle of the Sessions and Session pages; also the name of its per-browser
preference (:mod:`dashboard.common.prefs`)."""

# --- the statistics pages (dashboard.stats.widgets, dashboard.stats.decisions)
# ---------------------------

PICK_DEALS = "pick_deals"
"""The statistic whose deals the Players page lists (``?deals=``)."""

PICK_TABLE = "pick_table"
"""The table whose sessions the statistics cover (``?table=``)."""

PICK_PLAYER = "pick_player"
"""The Players page's player (``?player=``)."""

PICK_VS = "pick_vs"
"""The Players page's player to compare with (``?vs=``)."""

PICK_SEASON = "pick_season"
"""The named season whose dates the Players page covers (sets ``?from=`` and ``?to=``)."""

PICK_FROM = "pick_from"
"""The first date of the sessions the Players page covers (``?from=``)."""

PICK_TO = "pick_to"
"""The last date of the sessions the Players page covers (``?to=``)."""

PICK_DEC_PLAYER = "pick_dec_player"
"""The Decisions page's player (``?player=``)."""

PICK_DEC_CARDS = "pick_dec_cards"
"""Which decisions the Decisions page counts by what the log knows of the cards (``?cards=``)."""
SPOT_PICKERS = "spot_pickers"
"""The Decisions page's expander of the spot's pickers: one key, so it stays open while its
label (the spot) changes (:mod:`dashboard.stats.decisions`)."""

PICK_CELL_GROUP = "pick_cell_group"
"""The Decisions page's cell: its group (the rows of the answer)."""

PICK_CELL_ACTION = "pick_cell_action"
"""The Decisions page's cell: its action."""

SQL_FORM = "sql"
"""The Explore page's form: the SQL and its Run button."""

SQL_TEXT = "sql_text"
"""The Explore page's SQL text area."""

SQL_RAN = "sql_ran"
"""The SQL the Explore page last ran (the text when Run was pressed)."""

SQL_RUNS = "sql_runs"
"""How many times Run was pressed (an int): the same SQL run again is run anew."""

SQL_RESULT = "sql_result"
"""The Explore page's last outcome, ``((sql, runs), (kind, value))``: shown again on a rerun
without running the query again."""

# --- the organiser's device (dashboard.access.gate, dashboard.common.ui.organiser_device)
# -----------------------

DEVICE_TOKEN = "device_token"
"""This browser session's device token, once the device is unlocked
(:mod:`dashboard.access.check`)."""

LOCKED = "locked"
"""``True`` once the device was locked here: its ``brag_device`` cookie is no longer taken."""

LOCKED_OUT = "locked_out"
"""The sentence of a write this device's token no longer allowed (issue 33: revoked since the
page was drawn): shown by the gate above the secret's form, then dropped."""

COOKIE_FOR = "cookie_for"
"""The token the browser was last asked to keep in its ``brag_device`` cookie (``None``: clear
it)."""

COOKIE_CODE = "cookie_code"
"""The one-time code handed to the page for that cookie (:mod:`dashboard.access.routes`)."""

DEVICE_COOKIE = "device_cookie"
"""The component that has the browser set or clear the cookie."""

GATE_SESSION = "gate_session"
"""This browser session's random name, one of the keys guesses of the secret are counted by."""

UNLOCK_FORM = "unlock"
"""The form that takes the organiser secret."""

SECRET_INPUT = "secret_input"
"""The organiser secret's text input."""

LOCK = "lock"
"""The "Lock this device" button."""

LOCK_ALL = "lock_all"
"""The button that locks every device unlocked so far."""

TABLE_DEVICE_FOR = "table_device_for"
"""The table chosen under "Unlock a device for a table" (issue 36)."""

TABLE_DEVICE_LINK = "table_device_link"
"""``(table, link)``: the one-time link that unlocks a device for that table only, shown with
its QR code (:mod:`dashboard.access.routes`)."""

# --- preferences and the player this browser is (dashboard.common.prefs, dashboard.stats.mine)
# ---------------

PREFS = "brag_prefs"
"""This browser session's preferences (:mod:`dashboard.common.prefs`): name -> value (``None``:
cleared)."""

ME = "me"
"""The "You are" picker of the My sessions page; also the name of its per-browser preference."""

ME_THIS_SESSION = "me_this_session"
"""A name the ``me`` preference cannot hold (not printable, too long for a cookie), kept for this
browser session only."""

MY_CARDS_FLASH = "my_cards_flash"
"""What *Keep my cards* kept, said once after the rerun: ``((session, deal), text)``."""

MY_CARDS = "my_cards"
"""The card pickers' container: its class ``st-key-my_cards`` is the CSS hook that sizes the
cards for a thumb (:mod:`dashboard.stats.mine`)."""
MY_CARDS_NAMES = "my_cards_names"
"""My sessions' card pickers' names for a screen reader (:mod:`dashboard.stats.mine`)."""

PREFS_WRITER = "brag_prefs_writer"
"""The component that writes a preference into the browser's cookie
(:mod:`dashboard.common.prefs`)."""

SIDEBAR_CLOSE = "brag_sidebar_close"
"""The component that closes the sidebar on a phone after a tap
(:mod:`dashboard.common.sidebar`)."""

# --- the Record page (dashboard.record.widgets, ui_start, ui_amend, screens/record)
# -----------------

RECORDED_BY_NAME = "by"
"""Who records on this device, as kept in its cookie (the Record page)."""

RECORDING = "recording"
"""The session this device records, or None for a new one."""

RECORDED_BY_INPUT = "recorded_by"
"""The Record page's 'Recorded by' text input."""

RECORD_SESSION = "record_session"
"""The Record page's session picker."""

DEVICE_PREFS = "prefs"
"""The Record page's device component (its cookies)."""

FLASH = "flash"
"""The Record page's last 'recorded'/'not recorded' line: (kind, text, session, at)."""

DEVICE_PANEL = "device_panel"
"""The Record page's 'This device' panel."""

AMEND_DONE = "amend_done"
"""The correction just stored (Correct a step), said once."""

START_FORM = "start"
"""The new-session form's container (.st-key-start)."""

START_SESSION = "start_session"
"""The new session's name."""

START_TABLE = "start_table"
"""The new session's table."""

START_PLAYERS = "start_players"
"""The new session's seats, in order."""

CLOSE_NAMES = "close_names"
"""The component that closes the seats' list once a name is picked."""

SEAT_ORDER = "seat_order"
"""The seats' arrows' container."""

START_CARDS = "start_cards"
"""Which cards the new session records."""

START_DEALER = "start_dealer"
"""The new session's first dealer."""

START_POTS = "start_pots"
"""The new session's pots to play (RULES 1.4)."""

START_KEPT = "start_kept"
"""The new names the organiser kept although close to known ones (normal forms, issue 35)."""

START_ASK = "start_ask"
"""The start form's questions' container (.st-key-start_ask: "did you mean Jean?")."""

START_LINKED = "start_linked"
"""The table and players a link filled the start form with (the Night desk's "Start this
table's session"): kept among the form's choices while it is open."""


def my_cards_deal(session: str) -> str:
    """The "Your cards in" deal picker of ``session``."""
    return f"my_cards_deal_{session}"


def my_cards_link(session: str) -> str:
    """The deal the link named when that picker was last set from it (once per new link)."""
    return f"{my_cards_deal(session)}_link"


def my_cards_form(session: str, deal: int) -> str:
    """The form of the card pickers of ``deal`` of ``session``."""
    return f"my_cards_{session}_{deal}"


def my_cards_suit(session: str, deal: int, suit: str) -> str:
    """The pickers of one ``suit`` in that form."""
    return f"{my_cards_form(session, deal)}_{suit}"


def spot_part(name: str) -> str:
    """The Decisions page's picker of one part of the spot (``name``: a field of
    ``analytics.spots.Spot``)."""
    return f"spot_{name}"


def live_seen(key: str, session: str) -> str:
    """The seq :func:`dashboard.common.live.follow` (``key``) last reran the page for, for
    ``session``."""
    return f"_live_{key}_{session}"
