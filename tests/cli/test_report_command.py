"""``brag report DATE --out DIR [--pdf] [--base URL]`` (issue 36.6): the page to publish is one
self-contained file (no script, no outside file), stamped with the store's position; the PDF is
a PDF with the same stamp; links start with ``--base``; refusals are one line and write nothing."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from brag.cli import main
from log.open import open_store

SEASON = sorted((Path(__file__).resolve().parents[2] / "data" / "season").glob("*.jsonl"))
FIRST = [str(p) for p in SEASON if p.name.startswith("2026-09-24-")]


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "club.db")
    assert main(["import", "--db", path, *FIRST]) == 0
    return path


def test_the_page_and_the_pdf(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pypdf import PdfReader

    out = tmp_path / "site"
    out.mkdir()
    base = "https://club.example/brag"
    assert (
        main(["report", "2026-09-24", "--db", db, "--out", str(out), "--pdf", "--base", base]) == 0
    )
    with open_store(db) as store:
        stamp = f"made from log position {store.last_position()}, rules standard"
    page = (out / "night-2026-09-24.html").read_text(encoding="utf-8")
    assert stamp in page and "<script" not in page
    assert not re.search(r"""(src|href)=["'](?!https://club\.example/brag/replay\?)""", page)
    assert page.count(f"{base}/replay?session=2026-09-24-") == 10  # 5 pots, 5 hands
    pdf = PdfReader(io.BytesIO((out / "night-2026-09-24.pdf").read_bytes()))
    assert stamp in "".join(p.extract_text() for p in pdf.pages)
    assert capsys.readouterr().out.count("wrote ") == 2


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["2026-13-01"], r"^brag report: DATE '2026-13-01' is not YYYY-MM-DD$"),
        (["2026-09-23"], r"^brag report: no session started on 2026-09-23"),
        (["2026-09-24", "--base", "javascript:alert(1)"], r"^brag report: --base 'javascript"),
    ],
)
def test_refusals_are_one_line(db: str, tmp_path: Path, argv: list[str], line: str) -> None:
    with pytest.raises(SystemExit, match=line):
        main(["report", *argv, "--db", db, "--out", str(tmp_path)])
    assert not list(tmp_path.glob("night-*"))


def test_a_folder_not_there_yet_is_made_and_a_file_is_refused(db: str, tmp_path: Path) -> None:
    out = tmp_path / "site" / "nights"
    assert main(["report", "2026-09-24", "--db", db, "--out", str(out)]) == 0
    assert [p.name for p in out.iterdir()] == ["night-2026-09-24.html"]
    file = tmp_path / "taken"
    file.write_text("mine", encoding="utf-8")
    with pytest.raises(
        SystemExit, match=r"^brag report: --out '.*taken' is a file: give a folder$"
    ):
        main(["report", "2026-09-24", "--db", db, "--out", str(file)])
    assert file.read_text(encoding="utf-8") == "mine"
