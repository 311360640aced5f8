"""Issue 38.3 and 38.4 in Streamlit's AppTest: the Review page over a store holding a simulated
heads-up session of every card (finished) and the same session cut in its sixth deal (in
progress). The coverage, the phases and the moments are the review's own (recomputed from the
shipped games); a game not shipped says "solving..." without blocking; a visitor of the session in
progress reads no hole card of a deal it may not see (RULES 3.3, present/sight.py); the Session
page and My sessions link to the review."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dashboard_store_helpers import dashboard_store
from review_helpers import LIVE, SESSION, events, in_progress, reviewed, write
from streamlit.testing.v1 import AppTest

from dashboard.stats import review_view as rv
from dashboard.stats import reviewing
from events.model import Dealt
from present import sight
from present.numbers import signed
from present.replay import Replay
from sim.randplay import shown_only
from sim.table import SessionSpec, simulate

ROOT = Path(__file__).resolve().parents[2]
ODD = "hu-odd"  # a carried pot of 4.5 antes: a betting game not shipped
ASKED: list[Any] = []
APP = str(ROOT / "dashboard" / "app.py")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    logs = [write(tmp_path / "hu.jsonl", events()), write(tmp_path / "live.jsonl", in_progress())]
    logs.append(write(tmp_path / "odd.jsonl", events(ODD, seed=8)))
    monkeypatch.setenv("BRAG_SOLVER_CACHE", str(tmp_path / "solver-cache"))
    # a game not shipped is not solved here (a test does not spend a minute of CPU): it stays
    # "solving..."
    monkeypatch.setattr(reviewing, "_solve", ASKED.append)
    yield dashboard_store(tmp_path, monkeypatch, logs)


def _page(file: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(file)
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def _text(at: AppTest) -> str:
    parts: list[Any] = [*at.title, *at.subheader, *at.markdown, *at.caption, *at.info]
    parts += [*at.warning, *at.error]
    return html.unescape("\n".join(str(p.value) for p in parts))


def test_the_review_shows_the_coverage_the_phases_and_the_moments(store: str) -> None:
    _t, r = reviewed(events())
    want = rv.summarise(SESSION, r.rows, (), "Ann")
    at = _page("stats/review_page.py", session=SESSION, player="Ann")
    assert not at.exception and at.title[0].value == "Review"
    text = _text(at)
    # the page's games: the shipped ones; the deal of a game not shipped waits for its solve
    solving = sum(x.player == "Ann" and x.grade.endswith("not at hand") for x in r.rows)
    assert f"graded {want.graded} of {want.decisions} decisions" in text
    if solving:
        assert f"{solving} because {rv.plain_reason(reviewing.SOLVING)}" in text and any(
            "Solving" in i.value for i in at.info
        )
    for ph, (n, good, loss) in want.phases.items():
        assert f"| {ph} | {n} | {good:.0%} | {loss:.3f} ante |" in text
    for m in want.moments:
        assert m.href in text
    assert f"lost to decisions {want.ev_lost:.2f} ante against the best play" in text
    assert "· net " not in text  # no net until Show results
    final = Replay.of(events()).final
    luck = rv.luck_by_player(_t.steps)["Ann"]
    at.toggle(key="show_results").set_value(True).run()
    net = final.nets["Ann"]
    assert f"net {signed(net)}, luck-adjusted {signed(net - luck)}" in _text(at)


def test_a_visitor_of_a_session_in_progress_reads_no_hidden_card(store: str) -> None:
    evs = in_progress()
    rp = Replay.of(evs)
    first = sight.guarded_from(rp)
    assert first is not None
    hidden = frozenset(
        c for e in evs if isinstance(e, Dealt) and e.hands for h in e.hands.values() for c in h
    )
    deals = [e for e in evs if isinstance(e, Dealt)]
    assert hidden and len(deals) == 6 and first == 1  # every deal since the one shuffle
    at = _page("stats/review_page.py", session=LIVE, player="Ann")
    assert not at.exception
    text = _text(at)
    assert rv.WITHHELD in text and "graded 0 of" in text
    # nothing graded is said so, not as "lost 0.00 ante" (which reads as perfect play)
    assert "**Ann**: no decision graded" in text and "lost to decisions" not in text
    assert not sight.names_a_card(text, hidden), text
    assert "· deal luck" not in text
    deck = _page("stats/review_page.py", session=LIVE, player="Ann", view="deck")
    assert not deck.exception and "answered. 0 cards." in _text(deck)


def _page_links(at: AppTest) -> list[tuple[str, str]]:
    return [(p.proto.page, p.proto.query_string) for p in at.get("page_link")]


def test_the_session_page_and_my_sessions_open_the_review(store: str) -> None:
    at = _page("replay/session_page.py", session=SESSION)
    assert not at.exception
    assert ("review", f"session={SESSION}") in _page_links(at)
    mine = _page("stats/mine_page.py")
    mine.selectbox(key="me").set_value("Ann").run()
    text = _text(mine)
    assert f"review?session={SESSION}&player=Ann" in text
    assert "review?player=Ann&view=deck" in text
    # a review grading nothing is no link but one line saying why (here: a session in progress,
    # whose deals this device sees only as a spectator)
    assert f"review?session={LIVE}&" not in text
    assert f"- {LIVE}: nothing graded: its deals open when the session ends." in text
    assert "looks through" not in text  # no constant's docstring printed by Streamlit's magic


def test_a_game_not_shipped_says_solving_and_does_not_block_the_page(store: str) -> None:
    import time

    ASKED.clear()
    t0 = time.perf_counter()
    at = _page("stats/review_page.py", session=ODD)
    took = time.perf_counter() - t0
    assert not at.exception
    text = _text(at)
    assert rv.plain_reason(reviewing.SOLVING) in text and any("Solving" in i.value for i in at.info)
    assert "no reference" not in text and "solution's path" not in text  # the solver's words
    assert rv.REFERENCE in text
    assert [dead for (_seen, dead) in ASKED] == [4.5]  # the one game missing, asked once
    assert took < 10  # two runs of the app in AppTest, never a solve (20-90 s here)
    reviewing._PENDING.clear()


def test_the_replay_page_links_to_the_review(store: str) -> None:
    at = _page("replay/replay_page.py", session=SESSION, deal="10", step="1")
    assert not at.exception
    assert ("review", f"session={SESSION}") in _page_links(at)


def test_the_comparison_is_with_the_players_previous_sessions_as_this_device_sees_them(
    store: str,
) -> None:
    """Each of Ann's sessions against her earlier ones (newest first, up to five): the deals of the
    session in progress are withheld there too."""
    from log.open import open_store
    from store.records import SessionFilter

    with open_store(store) as s:
        infos = list(s.sessions(order="newest", limit=50, where=SessionFilter(players=("Ann",))))
        ids = [i.session for i in infos]
        summaries = {}
        for sid in ids:
            evs = list(s.events(sid))
            rp = Replay.of(evs)
            hide = {d for d in range(1, rp.final.deals + 1) if sight.guards(rp, d)}
            summaries[sid] = rv.summarise(sid, reviewed(evs)[1].rows, hide, "Ann")
    assert len(ids) == 3
    compared = 0
    for k, sid in enumerate(ids):
        prev = [summaries[x] for x in ids[k + 1 :][:5]]
        text = _text(_page("stats/review_page.py", session=sid, player="Ann"))
        graded = sum(p.graded for p in prev)
        if not graded:
            assert "No graded decision of Ann in earlier sessions" in text
            continue
        compared += 1
        lost = sum(p.ev_lost for p in prev) / graded
        want = f"**{lost:.2f} ante** over Ann's {len(prev)} previous sessions ({graded} graded"
        assert want in text
    assert compared >= 1


def test_a_players_own_deck_says_what_it_is_drawn_from(store: str) -> None:
    """Without a session, the deck is drawn from the player's newest sessions and says how many
    graded decisions they hold (walk 3: an empty deck said only that no decision lost): as many
    as the sessions' own reviews grade for that player, a game not shipped and a deal not open
    to this device left out alike."""
    at = _page("stats/review_page.py", player="Ann", view="deck")
    assert not at.exception, [e.value for e in at.exception]
    m = re.search(r"Drawn from Ann's (\d+) newest sessions, (\d+) graded decisions", _text(at))
    assert m, _text(at)
    each = []
    for sid in (SESSION, LIVE, ODD):
        got = re.search(
            r"graded (\d+) of", _text(_page("stats/review_page.py", session=sid, player="Ann"))
        )
        assert got, sid
        each.append(int(got.group(1)))
    assert (int(m.group(1)), int(m.group(2))) == (3, sum(each)) and sum(each) > 0


def test_a_link_naming_no_such_player_or_session_says_so_briefly(store: str) -> None:
    """Walk: ``player=Nobody`` showed everyone's review with no word; a 5,000-character session
    id was echoed whole in the warning, filling a phone's screen."""
    at = _page("stats/review_page.py", session=SESSION, player="Nobody")
    assert not at.exception
    assert any("No player Nobody in this session" in c.value for c in at.caption)
    at = _page("stats/review_page.py", session="A" * 5000)
    assert not at.exception
    said = [w.value for w in at.warning if "No session" in w.value]
    assert said and len(said[0]) < 200 and "…" in said[0]


