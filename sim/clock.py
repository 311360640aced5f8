"""Times at the table: club evenings, UK clock offsets, and how long each action takes.

Every simulated event gets an ``at`` (FORMAT.md envelope): local time with its UTC offset, as a
recorder's device would write it. Club nights are Thursday and Friday evenings; sessions start
from 19:30 and no session starts after 23:00. The offset follows the UK rule (British Summer Time,
+01:00, from the last Sunday of March to the last Sunday of October; +00:00 otherwise), computed
here rather than from the system's time-zone database so that files are byte-identical everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from typing import Final

from events.model import AnyEvent

__all__ = [
    "CLUB_WEEKDAYS",
    "Schedule",
    "club_nights",
    "event_seconds",
    "local",
    "uk_offset",
]

CLUB_WEEKDAYS: Final = (3, 4)
"""Thursday and Friday (``date.weekday()``)."""
FIRST_START: Final = time(19, 30)
LAST_START: Final = time(23, 0)


def _last_sunday(year: int, month: int) -> date:
    d = date(year, month + 1, 1) - timedelta(days=1)
    return d - timedelta(days=(d.weekday() - 6) % 7)


def uk_offset(day: date) -> timezone:
    """The UK clock's offset on the evening of ``day``: +01:00 in summer time, else +00:00."""
    if _last_sunday(day.year, 3) <= day < _last_sunday(day.year, 10):
        return timezone(timedelta(hours=1))
    return timezone(timedelta(0))


def local(day: date, at: time) -> datetime:
    """``day`` at ``at``, UK local time with its offset."""
    return datetime.combine(day, at, tzinfo=uk_offset(day))


def club_nights(first: date, weekdays: tuple[int, ...] = CLUB_WEEKDAYS) -> Iterator[date]:
    """The club nights from ``first`` on (inclusive), for ever."""
    d = first
    while True:
        if d.weekday() in weekdays:
            yield d
        d += timedelta(days=1)


_SECONDS: Final[dict[str, tuple[int, int]]] = {
    "session_started": (0, 0),
    "dealer_chosen": (30, 90),
    "shuffled": (30, 75),
    "dealt": (20, 40),
    "looked": (2, 8),
    "kept": (4, 12),
    "thrown": (4, 12),
    "bet": (4, 20),
    "folded": (2, 10),
    "saw": (5, 15),
    "shown": (3, 10),
    "conceded": (2, 6),
    "retained": (3, 10),
}


def event_seconds(event: AnyEvent, rng: random.Random) -> int:
    """Seconds from the previous event to ``event`` at a live table (derived events: 0)."""
    lo, hi = _SECONDS.get(event.type, (0, 0))
    return rng.randint(lo, hi) if hi else 0


@dataclass
class Schedule:
    """Club nights with several tables: where and when the next session starts.

    Each table plays one session after another from 19:30, with a break of 5 to 20 minutes between
    them; a table starts no session after 23:00. :meth:`next` gives the table whose clock is
    earliest tonight (moving to the next club night when every table is done) and :meth:`done`
    moves that table's clock to the end of its session.
    """

    first: date
    tables: tuple[str, ...]
    rng: random.Random
    weekdays: tuple[int, ...] = CLUB_WEEKDAYS
    _nights: Iterator[date] = field(init=False, repr=False)
    night: date = field(init=False)
    _clock: dict[str, datetime] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._nights = club_nights(self.first, self.weekdays)
        self._open(next(self._nights))

    def _open(self, night: date) -> None:
        self.night = night
        start = local(night, FIRST_START)
        self._clock = {t: start + timedelta(minutes=self.rng.randint(0, 15)) for t in self.tables}

    def next(self) -> tuple[str, datetime]:
        """The table and start time of the next session."""
        while True:
            last = local(self.night, LAST_START)
            open_ = {t: c for t, c in self._clock.items() if c <= last}
            if open_:
                table = min(open_, key=lambda t: (open_[t], self.tables.index(t)))
                return table, open_[table]
            self._open(next(self._nights))

    def done(self, table: str, end: datetime) -> None:
        """The session at ``table`` ended at ``end``."""
        self._clock[table] = end + timedelta(minutes=self.rng.randint(5, 20))

    def next_night(self) -> date:
        """Close tonight's tables and move to the next club night; returns it."""
        self._open(next(self._nights))
        return self.night
