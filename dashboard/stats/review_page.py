"""Review: a session's decisions against the solved heads-up game (issue 38.3) and the deck of
one's own mistakes (38.4). ``review?session=S[&player=P]``; ``review?player=P&view=deck``.

Ready without a solve: the standard games ship (:mod:`solver.shipped`); another is solved in the
background while its deal says "solving..." (:mod:`dashboard.stats.reviewing`). The sight rule
(:mod:`present.sight`): of a deal this device receives only as a spectator (a session in progress)
nothing is graded here, no luck term, no card of the deck."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from dashboard.common import cache, escape, params, ui
from dashboard.common.links import LinkRow
from dashboard.stats import review_view as rv
from dashboard.stats import reviewing, stats_cache
from present.numbers import signed

st.title("Review")

_deck = st.components.v2.component(
    "bragbook.review_deck",
    html='<div class="brag-deck"></div>',
    css=(Path(__file__).resolve().parent / "deck.css").read_text(encoding="utf-8"),
    js=(Path(__file__).resolve().parent / "deck.js").read_text(encoding="utf-8"),
)


def _sentences(rp: Any) -> dict[tuple[int, str], str]:
    return {
        (lab.deal, lab.number): lab.text
        for lab in rp.labels
        if not lab.withdrawn and not lab.correction
    }


def _reviewed(
    session: str, *, start: bool = True, player: str | None = None
) -> tuple[Any, list[Any], set[int]] | None:
    return reviewing.reviewed(session, start=start, player=player)


# How many of a player's newest sessions their deck of mistakes is drawn from (a comment: a bare
# string here is printed on the page by Streamlit's magic).
DECK_SESSIONS = 20


def _previous(player: str, session: str | None, most: int = 5) -> list[str]:
    """Up to ``most`` of ``player``'s sessions before ``session`` (newest first)."""
    infos = cache.session_page([player])
    ids = [i.session for i in infos]
    if session in ids:
        ids = ids[ids.index(session) + 1 :]
    return ids[:most]


def _moment_row(m: rv.Moment) -> LinkRow:
    r = m.row
    if m.swing < 0:
        what = f"cost {-m.swing:.2f} ante against the best ({r.best})"
    else:
        what = f"{m.swing:.2f} ante better than the worst choice there"
    return LinkRow(
        href=m.href,
        title=f"{'▼' if m.swing < 0 else '▲'} Deal {r.deal}, step {r.step}: {r.player} {r.action}",
        details=(what, f"graded {r.grade}" + (" (from your note)" if r.from_note else "")),
    )


def _phase_table(s: rv.Summary) -> None:
    lines = ["| phase | graded | best or good | mean EV loss |", "| --- | ---: | ---: | ---: |"]
    for ph in rv.PHASES:
        n, good, loss = s.phases.get(ph, (0, 0.0, 0.0))
        cells = (f"{good:.0%}", f"{loss:.3f} ante") if n else ("–", "–")
        lines.append(f"| {ph} | {n} | {cells[0]} | {cells[1]} |")
    st.markdown("\n".join(lines))


def _priors(session: str) -> dict[str, dict[str, int]] | None:
    """Each seat's earlier sessions as the projection's luck terms read them
    (:func:`analytics.prior_rows.session_priors`); ``None`` while the statistics are not ready
    (the luck is then that of the session alone)."""
    try:
        got: dict[str, dict[str, int]] = stats_cache.stat("session_priors", session=session)
    except stats_cache.Preparing:  # the first catch-up still running: the session alone
        return None
    return got


def _player_line(
    p: str, s: rv.Summary, luck: Any, net: Any, *, some_graded: bool, results: bool
) -> str:
    """One player's line: what their graded decisions lost, their deal luck, and with Show
    results their net (and luck-adjusted net); "no decision graded" where nothing else would
    be said, or beside players who were graded (not "lost 0.00", which reads as perfect play)."""
    parts = []
    if s.graded:
        parts.append(
            f"lost to decisions {s.ev_lost:.2f} ante against the best play ({s.graded} graded)"
        )
    if luck is not None:
        parts.append(f"deal luck {signed(luck)}")
        if results:
            parts.append(f"net {signed(net)}, luck-adjusted {signed(net - luck)}")
    elif results:
        parts.append(f"net {signed(net)}")
    if not s.graded and (some_graded or not parts):
        parts.insert(0, "no decision graded (the coverage above says why)")
    return f"- **{escape.md(p)}**: " + " · ".join(parts)


def _luck_caption(rp: Any, hidden: set[int], measured: bool) -> str:
    """Why some luck is missing, where it is, and the units."""
    units = f"{'Deal luck and nets' if measured else 'Nets'} in stake units, decisions in antes."
    if not measured and rp.final.cards_mode != "all":
        return f"No deal luck: the session records only the cards shown. {units}"
    if not measured:
        return f"No deal luck yet: the deals open when the session ends. {units}"
    if hidden:
        return (
            f"The luck counts only the deals opened; the others open when the session ends. {units}"
        )
    return units


def _luck(rp: Any, hidden: set[int], who: list[str], per: dict[str, rv.Summary]) -> None:
    prior = _priors(rp.session) if rp.final.cards_mode == "all" else None
    luck = rv.luck_by_player(rp.timeline.steps, hidden, prior)
    results = ui.show_results()
    nets = rp.final.nets if results else {}
    some_graded = any(per[p].graded for p in who)
    lines = [
        _player_line(p, per[p], luck.get(p), nets.get(p), some_graded=some_graded, results=results)
        for p in who
    ]
    st.markdown("\n".join(lines))
    st.caption(_luck_caption(rp, hidden, bool(luck)))


