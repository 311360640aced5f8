"""The rule parameters of a session's first event checked against docs/format.md's bounds before
the projection takes the session (a store written before the bounds may hold others, which would
not fit the statistics' common denominator)."""

from __future__ import annotations

from typing import Any

__all__ = ["check_rules"]


def check_rules(event: Any) -> None:
    """The rule parameters of a session's first event within docs/format.md's bounds (a store
    written before them may hold others, which would not fit the statistics' common
    denominator): raises ``ValueError`` otherwise."""
    rules = getattr(event, "rules", None)
    if rules is not None:
        from pydantic import ValidationError

        from events.model import Rules

        try:
            Rules.model_validate(rules.model_dump())  # strict: the bounds of new logs
        except ValidationError as err:
            e = err.errors(include_url=False)[0]
            where = ".".join(str(p) for p in e["loc"])
            msg = str(e["msg"]).removeprefix("Value error, ")
            raise ValueError(
                f"its rules are outside the bounds of new logs: {where}: {msg}"
            ) from None
