"""The start-up of ``brag``'s read commands, each beside a plain standard-library script doing the
same work (issue 22, part 1).

    .venv/bin/python bench/cli.py [--repeat 5] [--keep DIR]

1. Imports the bundled season (``data/season/*.jsonl``, 40 sessions) into a new SQLite store in a
   temporary folder (``brag --db sqlite:///DIR/store.db import ...``) and builds its statistics
   once (``brag stats``), so the timed ``stats`` and ``leaderboard`` find the projection up to
   date, as a user's second look does.
2. Times each read command as a fresh process (``.venv/bin/brag ...``, output to a pipe), wall
   clock, beside a plain script run by the same interpreter that reads the same rows with
   ``sqlite3`` and ``json`` (``json`` alone for ``verify``) and prints the same kind of answer.
   Commands and scripts take turns, ``--repeat`` rounds, after one untimed round that writes
   the bytecode caches (``PYTHONDONTWRITEBYTECODE`` is dropped: an installed ``brag`` runs
   from them); each figure is the median.

   - ``sessions --json``: the catalogue's first page (``brag_sessions``), one JSON object a line;
   - ``export S``: the session's rows, each as its FORMAT.md line;
   - ``replay S --deal 1``: the session's rows, the first deal's events printed one a line;
   - ``stats``: every event row parsed, per player the deals at the table and the net over
     ended sessions;
   - ``leaderboard``: every ``session_ended`` row parsed, each session's nets sorted;
   - ``verify LOG``: the session's log (409 lines) read and every line parsed.

   S is ``2026-10-30-back-2``, the season's longest session, and LOG its file.
3. Prints each median in ms, the ratio to its script and the target (at most 10x), the same for
   the CPU time (user + system) of the processes (steadier than wall time when other work
   shares the cores), and the
   import share: the command run once more under ``python -X importtime``, the sum of its
   top-level imports over that run's wall time (``-X importtime`` slows imports a little, so the
   share is a little high). ``python -c pass`` is printed as the interpreter's own floor.

Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
BRAG = str(Path(PY).with_name("brag"))
SESSION = "2026-10-30-back-2"
LOG = ROOT / "data" / "season" / f"{SESSION}.jsonl"
TARGET = 10.0

PEERS = {
    "sessions": """
import json, sqlite3, sys
con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
cols = ("session, table_name, first_at, stored, seats, cards, deals, resolved_pots, "
        "carried_pots, finished, winners, last_seq")
for r in con.execute(f"SELECT {cols} FROM brag_sessions ORDER BY started_us, first_position "
                     "LIMIT 50"):
    print(json.dumps({"session": r[0], "table": r[1], "started": r[2] or r[3],
                      "players": json.loads(r[4]), "cards": r[5], "deals": r[6],
                      "resolved_pots": r[7], "carried_pots": r[8], "finished": bool(r[9]),
                      "winners": json.loads(r[10]), "events": r[11]}, ensure_ascii=False))
""",
    "export": """
import json, sqlite3, sys
con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
out = []
for type_, payload, v, id_, seq, at, by in con.execute(
        "SELECT type, payload, v, id, seq, at, by FROM events WHERE session = ? ORDER BY seq",
        (sys.argv[2],)):
    e = {"type": type_, **json.loads(payload), "v": v, "id": id_, "seq": seq}
    if at is not None:
        e["at"] = at
    if by is not None:
        e["by"] = by
    out.append(json.dumps(e, ensure_ascii=False) + "\\n")
sys.stdout.write("".join(out))
""",
    "replay": """
import json, sqlite3, sys
con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
deal = 0
for seq, type_, payload in con.execute(
        "SELECT seq, type, payload FROM events WHERE session = ? ORDER BY seq", (sys.argv[2],)):
    p = json.loads(payload)
    deal += type_ == "dealt"
    if deal == int(sys.argv[3]):
        print(seq, type_, " ".join(f"{k}={v}" for k, v in p.items()))
""",
    "stats": """
import json, sqlite3, sys
from collections import Counter
from fractions import Fraction
con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
deals, nets, seats = Counter(), Counter(), {}
for session, type_, payload in con.execute(
        "SELECT session, type, payload FROM events ORDER BY position"):
    p = json.loads(payload)
    if type_ == "session_started":
        seats[session] = p["seats"]
    elif type_ == "dealt":
        deals.update(seats[session])
    elif type_ == "session_ended":
        for name, net in p["nets"].items():
            nets[name] += Fraction(net)
for name in sorted(nets, key=lambda n: -nets[n]):
    print(name, deals[name], nets[name])
""",
    "leaderboard": """
import json, sqlite3, sys
from fractions import Fraction
con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
for session, payload in con.execute(
        "SELECT session, payload FROM events WHERE type = 'session_ended' ORDER BY position"):
    nets = {k: Fraction(v) for k, v in json.loads(payload)["nets"].items()}
    for rank, name in enumerate(sorted(nets, key=lambda n: -nets[n]), 1):
        print(session, rank, name, nets[name])
""",
    "verify": """
import json, sys
with open(sys.argv[1], encoding="utf-8") as fp:
    events = [json.loads(line) for line in fp]
