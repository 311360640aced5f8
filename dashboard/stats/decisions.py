"""The Decisions page's pieces: the spot's pickers tied to the link, the cell to drill into, the
decisions behind it as plain links a thumb can tap.

The page's state lives in ``st.query_params`` so every view has a link: ``spot`` (the spot's text,
:class:`analytics.spots.Spot`), ``player``, ``table``, ``cell`` (``group:action``, or ``group``
for a group's every decision in the spot).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from analytics.spots import (
    LEVEL_BANDS,
    POT_BANDS,
    Answer,
    Difference,
    Spot,
    SpotError,
    difference_rows,
)
from dashboard.common import state_keys as keys
from dashboard.common.escape import md
from dashboard.common.links import LinkRow, link
from dashboard.common.params import param, set_params
from dashboard.common.ui import link_box, link_rows, page_choice
from engine.hands import Category
from present.numbers import signed

__all__ = [
    "THUMB_CSS",
    "cards_choice",
    "cell_choice",
    "decision_links",
    "difference_links",
    "player_choice",
    "spot_from_link",
    "spot_link",
    "spot_pickers",
]

ANY = "any"
NOBODY = "(nobody)"

THUMB_CSS = """<style>
@media (max-width: 640px), (pointer: coarse) {
  button[data-variant="segmented_control"], button[data-variant="pills"] {
    min-width: 44px; min-height: 44px; }
}
</style>"""
"""The page's rows of buttons (the spot's pickers, the sessions' recording, whose, which count)
as a thumb's targets on a phone or a touch screen: every button at least 44 px square (Streamlit
draws them 32 px high)."""


def _bands(bands: Sequence[tuple[int, int | None]], *, pot: bool) -> list[str]:
    out = []
    for lo, hi in bands:
        if hi is None:
            out.append(f"{lo}+")
        elif lo == hi and not pot:
            out.append(str(lo))
        else:
            out.append(f"{lo}-{hi}")
    return out


PICKERS: tuple[tuple[str, str, list[str]], ...] = (
    ("actor", "The player is", ["blind", "seen"]),
    ("opp_blind", "Opponents blind", ["0", "1", "2", "3+"]),
    ("opp_seen", "Opponents seen", ["0", "1", "2", "3+"]),
    ("level", "Level", _bands(LEVEL_BANDS, pot=False)),
    ("pot", "Pot (stake units)", _bands(POT_BANDS, pot=True)),
    ("players", "Players in", ["2", "3", "4", "5", "6", "7+"]),
    ("hand", "Hand (where known)", [c.label for c in sorted(Category, reverse=True)]),
)
"""Each picker: the spot's key, its label, the values offered (besides "any")."""


def _shown_as(name: str) -> Callable[[str], str]:
    """How a picker shows its values: the level band 0 is "no bet yet"."""

    def word(value: str) -> str:
        return "no bet yet" if name == "level" and value == "0" else value

    return word


def spot_from_link() -> Spot:
    """The spot the link names (``?spot=``); a spot that cannot be read is said in one line and
    left out of the link (every decision)."""
    text = param("spot") or ""
    try:
        return Spot.parse(text)
    except SpotError as err:
        st.warning(f"The link's spot is not one the page can read: {md(err)}. Showing every "
                   "decision.")  # fmt: skip
        set_params(spot=None)
        return Spot()


def spot_pickers(spot: Spot) -> Spot:
    """The pickers in one expander (closed on a page opened afresh, so that on a phone the
    answer is on the first screen; its label says the spot; open, it stays open from one choice
    to the next), each a row of buttons a thumb taps, set from the spot; a change writes the
    spot back into the link (``?spot=``) and the page reruns."""

    def changed() -> None:
        parts = []
        for name, _, _ in PICKERS:
            value = st.session_state[keys.spot_part(name)]
            if value not in (None, ANY):
                parts.append(f"{name}={value}")
        set_params(spot=",".join(parts) or None, cell=None)

    # A key of its own: the label says the spot, so without one every choice (a new label) drew
    # a new expander, closed; with it the pickers stay open from one choice to the next.
    with st.expander(
        f"Spot: {md(spot.words())} (change)", icon=":material/tune:", key=keys.SPOT_PICKERS
    ):
        for name, label, values in PICKERS:
            current = getattr(spot, name)
            now = ANY if current is None else str(current)
            options = [ANY, *values] + ([now] if now not in values and now != ANY else [])
            st.session_state[keys.spot_part(name)] = now
            st.segmented_control(
                label,
                options,
                key=keys.spot_part(name),
                on_change=changed,
                format_func=_shown_as(name),
            )
    return spot


def player_choice(names: Sequence[str]) -> str | None:
    """The player set beside the field and the winning players (``?player=``), or nobody."""
    options = [NOBODY, *names]
    wanted = param("player")
    st.session_state[keys.PICK_DEC_PLAYER] = wanted if wanted in names else NOBODY
    chosen = st.selectbox(
        "Player",
        options,
        key=keys.PICK_DEC_PLAYER,
        on_change=lambda: set_params(
            player=None
            if st.session_state[keys.PICK_DEC_PLAYER] == NOBODY
            else st.session_state[keys.PICK_DEC_PLAYER],
            cell=None,
        ),
    )
    return None if chosen == NOBODY else str(chosen)


CARDS = {"any": None, "all": "all", "shown": "shown"}


