"""What the terminal and the page both show: the replay's rows, players' statuses, the sentence
of each step (:mod:`present.narrate`), numbers and amounts as a person reads them, QR codes.

Below the shells (``brag``, ``dashboard``), above ``log``, ``store``, ``engine`` and ``events``;
never ``analytics`` or ``sim``."""
