"""``paused_gc()``: the cyclic garbage collector paused around a batch fold, for a shell to use.

The engine's fold makes no reference cycles (a state points only to older states and to events),
so reference counting frees everything; pausing the cyclic collector spares it from walking a
session's growing chain of states again and again (a tenth of ``bench/replay.py``). The collector
is one per process, so only a single-threaded command may pause it (``brag verify``, ``python -m
sim.report verify``, the benches): never the pure core (``engine/``, ``events/``), never a threaded
server such as the dashboard.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_gc"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pauses the cyclic garbage collector for the ``with`` block and turns it back on after it
    (also on an error); does nothing when it was already off (so pauses nest)."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
