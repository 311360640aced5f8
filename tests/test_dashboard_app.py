"""Every dashboard page under Streamlit's ``AppTest`` (no browser): it runs without an exception,
the replayer steps through a session with the pot changing where it should, view-as hides what a
player could not know, the recorder appends exactly the events clicked (and undo a ``voided``),
nothing is recorded without the organiser secret, and Explore refuses a write."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from events.store import open_store

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
SCENARIOS = ROOT.parent / "shared" / "scenarios"
if not SCENARIOS.is_dir():  # pragma: no cover - another checkout layout
    SCENARIOS = Path("/work/shared/scenarios")

LOGS = [
    ROOT / "data" / "examples" / "card_example.jsonl",  # cards "shown", one deal
    ROOT / "data" / "season" / "2026-09-24-top-1.jsonl",  # cards "all", 8 pots
    SCENARIOS / "blind_pays_half.jsonl",  # "B sees A: pays 6, the level, being blind"
]
ALL_CARDS = "2026-09-24-top-1"
SECRET = "open sesame"


@pytest.fixture
def store_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh SQLite store holding three sessions; the dashboard pointed at it."""
    url = str(tmp_path / "brag.db")
    with open_store(url) as store:
        for log in LOGS:
            store.import_log(str(log))
    monkeypatch.setenv("BRAG_DB", url)
    monkeypatch.setenv("BRAG_ANALYTICS", str(tmp_path / "brag.duckdb"))
    monkeypatch.delenv("BRAG_ORGANISER_SECRET", raising=False)
    yield url


