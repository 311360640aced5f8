// Closes an open multiselect's list once a name is picked (dashboard/pad.py close_list_when_picked).
export default function (component) {
  const { data, parentElement } = component;
  const seen = parentElement.__picked;  // the component's root (a shadow root): no dataset
  parentElement.__picked = data.picked;
  if (seen === undefined && !data.picked) return;
  if (seen === data.picked) return;
  // A name was just picked: close the names' list, so that it covers nothing a thumb taps next
  const active = document.activeElement;
  // (not while the next name is being typed: that keeps its list, and its text)
  if (active && active.closest && active.closest('[data-testid="stMultiSelect"]') &&
      !active.value) {
    for (const type of ['keydown', 'keyup']) {
      active.dispatchEvent(new KeyboardEvent(type, { key: 'Escape', code: 'Escape', keyCode: 27,
        bubbles: true }));
    }
    active.blur();
  }
}
