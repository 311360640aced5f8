"""The use cases, the layer just below the shells (issue 34, item 2): each a typed command and one
plain function that takes it, with the store passed in, answering a typed result.

- :mod:`service.tap`: record a tap of the Record page's pad (``POST /api/tap``);
- :mod:`service.amend`: plan and store the correction of a step ("Correct a step");
- :mod:`service.notes`: add a note on a step, the organiser hides one (``/api/notes``);
- :mod:`service.start`: start a session from the start form's fields.

No Streamlit and no HTTP here: the routes and widgets (:mod:`dashboard.record.routes`,
:mod:`dashboard.record.amend`, :mod:`dashboard.record.start`,
:mod:`dashboard.replay.notes_routes`) parse what they are sent, call the function and answer its
result; ``tests/service`` calls them on an in-memory or SQLite store. What the pad's keys record
(:mod:`dashboard.record.recorder`, a shell's view model) is passed in as a function.
"""
