"""A small preference remembered per browser: :func:`get_pref` and :func:`set_pref`.

Where it is kept: within a browser session (reruns, other pages) in ``st.session_state``; across
reloads and visits in a cookie of this browser, ``brag_pref_NAME`` (kept :data:`MAX_AGE` seconds,
``path=/``, ``SameSite=Strict``), written by :func:`keep`'s small component (``document.cookie``)
and read back by the server through ``st.context.cookies``, which the page's websocket handshake
carries when a page is opened.

Why a cookie and not the browser's ``localStorage``: the cookie reaches the server with the page's
first run, so the page is drawn once, already in the remembered state (no winner shown for a
moment before a component reports "hide the results", and no second run); ``localStorage`` reaches
the server only through a component's answer, one round trip after the first drawing. A cookie
rides along with every request to the dashboard, so a preference is short (:data:`MAX_VALUE`
characters) and never a secret (the page's scripts can read it; the organiser's unlock token is
the HttpOnly cookie of :mod:`dashboard.access.routes`, not a preference). Its value is what a
browser
sent: data, checked by its reader (a name must be one of the store's players, ...).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import streamlit as st

from dashboard.common import state_keys as keys

__all__ = ["MAX_AGE", "MAX_VALUE", "get_pref", "keep", "set_pref"]

MAX_AGE = 400 * 24 * 3600
"""Seconds a preference is kept in the browser's cookie (400 days, the longest browsers keep)."""

MAX_VALUE = 200
"""The longest value a preference holds, in characters."""

PREFIX = "brag_pref_"
_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
_STATE = keys.PREFS  # this browser session's preferences: name -> value (None: cleared)


def _check_name(name: str) -> None:
    if not _NAME.fullmatch(name):
        raise ValueError(
            f"a preference's name is 1 to 32 lower-case letters, digits or '_' "
            f"starting with a letter, not {name!r}"
        )


def get_pref(name: str) -> str | None:
    """This browser's value of the preference ``name``, or ``None`` when it has none: the value
    set in this browser session, else the one its cookie brought when the page was opened.

    Raises ``ValueError`` for a name that is not 1 to 32 of ``[a-z0-9_]`` starting with a
    letter."""
    _check_name(name)
    kept: dict[str, str | None] = st.session_state.get(_STATE, {})
    if name in kept:
        return kept[name]
    try:
        value = st.context.cookies.get(PREFIX + name)
    except Exception:  # no browser behind the run (a bare script, AppTest)
        return None
    if not isinstance(value, str) or not value:
        return None
    text = unquote(value)
    return text if len(text) <= MAX_VALUE else None


def set_pref(name: str, value: str | None) -> None:
    """Remembers ``value`` (``None``: forgets it) as this browser's preference ``name``: at once
    for this browser session, and in its cookie from this page's next drawing on (:func:`keep`,
    which the app runs on every page before the page itself). Call it from a widget's callback
    (``on_change``, ``on_click``), which runs before the page is drawn again, so the cookie is
    written on that drawing.

    Raises ``ValueError`` for a bad name (see :func:`get_pref`) or a value longer than
    :data:`MAX_VALUE` characters or holding a control character."""
    _check_name(name)
    if value is not None:
        if len(value) > MAX_VALUE:
            raise ValueError(
                f"the preference {name} holds at most {MAX_VALUE} characters, not {len(value)}"
            )
        if not value.isprintable():
            raise ValueError(f"the preference {name} holds only printable characters")
    kept: dict[str, str | None] = dict(st.session_state.get(_STATE, {}))
    kept[name] = value
    st.session_state[_STATE] = kept


_WRITER_JS = """
export default function (component) {
  const { data } = component;
  for (const [name, value] of Object.entries(data.prefs || {})) {
    const cookie = data.prefix + name;
    if (value === null) {
      document.cookie = cookie + '=; max-age=0; path=/; SameSite=Strict';
    } else {
      document.cookie = cookie + '=' + encodeURIComponent(value) + '; max-age=' + data.max_age +
        '; path=/; SameSite=Strict';
    }
  }
}
"""

_writer = st.components.v2.component("bragbook.prefs", js=_WRITER_JS)


def keep() -> None:
    """Writes the preferences set in this browser session into this browser's cookies. The app
    (``dashboard/app.py``) runs it on every page, before the page: a preference set by a
    callback reaches the cookie on the drawing that follows. Draws nothing, and nothing at all
    until a preference is set."""
    kept: dict[str, str | None] = st.session_state.get(_STATE, {})
    if kept:
        with st.sidebar:  # out of the page's own column: no gap above its title
            _writer(
                key=keys.PREFS_WRITER,
                data={"prefs": dict(kept), "prefix": PREFIX, "max_age": MAX_AGE},
            )
