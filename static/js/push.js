/* Notifications on a locked phone (Web Push). Every [data-push] box (components/notify.html, on
   a group's page and a table's notifications page) offers "Tell me when..."; the browser's
   permission prompt comes only after that tap. The
   subscription is posted to the server (tables.pages.push), "Stop" deletes it there too. The
   service worker is /sw.js (it shows what is pushed and opens the page on a tap).
   At a table, a phone with notifications on tells the server over the table's socket whether
   this page is in sight (Holdem.live.send({type: "sight"})): "your turn" is pushed only when
   no page of the table is (the table page loads this script only for such a phone). */
(function () {
  "use strict";
  var Holdem = (window.Holdem = window.Holdem || {});
  var state = "off"; /* off | on | blocked | failed | none */
  var registration = null;

  function boxes() { return Array.prototype.slice.call(document.querySelectorAll("[data-push]")); }
  function first() { return boxes()[0] || null; }
  function supported() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }

  function draw() {
    boxes().forEach(function (box) {
      box.hidden = false;
      box.setAttribute("data-state", state);
      box.querySelector("[data-push-on]").hidden = state === "on" || state === "none";
      box.querySelector("[data-push-off]").hidden = state !== "on";
      var text = box.getAttribute("data-text-" + state) || "";
      var line = box.querySelector("[data-push-state]");
      if (line.textContent !== text) line.textContent = text;
    });
  }

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { return ""; }
  }

  function post(url, fields) {
    var data = new FormData();
    Object.keys(fields).forEach(function (k) { data.append(k, fields[k]); });
    return fetch(url, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-CSRFToken": csrf() },
    }).then(function (response) {
      if (!response.ok) throw new Error("refused");
      return response;
    });
  }

  function keyBytes(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    b64 += "===".slice((b64.length + 3) % 4);
    var raw = window.atob(b64);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function report() {
    if (state !== "on" || !Holdem.live || !Holdem.live.send) return;
    Holdem.live.send({ type: "sight", visible: document.visibilityState === "visible" });
  }

  function turnOn() {
    var box = first();
    Promise.resolve(Notification.requestPermission()).then(function (permission) {
      if (permission !== "granted") { state = "blocked"; return null; }
      return registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(box.getAttribute("data-key")),
      }).then(function (sub) {
        var keys = sub.toJSON().keys || {};
        return post(box.getAttribute("data-on-url"), {
          endpoint: sub.endpoint, p256dh: keys.p256dh || "", auth: keys.auth || "",
        });
      }).then(function () { state = "on"; report(); });
    }).catch(function () { state = "failed"; }).then(draw);
  }

  function turnOff() {
    var box = first();
    registration.pushManager.getSubscription().then(function (sub) {
      if (!sub) return null;
      var endpoint = sub.endpoint;
      return sub.unsubscribe().then(function () {
        return post(box.getAttribute("data-off-url"), { endpoint: endpoint });
      });
    }).then(function () { state = "off"; }, function () { state = "failed"; }).then(draw);
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.closest || !registration) return;
    if (target.closest("[data-push-on]")) turnOn();
    else if (target.closest("[data-push-off]")) turnOff();
  });
  document.addEventListener("holdem:socket", function (event) {
    if (event.detail && event.detail.state === "open") report();
  });
  document.addEventListener("visibilitychange", report);
  window.setInterval(function () {
    if (document.visibilityState === "visible") report();
  }, 60000);

  function start() {
    var box = first();
    if (!supported()) { state = "none"; draw(); return; }
    if (!box) {
      /* A table page of a phone that turned notifications on: it only says when it is in sight. */
      navigator.serviceWorker.getRegistration("/").then(function (reg) {
        return reg ? reg.pushManager.getSubscription() : null;
      }).then(function (sub) {
        if (sub && Notification.permission === "granted") { state = "on"; report(); }
      }, function () { /* no worker: nothing to say */ });
      return;
    }
    draw(); /* at once (no shift when the worker answers); a tap waits for the worker */
    navigator.serviceWorker.register(box.getAttribute("data-worker"), { scope: "/" })
      .then(function (reg) {
        registration = reg;
        return reg.pushManager.getSubscription();
      })
      .then(function (sub) {
        if (sub && Notification.permission === "granted") state = "on";
        else if (Notification.permission === "denied") state = "blocked";
        draw();
        report();
      }, function () { state = "none"; draw(); });
  }
  Holdem.push = { state: function () { return state; } };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
