"""The serving dashboard's hold on its store (issue 33, class 4; :mod:`log.holding`): ``brag
dashboard`` takes the store before it becomes the server (``$BRAG_HOLDER``, ``$BRAG_HOLDER_URL``);
this process renews the hold every :data:`log.holding.RENEW_SECONDS` in a thread of its own
(taking it when the store was made after the start) and lets it go when it stops."""

from __future__ import annotations

import atexit
import logging
import os
import threading
from typing import Any

from log import holding
from store.devices import Holder

__all__ = ["start", "stop"]

_log = logging.getLogger("bragbook.instance")
_stop = threading.Event()
_state: dict[str, Any] = {}


def _mine() -> Holder | None:
    holder = os.environ.get("BRAG_HOLDER")
    if not holder:
        return None
    return holding.me(os.environ.get("BRAG_HOLDER_URL", ""), holder)


def _store() -> Any | None:
    """This thread's own handle on the store served (opened once), ``None`` while a SQLite store
    is not made yet."""
    from dashboard.common.settings import db_url
    from log.open import open_store
    from store.sql import sqlite_file

    if "store" not in _state:
        url = db_url()
        path = sqlite_file(url)
        if path is not None and not os.path.exists(path):
            return None
        _state["store"] = open_store(url)
    return _state["store"]


def _keep(mine: Holder) -> None:
    while True:
        try:
            store = _store()
            other = holding.renew(store, mine) if store is not None else None
            if other is not None:
                _log.warning("another dashboard (pid %d on %s) holds the store", other.pid,
                             other.host)  # fmt: skip
        except Exception as err:  # the store down: tried again at the next turn
            _log.warning("the hold on the store was not renewed: %s", str(err)[:200])
        if _stop.wait(holding.RENEW_SECONDS):
            return


def start() -> None:
    """Starts renewing this dashboard's hold (when ``brag dashboard`` took one)."""
    mine = _mine()
    if mine is None or "thread" in _state:
        return
    thread = threading.Thread(target=_keep, args=(mine,), name="bragbook-hold", daemon=True)
    _state["thread"] = thread
    thread.start()
    atexit.register(stop)  # also when the lifespan's end is not run (SIGTERM)


def stop() -> None:
    """Lets the store go (the dashboard stops)."""
    mine = _mine()
    _stop.set()
    thread = _state.get("thread")
    if thread is not None and thread is not threading.current_thread():
        thread.join(timeout=5)  # not renewed after it is let go
    store = _state.pop("store", None)
    if mine is None or store is None:
        return
    try:
        holding.let_go(store, mine)
    except Exception as err:  # the store down: the hold runs out by itself
        _log.warning("the hold on the store was not let go: %s", str(err)[:200])