def page(name: str, **params: str) -> AppTest:
    """The app run once on ``screens/NAME.py`` with these query parameters."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(f"screens/{name}.py")
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def face_up(svg: str, seat: str) -> list[str]:
    """The face-up cards drawn at one seat of the table picture."""
    m = re.search(rf'<g data-seat="{re.escape(seat)}".*?(?=<g data-seat=|</svg>)', svg)
    assert m, seat
    return [c for c in re.findall(r'data-card="([^"]+)"', m.group(0)) if c != "down"]


# --- every page --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sessions", "session", "replay", "players", "record", "explore"])
def test_every_page_runs(store_url: str, name: str) -> None:
    at = page(name)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value.lower() == name


def test_sessions_lists_and_filters(store_url: str) -> None:
    at = page("sessions")
    assert len(at.dataframe[0].value) == 3
    at.multiselect[0].set_value(["Jean"]).run()
    assert list(at.dataframe[0].value["session"]) == [ALL_CARDS]


def test_session_page_has_the_leaderboard_and_the_deals(store_url: str) -> None:
    at = page("session", session=ALL_CARDS)
    assert not at.exception
    board = at.dataframe[0].value
    assert set(board["player"]) == {"Jean", "Margaret", "Colin", "Sandra"}
    assert (board["winner"] != "").sum() >= 1
    deals = at.dataframe[1].value
    assert list(deals["deal"]) == list(range(1, len(deals) + 1))
    assert deals["replay"].iloc[0] == f"replay?session={ALL_CARDS}&deal=1&step=1"


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


def act(at: AppTest) -> list[Any]:
    return [b for b in at.button if b.key and b.key.startswith("act-")]


def click(at: AppTest, label: str) -> AppTest:
    b = next((b for b in act(at) if b.label == label), None)
    assert b is not None, (label, [b.label for b in act(at)])
    b.click().run()
    assert not at.exception
    return at


def test_without_the_secret_nothing_can_be_recorded(store_url: str) -> None:
    at = page("record")
    assert "Read-only" in at.warning[0].value
    assert act(at) == [] and not at.text_area


def test_with_the_secret_set_but_not_given_nothing_can_be_recorded(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAG_ORGANISER_SECRET", SECRET)
    at = page("record")
    at.text_input(key="secret_input").input("guess")
    at.button[0].click().run()
    assert "not the organiser secret" in at.error[0].value
    assert act(at) == [] and not at.text_area


def start(at: AppTest, name: str = "friday", seats: str = "Ann\nBob\nCal") -> AppTest:
    at.text_input(key="start_session").input(name)
    at.text_input(key="start_table").input("Oak")
    at.text_area(key="start_seats").input(seats)
    at.text_input(key="start_dealer").input("Cal")
    next(b for b in at.button if b.label == "Start the session").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_recording_appends_exactly_the_events_clicked(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = start(unlocked(monkeypatch))
    assert at.query_params["session"] == "friday"
    click(at, "Shuffle the pack")
    click(at, "Deal")
    click(at, "Bob looks")
    click(at, "Ann bets level 2: pays 1, blind")  # Ann sits left of the dealer, Cal
    assert "Recorded: Ann bets level 2" in at.success[0].value
    with open_store(store_url) as store:
        types = [e.type for e in store.events("friday")]
        assert types == ["session_started", "dealer_chosen", "shuffled", "dealt", "looked", "bet"]
        assert store.events("friday")[-1].by == "organiser"
        # Each event is timed as recorded (FORMAT.md at), with the device's UTC offset.
        times = [e.at for e in store.events("friday")]
        assert all(t is not None and t.utcoffset() is not None for t in times), times
        assert times == sorted(times)  # type: ignore[type-var]
    undo = next(b for b in at.button if b.key and b.key.startswith("undo-"))
    assert undo.label == "Undo: Ann bets level 2: pays 1, half the level, being blind"
    undo.click().run()
    with open_store(store_url) as store:
        last = store.events("friday")[-1]
        assert last.type == "voided" and last.seq == 6  # type: ignore[union-attr]
        assert store.state("friday").pot == 3
    assert "Ann bets level 2: pays 1, blind" in [b.label for b in act(at)]  # Ann to act again


def test_a_showdown_at_a_real_table_takes_the_cards_picked(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = start(unlocked(monkeypatch), "duel")
    for label in ("Shuffle the pack", "Deal", "Ann looks", "Bob looks", "Cal looks"):
        click(at, label)
    click(at, "Ann bets level 1: pays 1")
    click(at, "Bob folds")
    click(at, "Cal sees Ann: pays 2, twice the level")
    key = next(p.key for p in at.pills if p.key and p.key.startswith("cards-"))
    base = key[: -len("-s")]
    at.pills(key=f"{base}-s").set_value(["As", "Ks"]).run()
    at.pills(key=f"{base}-h").set_value(["Qh"]).run()
    record = next(b for b in act(at) if b.label.startswith("Record: Ann shows"))
    record.click().run()
    assert not at.exception
    with open_store(store_url) as store:
        shown = store.events("duel")[-1]
        assert shown.type == "shown" and shown.cards == ("As", "Ks", "Qh")  # type: ignore[union-attr]


def test_another_device_recording_first_is_a_conflict(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from events.model import Shuffled

    at = start(unlocked(monkeypatch), "race")
    with open_store(store_url) as store:
        store.append("race", [Shuffled()], 2)  # the other tablet shuffles first
    click(at, "Shuffle the pack")  # this page still showed the unshuffled pack
    assert "Another device recorded first" in at.warning[0].value
    with open_store(store_url) as store:
        assert [e.type for e in store.events("race")].count("shuffled") == 1
    assert [b.label for b in act(at)] == ["Deal"]  # reloaded: the session as it now stands


def test_a_refusal_is_shown_in_the_rules_words(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = start(unlocked(monkeypatch), "alone", seats="Cal")
    assert "Refused: RULES 1.3: a session seats 2 to 10 players, not 1" in at.error[0].value
    with open_store(store_url) as store:
        assert not store.has("alone")
    start(at, "twice")
    again = start(unlocked(monkeypatch), "twice")
    assert "already a session called twice" in again.error[0].value


# --- explore ------------------------------------------------------------------------------------


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
    at = page("players", player="Jean", vs="Colin")
    assert not at.exception
    columns = list(at.dataframe[1].value.columns)
    assert columns == ["statistic", "Jean", "Colin"]


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


def test_a_digital_table_records_every_card(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = unlocked(monkeypatch)
    at.radio[0].set_value("all")
    at = start(at, "digital")
    click(at, "Shuffle the pack")  # the order is not recorded: the deal lists every hand
    deal = next(b for b in act(at) if b.label == "Record the deal")
    assert deal.disabled
    hands = {"Ann": ["As", "Ks", "Qs"], "Bob": ["2h", "3h", "4h"], "Cal": ["9d", "9c", "9s"]}
    for player, cards in hands.items():
        base = next(
            p.key for p in at.pills if p.key and p.key.startswith("hand-") and p.key.count(player)
        )[: -len("-s")]
        for suit in "shdc":
            mine = [c for c in cards if c[1] == suit]
            if mine:
                at.pills(key=f"{base}-{suit}").set_value(mine).run()
    click(at, "Record the deal")
    with open_store(store_url) as store:
        dealt = store.events("digital")[-1]
        assert dealt.type == "dealt"
        got = {p: sorted(cs) for p, cs in dealt.hands.items()}  # type: ignore[union-attr]
        assert got == {p: sorted(cs) for p, cs in hands.items()}


def test_a_digital_table_can_let_the_app_shuffle(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = unlocked(monkeypatch)
    at.radio[0].set_value("all")
    at = start(at, "dealt-by-app")
    click(at, "Shuffle here and record the order")
    click(at, "Deal")  # the engine deals from the pack it tracks (RULES 3.3)
    with open_store(store_url) as store:
        shuffled, dealt = store.events("dealt-by-app")[-2:]
        assert len(shuffled.order) == 52  # type: ignore[union-attr]
        first = dealt.hands["Ann"]  # type: ignore[union-attr]
        assert first[0] == shuffled.order[0]  # type: ignore[union-attr]


def test_the_secret_may_come_from_streamlit_secrets(store_url: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["organiser_secret"] = SECRET
    at.run()
    at.switch_page("screens/record.py").run()
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
    assert data["start"] == 1 and data["frames"][1]["pot"] == "2"  # as corrected: 2 steps
    assert data["corrections"] == 1
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
    assert not at.exception
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
