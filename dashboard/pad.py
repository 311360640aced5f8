"""The Record page's pad and the device's memory, as Streamlit custom components v2 (inline
HTML/CSS/JS, no build step): what must feel instant runs in the browser (STYLE.md).

- :func:`pad` draws the keys of :func:`dashboard.recorder.pad_rows` in a fixed grid sized for a
  thumb on a 390×844 phone: a status line (who acts, pot, level), the confirmation of the last
  event, the keys (fold, bet and see each in its colour and its place), the card picker of a
  showdown (suits in their colours, 13 a row, cards already known disabled: three taps pick a
  hand) and Undo / Redo. A tap sends ``{"spot", "seq", "drawn", "t", "cards"}`` once: the pad then
  takes no tap until the server has drawn it again, and a second tap on the same spot within
  :data:`SAME_SPOT_MS` is dropped, so a double tap records one event.
- :func:`device` keeps what this device remembers across reloads in cookies (the signed unlock
  token, "Recorded by", the session being recorded): it sets or clears them; the server reads
  them back from ``st.context.cookies`` when a page is opened.

Every text reaches the page through ``textContent`` (never as HTML): names, tables and ids from a
log are data, never markup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

SAME_SPOT_MS = 500
"""A second tap on the same spot within this many milliseconds is the same tap."""

_CSS = """
.pad { font-family: var(--st-font, sans-serif); display: flex; flex-direction: column;
  gap: 6px; user-select: none; -webkit-user-select: none; touch-action: manipulation; }
