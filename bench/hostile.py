"""Refusing hostile logs: every log under 1 KiB is refused (or accepted) in under 50 ms
(issue 13, item 5; ``make bench``).

1. Builds a corpus of logs under 1 KiB: the adversarial trial's inputs (huge exponents such as
   ``1e40000000``, tiny ones, long digit runs, Unicode digits, nesting as deep as 1 KiB allows,
   lone surrogates, control and bidi characters in names, rule parameters past their bounds, seqs
   out of place) and random mutations of the card example's first lines (numbers replaced by
   those, lines dropped or repeated, bytes flipped), each written to a file.
2. Times, for each file, what ``brag verify`` does (``read_file`` then ``verify_events``) and
   what ``brag import`` checks before it writes (``log.checked_log``), the best of
   ``--repeat`` runs in wall-clock time (``time.perf_counter``), in this process.
3. Prints how many were refused, the slowest input (its text, cut) with its time, and the ratio
   of that time to the 50 ms limit measured in the same run (under 1.0 meets the target). Also
   times ``/dev/zero`` (no line end, ever): refused at the 1 MiB line limit. Exits 0 either way.

Usage: ``python bench/hostile.py [--mutations 2000] [--repeat 3] [--seed 13]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.fold import verify_events  # noqa: E402
from events.codec import read_file  # noqa: E402
from events.errors import BragError  # noqa: E402
from log.folds import checked_log  # noqa: E402
from log.gc_pause import paused_gc  # noqa: E402

LIMIT_S = 0.050
CARD = (ROOT / "data" / "examples" / "card_example.jsonl").read_text().splitlines()
HEAD = CARD[:9]  # session_started ... A's first bet: under 1 KiB

NUMBERS = [
    "1e40000000", "1e10000000", "-1e40000000", "1e-40000000", "1e5000", "1e-5000",
    "9" * 41, "9" * 400, "10000000000", "3000000000", "2147483648", "0", "-1", "1.5",
    '"1/1073741824"', '"٢"', '"１２"', '"1e5000"', '"9999999999999/3"', "true", "null",
]  # fmt: skip


def trial_inputs() -> list[str]:
    """The trial's hand-made inputs, each under 1 KiB."""
    first = json.loads(CARD[0])
    out = ["[" * 500 + "]" * 500, '{"a":' * 120 + "1" + "}" * 120, "", "\x00" * 900, "{" * 1000]
    for n in NUMBERS:
        out.append("\n".join([*HEAD[:8], f'{{"type": "bet", "player": "A", "level": {n}}}']))
        out.append(HEAD[0].replace('"seq": 1}', f'"seq": {n}}}'))
        for field in ("pots", "ante", "open_max", "raise_max"):
            e = dict(first, rules={field: "@@"})
            out.append(json.dumps(e).replace('"@@"', n))
    for bad in ("\\u001b[2J", "\\r", "\\u0000", "\\n", "\\u202e", "\\ud800", "\\u2028"):
        out.append(HEAD[0].replace('"A"', f'"A{bad}"', 1))
        out.append(HEAD[0].replace('"card-example"', f'"s{bad}"', 1))
    return out


def mutations(rng: random.Random, count: int) -> list[str]:
    """Random mutations of the first lines of the card example, each under 1 KiB."""
    out = []
    while len(out) < count:
        lines = list(HEAD[: rng.randint(1, len(HEAD))])
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(lines))
            how = rng.choice(["number", "drop", "repeat", "flip", "cut"])
            if how == "number":
                try:
                    e = json.loads(lines[k])
                except ValueError:  # already broken by an earlier mutation
                    continue
                if not isinstance(e, dict):
                    continue
                key = rng.choice([x for x in e if x != "type"] or ["seq"])
                e[key] = "@@"
                lines[k] = json.dumps(e).replace('"@@"', rng.choice(NUMBERS))
            elif how == "drop" and len(lines) > 1:
                del lines[k]
            elif how == "repeat":
                lines.insert(k, lines[k])
            elif how == "flip" and lines[k]:
                j = rng.randrange(len(lines[k]))
                lines[k] = (
                    lines[k][:j] + chr(rng.choice([0, 27, 34, 92, 123, 0x202E])) + lines[k][j + 1 :]
                )
            elif how == "cut":
                lines[k] = lines[k][: rng.randrange(len(lines[k]) + 1)]
        text = "\n".join(lines)
        if len(text.encode("utf-8", "surrogatepass")) < 1024:
            out.append(text)
    return out


def verify(path: str) -> bool:
    try:
        events = read_file(path)
        if events:
            with paused_gc():
                verify_events(events)
    except BragError:
        return False
    return bool(events)


def check(path: str) -> bool:
    try:
        checked_log(path)
    except BragError:
        return False
    return True


def best(fn: Callable[[str], bool], path: str, repeat: int) -> tuple[float, bool]:
    times = []
    ok = False
    for _ in range(repeat):
        t = time.perf_counter()
        ok = fn(path)
        times.append(time.perf_counter() - t)
    return min(times), ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutations", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    corpus = trial_inputs() + mutations(random.Random(args.seed), args.mutations)
    slowest = (0.0, "", "")
    refused = 0
    with tempfile.TemporaryDirectory(prefix="brag-hostile-") as folder:
        for k, text in enumerate(corpus):
            path = os.path.join(folder, f"{k}.jsonl")
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as fp:
                fp.write(text + "\n")
            for name, fn in (("verify", verify), ("import check", check)):
                t, ok = best(fn, path, args.repeat)
                refused += (not ok) and name == "verify"
                if t > slowest[0]:
                    slowest = (t, name, text)
    t_zero = None
    if os.path.exists("/dev/zero"):
        t_zero, _ = best(verify, "/dev/zero", 1)
    t, name, text = slowest
    shown = text if len(text) <= 160 else text[:157] + "..."
    print(f"{len(corpus)} logs under 1 KiB, {refused} refused by verify (import agrees or not: "
          "tests/hostile/test_hostile_properties.py)")  # fmt: skip
    print(f"slowest: {t * 1000:.1f} ms ({name}) for {shown!r}")
    print(f"ratio to the {LIMIT_S * 1000:.0f} ms limit: {t / LIMIT_S:.2f} (under 1.00 meets it)")
    if t_zero is not None:
        print(f"/dev/zero refused at the 1 MiB line limit in {t_zero * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
