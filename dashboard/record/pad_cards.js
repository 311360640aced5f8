// The showdown's card picker (issue 35, item 1), part of the pad: dashboard/record/pad.py puts
// this file before pad.js in the one component's script, so pad.js calls buildPicker() and
// picker(), and this file uses pad.js's el() and flash-free note of its own (the `why` line).
//
// A card in two taps: its rank, then its suit. Seventeen keys that never move, drawn over the
// betting keys (every one of them empty at a showdown): the ranks A to 8, then 7 to 2 and ⌫ (take
// back), then the four suits, which show the card they would pick once a rank is chosen
// ("K♠"). On a 390×844 phone that region is 358×162 px: 52 keys of one tap each would need
// eight rows of 44 px there (373 px), so each of these is 47×51 px and more (bench/record.py).
// - The confirming key (the pad's `show`) says the cards picked on its own line, never cut.
// - The cards the tracked pack rules out (the document's `free` false, the engine's `why`,
//   RULES 3.3) are greyed and not picked; a rank is greyed once its four suits are. A tap or a
//   long press on a greyed key shows why in the line under the picker (also its title and
//   aria-label). A picked card is taken back by ⌫, or by its rank and suit tapped again; ⌫
//   lets a chosen rank go. A second tap on the same picker key within BOUNCE_MS is not taken.
// - Every text through textContent.

const RANKS = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'];
const SUITS = ['s', 'h', 'd', 'c'];
const SUIT_FACE = { s: '♠', h: '♥', d: '♦', c: '♣' };
const SUIT_NAME = { s: 'spades', h: 'hearts', d: 'diamonds', c: 'clubs' };
const LONG_PRESS_MS = 450;
const BOUNCE_MS = 300;  // a second tap on the same picker key this soon is the same tap
const HINT = 'A card in two taps: its rank, then its suit · ⌫ takes one back';

function rankFace(r) { return r === 'T' ? '10' : r; }

function buildPicker(S, region, rest) {
  // The picker's keys, once per grid, hidden until a key needs cards: three rows over the
  // betting keys, and the line (hint or reason) over the row of shuffle and deal.
  const cards = el('div', 'cards');
  cards.hidden = true;
  cards.dataset.testid = 'pad-picker';
  const P = { ranks: {}, suits: {}, back: null, line: null, cards };
  const rows = [RANKS.slice(0, 7), RANKS.slice(7).concat(['back']), SUITS];
  rows.forEach((row, n) => {
    const r = el('div', n === 2 ? 'pick-row suits' : 'pick-row');
    for (const x of row) {
      const b = el('button', 'pick');
      b.type = 'button';
      if (x === 'back') {
        b.classList.add('back');
        b.dataset.pick = 'back';
        P.back = b;
      } else if (n === 2) {
        b.dataset.suit = x;
        b.classList.add(x === 'h' || x === 'd' ? 'red' : 'black');
        P.suits[x] = b;
      } else {
        b.dataset.rank = x;
        P.ranks[x] = b;
      }
      pressable(S, b, x, n === 2 ? 'suit' : x === 'back' ? 'back' : 'rank');
      r.appendChild(b);
    }
    cards.appendChild(r);
  });
  region.appendChild(cards);
  const line = el('div', 'pick-line');
  line.dataset.testid = 'pad-picker-line';
  line.setAttribute('role', 'status');
  line.setAttribute('aria-live', 'polite');
  line.hidden = true;
  const under = [...rest.children].find((r) => r.querySelector("[data-slot='shuffle']"));
  (under || rest).appendChild(line);
  P.line = line;
  S.pick = P;
  S.el.cards = cards;
}

function pressable(S, b, x, kind) {
  // A tap picks; a long press (or a tap on a greyed key) says why in the line.
  let timer = null;
  let long = false;
  b.addEventListener('pointerdown', () => {
    long = false;
    clearTimeout(timer);
    timer = setTimeout(() => {
      long = true;
      say(S, b.title || HINT, b.getAttribute('aria-disabled') === 'true');
    }, LONG_PRESS_MS);
  });
  const stop = () => clearTimeout(timer);
  b.addEventListener('pointerup', stop);
  b.addEventListener('pointercancel', stop);
  b.addEventListener('pointerleave', stop);
  b.addEventListener('contextmenu', (ev) => ev.preventDefault());
  b.onclick = () => {
    clearTimeout(timer);
    if (long) { long = false; return; }  // the long press said its word: no pick
    const now = performance.now();
    if (S.pick.last === b && now - S.pick.lastAt < BOUNCE_MS) return;  // a double tap: one
    S.pick.last = b;
    S.pick.lastAt = now;
    if (b.getAttribute('aria-disabled') === 'true') { say(S, b.title, true); return; }
    if (kind === 'rank') pickRank(S, x);
    else if (kind === 'suit') pickSuit(S, x);
    else takeBack(S);
  };
}

function say(S, text, warn) {
  const line = S.pick.line;
  line.textContent = text;
  line.title = text;
  line.classList.toggle('warn', !!warn);
}

