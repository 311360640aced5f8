"""A hand to share (issue 21, item 3): how long ``brag share`` takes to make a 20-step GIF and a
PNG, and how large they are (``make bench``).

1. Replays a bundled season session (every card recorded) and takes the first 20 steps of its
   longest deal, viewed as the player who deals it.
2. Times, ``--repeat`` times, keeping each best: (a) the GIF of those 20 steps as
   :func:`present.share.share` makes it in a new process (``brag share``): the frames chosen by
   :meth:`Replay.sight`, every distinct leaf of their pictures drawn once by resvg on one
   sheet, each frame laid from those tiles by Pillow where it differs from the one
   before (:mod:`present.animation`; the tiles a process keeps let go before each run), one
   palette, Pillow's GIF; (a') the same GIF again in the same process (the tiles kept: what
   the Replay page's server pays for a second picture of the table); (b) the PNG of the 20th
   step; then (c) the frames' SVGs, and every frame drawn whole by resvg in one thread (what
   (a) saves on). Wall-clock seconds (what a person waits) and CPU seconds of the process
   (``time.process_time``, all threads: less blurred by the other work on a shared machine).
3. Prints each as a ratio to the limits: **200 ms** and **300 KiB** (target: under both), with the
   machine's load average, since other work on the two cores slows the wall clock. Exits 0.

Usage: ``python bench/share.py [--repeat 5] [--steps 20]``.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from events.codec import read_file  # noqa: E402
from present import animation, share  # noqa: E402
from present.replay import Replay  # noqa: E402

LIMIT_S = 0.200
LIMIT_BYTES = 300 * 1024
SESSION = ROOT / "data" / "season" / "2026-09-24-top-1.jsonl"


def best(
    fn: Callable[[], object], repeat: int, before: Callable[[], None] | None = None
) -> tuple[float, float, object]:
    """The best wall-clock and CPU seconds of ``repeat`` calls of ``fn`` (each after ``before``,
    not timed), and its last result."""
    walls, cpus = [], []
    out: object = None
    for _ in range(repeat):
        if before is not None:
            before()
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return min(walls), min(cpus), out


def line(what: str, wall: float, cpu: float, size: int | None) -> str:
    text = (
        f"{what:<28} {wall * 1000:7.0f} ms wall ({wall / LIMIT_S:4.2f}x the limit), "
        f"{cpu * 1000:5.0f} ms CPU ({cpu / LIMIT_S:4.2f}x)"
    )
    if size is not None:
        text += f", {size / 1024:6.1f} KiB ({size / LIMIT_BYTES:4.2f}x)"
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20)
    args = ap.parse_args()

    rp = Replay.of([e for _, e in read_file(str(SESSION))])
    sl = max((s for s in rp.slices if s.deal), key=lambda s: s.steps)
    k = min(args.steps, sl.steps)
    viewer = rp.states[sl.start].dealer_name
    step = rp.labels[sl.start + k - 1].step
    print(
        f"{SESSION.stem}: deal {sl.deal} ({sl.steps} steps), its first {k} steps viewed as "
        f"{viewer}; best of {args.repeat}; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )

    sight = share.sight_of(rp, sl.deal, viewer)
    share.share(sight, step, "gif")  # warm: imports, the fonts' first load
    gif = lambda: share.share(sight, step, "gif")  # noqa: E731
    wall, cpu, data = best(gif, args.repeat, animation.forget)
    assert isinstance(data, bytes)
    from PIL import Image

    frames = Image.open(io.BytesIO(data)).n_frames
    print(line(f"GIF, {frames} frames, {share.GIF_WIDTH} px", wall, cpu, len(data)))
    wall, cpu, again = best(gif, args.repeat)
    assert again == data  # the tiles kept draw the same GIF
    print(line("  the same GIF again", wall, cpu, None))
    wall, cpu, data = best(lambda: share.share(sight, step, "png"), args.repeat)
    assert isinstance(data, bytes)
    print(line(f"PNG, {share.PNG_WIDTH} px", wall, cpu, len(data)))

    # the GIF's parts: its frames drawn whole, one at a time, as a floor to compare with
    shots = share.steps(sight, step)
    wall, cpu, svgs = best(lambda: [share.picture(s) for s in shots], args.repeat)
    assert isinstance(svgs, list)
    print(line("  the frames' SVGs", wall, cpu, None))
    wall, cpu, _ = best(
        lambda: [share.png(s, share.GIF_WIDTH) for s in svgs], max(1, args.repeat // 2)
    )
    print(line("  each frame drawn whole", wall, cpu, None))
    print(
        f"limits: {LIMIT_S * 1000:.0f} ms and {LIMIT_BYTES // 1024} KiB; "
        f"a ratio under 1.00 meets the target; load average now {os.getloadavg()[0]:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
