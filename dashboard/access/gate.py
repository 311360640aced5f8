"""The organiser's gate on the Record page: a device is unlocked by the organiser secret once and
then keeps a signed, expiring token in a cookie (:mod:`dashboard.record.recorder` signs and checks
it);
"Lock this device" revokes it, "Lock every device" revokes them all (in the store, for every
dashboard of it: :mod:`dashboard.access.check`); a write the token no longer allows is said above
the
secret's form (:func:`locked_out`); a second device joins by the QR code of the page's address;
wrong secrets are counted and slowed (:mod:`dashboard.access.throttle`)."""

from __future__ import annotations

import logging
import secrets
from urllib.parse import unquote

import streamlit as st

from dashboard.access import check as access
from dashboard.access import routes as gate_api
from dashboard.access import throttle, tokens
from dashboard.access.tokens import TOKEN_COOKIE
from dashboard.common import settings
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from present import secret as secret_rule


def cookie(name: str) -> str | None:
    """A cookie this browser sent when the page was opened (``st.context.cookies``), decoded."""
    try:
        value = st.context.cookies.get(name)
    except Exception:  # no browser behind the run
        return None
    return unquote(value) if isinstance(value, str) and value else None


# --- the gate -------------------------------------------------------------------------------------

_log = logging.getLogger("bragbook.gate")
if not _log.handlers:  # the server's log (Streamlit's own loggers do not propagate)
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    _log.addHandler(_handler)
    _log.setLevel(logging.INFO)

_COOKIE_JS = """
export default function (component) {
  const code = component.data && component.data.code;
  window.__bragCookieCodes = window.__bragCookieCodes || new Set();
  if (!code || window.__bragCookieCodes.has(code)) return;
  window.__bragCookieCodes.add(code);
  fetch('/api/device-cookie', {
    method: 'POST', credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }),
  });
}
"""

_cookie = st.components.v2.component("bragbook.device_cookie", js=_COOKIE_JS)


def _hand_cookie(token: str | None) -> None:
    """Has the browser set (``token``) or clear (``None``) its HttpOnly ``brag_device`` cookie:
    the server does it (:mod:`dashboard.access.routes`) for a one-time code handed to this page, as
    a
    Streamlit script cannot set an HttpOnly cookie itself. Once per token and session."""
    if st.session_state.get(keys.COOKIE_FOR, "") != token:
        st.session_state[keys.COOKIE_CODE] = gate_api.issue(token)
        st.session_state[keys.COOKIE_FOR] = token
    _cookie(key=keys.DEVICE_COOKIE, data={"code": st.session_state[keys.COOKIE_CODE]})


def _client_keys() -> list[str]:
    """Who is guessing: the client's address (``local`` for this machine) and this session."""
    try:
        ip = st.context.ip_address
    except Exception:  # no browser behind the run
        ip = None
    if keys.GATE_SESSION not in st.session_state:
        st.session_state[keys.GATE_SESSION] = secrets.token_hex(4)
    if not isinstance(ip, str) or not ip:  # None: this machine (loopback)
        ip = "local"
    return [f"ip:{ip}", f"session:{st.session_state[keys.GATE_SESSION]}"]


def check_given(secret: str, given: str | None) -> bool:
    """Whether ``given`` is the organiser secret, answered after the delay this client's and
    everyone's failures call for (:mod:`dashboard.access.throttle`, slept in this session's own
    thread); each failure is one line of the server's log."""
    keys = _client_keys()
    attempt = throttle.THROTTLE.attempt(keys)
    if attempt.wait > 0:
        throttle.THROTTLE.sleep(attempt.wait)
    if tokens.check_secret(secret, given):
        throttle.THROTTLE.succeeded(keys)
        return True
    counts = throttle.THROTTLE.failed(keys)
    _log.warning(
        "wrong organiser secret from %s (%s): failure %d from this address, %d in this "
        "session, %d in all within the hour; answered after %.1f s",
        keys[0][3:],
        keys[1],
        counts[keys[0]],
        counts[keys[1]],
        throttle.THROTTLE.total(),
        attempt.wait,
    )
    return False


