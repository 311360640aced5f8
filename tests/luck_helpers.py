"""Simulated sessions, every card recorded but one, projected once a module (shared by
tests/analytics/test_luck.py and tests/cli/test_luck_in_brag_stats.py): analytics layer."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import duckdb
import pytest

import analytics.projector
import analytics.tables
from analytics.sources import MemorySource
from sim import simulate_session

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(name="src", scope="module")
def luck_src() -> MemorySource:
    """Five simulated sessions recording every card (2 to 6 players), one only the cards shown."""
    out = MemorySource()
    for k in range(5):
        out.append(f"all-{k}", simulate_session(seed=k, players=2 + k, cards="all"))
    out.append("shown-0", simulate_session(seed=9, players=4, cards="shown"))
    return out


@pytest.fixture(name="con", scope="module")
def luck_con(src: MemorySource) -> duckdb.DuckDBPyConnection:
    c = analytics.tables.connect()
    analytics.projector.refresh(src, c)
    return c


def _each_deal(
    events: list, take: Any, *, then: bool = False, prior: Any = None, end: Any = None
) -> list:
    """``take(tendencies, state)`` at each deal of a session's ``events`` as it is dealt (and,
    with ``then``, once after the last event as if another deal came): the players' actions are
    noted with the engine's state before each (seen or blind, RULES 5.1), so a deal reads only
    the deals before it; ``prior``: each name's signature counts from earlier sessions
    (:func:`earlier_priors`); ``end(tendencies, state)`` once after the last event. Independent
    of :class:`analytics.luck.LuckTracker`."""
    from analytics.tendencies import Tendencies
    from engine.apply import apply
    from engine.state import initial_state

    seen, state, out = Tendencies(prior), initial_state(), []
    for e in events:
        before, state = state, apply(state, e)
        who = getattr(e, "player", None)
        if who is not None and e.type not in ("dealer_chosen", "pot_won"):
            seen.acted(e.type, who, before.players[before.seat(who)].seen)
        if e.type == "dealt":
            seen.dealt(state.seats)
            out.append(take(seen, state))
    if end is not None:
        end(seen, state)
    if then:
        seen.dealt(state.seats)
        out.append(take(seen, state))
    return out


def tendency_values(events: list, *, then: bool = False, prior: Any = None) -> list:
    """Each deal's tendency value (analytics/tendencies.py) of a session's ``events``, or ``None``
    where the model has no table of that size (:func:`_each_deal`; ``then``: and the value a
    deal after the last would get)."""
    return _each_deal(events, lambda seen, _: seen.value(), then=then, prior=prior)


def deal_kinds(events: list) -> list[str]:
    """Each deal's kind (RULES 3.2-3.4), in order: ``"fresh"`` (no card dealt since the last
    shuffle), ``"partly"`` (some), ``"none"`` (every card from under the pack); deals whose hands
    the log does not hold are left out."""
    from engine.state import card_codes

    since: set[int] = set()
    out = []
    for e in events:
        if e.type == "shuffled":
            since = set()
        elif e.type == "dealt" and e.hands is not None:
            cards = {c for h in e.hands.values() for c in card_codes(h)}
            out.append("none" if cards <= since else "partly" if cards & since else "fresh")
            since |= cards
    return out


def deal_context(
    events: list, prior: Any = None
) -> list[tuple[tuple[tuple[int, ...], ...] | None, int | None]]:
    """Each deal's seats' posteriors over the styles (whole 64ths, from the deals before it) and
    its dealer's seat, in order (:func:`_each_deal`): what a deal's forest value reads besides
    the cards (analytics/luck_forest.py)."""
    return _each_deal(events, lambda seen, state: (seen.weights(), state.dealer), prior=prior)


def session_signatures(events: list) -> dict[str, Counter[str]]:
    """Each name's signature counts in one session (analytics/tendencies.py): every deal that
    closed, and the last one too once the session is over; counted here from the engine's
    states, apart from the projection."""
    seated: set[str] = set()
    names: dict[str, Counter[str]] = {}

    def close(seen: Any, state: Any) -> None:
        if state.finished:
            seen.dealt(())  # the last deal closes
        names.update({n: Counter(seen.signatures(n)) for n in seated})

    _each_deal(events, lambda _, state: seated.update(state.seats), end=close)
    return names


def earlier_priors(stored: list, history: int = 10) -> dict[str, dict[str, Counter[str]]]:
    """session -> each of its names -> the prior of the luck term's tendencies
    (analytics/priors.py): the counts of the name's (normal form's) latest ``history`` sessions
    earlier by ``session_started.at``, then by the position of the first event (a session
    without a time after every one with), summed. ``stored``: ``(position, session, event)``
    of every session, none of them corrected."""
    from events.text import normal

    first: dict[str, tuple[int, int]] = {}
    events: dict[str, list] = {}
    for position, session, event in stored:
        events.setdefault(session, []).append(event)
        if session not in first:
            at = getattr(event, "at", None)
            first[session] = (0, int(at.timestamp() * 1e6)) if at else (1, 0)
            first[session] = (*first[session], position)  # type: ignore[assignment]
    counts = {s: session_signatures(evs) for s, evs in events.items()}
    order = sorted(events, key=lambda s: first[s])
    out: dict[str, dict[str, Counter[str]]] = {}
    for i, session in enumerate(order):
        names = {n for e in events[session] for n in getattr(e, "seats", ())}
        out[session] = {}
        for name in names:
            mine = []
            for s in order[:i]:
                same = [c for n, c in counts[s].items() if normal(n) == normal(name)]
                if same:
                    mine.append(sum(same, Counter()))
            total: Counter[str] = Counter()
            for c in mine[-history:]:
                total.update(c)
            out[session][name] = total
    return out


def walk_tree(doc: dict, x: list[int]) -> int:
    """One table size's forest of ``analytics/luck_forest.json.gz`` on the features ``x``, each tree
    walked from its root a node at a time (``x <= threshold``: left): the sum of its leaves and
    base, in 2**-20 stake units."""
    total = doc["base"]
    left, right = doc["left"], doc["right"]
    for node in doc["root"]:
        while left[node] != node:  # an inner node (a leaf is its own two children)
            node = left[node] if x[doc["feature"][node]] <= doc["threshold"][node] else right[node]
        total += doc["value"][node]
    return total


def forest_term(
    hands: list[tuple[int, int, int]],
    weights: tuple[tuple[int, ...], ...],
    dealer: int,
    unseen: set[int] | None = None,
) -> tuple[Fraction, ...] | None:
    """A deal's forest term (stake units) recomputed one seat, one tree, one node at a time from
    ``analytics/luck_forest.json.gz`` as its docstring states it: each seat's features (its hand's
    place among the 22,100 hands by RULES 2 then by the cards highest first, its rank, its place
    from the dealer, its posterior; then each other seat from the best hand down), each tree
    walked from its root (``x <= threshold``: left), the leaves summed in 2**-20 units and
    rounded half up to 64ths, centred, less the mean over the deal's fixed alternatives. A fresh
    deal (``unseen`` None): its hands reassigned to the seats (every permutation up to four
    seats, else the rotations composed with three shuffles drawn by
    ``random.Random(f"luck-forest/{n}")``); a partly fresh one: its ``unseen`` cards relabelled
    (every permutation of the sorted set up to four cards, else fifteen drawn by
    ``random.Random(f"luck-forest/relabel/{k}")``). ``None`` where no forest was fitted."""
    import gzip
    import json
    import random
    from itertools import combinations, permutations

    from engine.hands import strength_codes

    n = len(hands)
    stored = gzip.decompress((ROOT / "analytics" / "luck_forest.json.gz").read_bytes())
    doc = json.loads(stored)["sizes"].get(str(n))
    if doc is None:
        return None
    order = sorted(
        combinations(range(52), 3), key=lambda h: (strength_codes(*h), sorted(h, reverse=True))
    )
    place_of = {h: i for i, h in enumerate(order)}
    if unseen is None:
        if n <= 4:
            perms = [list(p) for p in permutations(range(n))]
        else:
            draw = random.Random(f"luck-forest/{n}")
            shuffles = [list(range(n))] + [draw.sample(range(n), n) for _ in range(2)]
            perms = [[sg[(s + k) % n] for s in range(n)] for sg in shuffles for k in range(n)]
        alternatives = [[hands[p[s]] for s in range(n)] for p in perms]
    else:
        pool = sorted(unseen)
        k = len(pool)
        if k <= 4:
            relabel = [list(p) for p in permutations(range(k))]
        else:
            draw = random.Random(f"luck-forest/relabel/{k}")
            relabel = [draw.sample(range(k), k) for _ in range(15)]
        alternatives = []
        for p in relabel:
            swap = {pool[j]: pool[p[j]] for j in range(k)}
            alternatives.append([tuple(swap.get(c, c) for c in h) for h in hands])

    def values(dealt: list) -> list[int]:
        s = [place_of[tuple(sorted(h))] for h in dealt]
        best_first = sorted(range(n), key=lambda i: -s[i])
        places = [(i - dealer - 1) % n for i in range(n)]
        out = []
        for i in range(n):
            x = [s[i], best_first.index(i), places[i], *weights[i]]
            for j in best_first:
                if j != i:
                    x += [s[j], places[j], *weights[j]]
            out.append((walk_tree(doc, x) + (1 << 20) // 128) // ((1 << 20) // 64))
        return [v * n - sum(out) for v in out]

    dealt = values(list(hands))
    others = [values(a) for a in alternatives]
    return tuple(
        Fraction(dealt[i], 64 * n) - Fraction(sum(o[i] for o in others), 64 * n * len(others))
        for i in range(n)
    )


NAMES = ["Ann", "Bob", "Cat"]


def dated_season(count: int, seed: int = 0) -> dict[str, list]:
    """``count`` random sessions of Ann, Bob and Cat (``s00``, ``s01``, ...), a week apart from
    2026-09-04 20:00 UTC (``session_started.at``), every card recorded, two pots each."""
    import random
    from datetime import UTC, datetime, timedelta

    from sim.randplay import random_session

    rng = random.Random(seed)
    night = datetime(2026, 9, 4, 20, 0, tzinfo=UTC)
    out = {}
    for k in range(count):
        events = random_session(rng, f"s{k:02}", players=NAMES, pots=2)
        at = night + timedelta(days=7 * k)
        out[f"s{k:02}"] = [events[0].model_copy(update={"at": at}), *events[1:]]
    return out
