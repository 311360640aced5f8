// The Bragbook replayer's helpers, loaded before replayer.js as one module (dashboard/replayer.py
// joins the two): building elements, the deals this browser stepped through, a step's link and
// picture, sharing them, the odds box. Text from the log is always set with textContent.
const SEEN_KEY = "bragbook.steppedThrough";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// --- the deals this browser stepped through to the end (spoiler-free stays on for the others) ----

function seenDeals() {
  try {
    return new Set(JSON.parse(window.localStorage.getItem(SEEN_KEY) || "[]"));
  } catch (_) {
    return new Set();
  }
}

function markSeen(id) {
  const s = seenDeals();
  if (s.has(id)) return;
  s.add(id);
  try {
    window.localStorage.setItem(SEEN_KEY, JSON.stringify([...s].slice(-2000)));
  } catch (_) {
    /* private mode: spoiler-free stays on by default */
  }
}

// --- a step's link and picture, and sharing them ------------------------------------------------

// The page's link to ``step`` of the frames' deal, as viewed (data: the frames, replayer.js).
function stepUrl(data, step) {
  const u = new URL(window.location.href);
  const q = u.searchParams;
  q.delete("seq");
  q.delete("follow"); // a step's link names the step (the address bar adds it while following)
  q.set("session", data.session);
  q.set("deal", String(data.deal));
  q.set("step", String(step));
  if (data.view) q.set("view", data.view);
  else q.delete("view");
  if (data.log) q.set("log", data.log);
  else q.delete("log");
  return u;
}

function pictureUrl(data, step) {
  const u = new URL("api/picture.png", window.location.href);
  const q = u.searchParams;
  q.set("session", data.session);
  q.set("deal", String(data.deal));
  q.set("step", String(step));
  if (data.view) q.set("view", data.view);
  if (data.log) q.set("log", data.log);
  return u.toString();
}

async function copied(text) {
  // navigator.clipboard needs a secure page; the club's network serves plain http
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (_) {
    /* refused: the old way below */
  }
  const box = el("textarea");
  box.value = text;
  box.setAttribute("readonly", "");
  box.style.position = "fixed";
  box.style.opacity = "0";
  document.body.append(box);
  box.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch (_) {
    ok = false;
  }
  box.remove();
  return ok;
}

// Shares the link to frame ``f`` (the phone's share sheet, else copied, else shown selected).
async function shareStep(data, f, shareSaid) {
  const link = stepUrl(data, f.step).toString();
  const title = `Deal ${data.deal}, step ${f.label}`;
  shareSaid.replaceChildren();
  if (navigator.share) {
    try {
      await navigator.share({ title, text: `${title}: ${f.text}`, url: link });
      return;
    } catch (err) {
      if (err && err.name === "AbortError") return; // the sheet was closed
    }
  }
  if (await copied(link)) {
    shareSaid.textContent = "Link copied";
    return;
  }
  // nothing could copy it: the link, selected, for a long press
  const field = el("input", "rp-share-link");
  field.readOnly = true;
  field.value = link;
  field.setAttribute("aria-label", "Link to this step");
  shareSaid.append(el("span", "", "Copy this link: "), field);
  field.select();
}

// --- a frame's odds -----------------------------------------------------------------------------

// The odds box of one frame: each visible hand's chances (spoiler-free: the words that state no
// outcome the view already knows), else why there are none, and what each action costs.
function drawOdds(oddsBox, f, spoil) {
  oddsBox.replaceChildren();
  // spoiler-free: no odds line states an outcome the view already knows
  const odds = spoil ? f.odds_plain : f.odds;
  if (odds.length || f.acts.length || f.odds_none) {
    if (odds.length) {
      oddsBox.append(el("div", "rp-odds-title", "Chance to hold the best hand"));
      const ul = el("ul");
      odds.forEach((t, k) => {
        // the words first; the exact counts on a tap (none for an outcome kept hidden)
        const exact = t === f.odds[k] ? (f.odds_exact || [])[k] : "";
        const li = el("li");
        if (exact) {
          const more = el("details", "rp-exact");
          more.append(el("summary", "", t), el("div", "rp-exact-counts", exact));
          li.className = "rp-has-exact";
          li.append(more);
        } else {
          li.textContent = t;
        }
        ul.append(li);
      });
      oddsBox.append(ul);
    } else if (f.odds_none) {
      oddsBox.append(el("div", "rp-odds-none", f.odds_none));
    }
    if (f.acts.length) {
      oddsBox.append(el("div", "rp-odds-title", "What each action costs the player to act"));
      const ul = el("ul");
      for (const t of f.acts) ul.append(el("li", "", t));
      oddsBox.append(ul);
    }
  }
}

// --- names shortened in Python, fitted again here (issue 35) ---------------------------------------

// A seat's name the picture shortened ("Marga…", by a bound on the widest font) keeps its full
// text (data-name) and its room in the picture's units (data-room): drawn, it is measured in the
// font the browser draws it in, and shown whole where it fits (a desktop's "Margaret"), else cut
// to the longest start that fits, with the full name as its tooltip (<title>) and aria-label.
function fitNames(node) {
  if (!node || node.dataset.namesFitted) return; // each frame's picture once
  let all = true;
  for (const t of node.querySelectorAll("text[data-name]")) {
    if (t.dataset.fitted) continue;
    const full = t.dataset.name;
    const room = Number(t.dataset.room);
    const put = (s) => {
      t.textContent = s;
      if (s !== full) t.append(Object.assign(document.createElementNS(t.namespaceURI, "title"),
        { textContent: full }));
    };
    put(full);
    if (!t.getComputedTextLength()) {
      all = false; // not drawn (a hidden tab): measured when shown again
      continue;
    }
    for (let n = full.length - 1; n > 0 && t.getComputedTextLength() > room; n--) {
      put(full.slice(0, n) + "…");
    }
    t.dataset.fitted = "1";
  }
  if (all) node.dataset.namesFitted = "1";
}
