"""Issue 21.4 in Streamlit's AppTest: the My sessions page over a store holding a finished season
session of a real table (``2026-09-24-window-1``: Gary, Dave, Tony, Bev; only the shown cards
recorded) and the rule card's example. Spoiler-free until "Show results": the rows name no net,
no winner and no deal's result; with it, Gary's net and the winners are the engine's (folded
here from the log), and every row opens its replay viewed as Gary."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote_plus

import pytest
from dashboard_store_helpers import dashboard_store
from streamlit.testing.v1 import AppTest

from events.codec import read_file
from log.open import open_store
from present.numbers import amount, signed
from present.replay import Replay

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboard" / "app.py")
SESSION = "2026-09-24-window-1"
LOGS = [
    ROOT / "data" / "season" / f"{SESSION}.jsonl",
    ROOT / "data" / "examples" / "card_example.jsonl",
]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    yield dashboard_store(tmp_path, monkeypatch, LOGS)


def _mine(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("stats/mine_page.py")
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def _rows(at: AppTest) -> str:
    """The HTML of the page's rows a thumb opens."""
    return "\n".join(m.value for m in at.markdown if "brag-rows" in m.value)


def test_my_sessions_waits_for_a_name_then_lists_mine_without_results(store: str) -> None:
    at = _mine()
    assert not at.exception and at.title[0].value == "My sessions"
    assert any("Pick your name once" in c.value for c in at.caption), [c.value for c in at.caption]
    assert _rows(at) == ""
    at.selectbox(key="me").set_value("Gary").run()
    rows = _rows(at)
    assert f"replay?session={SESSION}&amp;deal=1&amp;step=1&amp;view=Gary" in rows
    assert "card-example" not in rows  # not Gary's
    assert "with Dave, Tony, Bev" in rows
    assert "your net" not in rows and "won by" not in rows
    assert not at.get("vega_lite_chart")  # no net over time either


def test_show_results_adds_my_net_and_the_winners_as_the_engine_folds_them(store: str) -> None:
    final = Replay.of([e for _, e in read_file(str(LOGS[0]))]).final
    assert final.finished
    at = _mine()
    at.selectbox(key="me").set_value("Gary").run()
    at.toggle(key="show_results").set_value(True).run()
    assert not at.exception
    rows = _rows(at)
    assert f"your net {signed(final.nets['Gary'])}" in rows
    assert "won by " + ", ".join(final.winners) in rows
    # "Your net over time": one point, Gary's net after his one session
    # (inline in the spec: the points' dataset, and the tap's columns over them)
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    sets = [*spec.get("datasets", {}).values()]
    sets += [
        layer["data"]["values"] for layer in spec["layer"] if "values" in layer.get("data", {})
    ]
    points = next(rows for rows in sets if rows and "player" in rows[0])
    assert [(r["player"], r["net"]) for r in points] == [("Gary", float(final.nets["Gary"]))]
    columns = next(rows for rows in sets if rows and "nets" in rows[0])
    g = signed(final.nets["Gary"])
    assert [r["nets"] for r in columns] == [f"Gary {g} that session ({g} in all)"]


def test_my_deals_open_as_me_and_say_a_result_only_when_asked(store: str) -> None:
    rp = Replay.of([e for _, e in read_file(str(LOGS[0]))])
    at = _mine(session=SESSION)
    at.selectbox(key="me").set_value("Gary").run()
    rows = _rows(at)
    for d in range(1, rp.final.deals + 1):
        assert f"replay?session={SESSION}&amp;deal={d}&amp;step=1&amp;view=Gary" in rows
        assert f"mine?session={SESSION}&amp;deal={d}" in rows  # its "Your cards"
    assert " won " not in rows and "carried" not in rows
    at.toggle(key="show_results").set_value(True).run()
    rows = _rows(at)
    for o in rp.final.outcomes:
        if o.winner == "Gary":
            assert f"you won {amount(o.amount)}" in rows
        elif o.winner:
            assert f"{o.winner} won " in rows


def test_hostile_names_stay_text_on_my_sessions(tmp_path: Path, store: str) -> None:
    """The card example played by names and a session id made of Markdown and HTML: a player
    who showed no card picked as "You are"; the page's own lines show the names only escaped,
    the rows' HTML holds no element of theirs, and the player's noted cards are in their row."""
    from hostile_helpers import PLAYERS, SESSION, hostile_log

    from dashboard.common.escape import md
    from log.annotations import set_private_cards

    with open_store(store) as s:
        s.import_log(str(hostile_log(tmp_path)))
        rp = Replay.of(s.events(SESSION))
        me = next(p.name for p in rp.final.players if not p.shown and p.name in PLAYERS.values())
        recorded = Replay.of(s.events(SESSION), recorded=True)
        set_private_cards(s, recorded, 1, me, ["2c", "3d", "4h"])
    at = _mine(session=SESSION)
    at.selectbox(key="me").set_value(me).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.subheader[0].value == f"Your deals in {md(SESSION)}"
    rows = _rows(at)
    assert "<img" not in rows and f"{html.escape(PLAYERS['D'])} deals" in rows
    assert f"&amp;view={quote_plus(me)}" in rows  # the link views as them, its text encoded
    assert "your cards 2♣ 3♦ 4♥ (from your note)" in rows


def test_cards_kept_for_a_deal_the_pack_still_holds_say_when_they_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session in progress (the season's session cut in its third deal): every deal since the
    shuffle reaches a visitor as a spectator saw it (RULES 3.3, 3.5), the player's own view too,
    so the page says the cards kept show in that view once the deal opens, not "only your own
    view shows them" (the new-user walk found them face down there)."""
    lines = LOGS[0].read_text(encoding="utf-8").splitlines()
    slices = Replay.of([e for _, e in read_file(str(LOGS[0]))]).slices
    cut = tmp_path / "live.jsonl"
    cut.write_text("\n".join(lines[: slices[2].start + 3]) + "\n", encoding="utf-8")
    dashboard_store(tmp_path, monkeypatch, [cut])
    at = _mine(session=SESSION, deal="1")
    at.selectbox(key="me").set_value("Gary").run()
    assert not at.exception
    assert any("until the next shuffle" in c.value for c in at.caption)
    shown = {c for _, e in read_file(str(cut)) for c in getattr(e, "cards", None) or ()}
    free = [f"{r}s" for r in "AKQJT98765432" if f"{r}s" not in shown][:3]
    spades = next(g for g in at.button_group if str(g.key).endswith("_1_s"))
    spades.set_value(free)  # the pills' values are the cards' codes
    next(b for b in at.get("form_submit_button") if b.label == "Keep my cards").click().run()
    assert not at.exception
    texts = [s.value for s in at.success]
    assert any("once the deal opens" in t for t in texts), (texts, [e.value for e in at.error])
