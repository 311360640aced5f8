"""The skill figures as ``brag stats`` and the Players page both word them (issue 37): rows of
plain strings and whole sentences, so a reader sees an interval beside every figure and never a
bare point. Names are data: the callers escape them for their medium."""

from __future__ import annotations

from collections.abc import Sequence

from analytics.intervals import RateInterval
from analytics.ratings import WINNER_RULE, Rated, Step
from analytics.skill import Figures, Meter

__all__ = [
    "INTERVALS",
    "RATINGS",
    "figure_rows",
    "meter_sentence",
    "rating_rows",
    "rating_text",
    "step_rows",
    "widening_lines",
]

INTERVALS = (
    "Per deal, in stake units, each with its 95% interval clustered by session (Student's t): "
    "a figure whose interval spans 0 does not yet say the player wins or loses. The "
    "luck-adjusted net takes out the luck of the cards dealt (docs/luck.md) over the deals "
    "whose luck is measured."
)
RATINGS = (
    "Ratings: the luck-adjusted net a player is expected to take a session from a table of "
    "players rated 0 (stake units), learnt from each finished session's adjusted nets against "
    "who sat at the table, every session rebuilt from the log in order of play; a newcomer is "
    "+0.0 ± 50.0, shown as rating ± 2 sigma (about 95%). " + WINNER_RULE
)


def interval_text(r: RateInterval | None) -> str:
    """``+0.41 (95% -0.90 to +1.72)``; ``+0.41 (one session: no interval)``; ``-`` for none."""
    if r is None:
        return "-"
    if r.low is None or r.high is None:
        return f"{r.value:+.2f} (one session: no interval)"
    return f"{r.value:+.2f} (95% {r.low:+.2f} to {r.high:+.2f})"


def figure_rows(figs: Sequence[Figures]) -> list[dict[str, str]]:
    """One row a player: ``player``, ``sessions``, ``net per deal``, ``luck-adjusted per
    deal``, ``luck measured`` (share of deals, with the count)."""
    return [
        {
            "player": f.player,
            "sessions": str(f.sessions),
            "net per deal": interval_text(f.raw),
            "luck-adjusted per deal": interval_text(f.adjusted),
            "luck measured": f"{f.measured:.0%} of {f.deals:,} deals",
        }
        for f in figs
    ]


def widening_lines(figs: Sequence[Figures]) -> list[str]:
    """A warning for each player whose adjusted net is wider than the raw one."""
    return [
        f"Warning: for {f.player} the luck adjustment widens the spread (per-session SD "
        f"{f.spread_ratio:.2f}× the raw net's over the same deals, {f.sessions} sessions): "
        "for this player it takes out less luck than it adds noise; read both figures."
        for f in figs
        if f.widens and f.spread_ratio is not None
    ]


def rating_text(r: Rated) -> str:
    """``+12.3 ± 8.0``: mu ± 2 sigma, stake units a session."""
    return f"{r.mu:+.1f} ± {2 * r.sigma:.1f}"


def rating_rows(ratings: Sequence[Rated]) -> list[dict[str, str]]:
    """One row a rated player: ``player``, ``rating`` (mu ± 2 sigma, stake units a session),
    ``sessions rated``."""
    return [
        {"player": r.player, "rating": rating_text(r), "sessions rated": str(r.sessions)}
        for r in ratings
    ]


def step_rows(steps: Sequence[Step], last: int = 20) -> list[dict[str, str]]:
    """The ``last`` steps, newest first: ``session``, ``place`` (by adjusted net), ``adjusted
    net`` (stake units), ``rating on entering``, ``after``, ``change``."""
    return [
        {
            "session": s.session,
            "place": f"{s.place} of {s.players}",
            "adjusted net": f"{s.net:+.1f}",
            "rating on entering": f"{s.mu_in:+.1f} ± {2 * s.sigma_in:.1f}",
            "after": f"{s.mu_out:+.1f} ± {2 * s.sigma_out:.1f}",
            "change": f"{s.change:+.2f}",
        }
        for s in reversed(steps[-last:])
    ]


def meter_sentence(m: Meter | None, what: str = "this club") -> str:
    """The skill meter in one sentence; "not yet measured" while its interval reaches 0 (no
    skill at all is still within it), so a point figure is never shown alone."""
    if m is None:
        return (
            f"Skill meter for {what}: not yet measurable (it needs three players with two "
            "finished sessions each whose every card is recorded)."
        )
    figure = (
        f"split-half reliability {m.reliability:.2f}, 95% {m.low:.2f} to {m.high:.2f}, "
        f"{m.players} players, {m.sessions:.0f} sessions each"
    )
    if m.low <= 0:
        return (
            f"Skill meter for {what}: not yet measured: its interval still holds no skill at all "
            f"({figure}); more sessions or more players will narrow it."
        )
    share = (
        f"about {m.reliability:.0%} of the spread between players' luck-adjusted nets is skill "
        f"({figure})"
    )
    if m.outweigh is None:  # a reliability <= 0 has an interval reaching 0: said above
        return f"Skill meter for {what}: {share}."
    return (
        f"Skill meter for {what}: {share}; skill outweighs luck after about "
        f"{m.outweigh:,.0f} sessions a player."
    )
