"""The deals' rows a session's fold has written, veiled while a spectator is all anyone may be.

The statistics are read by every device (the Players, Decisions and Explore pages, ``brag
stats``), so they follow the one sight rule of :mod:`present.sight` (issue 33.1): until a session
ends (RULES 1.4), every deal dealt since the last shuffle (RULES 3.2) is shown to anyone but the
organiser only as a spectator at the table saw it, the showdown hands (RULES 3.5); its cards
went under the pack and come round again (RULES 3.3). A luck term ranks every hand dealt and a
decision's hand category names a hand never shown: between two deals they would tell who held
what. So :class:`Written` writes such a deal *veiled* (:func:`analytics.deals.write_deal`: no
luck term, a category only from cards shown) and keeps its full rows; when the deals open (a
shuffle in force, or the step that ends the session) the full rows replace the veiled ones, and a
correction that withdraws that shuffle or end writes them veiled again
(:meth:`Written.after_refold`). Rows are buffered in a :class:`~analytics.rows.Rows`, as every
fact is (:mod:`analytics.facts`).
"""

from __future__ import annotations

from analytics.deals import DealInProgress, hides, write_deal
from analytics.rows import Rows
from engine.state import Outcome, State

__all__ = ["Written", "guarded"]


def guarded(state: State) -> bool:
    """Whether a deal that ended in ``state`` is guarded: the session has not ended. (Every deal
    that ends was dealt since the last shuffle: a shuffle comes only between deals, RULES 3.2;
    :func:`present.sight.guarded_from` is the same rule over a whole replay.) The deal that ends
    the session is not guarded."""
    return not state.finished


class Written:
    """The deals of one session whose rows have been written: deals ``1 .. emitted`` (deals end
    in order), the first ``open_through`` of them in full, the later ones veiled. Of those, the
    full rows wait in :attr:`hidden`, and the veiled rows of this batch in :attr:`staged` until
    the batch ends (:meth:`flush`): a deal that opens in the batch it ended in is written once,
    and nothing already buffered is searched to take it back."""

    __slots__ = ("emitted", "hidden", "open_through", "session", "staged", "veils_stored")

    def __init__(self, session: str) -> None:
        self.session = session
        self.emitted = 0
        self.open_through = 0
        self.hidden = Rows()
        self.staged = Rows()
        self.veils_stored = False
        """Veiled rows of this session may be in the tables (flushed in an earlier batch)."""

    def emit(
        self,
        outcome: Outcome,
        state: State,
        deal: DealInProgress,
        position: int,
        *,
        retained: bool | None,
        out: Rows,
    ) -> None:
        """The rows of one ended deal (``state``: as it ended): veiled while the deal is
        :func:`guarded` (its full rows into :attr:`hidden`) when its full rows differ
        (:func:`hides`) or an earlier deal is veiled; else in full into ``out``, the earlier
        veiled deals opened first."""
        s = self.session
        if guarded(state) and (self.open_through < self.emitted or hides(deal)):
            write_deal(s, outcome, state, deal, position, retained=retained, out=self.hidden,
                       veiled=self.staged)  # fmt: skip
            self.emitted = outcome.deal
            return
        self.open(out)  # the deal that ends the session opens the others
        write_deal(s, outcome, state, deal, position, retained=retained, out=out)
        self.emitted = self.open_through = outcome.deal

    def open(self, out: Rows) -> None:
        """The deals written veiled open (a shuffle in force, or the session ended): their full
        rows go into ``out``, in place of the veiled ones (those still staged are dropped, those
        in the tables retracted, :attr:`Rows.retract`)."""
        if self.open_through == self.emitted:
            return
        if self.veils_stored:
            out.retract_after(self.session, self.open_through)
            self.veils_stored = False
        out.extend(self.hidden)
        self.hidden, self.staged = Rows(), Rows()
        self.open_through = self.emitted

    def flush(self, out: Rows) -> None:
        """The batch ends: the veiled rows staged in it go into ``out``."""
        if self.staged.deals["session"]:
            out.extend(self.staged)
            self.staged = Rows()
            self.veils_stored = True

    def after_refold(self, fresh: Written, sink: Rows, out: Rows, from_deal: int | None) -> None:
        """Becomes ``fresh`` (a re-fold of the steps in force after a correction, its rows in
        ``sink``, its veiled rows staged), the rows in ``out`` made to agree: those of deals up
        to a point hold, the later ones come from the re-fold: from the deal corrected (an
        ``amended``, ``from_deal``), past the deals that no longer ended (a void, ``None``), and
        from the first deal whose veil the correction changed (it withdrew a shuffle or the
        session's end, or made one)."""
        keep = fresh.emitted if from_deal is None else from_deal - 1
        if fresh.open_through != self.open_through:
            keep = min(keep, fresh.open_through, self.open_through)
        keep = min(keep, self.emitted)
        staged = Rows()  # this batch's veiled rows that hold, then the re-fold's later ones
        staged.extend(self.staged)
        staged.drop_after(self.session, keep)
        if keep < self.emitted or keep < fresh.emitted:
            out.drop_after(self.session, keep)
            out.take_after(sink, self.session, keep)
            staged.take_after(fresh.staged, self.session, keep)
        self.emitted, self.open_through = fresh.emitted, fresh.open_through
        self.hidden, self.staged = fresh.hidden, staged
