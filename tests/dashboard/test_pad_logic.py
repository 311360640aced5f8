"""The Record page's logic without Streamlit (``dashboard.record.recorder``): the pad offers every
legal
next event exactly once, at places that do not move between taps; a tap records the key's event;
the device token is signed, expires, and dies with the secret; redo records the withdrawn event
again; an undo names what it withdrew (derived events too) by step and sentence, never by seq."""

from __future__ import annotations

import hashlib
import hmac
import random
from datetime import UTC, datetime, timedelta

import pytest
from itsdangerous import URLSafeSerializer
from itsdangerous.encoding import base64_decode
from store_helpers import advance, choose, start

from dashboard.access import tokens
from dashboard.record import choices, pad_rows, recorder
from engine.state import initial_state
from events.model import Bet, Dealt, Folded, Looked, Shuffled, Voided
from present.replay import Replay


def _keys(state):  # type: ignore[no-untyped-def]
    return [k for row in pad_rows.pad_rows(state) for k in row]


@pytest.mark.parametrize("seed", range(6))
def test_the_pad_offers_each_legal_event_once_at_its_place(seed: int) -> None:
    """Every legal choice has exactly one key, at a place of the session's one grid (issue 19:
    keys never move); fold, see and the bets are always at their own places, and bet slot k
    means the opening bet open_min + k, later the level as it stands + k (RULES 5.5)."""
    rng = random.Random(seed)
    state, _ = advance(initial_state(), start(f"s{seed}", rng, cards="shown"))
    grid = pad_rows.pad_grid(len(state.seats), state.rules, "shown")
    places = {spot for row in grid for spot in row}
    kinds: set[str] = set()
    for _ in range(400):
        assert pad_rows.pad_grid(len(state.seats), state.rules, "shown") == grid
        keys = pad_rows.pad_keys(state)
        assert set(keys) <= places
        offered = sorted(k.choice.key for s, k in keys.items() if k.choice and s != "order")
        assert offered == sorted(c.key for c in choices.choices(state))
        base = state.rules.open_min if state.level is None else state.level
        for spot, k in keys.items():
            assert k.choice is not None
            kind = k.choice.action.kind
            kinds.add(kind)
            assert spot == "fold" if kind == "folded" else spot != "fold"
            assert spot == "see" if kind == "saw" else spot != "see"
            if kind == "bet":
                level = int(k.choice.action.event.level)  # type: ignore[union-attr]
                assert spot == f"bet-{level - base}" and k.tone == "bet"
        e = choose(state, rng)
        if e is None:
            break
        state, _ = advance(state, e)
    assert {"bet", "folded", "shuffled", "dealt"} <= kinds


def test_a_place_with_no_bet_is_an_empty_slot() -> None:
    """Before the first bet, the opening bets set the level to 1..5 (RULES 5.5); the sixth
    place, kept for a raise to come, is an empty slot: no label, no title, no key's colour."""
    events = recorder.start_events("t", ("Ann", "Bob", "Cal"), "shown", dealer="Cal")
    state = Replay.of([*events, Shuffled(), Dealt()], recorded=True).final
    bets = [k for k in _keys(state) if k.spot.startswith("bet-")]
    assert [k.label for k in bets] == ["Bet 1", "Bet 2", "Bet 3", "Bet 4", "Bet 5", ""]
    after = Replay.of([*events, Shuffled(), Dealt(), Bet(player="Ann", level=2)]).final
    keys = pad_rows.pad_keys(after)  # slot 0 keeps the level, slot k raises by k
    assert [keys[f"bet-{k}"].label for k in range(6)] == [
        "Bet 2",
        "Raise to 3",
        "Raise to 4",
        "Raise to 5",
        "Raise to 6",
        "Raise to 7",
    ]
    assert (bets[-1].tone, bets[-1].title, bets[-1].choice) == ("empty", "", None)


def test_a_tap_records_the_keys_event() -> None:
    events = recorder.start_events("t", ("Ann", "Bob", "Cal"), "shown", dealer="Cal")
    events += [Shuffled(), Dealt()]
    state = Replay.of(events, recorded=True).final
    assert recorder.tapped_event(state, "bet-1", by="Zoe") == Bet(player="Ann", level=2, by="Zoe")
    assert recorder.tapped_event(state, "peek-1") == Looked(player="Bob")
    with pytest.raises(recorder.TapRefused, match="'see'"):
        recorder.tapped_event(state, "see")  # nobody to see yet: the key is disabled
    with pytest.raises(recorder.TapRefused):
        recorder.tapped_event(state, "peek-0")  # Ann's own look is at "look"


PAYLOADS = URLSafeSerializer("unused")
"""itsdangerous' URL-safe payload format, read and written without a signature."""


