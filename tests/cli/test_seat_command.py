"""``brag seat DATE --players ...`` (issue 36, item 1): the JSON shape, every player seated once
at tables within RULES 1.3, the repeats counted against the season's earlier sessions (read here
from the logs themselves), a merged name seated as its player, the same tables for the same
seed, and one-line refusals."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from brag.cli import main
from log.open import open_store
from service.seating import history_of

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
PRESENT = ["Sandra", "bev", "Gary", "Colin", "Dave", "Jean", "Keith", "Tony", "Margaret"]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("seat") / "club.db")
    assert main(["import", "--db", path, *map(str, SEASON)]) == 0
    return path


def _earlier(before: str, since: str = "") -> Counter[frozenset[str]]:
    """Per pair, the sessions both sat in, started (by the log's own date) in [since, before)."""
    out: Counter[frozenset[str]] = Counter()
    for p in SEASON:
        first = json.loads(p.read_text(encoding="utf-8").splitlines()[0])
        day = first["at"][:10]
        if since <= day < before:
            for a, b in itertools.combinations(sorted(set(first["seats"])), 2):
                out[frozenset((a, b))] += 1
    return out


def _seat(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(["seat", *argv]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)  # type: ignore[no-any-return]


def test_history_is_the_earlier_sessions(db: str) -> None:
    with open_store(db) as store:
        assert history_of(store, date(2026, 10, 30)) == _earlier("2026-10-30")
        got = history_of(
            store,
            date(2026, 11, 19),
            since=date(2026, 10, 15),
        )
    assert got == _earlier("2026-11-19", "2026-10-15")
    assert sum(got.values()) > 0


def test_seat_json(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    got = _seat(
        capsys, ["2026-10-30", "--db", db, "--players", *PRESENT, "--per-table", "4", "--json"]
    )
    assert set(got) == {"date", "seed", "tables", "repeats"}
    assert got["date"] == "2026-10-30"
    tables = [t["players"] for t in got["tables"]]
    assert [t["table"] for t in got["tables"]] == [1, 2, 3]
    assert sorted(len(t) for t in tables) == [3, 3, 3]
    # "bev" typed in lower case is the player the store knows
    assert sorted(p for t in tables for p in t) == sorted(["Bev", *PRESENT[:1], *PRESENT[2:]])
    history = _earlier("2026-10-30")
    count = sum(history[frozenset(pair)] for t in tables for pair in itertools.combinations(t, 2))
    assert got["repeats"] == count
    # the least over every split into three tables of 3 (280 of them), counted here
    names = sorted(p for t in tables for p in t)
    best = min(
        sum(history[frozenset(q)] for t in split for q in itertools.combinations(t, 2))
        for split in _threes(names)
    )
    assert count == best
    again = _seat(capsys, ["2026-10-30", "--db", db, "--players", *PRESENT, "--per-table", "4",
                           "--json", "--seed", str(got["seed"])])  # fmt: skip
    assert again == got


def _threes(names: list[str]) -> list[list[tuple[str, ...]]]:
    if not names:
        return [[]]
    first, rest = names[0], names[1:]
    out = []
    for pair in itertools.combinations(rest, 2):
        left = [n for n in rest if n not in pair]
        out += [[(first, *pair), *tail] for tail in _threes(left)]
    return out


def test_plain_text(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["seat", "2026-10-30", "--db", db, "--players", *PRESENT[:5]]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tables for 2026-10-30 (seed ")
    assert "table 1 (5): " in out and "repeats: " in out


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["--players", "Sandra"],
            r"^brag seat: RULES 1\.3: a table seats 2 to 10 players: 1 present$",
        ),
        (
            ["--players", "Sandra", "sandra", "Gary"],
            r"^brag seat: RULES 1\.3: Sandra is given twice",
        ),
        (
            ["--players", "A", "B", "C", "--per-table", "1"],
            r"^brag seat: RULES 1\.3: a table seats",
        ),
        (["--players", "A", "B"], None),
    ],
)
def test_refusals_are_one_line(db: str, argv: list[str], line: str | None) -> None:
    day = "2026-10-30" if line else "30/10/2026"
    with pytest.raises(
        SystemExit, match=line or r"^brag seat: DATE '30/10/2026' is not YYYY-MM-DD$"
    ) as err:
        main(["seat", day, "--db", db, *argv])
    assert "\n" not in str(err.value.code)
