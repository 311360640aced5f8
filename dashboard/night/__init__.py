"""The Night feature (issue 36): the Night page (``night_page.py``: the live board of one date's
tables, its TV display, the night's report, the director's desk), what it reads (``nights.py``:
the night and its report per store position and night-facts position, both polled), the board's
HTML (``board.py``, a view model) and the desk (``desk.py``: check-in, stake, flags, finalise;
``desk_seating.py``: the tables). A player's flag is raised from the Replay page
(:mod:`dashboard.replay.flag_panel`: a folder never imports one above it)."""
