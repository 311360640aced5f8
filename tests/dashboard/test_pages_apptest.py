"""Every dashboard page under Streamlit's ``AppTest`` (no browser): it runs without an exception,
the replayer steps through a session with the pot changing where it should, view-as hides what a
player could not know, the recorder appends exactly the events clicked (and undo a ``voided``),
nothing is recorded without the organiser secret, and Explore refuses a write."""

from __future__ import annotations

import json
import os
import re
import uuid
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

pytest.importorskip("streamlit")
from apptest_helpers import APP, page, pick_hands
from example_logs import ALL_CARDS, LOGS
from streamlit.testing.v1 import AppTest

from log.open import open_store
from present.numbers import signed

SECRET = "open sesame please"
ROOT = Path(__file__).resolve().parents[2]


def face_up(svg: str, seat: str) -> list[str]:
    """The face-up cards drawn at one seat of the table picture."""
    m = re.search(rf'<g data-seat="{re.escape(seat)}".*?(?=<g data-seat=|</svg>)', svg)
    assert m, seat
    return [c for c in re.findall(r'data-card="([^"]+)"', m.group(0)) if c != "down"]


# --- every page --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["sessions", "session", "replay", "players", "decisions", "record", "explore"]
)
def test_every_page_runs(store_url: str, name: str) -> None:
    at = page(name)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value.lower() == name


