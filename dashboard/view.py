"""The dashboard's links: a replay position (``replay?session=S&deal=D&step=K``) and the rows of
the Sessions page with their links. What a replay shows is :mod:`present.replay`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["link", "session_rows"]


def link(session: str, deal: int | None = None, step: int | None = None, **extra: str) -> str:
    """The relative link to a replay position: ``replay?session=S&deal=D&step=K``."""
    from urllib.parse import urlencode

    q: dict[str, Any] = {"session": session}
    if deal is not None:
        q["deal"] = deal
    if step is not None:
        q["step"] = step
    q.update({k: v for k, v in extra.items() if v})
    return "replay?" + urlencode(q)


# --- the list of sessions -------------------------------------------------------------------------


def session_rows(infos: Sequence[Any]) -> list[dict[str, Any]]:
    """One row per session for the Sessions page, newest first, with links to its pages."""
    from urllib.parse import urlencode

    rows = []
    for i in sorted(infos, key=lambda i: (i.started is None, i.started), reverse=True):
        rows.append(
            {
                "date": i.started.strftime("%Y-%m-%d %H:%M") if i.started else "",
                "session": i.session,
                "table": i.table or "",
                "players": ", ".join(i.players),
                "deals": i.deals,
                "pots": i.resolved_pots,
                "carried": i.carried_pots,
                "finished": bool(i.finished),
                "winners": ", ".join(i.winners),
                "open": "session?" + urlencode({"session": i.session}),
                "replay": link(i.session, 1, 1),
            }
        )
    return rows
