"""The rules of Three-Card Brag, one RULES section a module (see ``../shared/RULES.md``).

- :mod:`~engine.rules.setup`: RULES 1 to 3.2 (seats, the first dealer, the shuffle);
- :mod:`~engine.rules.deal`: RULES 3.3 to 4.1 and 6.3 (the pack, the deal, the ante);
- :mod:`~engine.rules.betting`: RULES 5.1 to 5.7 (looking, turns, levels, folding, seeing);
- :mod:`~engine.rules.showdown`: RULES 5.8 to 5.9 and 6.6;
- :mod:`~engine.rules.carry`: RULES 6.1 to 6.7 (a carried pot, retained and two hands);
- :mod:`~engine.rules.voided`: corrections (FORMAT.md ``voided``).

Each handler takes ``(state, event)`` and returns the next state or raises
:class:`~events.errors.RuleViolation` citing its section; :mod:`engine.apply` dispatches to them.
The ``can_*``/cost predicates beside them are what :mod:`engine.legal` and :mod:`analytics.facts`
ask.
"""