def cards_choice() -> str | None:
    """The sessions of one cards mode (``?cards=all|shown``), or any: a hand category is known
    for every hand at a ``cards: all`` table, only for hands shown at a showdown at a
    ``cards: shown`` one (the hands players chose to show)."""
    wanted = param("cards")
    st.session_state[keys.PICK_DEC_CARDS] = wanted if wanted in ("all", "shown") else "any"
    chosen = st.segmented_control(
        "Sessions recording",
        list(CARDS),
        key=keys.PICK_DEC_CARDS,
        format_func=lambda v: {"any": "any", "all": "every card", "shown": "shown cards"}[v],
        on_change=lambda: set_params(cards=CARDS.get(st.session_state[keys.PICK_DEC_CARDS]
                                                     or "any"), cell=None),
        help="A hand category is known for every hand where every card is recorded; where only "
        "the cards shown are, for the hands shown at a showdown (RULES 3.5), which players chose "
        "to show. Of a session still in play, a hand not shown counts only once its deal opens "
        "(the pack shuffled after it, or the session ended).",
    )  # fmt: skip
    return CARDS.get(str(chosen or "any"))


EVERY = "every"


def cell_choice(answer: Answer) -> tuple[str, str | None]:
    """The cell whose decisions to list (``?cell=group:action``, or ``?cell=group`` for the
    group's every decision in the spot: the cells' denominator), picked by a thumb: whose (a row
    of buttons: the player, the field, the winning players), then which count (buttons reading
    ``fold · 46``, and ``every action · 341``: each numerator and the denominator)."""
    groups = list(answer.totals)
    actions = answer.actions()
    wanted = (param("cell") or "").partition(":")
    group = wanted[0] if wanted[0] in groups else groups[0]
    action = wanted[2] if wanted[2] in actions else (actions[0] if actions else EVERY)
    if wanted[0] in groups and not wanted[2]:
        action = EVERY
    st.session_state[keys.PICK_CELL_GROUP] = group
    st.session_state[keys.PICK_CELL_ACTION] = action

    def changed() -> None:
        g = st.session_state[keys.PICK_CELL_GROUP] or group
        a = st.session_state[keys.PICK_CELL_ACTION] or action
        set_params(cell=g if a == EVERY else f"{g}:{a}")

    names = {  # an option's label is Markdown: the player's name is escaped
        "player": md(answer.player or "the player"),
        "field": "the field",
        "winners": "the winning players",
    }
    st.segmented_control(
        "Whose", groups, key=keys.PICK_CELL_GROUP, on_change=changed, format_func=lambda g: names[g]
    )

    def count(a: str) -> str:
        if a == EVERY:
            return f"every action · {answer.totals[group]:,}"
        c = answer.cell(group, a)
        return f"{a} · {c.count if c else 0:,}"

    st.pills(
        "Decisions", [*actions, EVERY], key=keys.PICK_CELL_ACTION, on_change=changed,
        format_func=count,
    )  # fmt: skip
    return group, (None if action == EVERY else action)


LINKS_SHOWN = 60
"""Links a page under a cell (a phone's thumb; more come a page at a time)."""


def decision_links(rows: Sequence[dict[str, Any]]) -> None:
    """The decisions as rows a thumb opens (:func:`dashboard.common.ui.link_rows`: plain links,
    names escaped), each opening the Replay page at its step: ``session · deal D, step K`` over
    ``Ann: fold · net -3``; :data:`LINKS_SHOWN` a page, oldest first (a page number when there
    are more: a phone has no ``brag decisions --deals``), in a box of its own height when there
    are many."""
    which = "|".join(param(k) or "" for k in ("spot", "cell", "player", "table", "cards"))
    page = page_choice(len(rows), LINKS_SHOWN, key=f"{keys.DECISIONS_PAGE}-{which}", link="page")
    first = (page - 1) * LINKS_SHOWN
    shown = rows[first : first + LINKS_SHOWN]
    links = [
        LinkRow(
            link(str(r["session"]), int(r["deal"]), int(r["step"])),
            f"{r['session']} · deal {r['deal']}, step {r['step']}",
            (f"{r['player']}: {r['action']} · net {signed(r['net'])}",),
        )
        for r in shown
    ]
    if len(rows) > LINKS_SHOWN:
        st.caption(
            f"Decisions {first + 1:,}-{first + len(shown):,} of {len(rows):,}, oldest first."
        )
    if links:
        link_box(links, "Decisions: a tap opens the replay at the step", "decisions")


def difference_links(found: Sequence[Difference], player: str) -> None:
    """Biggest differences as rows a thumb opens, each opening its spot in the explorer:
    the action and the difference, then the spot, both shares, the interval and the score."""
    rows = []
    for d, r in zip(found, difference_rows(found), strict=True):
        rows.append(
            LinkRow(
                spot_link(d.spot, player),
                f"{d.action}: {r['difference']} share points",
                (
                    r["spot"],
                    f"{player} {r['player']} · winning players {r['winners']}",
                    f"comes up in {r['comes up']} of {player}'s decisions · score {r['score']}",
                ),
            )
        )
    link_rows(rows, "Biggest differences: a tap opens the spot")


def spot_link(spot: Spot, player: str | None) -> str:
    """The relative link to the Decisions page at ``spot`` for ``player``."""
    from urllib.parse import urlencode

    q = {"spot": str(spot)} | ({"player": player} if player else {})
    return "decisions?" + urlencode(q)
