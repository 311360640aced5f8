"""The dashboard's shared part: the server (:mod:`~dashboard.common.server`), the settings, the keys
of ``st.session_state``, the store's handles and the caches (:mod:`~dashboard.common.cache`), the
pages' table, and the pieces every page draws (:mod:`~dashboard.common.ui`). A feature folder
(record, replay, stats, access) imports from here; nothing here imports a feature, except the
server, which mounts the features' routes."""
