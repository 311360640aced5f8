"""The exact luck term of a partly fresh deal (analytics/luck.py, docs/luck.md; RULES 3.2-3.4):
its average over every order of the unseen cards is 0 (brute force over the permutations, exact
Fractions; within the error of the seeded sample where the placings are too many), the tracker
writes it within a tick, and it uses nothing of the play of the deal it values."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations

import pytest
from luck_helpers import deal_context, deal_kinds, forest_term, tendency_values

import analytics.luck as luck
from analytics.facts import Rows, SessionFolder
from analytics.luck import deal_ranks, deal_units, luck_units, order_average
from engine.state import card_codes
from events.model import AnyEvent, Dealt
from sim.replay import before_deals, replay_deal
from sim.table import SessionSpec

STYLES5 = ("rock", "loose", "blind", "seer", "bluffer")


def _hands(order: tuple[int, ...], n: int) -> list[tuple[int, int, int]]:
    """RULES 3.4: card ``p`` of the deal goes to seat ``p % n`` (seat 0 on the dealer's left)."""
    return [(order[i], order[n + i], order[2 * n + i]) for i in range(n)]


def _codes(text: str) -> tuple[int, ...]:
    return tuple(card_codes(tuple(text.split())))


@pytest.mark.parametrize(
    ("n", "unseen", "under"),
    [
        (2, "Ah Kh 3c 7d", "Ac 2d"),  # heads-up: the last four unseen cards, two from under
        (2, "2c 2d 3c", "3d 4c 4d"),  # equal hands (RULES 2.7) among the placings
        (3, "As Ad Ks Qs Js", "2h 3h 4h 9c"),
        (5, "Ah Ad Ac Kh Qh Jh 2s", "3s 4d 5c 6h 7s 8d 9c Th"),  # five players: 7 unseen + 8
    ],
)
def test_partly_fresh_term_averages_to_zero_over_the_orders_exactly(
    n: int, unseen: str, under: str
) -> None:
    """Every order of the unseen cards at the top, the under-pack cards after them: the value's
    mean over the permutations (computed here by brute force) is the term's baseline, so the term
    averages to exactly 0 for every seat."""
    top, rest = _codes(unseen), _codes(under)
    assert len(top) + len(rest) == 3 * n
    perms = list(permutations(top))
    brute = [Fraction(0)] * n
    for p in perms:
        for i, v in enumerate(luck_units(deal_ranks(_hands((*p, *rest), n)))):
            brute[i] += v
    brute = [b / len(perms) for b in brute]
    assert list(order_average(_hands((*top, *rest), n), set(top))) == brute
    assert any(b != 0 for b in brute)  # the term is not the plain rank value
    if len(perms) <= 120:  # the term itself over every order
        total = [Fraction(0)] * n
        for p in perms:
            terms = deal_units(_hands((*p, *rest), n), set(top))
            assert terms is not None and sum(terms) == 0  # a deal's terms sum to 0
            total = [t + x for t, x in zip(total, terms, strict=True)]
        assert total == [0] * n


def _seat_value(ranks: tuple[int, ...]) -> tuple[Fraction, ...]:
    """A value that is not centred and depends on the seat (as one knowing the players would)."""
    return tuple(
        Fraction(7 * (i + 1), r) + (5 if r == 1 and i == 0 else 0) for i, r in enumerate(ranks)
    )


@pytest.mark.parametrize(
    ("n", "unseen", "under"),
    [
        (2, "Ah Kh 3c 7d 9s Td", ""),  # a fresh deal: the term is the value minus its rank average
        (3, "As Ad Ks Qs Js", "2h 3h 4h 9c"),  # partly fresh
        (2, "Ah Kh 3c 7d", "Ac 2d"),
    ],
)
def test_any_value_function_gives_mean_zero_exactly(n: int, unseen: str, under: str) -> None:
    """Whatever the value (here one that depends on the seat and is not centred), the term's mean
    over every order of the unseen cards is exactly 0 (RULES 3.2-3.4), fresh or partly fresh."""
    top, rest = _codes(unseen), _codes(under)
    total = [Fraction(0)] * n
    perms = list(permutations(top))
    for p in perms:
        terms = deal_units(_hands((*p, *rest), n), set(top), _seat_value)
        assert terms is not None
        total = [t + x for t, x in zip(total, terms, strict=True)]
    assert total == [0] * n
    assert deal_units(_hands((*top, *rest), n), set(top), _seat_value) != deal_units(
        _hands((*top, *rest), n), set(top)
    )


def test_sampled_average_is_unbiased_within_its_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond EXACT_LIMIT placings the average is over seeded random orders: over every order of
    the unseen cards the term's mean is within four standard errors of the sample of 0."""
    monkeypatch.setattr(luck, "EXACT_LIMIT", 5)
    monkeypatch.setattr(luck, "SAMPLES", 400)
    n, top, rest = 3, _codes("As Ad Ks Qs Js"), _codes("2h 3h 4h 9c")
    means, values = [Fraction(0)] * n, []
    perms = list(permutations(top))
    for p in perms:
        terms = deal_units(_hands((*p, *rest), n), set(top))
        assert terms is not None
        means = [m + t / len(perms) for m, t in zip(means, terms, strict=True)]
        values.append(luck_units(deal_ranks(_hands((*p, *rest), n))))
    for i in range(n):
        xs = [float(v[i]) for v in values]
        mu = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - mu) ** 2 for x in xs) / len(xs))
        assert sd > 0
        assert abs(float(means[i])) <= 4 * sd / math.sqrt(400)
    assert any(m != 0 for m in means)  # a sample, not the exact average


