"""The skill figures as ``brag stats`` and the Players page both word them (issue 37), in a club
player's words: "give or take" for a 95% interval, "luck taken out" for the luck-adjusted net,
"rating" for the Gaussian rating's mu (shown with give or take 2 sigma), "how much of the spread
between players is skill, not luck" for the split-half reliability. The technical names are kept
only in the ``*_HOW`` texts (a help tooltip on the page, docs/skill.md). Rows of plain strings and
whole sentences, so a reader sees a give-or-take beside every figure and never a bare point. Names
are data: the callers escape them for their medium."""

from __future__ import annotations

from collections.abc import Sequence

from analytics.intervals import RateInterval
from analytics.priors import HISTORY
from analytics.ratings import WINNER_RULE, Rated, Step
from analytics.skill import Figures, Meter
from present.numbers import whole_share

__all__ = [
    "INTERVALS",
    "INTERVALS_HOW",
    "RATINGS",
    "RATINGS_HOW",
    "figure_lines",
    "figure_rows",
    "give_or_take",
    "meter_how",
    "meter_sentence",
    "rating_rows",
    "rating_text",
    "step_rows",
    "widening_lines",
]

INTERVALS = (
    'Per deal, in stakes. "Give or take" (±) is how sure the figure is: the player\'s true figure '
    "lies in that range 95 times in 100; while the range still reaches across 0, the figures do "
    'not yet say whether the player wins or loses. "Luck taken out" removes the luck of the '
    "cards dealt (a good hand dealt counts as luck, what the player made of it does not), over "
    "the deals whose cards are all recorded."
)
INTERVALS_HOW = (
    "How it is worked out: each figure's 95% interval is clustered by session (Student's t); "
    "the luck-adjusted net is the net minus the dealt hand's value (docs/luck.md, "
    "docs/skill.md). A hand's value reads how the players at the table have played: the "
    f"session's earlier deals and each player's latest {HISTORY} sessions before it; so a "
    "correction to an earlier session can move, a little, the luck taken out of the later "
    "sessions of the players in it."
)
RATINGS = (
    "Rating: what a player is expected to take from a session, with the luck of the cards taken "
    "out, against a table of average players (stake units). A rating reads +12.3 ± 8.0: 12.3, "
    "give or take 8.0. A newcomer starts at +0.0 ± 50.0 (little is known yet); the give-or-take "
    "shrinks as a player plays more sessions. Only finished sessions with every card "
    "recorded are rated (the luck must be known), so a player's rated sessions can be fewer "
    "than their sessions. " + WINNER_RULE
)
RATINGS_HOW = (
    "How it is worked out: a Gaussian rating on each finished session's luck-adjusted nets, "
    "each player's net against the ratings of who sat at the table, every session rebuilt from "
    "the log in order of play; a rating is mu, give or take 2 sigma (about 95%); a newcomer is "
    "mu 0, sigma 25 (docs/skill.md)."
)


def give_or_take(r: RateInterval | None) -> str:
    """``+0.41 ± 1.31`` (the value and half its 95% interval, symmetric); ``+0.41 (one
    session: too few to say how sure)``; ``-`` for none."""
    if r is None:
        return "-"
    if r.low is None or r.high is None:
        return f"{r.value:+.2f} (one session: too few to say how sure)"
    return f"{r.value:+.2f} ± {(r.high - r.low) / 2:.2f}"


def figure_rows(figs: Sequence[Figures]) -> list[dict[str, str]]:
    """One row a player, name and main figure first: ``player``, ``luck taken out`` (per deal,
    give or take), ``as won`` (per deal), ``sessions``, ``luck known`` (share of deals, with the
    count)."""
    return [
        {
            "player": f.player,
            "luck taken out": give_or_take(f.adjusted),
            "as won": give_or_take(f.raw),
            "sessions": str(f.sessions),
            "luck known": f"{whole_share(f.measured)} of {f.deals:,} deals",
        }
        for f in figs
    ]


def _words(r: RateInterval, what: str) -> str:
    """``+0.41 a deal ..., give or take 1.31`` (the value and half its 95% interval,
    symmetric)."""
    if r.low is None or r.high is None:
        return f"{r.value:+.2f} {what} (one session: too few to say how sure)"
    return f"{r.value:+.2f} {what}, give or take {(r.high - r.low) / 2:.2f}"


