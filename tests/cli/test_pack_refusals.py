"""The pack's rules (RULES 3.3) met the way a user meets them: brag verify and brag import give the
same refusal of a showdown of a card that went under the pack. The rules themselves are tested in
tests/engine/test_pack.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from raw_log_helpers import Raw, bet, concede, dealt, fold, look, saw, show, start

from brag.cli import main


def order_of(seats: str, dealer: str) -> str:
    """RULES 3.4: the players in the order they are dealt to and act, from the dealer's left."""
    d = seats.index(dealer)
    return "".join(seats[(d + 1 + k) % len(seats)] for k in range(len(seats)))


def quiet(seats: str, dealer: str) -> list[Raw]:
    """A deal no card of which is shown: all look, the first to act bets, the others fold."""
    first, *others = list(order_of(seats, dealer))
    return [dealt(), *[look(p) for p in seats], bet(first, 1), *[fold(p) for p in others]]


def dealers(seats: str, first: str, deals: int) -> list[str]:
    """RULES 3.1: the dealer of each deal from the first, moving left."""
    d = seats.index(first)
    return [seats[(d + k) % len(seats)] for k in range(deals)]


def showdown(seats: str, dealer: str, shower: str, cards: str) -> list[Raw]:
    """A deal that ends in a showdown between the first two to act, where ``shower`` (one of
    them, the one seen) shows ``cards`` and the payer concedes: all look, the others fold."""
    a, b, *others = list(order_of(seats, dealer))
    out = [dealt(), *[look(p) for p in seats], bet(a, 1)]
    folds = [fold(p) for p in others]
    if shower == a:  # b sees a
        out += [bet(b, 1), *folds, bet(a, 1), saw(b)] if others else [saw(b)]
    else:  # a sees b
        out += [bet(b, 1), *folds, saw(a)]
    return [*out, show(shower, cards), concede(b if shower == a else a)]


def four_players_until(deal: int) -> tuple[list[Raw], list[str]]:
    """A, B, C, D (D deals first): B shows Qs 7h 2d at deal 1's showdown (A concedes), then
    quiet deals up to (not including) ``deal``; the log and every deal's dealer."""
    ds = dealers("ABCD", "D", deal)
    log = [*start("ABCD", "D"), *showdown("ABCD", "D", "B", "Qs 7h 2d")]
    for d in ds[1 : deal - 1]:
        log += quiet("ABCD", d)
    return log, ds


def test_brag_verify_and_import_give_the_same_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, ds = four_players_until(3)
    bad = [*log, *showdown("ABCD", ds[2], "C", "Qs 3c 4d")[:-1]]
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in bad))
    words = "RULES 3.3: Qs went under the pack at deal 1's showdown; with 4 players"
    assert main(["verify", str(path)]) != 0
    out = capsys.readouterr()
    assert words in out.out + out.err
    assert main(["--db", str(tmp_path / "s.db"), "import", str(path)]) != 0
    out = capsys.readouterr()
    assert words in out.out + out.err and f"line {len(bad)}" in out.out + out.err
