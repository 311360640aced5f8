"""The luck term (analytics/luck.py, docs/luck.md): mean exactly zero, whole ticks, the nets and
adjusted nets of folded sessions, NULL where the hands are not known, the CLI and the Players page.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations, permutations

import duckdb
import pytest
from luck_helpers import (  # noqa: F401 (the fixtures con, src)
    deal_context,
    earlier_priors,
    forest_term,
    luck_con,
    luck_src,
    tendency_values,
)

import analytics.projector
import analytics.tables
from analytics import queries
from analytics.luck import RANK_VALUES, deal_ranks, luck_units, order_average
from analytics.sources import MemorySource
from engine.hands import strength_codes
from engine.state import CODE, card_codes
from sim.randplay import random_session


def _deals(universe: list[int], n: int) -> Iterator[tuple[tuple[int, int, int], ...]]:
    """Every ordered deal of ``n`` disjoint three-card hands from ``universe``."""
    if n == 0:
        yield ()
        return
    for hand in combinations(universe, 3):
        rest = [c for c in universe if c not in hand]
        for others in _deals(rest, n - 1):
            yield (hand, *others)


@pytest.mark.parametrize(
    ("n", "cards"),
    [
        (2, "2c 2d 3c 3d 4c 4d 5c 5d"),  # many equal hands (RULES 2.7): the card order decides
        (2, "Ah Kh Qh Jh 3s 3c 3d 9c"),  # a running flush, a prial, a flush
        (3, "2c 2d 3c 3d 4c 4d 5c 5d 9h Ts"),
        (3, "Ah Ad As Kh Qh Jh 2c 3c 4c 7d"),
    ],
)
def test_the_luck_term_has_mean_zero_exactly(n: int, cards: str) -> None:
    """A fresh deal hands out ``n`` disjoint hands from the unseen cards, every ordering alike:
    averaged over every deal of a small set of unseen cards, each seat's term is exactly 0."""
    universe = list(card_codes(tuple(cards.split())))
    total = [Fraction(0)] * n
    deals = 0
    for hands in _deals(universe, n):
        terms = luck_units(deal_ranks(hands))
        assert sum(terms) == 0  # the terms of one deal sum to 0
        total = [t + x for t, x in zip(total, terms, strict=True)]
        deals += 1
    assert deals > 100
    assert total == [0] * n


def test_rank_values_are_whole_half_units_summing_to_zero() -> None:
    assert sorted(RANK_VALUES) == list(range(2, 11))  # RULES 1.3: 2 to 10 players
    for n, values in RANK_VALUES.items():
        assert len(values) == n and sum(values) == 0
        assert all((v * 2).denominator == 1 for v in values)  # whole ticks for any den = 2k
        assert values[0] == max(values)  # the best hand is worth the most


def test_ranks_follow_rules_2_and_break_ties_by_the_cards() -> None:
    hands = [card_codes(tuple(h.split())) for h in ("Ah Kd 9c", "3s 3h 3d", "As Kc 9d", "4h 5h 6h")]
    # 3-3-3 is the best prial (2.3), a running flush next; A-K-9 twice: equal by 2.7, ordered
    # here by their card codes (As above Ah)
    assert deal_ranks(hands) == (4, 1, 3, 2)  # type: ignore[arg-type]


# --- folded sessions --------------------------------------------------------------------------


def _recount(events: list, prior: dict | None = None) -> dict[tuple[int, int], Fraction]:
    """(deal, seat) -> the luck term in half units, recounted from the events alone: a deal is
    fresh when none of its cards was dealt since the last shuffle; a hand's rank is 1 + the hands
    that beat it (by strength, then by their card codes, highest first). The value: at two and
    five players that of the seats' tendencies in the earlier deals (analytics/tendencies.py),
    less its average over every order of the ranks, summed here one order at a time; else the
    rank's baseline. A partly fresh deal (some cards unseen, the rest from under the pack): the
    value minus its average over the orders of the unseen cards
    (:func:`analytics.luck.order_average`, checked by brute force in test_luck_partly_fresh.py).
    A fresh or partly fresh deal at a table size with a forest (analytics/luck_forest.py: two to
    five): the forest's term, recomputed one node at a time (:func:`luck_helpers.forest_term`).
    ``prior``: each name's counts from earlier sessions (:func:`luck_helpers.earlier_priors`)."""
    out: dict[tuple[int, int], Fraction] = {}
    seats: list[str] = []
    since: set[int] = set()
    deal = 0
    values = tendency_values(events, prior=prior)
    contexts = deal_context(events, prior)
    for e in events:
        if e.type == "session_started":
            seats = list(e.seats)
        elif e.type == "shuffled":
            since = set()
        elif e.type == "dealt":
            deal += 1
            tendency = values[deal - 1]
            hands = [tuple(CODE[str(c)] for c in e.hands[p]) for p in seats]
            cards = {c for h in hands for c in h}
            unseen = cards - since
            since |= cards
            keys = [(strength_codes(*h), sorted(h, reverse=True)) for h in hands]
            ranks = tuple(1 + sum(1 for other in keys if other > k) for k in keys)
            n = len(seats)
            if tendency is None:
                value = [RANK_VALUES[n][r - 1] for r in ranks]
                mean = [Fraction(0)] * n
            else:
                value = list(tendency(ranks))
                orders = list(permutations(range(1, n + 1)))
                mean = [sum(tendency(o)[i] for o in orders) / len(orders) for i in range(n)]
            if unseen and unseen != cards:
                mean = list(order_average(hands, unseen, tendency))  # type: ignore[arg-type]
            weights, dealer = contexts[deal - 1]
            if unseen and weights is not None and dealer is not None:
                partly = None if unseen == cards else unseen
                forest = forest_term(hands, weights, dealer, partly)  # type: ignore[arg-type]
                if forest is not None:  # a size with a forest (2 to 7)
                    value, mean = list(forest), [Fraction(0)] * n
            for i in range(n):
                term = value[i] - mean[i] if unseen else Fraction(0)
                out[(deal, i)] = term * 2
    return out


