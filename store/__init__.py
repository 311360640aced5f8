"""The event store's recorder port and its backends: one stream per session, append-only.

- :mod:`store.records`: the plain data the port speaks (:class:`~store.records.Row`,
  :class:`~store.records.StoredEvent`, :class:`~store.records.SessionInfo`, ...).
- :mod:`store.port`: the recorder port by role (:class:`~store.port.EventRecorder`: a write
  transaction that inserts rows after an expected seq, the reads by stream and by position;
  :class:`~store.port.Catalogue`: the session's catalogue row written in that transaction, the
  listing; the annotations; :class:`~store.port.Recorder`, all of them).
- :mod:`store.memory`, :mod:`store.sqlite`, :mod:`store.postgres`: the backends, with what the SQL
  ones share in :mod:`store.sql`, :mod:`store.catalogue` and :mod:`store.schema`, and each
  thread's connection held in :mod:`store.connections` (PostgreSQL's from SQLAlchemy's pool).

The store knows nothing of the rules: it imports :mod:`events` only. The session log service that
folds through the engine before writing is :mod:`log`.
"""
