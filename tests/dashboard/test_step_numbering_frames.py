"""The replayer's frames, odds and figures (dashboard.replay, dashboard.stats.figures) as text: a
viewer's frames hold only what they knew then, names are text in the pictures, what each action
costs and the chances as text, exact numbers with a sign where one is meant, spoiler-free odds. The
numbering itself is tested in tests/present/test_step_numbering.py."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from dashboard.replay.frames import deal_frames
from dashboard.replay.odds import action_costs, chance_text
from engine.odds import margin
from events.model import (
    DealerChosen,
    Dealt,
    SessionStarted,
    Shuffled,
)
from present.replay import Replay
from present.sight import sight_for

ROOT = Path(__file__).resolve().parents[2]


SEASON = ROOT / "data" / "season" / "2026-09-24-top-1.jsonl"


def _face_up(svg: str) -> set[str]:
    return {c for c in re.findall(r'data-card="([^"]+)"', svg) if c != "down"}


@pytest.mark.parametrize("viewer", ["Jean", "Margaret", "Colin", "Sandra"])
def test_a_viewers_frames_hold_only_what_they_knew_then(viewer: str) -> None:
    """Every card face up in a viewer's frame at a step is theirs once looked at, or was shown at
    a showdown by that step; nothing else, in either picture, the odds or the sentences."""
    from engine.fold import complete
    from events.codec import read_file

    events = [s.event for s in complete(read_file(str(SEASON)))]
    rp = Replay.of(events)
    for sl in rp.slices[1:]:
        data = deal_frames(sight_for(rp, sl.deal, viewer))
        for k, f in zip(range(sl.start, sl.stop), data["frames"], strict=True):
            state = rp.states[k]
            allowed: set[str] = set()
            for p in state.players:
                if p.name == viewer and p.seen and p.hands:
                    allowed |= set(p.hands[-1].texts() or ())
                if p.shown:
                    from engine.state import card_texts

                    allowed |= set(card_texts(p.shown))
            for svg in (f["svg"], f["compact"]):
                assert _face_up(svg) <= allowed, (sl.deal, f["step"])
            others = [p for p in state.players if p.name != viewer and not p.shown]
            hidden = {c for p in others for h in p.hands for c in (h.texts() or ())}
            pretty = {c.replace("T", "10") for c in hidden}
            text = " ".join([*f["odds"], f["text"]])
            assert not any(f"{c[:-1]}{'♣♦♥♠'['cdhs'.index(c[-1])]}" in text for c in pretty), (
                sl.deal,
                f["step"],
                text,
            )


def test_names_are_text_in_the_pictures() -> None:
    evil = '<img src=x onerror="alert(1)">*_b_*'
    events = [
        SessionStarted(session="s", seats=(evil, "B"), cards="shown"),
        DealerChosen(player="B"),
        Shuffled(),
        Dealt(),
    ]
    rp = Replay.of(events)
    data = deal_frames(sight_for(rp, 1, evil))
    for f in data["frames"]:
        assert "<img" not in f["svg"] and "<img" not in f["compact"]
        assert "&#60;img" in f["svg"]


def test_what_each_action_costs_and_chances_as_text() -> None:
    from engine.fold import complete
    from events.codec import read_file

    events = [s.event for s in complete(read_file(str(SEASON)))]
    rp = Replay.of(events)
    sl = rp.slice(2)
    first = rp.states[sl.start]  # just dealt: Margaret to act, blind (RULES 5.3: half the level)
    assert action_costs(first) == ["bet level 1–5: pays ½–2½", "look: free", "fold: free"]
    # every chance of a hand over one denominator, the ways (not 17421/18424 beside 125/2303)
    assert chance_text(Fraction(17421, 18424), 18424) == "94.6% (17,421/18,424)"
    assert chance_text(Fraction(125, 2303), 18424) == "5.4% (1,000/18,424)"
    assert chance_text(Fraction(1, 2), 18424) == "50.0% (9,212/18,424)"
    assert chance_text(Fraction(3, 18424), 18424) == "<0.1% (3/18,424)"
    assert chance_text(Fraction(1), 1) == "100.0% (1/1)"
    assert chance_text(Fraction(2183, 4000), 4000, exact=False, within=0.0157) == (
        "≈ 54.6% ± 1.6% (2,183/4,000)"
    )
    # issue 21: a margin is rounded up, never shown as "± 0.0%": 2 ties in 4,000 deals drawn have
    # two standard errors of 2 * sqrt(0.0005 * 0.9995 / 4000) = 0.071%, shown as 0.1%
    two_se = 2 * (0.0005 * 0.9995 / 4000) ** 0.5
    assert 0.0007 < two_se < 0.00071
    tied = chance_text(Fraction(2, 4000), 4000, exact=False, within=margin(Fraction(2, 4000), 4000))
    assert tied == "≈ 0.1% ± 0.1% (2/4,000)"
    assert margin(Fraction(2, 4000), 4000) == pytest.approx(two_se)
    assert chance_text(Fraction(1, 2), 4000, exact=False, within=0.0161) == (
        "≈ 50.0% ± 1.7% (2,000/4,000)"
    )
    with pytest.raises(ValueError, match="no count over 7 ways"):
        chance_text(Fraction(1, 2), 7)


def test_exact_numbers_with_a_sign_where_one_is_meant() -> None:
    """Issue 12.6: an exact -4½ over 2 deals is -2¼ (not "≈ -2.25"); "≈" only for a rounded
    value, and the sign on exact and rounded values alike."""
    from dashboard.stats.figures import stat_text

    assert stat_text({"net_per_deal": Fraction(-9, 2) / 2}, "net_per_deal") == "-2¼"
    assert stat_text({"net_per_deal": Fraction(7, 2)}, "net_per_deal") == "+3½"
    assert stat_text({"net_per_deal": Fraction(7, 3)}, "net_per_deal") == "≈ +2¼"
    assert stat_text({"net": Fraction(7, 2)}, "net") == "+3½"


def test_spoiler_free_odds_state_no_outcome_the_view_knows() -> None:
    """Deal 1 of an all-cards session, step 12, as everyone: every card is known, so the odds
    would say who wins (Sandra, at step 19); spoiler-free, they say only that it is known."""
    from engine.fold import complete
    from events.codec import read_file

    rp = Replay.of([s.event for s in complete(read_file(str(SEASON)))])
    frame = deal_frames(sight_for(rp, 1, None))["frames"][11]
    assert frame["step"] == 12
    assert any(t.startswith("Sandra") and "holds the best hand" in t for t in frame["odds"])
    plain = frame["odds_plain"]
    assert len(plain) == len(frame["odds"]) >= 2
    for line in plain:
        assert line.endswith(": outcome known in this view, hidden while spoiler-free"), line
    # a view with unknown cards keeps its chances, each over the one denominator, the ways
    checked = 0
    for viewer in rp.seats:
        for f in deal_frames(sight_for(rp, 1, viewer))["frames"]:
            lines = zip(f["odds"], f["odds_plain"], f["odds_exact"], strict=True)
            for full, shown, exact in lines:
                if "exact over" in exact and "100.0%" not in exact:
                    checked += 1
                    assert shown == full
                    ways = re.search(r"exact over ([\d,]+) ways", exact)
                    assert ways is not None
                    denominators = re.findall(r"\(\d[\d,]*/([\d,]+)\)", exact)
                    assert denominators and set(denominators) == {ways.group(1)}, exact
    assert checked > 0
