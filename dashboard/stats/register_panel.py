"""The club's register of players' names on the Players page (issue 35 item 2,
:mod:`log.register`): under a player, the names they were also recorded as ("also recorded as
Jaen (merged 5 Dec)"); at the foot of the page, for the organiser's unlocked device only, a
merge, a rename and the undo of the latest, each written as a fact beside the logs (the device's
token checked inside the write, as every write: :func:`dashboard.access.check.guarded`), the
statistics caught up at once.

On the Players page rather than the Record page: the split statistics ("Jaen" and "Jean" side by
side) are seen there, and the merge's effect shows there at once; the Record page's first screen
stays the pad.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from dashboard.access import check as access
from dashboard.access import gate
from dashboard.common import stores
from dashboard.common.escape import md
from dashboard.stats import stats_cache
from events.errors import PlainError
from log.register import Register, merge, register_of, rename, seated_of, undo
from store.register import RegisterFact

__all__ = ["also_lines", "also_recorded", "register_now", "register_panel", "said"]

PANEL = "register_panel"
"""The organiser's section's container (.st-key-register_panel)."""
OPEN = "register_open"
"""The organiser's section's expander (its state kept across the page's reruns)."""
_SAID = "register_said"


def said(f: RegisterFact) -> str:
    """One fact in words: "Jaen merged into Jean", "undid: Jaen merged into Jean"."""
    if f.kind == "merge":
        return f"{f.name} merged into {f.target}"
    if f.kind == "rename":
        return f"{f.name} renamed {f.target}"
    return f"undid: {f.name} into {f.target}"


def also_recorded(player: str, reg: Register, recorded: Sequence[str]) -> str | None:
    """ "also recorded as Jaen (merged 5 Dec)" under ``player``, or ``None``."""
    found = reg.also(player, recorded)
    if not found:
        return None
    parts = [f"{name} ({'merged' if f.kind == 'merge' else 'renamed'} {f.at:%-d %b})"
             for name, f in found]  # fmt: skip
    return "also recorded as " + ", ".join(parts)


def also_lines(players: Sequence[str], reg: Register, recorded: Sequence[str]) -> list[str]:
    """ "Jean: also recorded as Jaen (merged 5 Dec)" for each of ``players`` with other names."""
    return [f"{p}: {also}" for p in players if (also := also_recorded(p, reg, recorded))]


def register_panel(reg: Register, recorded: Sequence[str]) -> None:
    """The organiser's section: merge, rename, undo the latest (only on the organiser's unlocked
    device, :func:`dashboard.access.gate.organiser_device`: nothing drawn, nothing asked, for
    anyone else)."""
    if not gate.organiser_device():
        return
    in_use = sorted({reg.resolve(p) for p in recorded})
    if found := st.session_state.pop(_SAID, None):
        (st.success if found[0] else st.error)(md(found[1]))
    opened = st.expander("The register: merge or rename a player (organiser)", key=OPEN,
                         on_change="rerun")  # fmt: skip  # stays open while it is used
    with opened, st.container(key=PANEL):
        st.caption(
            "Kept beside the logs, never in them; the statistics follow at once, and an undo "
            "moves them back."
        )
        a, b = st.columns(2)
        a.selectbox("Recorded name", list(recorded), index=None, key="register_name")
        b.selectbox("is the player", in_use, index=None, key="register_into")
        st.button("Merge", key="register_merge", on_click=_write, args=(_merge,), width="stretch")
        c, d = st.columns(2)
        c.selectbox("Player", in_use, index=None, key="register_old")
        d.text_input("New name", key="register_new", max_chars=64)
        st.button(
            "Rename", key="register_rename", on_click=_write, args=(_rename,), width="stretch"
        )
        last = reg.last_in_force()
        if last is not None:
            st.button(md(f"Undo the latest: {said(last)}"), key="register_undo",
                      on_click=_write, args=(lambda s: undo(s, by="organiser"),))  # fmt: skip
        for f in reversed(reg.facts[-10:]):
            st.caption(md(f"#{f.position} {said(f)}, {f.at:%-d %b %H:%M} UTC, by {f.by}"))


def _picked(key: str, what: str) -> str:
    value = str(st.session_state.get(key) or "").strip()
    if not value:
        raise PlainError(f"Pick {what} first.")
    return value


def _merge(store: Any) -> RegisterFact:
    name = _picked("register_name", "the recorded name")
    into = _picked("register_into", "the player it is")
    return merge(store, name, into, seated_of(store), by="organiser")


def _rename(store: Any) -> RegisterFact:
    old = _picked("register_old", "the player")
    new = _picked("register_new", "the new name")
    return rename(store, old, new, seated_of(store), by="organiser")


def _write(act: Callable[[Any], RegisterFact]) -> None:
    """One fact written (the device's token checked inside the write), the statistics caught up,
    what was done said once; a refusal in one sentence, nothing written."""
    store = access.guarded(stores.writer(), gate.device_token())
    try:
        fact = act(store)
    except access.DeviceLocked as err:
        gate.locked_out(err.message)
        return
    except PlainError as err:
        st.session_state[_SAID] = (False, err.message)
        return
    stats_cache.refresh_analytics()
    st.session_state[_SAID] = (True, f"{said(fact)}: the statistics follow it.")


def register_now() -> tuple[Register, list[str]]:
    """The register and every recorded player's name (the catalogue's), read now."""
    store = stores.store()
    return register_of(store), list(store.session_facets()[0])
