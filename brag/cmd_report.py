"""``brag report DATE --out DIR [--pdf] [--base URL]``: the night's report (issue 36.6) written to
publish: ``DIR/night-DATE.html`` (one self-contained page: its style inline, no script, no
outside file) and, with ``--pdf``, ``DIR/night-DATE.pdf``.

The report (:mod:`service.report`): the standings, the biggest pots, the best hands shown, each
linked to its replay step; no hidden card, no note; every page says the log position and the
rules it was made from. ``--base`` is the dashboard's address put before each replay link (a
published page is not on the dashboard's server). Both files are written whole or not at all
(a temporary file renamed). Refusals are one line, exit 1.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from brag.errors import CommandError
from brag.store_access import open_event_store

__all__ = ["cmd_report", "register"]


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "report",
        parents=[common],
        help="a night's report to publish: standings, biggest pots, best hands shown (HTML, PDF)",
        description="Writes DIR/night-DATE.html (self-contained) and, with --pdf, "
        "DIR/night-DATE.pdf: the night's standings (RULES 1.5), its biggest pots and best hands "
        "shown (RULES 2.2, 5.8), each linked to its replay step. No hidden card, no note.",
    )
    p.add_argument("day", metavar="DATE", help="the night's date, YYYY-MM-DD")
    p.add_argument("--out", metavar="DIR", required=True, help="the folder to write into")
    p.add_argument("--pdf", action="store_true", help="also write the PDF")
    p.add_argument(
        "--base",
        metavar="URL",
        default="",
        help="the dashboard's address before each replay link (http://club.example:8501/)",
    )
    p.set_defaults(func=cmd_report)


def _write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # a page to publish: readable as any file written here
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def cmd_report(args: argparse.Namespace) -> int:
    from service.night import NightRefused
    from service.report import report_of
    from service.report_html import report_page

    try:
        day = date.fromisoformat(args.day)
    except ValueError:
        raise CommandError(f"DATE {args.day!r} is not YYYY-MM-DD", command="report") from None
    base = str(args.base)
    if base and not base.startswith(("http://", "https://")):
        raise CommandError(
            f"--base {base!r}: give an http:// or https:// address", command="report"
        )
    if base and not base.endswith("/"):
        base += "/"
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CommandError(f"--out {args.out!r} is a file: give a folder", command="report")
    try:
        out.mkdir(parents=True, exist_ok=True)  # a folder not there yet is made
    except OSError as err:
        raise CommandError(
            f"--out {args.out!r}: the folder cannot be made ({err.strerror})", command="report"
        ) from err
    with open_event_store(args) as store:
        try:
            report = report_of(store, day)
        except NightRefused as err:
            raise CommandError(str(err), command="report") from None
    written = [out / f"night-{day.isoformat()}.html"]
    pdf = None
    if args.pdf:
        from service.report_pdf import report_pdf

        pdf = report_pdf(report, base=base)
        written.append(out / f"night-{day.isoformat()}.pdf")
    _write(written[0], report_page(report, base=base).encode("utf-8"))
    if pdf is not None:
        _write(written[1], pdf)
    for path in written:
        print(f"wrote {path} ({report.stamp})")
    return 0
