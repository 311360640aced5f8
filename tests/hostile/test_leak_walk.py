"""Issue 33.1, the leak walk: a session that records every card is stored event by event (an Undo
of a deal and its Redo, a correction of an earlier step, an Undo of a card shown at a showdown
among them), and after every step every route and page a visitor (no cookie) can reach is
fetched and every byte scanned for a hole card the one rule hides (:mod:`present.sight`): the
statistics any visitor can query on Explore (the projection caught up as the pages do; besides
the card scan, no luck term and no category of a hand not shown of a guarded deal), the Replay
page's frames of every deal in both ``log`` views and every ``view=`` (what the
websocket carries to the replayer, made by the page's own ``dashboard.common.cache._frames``), the
pictures of ``GET /api/picture.png`` (their SVG, scanned before it is made a PNG), ``GET
/api/notes`` of every step, ``/api/pad`` and ``/api/tap``, and at the turning points the
Sessions, Session, My sessions and Replay pages (Streamlit's AppTest, every element's proto).

The rule (RULES 3.2-3.5): until the session ends, of every deal dealt since the last shuffle,
withdrawn or not, a visitor receives only the cards shown at a showdown in force; the deals
before the last shuffle, and every deal once the session has ended, show every card. The oracle
here is worked out from the stored stream alone, not from :mod:`present.sight`. The cards of
each pack are chosen apart (no card of deal 1 in deals 2-4), so a card found is the hidden
deal's. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from apptest_helpers import APP

from dashboard.common.pages import PAGE_FILES
from dashboard.stats import stats_cache
from engine.legal import legal_actions
from engine.state import Phase, State
from events.model import (
    AnyEvent,
    Bet,
    DealerChosen,
    Dealt,
    Rules,
    SessionStarted,
    Shown,
    Shuffled,
    Voided,
    is_derived,
)
from log.amend import plan_stored, store_amendment
from log.open import open_store
from log.service import EventStore
from log.steps import in_force

SESSION = "leak-walk"
SEATS = ("Ann", "Bob", "Cy")
VIEWS = (None, "Everyone", *SEATS, "Spectator", "nobody")
"""Every ``view=`` a link may carry; the Replay page draws any but a seated player's as
everyone's (``dashboard.common.ui.replay_stage``), so its frames are made for :data:`PAGE_VIEWS`."""
PAGE_VIEWS = (None, *SEATS)
_PACK = [r + s for s in "shdc" for r in "23456789TJQKA"]
DEAL_1 = ["Qs", "2c", "3d", "Qh", "5c", "8d", "Qd", "9c", "Jd"]  # Bob: a prial of queens
LATER = [  # the second pack: deals 2, 3 and 4, none of deal 1's cards, no ace
    *["Kh", "Js", "Td", "7s", "9h", "8s", "4d", "6c", "5h"],
    *["Kc", "9s", "Jh", "Qc", "9d", "4s", "7h", "3c", "6d"],
    *["2s", "3h", "5s", "6h", "2d", "7c", "8h", "5d", "Tc"],
]
SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _order(first: list[str]) -> tuple[str, ...]:
    return (*first, *(c for c in _PACK if c not in first))


def spellings(card: str) -> list[str]:
    """``Qs``, ``QS``, ``Q♠`` (and ``10s``, ``10S``, ``10♠`` for a ten)."""
    ranks = [card[0], "10"] if card[0] == "T" else [card[0]]
    return [w for r in ranks for w in (r + card[1], r + card[1].upper(), r + SUITS[card[1]])]


CARD_WORD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([shdcSHDC♠♥♦♣])(?![0-9A-Za-z])")
"""A card written as a word of its own, in any of its :func:`spellings`."""
_SUIT_OF = {**{k: k for k in "shdc"}, **{k.upper(): k for k in "shdc"}} | {
    v: k for k, v in SUITS.items()
}


