// The pad kept on the device (issue 35, item 3), appended to pad.js as one module (the Record
// page's component and the pad's own page, /pad, both load the two as one: pad_assets.py).
//
// - Kept: the document the first queued tap was drawn on (or, with nothing queued, the last one
//   from the server), under KEPT + the session, beside the queue (STORE).
// - After a reload, with or without the network or the server, the pad is drawn again from it,
//   each queued tap walked through the documents the engine predicted (doc.ahead), so the
//   organiser goes on where the thumb left off; the server still judges every tap when it is
//   sent. A device the server calls locked forgets it (forget).
// - The pad's own page (pad_app.js) imports keptDocument, lastSession and forget.
const KEPT = 'bragbook.pad.doc:';  // + the session: {doc, at} (see keep)
const LAST = 'bragbook.pad.last';  // the session this device last drew a pad for
const KEEP_SESSIONS = 4;  // the pads of this many sessions are kept, the latest drawn

export function keptDocument(session) {
  // The document kept for ``session`` on this device (see keep), or null.
  try {
    const got = JSON.parse(localStorage.getItem(KEPT + session) || 'null');
    return got && got.doc && got.doc.session === session ? got.doc : null;
  } catch (e) { return null; }
}

export function lastSession() {
  // The session this device last drew a pad for, or ''.
  try { return localStorage.getItem(LAST) || ''; } catch (e) { return ''; }
}

export function forget(session) {
  // The kept document of ``session`` removed (the server called this device locked).
  try { localStorage.removeItem(KEPT + session); } catch (e) { /* nothing kept */ }
}

function keep(S) {
  // The document to draw this pad again from after a reload: the one the first queued tap was
  // drawn on (the stack holds the document under each tap since the queue last emptied, the
  // queued ones last), or the last from the server when nothing is queued. Written when it
  // changes; a full store keeps the older copy (the queue is kept apart, as before).
  const base = S.queue.length ? S.stack[S.stack.length - S.queue.length] :
    (S.predicted ? null : S.doc);
  if (!base || base === S.kept || (S.queue.length && base.seq !== S.queue[0].seq)) return;
  try {
    localStorage.setItem(KEPT + S.session, JSON.stringify({ doc: base, at: Date.now() }));
    localStorage.setItem(LAST, S.session);
    S.kept = base;
    const all = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(KEPT)) {
        let at = 0;
        try { at = JSON.parse(localStorage.getItem(k)).at || 0; } catch (e) { at = 0; }
        all.push([at, k]);
      }
    }
    all.sort((a, b) => b[0] - a[0]);
    for (const [, k] of all.slice(KEEP_SESSIONS)) localStorage.removeItem(k);
  } catch (e) { /* private mode or full: the pad lives as long as the page */ }
}

function restore(S) {
  // After a reload with taps queued: the documents under them, walked from the kept document
  // through each queued tap's prediction ({stack, doc}; doc null when a tap had none: the pad
  // waits for its answer), or null when the kept document is not the first queued tap's.
  let d = keptDocument(S.session);
  if (!S.queue.length || !d) return null;
  const stack = [];
  for (const t of S.queue) {
    if (!d || d.seq !== t.seq) return null;
    stack.push(d);
    d = (d.ahead && d.ahead[t.spot]) || null;
  }
  return { stack, doc: d };
}

function resume(S) {
  // After a reload with taps queued: the pad as the last of them left it (restore), so the
  // organiser goes on from there; else the pad waits for the server's document, as before.
  const back = restore(S);
  if (!back) return;
  S.stack = back.stack;
  const n = S.queue.length;
  const note = `Waiting to be recorded: ${n} tap${n > 1 ? 's' : ''} kept on this device`;
  if (back.doc) show(S, back.doc, { predicted: true, note, tone: 'warn' });
  else show(S, back.stack[back.stack.length - 1], { busy: true, note, tone: 'warn' });
}
