"""The one error family of Bragbook: every error of ours is a :class:`BragError`.

- :class:`RuleViolation`: an event the rules forbid; carries the RULES section ("5.7") and a
  sentence naming the player: ``RULES 5.7: B is seen and cannot see a blind player``.
- :class:`FormatError`: input that is not a well-formed event of FORMAT.md (bad JSON, unknown
  type or field, a bad card or amount); ``rule`` is ``"FORMAT"``.
- :class:`StoreError` and its kinds: the store's refusals, and :class:`StoreUnavailable`.
- :class:`PlainError`: a refusal said in one sentence (no RULES section); the family's members
  elsewhere derive from it: ``CardError``, ``AmountError`` (events), ``ReadOnlyError``,
  ``LimitReached``, ``ProjectionError`` (analytics), ``SimulationError`` (sim), ``TapRefused``
  (dashboard), ``CommandError`` (brag).

A *refusal* of what was given (a rule, a format, a card, a conflict) is also a ``ValueError``, so
``except ValueError`` keeps catching it; a failure of the surroundings is not (a store that cannot
be reached, :class:`StoreUnavailable`). ``RuleViolation`` and ``FormatError`` may carry ``line``
(1-based line of the source file) and ``event`` (its ``type``) once known. Every error of the
family pickles (the parallel rebuild sends them between processes).
"""

from __future__ import annotations

import errno
from typing import Any
from uuid import UUID


def _restored(cls: type[BragError], args: tuple[Any, ...], state: dict[str, Any]) -> BragError:
    """An error of the family as pickled: built without its ``__init__`` (whose signature is
    each class's own), then given its arguments and attributes back."""
    err = cls.__new__(cls)
    Exception.__init__(err, *args)
    err.__dict__.update(state)
    return err


class BragError(Exception):
    """Base of every error of Bragbook. ``rule`` is a RULES section such as ``"5.7"``, or
    ``"FORMAT"``, ``"STORE"``; a refusal is also a ``ValueError`` (see the module)."""

    rule: str

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        player: str | None = None,
        line: int | None = None,
        event: str | None = None,
    ) -> None:
        self.rule = rule
        self.message = message
        self.player = player
        self.line = line
        self.event = event
        super().__init__(str(self))

    def at(self, *, line: int | None = None, event: str | None = None) -> BragError:
        """The same error, now naming the source line and event type (returns ``self``)."""
        if line is not None:
            self.line = line
        if event is not None and self.event is None:
            self.event = event
        self.args = (str(self),)
        return self

    def heading(self) -> str:
        return "FORMAT" if self.rule == "FORMAT" else f"RULES {self.rule}"

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.event:
            where.append(self.event)
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}{self.heading()}: {self.message}"

    def to_json(self) -> dict[str, object]:
        """``{"line": N, "rule": "x.y", "message": "...", "event": "bet"}`` (rule ``FORMAT`` for
        bad input)."""
        out: dict[str, object] = {"line": self.line, "rule": self.rule, "message": self.message}
        if self.event:
            out["event"] = self.event
        if self.player:
            out["player"] = self.player
        return out

    def __reduce__(self) -> tuple[Any, ...]:  # across processes, whatever the signature
        return (_restored, (type(self), self.args, dict(self.__dict__)))


class PlainError(BragError):
    """An error said in one sentence, shown as it is (no RULES heading): ``rule`` names where it
    comes from (``"CARD"``, ``"SIM"``...)."""

    rule_name = "ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(self.rule_name, message)

    def __str__(self) -> str:
        return self.message


class RuleViolation(BragError, ValueError):
    """An event that RULES.md forbids, e.g. ``RuleViolation("5.7", "B is seen and cannot see a
    blind player", player="B")``."""


class FormatError(BragError, ValueError):
    """Input that is not a well-formed FORMAT.md event; ``field`` names the offending field."""

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        event: str | None = None,
        field: str | None = None,
    ) -> None:
        self.field = field
        if field:
            message = f"field {field!r}: {message}"
        super().__init__("FORMAT", message, line=line, event=event)


# --- the store's errors -----------------------------------------------------------------------


class StoreError(BragError):
    """A refusal or failure of the store itself (not of the rules): one clear sentence. Its
    refusals are also ``ValueError``; a store that cannot be reached is not."""

    def __init__(self, message: str, *, session: str | None = None) -> None:
        self.session = session
        super().__init__("STORE", message)

    def heading(self) -> str:
        return "store"

    def __str__(self) -> str:
        return self.message


class ConcurrencyConflict(StoreError, ValueError):
    """Another writer appended to ``session`` after the caller's ``expected`` seq; the stream is at
    ``actual``. Nothing was written: reload the session and decide again."""

    def __init__(self, session: str, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"session {session!r} is at seq {actual}, not {expected}: another writer appended "
            "first; nothing was stored (reload and retry)",
            session=session,
        )


class IdConflict(StoreError, ValueError):
    """An event ``id`` that is already stored with other content (or in another session)."""

    def __init__(self, event_id: UUID, session: str, seq: int, message: str) -> None:
        self.id = event_id
        self.seq = seq
        super().__init__(message, session=session)


class DuplicateId(Exception):
    """Raised by a backend's insert when the table's unique ``id`` refuses a row (internal: the
    transaction is rolled back and the append done again, looking at the ids first)."""


class SeqTaken(Exception):
    """Raised by a backend's insert when the table's unique ``(session, seq)`` refuses a row
    (internal: another writer appended first; the append is done again, looking)."""


class ImportConflict(StoreError, ValueError):
    """The file's session is already stored with different events."""


class UnknownSession(StoreError, ValueError):
    """No event of this session is stored."""

    def __init__(self, session: str) -> None:
        super().__init__(f"no session {session!r} in the store", session=session)


class CorruptSession(StoreError, ValueError):
    """A stored row that cannot be read (its payload is not a FORMAT.md event) or a stored stream
    that no longer folds under the rules: the store was changed outside Bragbook. Names the
    session, the seq and the reason in one line."""

    def __init__(self, session: str, seq: int | None, type_: str | None, reason: str) -> None:
        self.seq = seq
        where = f"session {session!r}" + (f", seq {seq}" if seq is not None else "")
        if type_:
            where += f" ({type_})"
        super().__init__(
            f"{where}: {reason}; the store was changed outside Bragbook", session=session
        )


class StoreUnavailable(StoreError):
    """The store cannot be opened or reached (bad URL, server down, wrong settings, lock wait)."""


class StoreMissing(StoreUnavailable):
    """A read-only open of a store not made yet (no SQLite file, no events table): nothing to
    read, and a writer may make it."""


DISK_FULL = "disk full"
"""How every error of a full disk is said, on the command line and on the pages."""

_FULL_WORDS = ("no space left on device", "database or disk is full", "disk full")


def disk_full(err: BaseException) -> bool:
    """Whether ``err`` says the disk is full: ``ENOSPC``, or a driver's words for it (SQLite's
    "database or disk is full", DuckDB's "No space left on device"). SQLite's vaguer "disk I/O
    error" is told apart where the file's free space can be looked at (:mod:`store.sqlite`)."""
    seen: BaseException | None = err
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno == errno.ENOSPC:
            return True
        text = str(seen).lower()
        if any(w in text for w in _FULL_WORDS):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
