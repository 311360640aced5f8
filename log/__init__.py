"""The session log service: :class:`EventStore` (append = fold through the engine + derived events
+ retry, the state cache, import, export, the sessions listing) over a recorder of :mod:`store`,
and :func:`open_store` by URL.

Modules: :mod:`log.service` (the service), :mod:`log.open` (URLs, :data:`DEFAULT_DB`),
:mod:`log.folds` (stored streams through the engine), :mod:`log.rows` (a batch's rows).
"""

from events.errors import (
    ConcurrencyConflict,
    CorruptSession,
    IdConflict,
    ImportConflict,
    StoreError,
    StoreMissing,
    StoreUnavailable,
    UnknownSession,
)
from log.folds import checked_log, recomputed, stored_states
from log.open import DEFAULT_DB, beside_store, open_store, resolve_url
from log.rows import ImportResult
from log.service import EventStore
from store.records import (
    ORDERS,
    SessionFilter,
    SessionInfo,
    StoredEvent,
    facets_of,
    new_ids,
)

__all__ = [
    "DEFAULT_DB",
    "ORDERS",
    "ConcurrencyConflict",
    "CorruptSession",
    "EventStore",
    "IdConflict",
    "ImportConflict",
    "ImportResult",
    "SessionFilter",
    "SessionInfo",
    "StoreError",
    "StoreMissing",
    "StoreUnavailable",
    "StoredEvent",
    "UnknownSession",
    "beside_store",
    "checked_log",
    "facets_of",
    "new_ids",
    "open_store",
    "recomputed",
    "resolve_url",
    "stored_states",
]