.pad .status { font-weight: 700; font-size: 1.05rem; line-height: 1.25; }
.pad .note { font-size: .95rem; line-height: 1.25; padding: 6px 8px; border-radius: 6px;
  background: #e8f5e9; color: #1b5e20; min-height: 2.5em; }
.pad .note.warn { background: #fff8e1; color: #7a4f00; }
.pad .note.err { background: #ffebee; color: #8e0000; }
.pad .row { display: grid; grid-auto-flow: column; grid-auto-columns: 1fr; gap: 6px; }
.pad button { min-height: 3.3rem; border-radius: 8px; border: 2px solid transparent;
  font-size: 1.02rem; font-weight: 600; line-height: 1.1; padding: 4px 2px; cursor: pointer;
  color: #fff; overflow-wrap: anywhere; }
.pad button small { display: block; font-size: .78rem; font-weight: 400; opacity: .95; }
.pad button:disabled { opacity: .28; cursor: default; }
.pad .t-fold { background: #b71c1c; }
.pad .t-bet { background: #1565c0; }
.pad .t-see { background: #2e7d32; }
.pad .t-look { background: #6a1b9a; }
.pad .t-table, .pad .t-show { background: #37474f; }
.pad .t-plain { background: #546e7a; }
.pad .t-empty { min-height: 3.3rem; border-radius: 8px; border: 2px dashed #d5d5d5; }
.pad .t-undo { background: #fff; color: #333; border-color: #999; font-weight: 500; }
.pad .row.peeks button { min-height: 2.7rem; font-size: .9rem; }
.pad .cards { display: grid; grid-template-columns: repeat(13, 1fr); gap: 2px; }
.pad .cards button { min-height: 2.6rem; padding: 0; font-size: .95rem; background: #fff;
  color: #111; border: 1px solid #bbb; }
.pad .cards button.red { color: #c62828; }
.pad .cards button.on { background: #ffd54f; border-color: #f57f17; }
.pad.busy button { opacity: .6; }
"""

_JS = """
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector('.pad');
  if (!root) {
    root = document.createElement('div');
    root.className = 'pad';
    parentElement.appendChild(root);
    root._last = { spot: null, t: 0 };
    // the session has just opened (after the start form, or a reload): the pad at the top
    const main = document.querySelector('[data-testid="stMain"]');
    if (main) main.scrollTo(0, 0);
    window.scrollTo(0, 0);
  }
  if (root.dataset.drawn === String(data.drawn)) return;
  root.dataset.drawn = String(data.drawn);
  root.dataset.seq = String(data.seq);
  root.classList.remove('busy');
  root._busy = false;
  root._picked = [];
  root.replaceChildren();

  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const tap = (spot, extra) => {
    const now = performance.now();
    if (root._busy) return;
    if (root._last.spot === spot && now - root._last.t < data.same_spot_ms) return;
    root._busy = true;
    root._last = { spot, t: now };
    root.classList.add('busy');
    const payload = Object.assign({ spot, seq: data.seq, drawn: data.drawn, t: now }, extra);
    setTriggerValue('tap', payload);
    // A tap the server never answered (lost in a rerun) is sent again, the same tap: the
    // server takes a tap once (its spot and time), so it cannot record twice.
    let tries = 0;
    const again = () => {
      if (root.dataset.drawn !== String(data.drawn) || !root.isConnected) return;
      if (++tries > 3) { root._busy = false; root.classList.remove('busy'); return; }
      setTriggerValue('tap', Object.assign({}, payload, { attempt: tries }));
      setTimeout(again, 1500);
    };
    setTimeout(again, 1500);
  };
  const key = (k) => {
    if (k.tone === 'empty') {  // a place kept for a key that may come: an empty slot
      const slot = el('div', 't-empty');
      slot.setAttribute('aria-hidden', 'true');
      return slot;
    }
    const b = el('button', 't-' + k.tone);
    b.dataset.spot = k.spot;
    b.title = k.title;
    b.setAttribute('aria-label', k.title);
    b.appendChild(document.createTextNode(k.label));
    if (k.sub) b.appendChild(el('small', '', k.sub));
    b.disabled = !k.enabled;
    return b;
  };

  root.appendChild(el('div', 'status', data.status));
  const note = el('div', 'note ' + (data.note_tone || ''), data.note);
  note.dataset.testid = 'pad-note';
  note.setAttribute('role', 'status');
  root.appendChild(note);

  for (const row of data.rows) {
    const r = el('div', 'row' + (row.length && row[0].spot.startsWith('peek-') ? ' peeks' : ''));
    for (const k of row) {
      const b = key(k);
      if (k.cards) {
        b.disabled = true;
        b.onclick = () => tap(k.spot, { cards: root._picked.slice() });
        root._show = { button: b, label: k.label, count: k.cards.count };
        r.appendChild(b);
        root.appendChild(r);
        const grid = el('div', 'cards');
        for (const c of k.cards.pack) {
          const cb = el('button', c.red ? 'red' : '', c.face);
          cb.dataset.card = c.code;
          cb.setAttribute('aria-label', c.face);
          cb.disabled = !c.free;
          cb.onclick = () => {
            const at = root._picked.indexOf(c.code);
            if (at >= 0) { root._picked.splice(at, 1); cb.classList.remove('on'); }
            else if (root._picked.length < k.cards.count) {
              root._picked.push(c.code); cb.classList.add('on');
            }
            const s = root._show;
            const faces = root._picked.map((p) => k.cards.pack.find((x) => x.code === p).face);
            const picked = faces.length ? ': ' + faces.join(' ') : '';
            s.button.firstChild.textContent = s.label + picked;
            s.button.disabled = root._picked.length !== s.count;
          };
          grid.appendChild(cb);
        }
        root.appendChild(grid);
        continue;
      }
      b.onclick = () => tap(k.spot, {});
      r.appendChild(b);
    }
    if (r.childNodes.length && !r.parentNode) root.appendChild(r);
  }
  const bottom = el('div', 'row');
  for (const k of data.bottom) {
    const b = key(k);
    b.onclick = () => tap(k.spot, {});
    bottom.appendChild(b);
  }
  root.appendChild(bottom);
}
"""

_pad = st.components.v2.component("bragbook.pad", css=_CSS, js=_JS)


def pad(
    data: Mapping[str, Any],
    on_tap: Callable[..., None],
    args: tuple[Any, ...] = (),
    key: str = "pad",
) -> None:
    """Mounts the pad with ``data``: ``drawn`` (changes on every drawing the server means as new),
    ``seq`` (the session's last seq it shows), ``status``, ``note`` and ``note_tone`` (``""``,
    ``"warn"``, ``"err"``), ``rows`` and ``bottom`` (lists of keys: ``spot``, ``label``, ``sub``,
    ``tone``, ``title``, ``enabled``, and for the showdown's key ``cards``: ``count`` and
    ``pack``, each card ``code``, ``face``, ``red``, ``free``). ``on_tap`` runs on a tap; the
    tap is ``st.session_state[key].tap``."""
    _pad(
        key=key,
        data={**data, "same_spot_ms": SAME_SPOT_MS},
        on_tap_change=lambda: on_tap(*args),
    )


_DEVICE_JS = """
export default function (component) {
  const { data } = component;
  for (const [name, value] of Object.entries(data.set || {})) {
    document.cookie = name + '=' + encodeURIComponent(value) + '; max-age=' + data.max_age +
      '; path=/; SameSite=Strict';
  }
  for (const name of data.clear || []) {
    document.cookie = name + '=; max-age=0; path=/; SameSite=Strict';
  }
}
"""

_device = st.components.v2.component("bragbook.device", js=_DEVICE_JS)


def device(
    set_: Mapping[str, str] | None = None,
    clear: list[str] | None = None,
    max_age: int = 400 * 24 * 3600,
    key: str = "device",
) -> None:
    """Sets the cookies ``set_`` (name to value, each kept ``max_age`` seconds) and clears those
    in ``clear`` in this browser; draws nothing."""
    _device(key=key, data={"set": dict(set_ or {}), "clear": list(clear or []), "max_age": max_age})
