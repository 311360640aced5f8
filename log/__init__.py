"""The session log service: :class:`EventStore` (append = fold through the engine + derived events
+ retry, the state cache, import, export, the sessions listing) over a recorder of :mod:`store`,
and :func:`open_store` by URL.

Modules: :mod:`log.service` (the service), :mod:`log.open` (URLs, :data:`DEFAULT_DB`),
:mod:`log.folds` (stored streams through the engine), :mod:`log.rows` (a batch's rows, folded),
:mod:`log.cache` (the service's state cache), :mod:`log.names` (session ids as people spell them),
:mod:`log.steps` (the stream as the replays number it), :mod:`log.annotations` (notes on a step and
a player's remembered cards, beside the stream).

Importing :mod:`log` loads none of them: each name below is imported from its module on first use
(PEP 562), so a command that only lists sessions never loads the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events.lazy import LazyNames

if TYPE_CHECKING:
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
    from log.rows import Appended, ImportResult
    from log.service import EventStore
    from store.records import (
        ORDERS,
        SessionFilter,
        SessionInfo,
        StoredEvent,
        facets_of,
        new_ids,
    )

_WHERE = {
    "ConcurrencyConflict": "events.errors",
    "CorruptSession": "events.errors",
    "IdConflict": "events.errors",
    "ImportConflict": "events.errors",
    "StoreError": "events.errors",
    "StoreMissing": "events.errors",
    "StoreUnavailable": "events.errors",
    "UnknownSession": "events.errors",
    "AnnotationRefused": "log.annotations",
    "Note": "log.annotations",
    "PrivateCards": "log.annotations",
    "add_note": "log.annotations",
    "hide_note": "log.annotations",
    "notes": "log.annotations",
    "private_cards": "log.annotations",
    "set_private_cards": "log.annotations",
    "checked_log": "log.folds",
    "recomputed": "log.folds",
    "stored_states": "log.folds",
    "DEFAULT_DB": "log.open",
    "beside_store": "log.open",
    "open_store": "log.open",
    "resolve_url": "log.open",
    "Appended": "log.rows",
    "ImportResult": "log.rows",
    "EventStore": "log.service",
    "ORDERS": "store.records",
    "SessionFilter": "store.records",
    "SessionInfo": "store.records",
    "StoredEvent": "store.records",
    "facets_of": "store.records",
    "new_ids": "store.records",
}
"""Each public name and the module it is defined in."""

__all__ = [
    "DEFAULT_DB",
    "ORDERS",
    "AnnotationRefused",
    "Appended",
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


_NAMES = LazyNames(__name__, _WHERE, __all__)


def __getattr__(name: str) -> Any:
    return _NAMES.get(name)


def __dir__() -> list[str]:
    return _NAMES.dir()
