"""The organiser's device tokens (issue 24; issue 33 bound them to a store): signed by
:mod:`itsdangerous` with a key derived from the organiser secret, carrying an id, the generation
of the devices, an expiry and the store they unlock (and, for a table's device, the one table it
records, issue 36); and the constant-time check of a secret. Pure: no Streamlit, no HTTP."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from itsdangerous import BadData, URLSafeSerializer

__all__ = [
    "BY_COOKIE",
    "SESSION_COOKIE",
    "TOKEN_COOKIE",
    "TOKEN_HOURS",
    "TokenClaims",
    "check_secret",
    "device_token",
    "store_tag",
    "token_claims",
    "token_valid",
]


def check_secret(expected: str | None, given: str | None) -> bool:
    """True when an organiser secret is configured and ``given`` matches it (constant time)."""
    if not expected or not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode())


TOKEN_COOKIE = "brag_device"
"""The cookie that carries an unlocked device's token (httponly, SameSite=Strict, path /)."""
BY_COOKIE = "brag_by"
"""The cookie that remembers who records on this device (a name, not a secret)."""
SESSION_COOKIE = "brag_recording"
"""The cookie that remembers the session this device records."""

TOKEN_HOURS = 12
"""How long an unlocked device stays unlocked (a reload, a restored tab, a page switch)."""


SALT = b"bragbook device token v3"
"""What sets device tokens apart from anything else signed under the organiser secret: the key
that signs them is derived from the secret and this salt (never the secret itself), so that a
token tells nothing of the secret and changing the secret revokes every device. v3: signed by
:mod:`itsdangerous` (a v2 token, the HMAC written here before, is no longer taken: a device
unlocks once more)."""


def _signer(secret: str) -> URLSafeSerializer:
    """The :class:`itsdangerous.URLSafeSerializer` of device tokens under ``secret``: claims as
    compact JSON, URL-safe base64, an HMAC-SHA256 under a key derived from the secret and
    :data:`SALT`, checked in constant time."""
    return URLSafeSerializer(secret, salt=SALT, signer_kwargs={"digest_method": hashlib.sha256})


@dataclass(frozen=True, slots=True)
class TokenClaims:
    """What a valid device token says: its ``id`` (what "Lock this device" revokes), the
    ``generation`` of the devices it was issued in (what "Lock every device" moves on), its
    ``expiry`` in Unix seconds, the ``store`` it unlocks (:func:`store_tag` of the store's
    id: a token unlocks no other store, issue 33) and the ``table`` a table's device records
    (issue 36; ``""``: the organiser's device, every table)."""

    id: str
    generation: int
    expiry: int
    store: str = ""
    table: str = ""


def store_tag(store_id: str) -> str:
    """The store a token names: 16 hex digits of the SHA-256 of the store's id
    (:attr:`log.EventStore.store_id`)."""
    return hashlib.sha256(b"bragbook store\0" + store_id.encode()).hexdigest()[:16]


def device_token(
    secret: str,
    now: datetime | None = None,
    hours: float = TOKEN_HOURS,
    *,
    generation: int = 0,
    token_id: str | None = None,
    store: str = "0" * 16,
    table: str = "",
) -> str:
    """A signed, expiring token for a device the organiser unlocked: the claims ``[ID,
    GENERATION, EXPIRY, STORE]`` signed by :func:`_signer` under ``secret`` (``PAYLOAD.SIGNATURE``,
    URL-safe base64), a random id (16 hex digits, unless ``token_id``), the generation of the
    devices, the expiry in Unix seconds (``now`` plus ``hours``) and the store it unlocks
    (``store``: :func:`store_tag` of its id); for a table's device (issue 36) a fifth claim,
    the ``table`` it records (its name as recorded), and no other. Kept in the device's cookie;
    :func:`token_claims` checks it (and :func:`dashboard.access.check.device_unlocked` its store
    and revocation)."""
    when = now if now is not None else datetime.now(UTC)
    expiry = int(when.timestamp() + hours * 3600)
    tid = token_id if token_id is not None else secrets.token_hex(8)
    claims: list[object] = [tid, int(generation), expiry, store]
    if table:
        claims.append(table)
    return _signer(secret).dumps(claims)


def token_claims(
    secret: str | None, token: str | None, now: datetime | None = None
) -> TokenClaims | None:
    """What ``token`` says when it was signed under ``secret`` (:func:`_signer`, constant-time
    check) and has not expired at ``now``; ``None`` for no secret, no token, a malformed, forged
    or expired one."""
    if not secret or not token:
        return None
    try:
        claims = _signer(secret).loads(token)
    except (BadData, ValueError):  # forged, malformed (a character no cookie holds)
        return None
    match claims:
        case [str(tid), int(generation), int(expiry), str(store), *rest] if _table(rest):
            when = now if now is not None else datetime.now(UTC)
            if when.timestamp() >= expiry:
                return None
            return TokenClaims(tid, generation, expiry, store, rest[0] if rest else "")
    return None


def _table(rest: list[object]) -> bool:
    """Whether the claims after the store are none (the organiser's device) or one table's
    name (a table's device)."""
    return not rest or (len(rest) == 1 and isinstance(rest[0], str) and bool(rest[0]))


def token_valid(secret: str | None, token: str | None, now: datetime | None = None) -> bool:
    """True when ``token`` was signed under ``secret`` and has not expired at ``now``
    (:func:`token_claims`); revocation is :func:`dashboard.access.check.device_unlocked`'s."""
    return token_claims(secret, token, now) is not None