function picker(S, doc) {
  // Shown over the betting keys while a key of the document needs cards (a `shown` at a real
  // table), redrawn from S.picked and S.rank after every document and every pick.
  const P = S.pick;
  if (!P) return;
  const found = Object.entries(doc.keys).find(([, k]) => k.cards);
  if (!found || S.busy) {
    P.cards.hidden = true;
    P.line.hidden = true;
    P.at = null;
    return;
  }
  const [spot, key] = found;
  const at = `${doc.seq}:${spot}`;
  if (P.at !== at) {
    P.at = at;
    P.spot = spot;
    P.key = key;
    P.card = Object.fromEntries(key.cards.pack.map((c) => [c.code, c]));
    S.picked = S.picked.filter((c) => P.card[c] && P.card[c].free);
    S.rank = null;
    say(S, HINT, false);
  }
  P.cards.hidden = false;
  P.line.hidden = false;
  render(S);
}

function render(S) {
  const P = S.pick;
  const { key, card } = P;
  const full = S.picked.length >= key.cards.count;
  for (const r of RANKS) {
    const b = P.ranks[r];
    const codes = SUITS.map((s) => r + s);
    const out = codes.every((c) => !card[c].free);
    b.textContent = rankFace(r);
    const why = out ? `No ${rankFace(r)} can be picked: ` +
      codes.map((c) => card[c].why || `${card[c].face} is ruled out`).join('; ') : '';
    mark(b, { off: out, on: S.rank === r, why,
      label: why || `${rankFace(r)}: pick the rank, then its suit` });
  }
  for (const s of SUITS) {
    const b = P.suits[s];
    if (!S.rank) {
      const out = RANKS.every((r) => !card[r + s].free);
      b.textContent = SUIT_FACE[s];
      const why = out ? `No ${SUIT_NAME[s]} can be picked` : '';
      mark(b, { off: out, on: false, why, label: why || `${SUIT_NAME[s]}: pick a rank first` });
      continue;
    }
    const c = card[S.rank + s];
    const picked = S.picked.includes(c.code);
    b.textContent = c.face;
    const why = c.free ? '' : c.why || `${c.face} is ruled out`;
    const label = why || (picked ? `${c.face} is picked: tap to take it back` :
      (full ? `${key.cards.count} picked: take one back first` : `Pick ${c.face}`));
    mark(b, { off: !c.free, on: picked, why, label });
  }
  const none = !S.picked.length && !S.rank;
  mark(P.back, { off: none, on: false, why: none ? 'Nothing picked to take back' : '',
    label: S.rank ? `Not ${rankFace(S.rank)}: choose another rank` :
      (none ? 'Nothing picked to take back' : 'Take back the last card picked') });
  P.back.textContent = '⌫';
  confirming(S);
}

function mark(b, how) {
  b.classList.toggle('off', how.off);
  b.classList.toggle('on', how.on);
  b.setAttribute('aria-disabled', how.off ? 'true' : 'false');
  b.setAttribute('aria-pressed', how.on ? 'true' : 'false');
  b.title = how.label;
  b.setAttribute('aria-label', `${b.textContent}: ${how.label}`);
}

function confirming(S) {
  // The pad's `show` key: its sentence, then the cards picked on a line of their own.
  const P = S.pick;
  const cell = S.cells[P.spot];
  if (!cell) return;
  const n = P.key.cards.count;
  const faces = S.picked.map((c) => P.card[c].face);
  const left = n - faces.length;
  const more = left ? `${faces.length ? ' + ' : 'pick '}${left} card${left > 1 ? 's' : ''}` : '';
  cell.label.textContent = P.key.label;
  cell.sub.replaceChildren(...S.picked.map((code) => P.card[code])
    .map((c) => el('span', c.red ? 'red' : 'black', c.face + ' ')));
  if (more) cell.sub.append(el('span', 'more', more));
  cell.b.classList.add('picking');
  cell.b.classList.toggle('ready', !left);
  cell.b.disabled = !!left;
  cell.b.setAttribute('aria-label', faces.length ? `${P.key.title}: ${faces.join(' ')}` :
    P.key.title);
}

function pickRank(S, r) {
  S.rank = r;  // tapped again it stays chosen (⌫ lets it go): a double tap changes nothing
  say(S, `${rankFace(r)}: now its suit`, false);
  render(S);
}

function pickSuit(S, s) {
  const P = S.pick;
  if (!S.rank) { say(S, 'Pick the rank first, then its suit.', true); return; }
  const c = P.card[S.rank + s];
  const at = S.picked.indexOf(c.code);
  if (at >= 0) {
    S.picked.splice(at, 1);
    say(S, `${c.face} taken back`, false);
  } else if (S.picked.length >= P.key.cards.count) {
    say(S, `${P.key.cards.count} card${P.key.cards.count > 1 ? 's are' : ' is'} picked: ` +
      'take one back (⌫) to pick another.', true);
    return;
  } else {
    S.picked.push(c.code);
    say(S, S.picked.length >= P.key.cards.count ? 'Check the cards on the key, then tap it.' :
      HINT, false);
  }
  S.rank = null;
  render(S);
}

function takeBack(S) {
  if (S.rank) {
    S.rank = null;
    say(S, HINT, false);
  } else if (S.picked.length) {
    const c = S.picked.pop();
    say(S, `${S.pick.card[c].face} taken back`, false);
  }
  render(S);
}
