"""The session log service: :class:`EventStore` (append = fold through the engine + derived events
+ retry, the state cache, import, export, the sessions listing) over a recorder of :mod:`store`,
and :func:`open_store` by URL.

Modules: :mod:`log.service` (the service), :mod:`log.open` (URLs, :data:`DEFAULT_DB`),
:mod:`log.folds` (stored streams through the engine), :mod:`log.rows` (a batch's rows),
:mod:`log.steps` (the stream as the replays number it), :mod:`log.annotations` (notes on a step and
a player's remembered cards, beside the stream).
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
from log.annotations import (
    AnnotationRefused,
    Note,
    PrivateCards,
    add_note,
    hide_note,
    notes,
    private_cards,
    set_private_cards,
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
    "AnnotationRefused",
    "ConcurrencyConflict",
    "CorruptSession",
    "EventStore",
    "IdConflict",
    "ImportConflict",
    "ImportResult",
    "Note",
    "PrivateCards",
    "SessionFilter",
    "SessionInfo",
    "StoreError",
    "StoreMissing",
    "StoreUnavailable",
    "StoredEvent",
    "UnknownSession",
    "add_note",
    "beside_store",
    "checked_log",
    "facets_of",
    "hide_note",
    "new_ids",
    "notes",
    "open_store",
    "private_cards",
    "recomputed",
    "resolve_url",
    "set_private_cards",
    "stored_states",
]
