"""The organiser's gate on the Record page: a device is unlocked by the organiser secret once and
then keeps a signed, expiring token in a cookie (:mod:`dashboard.recorder` signs and checks it);
"Lock this device" forgets it; a second device joins by the QR code of the page's address."""

from __future__ import annotations

from urllib.parse import unquote

import streamlit as st

from dashboard import access, pad, recorder, settings
from dashboard.escape import md

TOKEN_COOKIE = "brag_device"
BY_COOKIE = "brag_by"
SESSION_COOKIE = "brag_recording"


def cookie(name: str) -> str | None:
    """A cookie this browser sent when the page was opened (``st.context.cookies``), decoded."""
    try:
        value = st.context.cookies.get(name)
    except Exception:  # no browser behind the run
        return None
    return unquote(value) if isinstance(value, str) and value else None


# --- the gate -------------------------------------------------------------------------------------


def organiser_unlocked() -> bool:
    """True when this device is unlocked: the organiser gave the secret here, now or within
    :data:`~dashboard.recorder.TOKEN_HOURS` (a signed, expiring token in this session or in
    the device's cookie, :func:`~dashboard.recorder.token_valid`; the secret itself is never
    sent back). Without a secret configured the page says the app is read-only."""
    secret = settings.organiser_secret()
    if not secret:
        st.warning(
            "**Read-only.** Recording needs the organiser secret, and none is set: set "
            "`BRAG_ORGANISER_SECRET` in the environment, or `organiser_secret` in "
            "`.streamlit/secrets.toml`, and restart the dashboard.",
            icon=":material/lock:",
        )
        return False
    token = st.session_state.get("device_token")
    if token is None and not st.session_state.get("locked"):
        token = cookie(TOKEN_COOKIE)
    if access.device_unlocked(token):
        st.session_state["device_token"] = token
        pad.device({TOKEN_COOKIE: str(token)}, max_age=recorder.TOKEN_HOURS * 3600, key="token")
        return True
    st.session_state.pop("device_token", None)
    if st.session_state.get("locked"):
        pad.device(clear=[TOKEN_COOKIE], key="token")
    with st.form("unlock"):
        given = st.text_input("Organiser secret", type="password", key="secret_input")
        ok = st.form_submit_button("Unlock recording", type="primary")
    if ok:
        if recorder.check_secret(secret, given):
            st.session_state["device_token"] = recorder.device_token(secret)
            st.session_state.pop("locked", None)
            st.rerun()
        st.error("That is not the organiser secret.")
    st.info(
        f"The app is read-only until the organiser secret is given. This device then stays "
        f"unlocked for {recorder.TOKEN_HOURS} hours, or until it is locked.",
        icon=":material/lock:",
    )
    return False


def lock() -> None:
    """Locks this device: forgets its token here and in its cookie."""
    st.session_state.pop("device_token", None)
    st.session_state["locked"] = True


# --- join and lock --------------------------------------------------------------------------------


def join_and_lock() -> None:
    """The QR code of this page's address for a second device, and "Lock this device"."""
    url = join_url()
    if url:
        from present import qr

        st.image(qr.png(url), width=180)
        st.caption(
            f"A second device joins at {md(url)} (scan the code), then unlocks with the secret."
        )
    st.button("Lock this device", icon=":material/lock:", key="lock", on_click=lock)


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
