"""The night's report (issue 36.6, :mod:`service.report`): its values against the engine's fold of
each log (the standings RULES 1.5, the biggest pots from the folded outcomes, the best hands
ranked by RULES 2.2-2.7 from the cards the logs show at a showdown, RULES 5.8), each linked to its
replay step; and what it must not carry: the HTML page and the PDF of a night seeded with every
card dealt (``cards: "all"``, a session in progress among them) and notes on its steps are
scanned for every unshown hand and every note (issue 33.1: a note is its author's; none is shared
yet): none is there."""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from engine.fold import fold
from engine.hands import strength
from events.amounts import amount_text
from events.cards import Card, canonical, faces
from events.codec import read_file
from events.model import AnyEvent, Dealt, Shown, is_derived
from log.open import open_store
from log.service import EventStore
from present.replay import Replay
from service.night import NightRefused
from service.notes import AddNote, add_note
from service.report import Report, report_of, rules_name
from service.report_html import report_page
from sim import simulate_session

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2026, 9, 24)
LOGS = sorted((ROOT / "data" / "season").glob(f"{DAY.isoformat()}-*.jsonl"))
LIVE = "night-live"
NOTES = ("Jean bluffs on a pair, seen it twice", "Colin folds to a raise after the break")


def _live() -> list[AnyEvent]:
    """A simulated all-cards session of the same night, cut in deal 3 (in progress)."""
    full = simulate_session(
        seed="report-live", players=4, cards="all", session=LIVE, table="Bar",
        start=datetime(2026, 9, 24, 21, 0, tzinfo=UTC),
    )  # fmt: skip
    dealt = [k for k, e in enumerate(full) if isinstance(e, Dealt)]
    return [e for e in full[: dealt[2] + 4] if not is_derived(e)]


@pytest.fixture(scope="module")
def night() -> Iterator[EventStore]:
    """The bundled night of 2026-09-24 (four finished sessions, every card recorded), a live
    session beside them, and two notes on steps that show a hand."""
    with open_store("memory://") as s:
        for path in LOGS:
            s.import_log(str(path))
        s.append(LIVE, _live(), 0)

        def replay(session: str) -> Replay:
            return Replay.from_timeline(s.timeline(session))

        for text, session in zip(NOTES, ("2026-09-24-top-1", LIVE), strict=True):
            rp = replay(session)
            k = next(k for k, e in enumerate(rp.events) if isinstance(e, Dealt))
            lab = rp.labels[k]
            got = add_note(s, AddNote(session, lab.deal, lab.number, text, "Margaret"), replay)
            assert got.outcome == "stored", got
        yield s


def _streams(store: EventStore) -> dict[str, list[AnyEvent]]:
    return {i.session: store.events(i.session) for i in store.sessions()}


def _shown(events: list[AnyEvent]) -> dict[tuple[int, str], frozenset[str]]:
    """(deal, player) -> the three cards shown at a showdown, read from the stream with the
    engine's fold of each prefix (the deal an event is in)."""
    out: dict[tuple[int, str], set[str]] = defaultdict(set)
    state = fold(events[:1])
    for e in events[1:]:
        state = fold([e], state)
        if isinstance(e, Shown):
            out[(state.deals, e.player)].update(canonical(c) for c in e.cards)
    return {k: frozenset(v) for k, v in out.items() if len(v) == 3}


def _dealt(events: list[AnyEvent]) -> dict[tuple[int, str], frozenset[str]]:
    """(deal, player) -> the three cards dealt (``cards: "all"``)."""
    out = {}
    deal = 0
    for e in events:
        if isinstance(e, Dealt) and e.hands:
            deal += 1
            for p, cards in e.hands.items():
                out[(deal, p)] = frozenset(canonical(c) for c in cards)
    return out


def _drawn(cards: frozenset[str]) -> str:
    """A hand as the report draws it: highest rank first (RULES 2.1), faces."""
    order = sorted((Card.parse(c) for c in cards), key=lambda c: (-c.rank, c.suit))
    return faces(str(c) for c in order)