print(f"{sys.argv[1]}: {len(events)} events")
""",
}


def commands(db: str) -> dict[str, tuple[list[str], list[str]]]:
    """Each read command's arguments and its peer script's arguments."""
    url = f"sqlite:///{db}"
    return {
        "sessions": (["--db", url, "sessions", "--json"], [db]),
        "export": (["--db", url, "export", SESSION], [db, SESSION]),
        "replay": (["--db", url, "replay", SESSION, "--deal", "1"], [db, SESSION, "1"]),
        "stats": (["--db", url, "stats"], [db]),
        "leaderboard": (["--db", url, "leaderboard"], [db]),
        "verify": (["verify", str(LOG)], [str(LOG)]),
    }


CPU: list[float] = []
"""The CPU seconds (user + system) of each process :func:`run` ran, in order."""


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(argv: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one fresh process, its output to a pipe (a failure stops the bench); its
    CPU seconds are appended to :data:`CPU`."""
    c0 = _children_cpu()
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    took = time.perf_counter() - t0
    CPU.append(_children_cpu() - c0)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return took


def import_share(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(seconds in top-level imports, wall seconds) of one run under ``-X importtime``."""
    t0 = time.perf_counter()
    done = subprocess.run([PY, "-X", "importtime", *argv], capture_output=True, env=env, text=True)
    wall = time.perf_counter() - t0
    total = 0
    for line in done.stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        _, cumulative, name = line.split("|")
        if cumulative.strip().isdigit() and name.startswith(" ") and not name.startswith("  "):
            total += int(cumulative)
    return total / 1e6, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="rounds (median of these)")
    ap.add_argument("--keep", metavar="DIR", help="build the store in DIR and keep it")
    args = ap.parse_args()
    where = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-cli-"))
    where.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "COLUMNS": "160"}
    env.pop("BRAG_DB", None)
    # An installed brag runs from its bytecode caches: with PYTHONDONTWRITEBYTECODE set (as in
    # some shells and CI), every process would compile each of our modules from source again
    # (~50-120 ms a command), a cost no user pays. The warm-up round below writes the caches.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    try:
        db = str(where / "store.db")
        if not os.path.exists(db):
            season = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))
            run([BRAG, "--db", f"sqlite:///{db}", "import", *season], env)
        run([BRAG, "--db", f"sqlite:///{db}", "stats"], env)  # the projection, built once
        scripts = {}
        for name, code in PEERS.items():
            scripts[name] = where / f"peer_{name}.py"
            scripts[name].write_text(code.lstrip(), encoding="utf-8")
        cmds = commands(db)
        times: dict[str, list[float]] = {n: [] for n in cmds}
        peers: dict[str, list[float]] = {n: [] for n in cmds}
        cpu: dict[str, list[float]] = {n: [] for n in cmds}
        peers_cpu: dict[str, list[float]] = {n: [] for n in cmds}
        floor: list[float] = []
        for name, (brag_args, peer_args) in cmds.items():  # warm-up: caches written, not timed
            run([BRAG, *brag_args], env)
            run([PY, str(scripts[name]), *peer_args], env)
        for _ in range(args.repeat):
            floor.append(run([PY, "-c", "pass"], env))
            for name, (brag_args, peer_args) in cmds.items():
                times[name].append(run([BRAG, *brag_args], env))
                cpu[name].append(CPU[-1])
                peers[name].append(run([PY, str(scripts[name]), *peer_args], env))
                peers_cpu[name].append(CPU[-1])
        print(
            f"brag read commands as fresh processes, median of {args.repeat} (load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); `python -c pass` "
            f"{statistics.median(floor) * 1e3:.0f} ms"
        )
        print(
            f"{'command':<13}{'brag':>9}{'script':>9}{'ratio':>8}{'target':>8}"
            f"{'CPU brag':>10}{'script':>8}{'ratio':>7}  imports"
        )
        worst = worst_cpu = 0.0
        for name, (brag_args, _) in cmds.items():
            t, p = statistics.median(times[name]), statistics.median(peers[name])
            c, q = statistics.median(cpu[name]), statistics.median(peers_cpu[name])
            imp, wall = import_share([BRAG, *brag_args], env)
            worst, worst_cpu = max(worst, t / p), max(worst_cpu, c / q)
            mark = "" if t / p <= TARGET else "  (over)"
            print(
                f"{name:<13}{t * 1e3:>7.0f}ms{p * 1e3:>7.0f}ms{t / p:>7.1f}x{TARGET:>7.0f}x"
                f"{c * 1e3:>8.0f}ms{q * 1e3:>6.0f}ms{c / q:>6.1f}x  "
                f"{imp * 1e3:.0f} ms of {wall * 1e3:.0f} ms ({imp / wall:.0%}){mark}"
            )
        print(
            f"worst ratio {worst:.1f}x wall, {worst_cpu:.1f}x CPU (target: every one at most "
            f"{TARGET:.0f}x; on a loaded machine the CPU ratio is the steadier)"
        )
    finally:
        if not args.keep:
            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    main()
