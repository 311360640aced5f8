"""The Replay page's notes panel (issue 21, item 2): the notes on the step the replayer shows,
fetched from :mod:`dashboard.replay.notes_routes` when that step is shown (never sent with the
deal's
frames, so a note is not in the page before its step), a form to add one, and on the
organiser's unlocked device a button to hide one. A note is listed where the action it was
written on stands now (issue 32); one whose action was withdrawn (an Undo, a correction) stays
there, marked "On a withdrawn step" with that action's words.

A Streamlit components v2 component (``notes.js``, ``notes.css`` beside this file; nothing
fetched but the notes). It follows the replayer (:mod:`dashboard.replay.replayer`) by its root's
``data-step``; the replayer itself is unchanged. Notes are set as text, never markup.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard.common import prefs
from dashboard.common import state_keys as keys
from log.annotations import BY_MAX_CHARS, NOTE_MAX_CHARS

__all__ = ["notes_panel"]

_HERE = Path(__file__).resolve().parent

_COMPONENT = st.components.v2.component(
    "bragbook_notes",
    html='<div class="nt" data-testid="notes"></div>',
    css=(_HERE / "notes.css").read_text(encoding="utf-8"),
    js=(_HERE / "notes.js").read_text(encoding="utf-8"),
    isolate_styles=False,
)


def notes_panel(session: str, deal: int, key: str = keys.NOTES) -> None:
    """Mounts the notes panel for deal ``deal`` of ``session``; the step is the replayer's. The
    writer's name box starts with the name this browser last signed a note with, else the
    player this browser is on My sessions (the ``me`` preference, issue 35), as text."""
    me = prefs.get_pref(keys.ME) or ""
    data = {
        "session": session,
        "deal": deal,
        "max": NOTE_MAX_CHARS,
        "max_by": BY_MAX_CHARS,
        "me": me[:BY_MAX_CHARS],
    }
    _COMPONENT(key=key, data=data, height="content")
