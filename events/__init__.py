"""Session events: the pure vocabulary of FORMAT.md (models, codec, upcasting, cards, amounts,
errors). The event store is :mod:`store` (the recorder port and its backends) with the session log
service :mod:`log` above it; nothing here touches a database."""
