"""What the Night page reads: the night of a date and its report, each kept per store position
(the store's last global position: any event recorded at any table moves it), and that position
polled for the live board by one shared thread (:class:`dashboard.common.polling.Poller`: asked of
the store at most once per :data:`~dashboard.common.polling.FRESH` seconds, whoever asks)."""

from __future__ import annotations

from datetime import date
from typing import Any

import streamlit as st

from dashboard.common.polling import Poller
from dashboard.common.settings import db_url
from dashboard.common.stores import _store, store
from service.night import Night, night_of
from service.report import Report, report_of

__all__ = ["latest_day", "night", "polled_position", "position", "report", "report_files", "span"]


class _Position:
    """A store seen by the :class:`Poller` as one session whose last seq is the store's last
    global position (the poller asks ``last_seq(session)``)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def last_seq(self, _session: str) -> int:
        return int(self.handle.last_position())


@st.cache_resource(show_spinner=False, max_entries=8)
def _poller(url: str) -> Poller:
    return Poller(url, lambda u: _Position(_store(u)))


def polled_position() -> int:
    """The store's last global position, at most ``FRESH`` seconds old, asked on the poller's one
    connection. Raises what the store raises (``StoreUnavailable``)."""
    return _poller(db_url()).last_seq("")


def position() -> int:
    """The store's last global position now (one query)."""
    return int(store().last_position())


@st.cache_resource(show_spinner=False, max_entries=32)
def _night(url: str, day: date, at: int) -> Night:
    return night_of(_store(url), day)


def night(day: date, at: int) -> Night:
    """The night of ``day`` (:func:`service.night.night_of`) as the store was at position ``at``:
    folded once per position (each session's timeline is the store's cache, extended by what was
    appended). Raises :class:`service.night.NightRefused` for a date without a session."""
    return _night(db_url(), day, at)


@st.cache_resource(show_spinner=False, max_entries=8)
def _report(url: str, day: date, at: int) -> Report:
    return report_of(_store(url), day)


def report(day: date, at: int) -> Report:
    """The night's report (:func:`service.report.report_of`), made once per store position."""
    return _report(db_url(), day, at)


def span() -> tuple[date, date] | None:
    """The first and last dates sessions started on (``None``: no session), from the catalogue."""
    return store().session_facets()[2]


@st.cache_resource(show_spinner=False, max_entries=4)
def _files(url: str, day: date, at: int, base: str) -> tuple[bytes, bytes]:
    from service.report_html import report_page
    from service.report_pdf import report_pdf

    made = _report(url, day, at)
    return report_page(made, base=base).encode("utf-8"), report_pdf(made, base=base)


def report_files(day: date, at: int, base: str = "") -> tuple[bytes, bytes]:
    """The report's page to publish (HTML, self-contained) and its PDF, made once per store
    position (the PDF takes a tenth of a second); ``base``, the dashboard's address, before each
    replay link (a downloaded file is not on the dashboard)."""
    return _files(db_url(), day, at, base)


def latest_day() -> date | None:
    """The latest date a session started on (``None``: no session), from the catalogue."""
    got = span()
    return got[1] if got else None
