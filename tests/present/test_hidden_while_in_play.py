"""Issue 24.1, nothing hidden leaks while a deal is in play: at a digital table (every card
recorded), a deal still in play is drawn for anyone but the organiser's unlocked device as a
spectator sees it, only the cards shown (RULES 3.5), in the table's pictures, the odds and the
sentences alike; view-as a player waits until the deal ends, and the page says why in one line;
a retained hand still in play stays face down in the finished deal it came from. The sessions
are simulated with every card recorded (``brag simulate --cards all``) and cut in a deal.

Here the sight (:mod:`present.sight`, :func:`present.replay.table_view`); what the dashboard
sends in ``tests/dashboard/test_hidden_while_in_play_sent.py``."""

from __future__ import annotations

from live_helpers import cut_in_deal, live_session

from engine.state import card_texts
from present.replay import Replay, table_view
from sim import simulate_session


def _face_up(view: object) -> set[str]:
    return {c for s in view.seats for h in s.hands for c in h.face_up}  # type: ignore[attr-defined]


# --- the spectator's view and the sight of a deal ---------------------------------------------


def test_the_spectator_is_the_table_view_of_only_the_shown_cards() -> None:
    from present.replay import SPECTATOR

    events = simulate_session(seed="live", players=4, cards="all")
    rp = Replay.of(events)
    for state in rp.states:
        shown = {c for p in state.players for c in card_texts(p.shown)}
        assert _face_up(table_view(state, SPECTATOR)) == shown


def test_the_sight_is_decided_once_for_every_viewer_asked() -> None:
    from present.replay import SPECTATOR

    rp = Replay.of(live_session())
    assert rp.sight(2, "Phil").viewer == SPECTATOR
    assert "viewing as Phil waits until the pack is shuffled" in rp.sight(2, "Phil").note
    assert rp.sight(2, "Phil", organiser=True).viewer == "Phil"
    assert rp.sight(1, "Phil").viewer == SPECTATOR  # the same pack (RULES 3.2-3.3)
    other = Replay.of(cut_in_deal(simulate_session(seed=0, players=4, cards="all"), 5, 3))
    assert other.sight(3, "Mick").viewer == "Mick" and other.sight(3, "Mick").note == ""
    assert Replay.of(simulate_session(seed="live", players=4, cards="all")).live_deal is None
