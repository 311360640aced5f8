"""The session log service: :class:`EventStore` (append = fold through the engine + derived events
+ retry, the state cache, import, export, the sessions listing) over a recorder of :mod:`store`,
and :func:`open_store` by URL.

Modules: :mod:`log.service` (the service), :mod:`log.open` (URLs, :data:`DEFAULT_DB`),
:mod:`log.folds` (stored streams through the engine), :mod:`log.rows` (a batch's rows, folded),
:mod:`log.cache` (the service's state cache), :mod:`log.names` (session ids as people spell them),
:mod:`log.steps` (the stream as the replays number it), :mod:`log.annotations` (notes on a step and
a player's remembered cards, beside the stream).

Each name has one address, its module (``from log.service import EventStore``); this file imports
nothing, so a command that only lists sessions never loads the engine.
"""
