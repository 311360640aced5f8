"""The one error family of Bragbook: every refusal is a :class:`BragError` (a ``ValueError``).

- :class:`RuleViolation`: an event the rules forbid; carries the RULES section ("5.7") and a
  sentence naming the player: ``RULES 5.7: B is seen and cannot see a blind player``.
- :class:`FormatError`: input that is not a well-formed event of FORMAT.md (bad JSON, unknown
  type or field, a bad card or amount); ``rule`` is ``"FORMAT"``.

Both may carry ``line`` (1-based line of the source file) and ``event`` (its ``type``) once known.
"""

from __future__ import annotations


class BragError(ValueError):
    """Base of every refusal. ``rule`` is a RULES section such as ``"5.7"``, or ``"FORMAT"``."""

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


class RuleViolation(BragError):
    """An event that RULES.md forbids, e.g. ``RuleViolation("5.7", "B is seen and cannot see a
    blind player", player="B")``."""


class FormatError(BragError):
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
