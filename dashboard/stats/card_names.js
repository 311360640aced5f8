// Names each card button of My sessions' pickers for a screen reader ("ace of hearts", not "A"):
// the pickers are Streamlit pills, one row a suit, whose buttons show the rank only. data.rows
// holds, row by row, the names of the row's buttons in their order (dashboard/stats/own.py
// CARDS); a row whose buttons do not match is left alone. Drawn again by Streamlit, named again.
export default function (component) {
  const { data, parentElement } = component;
  const rows = (data && data.rows) || [];
  const selector = data && data.root ? `.${data.root}` : null;
  if (!selector) return;
  function name() {
    const root = document.querySelector(selector);
    if (!root) return;
    const groups = root.querySelectorAll('[role="toolbar"], [data-testid="stButtonGroup"]');
    const seen = new Set();
    let k = 0;
    for (const g of groups) {
      const buttons = [...g.querySelectorAll("button")];
      if (!buttons.length || buttons.some((b) => seen.has(b))) continue;
      buttons.forEach((b) => seen.add(b));
      const names = rows[k++];
      if (!names || names.length !== buttons.length) continue;
      buttons.forEach((b, i) => {
        if (b.getAttribute("aria-label") !== names[i]) b.setAttribute("aria-label", names[i]);
      });
    }
  }
  name();
  if (parentElement.__cardNames) parentElement.__cardNames.disconnect();
  let soon = 0; // a burst of changes (a rerun drawing the page) names the buttons once
  const watch = new MutationObserver(() => {
    if (!soon) soon = window.requestAnimationFrame(() => { soon = 0; name(); });
  });
  watch.observe(document.body, { childList: true, subtree: true });
  parentElement.__cardNames = watch;
  return () => {
    watch.disconnect();
    if (soon) window.cancelAnimationFrame(soon);
  };
}
