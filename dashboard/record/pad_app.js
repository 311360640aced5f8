// The pad's own page (issue 35, item 3; /pad, dashboard/record/pad_app.py): the Record page's
// pad (pad.js, the same module and the same queue) mounted on a page that opens without the
// Streamlit server, from the device when the network or the server is gone.
//
// - The session: ?session=S, else the one this device last drew a pad for, else the session the
//   Record page remembers (its cookie).
// - The pad is drawn at once from the document kept on this device (pad.js keeps it, with its
//   queue), then from GET /api/pad when the server answers; the server alone says whether the
//   device may record (403: the page says it is locked and forgets its copy).
// - A service worker (/pad-sw.js) keeps this page and its files, so that a reload without the
//   network opens it again; it needs a secure context (https, or localhost).
// - Every text reaches the page through textContent.
import mount, { forget, keptDocument, lastSession } from '/pad.js';

const body = document.body;
const host = document.querySelector('[data-testid="pad-host"]');
const message = document.querySelector('[data-testid="pad-message"]');
const secure = document.querySelector('[data-testid="pad-secure"]');
const title = document.querySelector('[data-testid="pad-title"]');
const back = document.querySelector('[data-testid="pad-back"]');
const TIMES = {
  settle_ms: Number(body.dataset.settleMs), repeat_ms: Number(body.dataset.repeatMs),
  poll_ms: Number(body.dataset.pollMs),
};
const ASK_MS = 3000;  // the first GET /api/pad waits this long (the pad polls on its own after)
const AGAIN_MS = 2000;  // with nothing to draw, the server is asked again this often

function cookie(name) {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      try { return decodeURIComponent(v.join('=')); } catch (e) { return ''; }
    }
  }
  return '';
}

function say(text) {
  message.textContent = text;
  message.hidden = !text;
}

const session = new URLSearchParams(window.location.search).get('session') || lastSession() ||
  cookie('brag_recording');
let drawn = false;
let locked = false;

function draw(doc, from) {
  if (locked) return;
  mount({ data: Object.assign({ doc, by: cookie('brag_by') }, TIMES), parentElement: host });
  if (!drawn) {
    drawn = true;
    // From the start of this page's navigation to the pad drawn (ms; tests and bench read it).
    body.dataset.drawnMs = String(performance.now());
    body.dataset.from = from;
    say('');
  }
}

async function ask() {
  // The session's document from the server: drawn; or 403: locked; or null (no answer).
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ASK_MS);
  try {
    const r = await fetch(`/api/pad?session=${encodeURIComponent(session)}&since=-1`, {
      credentials: 'same-origin', cache: 'no-store', signal: ctl.signal,
    });
    if (r.status === 403) return 'locked';
    if (!r.ok) return null;
    const j = await r.json();
    return j.doc ? j.doc : 'none';
  } catch (e) {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

async function open() {
  if (!session) {
    say('No session is being recorded on this device: choose one on the Record page.');
    return;
  }
  title.textContent = `Pad · ${session}`;
  document.title = `Pad · ${session} · Bragbook`;
  const link = new URL('/record', window.location.href);
  link.searchParams.set('session', session);
  back.href = link.pathname + link.search;
  const kept = keptDocument(session);
  if (kept) draw(kept, 'device');
  else say('Opening the pad…');
  for (;;) {
    const got = await ask();
    if (got === 'locked') {
      locked = true;
      forget(session);
      host.replaceChildren();
      say('This device is locked: unlock it on the Record page to record here.');
      body.dataset.locked = '1';
      return;
    }
    if (got === 'none') {
      if (!drawn) say('This session has nothing recorded yet, or is not in the store.');
      return;
    }
    if (got) { draw(got, 'server'); return; }
    if (drawn) return;  // drawn from the device: the pad polls the server itself
    say('The server cannot be reached, and this device has no copy of this pad yet: open it ' +
      'once while connected. Trying again…');
    await new Promise((resolve) => setTimeout(resolve, AGAIN_MS));
  }
}

function worker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) {
    secure.textContent = 'This address is not secure (not https): the pad works, and its taps ' +
      'are kept on this device through a reload, but it cannot open without the network. ' +
      'Serve the dashboard over https to install it as an app.';
    secure.hidden = false;
    return;
  }
  navigator.serviceWorker.register('/pad-sw.js', { scope: '/pad' }).then(() => {
    body.dataset.worker = 'registered';
  }, (e) => {
    body.dataset.worker = 'failed';
    secure.textContent = `The pad could not be made to open offline (${e && e.message}).`;
    secure.hidden = false;
  });
}

open();
worker();
