"""Session events: the models of FORMAT.md, the JSON Lines codec and (in :mod:`events.store`)
the append-only event store. The models and codec are pure; only ``events.store`` touches a
database."""