def _compare(player: str, session: str, s: rv.Summary) -> None:
    prev = []
    for other in _previous(player, session):
        got = _reviewed(other, start=False, player=player)
        if got is not None:
            _rp, prows, phid = got
            prev.append(rv.summarise(other, prows, phid, player))
    graded = sum(p.graded for p in prev)
    if not graded:
        st.caption(f"No graded decision of {escape.md(player)} in earlier sessions to compare.")
        return
    lost = sum(p.ev_lost for p in prev) / graded
    now = "no graded decision here" if s.mean_loss is None else f"**{s.mean_loss:.2f} ante** here"
    st.markdown(
        f"Lost a graded decision on average, against the best play: {now}, **{lost:.2f} ante** "
        f"over {escape.md(player)}'s {len(prev)} previous sessions ({graded} graded decisions)."
    )
    if graded < 10 or s.graded < 10:
        st.caption("Few graded decisions on one side or both: a rough guide, not a verdict.")


def _deck_view(player: str, session: str | None) -> None:
    ids = [session] if session else _previous(player, None, DECK_SESSIONS)
    cards: list[dict[str, Any]] = []
    graded = 0
    for sid in ids:
        got = _reviewed(sid, start=session is not None, player=player)
        if got is None:
            continue
        rp, rows, hidden = got
        mine = [r for r in rows if r.player == player]
        graded += sum(1 for r in mine if r.ev_loss is not None and r.deal not in hidden)
        pos = rv.positions(rp.timeline.steps, _sentences(rp), mine)
        cards += [c.as_dict() for c in rv.deck_cards(sid, mine, player, pos, hidden)]
    st.subheader(f"Deck of {escape.md(player)}'s mistakes")
    st.caption(
        f"Each card is a decision whose best action beat the one taken by at least "
        f"{rv.DECK_MARGIN} ante. Choose, then see the answer; this browser remembers the cards "
        f"answered. {len(cards)} cards."
    )
    if not session:
        st.caption(
            f"Drawn from {escape.md(player)}'s {len(ids)} newest sessions, "
            f"{graded} graded decisions among them: a decision is graded heads-up only (two "
            "players left before any bet), so a club table of more adds few or none. A "
            "session's own deck is one tap from its review."
        )
    _deck(key="review_deck", data={"cards": cards, "key": f"brag_deck:{player}"})


wanted = params.param("session")
player = params.param("player")
if params.param("view") == "deck" and player:
    _deck_view(player, wanted)
    st.stop()
ids = cache.session_ids(limit=cache.PICKER_LIMIT, keep=wanted)
if not ids:
    st.info("No sessions in the store yet: `brag run` imports the bundled season.")
    st.stop()
session = ui.session_picker(ids)
got = _reviewed(session, player=player)
if got is None:
    st.warning(f"Session {escape.md(session)} has no events.")
    st.stop()
rp, rows, hidden = got
ui.session_heading(rp)
seats = list(rp.final.seats)
if player is not None and player not in seats:
    st.caption(
        f"No player {escape.md(player[:60])} in this session: showing every player's decisions."
    )
    player = None
summary = rv.summarise(session, rows, hidden, player)
per = {p: rv.summarise(session, rows, hidden, p) for p in seats}

st.markdown(f"**Coverage**: {escape.md(summary.coverage_line())}.")
if summary.reasons:
    st.caption(rv.REFERENCE)
waiting = reviewing.pending([r for r in rows if r.deal not in hidden])
if waiting:
    st.info("Solving a betting game this review needs: its deals fill in by themselves.")

    @st.fragment(run_every=4)
    def _wait() -> None:
        now = reviewing.session_rows(session, cache.last_seq(session), rp.timeline.steps)
        if not reviewing.pending(now):
            st.rerun(scope="app")

    _wait()
ungraded = not summary.graded and not summary.withheld and not waiting
if ungraded and summary.decisions:  # a club table of three or more: nothing graded at all
    st.caption(
        "Nothing in this session is graded, so it has no moments or accuracy to show; "
        "each player's review compares their earlier sessions."
    )
st.subheader("Decisions and luck, player by player")
_luck(rp, hidden, [player] if player else seats, per)
if not ungraded:
    st.subheader("The moments that cost or won the most")
    if summary.moments:
        ui.link_rows(
            [_moment_row(m) for m in summary.moments], "Moments: a tap opens the replay step"
        )
    else:
        st.caption("No graded decision yet.")
    st.subheader("Accuracy by phase")
    _phase_table(summary)
if player:
    st.subheader("Against previous sessions")
    _compare(player, session, summary)
links = [
    LinkRow(href=rv.review_href(session, p), title=f"{p}'s review") for p in seats if p != player
]
if player:
    links.insert(0, LinkRow(href=rv.review_href(session), title="Every player's review"))
if player and per[player].graded:  # a deck of no card is a dead end
    deck = rv.review_href(session, player, view="deck")
    links.insert(0, LinkRow(href=deck, title=f"{player}'s deck of mistakes"))
ui.link_rows(links, "Each player's review")
