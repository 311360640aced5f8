"""Who may do what: the organiser's gate and its device tokens (:mod:`~dashboard.access.gate`, its
route :mod:`~dashboard.access.routes`), the one check of a request's rights
(:mod:`~dashboard.access.check`), wrong secrets slowed (:mod:`~dashboard.access.throttle`) and
what any request may be (:mod:`~dashboard.access.guard`)."""
