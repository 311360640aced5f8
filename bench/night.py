"""The night's report, ready after the director finalises (issue 36 item 6: within 10 s).

    .venv/bin/python bench/night.py [--top 5] [--repeat 3]

Imports the bundled season (``data/season``, 40 sessions on 17 dates) into a SQLite store in a
temporary folder, then for each of its nights, the busiest first: finalises it
(:func:`service.night_facts.finalise`) and times, from the moment the final fact is stored, what
the Night page's report view and ``brag report --pdf`` do: the night (the engine's fold of each
session, :func:`service.night.night_of`), the report (:func:`service.report.report_of`: the
biggest pots and best hands shown, each linked to its step), its HTML page
(:func:`service.report_html.report_page`) and its PDF (:func:`service.report_pdf.report_pdf`).
Each night is timed ``--repeat`` times on a fresh process cache (a new store handle: nothing
folded before), keeping the best, wall clock; the limit, 10 s, is the issue's. Prints per night
its sessions and events, each part's seconds, the total and its ratio to the limit. Exits 0
whatever the figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from log.open import open_store  # noqa: E402
from service.night import night_of  # noqa: E402
from service.night_facts import finalise  # noqa: E402
from service.report import report_of  # noqa: E402
from service.report_html import report_page  # noqa: E402
from service.report_pdf import report_pdf  # noqa: E402

LIMIT = 10.0
"""Seconds from finalising to the report ready (issue 36 item 6)."""


def _timed(url: str, day: date) -> dict[str, float]:
    with open_store(url) as store:  # a new handle: no session folded before
        t0 = time.perf_counter()
        night = night_of(store, day)
        t1 = time.perf_counter()
        report = report_of(store, day)
        t2 = time.perf_counter()
        page = report_page(report)
        t3 = time.perf_counter()
        pdf = report_pdf(report)
        t4 = time.perf_counter()
    assert night.state == "final" and page and pdf[:4] == b"%PDF"
    return {"night": t1 - t0, "report": t2 - t1, "html": t3 - t2, "pdf": t4 - t3}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=5, help="the busiest N nights")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = str(Path(tmp) / "season.db")
        with open_store(url) as store:
            for log in sorted((ROOT / "data" / "season").glob("*.jsonl")):
                store.import_log(str(log))
            infos = store.sessions()
            per_day: dict[date, list[int]] = {}
            for i in infos:
                day = date.fromisoformat(i.session[:10])
                per_day.setdefault(day, []).append(len(store.events(i.session)))
            busiest = sorted(per_day, key=lambda d: -sum(per_day[d]))[: args.top]
            for day in busiest:
                finalise(store, day, by="bench")
        print(f"night's report after finalising (limit {LIMIT:.0f} s; best of {args.repeat})")
        print(f"{'night':<12}{'sessions':>9}{'events':>8}{'night':>8}{'report':>8}"
              f"{'html':>7}{'pdf':>7}{'total':>8}{'ratio':>7}")  # fmt: skip
        worst = 0.0
        for day in busiest:
            best = min(
                (_timed(url, day) for _ in range(args.repeat)), key=lambda t: sum(t.values())
            )
            total = sum(best.values())
            worst = max(worst, total)
            print(
                f"{day.isoformat():<12}{len(per_day[day]):>9}{sum(per_day[day]):>8}"
                f"{best['night']:>8.2f}{best['report']:>8.2f}{best['html']:>7.2f}"
                f"{best['pdf']:>7.2f}{total:>8.2f}{total / LIMIT:>7.2f}"
            )
        print(f"worst night: {worst:.2f} s, {worst / LIMIT:.2f}x the {LIMIT:.0f} s limit")


if __name__ == "__main__":
    main()
