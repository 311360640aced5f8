"""What the Record page's pad draws, as one JSON document per state of a session, without
Streamlit: built for the page's first drawing (:mod:`dashboard.record.widgets`) and for every answer
of the pad's HTTP routes (:mod:`dashboard.record.routes`).

A document is the session at one seq: ``{"session", "seq", "grid", "keys", "status", "last",
"finished", "ahead"}``, typed as :class:`PadDocument` (its keys :class:`PadKey`), exactly the keys
``pad.js`` reads (``finished`` is for the page's tests; the pad does not read it).

- ``grid``: the places of :func:`dashboard.record.recorder.pad_grid`, the same for the whole
session, so
  no key ever moves; ``keys`` maps a place to the key drawn there (``label``, ``sub``, ``tone``,
  ``title``, and for a ``shown`` at a real table ``cards``: ``count`` and ``pack``); a place not
  in ``keys`` is an empty slot. ``undo`` and ``redo`` are keys like the others.
- ``ahead``: for the keys that need no input the device cannot give offline (bets, looks,
  sees, folds, shuffles and deals at a real table, retains, keeps and throws), the document the
  engine says follows that tap, nested, the likeliest runs of taps first (:func:`_likely`), at
  most :data:`AHEAD_BUDGET` documents in all: what lets the pad go on recording while the
  server cannot be reached and send the taps in order when it can (issue 19). Each predicted
  document has the seq the store will have once the taps before it are stored, derived events
  counted (``engine.fold.record``). No rule is written again in JavaScript.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence
from typing import Literal, NotRequired, TypedDict

from dashboard.record import pad_rows, recorder
from dashboard.record.pad_rows import Tone
from engine.fold import record
from engine.legal import can_void
from engine.pack import why_not
from engine.state import Phase, State
from events.amounts import amount_text
from events.cards import FULL_PACK, SUITS
from events.errors import BragError
from events.model import AnyEvent
from present.narrate import pretty_card
from present.replay import Replay
from present.steps import record_text
from timeline import Timeline

__all__ = [
    "AHEAD_BUDGET",
    "PREDICTED",
    "PadCard",
    "PadCards",
    "PadDocument",
    "PadKey",
    "document",
    "state_document",
    "status_line",
    "timeline_document",
]


class PadCard(TypedDict):
    """One card of the showdown's picker: its ``code`` (``"Ah"``), its ``face`` as drawn
    (``"A♥"``), whether it is ``red``, whether it is ``free`` (not shown already, and a card the
    tracked pack lets this hand hold, RULES 3.3) and, when it is not, ``why`` in words (the key's
    title); every card keeps its place whether free or not."""

    code: str
    face: str
    red: bool
    free: bool
    why: str


class PadCards(TypedDict):
    """The cards a ``shown`` key needs at a real table: ``count`` to pick of the ``pack``."""

    count: int
    pack: list[PadCard]


class PadKey(TypedDict):
    """A key as the pad draws it (:class:`dashboard.record.recorder.Key` without its choice):
    ``label``,
    ``sub``, ``tone``, ``title``; ``cards`` for a ``shown`` at a real table, ``input`` ``"hands"``
    for a deal whose hands the page's picker records."""

    label: str
    sub: str
    tone: Tone
    title: str
    cards: NotRequired[PadCards]
    input: NotRequired[Literal["hands"]]


class PadDocument(TypedDict):
    """The pad's document of a session at one seq (the module's docstring); ``ahead`` only when
    predicted documents travel with it."""

    session: str
    seq: int
    grid: list[list[str]]
    keys: dict[str, PadKey]
    status: str
    last: str
    finished: bool
    ahead: NotRequired[dict[str, PadDocument]]


AHEAD_BUDGET = 48
"""At most this many predicted documents travel with one document (``bench/record.py`` measures
how many taps ahead that covers on the season's deals, and the bytes it costs)."""

PREDICTED = ("look", "see", "fold", "hand-a", "hand-b", "shuffle", "deal")
"""Places whose tap the pad may take while offline, beside the bets and the looks out of turn:
their events need nothing from the device but the tap."""

_LIKELY = {
    "fold": 0.3,
    "bet-0": 0.3,
    "look": 0.12,
    "see": 0.08,
    "bet-1": 0.06,
    "bet-2": 0.03,
    "hand-a": 0.5,
    "hand-b": 0.3,
    "deal": 0.9,
    "shuffle": 0.9,
}


def status_line(state: State) -> str:
    """Who acts, how (blind or seen), the pot and the level: the pad's first line."""
    s = state
    pot = f"pot {amount_text(s.pot)}"
    if s.finished:
        return f"The session is over (RULES 1.4) · {pot}"
    level = f" · level {s.level}" if s.level is not None else ""
    if s.phase is Phase.SHOWDOWN:  # the show keys say who shows (RULES 5.8); nobody bets now
        return f"Showdown · {pot}{level}"
    if s.turn_name is not None:
        p = s.players[s.seat(s.turn_name)]
        how = "seen" if p.seen else "blind"
        return f"{s.turn_name} to act ({how}) · {pot}{level}"
    if s.phase is Phase.CARRIED:
        return f"Pot carried (RULES 6.1) · {pot}"
    return f"Between deals · {pot}"


def _pack(state: State, player: str | None) -> list[PadCard]:
    """The 52 cards for ``player``'s picker, a suit a row (spades, hearts, diamonds, clubs), ace
    high, always in these places; the ones that cannot be in that hand greyed out with the
    engine's reason (:func:`engine.pack.why_not`)."""
    free = set(recorder.free_cards(state, player))
    out = []
    for suit in reversed(SUITS):
        for c in reversed(FULL_PACK):
            code = str(c)
            if code[1] == suit:
                ok = code in free
                why = "" if ok or player is None else why_not(state, player, code) or ""
                # the card by its face, as its key draws it ("Q♠ went under", not "Qs")
                why = re.sub(rf"(?<![\w]){code}(?![\w])", pretty_card(code), why)
                out.append(
                    PadCard(code=code, face=pretty_card(code), red=suit in "hd", free=ok, why=why)
                )
    return out