def test_folded_sessions_luck_and_adjusted_nets(
    src: MemorySource, con: duckdb.DuckDBPyConnection
) -> None:
    rows = con.execute(
        "SELECT session, deal, seat, den, net_t, luck_t, adjusted_net_t FROM player_deals"
    ).fetchall()
    by_session: dict[str, dict[tuple[int, int], tuple[int, int | None, int | None, int]]] = {}
    for s, d, seat, den, net, luck, adj in rows:
        by_session.setdefault(s, {})[(d, seat)] = (net, luck, adj, den)
    fresh_nonzero = 0
    priors = earlier_priors([(e.position, e.session, e.event) for e in src.events])
    for k in range(5):
        session = f"all-{k}"
        events = [e.event for e in src.events if e.session == session]
        expected = _recount(events, priors[session])
        got = by_session[session]
        running: dict[int, tuple[int, Fraction]] = {}
        for key, (net, luck, adj, den) in sorted(got.items()):
            assert luck is not None and adj == net - luck
            exact = expected[key] * den / 2  # half units -> ticks of den
            if exact.denominator == 1:
                assert luck == exact
            written, true = running.get(key[1], (0, Fraction(0)))
            running[key[1]] = (written + luck, true + exact)
            # a partly fresh term is written rounded: each seat's sum within a tick of the exact
            assert abs(running[key[1]][0] - running[key[1]][1]) < 1
            fresh_nonzero += luck != 0
        for d in {d for d, _ in got}:
            assert sum(got[(d, i)][1] or 0 for i in range(2 + k)) == 0  # a deal's terms sum to 0
    assert fresh_nonzero > 20
    assert all(v[1] is None and v[2] is None for v in by_session["shown-0"].values())


def test_summary_and_player_stats_add_the_adjusted_net(con: duckdb.DuckDBPyConnection) -> None:
    summed = dict(
        con.execute(
            "SELECT player_key, sum(adjusted_net_t) FROM player_deals GROUP BY player_key"
        ).fetchall()
    )
    counted = dict(
        con.execute(
            "SELECT player_key, count(luck_t) FROM player_deals GROUP BY player_key"
        ).fetchall()
    )
    den = queries.common_den(con)
    assert den == 2
    for r in queries.player_stats(con):
        k = queries.key(r["player"])
        assert r["luck_deals"] == counted[k]
        if counted[k]:
            assert r["adjusted_net_per_deal"] == Fraction(int(summed[k]), 2 * counted[k])
        else:
            assert r["adjusted_net_per_deal"] is None
    shown_only = con.execute(
        "SELECT count(*) FROM player_session_summary WHERE session = 'shown-0' "
        "AND luck_deals = 0 AND adjusted_net_t IS NULL AND luck_net_t IS NULL"
    ).fetchone()
    assert shown_only == (4,)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_sessions_with_corrections_keep_the_sums(seed: int) -> None:
    """Random legal sessions (an ante of 1/3 among them, so other dens, and withdrawn events that
    reopen deals): every deal's terms sum to 0, adjusted = net - luck, whole ticks throughout,
    and a shown-cards session has none."""
    import random

    rng = random.Random(seed)
    src = MemorySource()
    modes = {}
    for k in range(6):
        modes[f"r{k}"] = rng.choice(["all", "all", "shown"])
        events = random_session(
            rng,
            f"r{k}",
            players=rng.randint(2, 7),
            cards=modes[f"r{k}"],
            pots=rng.randint(2, 6),
            ante=rng.choice([1, Fraction(1, 3)]),
            void_rate=0.05,
        )
        src.append(f"r{k}", events)
    c = analytics.tables.connect()
    analytics.projector.refresh(src, c)
    rows = c.execute(
        "SELECT session, deal, net_t, luck_t, adjusted_net_t FROM player_deals"
    ).fetchall()
    assert rows
    sums: dict[tuple[str, int], int] = {}
    for session, deal, net, luck, adj in rows:
        if modes[session] == "shown":
            assert luck is None and adj is None
            continue
        assert isinstance(luck, int) and adj == net - luck
        sums[(session, deal)] = sums.get((session, deal), 0) + luck
    assert sums and set(sums.values()) == {0}