def test_a_table_of_five_graded_nowhere_shows_its_luck_without_empty_sections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A club table of five where no decision is graded (the reference is heads-up: the betting
    never began with two players in), as in the bundled season: the page says so once and shows
    each player's deal luck, with no empty moments, no table of zeros and no "no decision
    graded" on every line (fresh-user check at 390 px)."""
    styles = ("rock", "loose", "blind", "rock", "loose")
    seats = tuple(zip(("Ann", "Bob", "Cat", "Dan", "Eve"), styles, strict=True))
    evs = list(simulate(SessionSpec(session="five", seats=seats, seed=1)))
    _t, r = reviewed(evs)
    want = rv.summarise("five", r.rows, (), None)
    assert want.decisions and not want.graded and not want.withheld
    monkeypatch.setattr(reviewing, "_solve", ASKED.append)
    shown = shown_only(simulate(SessionSpec(session="five-shown", seats=seats, seed=1)))
    logs = [write(tmp_path / "five.jsonl", evs), write(tmp_path / "shown.jsonl", shown)]
    dashboard_store(tmp_path, monkeypatch, logs)
    at = _page("stats/review_page.py", session="five")
    assert not at.exception
    text = _text(at)
    assert f"graded 0 of {want.decisions} decisions" in text
    assert "Nothing in this session is graded" in text
    headings = [h.value for h in at.subheader]
    assert "Decisions and luck, player by player" in headings
    assert "Accuracy by phase" not in headings and "No graded decision yet." not in text
    luck = rv.luck_by_player(_t.steps)
    for name, _style in seats:
        assert f"**{name}**: deal luck {signed(luck[name])}" in text
    assert "no decision graded" not in text
    assert "Deal luck and nets in stake units, decisions in antes." in text
    # one player's review: back to every player's, and no deck of mistakes without a graded one
    ann = _page("stats/review_page.py", session="five", player="Ann")
    assert 'href="review?session=five"' in _text(ann)
    assert "view=deck" not in _text(ann)
    # cards shown only: no luck, and Show results shows each net all the same
    at = _page("stats/review_page.py", session="five-shown")
    at.toggle(key="show_results").set_value(True).run()
    text = _text(at)
    nets = Replay.of(shown).final.nets
    assert "No deal luck: the session records only the cards shown. Nets in stake units" in text
    for name, _style in seats:
        assert f"**{name}**: net {signed(nets[name])}" in text