def test_the_values_are_the_engines_fold(night: EventStore) -> None:
    report = report_of(night, DAY)
    streams = _streams(night)
    assert set(streams) == {p.stem for p in LOGS} | {LIVE}
    nets: dict[str, Fraction] = defaultdict(Fraction)
    won: list[Fraction] = []
    hands: list[int] = []
    for events in streams.values():
        state = fold(events)
        for p, v in state.nets.items():
            nets[p] += v
        won += [o.amount for o in state.outcomes if o.result == "won"]
        hands += [strength(Card.parse(c) for c in cs) for cs in _shown(events).values()]
    assert {s.player: s.net for s in report.night.standings} == nets
    assert [p.amount for p in report.pots] == sorted(won, reverse=True)[:5]
    assert [h.strength for h in report.hands] == sorted(hands, reverse=True)[:5]
    assert report.position == night.last_position() and report.rules == "standard"
    assert report.stamp == f"made from log position {night.last_position()}, rules standard"
    for line in report.hands:  # each is a hand shown, linked to the step that showed it
        assert frozenset(line.cards) == _shown(streams[line.session])[(line.deal, line.player)]
        q = parse_qs(urlsplit(line.href).query)
        assert q == {"session": [line.session], "deal": [str(line.deal)], "step": [line.step]}
        rp = Replay.from_timeline(night.timeline(line.session))
        k = rp.position(line.deal, line.step).index
        shown = rp.events[k]
        assert isinstance(shown, Shown) and shown.player == line.player
    for pot in report.pots:
        rp = Replay.from_timeline(night.timeline(pot.session))
        e = rp.events[rp.position(pot.deal, pot.step).index]
        assert (e.type, getattr(e, "amount", None)) == ("pot_won", pot.amount)


def _texts(report: Report) -> dict[str, str]:
    from pypdf import PdfReader

    from service.report_pdf import report_pdf

    pdf = PdfReader(io.BytesIO(report_pdf(report, base="https://club.example/")))
    return {
        "html": report_page(report),
        "pdf": "\n".join(p.extract_text() for p in pdf.pages),
    }


def test_no_hidden_card_and_no_note_in_the_html_or_the_pdf(night: EventStore) -> None:
    report = report_of(night, DAY, top=1000)  # every hand shown, every pot: the most it draws
    texts = _texts(report)
    shown_hands: set[frozenset[str]] = set()
    unshown: set[frozenset[str]] = set()
    for events in _streams(night).values():
        shown = _shown(events)
        shown_hands |= set(shown.values())
        unshown |= {cs for k, cs in _dealt(events).items() if k not in shown}
    unshown -= shown_hands  # the same three cards dealt again and shown elsewhere
    assert len(unshown) > 50 and len(report.hands) == len(shown_hands) > 20
    for name, text in texts.items():
        assert report.stamp in text, name
        for cs in shown_hands:  # the scan can see a hand: every hand shown is there
            assert _drawn(cs) in text, (name, sorted(cs))
        leaked = [sorted(cs) for cs in unshown if _drawn(cs) in text]
        assert not leaked, (name, leaked)
        for note in NOTES:
            assert note not in text, (name, note)


def test_a_pot_on_a_table_is_reported_as_such(night: EventStore) -> None:
    report = report_of(night, DAY)
    pot = fold(night.events(LIVE)).pot
    assert pot > 0 and report.night.pot == pot
    html = _texts(report)["html"]
    assert f"{amount_text(pot)} on the tables" in html and "Provisional" in html


def test_markup_in_a_name_is_text(night: EventStore) -> None:
    with open_store("memory://") as s:
        s.append(
            "x",
            [
                e
                for e in simulate_session(
                    seed="markup", players=["<script>alert(1)</script>", "Ann & <b>Bo</b>"],
                    session="x", table="<img src=x onerror=alert(1)>",
                    start=datetime(2026, 9, 24, 21, 0, tzinfo=UTC),
                )
                if not is_derived(e)
            ],
            0,
        )  # fmt: skip
        html = report_page(report_of(s, DAY))
    assert "<script>" not in html and "<img" not in html and "<b>Bo" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "Ann &amp; &lt;b&gt;Bo" in html


def test_a_night_without_a_session_is_refused(night: EventStore) -> None:
    with pytest.raises(NightRefused, match="no session started on 2026-09-23"):
        report_of(night, date(2026, 9, 23))


def test_the_rules_are_named_by_what_differs() -> None:
    from events.model import Rules

    assert rules_name(Rules()) == "standard"
    assert rules_name(Rules(ante=Fraction(2), pots=10)) == "ante 2, pots 10"
    first = next(e for _, e in read_file(str(LOGS[0])))
    assert first.type == "session_started"
