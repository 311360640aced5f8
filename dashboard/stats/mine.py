"""Streamlit pieces of the My sessions page (:mod:`dashboard.stats.mine_page`): who you are,
remembered per browser (:mod:`dashboard.common.prefs`), and the three card pickers for the cards you
remember holding in a deal of a real table (kept as your private note, ``log.annotations``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import streamlit as st

from dashboard.common import cache, prefs
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.stats.own import CARDS, SUITS, card_label, card_name
from events.errors import BragError
from present.narrate import pretty_cards
from present.replay import Noted, Replay

__all__ = ["ME", "is_me", "my_cards", "noted_for", "who_am_i"]

ME = keys.ME
"""The per-browser preference (:mod:`dashboard.common.prefs`) naming this browser's player."""

_SUIT_NAMES = {"s": "♠ Spades", "h": "♥ Hearts", "d": "♦ Diamonds", "c": "♣ Clubs"}
_FLASH = keys.MY_CARDS_FLASH
_UNKEPT = keys.ME_THIS_SESSION  # a name the preference cannot hold (see who_am_i)
_PILLS_CSS = """<style>
.st-key-my_cards button[data-variant="pills"] { min-width: 44px; min-height: 44px;
  justify-content: center; }
</style>"""
"""The card pickers as a thumb's targets: every card at least 44 px square."""

_card_names = st.components.v2.component(
    "bragbook.card_names",
    js=(Path(__file__).resolve().parent / "card_names.js").read_text(encoding="utf-8"),
)
"""Names each card button for a screen reader (``card_names.js``): ``"ace of hearts"``, where
the button shows ``A`` under its suit's label."""


def who_am_i(players: Sequence[str]) -> str | None:
    """The player this browser is (``None`` until one is picked): a picker of the store's
    ``players``, its choice remembered per browser (the ``me`` preference). A remembered name the
    store no longer holds is not taken (the preference is data a browser sent). A name no cookie
    can hold (a stored name not printable) is kept for this browser session only."""
    kept = prefs.get_pref(ME) or st.session_state.get(_UNKEPT)
    st.session_state[ME] = kept if kept in players else None

    def changed() -> None:
        name = st.session_state[ME]
        st.session_state[_UNKEPT] = None
        try:
            prefs.set_pref(ME, name)
        except ValueError:  # not printable, or too long for a cookie: this session only
            prefs.set_pref(ME, None)
            st.session_state[_UNKEPT] = name

    chosen = st.selectbox(
        "You are",
        players,
        key=ME,
        index=None,
        placeholder="Pick your name",
        on_change=changed,
        help="Remembered on this browser. Your notes of your own cards are shown only in your "
        "own view of a replay.",
    )
    return str(chosen) if chosen is not None else None


def my_cards(
    session: str,
    deals: Sequence[int],
    me: str,
    noted: Mapping[int, tuple[str, ...]],
    deal: str | None = None,
    *,
    guarded: Callable[[int], bool] = lambda _: False,
) -> None:
    """The "Your cards" section: what the note is and who sees it; the cards ``me`` remembers for
    one of ``deals`` (``deal`` first, from the link): the deal, then the pack in four rows, one
    per suit, where three taps pick the three cards (those already noted are picked), and *Keep
    my cards*. Kept through ``cache.set_my_cards`` (refused in one line, nothing stored: not
    three cards, a card another player showed in that deal, ...). ``guarded(deal)``: whether that
    deal is still received only as a spectator saw it (:func:`present.sight.guards`): the cards
    kept then show in the player's own view once it opens, and the page says so."""
    if not deals:
        return
    st.subheader("Your cards")
    st.caption(
        "This table records only the cards shown. The cards you remember are your note: face "
        "up in your own view of the replay once you looked, the odds taken from them, marked "
        "'from your note'; never in the log, an export, the statistics or anyone else's view. "
        "While the pack still holds a deal's cards (until the next shuffle, or the session's "
        "end) your view shows that deal as a spectator saw it, like everyone's."
    )
    st.markdown(_PILLS_CSS, unsafe_allow_html=True)
    chosen = _deal_choice(session, deals, deal)
    picked, sent = _card_pickers(session, chosen, noted.get(chosen, ()))
    flash = st.session_state.pop(_FLASH, None)
    if flash is not None and flash[0] == (session, chosen):
        st.success(flash[1], icon=":material/check:")
    if sent:
        _keep(session, chosen, me, picked, guarded(chosen))