def _fold(events: list[AnyEvent]) -> Rows:
    folder, rows = SessionFolder("s"), Rows()
    for k, e in enumerate(events, start=1):
        folder.apply(k, k, e, rows)
    folder.written.open(rows)  # as at the session's end: the veiled deals open (analytics.veil)
    return rows


def _luck_of(rows: Rows, deal: int) -> tuple[int, ...]:
    pd = rows.player_deals
    got = sorted(
        (s, t) for d, s, t in zip(pd["deal"], pd["seat"], pd["luck_t"], strict=True) if d == deal
    )
    return tuple(t for _, t in got)


def _nets_of(rows: Rows, deal: int) -> tuple[int, ...]:
    pd = rows.player_deals
    got = sorted(
        (s, t) for d, s, t in zip(pd["deal"], pd["seat"], pd["net_t"], strict=True) if d == deal
    )
    return tuple(t for _, t in got)


def _partly_fresh(events: list[AnyEvent]) -> list[int]:
    """The deals (1-based) with some cards unseen since the last shuffle and some not."""
    return [d for d, kind in enumerate(deal_kinds(events), start=1) if kind == "partly"]


def test_the_term_uses_nothing_of_the_deals_own_play() -> None:
    """A simulated session at five players; its first partly fresh deal and a fresh one are
    played again from just before the deal with other choices (every player's generator
    reseeded): the actions and nets change, the luck terms of the deal do not (RULES 3.4: they
    are fixed when the cards are dealt)."""
    spec = SessionSpec(
        session="s", seats=tuple((f"P{i}", s) for i, s in enumerate(STYLES5)), seed=7
    )
    events, snaps = before_deals(spec)
    partly = _partly_fresh(events)
    assert partly, "seed 7 deals a partly fresh deal"
    for deal in (1, partly[0]):
        snap = snaps[deal - 1]
        seen: dict[tuple[int, ...], tuple[int, ...]] = {}
        for k in range(6):
            replayed, _ = replay_deal(snap, f"other-{k}")
            rows = _fold(replayed)
            seen[_nets_of(rows, deal)] = _luck_of(rows, deal)
        assert len(seen) >= 2, "other choices gave other nets"
        assert len(set(seen.values())) == 1
        terms = next(iter(seen.values()))
        assert any(terms) and sum(terms) == 0
        assert terms == _luck_of(_fold(events), deal)


def test_tracker_writes_partly_fresh_terms_within_a_tick() -> None:
    """Folded sessions at five and two players: every deal's terms sum to 0; each seat's written
    ticks stay within one tick of the exact sum of :func:`deal_units` (recounted here from the
    dealt hands; the forest's, :func:`luck_helpers.forest_term`); some partly fresh deals get a
    term."""
    partly_terms = 0
    for n in (5, 2):
        for seed in range(4):
            styles = STYLES5[:n]
            spec = SessionSpec("s", tuple((f"P{i}", s) for i, s in enumerate(styles)), seed)
            events, _ = before_deals(spec)
            rows = _fold(events)
            since: set[int] = set()
            exact, written = [Fraction(0)] * n, [0] * n
            deal = 0
            values = tendency_values(events)
            contexts = deal_context(events)
            for e in events:
                if e.type == "shuffled":
                    since = set()
                elif isinstance(e, Dealt) and e.hands is not None:
                    deal += 1
                    hands = [card_codes(e.hands[p]) for p in spec_names(spec)]
                    cards = {c for h in hands for c in h}
                    value = values[deal - 1]
                    units = deal_units(hands, cards - since, value)  # type: ignore[arg-type]
                    weights, dealer = contexts[deal - 1]
                    if units is not None:  # the forest's term (two and five players)
                        partly = cards - since if cards & since else None
                        units = forest_term(hands, weights, dealer, partly)  # type: ignore[arg-type]
                    partly = bool(cards & since) and units is not None
                    since |= cards
                    terms = _luck_of(rows, deal)
                    assert sum(terms) == 0
                    if units is not None:
                        partly_terms += partly and any(terms)
                        exact = [x + u * 2 for x, u in zip(exact, units, strict=True)]  # den 2
                    written = [w + t for w, t in zip(written, terms, strict=True)]
                    assert all(abs(w - x) < 1 for w, x in zip(written, exact, strict=True))
    assert partly_terms >= 4


def spec_names(spec: SessionSpec) -> list[str]:
    return [name for name, _ in spec.seats]