def found(text: str, cards: set[str]) -> set[str]:
    """The cards of ``cards`` named in ``text`` in any of their :func:`spellings`."""
    named = {("T" if r == "10" else r) + _SUIT_OF[u] for r, u in CARD_WORD.findall(text)}
    return named & cards


def hidden(events: list[AnyEvent]) -> set[str]:
    """The oracle: the cards a visitor may not receive after ``events`` (the stored stream):
    until the session ends, every card dealt since the last shuffle in force (a withdrawn deal
    included) that no ``shown`` in force showed."""
    if any(e.type == "session_ended" for e in _forced(events)):
        return set()
    kept = in_force(events)
    last = max((k for k in kept if isinstance(events[k], Shuffled)), default=0)
    dealt = {
        c
        for e in events[last:]
        if isinstance(e, Dealt) and e.hands
        for hand in e.hands.values()
        for c in hand
    }
    shown = {c for k in kept if k > last and isinstance(e := events[k], Shown) for c in e.cards}
    return dealt - shown


def _forced(events: list[AnyEvent]) -> list[AnyEvent]:
    return [events[k] for k in in_force(events)]


# --- the session, step by step ---------------------------------------------------------------


@dataclass
class Walk:
    """The store and the moves made so far; each move appends one recorded event (or one
    correction) through the store."""

    store: EventStore
    moves: list[str] = field(default_factory=list)

    @property
    def state(self) -> State:
        return self.store.state(SESSION)

    def put(self, event: AnyEvent) -> None:
        self.store.append(SESSION, [event], expected_seq=self.store.last_seq(SESSION))

    def act(self, kind: str, level: int | None = None) -> None:
        """The legal action of ``kind`` (a bet at ``level``) for whoever is to act."""
        acts = [a for a in legal_actions(self.state) if a.kind == kind]
        if level is not None:
            acts = [a for a in acts if isinstance(a.event, Bet) and a.event.level == level]
        assert acts, (kind, level, [a.label for a in legal_actions(self.state)])
        self.put(acts[0].event)

    def undo(self) -> None:
        """The Undo: a ``voided`` of the latest recorded event in force (FORMAT.md)."""
        events = self.store.events(SESSION)
        k = max(k for k in in_force(events) if not is_derived(events[k]))
        self.put(Voided(seq=k + 1))

    def amend_first_bet(self, deal: int, level: int) -> None:
        """``brag amend``: the first bet of ``deal`` replaced by a bet at ``level``."""
        events = self.store.events(SESSION)
        dealt = [k for k in in_force(events) if isinstance(events[k], Dealt)][deal - 1]
        k = next(k for k in in_force(events) if k > dealt and isinstance(events[k], Bet))
        old = events[k]
        assert isinstance(old, Bet)
        plan = plan_stored(self.store, SESSION, k + 1, Bet(player=old.player, level=level))
        # the later steps the raise leaves unfit are withdrawn: the organiser ticks the repairs
        store_amendment(self.store, plan, repair=True)


