"""Who may record: one check shared by the Record page (:mod:`dashboard.gate`) and the pad's HTTP
routes (:mod:`dashboard.pad_api`), so a device is unlocked or locked the same way for both."""

from __future__ import annotations

from dashboard import recorder, settings


def device_unlocked(token: str | None) -> bool:
    """True when ``token`` (a device's ``brag_device`` cookie) is a valid unlock token under the
    organiser secret now configured (:func:`dashboard.recorder.token_valid`); False without a
    secret (the app is read-only) or a token."""
    return recorder.token_valid(settings.organiser_secret(), token)
