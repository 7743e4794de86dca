/* The service worker (served at /sw.js by tables.pages.push): it shows the notifications the
   server pushes (tables.write.push: a title, a line, the page to open, a tag; never a card) and
   opens that page when one is tapped, or brings a tab already showing it to the front. It
   handles nothing else: every request goes to the network as if it were not there. */
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  if (event.data) {
    try { data = event.data.json(); } catch (e) { data = { body: event.data.text() }; }
  }
  var options = {
    body: data.body || "",
    data: { url: data.url || "/" },
  };
  if (data.tag) {
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(data.title || "Hold'em", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var wanted = (event.notification.data && event.notification.data.url) || "/";
  var url = new URL(wanted, self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        var open = new URL(windows[i].url);
        if (open.pathname === url.pathname && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url.href);
    }));
});
