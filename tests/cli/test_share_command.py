"""brag share: the command's refusals and an unknown session are one line; it writes each format;
the file is readable by others as the umask allows; a deal in play is drawn as a spectator sees it,
saying why. The pictures themselves are tested in tests/present/test_share_picture.py."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from live_helpers import live_session, unshown, write_log
from share_helpers import LOG, NAME
from share_helpers import faces as _faces

from brag.cli import main
from events.codec import read_file
from present.replay import Replay
from present.share import (
    share,
    sight_of,
)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--deal", "3", "-o", "{tmp}/a.txt"], "brag share: {tmp}/a.txt: a picture's file ends in"),
        (["--deal", "30", "-o", "{tmp}/a.png"], f"brag: session {NAME} has deals 1 to 8; there"),
        (["--deal", "3", "--step", "99", "-o", "{tmp}/a.svg"], "brag: deal 3 of session"),
        (["--deal", "3", "--view", "Zed", "-o", "{tmp}/a.gif"], "brag: 'Zed' is not a player"),
        (["--deal", "9", "-o", "{tmp}/a.svg"], "there is no deal 9"),
    ],
)
def test_the_commands_refusals_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(LOG)]) == 0
    capsys.readouterr()
    argv = ["share", NAME, "--db", db, *(a.replace("{tmp}", str(tmp_path)) for a in args)]
    try:
        code = main(argv)
        err = capsys.readouterr().err
    except SystemExit as exit_:  # a CommandError leaves as SystemExit with its line
        code, err = 1, str(exit_.code) + "\n"
    assert code == 1
    assert err.count("\n") == 1 and said.replace("{tmp}", str(tmp_path)) in err, err
    assert not list(tmp_path.glob("a.*"))


def test_an_unknown_session_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(LOG)]) == 0
    capsys.readouterr()
    assert main(["share", "nosuch", "--db", db, "--deal", "1", "-o", str(tmp_path / "a.png")]) == 1
    assert capsys.readouterr().err == "brag: no session 'nosuch' in the store\n"


def test_brag_share_writes_each_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(LOG)]) == 0
    rp = Replay.of([e for _, e in read_file(str(LOG))])
    for ext in ("svg", "png", "gif"):
        out = tmp_path / f"hand.{ext.upper() if ext == 'png' else ext}"
        argv = ["share", NAME, "--db", db, "--deal", "2", "--step", "5", "--view", "Colin"]
        assert main([*argv, "-o", str(out)]) == 0
        assert out.read_bytes() == share(sight_of(rp, 2, "Colin"), 5, ext)
        assert f"{out}: session {NAME}, deal 2" in capsys.readouterr().err


def test_a_shared_file_can_be_read_by_others_as_the_umask_allows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Written atomically (a temporary file renamed), yet with open()'s mode: 0666 less the umask.
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(LOG)]) == 0
    old = os.umask(0o022)
    try:
        for ext in ("svg", "png", "gif"):
            out = tmp_path / f"hand.{ext}"
            assert main(["share", NAME, "--db", db, "--deal", "2", "-o", str(out)]) == 0
            assert stat.S_IMODE(out.stat().st_mode) == 0o644, ext
    finally:
        os.umask(old)


def test_brag_share_of_a_deal_in_play_says_why_it_shows_less(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = Replay.of(live_session())
    db = str(tmp_path / "brag.db")
    assert main(["import", "--db", db, str(write_log(live_session(), tmp_path / "l.jsonl"))]) == 0
    capsys.readouterr()
    deal, who = live.final.deals, live.seats[1]
    out = tmp_path / "live.svg"
    argv = ["share", live.session, "--db", db, "--deal", str(deal), "--view", who, "-o", str(out)]
    assert main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[1] == (
        f"Deal {deal} is still in play: viewing as {who} waits until the pack is shuffled or "
        "the session ends (or the organiser's device); meanwhile only the cards shown are face "
        "up."
    )
    assert not _faces(out.read_text()) & unshown(live)