def organiser_unlocked() -> bool:
    """True when this device is unlocked: the organiser gave the secret here, now or within
    :data:`~dashboard.access.tokens.TOKEN_HOURS` (a signed, expiring, revocable token in this
    session
    or in the device's HttpOnly cookie, :func:`~dashboard.access.check.device_unlocked`; the secret
    itself is never sent back). Without a secret configured (or one too short) the page says
    the app is read-only."""
    secret = settings.organiser_secret()
    if not secret:
        st.warning(
            "**Read-only.** Recording needs the organiser secret, and none is set: set "
            "`BRAG_ORGANISER_SECRET` in the environment, or `organiser_secret` in "
            "`.streamlit/secrets.toml`, and restart the dashboard.",
            icon=":material/lock:",
        )
        return False
    problem = secret_rule.problem(secret)
    if problem:
        st.warning(f"**Read-only:** {md(problem)}; restart the dashboard.", icon=":material/lock:")
        return False
    token = device_token()
    if access.recording_unlocked(token):
        st.session_state[keys.DEVICE_TOKEN] = token
        _hand_cookie(str(token))
        return True
    st.session_state.pop(keys.DEVICE_TOKEN, None)
    if st.session_state.get(keys.LOCKED):
        _hand_cookie(None)
    refused = st.session_state.pop(keys.LOCKED_OUT, None)
    if refused:
        st.error(md(refused), icon=":material/lock:")
    with st.form(keys.UNLOCK_FORM):
        given = st.text_input("Organiser secret", type="password", key=keys.SECRET_INPUT)
        ok = st.form_submit_button("Unlock recording", type="primary")
    if ok:
        if check_given(secret, given):
            st.session_state[keys.DEVICE_TOKEN] = access.issue_token()
            st.session_state.pop(keys.LOCKED, None)
            st.rerun()
        st.error("That is not the organiser secret.")
    st.info(
        f"The app is read-only until the organiser secret is given. This device then stays "
        f"unlocked for {tokens.TOKEN_HOURS} hours, or until it is locked.",
        icon=":material/lock:",
    )
    access.store_answers()  # a store that cannot be reached: said in one line (faults.guarded)
    return False


def device_token() -> str | None:
    """The token this device holds: the one unlocked in this session, else its ``brag_device``
    cookie (unless the device was locked here)."""
    token = st.session_state.get(keys.DEVICE_TOKEN)
    if token is None and not st.session_state.get(keys.LOCKED):
        token = cookie(TOKEN_COOKIE)
    return str(token) if token else None


def locked_out(message: str) -> None:
    """A write this device's token no longer allowed (:class:`dashboard.access.check.DeviceLocked`,
    nothing stored): the device is locked here, and the gate says ``message`` above the
    secret's form on the page's next drawing. Safe inside a widget callback."""
    st.session_state.pop(keys.DEVICE_TOKEN, None)
    st.session_state[keys.LOCKED] = True
    st.session_state[keys.LOCKED_OUT] = message


def lock() -> None:
    """Locks this device: revokes its token (every copy of it, for good) and forgets it here
    and in its cookie."""
    access.revoke(st.session_state.pop(keys.DEVICE_TOKEN, None))
    st.session_state[keys.LOCKED] = True


def lock_all() -> None:
    """Locks every device unlocked so far, this one too (:func:`dashboard.access.check.revoke_all`,
    checked for this device's token in the same write: a device locked since the button was
    drawn locks nobody, and is told so)."""
    try:
        access.revoke_all(by=device_token() or "")
    except access.DeviceLocked as err:
        locked_out(err.message)
        return
    lock()


# --- join and lock --------------------------------------------------------------------------------


def device_table() -> str:
    """The one table this device records (issue 36), ``""`` for the organiser's device (or a
    locked one)."""
    claims = access.unlocked_claims(device_token())
    return claims.table if claims is not None else ""


