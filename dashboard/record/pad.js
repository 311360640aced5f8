// The Record page's pad (issue 19): a fixed grid of keys, and taps that each end "recorded" or
// "not recorded" on this screen, whatever the network or the page does meanwhile.
//
// - The document (dashboard/pad_doc.py) says which key stands at which place; the places are
//   the same for the whole session, so a key never moves under the thumb.
// - A key takes a tap only once it has been on the screen unchanged for SETTLE ms, and the pad
//   takes no second tap within REPEAT ms of the last (a double tap records once).
// - A tap is an event with an id made here and the time it was tapped; it waits in a queue kept
//   in localStorage (a reload or a restart keeps it) and is sent by one POST /api/tap at a time
//   until the server answers; the id makes every retry safe (the store keeps one event per id).
// - While the server cannot be reached the pad says so within a second, and goes on with the
//   documents the engine predicted for its offline keys (doc.ahead): the taps are sent in order
//   when the connection comes back; one the server refuses takes the ones after it with it.
// - Only a refusal ends a tap "not recorded": an answer whose outcome is "refused" (the rules, a
//   tap that cannot be read, a locked device) or "conflict" (another device recorded first).
//   A store that cannot answer (503 "unavailable": locked by another program, down, full), a
//   server error, no answer or no network: the tap and every tap after it stay queued, and the
//   first is sent again, in order, after Retry-After and a backoff (BACKOFF_MS, doubling to
//   BACKOFF_MAX_MS), until it is recorded or refused.
// - The pad as it stands is kept on the device beside its queue, and drawn again from it after
//   a reload, without the network or the server too (pad_kept.js, appended to this module).
// - Every text reaches the page through textContent: names from a log are data, never markup.
export default function (component) {
  const { data, parentElement } = component;
  let root = parentElement.querySelector('.pad');
  if (!root) {
    root = document.createElement('div');
    root.className = 'pad';
    parentElement.appendChild(root);
    root.S = start(root, data);
    const main = document.querySelector('[data-testid="stMain"]');
    if (main) main.scrollTo(0, 0);
    window.scrollTo(0, 0);
  }
  const S = root.S;
  S.by = data.by || '';
  if (data.doc && data.doc.session === S.session) offer(S, data.doc);
}

