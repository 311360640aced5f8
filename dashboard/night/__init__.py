"""The Night feature (issue 36.3, 36.5, 36.6): the Night page (``night_page.py``: the live board of
one date's tables, its TV display, the night's report), what it reads (``nights.py``: the night
and its report per store position, the store's position polled) and the board's HTML
(``board.py``, a view model)."""