def link_rows(at: AppTest) -> list[dict[str, Any]]:
    """The rows a thumb opens on the page (:func:`dashboard.view.rows_html`), read back from its
    HTML: each row's link, title, detail lines and side link."""
    from html.parser import HTMLParser

    class Rows(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.rows: list[dict[str, Any]] = []
            self.into: str | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = dict(attrs)
            cls = a.get("class") or ""
            if tag == "li":
                self.rows.append({"details": []})
            elif tag == "a" and cls == "brag-main":
                self.rows[-1]["href"] = a["href"]
            elif tag == "a" and cls == "brag-side":
                self.rows[-1]["side"] = a["href"]
            elif tag == "span":
                self.into = cls

        def handle_data(self, data: str) -> None:
            if self.into == "brag-title":
                self.rows[-1]["title"] = data
            elif self.into == "brag-detail":
                self.rows[-1]["details"].append(data)
            self.into = None

    parser = Rows()
    for m in at.markdown:
        if m.proto.allow_html and 'class="brag-rows"' in m.value:
            parser.feed(m.value)
    return parser.rows


def test_sessions_lists_and_filters(store_url: str) -> None:
    at = page("sessions")
    rows = link_rows(at)
    assert len(rows) == 3
    # a finished session opens at its start; one in progress follows live (issue 35.4)
    assert {r["href"] for r in rows} == {
        f"replay?session={ALL_CARDS}&deal=1&step=1",
        "replay?session=card-example&follow=1",
        "replay?session=blind-half&follow=1",
    }
    assert all(
        ("in progress" in " ".join(r["details"])) == r["href"].endswith("follow=1") for r in rows
    )
    at.multiselect[0].set_value(["Jean"]).run()
    rows = link_rows(at)
    assert [r["title"] for r in rows] == [f"▶ {ALL_CARDS}"]
    assert rows[0]["side"] == f"session?session={ALL_CARDS}"


def test_sessions_hide_who_won_until_asked(store_url: str) -> None:
    from log.open import open_store

    with open_store(store_url) as store:
        info = next(i for i in store.sessions() if i.session == ALL_CARDS)
    at = page("sessions")
    at.multiselect[0].set_value(["Jean"]).run()
    hidden = link_rows(at)[0]["details"]
    assert hidden == [
        f"{info.started:%Y-%m-%d %H:%M} · table Top table",
        "4 players · 8 deals · 8 pots resolved · finished",
    ]
    page_text = "\n".join(m.value for m in at.markdown)
    assert not any(w in page_text for w in info.winners)  # no winner's name in the page
    # what the switch hides is said beside it, not behind a (?) that a thumb's tap would turn
    assert any(c.value.startswith("Results hidden: no winner") for c in at.caption)
    at.toggle(key="show_results").set_value(True).run()
    assert not any(c.value.startswith("Results hidden") for c in at.caption)
    shown = link_rows(at)[0]["details"]
    assert shown[:2] == hidden
    assert shown[2] == "Players: " + ", ".join(info.players)
    assert shown[3] == "Won by " + ", ".join(info.winners)


def test_sessions_come_a_page_at_a_time(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.common import cache

    monkeypatch.setattr(cache, "SESSIONS_PAGE", 2)
    at = page("sessions")
    assert len(link_rows(at)) == 2
    assert "sessions 1-2 of 3, newest first" in [c.value for c in at.caption]
    at.number_input(key="sessions_page").set_value(2).run()
    assert len(link_rows(at)) == 1
    assert "sessions 3-3 of 3, newest first" in [c.value for c in at.caption]
    at.multiselect[1].set_value(["(none)"]).run()  # the sessions recorded without a table
    assert "2 of 3 sessions" in [c.value for c in at.caption]


def test_session_page_has_the_leaderboard_and_the_deals(store_url: str) -> None:
    at = page("session", session=ALL_CARDS)
    assert not at.exception
    assert not at.dataframe  # results hidden: no standings until asked
    deals = link_rows(at)
    assert [r["title"] for r in deals] == [f"▶ Deal {k}" for k in range(1, len(deals) + 1)]
    assert deals[0]["href"] == f"replay?session={ALL_CARDS}&deal=1&step=1"
    assert not any("wins" in d for r in deals for d in r["details"])
    at.toggle(key="show_results").set_value(True).run()
    board = at.dataframe[0].value
    assert set(board["player"]) == {"Jean", "Margaret", "Colin", "Sandra"}
    assert (board["winner"] != "").sum() >= 1
    from present.numbers import amount

    shown = link_rows(at)
    assert len(shown) == len(deals)
    won = [json.loads(x) for x in LOGS[1].read_text().splitlines() if '"pot_won"' in x]
    assert len(won) == len(deals)
    for row, w in zip(shown, won, strict=True):  # each deal's result, as the log says it
        pot = amount(Fraction(w["amount"]))
        assert row["details"][1].startswith(f"{w['player']} wins {pot} at the showdown")
    assert shown[0]["details"][1] == "Sandra wins 14 at the showdown with high card: 10♣ Q♠ 5♣"


def test_the_menu_goes_from_a_session_to_its_replay(store_url: str) -> None:
    """Issue 21: the sidebar's menu (no session in the link) opens the replay of the session the
    Session page just showed, not the newest session."""
    newest = page("replay").selectbox[0].value
    other = next(s for s in (ALL_CARDS, "card-example", "blind-half") if s != newest)
    at = page("session", session=other)
    at.query_params.clear()  # what a tap on "Replay" in the sidebar leaves in the link
    at.switch_page("replay/replay_page.py").run()
    assert not at.exception
    assert at.selectbox[0].value == other and at.query_params["session"] == other


@pytest.mark.parametrize("name", ["session", "replay"])
def test_an_unknown_session_in_a_link_is_named_and_the_link_corrected(
    store_url: str, name: str
) -> None:
    at = page(name, session="*no*[such](x)", deal="3", step="5")
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.warning) == 1
    warned = at.warning[0].value
    assert warned.startswith(r"No session \*no\*\[such\](x) in the store: showing ")  # text
    newest = at.selectbox[0].value
    assert newest in warned and len(at.selectbox[0].options) == 3  # the picker offers them all
    assert at.query_params["session"] == newest
    assert "deal" not in at.query_params and "step" not in at.query_params


@pytest.mark.parametrize("name", ["session", "replay", "record"])
def test_a_finished_session_is_not_polled(
    store_url: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing follows a finished session (RULES 1.4: nothing more is played): no poll runs."""
    from dashboard.common import cache

    polls: list[str] = []
    monkeypatch.setattr(cache, "polled_last_seq", lambda s: polls.append(s) or 0)
    if name == "record":
        at = unlocked(monkeypatch)
        polls.clear()  # the newest session, not finished, was shown first
        at.query_params["session"] = ALL_CARDS
        at.run()
    else:
        at = page(name, session=ALL_CARDS)
    assert not at.exception, [e.value for e in at.exception]
    assert ALL_CARDS in [b.value for b in at.selectbox]  # the page shows that session
    assert polls == []


# --- the replayer ------------------------------------------------------------------------------


def sent(at: AppTest) -> dict[str, Any]:
    """The data the page sends the browser replayer (one deal's frames)."""
    return dict(json.loads(at.get("bidi_component")[0].proto.json))


def test_the_deal_is_sent_once_with_every_step(store_url: str) -> None:
    at = page("replay", session="card-example", deal="1", step="5")  # everyone has looked
    assert not at.exception
    data = sent(at)
    frames = data["frames"]
    assert data["start"] == 4 and [f["step"] for f in frames] == list(range(1, len(frames) + 1))
    assert frames[4]["pot"] == "4" and frames[4]["line"] == "Pot 4 · No bet yet · A to act"
    assert frames[5]["text"] == "A bets level 2: pays 2"
    assert frames[5]["line"] == "Pot 6 · Level 2 · B to act"
    assert frames[7]["pot"] == "8"  # C folds: the pot stays
    assert frames[-1]["pot"] == "0" and frames[-1]["text"].startswith("B wins the pot of 12")
    # what A may do at step 5 and what it costs (RULES 5.5: open at level 1..5)
    assert frames[4]["acts"] == ["bet level 1–5: pays 1–5", "fold: free"]


def test_the_see_is_a_step_with_its_pot(store_url: str) -> None:
    frames = sent(page("replay", session="blind-half", deal="1"))["frames"]
    assert frames[10]["text"] == "B sees A: pays 6, the level, being blind"
    assert int(frames[10]["pot"]) == int(frames[9]["pot"]) + 6


def test_view_as_hides_what_a_player_could_not_know(store_url: str) -> None:
    seats = ["Jean", "Margaret", "Colin", "Sandra"]
    everyone = sent(page("replay", session=ALL_CARDS, deal="1", step="1"))
    assert all(len(face_up(everyone["frames"][0]["svg"], p)) == 3 for p in seats)
    data = sent(page("replay", session=ALL_CARDS, deal="1", step="1", view="Margaret"))
    assert data["view"] == "Margaret"
    texts = [f["text"] for f in data["frames"]]
    looked = texts.index("Margaret looks at their cards")
    for k, f in enumerate(data["frames"][: looked + 1]):
        for p in seats:
            mine = p == "Margaret" and k == looked
            assert len(face_up(f["svg"], p)) == (3 if mine else 0), (k, p)


def test_view_as_shows_cards_shown_at_the_showdown(store_url: str) -> None:
    data = sent(page("replay", session="card-example", deal="1", step="11", view="C"))
    svg = data["frames"][data["start"]]["svg"]  # B has shown
    assert face_up(svg, "B") == ["5s", "6h", "7d"]
    assert face_up(svg, "A") == [] and face_up(svg, "C") == []


def test_a_bad_link_lands_on_a_real_step(store_url: str) -> None:
    at = page("replay", session="nope", deal="x", step="999")
    assert not at.exception
    assert at.query_params["session"] in {"card-example", ALL_CARDS, "blind-half"}


# --- recording ---------------------------------------------------------------------------------


def unlocked(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    at = page("record")
    at.text_input(key="secret_input").input(SECRET)
    at.button[0].click().run()
    assert not at.exception
    return at


def test_without_the_secret_nothing_can_be_recorded(store_url: str) -> None:
    at = page("record")
    assert "Read-only" in at.warning[0].value
    assert not at.text_input and not at.button


def test_with_the_secret_set_but_not_given_nothing_can_be_recorded(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    at = page("record")
    at.text_input(key="secret_input").input("guess")
    at.button[0].click().run()
    assert "not the organiser secret" in at.error[0].value
    assert [t.key for t in at.text_input] == ["secret_input"]


def start(
    at: AppTest, name: str = "friday", seats: tuple[str, ...] = ("Ann", "Bob", "Cal")
) -> AppTest:
    """The start form filled in and sent: the last seat deals first."""
    at.text_input(key="start_session").input(name)
    at.session_state["start_table"] = "Top table"  # a table already in the store
    # new names, as typed (not among the options)
    at.session_state["start_players"] = list(seats)
    at.run()
    if len(seats) > 1:
        at.selectbox(key="start_dealer").set_value(seats[-1])
    next(b for b in at.button if b.label == "Start the session").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def tap(session: str, *spots: str | dict[str, Any]) -> tuple[str, str]:
    """Taps ``spots`` (a spot, or a whole tap) one after the other as the pad sends them
    (``POST /api/tap``'s body, :func:`dashboard.record.routes.record_tap`), each drawn for the
    session's last seq unless it names its own; the last ``(outcome, message)``."""
    from dashboard.record import routes as pad_api

    outcome = message = ""
    with open_store(os.environ["BRAG_DB"]) as store:
        for s in spots:
            t = {"spot": s} if isinstance(s, str) else s
            full = {
                "session": session,
                "seq": store.last_seq(session),
                "id": str(uuid.uuid4()),
                "at": datetime.now().astimezone().isoformat(timespec="seconds"),
                **t,
            }
            outcome, message, _ = pad_api.record_tap(store, full)
    return outcome, message


def types(url: str, session: str) -> list[str]:
    with open_store(url) as store:
        return [e.type for e in store.events(session)]


def test_recording_appends_exactly_the_events_tapped(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = start(unlocked(monkeypatch))
    assert at.query_params["session"] == "friday"
    assert at.session_state["recording"] == "friday"
    tap("friday", "shuffle", "deal", "peek-1")
    kind, text = tap("friday", "bet-0")  # Ann sits left of the dealer, Cal
    assert kind == "recorded"
    assert text == "Recorded: Ann bets level 1: pays ½, half the level, being blind"
    assert types(store_url, "friday") == [
        "session_started",
        "dealer_chosen",
        "shuffled",
        "dealt",
        "looked",
        "bet",
    ]
    with open_store(store_url) as store:
        events = store.events("friday")
        assert events[-1].by == "organiser" and events[0].table == "Top table"  # type: ignore[union-attr]
        # Each event is timed as recorded (FORMAT.md at), with the device's UTC offset.
        times = [e.at for e in events]
        assert all(t is not None and t.utcoffset() is not None for t in times), times
        assert times == sorted(times)  # type: ignore[type-var]
    kind, text = tap("friday", "undo")
    assert text == (
        "Correction: step 3 (Ann bets level 1: pays ½, half the level, being blind) is "
        "withdrawn; the table goes back to step 2"
    )
    with open_store(store_url) as store:
        last = store.events("friday")[-1]
        assert last.type == "voided" and last.seq == 6  # type: ignore[union-attr]
        assert store.state("friday").pot == 3
    kind, text = tap("friday", "redo")
    assert text == "Recorded again: Ann bets level 1: pays ½, half the level, being blind"
    with open_store(store_url) as store:
        events = store.events("friday")
        assert [e.type for e in events[-3:]] == ["bet", "voided", "bet"]
        strip = {"id", "seq", "at"}
        assert events[-1].model_dump(exclude=strip) == events[-3].model_dump(exclude=strip)
        assert store.state("friday").pot == Fraction(7, 2)


def test_a_tap_sent_again_records_one_event(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pad sends a tap until the server answers; the same tap (its id) is stored once, and
    a second tap drawn for the same state as the first is refused (the session moved on)."""
    start(unlocked(monkeypatch), "double")
    tap("double", "shuffle", "deal")
    n = len(types(store_url, "double"))
    with open_store(store_url) as store:
        seq = store.last_seq("double")
    same = {"spot": "bet-0", "seq": seq, "id": str(uuid.uuid4())}
    assert tap("double", same, same)[0] == "recorded"
    assert types(store_url, "double")[n:] == ["bet"]
    kind, text = tap("double", {"spot": "bet-0", "seq": seq})  # a second tap, an older drawing
    assert kind == "conflict" and text.startswith("Not recorded: another device recorded first")
    assert types(store_url, "double")[n:] == ["bet"]


def test_a_showdown_at_a_real_table_takes_the_cards_picked(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    start(unlocked(monkeypatch), "duel")
    tap("duel", "shuffle", "deal", "look", "peek-1", "peek-2")  # Ann, to act, and the others look
    tap("duel", "bet-0", "fold", "see")  # Ann bets 1, Bob folds, Cal sees Ann
    kind, text = tap("duel", {"spot": "show", "cards": ["As", "Ks", "Qh"]})
    assert kind == "recorded" and text.startswith("Recorded: Ann shows A♠ K♠ Q♥")
    with open_store(store_url) as store:
        shown = store.events("duel")[-1]
        assert shown.type == "shown" and shown.cards == ("As", "Ks", "Qh")  # type: ignore[union-attr]
    kind, text = tap("duel", {"spot": "show", "cards": ["As", "2d", "3c"]})  # A♠ is Ann's
    assert kind == "refused" and text.startswith("Not recorded: RULES")
    assert types(store_url, "duel")[-1] == "shown"


def test_another_device_recording_first_is_a_conflict(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from events.model import Shuffled

    start(unlocked(monkeypatch), "race")
    with open_store(store_url) as store:
        store.append("race", [Shuffled()], 2)  # the other tablet shuffles first
    kind, text = tap("race", {"spot": "shuffle", "seq": 2})  # this pad still showed seq 2
    assert kind == "conflict" and text.startswith("Not recorded: another device recorded first")
    assert types(store_url, "race").count("shuffled") == 1


def test_a_refusal_is_shown_in_the_rules_words(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = start(unlocked(monkeypatch), "alone", seats=("Cal",))
    assert "Refused: RULES 1.3: a session seats 2 to 10 players, not 1" in at.error[0].value
    assert "session" not in at.query_params  # the link is as it was
    with open_store(store_url) as store:
        assert not store.has("alone")
    start(at, "twice")
    again = start(unlocked(monkeypatch), "twice")
    assert "already a session called twice" in again.error[0].value


def test_a_sessions_confirmation_never_shows_under_the_new_session_form(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = start(unlocked(monkeypatch), "before")
    assert "Recorded: Session before starts" in at.session_state["flash"][1]
    assert at.session_state["device_panel"] is False  # the panel folds away: the pad shows
    at.selectbox(key="record_session").set_value("Start a new session").run()
    assert not at.exception
    assert at.text_input(key="start_session").value == ""  # the form, and no stale note above
    assert not at.success and not at.info and not at.warning


def test_the_device_stays_unlocked_and_remembers_its_session(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = start(unlocked(monkeypatch), "kept")
    at.text_input(key="recorded_by").input("Zoe").run()
    at.switch_page("replay/sessions_page.py").run()
    at.query_params.clear()
    at.switch_page("record/record_page.py").run()
    assert not at.exception
    assert at.selectbox(key="record_session").value == "kept"
    assert at.text_input(key="recorded_by").value == "Zoe"
    next(b for b in at.button if b.label == "Lock this device").click().run()
    assert [t.key for t in at.text_input] == ["secret_input"]


def test_explore_runs_a_select_and_refuses_a_write(store_url: str) -> None:
    at = page("explore")
    sql = at.text_area(key="sql_text")
    sql.input("SELECT player, count(*) AS deals FROM player_deals GROUP BY player ORDER BY 1")
    at.button(key="FormSubmitter:sql-Run").click().run()
    assert not at.exception and not at.error
    result = at.dataframe[0].value
    assert "Jean" in set(result["player"])
    assert at.get("download_button")
    at.text_area(key="sql_text").input("DELETE FROM deals")
    at.button(key="FormSubmitter:sql-Run").click().run()
    assert "Refused" in at.error[0].value
    at.text_area(key="sql_text").input("CREATE TABLE x AS SELECT 1")
    at.button(key="FormSubmitter:sql-Run").click().run()
    assert "Refused" in at.error[0].value


def test_players_side_by_side(store_url: str) -> None:
    """Two players side by side in a table whose cells wrap (a phone's 390 px cuts none): a
    statistic a row, each player's figure as the page writes it."""
    at = page("players", player="Jean", vs="Colin")
    assert not at.exception
    table = at.table[0].value
    assert list(table.columns) == ["statistic", "Jean", "Colin"]
    # what a player reads points at nothing a phone cannot open (the help tooltips may)
    read = [c.value for c in at.caption] + [m.value for m in at.markdown]
    assert any("luck-adjusted net" in t for t in read)
    assert not [t for t in read if "docs/" in t]
    import duckdb

    from analytics import queries
    from dashboard.common.escape import md
    from dashboard.stats.figures import stat_text

    con = duckdb.connect(os.environ["BRAG_ANALYTICS"], read_only=True)
    stats = {r["player"]: r for r in queries.player_stats(con)}
    con.close()
    rows = {r["statistic"]: r for r in table.to_dict("records")}
    assert rows["Deals"] == {
        "statistic": "Deals",
        "Jean": str(stats["Jean"]["deals"]),
        "Colin": str(stats["Colin"]["deals"]),
    }
    assert rows["Net"]["Jean"] == md(stat_text(stats["Jean"], "net"))
    # each player in one colour in both charts, the pack in grey; the shares as the query says
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    net, hands = specs[0], specs[-1]

    def colours(spec: dict[str, Any]) -> tuple[list[str], list[str]]:
        enc = next(
            layer["encoding"]["color"]["scale"]
            for layer in [spec, *spec.get("layer", [])]
            if "scale" in layer.get("encoding", {}).get("color", {})
        )
        return enc["domain"], enc["range"]

    assert colours(net) == (["Jean", "Colin"], ["#1f77b4", "#d62728"])
    # a tap on a session's column names each player's net in it, and their running net after
    net_proto = at.get("vega_lite_chart")[0].proto
    sets = [pa.ipc.open_stream(d.data.data).read_all().to_pylist() for d in net_proto.datasets]
    columns = next(rows for rows in sets if rows and "nets" in rows[0])
    con = duckdb.connect(os.environ["BRAG_ANALYTICS"], read_only=True)
    own = {
        s: Fraction(int(t), int(d))
        for s, t, d in con.execute(
            "SELECT session, sum(net_t), any_value(den) FROM player_deals "
            "WHERE player = 'Jean' GROUP BY session"
        ).fetchall()
    }
    con.close()
    ran = Fraction(0)
    for c in columns:
        if c["which"] in own:
            ran += own[c["which"]]
            want = f"Jean {signed(own[c['which']])} that session ({signed(ran)} in all)"
            assert want in c["nets"], (c, want)
    assert ran == stats["Jean"]["net"]
    assert colours(hands) == (
        ["Jean", "Colin", "RULES 2.8 (the pack)"],
        [*colours(net)[1], "#a6a6a6"],
    )
    legend = hands["encoding"]["color"]["legend"]
    assert legend["orient"] == "bottom" and legend["direction"] == "vertical"
    con = duckdb.connect(os.environ["BRAG_ANALYTICS"], read_only=True)
    shown = queries.showdown_hands(con, player="Jean")
    con.close()
    proto = at.get("vega_lite_chart")[-1].proto  # the bars' values: Arrow beside the spec
    values = pa.ipc.open_stream(proto.data.data).read_all().to_pylist()
    bars = {(r["series"], r["category"]): r["share"] for r in values}
    for r in shown:
        assert bars["Jean", r["category"]] == round(100 * float(r["shown_share"] or 0), 2)
        assert bars["RULES 2.8 (the pack)", r["category"]] == round(
            100 * float(r["rules_share"]), 2
        )
    # under it one table, a category a row, both players and the pack (cells wrap: none cut)
    hands_table = at.table[-1].value
    assert list(hands_table.columns) == ["category", "Jean", "Colin", "RULES 2.8 (the pack)"]
    lines = {r["category"]: r for r in hands_table.to_dict("records")}
    for r in shown:
        cell = lines[r["category"]]
        want = (
            f"{r['shown']} of {r['shown_n']} ({float(r['shown_share'] or 0):.1%}) · {r['won']} won"
        )
        assert cell["Jean"] == md(want if r["shown_n"] else "–")
        assert cell["RULES 2.8 (the pack)"] == md(
            f"{float(r['rules_share']):.2%} · {r['rules_hands']:,} hands"
        )
    assert lines["high card"]["RULES 2.8 (the pack)"] == md("74.39% · 16,440 hands")


def test_players_at_one_table(store_url: str) -> None:
    """?table= narrows the statistics to the sessions played at that table: the rule card's
    example (players A to D, at no table) drops out; ``All tables`` keeps every session."""
    at = page("players", table="Top table")
    assert not at.exception
    assert at.selectbox(key="pick_table").value == "Top table"
    assert at.selectbox(key="pick_table").options == ["All tables", "Top table"]
    assert sorted(at.dataframe[0].value["player"]) == ["Colin", "Jean", "Margaret", "Sandra"]
    every = page("players")
    assert every.selectbox(key="pick_table").value == "All tables"
    assert {"A", "Colin"} <= set(every.dataframe[0].value["player"])


def test_decisions_page_shows_the_spot_the_link_names(store_url: str) -> None:
    """The Decisions page at ``?player=Jean&spot=actor=seen&cell=player:bet``: its table is
    :func:`analytics.spots.answer_rows` of the spot (recomputed here from the projection), and
    it lists Jean's bets there, one plain link each to the bet's step (dashboard.view.rows_html)."""
    import duckdb

    from analytics import spots

    at = page("decisions", player="Jean", spot="actor=seen", cell="player:bet")
    assert not at.exception, [e.value for e in at.exception]
    con = duckdb.connect(os.environ["BRAG_ANALYTICS"], read_only=True)
    answer = spots.explore(con, spots.Spot.parse("actor=seen"), "Jean")
    bets = spots.behind(con, spots.Spot.parse("actor=seen"), "player", "bet", "Jean")
    con.close()
    table = at.dataframe[0].value
    assert table.to_dict("records") == spots.answer_rows(answer)
    assert f"Jean, bet: {len(bets)} decisions in" in " ".join(str(c.value) for c in at.caption)
    links = next(m.value for m in at.markdown if "Decisions: a tap opens the replay" in m.value)
    assert links.count('href="replay?session=') == min(len(bets), 60)
    first = bets[0]
    href = f"replay?session={first['session']}&amp;deal={first['deal']}&amp;step={first['step']}"
    assert f'href="{href}"' in links
    # more than a page: every one within reach, 60 a page (a phone has no `brag decisions`)
    every = spots.behind(con_again := duckdb.connect(os.environ["BRAG_ANALYTICS"], read_only=True),
                         spots.Spot.parse("actor=seen"), "field", None, "Jean")  # fmt: skip
    con_again.close()
    assert len(every) > 60
    at = page("decisions", player="Jean", spot="actor=seen", cell="field")
    pages = -(-len(every) // 60)
    (paging,) = [w for w in at.number_input if w.key.startswith("decisions_page")]
    assert paging.max == pages
    paging.set_value(pages).run()
    assert at.query_params["page"] == str(pages)  # in the link: Back from a replay comes here
    links = next(m.value for m in at.markdown if "Decisions: a tap opens the replay" in m.value)
    last = every[(pages - 1) * 60 :]
    assert links.count('href="replay?session=') == len(last)
    r = last[-1]
    assert f"replay?session={r['session']}&amp;deal={r['deal']}&amp;step={r['step']}" in links
    said = " ".join(str(c.value) for c in at.caption)
    assert f"Decisions {(pages - 1) * 60 + 1:,}-{len(every):,} of {len(every):,}" in said
    # a shorter list then (fewer pages than the page kept): its first page, no error
    at.query_params["cell"] = "player"
    at.session_state["pick_cell_group"] = "player"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    links = next(m.value for m in at.markdown if "Decisions: a tap opens the replay" in m.value)
    con = duckdb.connect(os.environ["BRAG_ANALYTICS"], read_only=True)
    mine = spots.behind(con, spots.Spot.parse("actor=seen"), "player", None, "Jean")
    con.close()
    assert 0 < len(mine) < 60 and links.count('href="replay?session=') == len(mine)


def test_a_digital_table_records_every_card(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = unlocked(monkeypatch)
    at.radio(key="start_cards").set_value("all")
    at = start(at, "digital")
    tap("digital", "shuffle")  # the order is not recorded: the deal lists every hand
    at.run()
    deal = next(b for b in at.button if b.label == "Record the deal")
    assert deal.disabled
    hands = {"Ann": ["As", "Ks", "Qs"], "Bob": ["2h", "3h", "4h"], "Cal": ["9d", "9c", "9s"]}
    pick_hands(at, hands)
    next(b for b in at.button if b.label == "Record the deal").click().run()
    assert not at.exception
    with open_store(store_url) as store:
        dealt = store.events("digital")[-1]
        assert dealt.type == "dealt"
        got = {p: sorted(cs) for p, cs in dealt.hands.items()}  # type: ignore[union-attr]
        assert got == {p: sorted(cs) for p, cs in hands.items()}


def test_a_digital_table_can_let_the_app_shuffle(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = unlocked(monkeypatch)
    at.radio(key="start_cards").set_value("all")
    start(at, "dealt-by-app")
    tap("dealt-by-app", "order", "deal")  # the engine deals from the pack it tracks
    with open_store(store_url) as store:
        shuffled, dealt = store.events("dealt-by-app")[-2:]
        assert len(shuffled.order) == 52  # type: ignore[union-attr]
        first = dealt.hands["Ann"]  # type: ignore[union-attr]
        assert first[0] == shuffled.order[0]  # type: ignore[union-attr]


def test_the_secret_may_come_from_streamlit_secrets(store_url: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["organiser_secret"] = SECRET
    at.run()
    at.switch_page("record/record_page.py").run()
    assert not at.warning  # not read-only
    at.text_input(key="secret_input").input(SECRET)
    at.button[0].click().run()
    assert at.text_input(key="start_session") is not None


def test_corrections_show_as_recorded_or_as_corrected(store_url: str) -> None:
    from fractions import Fraction

    from events.model import Bet, DealerChosen, Dealt, Looked, SessionStarted, Shuffled, Voided

    with open_store(store_url) as store:
        store.append(
            "fixed",
            [
                SessionStarted(session="fixed", seats=("A", "B"), cards="shown"),
                DealerChosen(player="B"),
                Shuffled(),
                Dealt(),
                Looked(player="A"),
                Bet(player="A", level=Fraction(5)),
            ],
            0,
        )
        store.append("fixed", [Voided(seq=6)], 6)
    at = page("replay", session="fixed", deal="1", step="99")
    data = sent(at)
    # no step 99: said in one line, the deal opened at its start, never its end (issue 35.5)
    assert [i.value for i in at.info] == [
        "Deal 1 has no step 99: it has 2 steps. Showing its first step."
    ]
    assert data["start"] == 0 and data["frames"][1]["pot"] == "2"  # as corrected: 2 steps
    assert data["corrections"] == 1 and data["deal_corrections"] == 1
    # as recorded, the same step number names the same step; the withdrawn bet keeps its number
    # and the correction names it by step and sentence, never by seq
    data = sent(page("replay", session="fixed", deal="1", step="2", log="recorded"))
    frames = data["frames"]
    assert [(f["label"], f["kind"]) for f in frames] == [
        ("1", ""),
        ("2", ""),
        ("3", "withdrawn"),
        ("↺3", "correction"),
    ]
    assert data["start"] == 1 and frames[2]["pot"] == "7"  # the withdrawn bet, as recorded
    assert frames[3]["text"] == (
        "Correction: step 3 (A bets level 5: pays 5) is withdrawn; the table goes back to step 2"
    )
    assert frames[3]["pot"] == "2"
    # an old link by seq (the numbering `brag replay` used to print) lands on that event's step
    at = page("replay", session="fixed", seq="5")
    assert sent(at)["start"] == 1 and at.query_params["step"] == "2"
    assert "seq" not in at.query_params


def test_a_chart_of_one_point_draws_the_point(store_url: str) -> None:
    """Issue 12.6: a one-deal session's "Net over the deals" draws each player's point, on an
    axis of deal numbers (not an empty chart with an axis of "1.000000")."""
    at = page("session", session="card-example")
    assert not at.exception and not at.get("vega_lite_chart")  # results hidden until asked
    at.toggle(key="show_results").set_value(True).run()
    import pyarrow as pa

    chart = at.get("vega_lite_chart")[0].proto
    spec = json.loads(chart.spec)
    assert spec["mark"]["point"] and spec["encoding"]["x"]["type"] == "ordinal"
    rows = pa.ipc.open_stream(chart.data.data).read_all().to_pylist()
    assert sorted((r["player"], r["net"]) for r in rows) == [
        ("A", -7.0),
        ("B", 9.0),
        ("C", -1.0),
        ("D", -1.0),
    ]


def test_a_start_refused_for_its_name_says_why_in_a_sentence(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An over-long or invisible-character session name: one sentence of ours, not pydantic's
    (FORMAT.md bounds); nothing stored."""
    for name in ("x" * 200, "bad\u202ename"):
        at = start(unlocked(monkeypatch), name)
        said = at.error[0].value
        assert said.startswith("Refused: A session name is 1 to 128 printable characters"), said
        assert "pydantic" not in said and "validation error" not in said
        with open_store(store_url) as store:
            assert not store.has(name)


def test_of_two_starts_of_one_name_the_second_is_told_it_is_taken(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another device stores the session between this form's check and its append."""
    from dashboard.access import check as access
    from dashboard.common import cache
    from dashboard.record import recorder

    real = access.guarded  # the store the start appends through (issue 33)

    def first_elsewhere(into: Any, token: Any) -> Any:
        guarded = real(into, token)
        append = guarded.append

        def racing(session: str, new: Any, expected: int) -> Any:
            with open_store(store_url) as store:
                store.append(session, recorder.start_events(session, ("Kim", "Lee"), "shown"), 0)
            return append(session, new, expected)

        guarded.append = racing
        return guarded

    monkeypatch.setattr(cache, "exists", lambda name: False)
    monkeypatch.setattr(access, "guarded", first_elsewhere)
    at = start(unlocked(monkeypatch), "both")
    assert "There is already a session called both" in at.error[0].value
    with open_store(store_url) as store:
        assert store.state("both").seats == ("Kim", "Lee")


def test_players_opens_on_the_player_this_browser_is(store_url: str) -> None:
    """Without ``?player=``, the Players page opens on the player this browser picked on My
    sessions (the ``me`` preference), not on the first of the table (the new-user walk)."""
    from streamlit.testing.v1 import AppTest

    from dashboard.common import state_keys as keys

    first = page("players")
    names = list(first.selectbox(key=keys.PICK_PLAYER).options)
    assert len(names) > 2 and first.selectbox(key=keys.PICK_PLAYER).value == names[0]
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py"))
    at.session_state[keys.PREFS] = {keys.ME: names[2]}
    at.run()
    at.switch_page("stats/players_page.py").run()
    assert not at.exception
    assert at.selectbox(key=keys.PICK_PLAYER).value == names[2]