def _keys(state: State) -> dict[str, PadKey]:
    out: dict[str, PadKey] = {}
    for spot, k in pad_rows.pad_keys(state).items():
        key = PadKey(label=k.label, sub=k.sub, tone=k.tone, title=k.title)
        if k.choice is not None and k.choice.needs == ("cards",):
            key["cards"] = PadCards(
                count=k.choice.card_count, pack=_pack(state, k.choice.action.player)
            )
        elif k.choice is not None and k.choice.needs == ("hands",):
            key["input"] = "hands"  # the page's picker below records it
        out[spot] = key
    return out


def _offline(spot: str, key: PadKey) -> bool:
    """Whether a tap on ``spot`` can be taken and its next document predicted on the device."""
    if "cards" in key or "input" in key:
        return False
    return spot in PREDICTED or spot.startswith(("bet-", "peek-"))


def state_document(
    session: str,
    state: State,
    *,
    last: str,
    undo: str | None,
    redo: str | None,
    budget: int = AHEAD_BUDGET,
) -> PadDocument:
    """The document of ``session`` at ``state``: ``last`` is the line under the status (the last
    event's sentence), ``undo`` / ``redo`` the sentence of what Undo / Redo would do, ``None``
    when there is nothing to undo / redo. With ``budget`` > 0, the documents that follow its
    offline keys (``ahead``, the likeliest first, at most ``budget`` in all)."""
    doc = _bare(session, state, last=last, undo=undo, redo=redo)
    if budget <= 0:
        return doc
    # Best first by how likely the taps leading there are, so the budget reaches deep along the
    # common run of a deal (bets at the level, folds) rather than wide over every raise.
    todo: list[tuple[float, int, PadDocument, State]] = [(-1.0, 0, doc, state)]
    made = 0
    while todo and made < budget:
        weight, _, parent, at = heapq.heappop(todo)
        parent["ahead"] = {}
        taps = [(s, k) for s, k in parent["keys"].items() if _offline(s, k)]
        total = sum(_likely(s) for s, _ in taps) or 1.0
        for spot, key in taps:
            if made >= budget:
                break
            try:
                event = recorder.tapped_event(at, spot)
                after, _ = record(at, event)
            except (ValueError, BragError):  # a key the engine would refuse: no prediction
                continue
            child = _bare(
                session,
                after,
                last=f"Waiting to be recorded: {key['title']}",
                undo=key["title"],
                redo=None,
            )
            parent["ahead"][spot] = child
            made += 1
            heapq.heappush(todo, (weight * _likely(spot) / total, made, child, after))
    return doc


def _likely(spot: str) -> float:
    """How often a key is the next tap, roughly (the season's deals): the order in which the
    predictions are made."""
    if spot.startswith("peek-"):
        return 0.03
    return _LIKELY.get(spot, 0.01)


def _bare(
    session: str, state: State, *, last: str, undo: str | None, redo: str | None
) -> PadDocument:
    keys = _keys(state)
    if undo is not None:
        keys["undo"] = PadKey(label="↶ Undo", sub="", tone="undo", title=f"Undo: {undo}")
    if redo is not None:
        keys["redo"] = PadKey(label="↷ Redo", sub="", tone="undo", title=f"Redo: {redo}")
    return PadDocument(
        session=session,
        seq=state.seq,
        grid=pad_rows.pad_grid(len(state.seats), state.rules, state.cards_mode or "shown"),
        keys=keys,
        status=status_line(state),
        last=last,
        finished=state.finished,
    )


def document(rp: Replay, *, budget: int = AHEAD_BUDGET) -> PadDocument:
    """The document of the session replayed as recorded (``rp``, with its corrections): the last
    event's sentence, what Undo and Redo would do (also once the session is over: the last
    action of a finished session can be undone, which reopens it), and the documents ahead."""
    state = rp.final
    last = f"Last: {rp.labels[-1].text}" if rp.labels else ""
    u = recorder.undo_index(rp.states)
    undo = rp.labels[u].text if u is not None else None
    redo = None
    events: Sequence[AnyEvent] = rp.events
    if recorder.redo(events) is not None:
        target = int(events[-1].seq or 0)
        redo = rp.labels[target - 1].text if 0 < target <= len(rp.labels) else "the last undone"
    if can_void(state) is None:
        undo = None
    return state_document(rp.session, state, last=last, undo=undo, redo=redo, budget=budget)


def timeline_document(t: Timeline, *, budget: int = AHEAD_BUDGET) -> PadDocument:
    """:func:`document` of a session's :class:`~timeline.Timeline` (the store's, extended by each
    tap) without a replay: the last step, the Undo and the Redo worded from the log's records
    (O(1) whatever the session's length, issue 32 item 5)."""
    state = t.state
    n = t.last_seq
    last = f"Last: {record_text(t, n)}" if n else ""
    target = can_void(state)
    undo = record_text(t, target) if target is not None and 0 < target <= n else None
    redo = None
    if n and t.log[n - 1].event.type == "voided":
        gone = int(t.log[n - 1].event.seq or 0)
        if 0 < gone <= n and recorder.redo([t.log[gone - 1].event, t.log[n - 1].event]):
            redo = record_text(t, gone)
    return state_document(t.session, state, last=last, undo=undo, redo=redo, budget=budget)
