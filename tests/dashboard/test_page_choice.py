"""A list's page number (:func:`dashboard.common.ui.page_choice`) when the list gets shorter
under it: a page past the new last one starts again at the first, never an error (the Decisions
page's cell, the Players page's statistic: each keeps its page number across reruns)."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from dashboard.common.ui import page_choice

    st.markdown(f"page {page_choice(int(st.session_state.get('total', 300)), 60, key='p')}")


def test_a_page_past_a_shorter_lists_end_starts_again_at_its_first() -> None:
    at = AppTest.from_function(_script).run()
    assert at.number_input(key="p").max == 5
    at.number_input(key="p").set_value(5).run()
    assert at.markdown[0].value == "page 5"
    at.session_state["total"] = 130  # three pages now
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key="p").max == 3 and at.markdown[0].value == "page 1"
    at.number_input(key="p").set_value(3).run()
    at.session_state["total"] = 400  # longer: the page kept
    at.run()
    assert at.number_input(key="p").max == 7 and at.markdown[0].value == "page 3"
