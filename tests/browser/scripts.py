"""Scripts put into pages before their own (``add_init_script``) by the browser tests and the
outage benchmarks: no Django here, so that a benchmark may import them."""

VISIBILITY = """
(() => {
  let state = "visible";
  Object.defineProperty(Document.prototype, "visibilityState", { get: () => state });
  Object.defineProperty(Document.prototype, "hidden", { get: () => state === "hidden" });
  window.__setVisibility = (next) => {
    state = next;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""
"""An init script: ``document.visibilityState`` as the test says (``__setVisibility("hidden")``:
a phone locked, then unlocked), for the page's own listeners; headless Chromium never hides a
page by itself."""

OPENS = """
(() => {
  window.__opens = [];
  document.addEventListener("holdem:socket", (e) => {
    if (e.detail && e.detail.state === "open") window.__opens.push(Date.now());
  });
})();
"""
"""An init script: ``window.__opens``, the moments (``Date.now()``, the machine's wall clock) the
page's socket opened, as static/js/live.js reports them."""
