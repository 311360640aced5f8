"""One timeline per session (issue 32): the log as recorded, the corrections, the steps in force
with numbers that never move, and the state after each (:class:`Timeline`). Pure: above the engine
and the event models, below the log service that caches it."""

from timeline.core import Timeline
from timeline.deals import DealSlice, slices_of
from timeline.labels import Label, letters, parse_step
from timeline.steps import Record, Step, Unfit, Vec

__all__ = [
    "DealSlice",
    "Label",
    "Record",
    "Step",
    "Timeline",
    "Unfit",
    "Vec",
    "letters",
    "parse_step",
    "slices_of",
]