def _with_claims(claims: list[object], sig: str) -> str:
    """A token of ``claims`` under the signature ``sig`` of other claims (itsdangerous' URL-safe
    format: the compact JSON, compressed when shorter, in base64; a dot; the signature)."""
    return f"{PAYLOADS.dump_payload(claims).decode()}.{sig}"


def test_the_device_token_is_signed_expires_and_dies_with_the_secret() -> None:
    now = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    token = tokens.device_token("sesame", now, generation=3, store="ab" * 8)
    claims = tokens.token_claims("sesame", token, now)
    assert claims is not None
    tid, expiry = claims.id, claims.expiry
    payload, sig = token.rsplit(".", 1)
    assert expiry == int((now + timedelta(hours=12)).timestamp())
    assert "sesame" not in token and len(base64_decode(sig)) == 32  # an HMAC-SHA256
    assert len(tid) == 16 and claims.generation == 3
    assert claims == tokens.TokenClaims(tid, 3, expiry, "ab" * 8)  # the store it unlocks (33)
    assert PAYLOADS.load_payload(payload.encode()) == [tid, 3, expiry, "ab" * 8]
    assert tokens.device_token("sesame", now).rsplit(".", 1)[0] != payload  # each its own id
    assert tokens.token_valid("sesame", token, now + timedelta(hours=11, minutes=59))
    assert not tokens.token_valid("sesame", token, now + timedelta(hours=12))  # expired
    assert not tokens.token_valid("another secret", token, now)  # the secret changed
    forged = _with_claims([tid, 3, expiry + 3600, "ab" * 8], sig)  # a longer life, same sig
    assert not tokens.token_valid("sesame", forged, now)
    older = _with_claims([tid, 2, expiry, "ab" * 8], sig)  # an earlier generation, same sig
    assert not tokens.token_valid("sesame", older, now)
    other = _with_claims([tid, 3, expiry, "cd" * 8], sig)  # another store, same signature
    assert not tokens.token_valid("sesame", other, now)
    assert _with_claims([tid, 3, expiry, "ab" * 8], sig) == token  # (the forgeries' format)
    body = f"{tid}.3.{expiry}.{'ab' * 8}"  # the token written by hand before (v2): not taken
    key = hashlib.sha256(b"bragbook device token v2\0sesame").digest()
    assert not tokens.token_valid(
        "sesame", f"{body}.{hmac.new(key, body.encode(), hashlib.sha256).hexdigest()}", now
    )
    for bad in (
        None,
        "",
        "x",
        "1.2.3",
        f"{expiry}.{sig}",
        f"{payload}.",
        f"X.1.2.{sig}",
        f".{payload}.{sig}",
        f"{payload}.{sig}.{sig}",
        "\udcff.x",
    ):
        assert not tokens.token_valid("sesame", bad, now)
    assert not tokens.token_valid(None, token, now)


def test_redo_records_the_withdrawn_event_again() -> None:
    recorded = recorder.start_events("r", ("Ann", "Bob"), "shown", dealer="Bob")
    recorded += [Shuffled(), Dealt(), Bet(player="Ann", level=2, by="Zoe")]
    stream = [e.model_copy(update={"seq": n}) for n, e in enumerate(recorded, start=1)]
    assert recorder.redo(stream) is None  # nothing undone
    stream.append(Voided(seq=5))
    assert recorder.redo(stream, by="Max") == Bet(player="Ann", level=2, by="Max")
    assert recorder.redo(stream) == Bet(player="Ann", level=2)


def test_an_undo_names_the_steps_it_withdrew_derived_ones_included() -> None:
    recorded = recorder.start_events("u", ("Ann", "Bob"), "shown", dealer="Bob")
    recorded += [Shuffled(), Dealt(), Looked(player="Bob"), Folded(player="Ann")]
    stream = list(record_all(recorded))  # the fold wins Bob the pot: a derived pot_won
    assert [e.type for e in stream[-2:]] == ["folded", "pot_won"]
    stream.append(Voided(seq=6))
    rp = Replay.of(stream, recorded=True)
    assert [lab.withdrawn for lab in rp.labels[-3:]] == [True, True, False]
    said = rp.labels[-1].text
    assert said == (
        "Correction: step 3 (Ann folds, leaving 1 in the pot) is withdrawn, with step 4 (Bob "
        "wins the pot of 2 uncontested, without showing); the table goes back to step 2"
    )
    assert "seq" not in said


def record_all(recorded):  # type: ignore[no-untyped-def]
    """The stream as the store keeps it: each recorded event followed by its derived ones, every
    event with its seq."""
    state, out = initial_state(), []
    for e in recorded:
        state, new = advance(state, e)
        out += new
    return [e.model_copy(update={"seq": n}) for n, e in enumerate(out, start=1)]