def _deal_choice(session: str, deals: Sequence[int], deal: str | None) -> int:
    """The deal whose cards are picked: a picker of ``deals``, set to ``deal`` (from the link)
    once per new link."""
    key = keys.my_cards_deal(session)
    linked = deal is not None and deal.isdigit() and int(deal) in deals
    if linked and st.session_state.get(keys.my_cards_link(session)) != deal:  # a new link, once
        st.session_state[keys.my_cards_link(session)] = deal
        st.session_state[key] = int(str(deal))
    chosen: int = st.selectbox("Your cards in", deals, key=key, format_func=lambda d: f"Deal {d}")
    return chosen


def _card_pickers(session: str, chosen: int, have: Sequence[str]) -> tuple[list[str], bool]:
    """The pack in four rows, one per suit (``have`` picked), and *Keep my cards*: the cards
    picked, and whether the button was pressed."""
    form = keys.my_cards_form(session, chosen)
    with st.container(key=keys.MY_CARDS), st.form(form, border=False):
        picked: list[str] = []
        for suit in SUITS:
            picked += st.pills(
                _SUIT_NAMES[suit],
                [c for c in CARDS if c[1] == suit],
                selection_mode="multi",
                default=[c for c in have if c[1] == suit],
                format_func=card_label,
                key=keys.my_cards_suit(session, chosen, suit),
            )
        sent = st.form_submit_button("Keep my cards", type="primary", icon=":material/lock:")
    rows = [[card_name(c) for c in CARDS if c[1] == suit] for suit in SUITS]
    with st.sidebar:  # draws nothing: out of the page's column, no gap under the pickers
        _card_names(key=keys.MY_CARDS_NAMES, data={"root": f"st-key-{keys.MY_CARDS}", "rows": rows})
    return picked, sent


def _keep(session: str, chosen: int, me: str, picked: list[str], guarded: bool) -> None:
    """Keeps the ``picked`` cards as ``me``'s note for deal ``chosen``, or says in one line why not
    (nothing stored); kept, the page reruns and says so."""
    if len(picked) != 3:
        st.error(
            f"Pick 3 cards, one tap each: {len(picked)} picked ({pretty_cards(picked) or 'none'})."
        )
        return
    try:
        kept = cache.set_my_cards(session, int(chosen), me, picked)
    except BragError as err:  # one line: what and why; nothing stored
        st.error(md(err), icon=":material/block:")
        return
    st.session_state[_FLASH] = (
        (session, chosen),
        f"Kept as your note for deal {chosen}: {pretty_cards(kept)}. "
        + (
            "Your own view of the replay shows them once the deal opens (the next shuffle, or "
            "the session's end); nobody else's ever does."
            if guarded
            else "Only your own view of the replay shows them."
        ),
    )
    st.rerun()


def is_me(viewer: str | None) -> bool:
    """Whether ``viewer`` is this browser's own player (the ``me`` preference, :func:`who_am_i`);
    ``False`` for everyone's view (``None``)."""
    return viewer is not None and viewer == prefs.get_pref(ME)


def noted_for(rp: Replay, deal: int, viewer: str | None) -> Noted | None:
    """``(viewer, cards)``: the cards ``viewer`` noted for ``deal`` of a session recording only
    the cards shown, when this browser is that player (the ``me`` preference, :func:`who_am_i`);
    else ``None``, so no other viewer's frames are ever drawn with them."""
    if viewer is None or not is_me(viewer) or rp.final.cards_mode != "shown":
        return None
    cards = cache.my_cards(rp.session, viewer).get(deal)
    return (viewer, cards) if cards else None
