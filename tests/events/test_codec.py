"""The JSON Lines codec of FORMAT.md: card notations, exact amounts, canonical writing, format
errors naming the line, the event and the field, and the upcasting of old event versions."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from events.amounts import AmountError, format_amount, parse_amount
from events.cards import FULL_PACK, Card, CardError
from events.codec import dumps, parse_line, parse_raw, read_events, read_file, to_json
from events.errors import BragError, FormatError
from events.model import (
    Bet,
    Dealt,
    Folded,
    PotWon,
    SessionEnded,
    SessionStarted,
    Shown,
    Voided,
)
from events.upcast import DEFAULT_UPCASTING, Raw, Upcasting

# --- cards -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("Th", "Th"),
        ("10h", "Th"),
        ("TH", "Th"),
        ("10H", "Th"),
        ("10♥", "Th"),
        ("T♥", "Th"),
        ("A♠", "As"),
        ("K♦", "Kd"),
        ("2♣", "2c"),
        ("QS", "Qs"),
        ("Jd", "Jd"),
        ("9C", "9c"),
    ],
)
def test_every_accepted_card_notation_reads_to_the_canonical_card(
    written: str, canonical: str
) -> None:
    assert str(Card.parse(written)) == canonical
    e = parse_line(json.dumps({"type": "shown", "player": "A", "cards": [written]}))
    assert isinstance(e, Shown) and e.cards == (canonical,)
    assert json.loads(dumps(e))["cards"] == [canonical]


def test_every_card_round_trips_and_suit_symbols_map_to_cdhs() -> None:
    assert len({str(c) for c in FULL_PACK}) == 52
    for c in FULL_PACK:
        assert Card.parse(str(c)) == c
        assert repr(c) == f"Card.parse({str(c)!r})"
    for symbol, letter in zip("♣♦♥♠", "cdhs", strict=True):
        assert str(Card.parse("7" + symbol)) == "7" + letter
        assert str(Card.parse("10" + symbol)) == "T" + letter


@pytest.mark.parametrize("bad", ["1h", "Tx", "11h", "K", "Kcc", "", "10", "♥T"])
def test_a_bad_card_is_refused(bad: str) -> None:
    with pytest.raises(CardError):
        Card.parse(bad)


# --- amounts -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "exact"),
    [
        ("3", Fraction(3)),
        ('"1.5"', Fraction(3, 2)),
        ('"3/2"', Fraction(3, 2)),
        ("1.5", Fraction(3, 2)),  # a JSON number with a fraction part, read as a decimal
        ('"0.1"', Fraction(1, 10)),
        ("0.1", Fraction(1, 10)),  # exactly 1/10, never the binary float 0.1000000000000000055...
        ('"7/14"', Fraction(1, 2)),
        ('"-1/2"', Fraction(-1, 2)),
    ],
)
def test_amounts_from_integers_decimal_strings_and_fraction_strings(
    written: str, exact: Fraction
) -> None:
    e = parse_line(f'{{"type": "bet", "player": "A", "level": 4, "paid": {written}}}')
    assert isinstance(e, Bet) and e.paid == exact and isinstance(e.paid, Fraction)


def test_binary_floats_are_refused_in_python() -> None:
    with pytest.raises(AmountError, match="binary float"):
        parse_amount(1.5)
    with pytest.raises(AmountError):
        parse_amount(True)
    with pytest.raises(ValidationError):
        Bet(player="A", level=1.5)  # type: ignore[arg-type]
    assert parse_amount(Decimal("0.1")) == Fraction(1, 10)
    assert Bet(player="A", level=Fraction(3, 2)).level == Fraction(3, 2)
    assert Bet(player="A", level="3/2").level == Fraction(3, 2)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ['"1,5"', '"one"', '"1/0"', "true", '"1e3"', "null", "[1]"])
def test_a_bad_amount_is_a_format_error_naming_the_field(bad: str) -> None:
    with pytest.raises(FormatError) as info:
        parse_line(f'{{"type": "bet", "player": "A", "level": {bad}}}', line=4)
    assert (info.value.line, info.value.event, info.value.field) == (4, "bet", "level")


def test_amounts_are_written_as_integers_or_fraction_strings() -> None:
    assert format_amount(Fraction(4)) == 4
    assert format_amount(Fraction(35, 2)) == "35/2"
    e = parse_line('{"type": "bet", "player": "A", "level": 3, "paid": "1.5"}')
    assert dumps(e) == '{"type": "bet", "player": "A", "level": 3, "paid": "3/2", "v": 1}'


# --- canonical writing -------------------------------------------------------------------------


def test_canonical_order_type_then_fields_then_envelope() -> None:
    line = (
        '{"by": "ann", "seq": 12, "paid": 2, "v": 1, "level": "4", "player": "B", '
        '"at": "2024-05-01T20:15:00+01:00", "id": "0b7c8a4e-8d4b-4a51-9b39-2d1c0a8f6e11", '
        '"type": "bet"}'
    )
    e = parse_line(line)
    out = to_json(e)
    assert list(out) == ["type", "player", "level", "paid", "v", "id", "seq", "at", "by"]
    assert out["level"] == 4 and out["paid"] == 2 and out["seq"] == 12
    assert parse_line(dumps(e)) == e
    # Optional fields left unset are not written.
    assert dumps(Folded(player="C")) == '{"type": "folded", "player": "C", "v": 1}'


def test_canonical_writing_of_cards_and_derived_events() -> None:
    e = parse_line(
        '{"type": "dealt", "hands": {"Åsa": ["10♣", "qH", "2S"], "Bo": ["As", "Kd", "Jc"]}}'
    )
    assert isinstance(e, Dealt)
    text = dumps(e)
    assert '"Åsa": ["Tc", "Qh", "2s"]' in text  # UTF-8, not \\u escapes; canonical cards
    won = PotWon(deal=2, player="A", amount=Fraction(35, 2), showdown=True, hand="run")
    assert json.loads(dumps(won)) == {
        "type": "pot_won",
        "deal": 2,
        "player": "A",
        "amount": "35/2",
        "showdown": True,
        "hand": "run",
        "v": 1,
    }
    end = SessionEnded(nets={"A": Fraction(1, 2), "B": Fraction(-1, 2)}, winners=("A",))
    assert json.loads(dumps(end))["nets"] == {"A": "1/2", "B": "-1/2"}
    assert parse_line(dumps(end)) == end


def test_voided_writes_the_withdrawn_seq() -> None:
    v = parse_line('{"type": "voided", "seq": 7}')
    assert isinstance(v, Voided) and v.seq == 7
    assert dumps(v) == '{"type": "voided", "seq": 7, "v": 1}'


def test_session_started_rules_defaults_and_exact_ante() -> None:
    e = parse_line(
        '{"type": "session_started", "session": "s", "seats": ["A", "B"], "cards": "all", '
        '"rules": {"ante": "1/2", "raise_max": 10, "pots": 3, "blind_play": false}}'
    )
    assert isinstance(e, SessionStarted) and e.rules is not None
    assert e.rules.ante == Fraction(1, 2) and e.rules.open_max == 5 and not e.rules.blind_play
    assert e.seats == ("A", "B")
    assert parse_line(dumps(e)) == e


# --- format errors -----------------------------------------------------------------------------

BAD_LINES = [
    # (line, event type, field, what the message says)
    ('{"type": "bet", "player": "A", "level": 1', None, None, "not valid JSON"),
    ('{"type": "bet", "player": "A", "level": NaN}', None, None, "not valid JSON"),
    ("[1, 2]", None, None, "JSON object"),
    ('{"player": "A"}', None, "type", "required"),
    ('{"type": "raised", "player": "A"}', None, "type", "not an event type"),
    ('{"type": "bet", "player": "A", "level": 1, "colour": "red"}', "bet", "colour", "not a field"),
    ('{"type": "bet", "level": 1}', "bet", "player", "required"),
    ('{"type": "shown", "player": "A", "cards": ["Kc", "Kx", "2h"]}', "shown", "cards.1", "Kx"),
    ('{"type": "shown", "player": "A", "cards": ["Kc", "2h"]}', "shown", "cards", "not 2"),
    ('{"type": "shown", "player": "A", "cards": ["Kc", "Kc", "2h"]}', "shown", "cards", "twice"),
    ('{"type": "dealt", "hands": {"A": ["Kc", "Kd"]}}', "dealt", "hands.A.2", "required"),
    ('{"type": "dealt", "hands": {"A": ["Kc", "Kd", "2h", "3h"]}}', "dealt", "hands.A", ""),
    (
        '{"type": "session_started", "seats": ["A", "B"], "cards": "some"}',
        "session_started",
        None,
        "",
    ),
    ('{"type": "bet", "player": "A", "level": 1, "v": 2}', "bet", "v", "newer"),
    ('{"type": "bet", "player": "A", "level": 1, "at": "2024-05-01T20:15:00"}', "bet", "at", ""),
    ('{"type": "voided", "seq": 0}', "voided", "seq", ""),
]


@pytest.mark.parametrize(("text", "event", "field", "says"), BAD_LINES)
def test_a_malformed_line_names_the_line_the_event_and_the_field(
    text: str, event: str | None, field: str | None, says: str
) -> None:
    with pytest.raises(FormatError) as info:
        list(read_events(["", '{"type": "folded", "player": "A"}', text]))
    err = info.value
    assert isinstance(err, BragError) and isinstance(err, ValueError)
    assert err.rule == "FORMAT" and err.line == 3
    assert err.event == event
    if field is not None:
        assert err.field == field
        assert f"field {field!r}" in str(err)
    elif event == "session_started":
        assert err.field in ("session", "cards")
    assert says in err.message
    assert str(err).startswith("line 3" + (f", {event}" if event else "") + ": FORMAT: ")
    assert err.to_json()["line"] == 3 and err.to_json()["rule"] == "FORMAT"


def test_read_file_numbers_lines_and_skips_blank_ones(tmp_path: Path) -> None:
    f = tmp_path / "log.jsonl"
    f.write_text(
        '{"type": "folded", "player": "A"}\n\n  \n{"type": "folded", "player": "B"}\n', "utf-8"
    )
    assert [(n, e.player) for n, e in read_file(str(f))] == [(1, "A"), (4, "B")]  # type: ignore[union-attr]
    f.write_bytes(b'{"type": "folded", "player": "A"}\n{"type": "folded", "player": "\xff"}\n')
    with pytest.raises((FormatError, UnicodeDecodeError)):
        read_file(str(f))
    assert parse_line(b'{"type": "folded", "player": "\xc3\x85sa"}') == Folded(player="Åsa")
    with pytest.raises(FormatError) as info:
        parse_line(b'{"type": "folded", "player": "\xff"}', line=9)
    assert info.value.line == 9


# --- upcasting ---------------------------------------------------------------------------------


def bet_v1_to_v2(raw: Raw) -> Raw:
    """A made-up history: version 1 of ``bet`` called the level ``stake``; version 2 (today's
    shape) calls it ``level``."""
    raw["level"] = raw.pop("stake")
    raw["v"] = 2
    return raw


BET_V2 = Upcasting(current={"bet": 2}, steps={("bet", 1): bet_v1_to_v2})


def test_upcasting_an_old_version_through_the_codec() -> None:
    assert DEFAULT_UPCASTING.trivial and not BET_V2.trivial
    old = '{"type": "bet", "player": "A", "stake": 3, "paid": "3/2"}'
    e = parse_line(old, upcasting=BET_V2)
    assert e == Bet(player="A", level=Fraction(3), paid=Fraction(3, 2), v=2)
    # Version 2 lines pass unchanged; other types are untouched.
    assert parse_line('{"type": "bet", "player": "A", "level": 3, "v": 2}', upcasting=BET_V2) == (
        Bet(player="A", level=Fraction(3), v=2)
    )
    assert parse_line('{"type": "folded", "player": "A"}', upcasting=BET_V2) == Folded(player="A")
    # The same old line without the upcaster is a format error naming the field.
    with pytest.raises(FormatError) as info:
        parse_line(old, line=5)
    assert info.value.line == 5 and info.value.field in ("level", "stake")
    # A version newer than the reader knows, or one without an upcaster, is refused.
    with pytest.raises(FormatError, match="newer") as info:
        parse_line('{"type": "bet", "player": "A", "level": 3, "v": 3}', line=6, upcasting=BET_V2)
    assert (info.value.line, info.value.event, info.value.field) == (6, "bet", "v")
    gap = Upcasting(current={"bet": 3}, steps={("bet", 1): bet_v1_to_v2})
    with pytest.raises(FormatError, match="no upcaster from version 2"):
        parse_line(old, upcasting=gap)


def test_upcasting_in_read_file_and_the_raw_object_is_not_changed(tmp_path: Path) -> None:
    f = tmp_path / "old.jsonl"
    f.write_text('{"type": "bet", "player": "A", "stake": 2}\n', "utf-8")
    [(n, e)] = read_file(str(f), upcasting=BET_V2)
    assert n == 1 and e == Bet(player="A", level=Fraction(2), v=2)
    raw: Raw = {"type": "bet", "player": "A", "stake": 2}
    assert parse_raw(raw, upcasting=BET_V2) == e
    assert raw == {"type": "bet", "player": "A", "stake": 2}  # pure: stored rows never rewritten


class FoldedV2(BaseModel):
    """A made-up version 2 of ``folded`` with a new required field ``reason``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    type: Literal["folded"] = "folded"
    v: Literal[2] = 2
    player: str
    reason: str


