"""The Record feature: the organiser's page (``record_page.py``), its widgets (the start form, the
correction panel, the gate's prompt), the pad (``pad.js``, ``pad.css``, its documents and keys), and
the pad's HTTP routes (:mod:`~dashboard.record.routes`). The use cases it calls (record a tap,
start a session, correct a step) are below the shells, in :mod:`log`."""
