"""A player's own history as the My sessions page lists it (pure, no Streamlit): their sessions
and their deals, each a row a thumb opens (:class:`dashboard.common.links.LinkRow`) on its
replay viewed as that player (``replay?session=S&deal=D&step=1&view=NAME``), and the cards they
remember for a deal of a session that records only the cards shown (their private note,
``log.annotations.private_cards``).

Spoiler-free as the Sessions and Session pages are (issue 21.1): without ``results`` ("Show
results" off, this browser's preference) a row names no winner, no net and no deal's result;
with them it adds the player's own net and who won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from dashboard.common.links import LinkRow, link
from engine.state import card_texts
from present.narrate import pretty_cards
from present.numbers import count_of, signed
from present.replay import Replay

__all__ = [
    "ALL_MINE",
    "CARDS",
    "card_label",
    "card_name",
    "deal_rows",
    "my_deals",
    "nets",
    "sat_in",
    "session_rows",
    "shown_by",
]

RANKS = "AKQJT98765432"
SUITS = "shdc"
CARDS = tuple(r + s for s in SUITS for r in RANKS)
"""The pack in FORMAT.md notation, suit by suit (spades, hearts, diamonds, clubs), ace first:
the card pickers' order."""


ALL_MINE = LinkRow(href="mine", title="◀ All your sessions")
"""The row back to the list of the player's sessions."""


def card_label(code: str) -> str:
    """A card's rank as the picker shows it under its suit (``"10"`` for ``T``)."""
    return "10" if code[0] == "T" else code[0]


_RANK_WORDS = dict(zip(RANKS, ("ace", "king", "queen", "jack", "ten", "nine", "eight", "seven",
                               "six", "five", "four", "three", "two"), strict=True))  # fmt: skip
_SUIT_WORDS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def card_name(code: str) -> str:
    """A card in words, as a screen reader announces a picker's button: ``"ace of hearts"``,
    ``"ten of clubs"`` (a FORMAT.md code, ``"Ah"``)."""
    return f"{_RANK_WORDS[code[0]]} of {_SUIT_WORDS[code[1]]}"


def sat_in(info: Any | None, me: str) -> bool:
    """Whether ``me`` has a seat in the session of ``info`` (a catalogue line, or ``None``)."""
    return info is not None and me in info.players


def nets(standings: Sequence[Mapping[str, Any]], me: str) -> dict[str, Fraction]:
    """``me``'s net in each session (exact stake units, RULES 1.5) from the statistics'
    leaderboard rows (``analytics.queries.leaderboard``: one per player per session)."""
    return {str(r["session"]): r["net"] for r in standings if r["player"] == me}


def session_rows(
    infos: Sequence[Any], me: str, nets: Mapping[str, Fraction] | None = None
) -> list[LinkRow]:
    """One row per session of ``me`` (:class:`~store.records.SessionInfo`, newest first): a tap
    opens its replay at deal 1, step 1 viewed as ``me``; its side link lists its deals on this
    page (``mine?session=S``). ``nets`` (the results shown: session -> ``me``'s net, exact
    stake units, RULES 1.5) adds ``me``'s net and the winners; without it a row says when,
    where, with whom, how many deals, and whether it is finished."""
    out = []
    for i in sorted(infos, key=lambda i: (i.started is None, i.started), reverse=True):
        when = i.started.strftime("%Y-%m-%d %H:%M") if i.started else "date not recorded"
        where = f"table {i.table}" if i.table else "no table"
        others = [p for p in i.players if p != me]
        details = [
            f"{when} · {where}",
            f"with {', '.join(others)}" if others else "alone",
            f"{count_of(i.deals, 'deal')} · " + ("finished" if i.finished else "in progress"),
        ]
        if nets is not None:
            if i.session in nets:
                details.append(f"your net {signed(nets[i.session])}")
            if i.finished and i.winners:
                details.append("won by " + ", ".join(i.winners))
        out.append(
            LinkRow(
                href=link(i.session, 1, 1, view=me),
                title=f"▶ {i.session}",
                details=tuple(details),
                side=("mine?" + urlencode({"session": i.session}), "Your deals"),
            )
        )
    return out


def shown_by(rp: Replay, deal: int, me: str) -> tuple[str, ...]:
    """The cards ``me`` showed in ``deal`` (RULES 3.5, 5.8; empty when none): what every viewer
    may know of ``me``'s hand, also while the deal is in play (:meth:`Replay.sight`)."""
    sl = rp.slice(deal)
    p = next((p for p in rp.states[sl.stop - 1].players if p.name == me), None)
    return tuple(card_texts(p.shown)) if p is not None else ()


def my_deals(rp: Replay, me: str) -> list[int]:
    """The deals of ``rp`` (1 on) that ``me`` sat in, in order."""
    return [sl.deal for sl in rp.slices if sl.deal and me in rp.states[sl.start].seats]


def deal_rows(
    rp: Replay,
    me: str,
    noted: Mapping[int, tuple[str, ...]] | None = None,
    *,
    results: bool = False,
) -> list[LinkRow]:
    """One row per deal of ``rp`` that ``me`` sat in: a tap opens its replay at step 1 viewed as
    ``me``. Each says who deals and the three cards of ``me``'s note (``noted``: deal -> cards,
    marked "from your note"); a hand the log knows is left to the replay, which knows who may
    see it (:meth:`~present.replay.Replay.sight`). With ``results``: how the deal ended, and
    the cards ``me`` showed (public once shown, RULES 3.5; a showdown is a result)."""
    rows = {r["deal"]: r for r in rp.deal_rows()}
    noted = noted or {}
    out = []
    for deal in my_deals(rp, me):
        sl = rp.slice(deal)
        r = rows[deal]
        details = [f"{r['dealer']} deals · {count_of(sl.steps, 'step')}"]
        held = shown_by(rp, deal, me) if results else ()  # a showdown: a result
        if held and (len(held) == 3 or deal not in noted):
            details.append("you showed " + pretty_cards(held))
        elif deal in noted:
            details.append(f"your cards {pretty_cards(noted[deal])} (from your note)")
        if results:
            if r["winner"] == me:
                details.append(f"you won {r['pot']}, {r['result']}")
            elif r["winner"]:
                details.append(f"{r['winner']} won {r['pot']}, {r['result']}")
            else:
                details.append(f"{r['result']} · pot {r['pot']}")
        cards = ("mine?" + urlencode({"session": rp.session, "deal": deal}), "Your cards")
        out.append(
            LinkRow(
                href=link(rp.session, deal, 1, view=me),
                title=f"▶ Deal {deal}",
                details=tuple(details),
                side=cards if rp.final.cards_mode == "shown" else None,
            )
        )
    return out