def figure_lines(f: Figures) -> tuple[str, str]:
    """One player's figures stacked for a phone: the main line (per deal with the luck of the
    cards taken out, give or take) and the detail line (as won, sessions, luck known)."""
    main = (
        _words(f.adjusted, "a deal with luck taken out")
        if f.adjusted is not None
        else "no deal with its luck known"
    )
    detail = (
        f"as won {_words(f.raw, 'a deal')} · {f.sessions} session"
        f"{'' if f.sessions == 1 else 's'} · luck known for {whole_share(f.measured)} "
        f"of {f.deals:,} deals"
    )
    return main, detail


def widening_lines(figs: Sequence[Figures]) -> list[str]:
    """A warning for each player whose luck-taken-out figure swings more than the raw one."""
    return [
        f"Careful: for {f.player} taking the luck out makes the figure swing more, not less "
        f"(session to session {f.spread_ratio:.2f}× as much as the result as won, over "
        f"{f.sessions} sessions): read both figures."
        for f in figs
        if f.widens and f.spread_ratio is not None
    ]


def rating_text(r: Rated) -> str:
    """``+12.3 ± 8.0``: the rating, give or take (mu ± 2 sigma), stake units a session."""
    return f"{r.mu:+.1f} ± {2 * r.sigma:.1f}"


def rating_rows(ratings: Sequence[Rated]) -> list[dict[str, str]]:
    """One row a rated player: ``player``, ``rating`` (give or take, stake units a session),
    ``sessions``."""
    return [
        {"player": r.player, "rating": rating_text(r), "sessions": str(r.sessions)} for r in ratings
    ]


def step_rows(steps: Sequence[Step], last: int = 20) -> list[dict[str, str]]:
    """The ``last`` steps, newest first: ``session``, ``net, luck taken out`` (stake units: what
    the rating learns from), ``rating before`` (give or take), ``change`` (four columns: a
    phone's width)."""
    return [
        {
            "session": s.session,
            "net, luck taken out": f"{s.net:+.1f}",
            "rating before": f"{s.mu_in:+.1f} ± {2 * s.sigma_in:.1f}",
            "change": f"{s.change:+.2f}",
        }
        for s in reversed(steps[-last:])
    ]


def _pct(x: float) -> str:
    return whole_share(x)


def meter_how(m: Meter | None) -> str:
    """The meter's technical figures, for a help tooltip: the split-half reliability and its
    bootstrap interval."""
    if m is None:
        return "Split-half reliability of the luck-adjusted net (docs/skill.md): not computed."
    return (
        f"Split-half reliability {m.reliability:.2f} (95% {m.low:.2f} to {m.high:.2f}, "
        f"bootstrap over players), {m.players} players, harmonic mean {m.sessions:.0f} sessions "
        "each (docs/skill.md)."
    )


NO_SKILL_SHOWS = 0.05
"""Below this upper end of the meter's range (and its lower end at 0), the sentence says that no
skill shows yet rather than "too early to say"."""


def meter_sentence(m: Meter | None, what: str = "this club") -> str:
    """The skill meter in one plain sentence: how much of the spread between players is skill,
    not luck; "too early to say" while its range reaches 0 (no skill at all is still within
    it), so a point figure is never shown alone; "no skill shows yet" when the whole range is
    below :data:`NO_SKILL_SHOWS`."""
    if m is None:
        return (
            f"Skill or luck in {what}: too early to say (it needs three players with two "
            "finished sessions each whose every card is recorded)."
        )
    basis = f"{m.players} players, about {m.sessions:.0f} sessions each with every card recorded"
    if m.low <= 0 and m.high < NO_SKILL_SHOWS:  # "too early ... up to 0.1%" read as a riddle
        return (
            f"Skill or luck in {what}: no skill shows yet: the players' results so far differ "
            f"as luck alone would make them (skill's share at most {_pct(m.high)}; {basis}); "
            "more sessions or more players will tell."
        )
    if m.low <= 0:
        return (
            f"Skill or luck in {what}: too early to say: the share of the spread between "
            f"players that is skill could still be none at all (anywhere up to {_pct(m.high)}; "
            f"{basis}); more sessions or more players will narrow it."
        )
    share = (
        f"about {_pct(m.reliability)} of the spread between players is skill, not luck "
        f"(somewhere from {_pct(m.low)} to {_pct(m.high)}; {basis})"
    )
    if m.outweigh is None:
        return f"Skill or luck in {what}: {share}."
    return (
        f"Skill or luck in {what}: {share}; skill outweighs luck once a player has about "
        f"{m.outweigh:,.0f} sessions."
    )
