"""The dashboard's view models: what the pages and components show, worked out without Streamlit
(frames of the replayer, the pad's rows, statistic cells). Nothing here imports ``streamlit``
(``tests/test_architecture.py`` checks it); the pages and widgets beside this package draw them.

- :mod:`~dashboard.viewmodels.frames`: a deal's frames for the browser replayer, typed
  (:class:`~dashboard.viewmodels.frames.ReplayerData`: the keys ``replayer*.js`` reads);
- :mod:`~dashboard.viewmodels.odds`: a step's chances in words and counts, and what each action
  costs;
- :mod:`~dashboard.viewmodels.links`: a replay position's link and the rows a thumb opens;
- :mod:`~dashboard.viewmodels.own`: a player's own sessions and deals (My sessions);
- :mod:`~dashboard.viewmodels.stats`: the statistics pages' charts and result tables.

Their old homes (``dashboard.frames``, ``dashboard.view``, ``dashboard.own``, and
``dashboard.stats_view`` for the statistics' words) re-export their names.
"""
