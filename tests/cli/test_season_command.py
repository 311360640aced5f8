"""brag simulate's season command remakes the bundled data files byte for byte. The bundled data
itself is tested in tests/sim/test_bundled_data.py."""

from __future__ import annotations

from pathlib import Path

from shared_paths import ROOT

from brag.cli import main

DATA = ROOT / "data"


def test_season_command_remakes_the_files(tmp_path: Path) -> None:
    argv = ["simulate", "--season", "--seed", "2026", "--out", str(tmp_path), "--quiet"]
    assert main(argv) == 0
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(p.name for p in (DATA / "season").iterdir())
    for name in made:
        assert (tmp_path / name).read_bytes() == (DATA / "season" / name).read_bytes(), name