def script() -> list[tuple[str, Callable[[Walk], None]]]:
    """The moves, named: four deals of a 4-pot session (RULES 1.4), 3 players, every card
    recorded and the pack's order too (the deals come from the tracked pack, RULES 3.2-3.4)."""
    start = SessionStarted(
        session=SESSION, seats=SEATS, cards="all", rules=Rules(pots=4, blind_play=False)
    )
    act = Walk.act
    return [
        ("start", lambda w: w.put(start)),
        ("dealer", lambda w: w.put(DealerChosen(player="Ann"))),
        ("shuffle 1", lambda w: w.put(Shuffled(order=_order(DEAL_1)))),
        ("deal 1", lambda w: act(w, "dealt")),
        ("bet", lambda w: act(w, "bet", 1)),
        ("fold", lambda w: act(w, "folded")),
        ("see", lambda w: act(w, "saw")),
        ("show", lambda w: act(w, "shown")),
        ("show: the prial wins", lambda w: act(w, "shown")),
        ("shuffle 2", lambda w: w.put(Shuffled(order=_order(LATER)))),
        ("deal 2", lambda w: act(w, "dealt")),
        ("undo the deal", Walk.undo),
        ("redo the deal", lambda w: act(w, "dealt")),
        ("bet", lambda w: act(w, "bet", 1)),
        ("fold", lambda w: act(w, "folded")),
        ("fold: won uncontested", lambda w: act(w, "folded")),
        ("deal 3", lambda w: act(w, "dealt")),
        ("bet", lambda w: act(w, "bet", 2)),
        ("bet", lambda w: act(w, "bet", 2)),
        ("fold", lambda w: act(w, "folded")),
        ("correct deal 3's first bet", lambda w: w.amend_first_bet(3, 3)),
        ("bet", lambda w: act(w, "bet", 3)),
        ("fold", lambda w: act(w, "folded")),
        ("see", lambda w: act(w, "saw")),
        ("show", lambda w: act(w, "shown")),
        ("show: Ann's cards, the pot won", lambda w: act(w, "shown")),
        ("undo the show", Walk.undo),
        ("concede", lambda w: act(w, "conceded")),
        ("deal 4", lambda w: act(w, "dealt")),
        ("bet", lambda w: act(w, "bet", 1)),
        ("fold", lambda w: act(w, "folded")),
        ("fold: the session ends", lambda w: act(w, "folded")),
    ]


# --- what a visitor can reach ----------------------------------------------------------------

TURNS = {"undo the deal", "fold: won uncontested", "correct deal 3's first bet", "undo the show"}
"""The moves after which the pages are run too (Streamlit's AppTest, a second or so a page)."""


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def walk_db(
    request: pytest.FixtureRequest, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, EventStore]]:
    """The dashboard's store (``BRAG_DB``) and a handle to write the walk through: the
    ``store_url`` fixture's SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        with open_store(store_url) as store:
            yield store_url, store
        return
    from store_helpers import drop_schema, new_schema, pg_url, require_pg

    require_pg()
    schema = new_schema()
    store = open_store(pg_url(), schema=schema)
    url = f"{pg_url()}?options=-csearch_path%3D{schema}"
    monkeypatch.setenv("BRAG_DB", url)
    try:
        yield url, store
    finally:
        store.close()
        drop_schema(schema)


@dataclass
class Answer:
    status_code: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


@dataclass
class Client:
    """The server's own routes called as ASGI, as a visitor with no cookie reaches them (no
    HTTP client library needed: one request, one answer)."""

    app: Any

    def _call(self, method: str, path: str, query: str = "", body: bytes = b"") -> Answer:
        import asyncio

        scope = {
            "type": "http",
            "method": method,
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "headers": [(b"host", b"localhost"), (b"content-type", b"application/json")],
            "http_version": "1.1",
            "scheme": "http",
            "server": ("localhost", 80),
            "client": ("127.0.0.1", 5000),
            "root_path": "",
        }
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        asyncio.run(self.app(scope, receive, send))
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        data = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return Answer(status, data.decode("utf-8"))

    def get(self, path: str, params: dict[str, Any]) -> Answer:
        from urllib.parse import urlencode

        return self._call("GET", path, urlencode(params))

    def post(self, path: str, json: dict[str, Any]) -> Answer:
        import json as codec

        return self._call("POST", path, body=codec.dumps(json).encode())


def _client(monkeypatch: pytest.MonkeyPatch) -> Client:
    """The server's own routes (:class:`Client`); a picture answers its SVG (what the PNG is
    drawn from: its text is what is scanned)."""
    from starlette.applications import Starlette

    from dashboard.access import routes as gate_api
    from dashboard.record import routes as pad_api
    from dashboard.replay import notes_routes as notes_api
    from dashboard.replay import share as share_api

    monkeypatch.setattr(share_api, "_raster", lambda svg: svg.encode("utf-8"))
    routes = [*pad_api.routes(), *gate_api.routes(), *notes_api.routes(), *share_api.routes()]
    return Client(Starlette(routes=routes))


def _replays(url: str) -> list[Any]:
    from dashboard.common import cache

    version = cache.last_seq(SESSION)
    return [cache._replay(url, SESSION, version, recorded) for recorded in (False, True)]


def frames_sent(url: str) -> Iterator[tuple[str, str]]:
    """The Replay page's frames of every deal, both logs, every view, as the page makes them
    for a device that is not the organiser's (``dashboard.common.cache._frames``)."""
    from dashboard.common import cache

    version = cache.last_seq(SESSION)
    for rp in _replays(url):
        for sl in rp.slices:
            for view in PAGE_VIEWS:
                data = cache._frames(url, SESSION, version, rp.recorded, sl.deal, view, False)
                where = f"frames deal {sl.deal} log={rp.recorded} view={view}"
                yield where, json.dumps(data, ensure_ascii=False)