const STORE = 'bragbook.pad.queue';
const BACKOFF_MS = 1000;
const BACKOFF_MAX_MS = 10000;
const ENDED = { recorded: 1, refused: 1, conflict: 1 };  // the outcomes that end a tap

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function uuid4() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);  // crypto.randomUUID needs a secure context; a LAN page is not one
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function isoNow() {
  const d = new Date();
  const off = -d.getTimezoneOffset();
  const p = (n) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:` +
    `${p(d.getMinutes())}:${p(d.getSeconds())}${off >= 0 ? '+' : '-'}${p(off / 60)}:${p(off % 60)}`;
}

function loadQueue(session) {
  try {
    const all = JSON.parse(localStorage.getItem(STORE) || '[]');
    return Array.isArray(all) ? all.filter((t) => t && t.session === session) : [];
  } catch (e) { return []; }
}

function saveQueue(S) {
  // This pad's waiting taps replace its own copies; a tap of this session it does not hold (the
  // same session's pad in another tab: the Record page and the pad's own page) stays stored until
  // the pad holding it ends it, or a reload takes it up and sends it (a tap's id records it once).
  try {
    const all = JSON.parse(localStorage.getItem(STORE) || '[]');
    const mine = new Set(S.queue.map((t) => t.id));
    const others = Array.isArray(all) ? all.filter((t) => t && (t.session !== S.session ||
      (!mine.has(t.id) && !S.gone.has(t.id)))) : [];
    localStorage.setItem(STORE, JSON.stringify(others.concat(S.queue)));
  } catch (e) { /* private mode: the queue lives as long as the page */ }
  keep(S);
}

async function fetchWithin(url, options, ms) {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ms);
  try {
    return await fetch(url, Object.assign({ signal: ctl.signal, credentials: 'same-origin',
      cache: 'no-store' }, options));
  } finally {
    clearTimeout(timer);
  }
}

function start(root, data) {
  const S = {
    root, session: data.doc.session, by: data.by || '', settle: data.settle_ms,
    repeat: data.repeat_ms, pollMs: data.poll_ms, doc: null, predicted: false, busy: false,
    queue: loadQueue(data.doc.session), gone: new Set(), stack: [], sending: false, conn: 'connected',
    fails: 0, lastTap: -1e9, cells: {}, picked: [], rank: null, pick: null, history: [],
    note: null, flashTimer: null, gridKey: '', tries: 0, retryAt: 0, storeDown: false,
  };
  const status = el('div', 'status');
  const conn = el('div', 'conn');
  conn.dataset.testid = 'pad-connection';
  conn.setAttribute('role', 'status');
  const note = el('div', 'note');
  const noteText = el('span', 'text');
  note.appendChild(noteText);
  note.dataset.testid = 'pad-note';
  note.setAttribute('role', 'status');
  note.onclick = () => note.classList.toggle('open');
  const keys = el('div', 'keys');
  const taps = el('details', 'taps');
  taps.appendChild(el('summary', '', "This device's taps"));
  const list = el('ol', '');
  taps.appendChild(list);
  root.append(status, conn, note, keys, taps);
  Object.assign(S, { el: { status, conn, note, noteText, keys, list } });
  window.addEventListener('offline', () => setConn(S, 'offline'));
  window.addEventListener('online', () => {
    setConn(S, 'reconnecting'); S.retryAt = 0; poll(S, true); pump(S);
  });
  setTimeout(() => poll(S), S.pollMs);
  if (S.queue.length) {
    for (const t of S.queue) remember(S, t, 'waiting', 'Waiting to be recorded: ' + t.title);
    resume(S);  // the pad as the last queued tap left it (pad_kept.js)
    setTimeout(() => pump(S), 0);
  }
  return S;
}

// --- documents ------------------------------------------------------------------------------

function offer(S, doc) {
  // A document from the page or the server: taken unless taps are waiting (the pad then shows
  // its own prediction) or it is older than the one shown.
  if (S.queue.length || S.sending) {
    if (!S.doc) show(S, doc, { busy: true });
    return;
  }
  if (S.doc && !S.predicted && !S.busy && doc.seq < S.doc.seq) return;
  if (S.doc && !S.predicted && !S.busy && doc.seq === S.doc.seq &&
      JSON.stringify(doc.keys) === JSON.stringify(S.doc.keys)) {
    S.doc = doc;  // the same keys: nothing moves, nothing restarts its settle time
    return;
  }
  show(S, doc, {});
}

function show(S, doc, how) {
  const changedDoc = !S.doc || S.doc.seq !== doc.seq || S.predicted !== !!how.predicted;
  S.doc = doc;
  S.predicted = !!how.predicted;
  S.busy = !!how.busy;
  if (changedDoc) S.picked = [];
  S.root.dataset.seq = String(doc.seq);
  S.root.dataset.predicted = S.predicted ? '1' : '';
  S.root.classList.toggle('busy', S.busy);
  S.el.status.textContent = doc.status;
  S.el.status.title = doc.status;  // whole where a narrow phone cuts the line
  build(S, doc.grid);
  const now = performance.now();
  for (const spot of Object.keys(S.cells)) {
    const cell = S.cells[spot];
    const key = doc.keys[spot] || null;
    const sig = JSON.stringify([key, S.busy, spot === 'undo' && unsent(S) > 0]);
    if (cell.sig === sig) continue;
    cell.sig = sig;
    cell.shownAt = now;
    cell.b.dataset.since = String(now);  // when this key was drawn as it is (tests wait on it)
    paint(S, cell, spot, key);
  }
  picker(S, doc);
  // A tap's "not recorded" stays the note until the next tap or until the session moves on
  // (a later event from another device): a prediction dropped, or the same document polled
  // again, does not take it away.
  if (S.sticky && !how.note) {
    if (S.sticky.seq < 0) S.sticky.seq = doc.seq;  // refused before any document: this one's
    if (doc.seq <= S.sticky.seq) return done(S);
    S.sticky = null;
  }
  if (!S.note || changedDoc) setNote(S, how.note || doc.last, how.tone || '');
  done(S);
}

function done(S) {
  setConn(S, S.conn);
  keep(S);
}

function build(S, grid) {
  const gk = JSON.stringify(grid);
  if (S.gridKey === gk) return;
  S.gridKey = gk;
  S.el.keys.replaceChildren();
  S.cells = {};
  const region = el('div', 'region');  // the betting keys; the showdown's card picker over them
  const rest = el('div', 'rest');
  for (const row of grid) {
    const r = el('div', 'row');
    const first = row[0];
    if (first.startsWith('peek-')) r.classList.add('peeks');
    r.style.gridTemplateColumns = `repeat(${row[0].startsWith('bet-') ? Math.max(row.length, 6) :
      row.length}, minmax(0, 1fr))`;
    for (const spot of row) {
      const b = el('button', 'key');
      b.type = 'button';
      b.dataset.slot = spot;
      b.onclick = (ev) => tapped(S, spot, ev);
      const label = el('span', 'label');
      const sub = el('small', '');
      b.append(label, sub);
      S.cells[spot] = { b, label, sub, sig: null, shownAt: 0 };
      r.appendChild(b);
    }
    const inRegion = first === 'look' || first.startsWith('bet-') || first.startsWith('peek-');
    (inRegion ? region : rest).appendChild(r);
  }
  buildPicker(S, region, rest);  // the showdown's cards, rank then suit (pad_cards.js)
  S.el.keys.append(region, rest);
}

function paint(S, cell, spot, key) {
  const b = cell.b;
  if (!key) {
    b.className = 'key t-empty';
    delete b.dataset.spot;
    b.disabled = true;
    b.removeAttribute('title');
    b.setAttribute('aria-hidden', 'true');
    cell.label.textContent = '';
    cell.sub.textContent = '';
    return;
  }
  b.className = 'key t-' + key.tone;
  b.dataset.spot = spot;
  b.removeAttribute('aria-hidden');
  b.title = key.title;
  b.setAttribute('aria-label', key.title);
  cell.label.textContent = key.label;
  cell.sub.textContent = key.input === 'hands' ? 'pick the hands below' : key.sub;
  // While busy the keys are held, not disabled: a tap on one is answered "not recorded: wait"
  // (a disabled key would swallow it without a word). Undo stays live: it takes back a tap that
  // has not left this device.
  const held = S.busy && !(spot === 'undo' && unsent(S) > 0);
  b.classList.toggle('held', held);
  b.setAttribute('aria-disabled', held ? 'true' : 'false');
  b.disabled = key.input === 'hands' || (!!key.cards && S.picked.length !== key.cards.count);
}

// --- the note and the connection ------------------------------------------------------------

function setNote(S, text, tone) {
  S.note = { text, tone };
  if (S.flashTimer) return;  // a passing message is up: the note comes back after it
  S.el.noteText.textContent = text;
  S.el.note.className = 'note ' + tone;
}

function flash(S, text) {
  if (S.flashTimer) clearTimeout(S.flashTimer);
  S.el.noteText.textContent = text;
  S.el.note.className = 'note warn';
  S.flashTimer = setTimeout(() => {
    S.flashTimer = null;
    if (S.note) setNote(S, S.note.text, S.note.tone);
  }, 1800);
}

function setConn(S, conn) {
  if (!navigator.onLine) conn = 'offline';
  S.conn = conn;
  const waiting = S.queue.length;
  // Short enough for one line on a 390 px phone; the whole sentence is the line's title
  const words = { connected: 'Connected', reconnecting: 'Reconnecting…', offline: 'Offline',
    locked: 'This device is locked', unavailable: 'Store not answering' }[conn] || conn;
  const whole = { reconnecting: 'Reconnecting to the server', offline: 'Offline: no network',
    unavailable: 'The store is not answering: taps are kept here and sent again' }[conn] || words;
  const more = waiting ? ` · ${waiting} tap${waiting > 1 ? 's' : ''} waiting to be recorded` : '';
  // Another device recording this table (issue 36): said on this line, which never moves a key
  const shared = conn === 'connected' && S.others && S.others.length ?
    ` · ⚠ also here: ${S.others.join(', ')}` : '';
  S.el.conn.textContent = '● ' + words + more + shared;
  S.el.conn.title = whole + more + (shared ? ' · ' + S.warning : '');
  S.el.conn.className = 'conn ' + conn + (waiting ? ' waiting' : '') + (shared ? ' shared' : '');
  S.root.dataset.others = shared ? S.others.join(', ') : '';
  S.root.dataset.connection = conn;
  S.root.dataset.waiting = String(waiting);
}

function remember(S, t, status, message) {
  let item = S.history.find((h) => h.id === t.id);
  if (!item) {
    const li = el('li', '');
    item = { id: t.id, li };
    S.history.unshift(item);
    S.el.list.prepend(li);
    while (S.history.length > 200) S.history.pop().li.remove();
  }
  item.li.textContent = message;
  item.li.dataset.tap = t.id;
  item.li.dataset.status = status;
  item.li.className = status.replace(' ', '-');
}

// --- taps -----------------------------------------------------------------------------------

function unsent(S) {
  // Taps kept here that have not left this device: the first, once sent (it may have been
  // stored though its answer was "unavailable" or never came), is not taken back here.
  return S.queue.length - (S.queue.length && (S.sending || S.queue[0].sent) ? 1 : 0);
}

function refuse(S, key, why) {
  // A tap not taken here: said on the screen, and kept in this device's list with the others.
  S.refused = (S.refused || 0) + 1;
  remember(S, { id: 'here-' + S.refused, title: key.title }, 'not recorded',
    'Not recorded: ' + why + ' (' + key.title + ')');
  flash(S, 'Not recorded: ' + why);
}

function tapped(S, spot, ev) {
  const now = performance.now();
  const key = S.doc && S.doc.keys[spot];
  if (!key) return;
  if (S.busy && !(spot === 'undo' && unsent(S) > 0)) {
    refuse(S, key, 'the last tap is still being recorded; wait for it.');
    return;
  }
  if (now - S.lastTap < S.repeat) {
    refuse(S, key, 'a second tap so soon is the same tap (a double tap records once).');
    return;
  }
  if (now - S.cells[spot].shownAt < S.settle) {
    refuse(S, key, 'that key had just changed; look, then tap again.');
    return;
  }
  S.lastTap = now;
  S.sticky = null;  // the last tap's "not recorded" has been read: this tap's note follows
  S.root.dataset.lastTap = String(now);
  if (spot === 'undo') {
    if (unsent(S) > 0) {  // the last tap has not left this device: taken back here, nothing sent
      const t = S.queue.pop();
      S.gone.add(t.id);
      saveQueue(S);
      remember(S, t, 'not recorded', 'Not recorded (undone before it was sent): ' + t.title);
      show(S, S.stack.pop() || S.doc, { predicted: S.queue.length > 0,
        note: 'Undone before it was sent: ' + t.title, tone: 'warn' });
      return;
    }
  }
  const t = { id: uuid4(), session: S.session, seq: S.doc.seq, spot, at: isoNow(), by: S.by,
    cards: key.cards ? S.picked.slice() : [], title: key.title };
  S.queue.push(t);
  saveQueue(S);
  S.stack.push(S.doc);
  remember(S, t, 'waiting', 'Waiting to be recorded: ' + t.title);
  const next = S.doc.ahead && S.doc.ahead[spot];
  const away = S.conn !== 'connected' || !navigator.onLine;
  const note = (away ? 'Waiting to be recorded: ' : 'Sending: ') + t.title;
  if (next) show(S, next, { predicted: true, note, tone: away ? 'warn' : '' });
  else show(S, S.doc, { busy: true, note, tone: away ? 'warn' : '' });
  pump(S);
}

async function pump(S) {
  if (S.sending || !S.queue.length || !S.root.isConnected) return;
  if (performance.now() < S.retryAt - 20) return;  // backing off: its timer sends it
  S.sending = true;
  const t = S.queue[0];
  if (!t.sent) { t.sent = true; saveQueue(S); }
  let wait = 0;
  try {
    const r = await fetchWithin(base() + 'api/tap', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(t),
    }, 25000);
    let j = null;
    try { j = await r.json(); } catch (e) { j = null; }
    if (j && ENDED[j.outcome]) ended(S, t, r, j);
    else wait = again(S, t, r, j);  // not an answer about the tap: kept, sent again
  } catch (e) {
    wait = again(S, t, null, null);
  } finally {
    S.sending = false;
  }
  if (S.queue.length) setTimeout(() => pump(S), wait);
}

function again(S, t, r, j) {
  // The first tap kept, with those after it, and sent again after a backoff (ms returned).
  S.tries += 1;
  const told = r ? Number(r.headers.get('Retry-After')) * 1000 || 0 : 0;
  const wait = Math.max(told, Math.min(BACKOFF_MS * 2 ** (S.tries - 1), BACKOFF_MAX_MS));
  S.retryAt = performance.now() + wait;
  S.storeDown = !!(j && j.outcome === 'unavailable');
  if (!r) setConn(S, navigator.onLine ? 'reconnecting' : 'offline');
  else setConn(S, S.storeDown ? 'unavailable' : 'reconnecting');
  const why = j && j.message ? j.message : (r ? `The server answered ${r.status}.` :
    'No answer from the server.');
  remember(S, t, 'waiting', `Waiting to be recorded (sent again in ${Math.round(wait / 1000)} s): ` +
    t.title);
  if (r) setNote(S, why, 'warn');
  return wait;
}

function ended(S, t, r, j) {
  // An answer about the tap: recorded, or not recorded (refused or a conflict: the taps after
  // it were drawn on it, and are not recorded either).
  S.fails = 0;
  S.tries = 0;
  S.retryAt = 0;
  S.storeDown = false;
  S.queue.shift();
  S.gone.add(t.id);
  saveQueue(S);
  seenOthers(S, j);
  if (j.outcome === 'recorded') {
    remember(S, t, 'recorded', j.message);
    if (!S.queue.length) {
      S.stack = [];
      if (j.doc) show(S, j.doc, { note: j.message, tone: '' });
      else setNote(S, j.message, '');
    } else {
      setNote(S, j.message, '');
    }
  } else {
    remember(S, t, 'not recorded', j.message);
    const dropped = S.queue.splice(0);
    for (const d of dropped) {
      S.gone.add(d.id);
      remember(S, d, 'not recorded', 'Not recorded (it followed a tap not recorded): ' + d.title);
    }
    saveQueue(S);
    S.stack = [];
    const tone = j.outcome === 'conflict' ? 'warn' : 'err';
    S.sticky = { seq: j.doc ? j.doc.seq : -1 };
    if (j.doc) show(S, j.doc, { note: j.message, tone });
    else { setNote(S, j.message, tone); S.busy = false; S.root.classList.remove('busy'); }
    if (r.status === 403) { setConn(S, 'locked'); forget(S.session); }
  }
  if (r.status !== 403) setConn(S, 'connected');
}

function seenOthers(S, j) {
  // The other devices recording this session's table now, and whether this device (one table's
  // only) may record here: from each poll and tap answer (routes.py, presence.py)
  if (Array.isArray(j.others)) {
    // Said on the connection line ("⚠ also here: …", the whole sentence its title), never over
    // the note: a passing message there would hide the other device's tap as it comes in, the
    // very thing a second device is watching for.
    S.others = j.others;
    S.warning = j.warning || '';
  }
  if (typeof j.only === 'string' && j.only !== (S.only || '')) {
    S.only = j.only;
    if (j.only) setNote(S, j.only, 'err');
  }
}

function base() {
  // The app's own address (Streamlit may be served under a base path): the routes sit at its root.
  const here = window.location.pathname.replace(/[^/]*$/, '');
  return here.endsWith('/') ? here : here + '/';
}

async function poll(S, once) {
  if (!S.root.isConnected) return;
  try {
    const since = S.queue.length || S.sending ? -1 : (S.doc ? S.doc.seq : -1);
    const url = `${base()}api/pad?session=${encodeURIComponent(S.session)}&since=${since}`;
    const r = await fetchWithin(url, {}, 1500);
    if (r.status === 403) {
      setConn(S, 'locked');
      forget(S.session);
    } else if (!r.ok) {
      throw new Error(String(r.status));
    } else {
      const j = await r.json();
      S.fails = 0;
      seenOthers(S, j);
      setConn(S, S.storeDown && S.queue.length ? 'unavailable' : 'connected');
      if (j.doc && !S.queue.length && !S.sending) offer(S, j.doc);
      if (S.queue.length && !S.sending) pump(S);
    }
  } catch (e) {
    S.fails += 1;
    setConn(S, navigator.onLine ? 'reconnecting' : 'offline');
  }
  if (!once) setTimeout(() => poll(S), S.pollMs);
}
