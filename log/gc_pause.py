"""``paused_gc()``: the cyclic garbage collector paused around a batch fold, for a shell to use.

The engine's fold makes no reference cycles (a state points only to older states and to events),
so reference counting frees everything; pausing the cyclic collector spares it from walking a
session's growing chain of states again and again (a tenth of ``bench/replay.py``). The collector
is one per process, so only a command's main thread pauses it (``brag verify``, ``python -m
sim.report verify``, ``brag analytics refresh``, a rebuild's worker process, the benches): called
from any other thread (the dashboard's threaded refresh, where two refreshes would race to turn
it back on) it does nothing. Never used by the pure core (``engine/``, ``events/``).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pauses the cyclic garbage collector for the ``with`` block and turns it back on after it
    (also on an error); does nothing when it was already off (so pauses nest) or outside the
    main thread."""
    paused = gc.isenabled() and threading.current_thread() is threading.main_thread()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
