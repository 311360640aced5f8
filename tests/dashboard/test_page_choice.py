"""A list's page number (:func:`dashboard.common.ui.page_choice`): one per list (another list
starts at its first page, and a shorter one never errs), and kept in the page's link, so that
Back from a row's replay (a new load of the page) comes to the same page (a new user's trial:
page 2 of the deals behind a figure, a replay, Back: page 1, scrolled to the top)."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from dashboard.common.ui import page_choice

    total = int(st.session_state.get("total", 300))
    listed = st.session_state.get("listed", "bets")
    st.markdown(f"page {page_choice(total, 60, key=f'p-{listed}', link='page')}")


def _paging(at: AppTest) -> object:
    (widget,) = at.number_input
    return widget


def test_a_page_past_a_shorter_lists_end_starts_again_at_its_first() -> None:
    at = AppTest.from_function(_script).run()
    assert _paging(at).max == 5  # type: ignore[attr-defined]  # a NumberInput
    _paging(at).set_value(5).run()  # type: ignore[attr-defined]  # a NumberInput
    assert at.markdown[0].value == "page 5"
    at.session_state["total"] = 130  # the same list, three pages now
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert _paging(at).max == 3 and at.markdown[0].value == "page 1"  # type: ignore[attr-defined]  # a NumberInput


def test_the_page_is_in_the_link_and_back_comes_to_it() -> None:
    at = AppTest.from_function(_script).run()
    _paging(at).set_value(4).run()  # type: ignore[attr-defined]  # a NumberInput
    assert at.query_params["page"] == "4"
    # Back from a replay: a new browser session on the same link
    back = AppTest.from_function(_script)
    back.query_params["page"] = "4"
    back.run()
    assert back.markdown[0].value == "page 4"
    # another list then: its first page, and the link no longer names page 4
    back.session_state["listed"] = "sees"
    back.run()
    assert back.markdown[0].value == "page 1" and "page" not in back.query_params
    # a link's page past the list's end is not taken
    odd = AppTest.from_function(_script)
    odd.query_params["page"] = "9"
    odd.run()
    assert odd.markdown[0].value == "page 1"