def folded_v1_to_v2(raw: Raw) -> Raw:
    return {**raw, "v": 2, "reason": "not recorded"}


FOLDED_V2_ADAPTER: TypeAdapter[Any] = TypeAdapter(
    Annotated[FoldedV2 | Bet, Field(discriminator="type")]
)


def test_a_made_up_version_2_model_read_from_version_1_lines() -> None:
    upcasting = Upcasting(current={"folded": 2}, steps={("folded", 1): folded_v1_to_v2})
    for line in ('{"type": "folded", "player": "B"}', '{"type": "folded", "player": "B", "v": 1}'):
        got = FOLDED_V2_ADAPTER.validate_python(upcasting.upcast(json.loads(line)))
        assert got == FoldedV2(player="B", reason="not recorded")
    v2 = {"type": "folded", "player": "B", "v": 2, "reason": "weak hand"}
    assert FOLDED_V2_ADAPTER.validate_python(upcasting.upcast(dict(v2))).reason == "weak hand"
    with pytest.raises(AssertionError, match="must produce v2"):
        Upcasting(current={"folded": 2}, steps={("folded", 1): lambda raw: raw}).upcast(
            {"type": "folded", "player": "B"}
        )


def test_a_line_that_is_not_utf8_is_a_format_error_naming_the_line(tmp_path: Path) -> None:
    from events.codec import read_file

    log = tmp_path / "bad.jsonl"
    log.write_bytes(
        b'{"type": "session_started", "session": "x", "seats": ["A", "B"], "cards": "shown"}\n'
        b'{"type": "dealer_chosen", "player": "\xff"}\n'
    )
    with pytest.raises(FormatError) as err:
        read_file(str(log))
    assert err.value.line == 2 and "UTF-8" in err.value.message


def test_a_byte_order_mark_and_crlf_line_ends_are_read(tmp_path: Path) -> None:
    from events.codec import read_file

    log = tmp_path / "bom.jsonl"
    log.write_bytes(
        b'\xef\xbb\xbf{"type": "session_started", "session": "x", "seats": ["A", "B"], '
        b'"cards": "shown"}\r\n{"type": "dealer_chosen", "player": "A"}\r\n'
    )
    events = read_file(str(log))
    assert [n for n, _ in events] == [1, 2]
    assert events[1][1].type == "dealer_chosen"
