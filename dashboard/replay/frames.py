"""A deal's frames for the browser replayer: every step drawn once, sent once (pure, no Streamlit).

:func:`deal_frames` turns one deal of a :class:`~present.replay.Replay` into JSON-ready data for
the replayer component (:mod:`dashboard.replay.replayer`): for each step its number (one numbering,
:func:`present.narrate.numbered`), its sentence, the table as the viewer knows it (two pre-drawn
SVGs: wide, and compact for a phone), the pot, the level and who is to act, the odds of each hand
the viewer can see (:mod:`engine.odds`) and what each legal action costs the player to act
(:func:`engine.legal.legal_actions`), both from :mod:`dashboard.replay.odds`. The browser then
steps through them without asking the server.

The seam with the browser is typed: :class:`DealFrames` (what :func:`deal_frames` returns, one
:class:`Frame` a step, one :class:`DealChoice` a deal of the session) and :class:`ReplayerData`
(what the Replay page adds before sending it, :func:`dashboard.common.ui.replay_stage`). The keys
are
those ``dashboard/replayer*.js`` reads, no other, except ``note`` (read by the page, which says it
above the replayer).

A frame for a viewer holds only what that viewer knew at that step (RULES 3.5, 5.1, 5.8); the
browser puts one frame in the page at a time, and the events list only up to the current step
when a player is viewed or spoilers are hidden.
"""

from __future__ import annotations

from typing import TypedDict

from dashboard.replay.odds import action_costs, no_odds_line, odds_lines
from present import table_svg
from present.narrate import pretty_cards
from present.replay import EVERYONE, FROM_NOTE, SPECTATOR, Noted, Sight, TableView
from present.sight import DealSight, ReplayLike

__all__ = [
    "DealChoice",
    "DealFrames",
    "Frame",
    "Latest",
    "ReplayerData",
    "deal_frames",
]


class Frame(TypedDict):
    """One step of the deal, as the viewer knew it (the browser shows one at a time)."""

    step: int
    """The step's number in the deal (:attr:`present.replay.Label.step`): the link's ``step``."""
    label: str
    """The step as shown (``"7"``, or a withdrawn step's mark)."""
    kind: str
    """``""``, ``"withdrawn"`` or ``"correction"`` (a class of the events list's row)."""
    text: str
    """The step's sentence."""
    svg: str
    """The table drawn wide (:func:`present.table_svg.render`), every name escaped."""
    compact: str
    """The table drawn for a phone (under 640 px): the seats in a grid."""
    line: str
    """The pot and what the table's centre says: ``"Pot 9 · Level 2 · Ann to act"``."""
    pot: str
    """The pot, as the events list's last column shows it."""
    odds: list[str]
    """Each visible hand's chances in words (:attr:`~dashboard.replay.odds.OddsLine.text`)."""
    odds_exact: list[str]
    """The same chances as exact counts, shown on a tap (:attr:`OddsLine.exact`)."""
    odds_plain: list[str]
    """The words while spoiler-free: no outcome the view already knows (:attr:`OddsLine.plain`)."""
    odds_none: str
    """Why there are no chances at this step (:func:`no_odds_line`), or ``""``."""
    acts: list[str]
    """What each legal action costs the player to act (:func:`action_costs`)."""


class DealChoice(TypedDict):
    """One deal of the session in the replayer's deal picker."""

    deal: int
    full: str
    """Its label with who won it (:meth:`~present.replay.Replay.deal_label`)."""
    plain: str
    """Its label without (spoiler-free, or a player viewed from this deal on)."""


class DealFrames(TypedDict):
    """One deal's frames as :func:`deal_frames` returns them (kept by ``cache.frames``)."""

    session: str
    deal: int
    view: str
    """The viewer the frames are drawn for, ``""`` for everyone (or a spectator)."""
    note: str
    """Why the frames show less than was asked, or that the viewer's own cards come from their
    note; ``""`` when nothing to say. Read by the page (a caption), not by the browser."""
    log: str
    """``"recorded"`` (withdrawn steps and their corrections shown) or ``""`` (as corrected)."""
    frames: list[Frame]
    deals: list[DealChoice]
    viewers: list[str]
    """Everyone (:data:`~present.replay.EVERYONE`) first, then the session's players."""
    corrections: int
    """How many corrections the session holds (the "Show corrections" toggle is offered when
    there is one)."""
    deal_corrections: int
    """How many of them correct a step of this deal (the toggle's count)."""
    start: int
    """The frame to open on, a 0-based index in the deal."""


class Latest(TypedDict):
    """The session's last step: where "go to the latest" goes."""

    deal: int
    step: int


class ReplayerData(DealFrames):
    """What the replayer component is sent (:func:`dashboard.replay.replayer.replayer`): the deal's
    frames and what the Replay page adds to them (:func:`dashboard.common.ui.replay_stage`)."""

    nonce: int
    """Moves when the browser asked for other frames: a new request, the step taken anew."""
    seq: int
    """The session's last seq the page was drawn from: a later one marks new events."""
    latest: Latest
    live: bool
    """The session is not over: "Following live" is offered."""
    follow: bool
    """The page follows the session live (``follow=1``): the browser shows the latest step."""


def _line(view: TableView) -> str:
    """The pot and what the table's centre says under it (:attr:`TableView.centre`) on one
    line: ``"Pot 9 · Level 2 · Ann to act"``, ``"Pot 21 · Keith wins 21, uncontested · deal
    over"``."""
    return " · ".join(x for x in (f"Pot {view.pot_text}", *view.centre) if x)


