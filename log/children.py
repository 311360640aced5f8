"""Worker processes that end with their parent, and what a dead process left behind told apart
from what a live one holds (issue 33, class 7: a process that dies leaves nothing behind).

A ``ProcessPoolExecutor``'s workers (the rebuild's folds, :mod:`analytics.parallel`; the
dashboard's picture rasters, :mod:`dashboard.replay.share`) wait on a pipe from their parent; when
the parent is killed (``kill -9``, the OOM killer) a worker busy with a long fold does not read
that pipe until it is done, and kept running for minutes, holding its memory and, through it,
the resource tracker. :func:`end_with_parent` is the pools' ``initializer``:

- on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (through ``ctypes``): the kernel kills the
  worker the moment its parent dies, whatever the worker is doing (a DuckDB write, resvg: C code
  that checks nothing). Chosen over a check in the worker's loop, which runs only between two
  batches (a batch of a long session is seconds). The signal is tied to the parent *thread* that
  started the worker, so the pools are started from a thread that outlives them (the command's
  main thread; the dashboard's picture thread, which lives as long as the server);
- everywhere, as well, a daemon thread that looks every :data:`WATCH_EVERY` seconds whether the
  parent is gone (``os.getppid()`` changed: the worker was handed to another process) and ends
  the worker then (``os._exit``): the portable fallback where ``prctl`` is missing (macOS, the
  BSDs), and a second guard on Linux. Both also close the race of a parent that dies before
  the worker has set them up (the parent's id is checked once they are in place).

:func:`alive` says whether a process id names a running process, for the clean-up of what a
killed build left (:mod:`analytics.building`, :mod:`dashboard.stats.projection`): a file whose name
carries a dead process's id is removed; one of a live process (or of an id that cannot be
checked) never is.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import sys
import threading
import time

__all__ = ["WATCH_EVERY", "alive", "end_with_parent", "remove_stale"]

WATCH_EVERY = 0.5
"""Seconds between two looks of the fallback watch at the parent."""

_PR_SET_PDEATHSIG = 1


def _death_signal() -> bool:
    """``prctl(PR_SET_PDEATHSIG, SIGKILL)`` for this process; True when it was set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCH_EVERY)
        if os.getppid() != parent:
            os._exit(1)  # the parent is gone: nothing of this worker's is wanted any more


def end_with_parent(parent: int) -> None:
    """Makes this process (a pool's worker, started by the process ``parent``) end when its
    parent does (see the module): the death signal on Linux, a watch thread everywhere; ends at
    once when the parent is already gone. A pool's ``initializer``, given ``os.getpid()`` of
    the parent as ``initargs``."""
    _death_signal()
    if os.name == "posix":
        threading.Thread(target=_watch, args=(parent,), name="end-with-parent", daemon=True).start()
        if os.getppid() != parent:
            os._exit(1)


def alive(pid: int) -> bool:
    """Whether ``pid`` names a running process of this machine (a zombie counts as gone). True
    where it cannot be told (Windows, where signal 0 is not a question): what such a process
    left is then kept."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            state = f.read().rsplit(")", 1)[-1].split()[:1]
    except OSError:  # no /proc (macOS), or it ended just now
        return True
    return state != ["Z"]


def remove_stale(folder: str, pattern: re.Pattern[str]) -> list[str]:
    """Removes the entries of ``folder`` whose name matches ``pattern`` (ours: its group
    ``pid`` the id of the process that made it) and whose process is gone (:func:`alive`): a
    file, or a folder with what is in it. Returns the paths removed; one that cannot be
    removed (another user's, a race with another clean-up) is left without a word."""
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        found = pattern.fullmatch(name)
        if found is None or alive(int(found.group("pid"))):
            continue
        path = os.path.join(folder, name)
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
        except OSError:
            continue
        removed.append(path)
    return removed
