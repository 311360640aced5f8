"""brag decisions (issue 26): its JSON equals the API's answer, reading commands at once all answer,
a projection held too long names the process holding it, its errors are one line. The explorer
itself is tested in tests/analytics/test_decision_explorer.py."""

from __future__ import annotations

import json
import subprocess
import sys

import duckdb
import pytest
from decision_explorer_helpers import explorer_con  # noqa: F401 (the fixture con)
from shared_paths import VALID_SCENARIOS, needs_shared

from analytics import building, spots
from analytics.building import ProjectionBusy, unlocked
from analytics.spots import Spot
from brag.cli import main

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("decisions")
    db = str(tmp / "brag.db")
    assert main(["import", "--db", db, *VALID_SCENARIOS]) == 0
    assert main(["analytics", "refresh", "--db", db]) == 0
    return db


@needs_shared
def test_cli_json_equals_the_api(store: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["decisions", "--db", store, "--spot", "actor=seen", "--player", "B",
                 "--min-deals", "1", "--format", "json"]) == 0  # fmt: skip
    cells = json.loads(capsys.readouterr().out)
    con = duckdb.connect(store.replace(".db", ".duckdb"), read_only=True)
    answer = spots.explore(con, Spot.parse("actor=seen"), "B", min_deals=1)
    con.close()
    assert [(c["group"], c["action"], c["count"], c["total"]) for c in cells] == [
        (c.group, c.action, c.count, c.total) for c in answer.cells
    ]
    assert [c["net_mean"] for c in cells] == [
        None if c.net_mean is None else str(c.net_mean) for c in answer.cells
    ]
    # the drill-down of one cell: its decisions, one CSV line each
    cell = next(c for c in answer.cells if c.group == "field" and c.count)
    assert main(["decisions", "--db", store, "--spot", "actor=seen", "--player", "B",
                 "--min-deals", "1", "--deals", f"field:{cell.action}", "--format",
                 "csv"]) == 0  # fmt: skip
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "session,deal,step,seq,player,action,net"
    assert len(lines) - 1 == cell.count
    assert main(["decisions", "--db", store, "--player", "B", "--differences",
                 "--min-deals", "1"]) == 0  # fmt: skip
    assert "beside the winning players" in capsys.readouterr().out


BRAG = "import sys; from brag.cli import main; sys.exit(main(sys.argv[1:]))"


@needs_shared
@pytest.mark.slow
def test_reading_commands_at_once_all_answer(store: str) -> None:
    # Three brag processes on one store at once, each refreshing the projection (a copy taken
    # under a read-only hold, renamed into place) and then reading it: each waits for the
    # others' hold on the file instead of failing on DuckDB's lock.
    spot = ["decisions", "--db", store, "--spot", "players=3", "--player", "B", "--min-deals", "1"]
    leak = ["decisions", "--db", store, "--player", "B", "--differences", "--min-deals", "1"]
    commands = {"spot": spot, "differences": leak}
    alone = {
        k: subprocess.run([sys.executable, "-c", BRAG, *argv], capture_output=True, text=True)
        for k, argv in commands.items()
    }
    assert all(p.returncode == 0 and p.stdout for p in alone.values()), alone
    for _ in range(2):
        procs = [
            (k, subprocess.Popen([sys.executable, "-c", BRAG, *commands[k]], text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE))
            for k in ("spot", "spot", "differences")
        ]  # fmt: skip
        for k, proc in procs:
            out, err = proc.communicate(timeout=120)
            assert (proc.returncode, err) == (0, ""), err
            assert out == alone[k].stdout


@needs_shared
def test_a_projection_held_too_long_names_the_process_holding_it(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.replace(".db", ".duckdb")
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import duckdb, sys; c = duckdb.connect({path!r}); "
         "print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(ProjectionBusy) as busy:
            unlocked(path, lambda: duckdb.connect(path, read_only=True), wait=0.3)
        assert busy.value.pid == holder.pid
        assert str(busy.value).startswith(f"another brag command (pid {holder.pid}) is ")
        assert str(busy.value).endswith("; try again")
        monkeypatch.setattr(building, "LOCK_WAIT", 0.3)
        for refresh in ([], ["--no-refresh"]):  # seeding the catch-up; opening to read
            with pytest.raises(SystemExit) as stop:
                main(["decisions", "--db", store, "--player", "B", *refresh])
            assert str(stop.value) == f"brag: {busy.value}"
    finally:
        holder.communicate("", timeout=30)
    con = unlocked(path, lambda: duckdb.connect(path, read_only=True), wait=0.3)
    con.close()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--spot", "actor=sen"], "brag: --spot: actor='sen': blind or seen (RULES 5.1)"),
        (["--player", "Nobody"], "brag: no player named Nobody"),
        (["--deals", "me:fold"], "brag: --deals 'me:fold': the group is one of player, field, "
                                 "winners"),
        (["--deals", "player:fold"], "brag: --deals player:...: give --player P too"),
        (["--differences"], "brag: --differences ranks one player's spots: give --player P too"),
        (["--table", "Nowhere"], "brag: no table 'Nowhere' in the store"),
        (["--player", "B", "--differences", "--spot", "players=3"],
         "brag: --differences ranks every spot of the player's grid and cannot narrow it to "
         "--spot 'players=3'"),
    ],
)  # fmt: skip
@needs_shared
def test_cli_errors_are_one_line(store: str, argv: list[str], says: str) -> None:
    with pytest.raises(SystemExit) as err:
        main(["decisions", "--db", store, *argv])
    assert str(err.value).startswith(says) and "\n" not in str(err.value)