def pictures_sent(url: str, client: Any) -> Iterator[tuple[str, str]]:
    """``GET /api/picture.png`` of every step of every deal (both logs; every view at a deal's
    last step), as a visitor."""
    for rp in _replays(url):
        log = {"log": "recorded"} if rp.recorded else {}
        for sl in rp.slices:
            numbers = sorted({rp.labels[k].step for k in range(sl.start, sl.stop)})
            asks = [(n, None) for n in numbers] + [(numbers[-1], v) for v in VIEWS if v]
            for step, view in asks:
                q = {"session": SESSION, "deal": sl.deal, "step": step, **log}
                got = client.get("/api/picture.png", params=q | ({"view": view} if view else {}))
                assert got.status_code == (200 if view in (None, "Everyone", *SEATS) else 404)
                yield f"picture deal {sl.deal} step {step} view={view} {log}", got.text


def routes_sent(url: str, client: Any) -> Iterator[tuple[str, str]]:
    """``GET /api/notes`` of every step; ``/api/pad`` and ``/api/tap`` (refused, locked)."""
    rp = _replays(url)[0]
    for k, lab in enumerate(rp.labels):
        q = {"session": SESSION, "deal": lab.deal, "step": lab.step}
        got = client.get("/api/notes", params=q)
        assert got.status_code == 200 and k >= 0, got.text
        yield f"notes deal {lab.deal} step {lab.step}", got.text
    pad = client.get("/api/pad", params={"session": SESSION, "since": -1})
    tap = client.post("/api/tap", json={"session": SESSION, "seq": 1, "spot": "deal", "id": "x"})
    assert pad.status_code == tap.status_code == 403, (pad.text, tap.text)
    yield "pad", pad.text + tap.text


def _protos(node: Any) -> Iterator[Any]:
    proto = getattr(node, "proto", None)
    if proto is not None:
        yield proto
    for child in getattr(node, "children", {}).values():
        yield from _protos(child)


def _page_text(at: Any) -> str:
    """Every element the page sent, as text (protobuf text format, UTF-8)."""
    from google.protobuf import text_format

    assert not at.exception, at.exception
    return "\n".join(text_format.MessageToString(p, as_utf8=True) for p in _protos(at._tree))


def _page(name: str, *, me: str | None = None, **params: str) -> Any:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(PAGE_FILES[name])
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    if me is not None:
        at.selectbox(key="me").select(me)
        at.run()
    return at


def pages_sent(deal: int) -> Iterator[tuple[str, str]]:
    """The Sessions, Session and My sessions pages, and the Replay page of ``deal`` in both
    logs (the replayer's frames ride in it), as a visitor's browser receives them."""
    yield "Sessions page", _page_text(_page("sessions"))
    yield "Session page", _page_text(_page("session", session=SESSION))
    yield "My sessions page", _page_text(_page("mine", me="Cy", session=SESSION))
    for log in ("", "recorded"):
        at = _page("replay", session=SESSION, deal=str(deal), view="Cy", log=log)
        yield f"Replay page deal {deal} log={log}", _page_text(at)


