"""One dashboard per store (issue 33, class 4): the dashboard serving a store holds it by a row
of the store itself (``brag_devices``, :class:`store.devices.Holder`), so a second ``brag
dashboard`` on the same store is refused whatever path or address reaches it (another folder,
a symlink to the SQLite file, another host on the same PostgreSQL database).

The holder writes its row when it starts (:func:`hold`), moves its ``until`` on every
:data:`RENEW_SECONDS` while it serves (:func:`renew`) and removes it when it stops
(:func:`let_go`). A holder is live while its ``until`` has not passed and, on this host, its
process is alive: a dashboard killed with ``kill -9`` frees the store at once for one started on
the same machine, after :data:`HOLD_SECONDS` for one elsewhere.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from typing import Any, Final

from store.devices import Holder

__all__ = ["HOLD_SECONDS", "RENEW_SECONDS", "hold", "let_go", "live", "me", "renew"]

HOLD_SECONDS: Final = 30
"""How long a holder's row holds the store without being renewed."""
RENEW_SECONDS: Final = 10.0
"""How often the serving dashboard renews its row."""


def me(url: str, holder: str | None = None, pid: int | None = None) -> Holder:
    """This process as the holder of a store it serves at ``url`` (``holder``: its id, a new
    one when not given)."""
    return Holder(
        holder or uuid.uuid4().hex,
        os.getpid() if pid is None else pid,
        socket.gethostname(),
        url,
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0
    return True


def live(holder: Holder | None, now: float | None = None) -> bool:
    """Whether ``holder`` still holds its store at ``now`` (Unix seconds)."""
    if holder is None:
        return False
    if holder.until <= (time.time() if now is None else now):
        return False
    return holder.host != socket.gethostname() or _alive(holder.pid)


def hold(store: Any, mine: Holder) -> Holder | None:
    """Takes the store for ``mine`` (one write transaction) unless another live holder has it:
    ``None`` when taken, else that other holder (nothing written)."""
    with store.recorder.transaction() as tx:
        devices = tx.devices()
        found: Holder | None = devices.holder()
        if found is not None and found.holder != mine.holder and live(found):
            return found
        devices.hold(_until(mine))
    return None


def renew(store: Any, mine: Holder) -> Holder | None:
    """Moves ``mine``'s hold on: :func:`hold` again (a row lost meanwhile, a store made since,
    is taken again unless another live holder took it: that one is answered)."""
    return hold(store, mine)


def let_go(store: Any, mine: Holder) -> None:
    """Removes ``mine``'s row, if it is still its (the dashboard stops)."""
    with store.recorder.transaction() as tx:
        tx.devices().let_go(mine.holder)


def _until(mine: Holder) -> Holder:
    return Holder(mine.holder, mine.pid, mine.host, mine.url, int(time.time()) + HOLD_SECONDS)
