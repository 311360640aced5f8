// The Bragbook replayer: steps through one deal's frames in the browser, no server round trip.
// Loaded after replayer_helpers.js, in the same module (dashboard/replayer.py joins them).
// Data in (dashboard/viewmodels/frames.py, ReplayerData): session, deal, view, log, start,
// corrections, viewers, deals (deal, full, plain), frames (step, label, kind, text, svg, compact,
// line, pot, odds, odds_exact, odds_plain, odds_none, acts; the SVGs escaped there), and from the
// page nonce, seq, latest (deal, step), live, follow. State out: "nav" ({session, deal, step,
// view, log, follow}) only when the server must send other frames (another deal, viewer or log);
// "follow" ({session, on, deal, step}) when the viewer turns "Following live" on or off (any step
// back turns it off). Text from the log is always set with textContent.
const SPEEDS = { slow: 2000, normal: 1000, fast: 500, "very fast": 250 };

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".rp");
  if (!root || !data || !data.frames || !data.frames.length) return;
  const S = (root.__rp = root.__rp || { spoil: {}, asked: {} });
  // This drawing's number: a listener left by an earlier one (on the window, the root) does
  // nothing and goes (it would step, or ask for, another deal's frames).
  const drawn = (S.drawn = (S.drawn || 0) + 1);
  const stale = () => S.drawn !== drawn;
  const frames = data.frames;
  const dealId = `${data.session}|${data.deal}`;
  const key = `${dealId}|${data.view}|${data.log}|${data.nonce}`;
  const same = S.key === key && S.i !== undefined;
  let i = same ? Math.min(S.i, frames.length - 1) : data.start;
  // Events recorded meanwhile (the page follows the store live): the step stays, a mark says so.
  const moved = same && S.seq !== undefined ? Math.max(0, (data.seq || 0) - S.seq) : 0;
  S.fresh = same ? (S.fresh || 0) + moved : 0;
  S.key = key;
  S.seq = data.seq || 0;
  // Following live: the latest step, the next deal's once it is dealt (the server sends that
  // deal). A change the viewer made waits for the server's word on it (a rerun already on its
  // way was drawn before it).
  const live = Boolean(data.live);
  if (S.followWant === Boolean(data.follow)) delete S.followWant;
  S.follow = live && (S.followWant !== undefined ? S.followWant : Boolean(data.follow));
  if (S.follow && data.latest.deal === data.deal) i = frames.length - 1;
  if (S.follow) S.fresh = 0;
  if (!(dealId in S.spoil)) S.spoil[dealId] = !seenDeals().has(dealId);
  let timer = null;

  // --- the DOM, built once per call ------------------------------------------------------------
  root.replaceChildren();
  const stage = el("div", "rp-stage");
  const side = el("div", "rp-side");
  root.append(stage, side);

  const table = el("div", "rp-table");
  const controls = el("div", "rp-controls");
  const mk = (label, glyph, hint, cls) => {
    const b = el("button", "rp-btn " + (cls || ""));
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.append(el("span", "rp-glyph", glyph), el("span", "rp-word", label));
    if (hint) b.append(el("kbd", "rp-kbd", hint));
    controls.append(b);
    return b;
  };
  const bFirst = mk("First", "«", "Home");
  const bPrev = mk("Previous", "◀", "←");
  const bNext = mk("Next", "▶", "→", "rp-primary");
  const bLast = mk("Last", "»", "End");
  const bFollow = el("button", "rp-follow");
  bFollow.type = "button";
  bFollow.hidden = !live;
  const slider = el("input", "rp-slider");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(frames.length - 1);
  slider.setAttribute("aria-label", "Step");
  const head = el("div", "rp-head");
  const stepText = el("span", "rp-step");
  const sentence = el("span", "rp-sentence");
  head.append(stepText, sentence);
  const line = el("div", "rp-line");
  const fresher = el("button", "rp-fresh");
  fresher.type = "button";
  const play = el("div", "rp-play");
  const bPlay = el("button", "rp-btn", "▶ Play");
  bPlay.type = "button";
  const speed = el("select", "rp-speed");
  speed.setAttribute("aria-label", "Speed");
  for (const name of Object.keys(SPEEDS)) {
    const o = el("option", "", name);
    o.value = name;
    speed.append(o);
  }
  speed.value = S.speed || "normal";
  const bNextDeal = el("button", "rp-btn rp-nextdeal", "Next deal ▶");
  bNextDeal.type = "button";
  play.append(bPlay, speed, bNextDeal);
  stage.append(table, controls, bFollow, slider, head, line, fresher, play);

  // pickers: a native select laid over text that wraps, so nothing is cut
  const pickers = el("div", "rp-pickers");
  const picker = (label, options, value, onChange) => {
    const wrap = el("label", "rp-picker");
    wrap.append(el("span", "rp-picker-label", label));
    const shown = el("span", "rp-picker-value");
    const sel = el("select");
    sel.setAttribute("aria-label", label);
    for (const [v, text] of options) {
      const o = el("option", "", text);
      o.value = String(v);
      sel.append(o);
    }
    sel.value = String(value);
    const sync = () => {
      const o = sel.options[sel.selectedIndex];
      shown.textContent = o ? o.textContent : "";
    };
    sel.addEventListener("change", () => {
      sync();
      onChange(sel.value);
    });
    sync();
    wrap.append(shown, sel);
    pickers.append(wrap);
    return { sel, sync };
  };
  // Who won a deal is left out while spoilers are hidden, for a viewed player from this deal on
  // (they did not know it yet), and for a deal this browser has not stepped through unless the
  // viewer unticked Spoiler-free by hand (a deal seen to its end says nothing of the others).
  const dealOptions = () => {
    const seen = seenDeals();
    return data.deals.map((d) => {
      const hide =
        S.spoil[dealId] ||
        (data.view && d.deal >= data.deal) ||
        (!S.asked[dealId] && !seen.has(`${data.session}|${d.deal}`));
      return [d.deal, hide ? d.plain : d.full];
    });
  };
  const dealPick = picker("Deal", dealOptions(), data.deal, (v) =>
    nav({ deal: Number(v), step: 1, follow: false })
  );
  picker(
    "View as",
    data.viewers.map((v) => [v, v]),
    data.view || data.viewers[0],
    (v) => nav({ view: v === data.viewers[0] ? "" : v })
  );
  const toggles = el("div", "rp-toggles");
  const toggle = (label, checked, disabled, onChange, help) => {
    const wrap = el("label", "rp-toggle");
    const box = el("input");
    box.type = "checkbox";
    box.checked = checked;
    box.disabled = disabled;
    box.addEventListener("change", () => onChange(box.checked));
    wrap.append(box, el("span", "", label));
    if (help) wrap.title = help;
    toggles.append(wrap);
    return box;
  };
  // the count is this deal's own corrections; the session's are named beside when it has none
  const own = data.deal_corrections || 0;
  toggle(
    !data.corrections
      ? "Show corrections (none)"
      : own
        ? `Show corrections (${own} in this deal)`
        : `Show corrections (none in this deal, ${data.corrections} in the session)`,
    data.log === "recorded",
    data.corrections === 0,
    (on) => nav({ log: on ? "recorded" : "" }),
    "Off: the log as corrected. On: as recorded, each withdrawn step and its correction."
  );
  const spoilBox = toggle(
    "Spoiler-free",
    S.spoil[dealId],
    false,
    (on) => {
      S.spoil[dealId] = on;
      S.asked[dealId] = !on; // unticked by hand: every deal's winner named
      dealPick.sel.querySelectorAll("option").forEach((o, k) => {
        o.textContent = dealOptions()[k][1];
      });
      dealPick.sync();
      show(i);
    },
    "Hides who wins each deal and the events after the current step."
  );
  pickers.append(toggles);
  const oddsBox = el("div", "rp-odds");
  const listBox = el("div", "rp-events");
  const linkBox = el("a", "rp-link", "Link to this step");
  linkBox.target = "_self";
  side.append(pickers, oddsBox, listBox, linkBox);

  // sharing: the link to this step (the phone's share sheet, else copied) and its picture, drawn
  // by the server as this device may see it (dashboard/share_api.py), of the step shown
  const shareRow = el("div", "rp-share");
  const bShare = el("button", "rp-btn", "Share");
  bShare.type = "button";
  bShare.dataset.testid = "share";
  const bPicture = el("a", "rp-btn rp-picture", "Download picture");
  bPicture.dataset.testid = "picture";
  const shareSaid = el("div", "rp-share-said");
  shareSaid.setAttribute("role", "status");
  shareRow.append(bShare, bPicture);
  stage.append(shareRow, shareSaid);

  // --- stepping ----------------------------------------------------------------------------------
  const url = (step) => stepUrl(data, step);

  function nav(change) {
    stop();
    if (stale()) return;
    const f = frames[i];
    setStateValue("nav", {
      session: data.session,
      deal: data.deal,
      step: f.step,
      view: data.view,
      log: data.log,
      follow: S.follow,
      ...change,
      at: Date.now(),
    });
  }

  // "Following live": on, the latest step as events arrive; off on any step back.
  function drawFollow() {
    bFollow.textContent = S.follow ? "● Following live" : "Follow live";
    bFollow.setAttribute("aria-pressed", S.follow ? "true" : "false");
    bFollow.classList.toggle("rp-on", S.follow);
    root.dataset.follow = S.follow ? "on" : "off";
  }
  function setFollow(on, step) {
    if (stale() || !live || S.follow === on) return;
    S.follow = S.followWant = on;
    drawFollow();
    setStateValue("follow", {
      session: data.session,
      on,
      deal: data.deal,
      step: step === undefined ? frames[i].step : step,
      at: Date.now(),
    });
    if (on && data.latest.deal === data.deal) show(frames.length - 1);
  }

  // the events list, built once; each step only shows, hides and marks rows
  const list = el("table", "rp-list");
  const thead = el("thead");
  const hr = el("tr");
  hr.append(el("th", "rp-num", "Step"), el("th", "", "Event"), el("th", "rp-num", "Pot"));
  thead.append(hr);
  const body = el("tbody");
  list.append(thead, body);
  const rowEls = frames.map((f, k) => {
    const tr = el("tr", f.kind ? "rp-" + f.kind : "");
    const a = el("a", "", f.label);
    a.href = url(f.step).toString();
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      show(k);
    });
    const td = el("td", "rp-num");
    td.append(a);
    tr.append(td, el("td", "", f.text), el("td", "rp-num", f.pot));
    return tr;
  });
  listBox.append(list);
  let marked = null;

  function rows(hideLater) {
    // Rows after the current step are left out of the page (not merely hidden) when they would
    // tell what the viewer could not know yet.
    const last = hideLater ? i : frames.length - 1;
    const want = rowEls.slice(0, last + 1);
    if (body.childElementCount !== want.length) body.replaceChildren(...want);
    if (marked) {
      marked.classList.remove("rp-current");
      delete marked.dataset.current;
    }
    marked = rowEls[i];
    marked.classList.add("rp-current");
    marked.dataset.current = "true";
  }

  // each frame's picture parsed once, then swapped in
  const pictures = new Map();
  function picture(k, narrow) {
    const id = `${k}|${narrow}`;
    let node = pictures.get(id);
    if (!node) {
      const tpl = document.createElement("template");
      tpl.innerHTML = narrow ? frames[k].compact : frames[k].svg; // drawn and escaped in Python
      node = tpl.content.firstElementChild;
      pictures.set(id, node);
    }
    return node;
  }
  function warm(narrow) {
    let k = 0;
    const idle = window.requestIdleCallback || ((fn) => window.setTimeout(fn, 30));
    const step = () => {
      const until = performance.now() + 8;
      while (k < frames.length && performance.now() < until) picture(k++, narrow);
      if (k < frames.length) idle(step);
    };
    idle(step);
  }

  let urlTimer = null;
  function show(k) {
    const to = Math.max(0, Math.min(frames.length - 1, k));
    if (S.follow && to < i) setFollow(false, frames[to].step); // a step back leaves the latest
    i = to;
    S.i = i;
    const f = frames[i];
    const narrow = root.clientWidth < 640;
    const drawn = picture(i, narrow);
    table.replaceChildren(drawn);
    fitNames(drawn); // a name shortened in Python, whole where the browser's font has room
    root.dataset.deal = String(data.deal);
    root.dataset.step = String(f.step);
    root.dataset.index = String(i);
    stepText.textContent = `Step ${f.label} of ${frames[frames.length - 1].step}`;
    sentence.textContent = f.text;
    line.textContent = f.line;
    line.title = f.line; // cut with "…" where narrow (a long name): whole as its tooltip
    slider.value = String(i);
    bFirst.disabled = bPrev.disabled = i === 0;
    bNext.disabled = bLast.disabled = i === frames.length - 1;
    const hasNextDeal = data.deals.some((d) => d.deal > data.deal);
    bNextDeal.hidden = !(i === frames.length - 1 && hasNextDeal);
    // stepped through: its end reached (the latest step of a deal still in play is not its end)
    if (i === frames.length - 1 && !(data.live && data.latest.deal === data.deal)) markSeen(dealId);
    const atLatest = data.latest.deal === data.deal && i === frames.length - 1;
    if (atLatest) S.fresh = 0;
    fresher.hidden = !S.fresh;
    if (S.fresh) {
      fresher.textContent = `● ${S.fresh} new event${S.fresh > 1 ? "s" : ""}: go to the latest`;
    }
    drawOdds(oddsBox, f, S.spoil[dealId]);
    rows(Boolean(data.view) || S.spoil[dealId]);
    if (listBox.scrollHeight > listBox.clientHeight) {
      listBox.scrollTop = marked.offsetTop - listBox.clientHeight / 2;
    }
    linkBox.href = url(f.step).toString();
    bPicture.href = pictureUrl(data, f.step);
    bPicture.download = `${data.session}-deal-${data.deal}-step-${f.step}.png`;
    shareSaid.replaceChildren();
    // the address bar follows a moment later: a burst of steps writes it once
    if (urlTimer !== null) window.clearTimeout(urlTimer);
    urlTimer = window.setTimeout(() => {
      urlTimer = null;
      if (stale()) return;
      const here = url(frames[i].step);
      if (S.follow) here.searchParams.set("follow", "1");
      window.history.replaceState(window.history.state, "", here);
    }, 120);
  }

  function stop() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    bPlay.textContent = "▶ Play";
  }

  function start() {
    if (i === frames.length - 1) show(0);
    bPlay.textContent = "⏸ Pause";
    timer = window.setInterval(() => {
      if (stale() || i >= frames.length - 1) stop();
      else show(i + 1);
    }, SPEEDS[speed.value] || 1000);
  }

  bShare.addEventListener("click", () => {
    shareStep(data, frames[i], shareSaid);
  });
  bFollow.addEventListener("click", () => setFollow(!S.follow));
  bFirst.addEventListener("click", () => show(0));
  bPrev.addEventListener("click", () => show(i - 1));
  bNext.addEventListener("click", () => show(i + 1));
  bLast.addEventListener("click", () => show(frames.length - 1));
  fresher.addEventListener("click", () => {
    if (data.latest.deal === data.deal) show(frames.length - 1);
    else nav({ deal: data.latest.deal, step: data.latest.step });
  });
  slider.addEventListener("input", () => show(Number(slider.value)));
  bPlay.addEventListener("click", () => (timer === null ? start() : stop()));
  speed.addEventListener("change", () => {
    S.speed = speed.value;
    if (timer !== null) {
      stop();
      start();
    }
  });
  bNextDeal.addEventListener("click", () => {
    const next = data.deals.find((d) => d.deal > data.deal);
    if (next) nav({ deal: next.deal, step: 1 });
  });

  const onKey = (ev) => {
    if (stale()) {
      window.removeEventListener("keydown", onKey);
      return;
    }
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && t.closest && t.closest("input, select, textarea, [contenteditable]")) return;
    const go = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: frames.length - 1 }[ev.key];
    if (go === undefined) return;
    ev.preventDefault();
    show(go);
  };
  window.addEventListener("keydown", onKey);

  let touch = null;
  table.addEventListener(
    "touchstart",
    (ev) => {
      const p = ev.changedTouches[0];
      touch = { x: p.clientX, y: p.clientY };
    },
    { passive: true }
  );
  table.addEventListener(
    "touchend",
    (ev) => {
      if (!touch) return;
      const p = ev.changedTouches[0];
      const dx = p.clientX - touch.x;
      const dy = p.clientY - touch.y;
      touch = null;
      if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(dy)) show(dx < 0 ? i + 1 : i - 1);
    },
    { passive: true }
  );

  let width = root.clientWidth;
  const resized = new ResizeObserver(() => {
    if (stale()) {
      resized.disconnect();
      return;
    }
    const narrow = root.clientWidth < 640;
    if (narrow !== width < 640) show(i);
    width = root.clientWidth;
  });
  resized.observe(root);

  spoilBox.checked = S.spoil[dealId];
  drawFollow();
  show(i);
  warm(root.clientWidth < 640);
  root.dataset.ready = "true";

  return () => {
    stop();
    if (urlTimer !== null) window.clearTimeout(urlTimer);
    window.removeEventListener("keydown", onKey);
    resized.disconnect();
  };
}
