"""Properties: the SQL statistics equal a plain Python fold over the same logs.

Logs are drawn with :mod:`sim.randplay`, which picks every event from
``engine.legal.legal_actions`` (so every log is valid), with corrections (``voided``) and
unfinished sessions among them. The reference fold below is written independently of
``analytics.facts``: it first drops withdrawn events (FORMAT.md ``voided``), replays what is left
with the engine and counts per player, then the SQL result must agree exactly.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from fractions import Fraction
from typing import Any

import duckdb
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import analytics.projector
import analytics.tables
from analytics import queries
from analytics.sources import interleave
from engine.apply import apply
from engine.fold import fold, summary
from engine.state import initial_state
from events.model import AnyEvent, Bet, Folded, Saw, Voided, is_derived
from sim.randplay import random_session


def in_force(stream: list[AnyEvent]) -> list[AnyEvent]:
    """The log as corrected: each ``voided`` removes the latest recorded event still in force and
    the engine's conclusions that followed it."""
    out: list[AnyEvent] = []
    for e in stream:
        if isinstance(e, Voided):
            while out and is_derived(out[-1]):
                out.pop()
            out.pop()
        else:
            out.append(e)
    return out


def reference(streams: dict[str, list[AnyEvent]]) -> dict[str, dict[str, Any]]:
    """Per player over all ``streams``: the counts behind ``player_stats``, by a plain fold."""
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    nets: dict[str, Fraction] = defaultdict(Fraction)
    biggest: dict[str, Fraction] = {}
    sessions: dict[str, set[str]] = defaultdict(set)
    for name, stream in streams.items():
        state = initial_state()
        deal: dict[str, Counter[str]] = {}
        done: list[tuple[dict[str, Counter[str]], Any]] = []
        carried: tuple[dict[str, Counter[str]], Any] | None = None
        for e in in_force(stream):
            before, state = state, apply(state, e)
            if e.type == "dealt":
                if carried:
                    done.append(carried)
                    carried = None
                deal = {p: Counter() for p in state.seats}
                for i, p in enumerate(state.seats):
                    deal[p]["paid"] = state.paid_t[i] - before.paid_t[i]
            elif e.type == "retained":
                assert carried
                done.append(carried)
                carried = None
            elif isinstance(e, Bet | Folded | Saw):
                i = before.seat(e.player)
                me = before.players[i]
                c = deal[e.player]
                if not c["acted"]:
                    c["acted"] = 1
                    c["blind_first"] = int(me.blind)
                c["paid"] += state.paid_t[i] - before.paid_t[i]
                left = [k for k, q in enumerate(before.players) if not q.folded]
                if len(left) == 2 and before.level is not None:
                    other = before.players[left[0] if left[1] == i else left[1]]
                    if me.blind or other.seen:  # RULES 5.7
                        c["see_chances"] += 1
                if isinstance(e, Bet):
                    c["bets"] += 1
                    c["blind_bets"] += int(me.blind)
                    c["raises"] += int(before.level is not None and e.level > before.level)
                if isinstance(e, Saw):
                    c["sees"] += 1
            if len(state.outcomes) > len(before.outcomes):
                o = state.outcomes[-1]
                if o.result == "won":
                    done.append((deal, o))
                else:
                    carried = (deal, o)
        for counters, o in done:
            for p, c in counters.items():
                s = stats[p]
                sessions[p].add(name)
                s["deals"] += 1
                won = o.amount if o.winner == p else Fraction(0)
                nets[p] += won - Fraction(c["paid"], state.scale)
                if o.winner == p:
                    s["pots_won"] += 1
                    s["pots_won_showdown" if o.showdown else "pots_won_uncontested"] += 1
                    biggest[p] = max(biggest.get(p, Fraction(0)), o.amount)
                for key in ("blind_first", "blind_bets", "bets", "raises", "sees", "see_chances"):
                    s[key] += c[key]
                s["blind_rate_n"] += c["acted"]
                s["deals_with_bet"] += int(c["bets"] > 0)
                if o.showdown and o.payer == p:
                    s["payer_win_rate_n"] += 1
                    s["payer_wins"] += int(o.winner == p)
                if o.showdown and o.seen_player == p:
                    s["seen_win_rate_n"] += 1
                    s["seen_wins"] += int(o.winner == p)
                s["carried_caused"] += int(o.result == "carried" and o.blind == p)
    out: dict[str, dict[str, Any]] = {}
    for p, s in stats.items():
        row: dict[str, Any] = dict(s)
        row["net"] = nets[p]
        row["biggest_pot_won"] = biggest.get(p)
        row["sessions"] = len(sessions[p])
        out[p] = row
    return out


