"""One numbering: a step is the same number in ``brag replay``, in the frames the Replay page sends
(its events list, its links) and in correction notes, for a session with a correction; the frames
for one viewer never hold what that viewer could not know (RULES 3.5, 5.1, 5.8); text from the log
stays text in the pictures.

Here the numbering of :mod:`present.steps`; the frames are tested in
``tests/dashboard/test_step_numbering_frames.py``, brag replay against the page in
``tests/test_one_numbering.py``."""

from __future__ import annotations

from pathlib import Path

from engine.fold import replay as engine_replay
from present.replay import Replay
from present.steps import numbered

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "data" / "season" / "2026-09-24-top-1.jsonl"


def test_steps_restart_at_each_deal_and_number_the_whole_log() -> None:
    from engine.fold import complete
    from events.codec import read_file

    events = [s.event for s in complete(read_file(str(SEASON)))]
    states = engine_replay(events)
    labels = numbered(events, states)
    assert len(labels) == len(events)
    rp = Replay.of(events)
    for sl in rp.slices:
        assert [labels[k].step for k in range(sl.start, sl.stop)] == list(range(1, sl.steps + 1))
        assert {labels[k].deal for k in range(sl.start, sl.stop)} == {sl.deal}
