// The deck of one's own mistakes (issue 38.4): one card at a time, the position as the player saw
// it, a button per action of the solved game; a tap shows the answer with each action's EV
// (antes). Progress (the cards answered) is kept per browser in localStorage under data.key.
// Every text is set with textContent: names and sentences from a log are data, never markup.
export default function (component) {
  const { data, parentElement } = component;
  const cards = (data && data.cards) || [];
  const key = (data && data.key) || "brag_deck";
  const root = parentElement.querySelector(".brag-deck") || parentElement;
  function load() {
    try { return new Set(JSON.parse(localStorage.getItem(key) || "[]")); } catch (e) { return new Set(); }
  }
  function save(done) {
    try { localStorage.setItem(key, JSON.stringify([...done].slice(-500))); } catch (e) { /* full or off */ }
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function draw() {
    const done = load();
    root.replaceChildren();
    const left = cards.filter((c) => !done.has(c.id));
    root.append(el("p", "brag-deck-progress", `${cards.length - left.length} of ${cards.length} answered on this browser`));
    if (!left.length) {
      root.append(el("p", "", cards.length ? "Every card answered." : "No card: no decision lost the stated margin."));
      if (cards.length) {
        const again = el("button", "brag-deck-btn", "Start again");
        again.onclick = () => { save(new Set()); draw(); };
        root.append(again);
      }
      return;
    }
    const c = left[0];
    const card = el("div", "brag-deck-card");
    card.setAttribute("data-card", c.id);
    card.append(el("div", "brag-deck-where", c.where));
    for (const line of c.seen) card.append(el("div", "brag-deck-line", line));
    card.append(el("div", "brag-deck-ask", "Your move?"));
    const row = el("div", "brag-deck-choices");
    for (const [action] of c.choices) {
      const b = el("button", "brag-deck-btn", action);
      b.onclick = () => answer(card, c, action);
      row.append(b);
    }
    card.append(row);
    root.append(card);
  }
  function answer(card, c, chosen) {
    const d = load();  // kept at once: a reload after an answer does not ask it again
    d.add(c.id);
    save(d);
    const progress = root.querySelector(".brag-deck-progress");
    if (progress) progress.textContent = `${cards.filter((x) => d.has(x.id)).length} of ${cards.length} answered on this browser`;
    card.querySelectorAll(".brag-deck-choices button").forEach((b) => {
      b.disabled = true;
      if (b.textContent === chosen) { b.classList.add("brag-deck-chosen"); b.setAttribute("aria-pressed", "true"); }
    });
    const top = Math.max(...c.choices.map((x) => x[1]));
    const got = c.choices.find((x) => x[0] === chosen);
    const lost = got ? top - got[1] : 0;
    const verdict = lost <= 0.02
      ? (chosen === c.best ? `The best is ${c.best}: your choice.` : `The best is ${c.best}; ${chosen} is as good (within 0.02 ante).`)
      : `The best is ${c.best}: ${chosen} loses ${lost.toFixed(2)} ante.`;
    card.append(el("div", "brag-deck-verdict", verdict));
    const list = el("ul", "brag-deck-evs");
    for (const [a, v] of c.choices) list.append(el("li", "", `${a}: EV ${v >= 0 ? "+" : ""}${v.toFixed(2)} ante`));
    card.append(list);
    card.append(el("div", "brag-deck-line", `At the table: ${c.taken}, losing ${c.loss.toFixed(2)} ante.`));
    const link = el("a", "brag-deck-link", "Open this step in the replay");
    link.href = c.href;
    link.target = "_self";
    card.append(link);
    const next = el("button", "brag-deck-btn", "Next card");
    next.onclick = () => draw();
    card.append(next);
  }
  draw();
}