def _frame(sight: DealSight, k: int, mine: Noted | None, *, odds: bool, own: bool) -> Frame:
    """The frame of the ``k``-th event of the replay as ``sight`` sees it (see
    :func:`deal_frames`): its table, sentence and odds from ``sight`` alone."""
    state = sight.replay.states[k]
    lab = sight.label(k)
    view = sight.view(k, noted=mine)
    kind = "correction" if lab.correction else "withdrawn" if lab.withdrawn else ""
    lines = odds_lines(state, view) if odds else []
    return {
        "step": lab.step,
        "label": lab.label,
        "kind": kind,
        "text": lab.text,
        "svg": table_svg.render(view),
        "compact": table_svg.render(view, compact=True),
        "line": _line(view),
        "pot": view.pot_text,
        "odds": [o.text for o in lines],
        "odds_exact": [o.exact for o in lines],
        "odds_plain": [o.plain for o in lines],
        "odds_none": "" if lines or not odds else no_odds_line(state, view, own=own),
        "acts": action_costs(state),
    }


def _deal_choices(rp: ReplayLike) -> list[DealChoice]:
    return [
        {
            "deal": s.deal,
            "full": rp.deal_label(s.deal),
            "plain": rp.deal_label(s.deal, spoilers=False),
        }
        for s in rp.slices
    ]


def _corrections_in(rp: ReplayLike, deal: int) -> int:
    """How many corrections of the session (a ``voided`` or an ``amended``) correct a step of
    ``deal`` (each is labelled by the step it corrects, :class:`timeline.Record`)."""
    t = rp.timeline
    if t is None:
        return sum(1 for lab in rp.labels if lab.correction and lab.deal == deal)
    return sum(1 for r in t.log if r.correction and r.label.deal == deal)


def _note(sight: Sight, who: str | None, mine: Noted | None) -> str:
    """The sight's note, and that ``who``'s cards come from their note when they do."""
    if mine is None:
        return sight.note
    from_note = (
        f"{who}'s cards {pretty_cards(mine[1])} are {FROM_NOTE}, not the log's: face up from "
        f"when {who} looked, and in no other view."
    )
    return f"{sight.note} {from_note}".strip()


def deal_frames(
    sight: DealSight,
    *,
    start: int | None = None,
    odds: bool = True,
    noted: Noted | None = None,
    own: bool = False,
) -> DealFrames:
    """The data the replayer component needs for one deal as one device may receive it:
    ``sight`` (:func:`present.sight.sight_for`, the one rule: the deal, the viewer asked for and
    whether the device is the organiser's unlocked one) decides every card, sentence and odds
    line of every frame; unless the organiser's, a deal dealt since the last shuffle of an
    unfinished session is drawn as a spectator saw it, only the cards shown, and a hand still
    in play stays face down in every deal. ``note`` says in one line why the frames show less
    than was asked, or that the viewer's own cards come from their note.

    ``noted``: ``(player, cards)``, the three cards a player remembers holding in this deal (their
    private note, in a ``cards: "shown"`` session): drawn in that player's own hand once they
    looked, and their odds taken with them, marked "from your note"
    (:func:`present.replay.table_view`), only when the frames are drawn as that player (never for
    another player, everyone, or a spectator). ``own``: the viewer is this browser's own player
    (the ``me`` preference), the only view told where to enter their cards
    (:func:`no_odds_line`).

    Keys (:class:`DealFrames`): ``session``, ``deal``, ``view`` (``""`` for everyone), ``log``
    (``"recorded"`` or ``""``), ``frames`` (one per step, :class:`Frame`: ``step``, ``label``,
    ``kind`` (``""``, ``"withdrawn"``, ``"correction"``), ``text``, ``svg``, ``compact``,
    ``line``, ``pot``, ``odds`` (phrases in words, :attr:`OddsLine.text`), ``odds_exact`` (the
    same chances as exact counts, shown on a tap, :attr:`OddsLine.exact`), ``odds_plain`` (the
    words while spoiler-free: no outcome the view already knows, :attr:`OddsLine.plain`),
    ``odds_none`` (why there are no chances at this step, :func:`no_odds_line`), ``acts``
    (phrases)), ``deals`` (:class:`DealChoice`: ``deal``, ``full``, ``plain`` (no winner)),
    ``viewers``, ``note``, ``corrections`` (the session's), ``deal_corrections`` (this deal's),
    ``start`` (the frame to open on: ``start`` if given,
    a 0-based index in the deal). Text is data: the browser writes it with ``textContent``; the
    SVGs escape every name (:mod:`present.table_svg`)."""
    rp = sight.replay
    who = sight.viewer if sight.viewer != SPECTATOR else None
    mine = noted if noted is not None and who is not None and who == noted[0] else None
    frames = [_frame(sight, k, mine, odds=odds, own=own) for k in sight.indices]
    return {
        "session": rp.session,
        "deal": sight.deal,
        "view": who or "",
        "note": _note(sight.sight, who, mine),
        "log": "recorded" if rp.recorded else "",
        "frames": frames,
        "deals": _deal_choices(rp),
        "viewers": [EVERYONE, *rp.seats],
        "corrections": rp.corrections,
        "deal_corrections": _corrections_in(rp, sight.deal),
        "start": max(0, min(start if start is not None else 0, len(frames) - 1)),
    }
