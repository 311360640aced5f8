"""The statistics feature: the Players, Decisions, Explore and My sessions pages, their widgets and
view models, and the analytics projection as the dashboard reads it
(:mod:`~dashboard.stats.projection`, :mod:`~dashboard.stats.stats_cache`)."""
