// The Bragbook notes panel: the notes on the step the replayer (.rp, dashboard/replayer.js)
// shows, fetched from /api/notes when that step is shown (dashboard/notes_api.py): a note is
// never in the page before its step. Anyone adds a note with their name (remembered in this
// browser); the organiser's unlocked device may hide one. Text is set with textContent only.
// A note points at the action it was written on (issue 32): the server lists it on the step that
// action has now, and a note whose action was withdrawn (an Undo, a correction) stays, marked
// "On a withdrawn step" with that action's words. A step is kept as the replayer labels it (a
// number, or a label such as "7a"), never turned into a number here.
const BY_KEY = "bragbook.noteBy";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function remembered() {
  try {
    return window.localStorage.getItem(BY_KEY) || "";
  } catch (_) {
    return "";
  }
}

function remember(name) {
  try {
    window.localStorage.setItem(BY_KEY, name);
  } catch (_) {
    /* private mode: typed again next time */
  }
}

export default function (component) {
  const { data, parentElement } = component;
  const root = parentElement.querySelector(".nt");
  if (!root || !data) return;
  let step = null; // the step whose notes are shown (or being fetched)
  let watched = null; // the replayer's root followed
  let fetchTimer = null;
  let asked = 0; // the latest request: an older answer is dropped

  root.replaceChildren();
  delete root.dataset.step;
  delete root.dataset.loaded;
  const title = el("div", "nt-title", "Notes");
  const hint = el("div", "nt-hint", "A note shows once the replay reaches its step.");
  const list = el("ul", "nt-list");
  const form = el("form", "nt-form");
  const text = el("textarea");
  text.maxLength = data.max;
  text.placeholder = "A note on this step, e.g. should have folded here";
  text.setAttribute("aria-label", "Note");
  const row = el("div", "nt-row");
  const by = el("input");
  by.maxLength = data.max_by;
  by.placeholder = "Your name";
  by.autocomplete = "nickname";
  by.setAttribute("aria-label", "Your name");
  // the name last signed with here, else the player this browser is on My sessions (data.me)
  by.value = remembered() || (typeof data.me === "string" ? data.me : "");
  const addBtn = el("button", "nt-btn nt-add", "Add note");
  addBtn.type = "submit";
  row.append(by, addBtn);
  const status = el("div", "nt-status");
  status.setAttribute("role", "status");
  form.append(text, row, status);
  // On a phone the panel is a screen or two below the table: a chip at the thumb says a step has
  // notes while the panel is out of sight, and a tap brings it.
  const chip = el("button", "nt-chip");
  chip.type = "button";
  chip.hidden = true;
  chip.addEventListener("click", () => root.scrollIntoView({ behavior: "smooth", block: "start" }));
  root.append(title, hint, list, form, chip);
  let inView = false;
  let count = 0;
  const chipShown = () => {
    chip.hidden = inView || count === 0;
    chip.textContent = `✎ ${count} note${count > 1 ? "s" : ""} on step ${step} ↓`;
    placeChip();
  };
  // Issue 21: the chip never covers a control (the step buttons, "Download picture", ...): at the
  // bottom right, else the bottom left, else raised step by step up to half the screen; hidden
  // (visibility) while no such place is free, and placed again on every scroll and resize.
  const CONTROLS =
    'button, a[href], input, select, textarea, summary, [role="button"], [role="slider"]';
  let placing = 0;
  function placeChip() {
    if (chip.hidden) return;
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const { width: w, height: h } = chip.getBoundingClientRect();
    const taken = [];
    for (const c of document.querySelectorAll(CONTROLS)) {
      if (c === chip) continue;
      const r = c.getBoundingClientRect();
      if (r.width && r.height && r.bottom > vh / 2 && r.top < vh) taken.push(r);
    }
    const free = (x, y) =>
      !taken.some((r) => x < r.right && r.left < x + w && y < r.bottom && r.top < y + h);
    for (let bottom = 12; bottom + h < vh / 2; bottom += 8) {
      for (const x of [vw - 12 - w, 12]) {
        const y = vh - bottom - h;
        if (free(x, y)) {
          chip.style.left = `${x}px`;
          chip.style.right = "auto";
          chip.style.bottom = `${bottom}px`;
          chip.style.visibility = "";
          return;
        }
      }
    }
    chip.style.visibility = "hidden";
  }
  const placeSoon = () => {
    if (placing) return;
    placing = window.requestAnimationFrame(() => {
      placing = 0;
      placeChip();
    });
  };
  window.addEventListener("scroll", placeSoon, { passive: true, capture: true });
  window.addEventListener("resize", placeSoon, { passive: true });
  const seen = new IntersectionObserver((entries) => {
    inView = entries.some((e) => e.isIntersecting);
    chipShown();
  });
  seen.observe(title);

  function say(message, error) {
    status.textContent = message || "";
    status.classList.toggle("nt-error", Boolean(error));
  }

  function render(answer) {
    list.replaceChildren();
    for (const n of answer.notes || []) {
      const li = el("li", "nt-note");
      li.dataset.id = String(n.id);
      const meta = el("div", "nt-meta");
      // numbered in its session (1, 2, 3... as written), never by the store's global id
      meta.append(el("span", "nt-num", `#${n.number}`), el("span", "nt-by", n.by),
        el("span", "nt-at", `${n.at} UTC`));
      if (n.withdrawn) {
        li.classList.add("nt-gone");
        li.dataset.withdrawn = "1";
      }
      if (answer.organiser) {
        const b = el("button", "nt-btn nt-hide", "Hide");
        b.type = "button";
        b.setAttribute("aria-label", `Hide the note by ${n.by}`);
        b.addEventListener("click", () => hideNote(n.id, b));
        meta.append(b);
      }
      li.append(meta);
      if (n.withdrawn) {
        const was = n.action ? `On a withdrawn step: ${n.action}` : "On a withdrawn step";
        li.append(el("div", "nt-withdrawn", was));
      }
      li.append(el("div", "nt-text", n.text));
      list.append(li);
    }
    count = (answer.notes || []).length;
    chipShown();
    title.textContent = `Notes on step ${step}` + (count ? ` (${count})` : "");
    if (!count) list.append(el("li", "nt-hint", "No note on this step yet."));
    root.dataset.loaded = String(step);
  }

  async function call(url, options) {
    const r = await window.fetch(url, { credentials: "same-origin", cache: "no-store", ...options });
    let answer = {};
    try {
      answer = await r.json();
    } catch (_) {
      answer = { message: `The server answered ${r.status}.` };
    }
    return { ok: r.ok, answer };
  }

  async function load(k) {
    const n = ++asked;
    const q = new URLSearchParams({ session: data.session, deal: String(data.deal), step: String(k) });
    try {
      const { ok, answer } = await call(`/api/notes?${q}`);
      if (n !== asked || k !== step) return;
      if (ok) render(answer);
      else say(answer.message || "The notes could not be read.", true);
    } catch (_) {
      if (n === asked) say("The notes could not be read (offline?).", true);
    }
  }

  function follow() {
    const k = watched && watched.dataset.step ? String(watched.dataset.step) : null;
    if (k === null || k === step) return;
    step = k;
    asked++; // an answer for the step left is dropped
    list.replaceChildren(); // nothing of the step left stays on screen
    count = 0;
    chipShown();
    delete root.dataset.loaded;
    root.dataset.step = String(k);
    title.textContent = `Notes on step ${k}`;
    addBtn.textContent = `Add note on step ${k}`;
    say("");
    if (fetchTimer !== null) window.clearTimeout(fetchTimer);
    // a burst of steps (autoplay, a held arrow key) asks once, for the step it stops on
    fetchTimer = window.setTimeout(() => {
      fetchTimer = null;
      load(k);
    }, 150);
  }

  const observer = new MutationObserver(follow);
  function attach() {
    const rp = document.querySelector(".rp");
    if (rp === watched) return;
    observer.disconnect();
    watched = rp;
    step = null;
    if (rp) {
      observer.observe(rp, { attributes: true, attributeFilter: ["data-step", "data-index"] });
      follow();
    }
  }
  attach();
  const finder = window.setInterval(attach, 500); // the replayer drawn later, or drawn again

  async function post(url, body) {
    return call(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  async function hideNote(id, button) {
    button.disabled = true;
    try {
      const { ok, answer } = await post("/api/notes/hide", { session: data.session, id });
      if (ok) {
        render(answer);
        say("Hidden: the note is kept, and shown to nobody.");
      } else {
        button.disabled = false;
        say(answer.message || "Not hidden.", true);
      }
    } catch (_) {
      button.disabled = false;
      say("Not hidden: the server cannot be reached.", true);
    }
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (step === null) return;
    const k = step;
    const note = text.value.trim();
    const name = by.value.trim();
    if (!note) return say("Write the note first.", true);
    if (!name) return say("Give your name: a note says who wrote it.", true);
    remember(name);
    addBtn.disabled = true;
    say("Storing…");
    try {
      const body = { session: data.session, deal: data.deal, step: k, text: note, by: name };
      const { ok, answer } = await post("/api/notes", body);
      if (ok) {
        text.value = "";
        if (k === step) render(answer);
        say(`Stored on step ${k}.`);
      } else {
        say(answer.message || "Not stored.", true);
      }
    } catch (_) {
      say("Not stored: the server cannot be reached.", true);
    } finally {
      addBtn.disabled = false;
    }
  });

  return () => {
    observer.disconnect();
    seen.disconnect();
    window.clearInterval(finder);
    if (fetchTimer !== null) window.clearTimeout(fetchTimer);
    window.removeEventListener("scroll", placeSoon, { capture: true });
    window.removeEventListener("resize", placeSoon);
    if (placing) window.cancelAnimationFrame(placing);
  };
}
