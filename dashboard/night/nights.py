"""What the Night page reads: the night of a date and its report, each kept per store position
and night-facts position (the store's last global position: any event recorded at any table
moves it; the night's facts' last position, :attr:`log.night_facts.NightFacts.last`: a check-in,
a stake, a flag, finalising or reopening moves it), both polled for the live board by one shared
thread each (:class:`dashboard.common.polling.Poller`: asked of the store at most once per
:data:`~dashboard.common.polling.FRESH` seconds, whoever asks)."""

from __future__ import annotations

from datetime import date
from typing import Any

import streamlit as st

from dashboard.common.polling import Poller
from dashboard.common.settings import db_url
from dashboard.common.stores import _store, store
from log.night_facts import NightFacts, facts_of
from service.night import Night, night_of
from service.report import Report, report_of

__all__ = [
    "facts",
    "facts_position",
    "latest_day",
    "night",
    "polled_facts",
    "polled_position",
    "position",
    "report",
    "report_files",
    "span",
]


class _Position:
    """A store seen by the :class:`Poller` as one session whose last seq is the store's last
    global position (the poller asks ``last_seq(session)``)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def last_seq(self, _session: str) -> int:
        return int(self.handle.last_position())


class _FactsPosition:
    """A store seen by the :class:`Poller` as one session per night (the key: its date,
    ``YYYY-MM-DD``) whose last seq is the last position of that night's facts."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def last_seq(self, day: str) -> int:
        return int(facts_of(self.handle, date.fromisoformat(day)).last)


@st.cache_resource(show_spinner=False, max_entries=8)
def _poller(url: str) -> Poller:
    return Poller(url, lambda u: _Position(_store(u)))


@st.cache_resource(show_spinner=False, max_entries=8)
def _facts_poller(url: str) -> Poller:
    return Poller(url, lambda u: _FactsPosition(_store(u)))


def polled_facts(day: date) -> int:
    """The last position of the night of ``day``'s facts (0: none), at most ``FRESH`` seconds
    old, asked on the poller's one connection. Raises what the store raises."""
    return _facts_poller(db_url()).last_seq(day.isoformat())


def facts_position(day: date) -> int:
    """The last position of the night of ``day``'s facts now (one query; 0: none)."""
    return int(facts(day).last)


def facts(day: date) -> NightFacts:
    """The night of ``day``'s facts now, folded (:func:`log.night_facts.facts_of`)."""
    return facts_of(store(), day)


def polled_position() -> int:
    """The store's last global position, at most ``FRESH`` seconds old, asked on the poller's one
    connection. Raises what the store raises (``StoreUnavailable``)."""
    return _poller(db_url()).last_seq("")


def position() -> int:
    """The store's last global position now (one query)."""
    return int(store().last_position())


@st.cache_resource(show_spinner=False, max_entries=32)
def _night(url: str, day: date, at: int, facts_at: int) -> Night:
    return night_of(_store(url), day)


def night(day: date, at: int, facts_at: int) -> Night:
    """The night of ``day`` (:func:`service.night.night_of`) as the store was at position ``at``
    with its facts up to ``facts_at`` (:func:`polled_facts`): folded once per pair of positions
    (each session's timeline is the store's cache, extended by what was appended), so a
    check-in, a flag or finalising redraws the board as an event does. Raises
    :class:`service.night.NightRefused` for a date without a session."""
    return _night(db_url(), day, at, facts_at)


@st.cache_resource(show_spinner=False, max_entries=8)
def _report(url: str, day: date, at: int, facts_at: int) -> Report:
    return report_of(_store(url), day)


def report(day: date, at: int, facts_at: int) -> Report:
    """The night's report (:func:`service.report.report_of`), made once per store position and
    night-facts position (finalising changes what it says)."""
    return _report(db_url(), day, at, facts_at)


def span() -> tuple[date, date] | None:
    """The first and last dates sessions started on (``None``: no session), from the catalogue."""
    return store().session_facets()[2]


@st.cache_resource(show_spinner=False, max_entries=4)
def _files(url: str, day: date, at: int, facts_at: int, base: str) -> tuple[bytes, bytes]:
    from service.report_html import report_page
    from service.report_pdf import report_pdf

    made = _report(url, day, at, facts_at)
    return report_page(made, base=base).encode("utf-8"), report_pdf(made, base=base)


def report_files(day: date, at: int, facts_at: int, base: str = "") -> tuple[bytes, bytes]:
    """The report's page to publish (HTML, self-contained) and its PDF, made once per store
    position (the PDF takes a tenth of a second); ``base``, the dashboard's address, before each
    replay link (a downloaded file is not on the dashboard)."""
    return _files(db_url(), day, at, facts_at, base)


def latest_day() -> date | None:
    """The latest date a session started on (``None``: no session), from the catalogue."""
    got = span()
    return got[1] if got else None