# --- the walk ----------------------------------------------------------------------------------


def _organiser_frames(url: str, deal: int, recorded: bool) -> str:
    from dashboard.common import cache

    version = cache.last_seq(SESSION)
    return json.dumps(cache._frames(url, SESSION, version, recorded, deal, None, True))


def _visitor_frames(url: str, deal: int, recorded: bool) -> str:
    from dashboard.common import cache

    version = cache.last_seq(SESSION)
    return json.dumps(cache._frames(url, SESSION, version, recorded, deal, None, False))


NOTE = {"session": SESSION, "deal": 2, "step": 1, "text": "Cy holds Kh, I saw it", "by": "Ann"}
"""A visitor's note naming a card of deal 2 (anyone may add a note)."""


@pytest.mark.slow  # some 30 s of work a backend, twice that on a loaded machine
def test_a_visitor_receives_no_hidden_card_at_any_step(
    walk_db: tuple[str, EventStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, store = walk_db
    client = _client(monkeypatch)
    walk = Walk(store)
    leaks: list[str] = []
    scanned = 0
    for name, move in script():
        move(walk)
        cards = hidden(store.events(SESSION))
        sent = [*frames_sent(url), *pictures_sent(url, client), *routes_sent(url, client)]
        stats = dict(statistics_sent())
        sent += [(where, json.dumps(rows, default=str)) for where, rows in stats.items()]
        leaks += [f"after {name!r}: {line}" for line in veils_broken(store.events(SESSION), stats)]
        if name in TURNS:
            sent += list(pages_sent(walk.state.deals))
        for where, text in sent:
            scanned += len(text)
            if got := found(text, cards):
                leaks.append(f"after {name!r}: {where}: {sorted(got)}")
        _controls(name, url, client, cards, stats)
    assert not leaks, _summary(leaks)
    assert walk.state.phase is Phase.OVER and scanned > 1_000_000


def statistics_sent() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The statistics' fact tables as a visitor's Explore query receives them (the projection
    caught up first, as the Explore page does), the walk's session's rows."""

    stats_cache.refresh_analytics()
    for table in ("deals", "player_deals", "decisions", "player_session_summary"):
        got = stats_cache.run_sql(f"SELECT * FROM {table} WHERE session = '{SESSION}'")
        yield f"Explore {table}", [dict(zip(got.columns, r, strict=True)) for r in got.rows]


def veils_broken(events: list[AnyEvent], stats: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The oracle of the statistics, from the stream alone: until the session ends, a deal dealt
    since the last shuffle in force has no luck term (it ranks the hidden hands) and a decision
    of it no hand category unless its maker showed three cards in force at the showdown."""
    kept = _forced(events)
    if any(e.type == "session_ended" for e in kept):
        return []
    deals = first = 0
    showed: set[tuple[int, str]] = set()
    for e in kept:
        if isinstance(e, Dealt):
            deals += 1
        elif isinstance(e, Shuffled):
            first = deals + 1
        elif isinstance(e, Shown) and len(e.cards) == 3:
            showed.add((deals, e.player))
    out = [
        f"Explore player_deals: deal {r['deal']} {r['player']}'s luck term {r['luck_t']}"
        for r in stats["Explore player_deals"]
        if r["deal"] >= first and (r["luck_t"] is not None or r["adjusted_net_t"] is not None)
    ]
    out += [
        f"Explore decisions: deal {r['deal']} seq {r['seq']} {r['player']}'s hand "
        f"{r['hand_category']}"
        for r in stats["Explore decisions"]
        if r["deal"] >= first
        and r["hand_category"] is not None
        and (r["deal"], r["player"]) not in showed
    ]
    return out


def _summary(leaks: list[str]) -> str:
    """The leaks, the first of each move and channel (frames, picture, notes, page)."""
    first: dict[tuple[str, str], str] = {}
    for line in leaks:
        move, where = line.split(": ", 1)
        first.setdefault((move, where.split()[0]), line)
    return f"{len(leaks)} leaks; the first of each move and channel:\n" + "\n".join(first.values())


def _calls(pattern: str) -> set[str]:
    """The modules of the shells, ``present`` and ``analytics`` whose code matches
    ``pattern``."""
    root = Path(APP).resolve().parents[1]
    return {
        str(p.relative_to(root))
        for folder in ("dashboard", "present", "brag", "analytics")
        for p in (root / folder).rglob("*.py")
        if re.search(pattern, p.read_text(encoding="utf-8"))
    }


def test_no_channel_draws_a_table_but_through_the_rule() -> None:
    """The one rule is hard to pass by: no module draws a table (``table_view``) or makes a
    deal's sight (``DealSight``) but :mod:`present.sight` (and ``present/table.py``, the
    table's home); the frames and the pictures take a ``DealSight``, not a replay."""
    assert _calls(r"\btable_view\(") == {"present/sight.py", "present/table.py"}
    assert _calls(r"\bDealSight\(") == {"present/sight.py"}
    assert _calls(r"\bsight_for\(") >= {"dashboard/common/cache.py", "present/share.py"}


def _luck_deals(stats: dict[str, list[dict[str, Any]]]) -> set[int]:
    return {r["deal"] for r in stats["Explore player_deals"] if r["luck_t"] is not None}


def _controls(
    name: str, url: str, client: Any, cards: set[str], stats: dict[str, list[dict[str, Any]]]
) -> None:
    """What shows that the scan could have found a card: the hidden cards are in the
    organiser's frames; a deal opens after the shuffle and at the session's end, in the
    statistics too (deals 1 and 2 come first after a shuffle, so they have luck terms)."""
    if name == "show: the prial wins":
        assert _luck_deals(stats) == set()
    if name == "shuffle 2":
        assert _luck_deals(stats) == {1}
    if name == "fold: the session ends":
        assert _luck_deals(stats) >= {1, 2}
    deal_2 = set(LATER[:9])
    if name == "undo the deal":  # the case: no deal in play, deal 2 withdrawn
        assert found(_organiser_frames(url, 2, True), cards) == deal_2
        assert _replays(url)[0].final.phase is Phase.BETWEEN
    if name == "redo the deal":  # a visitor names a card of deal 2 in a note
        got = client.post("/api/notes", json=NOTE)
        assert got.status_code == 200 and "Kh" not in got.text and "held back" in got.text
    if name == "show: Ann's cards, the pot won":  # a note on the step an Undo will withdraw
        step = _replays(url)[0].labels[-2].step  # Ann's shown (the pot won follows it)
        got = client.post("/api/notes", json={**NOTE, "deal": 3, "step": step, "text": "ouch"})
        assert got.status_code == 200 and "ouch" in got.text
    if name == "shuffle 2":  # deal 1 opens: Cy's folded hand, never shown
        assert found(_visitor_frames(url, 1, False), {"2c", "5c", "9c"}) == {"2c", "5c", "9c"}
    if name == "undo the show":  # Ann's cards, shown then withdrawn
        ann = {"Kc", "Qc", "7h"}
        assert ann <= cards and found(_organiser_frames(url, 3, True), ann) == ann
    if name == "fold: the session ends":  # everything opens
        assert found(_visitor_frames(url, 2, True), deal_2) == deal_2
        assert found(_visitor_frames(url, 3, True), {"Kc", "Qc", "7h"}) == {"Kc", "Qc", "7h"}
        notes = client.get("/api/notes", params={"session": SESSION, "deal": 2, "step": 1})
        assert NOTE["text"] in notes.json()["notes"][0]["text"]
