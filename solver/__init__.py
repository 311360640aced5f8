"""The solved heads-up game and graded decisions (issue 38; docs/review.md).

Start with :mod:`solver.game` (the two-player deal of RULES 4 to 6 as a public tree, and the stated
abstraction), then :mod:`solver.cfr` (CFR+ in numpy), :mod:`solver.best_response` (the independent
check), :mod:`solver.solution` (the solved games, cached by their sha256) and :mod:`solver.review`
(a session's decisions graded by :mod:`solver.grades`). Imports engine, events and timeline only.
"""
