"""The Record page's pad and the device's memory, as Streamlit custom components v2 (no build
step): what must feel instant and must survive the network runs in the browser (STYLE.md).

- :func:`pad` mounts the pad's module (:mod:`dashboard.record.pad_assets`: ``pad_cards.js``, the
  showdown's card picker, ``pad.js`` and ``pad_kept.js``) and ``pad.css`` with :class:`PadData`:
  the keys of a document of
  :mod:`dashboard.pad_doc` (:class:`~dashboard.record.pad_doc.PadDocument`) in a grid whose
  places never move, each tap an event with an id and a time made on the device, kept until
  ``POST /api/tap`` (:mod:`dashboard.record.routes`) answers "recorded" or "not recorded", and the
  connection shown (connected, reconnecting, offline).
- :func:`device` (``device.js``) keeps what this device remembers across reloads in cookies (the
  signed unlock token, "Recorded by", the session being recorded): it sets or clears them; the
  server reads them back from ``st.context.cookies`` when a page is opened.
- :func:`close_list_when_picked` (``close_list.js``) closes a names' list once a name is picked.

Every text reaches the page through ``textContent`` (never as HTML): names, tables and ids from a
log are data, never markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

import streamlit as st

from dashboard.record.pad_assets import POLL_MS, REPEAT_MS, SETTLE_MS, pad_css, pad_js
from dashboard.record.pad_doc import PadDocument

__all__ = [
    "POLL_MS",
    "REPEAT_MS",
    "SETTLE_MS",
    "PadData",
    "close_list_when_picked",
    "device",
    "pad",
]

_HERE = Path(__file__).resolve().parent

_pad = st.components.v2.component(
    "bragbook.pad",
    css=pad_css(),
    js=pad_js(),  # pad.js and pad_kept.js, one module (the pad's own page runs the same)
)


class PadData(TypedDict):
    """What ``pad.js`` is mounted with (its ``data``): the document, who records on this device,
    and the pad's times in milliseconds (:data:`SETTLE_MS`, :data:`REPEAT_MS`, :data:`POLL_MS`)."""

    doc: PadDocument
    by: str
    settle_ms: int
    repeat_ms: int
    poll_ms: int


def pad(doc: PadDocument, by: str, key: str = "pad") -> None:
    """Mounts the pad on the document ``doc`` (:func:`dashboard.pad_doc.document`) for a device
    recording as ``by``. The pad records its taps itself, through the routes of
    :mod:`dashboard.record.routes`, and follows the session there; a later drawing of the page with
    a
    newer document only updates it."""
    data = PadData(doc=doc.copy(), by=by, settle_ms=SETTLE_MS, repeat_ms=REPEAT_MS, poll_ms=POLL_MS)
    _pad(key=key, data=data)


_device = st.components.v2.component(
    "bragbook.device", js=(_HERE / "device.js").read_text(encoding="utf-8")
)


def device(
    set_: Mapping[str, str] | None = None,
    clear: list[str] | None = None,
    max_age: int = 400 * 24 * 3600,
    key: str = "device",
) -> None:
    """Sets the cookies ``set_`` (name to value, each kept ``max_age`` seconds) and clears those
    in ``clear`` in this browser; draws nothing."""
    _device(key=key, data={"set": dict(set_ or {}), "clear": list(clear or []), "max_age": max_age})


_close = st.components.v2.component(
    "bragbook.close_list", js=(_HERE / "close_list.js").read_text(encoding="utf-8")
)


def close_list_when_picked(picked: int, key: str) -> None:
    """Closes an open multiselect's list (its input loses the focus) when the number of names
    ``picked`` changes: the list would otherwise stay open over the keys below it, and the
    next tap there would close it, or pick a name, instead of pressing the key. Draws nothing."""
    _close(key=key, data={"picked": picked})
