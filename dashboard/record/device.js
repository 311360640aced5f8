// The device's memory (dashboard/pad.py device): sets and clears this browser's cookies.
export default function (component) {
  const { data } = component;
  for (const [name, value] of Object.entries(data.set || {})) {
    document.cookie = name + '=' + encodeURIComponent(value) + '; max-age=' + data.max_age +
      '; path=/; SameSite=Strict';
  }
  for (const name of data.clear || []) {
    document.cookie = name + '=; max-age=0; path=/; SameSite=Strict';
  }
}