KEYS = (
    "deals", "sessions", "pots_won", "pots_won_showdown", "pots_won_uncontested", "blind_first",
    "blind_rate_n", "blind_bets", "deals_with_bet", "raises", "sees", "payer_wins",
    "payer_win_rate_n", "seen_wins", "seen_win_rate_n", "carried_caused", "net",
    "biggest_pot_won",
)  # fmt: skip
RENAMED = {"bets": "raise_rate_n", "see_chances": "see_rate_n"}


def _compare(sql: list[dict[str, Any]], ref: dict[str, dict[str, Any]]) -> None:
    got = {r["player"]: r for r in sql}
    assert set(got) == set(ref)
    for p, want in ref.items():
        row = got[p]
        for key in KEYS:
            assert row[key] == want.get(key, 0 if key != "biggest_pot_won" else None), (p, key)
        for key, col in RENAMED.items():
            assert row[col] == want.get(key, 0), (p, key)
        if want.get("blind_rate_n"):
            assert row["blind_rate"] == want.get("blind_first", 0) / want["blind_rate_n"]
        assert row["net_per_deal"] == want["net"] / want["deals"]


session_spec = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "players": st.integers(2, 6),
        "cards": st.sampled_from(["all", "shown"]),
        "pots": st.integers(1, 3),
        "ante": st.sampled_from([Fraction(1), Fraction(1), Fraction(1, 2), Fraction(1, 3), 2]),
        "blind_play": st.booleans(),
        "void_rate": st.sampled_from([0.0, 0.0, 0.05, 0.15]),
        "max_events": st.one_of(st.none(), st.integers(3, 150)),
    }
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs=st.lists(session_spec, min_size=1, max_size=4), batch=st.integers(1, 400))
def test_sql_statistics_equal_a_python_fold(specs: list[dict[str, Any]], batch: int) -> None:
    streams: dict[str, list[AnyEvent]] = {}
    for k, spec in enumerate(specs):
        spec = dict(spec)
        rng = random.Random(spec.pop("seed"))
        streams[f"p{k}"] = random_session(rng, f"p{k}", **spec)
    src = interleave(streams, seed=len(specs))
    con = analytics.tables.connect()
    analytics.projector.refresh(src, con, batch_size=batch)
    _compare(queries.player_stats(con), reference(streams))
    one = next(iter(streams))
    _compare(queries.player_stats(con, session=one), reference({one: streams[one]}))
    _check_nets(con, streams)
    _check_overall(con, streams)


def _check_overall(con: duckdb.DuckDBPyConnection, streams: dict[str, list[AnyEvent]]) -> None:
    """Wins and shared wins over the finished sessions, from the engine's winners (RULES 1.5)."""
    want: dict[str, Counter[str]] = defaultdict(Counter)
    for stream in streams.values():
        state = fold(stream)
        if not state.finished:
            continue
        for p in state.seats:
            want[p]["sessions"] += 1
            if p in state.winners:
                want[p]["wins" if len(state.winners) == 1 else "shared_wins"] += 1
    got = {r["player"]: r for r in queries.overall_leaderboard(con)}
    assert set(got) == set(want)
    for p, w in want.items():
        assert (got[p]["sessions"], got[p]["wins"], got[p]["shared_wins"]) == (
            w["sessions"], w["wins"], w["shared_wins"],
        )  # fmt: skip


def _check_nets(con: duckdb.DuckDBPyConnection, streams: dict[str, list[AnyEvent]]) -> None:
    """Nets in the projection equal ``brag verify``'s (engine.fold.summary) for every session."""
    for name, stream in streams.items():
        state = fold(stream)
        want = summary(state)["nets"]
        rows = con.execute(
            "SELECT player, net_t, den FROM session_players WHERE session = ?", [name]
        ).fetchall()
        got = {p: Fraction(n, d) for p, n, d in rows}
        assert got == {p: Fraction(v) for p, v in want.items()}
        board = {r["player"]: r["net"] for r in queries.leaderboard(con, session=name)}
        assert board == got
        if state.finished:
            assert {
                r["player"] for r in queries.leaderboard(con, session=name) if r["winner"]
            } == set(state.winners)