def join_and_lock() -> None:
    """The QR code of this page's address for a second device, a link that unlocks a device for
    one table (issue 36), "Lock this device" and "Lock every device"; a table's device is told
    the one table it records, and may only lock itself."""
    table = device_table()
    if table:
        st.info(
            f"This device records {md(access.table_words(table))} only (the organiser "
            "unlocked it for that table).",
            icon=":material/table_restaurant:",
        )
        st.button("Lock this device", icon=":material/lock:", key=keys.LOCK, on_click=lock)
        return
    url = join_url()
    if url:
        from present import qr

        st.image(qr.png(url), width=180)
        st.caption(
            f"A second device joins at {md(url)} (scan the code), then unlocks with the secret."
        )
        if any(h in url for h in ("//localhost", "//127.", "//[::1]")):
            st.caption(
                "That is this machine's own address, which another device cannot open: serve "
                "the club's network with `brag dashboard --lan` (README, Recording at the club)."
            )
    table_device()
    st.button("Lock this device", icon=":material/lock:", key=keys.LOCK, on_click=lock)
    st.button(
        "Lock every device",
        icon=":material/lock_reset:",
        key=keys.LOCK_ALL,
        on_click=lock_all,
        help="Revokes every device unlocked so far, this one too: each must be given the "
        "secret again.",
    )


def _make_table_link() -> None:
    """The button's callback: a token for the table chosen and its one-time link."""
    table = str(st.session_state.get(keys.TABLE_DEVICE_FOR) or "").strip()
    if not table:
        st.session_state[keys.TABLE_DEVICE_LINK] = ("", "")
        return
    base = (join_url() or "").rsplit("/", 1)[0]
    link = gate_api.table_link(base, access.issue_token(table))
    st.session_state[keys.TABLE_DEVICE_LINK] = (table, link)


def table_device() -> None:
    """ "Unlock a device for a table" (issue 36): the organiser picks a table (or types a new
    one) and gets a one-time link and its QR code; the device that opens it records that table
    only, without the secret."""
    from dashboard.common import cache

    known = sorted({i.table for i in cache.sessions() if i.table})
    st.selectbox(
        "Unlock a device for table …",
        known,
        index=None,
        key=keys.TABLE_DEVICE_FOR,
        accept_new_options=True,
        placeholder="Choose or type a table",
        help="A device unlocked for a table records that table's sessions only, and is warned "
        "when another device records the same table.",
    )
    st.button(
        "Make the table's link",
        icon=":material/table_restaurant:",
        key="table_device_make",
        on_click=_make_table_link,
    )
    table, link = st.session_state.get(keys.TABLE_DEVICE_LINK) or ("", "")
    if st.session_state.get(keys.TABLE_DEVICE_LINK) and not table:
        st.error("Choose the table first.")
    if table and link:
        from present import qr

        st.image(qr.png(link), width=180)
        st.code(link, language=None, wrap_lines=True)
        st.caption(
            f"For {md(access.table_words(table))} only: the table's device scans the code (or "
            f"opens the link) within {int(gate_api.TABLE_CODE_SECONDS // 60)} minutes, once; "
            f"it then records that table for {tokens.TOKEN_HOURS} hours, without the secret."
        )


def join_url() -> str | None:
    """The address a second device opens: ``$BRAG_LAN_URL`` (set by ``brag dashboard --lan``)
    when this page was opened on the server's own machine, else this page's own address."""
    import os

    try:
        url = st.context.url
    except Exception:  # no browser behind the run
        url = None
    here = url if isinstance(url, str) else ""
    lan = os.environ.get("BRAG_LAN_URL")
    if lan and (not here or "//localhost" in here or "//127." in here or "//[::1]" in here):
        return lan.rstrip("/") + "/record"
    return here.split("?")[0] or None


def organiser_device() -> bool:
    """Whether this device is the organiser's, unlocked:
    :func:`dashboard.access.check.device_unlocked`
    on its token (this browser session's, else its ``brag_device`` cookie unless it was locked
    here), as the Record page's gate reads it; draws nothing and unlocks nothing."""
    from dashboard.access import check as access

    token = st.session_state.get(keys.DEVICE_TOKEN)
    if token is None and not st.session_state.get(keys.LOCKED):
        token = cookie(TOKEN_COOKIE)
    return access.device_unlocked(token)
