"""Who may record: one check shared by the Record page (:mod:`dashboard.gate`) and the pad's HTTP
routes (:mod:`dashboard.pad_api`), so a device is unlocked or locked the same way for both.

A device's token (:func:`dashboard.recorder.device_token`) carries an id and the generation of
the devices it was issued in. The revocations live in a small JSON file beside the store
(``brag.db-devices``; beside the analytics file for a server store), out of the event log, so
that they survive a restart of the dashboard: the ids "Lock this device" revoked (each kept until
its token would have expired anyway) and the generation "Lock every device" moved on to.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from dashboard import recorder, settings
from present import secret as secret_rule

__all__ = [
    "Revocations",
    "device_unlocked",
    "issue_token",
    "revocations",
    "revoke",
    "revoke_all",
    "unlocked_claims",
]

SUFFIX = "-devices"


@dataclass(frozen=True, slots=True)
class Revocations:
    """The devices' revocations: the current ``generation`` (a token of another one is locked)
    and the ``revoked`` token ids, each with the expiry of its token (Unix seconds)."""

    generation: int = 0
    revoked: dict[str, int] = field(default_factory=dict)


_lock = threading.Lock()
_cache: dict[str, tuple[tuple[int, int, int], Revocations]] = {}


def path() -> Path:
    """The revocations' file for the store the dashboard serves (``brag.db-devices``)."""
    from log import beside_store

    return Path(beside_store(settings.db_url(), SUFFIX, settings.analytics_path()))


def _read(where: Path) -> Revocations:
    """The revocations in ``where``; none for a missing file. Raises ``OSError`` or
    ``ValueError`` for one that cannot be read (the callers lock every device then)."""
    try:
        st = where.stat()
    except FileNotFoundError:
        return Revocations()
    stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    hit = _cache.get(str(where))
    if hit is not None and hit[0] == stamp:
        return hit[1]
    raw = json.loads(where.read_text(encoding="utf-8"))
    found = Revocations(
        int(raw.get("generation", 0)),
        {str(k): int(v) for k, v in dict(raw.get("revoked", {})).items()},
    )
    _cache[str(where)] = (stamp, found)
    return found


def revocations() -> Revocations:
    """The revocations now in force for this store."""
    return _read(path())


def _write(where: Path, value: Revocations) -> None:
    """Replaces the file at once (a temporary file renamed over it), expired ids dropped."""
    now = int(datetime.now(UTC).timestamp())
    data = {
        "generation": value.generation,
        "revoked": {k: v for k, v in sorted(value.revoked.items()) if v > now},
    }
    where.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=where.name + ".", dir=where.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, where)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _secret() -> str | None:
    """The organiser secret, when it is one the dashboard accepts (:mod:`present.secret`)."""
    secret = settings.organiser_secret()
    return None if not secret or secret_rule.problem(secret) else secret


def issue_token() -> str:
    """A new device token under the secret now configured, in the current generation."""
    secret = _secret()
    if secret is None:
        raise ValueError("no organiser secret: the app is read-only")
    return recorder.device_token(secret, generation=revocations().generation)


def unlocked_claims(token: str | None) -> recorder.TokenClaims | None:
    """What ``token`` says when it unlocks a device now (:func:`device_unlocked`), else ``None``."""
    claims = recorder.token_claims(_secret(), token)
    if claims is None:
        return None
    try:
        now = revocations()
    except (OSError, ValueError):
        return None
    if claims.generation != now.generation or claims.id in now.revoked:
        return None
    return claims


def device_unlocked(token: str | None) -> bool:
    """True when ``token`` (a device's ``brag_device`` cookie) is a valid unlock token under the
    organiser secret now configured (:func:`dashboard.recorder.token_claims`), of the current
    generation and not revoked; False without a secret (the app is read-only), a token, or when
    the revocations cannot be read."""
    return unlocked_claims(token) is not None


def revoke(token: str | None) -> bool:
    """Revokes ``token`` ("Lock this device"), here and in every copy of it; True when it was a
    valid token to revoke."""
    claims = recorder.token_claims(_secret(), token)
    if claims is None:
        return False
    with _lock:
        where = path()
        now = _read(where)
        _write(where, Revocations(now.generation, {**now.revoked, claims.id: claims.expiry}))
    return True


def revoke_all() -> int:
    """Revokes every device's token ("Lock every device"): the generation moves on; returns it."""
    with _lock:
        where = path()
        now = _read(where)
        _write(where, Revocations(now.generation + 1, now.revoked))
        return now.generation + 1
