"""``dashboard.common.prefs``: a preference set by a callback is this browser session's at once, and
bad names or values are refused in one line (the cookie that keeps it across reloads is
checked in a real browser: ``tests/browser/test_spoilers_page.py``)."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from dashboard.common import prefs

    prefs.keep()

    def changed() -> None:
        prefs.set_pref("colour", st.session_state["colour"] or None)

    st.text_input("colour", key="colour", on_change=changed)
    st.markdown(f"pref={prefs.get_pref('colour')!r}")


def test_a_preference_set_by_a_callback_is_read_back_and_cleared() -> None:
    at = AppTest.from_function(_script, default_timeout=30).run()
    assert at.markdown[0].value == "pref=None"  # nothing set, no cookie behind an AppTest
    at.text_input(key="colour").input("deep red").run()
    assert not at.exception
    assert at.markdown[0].value == "pref='deep red'"
    at.text_input(key="colour").input("").run()
    assert at.markdown[0].value == "pref=None"


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("Show results", "1", "lower-case letters"),
        ("", "1", "lower-case letters"),
        ("x" * 33, "1", "lower-case letters"),
        ("name", "x" * 201, "at most 200 characters, not 201"),
        ("name", "Ann\x1b[31m", "only printable characters"),
        ("name", "Ann\nBob", "only printable characters"),
    ],
)
def test_bad_names_and_values_are_refused(name: str, value: str, says: str) -> None:
    from dashboard.common import prefs

    with pytest.raises(ValueError, match=says.replace("(", r"\(")):
        prefs.set_pref(name, value)
