"""The JSON Lines session log of FORMAT.md: one reader and one writer.

Reading: :func:`parse_line` turns one line into its event model, running the upcasting chain on the
raw object first (:mod:`events.upcast`). Malformed input raises :class:`~events.errors.FormatError`
naming the line, the event type and the field. Numbers with a fraction part are read as
:class:`~decimal.Decimal`, never as binary floats (FORMAT.md "Amounts").

Writing: :func:`dumps` writes the canonical form: ``type`` first, then the event's fields, then
the envelope (``v``, ``id``, ``seq``, ``at``, ``by``); cards canonical, amounts as integers or
``"n/d"``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import IO, Any

from pydantic import ValidationError

from events.errors import FormatError
from events.model import EVENT_ADAPTER, EVENT_CLASSES, AnyEvent, Voided
from events.upcast import CURRENT_VERSIONS, DEFAULT_UPCASTING, Upcasting

_ENVELOPE = ("v", "id", "seq", "at", "by")
_VALIDATE_JSON = EVENT_ADAPTER.validator.validate_json
"""``EVENT_ADAPTER.validate_json`` without the adapter's per-call Python wrapper (hot path)."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _loads(text: str) -> Any:
    return json.loads(text, parse_float=Decimal, parse_constant=_reject_constant)


def _first_problem(err: ValidationError, raw: Any) -> tuple[str | None, str]:
    """The first field and message of a pydantic error, in words a recorder understands."""
    e = err.errors(include_url=False)[0]
    loc = [str(p) for p in e["loc"]]
    # Drop the union tag pydantic puts first ("bet"), keep the field path.
    if loc and isinstance(raw, dict) and loc[0] == raw.get("type"):
        loc = loc[1:]
    field = ".".join(loc) or None
    msg = str(e["msg"])
    if e["type"] == "extra_forbidden":
        msg = "is not a field of this event"
    elif e["type"] == "missing":
        msg = "is required"
    elif msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
    return field, msg


def parse_raw(
    raw: Any, *, line: int | None = None, upcasting: Upcasting = DEFAULT_UPCASTING
) -> AnyEvent:
    """Validates one raw JSON object into its event model (upcasting first).

    Raises :class:`FormatError` (rule ``FORMAT``) naming ``line``, the event type and the field."""
    if not isinstance(raw, dict):
        raise FormatError(f"an event is a JSON object, not {type(raw).__name__}", line=line)
    type_ = raw.get("type")
    if not isinstance(type_, str):
        raise FormatError("is required (the event's type)", line=line, field="type")
    if type_ not in EVENT_CLASSES:
        raise FormatError(f"{type_!r} is not an event type of FORMAT.md", line=line, field="type")
    try:
        raw = upcasting.upcast(raw)
        return EVENT_ADAPTER.validate_python(raw)
    except FormatError as err:
        raise err.at(line=line, event=type_) from None
    except ValidationError as err:
        field, msg = _first_problem(err, raw)
        raise FormatError(msg, line=line, event=type_, field=field) from None


def parse_line(
    text: str | bytes, *, line: int | None = None, upcasting: Upcasting = DEFAULT_UPCASTING
) -> AnyEvent:
    """One JSON Lines line to its event (see :func:`parse_raw`); raises :class:`FormatError`."""
    if (upcasting is DEFAULT_UPCASTING and not CURRENT_VERSIONS) or upcasting.trivial:
        # Fast path: with no upcaster registered, pydantic parses and validates in one pass.
        # Floats are refused there as they are here, so both paths accept the same lines.
        # Every type is at version 1 then; any other ``v`` takes the slow path, which refuses it.
        try:
            event: AnyEvent = _VALIDATE_JSON(text)
        except ValidationError:
            pass  # the slow path below explains the problem precisely
        else:
            if event.v == 1:
                return event
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise FormatError(
                f"not UTF-8 text (byte {err.object[err.start]:#04x} at column {err.start + 1})",
                line=line,
            ) from None
    try:
        raw = _loads(text)
    except ValueError as err:
        raise FormatError(f"not valid JSON ({err})", line=line) from None
    return parse_raw(raw, line=line, upcasting=upcasting)


def read_events(
    lines: Iterable[str | bytes], *, upcasting: Upcasting = DEFAULT_UPCASTING
) -> Iterator[tuple[int, AnyEvent]]:
    """Yields ``(line_number, event)`` for every non-blank line (1-based numbers)."""
    fast = (upcasting is DEFAULT_UPCASTING and not CURRENT_VERSIONS) or upcasting.trivial
    for n, text in enumerate(lines, start=1):
        if not text or text.isspace():
            continue
        if fast:  # parse_line's fast path, inline (the reader's hot loop)
            try:
                event: AnyEvent = _VALIDATE_JSON(text)
            except ValidationError:
                pass
            else:
                if event.v == 1:
                    yield n, event
                    continue
        yield n, parse_line(text, line=n, upcasting=upcasting)


def read_file(path: str, *, upcasting: Upcasting = DEFAULT_UPCASTING) -> list[tuple[int, AnyEvent]]:
    """Reads a whole log file; raises :class:`FormatError` for the first malformed line (text that
    is not UTF-8 included) and ``OSError`` when the file cannot be read. A UTF-8 byte order mark
    at the start is ignored."""
    with open(path, "rb") as fp:
        lines = fp.read().split(b"\n")
    if lines and lines[0].startswith(b"\xef\xbb\xbf"):
        lines[0] = lines[0][3:]
    return list(read_events(lines, upcasting=upcasting))


def to_json(event: AnyEvent) -> dict[str, Any]:
    """The event as a JSON object in the canonical order: ``type``, its fields, the envelope."""
    data = event.model_dump(mode="json", exclude_none=True)
    out: dict[str, Any] = {"type": data.pop("type")}
    env = {k: data.pop(k) for k in _ENVELOPE if k in data}
    if isinstance(event, Voided):
        out["seq"] = event.seq
        env.pop("seq", None)
    out.update(data)
    out.update(env)
    return out


def dumps(event: AnyEvent) -> str:
    """One canonical JSON Lines line (without the newline)."""
    return json.dumps(to_json(event), ensure_ascii=False)


def write_events(events: Iterable[AnyEvent], fp: IO[str]) -> int:
    """Writes the events as JSON Lines; returns how many were written."""
    n = 0
    for event in events:
        fp.write(dumps(event))
        fp.write("\n")
        n += 1
    return n
