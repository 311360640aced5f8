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
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from typing import IO, Any, Final

from pydantic import ValidationError

from events.amounts import MAX_AMOUNT_TEXT
from events.errors import FormatError
from events.model import EVENT_ADAPTER, EVENT_CLASSES, AnyEvent, Voided
from events.upcast import CURRENT_VERSIONS, DEFAULT_UPCASTING, Upcasting

_ENVELOPE = ("v", "id", "seq", "at", "by")
MAX_LINE = 1 << 20
"""The longest line of a log, in bytes (1 MiB; docs/format.md "Bounds"): a longer one is refused
at once, without reading the rest of it."""
_LONG_NUMBER = re.compile(rb"[0-9]{%d}" % (MAX_AMOUNT_TEXT + 1))
_STORED: Final = {"stored": True}
_VALIDATE_JSON = EVENT_ADAPTER.validator.validate_json
"""``EVENT_ADAPTER.validate_json`` without the adapter's per-call Python wrapper (hot path)."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _number_text(text: str) -> str:
    if len(text) > MAX_AMOUNT_TEXT:
        raise FormatError(
            f"the number {text[:20]}… has {len(text)} characters; numbers have at most "
            f'{MAX_AMOUNT_TEXT} (docs/format.md "Bounds")'
        )
    return text


def _decimal(text: str) -> Decimal:
    """A JSON number with a fraction or an exponent, exactly, bounded in its text (then turning it
    into a Fraction is cheap: ``1e40000000`` is refused here, not computed)."""
    try:
        return Decimal(_number_text(text))
    except InvalidOperation:  # pragma: no cover - json only hands over numbers
        raise FormatError(f"{text!r} is not a number") from None


def _int(text: str) -> int:
    return int(_number_text(text))


def _loads(text: str) -> Any:
    """JSON with numbers bounded and exact, and nesting bounded (Python's parser stops at about
    a thousand levels with a RecursionError: a FormatError here)."""
    try:
        return json.loads(
            text, parse_float=_decimal, parse_int=_int, parse_constant=_reject_constant
        )
    except RecursionError:
        raise FormatError("not valid JSON (nested too deeply)") from None


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
    elif e["type"] in ("less_than_equal", "greater_than_equal") and "ctx" in e:
        bound = e["ctx"].get("le", e["ctx"].get("ge"))
        side = "at most" if e["type"] == "less_than_equal" else "at least"
        shown = str(e.get("input"))
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        msg = f'{shown} is out of bounds: {side} {bound} (docs/format.md "Bounds")'
    elif msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
    return field, msg


def parse_raw(
    raw: Any,
    *,
    line: int | None = None,
    upcasting: Upcasting = DEFAULT_UPCASTING,
    stored: bool = False,
) -> AnyEvent:
    """Validates one raw JSON object into its event model (upcasting first).

    ``stored``: a row the store holds, read without the input bounds of docs/format.md (names,
    amounts; see :func:`events.model._stored`). Raises :class:`FormatError` (rule ``FORMAT``)
    naming ``line``, the event type and the field."""
    if not isinstance(raw, dict):
        raise FormatError(f"an event is a JSON object, not {type(raw).__name__}", line=line)
    type_ = raw.get("type")
    if not isinstance(type_, str):
        raise FormatError("is required (the event's type)", line=line, field="type")
    if type_ not in EVENT_CLASSES:
        raise FormatError(f"{type_!r} is not an event type of FORMAT.md", line=line, field="type")
    if not stored:
        huge = _huge_number(raw, "")
        if huge is not None:
            raise FormatError(
                f'{huge[1]} is out of bounds (docs/format.md "Bounds")',
                line=line,
                event=type_,
                field=huge[0],
            )
    try:
        raw = upcasting.upcast(raw)
        return EVENT_ADAPTER.validate_python(raw, context=_STORED if stored else None)
    except FormatError as err:
        raise err.at(line=line, event=type_) from None
    except ValidationError as err:
        field, msg = _first_problem(err, raw)
        raise FormatError(msg, line=line, event=type_, field=field) from None


def parse_line(
    text: str | bytes, *, line: int | None = None, upcasting: Upcasting = DEFAULT_UPCASTING
) -> AnyEvent:
    """One JSON Lines line to its event (see :func:`parse_raw`); raises :class:`FormatError`."""
    if len(text) > MAX_LINE:
        raise FormatError(
            f'the line is longer than {MAX_LINE:,} bytes (docs/format.md "Bounds")', line=line
        )
    if _fast(upcasting) and not _LONG_NUMBER.search(_bytes(text)):
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
    except FormatError as err:
        raise err.at(line=line) from None
    except ValueError as err:
        raise FormatError(f"not valid JSON ({err})", line=line) from None
    return parse_raw(raw, line=line, upcasting=upcasting)


def _huge_number(raw: Any, path: str) -> tuple[str, Decimal] | None:
    """The first JSON number whose exponent is beyond 40 (``1e40000000``), and where: turning it
    into an integer or a fraction would compute all its digits."""
    if isinstance(raw, Decimal):
        if raw.is_finite() and not -MAX_AMOUNT_TEXT <= raw.adjusted() <= MAX_AMOUNT_TEXT:
            return path, raw
        return None
    items: Iterable[tuple[Any, Any]]
    if isinstance(raw, dict):
        items = raw.items()
    elif isinstance(raw, list):
        items = enumerate(raw)
    else:
        return None
    for key, value in items:
        found = _huge_number(value, f"{path}.{key}" if path else str(key))
        if found is not None:
            return found
    return None


def _fast(upcasting: Upcasting) -> bool:
    return (upcasting is DEFAULT_UPCASTING and not CURRENT_VERSIONS) or upcasting.trivial


def _bytes(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")


def read_events(
    lines: Iterable[str | bytes], *, upcasting: Upcasting = DEFAULT_UPCASTING
) -> Iterator[tuple[int, AnyEvent]]:
    """Yields ``(line_number, event)`` for every non-blank line (1-based numbers). A line longer
    than :data:`MAX_LINE` bytes, a number longer than 40 characters, or JSON nested too deeply
    is a :class:`FormatError` naming the line."""
    fast = _fast(upcasting)
    long_number = _LONG_NUMBER.search
    for n, text in enumerate(lines, start=1):
        if not text or text.isspace():
            continue
        if fast and len(text) <= MAX_LINE and not long_number(_bytes(text)):
            # parse_line's fast path, inline (the reader's hot loop); a line with a long digit
            # run takes the slow path, whose parser refuses long numbers in linear time
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
    is not UTF-8 included, a line longer than :data:`MAX_LINE`: refused without reading the rest
    of it, so ``/dev/zero`` is refused at once) and ``OSError`` when the file cannot be read. A
    UTF-8 byte order mark at the start is ignored."""
    return list(read_events(_lines(path), upcasting=upcasting))


def _lines(path: str) -> Iterator[bytes]:
    with open(path, "rb") as fp:
        n = 0
        while True:
            line = fp.readline(MAX_LINE + 2)
            if not line:
                return
            n += 1
            if n == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            body = line[:-1] if line.endswith(b"\n") else line
            if len(body) > MAX_LINE:
                raise FormatError(
                    f'the line is longer than {MAX_LINE:,} bytes (docs/format.md "Bounds")',
                    line=n,
                )
            yield body


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
