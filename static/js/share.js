/* Share a table: the phone's share sheet (Web Share API) where there is one, otherwise copy
   the link. [data-share] data-share-url data-share-title data-share-text data-copied. */
(function () {
  "use strict";

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    /* Plain http on a home network: the old way still works. */
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      area.remove();
      if (ok) resolve(); else reject(new Error("copy failed"));
    });
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-share]");
    if (!b) return;
    e.preventDefault();
    var url = new URL(b.getAttribute("data-share-url") || window.location.href, window.location.href).href;
    var data = { url: url, title: b.getAttribute("data-share-title") || document.title };
    var text = b.getAttribute("data-share-text");
    if (text) data.text = text;
    var H = window.Holdem || {};
    var copied = function () {
      var msg = b.getAttribute("data-copied") || "Link copied";
      if (H.toast) H.toast(msg);
      if (H.announce) H.announce(msg);
    };
    var failed = function () {
      var msg = b.getAttribute("data-copy-failed") || url;
      if (H.toast) H.toast(msg);
    };
    if (navigator.share && (!navigator.canShare || navigator.canShare(data))) {
      navigator.share(data).catch(function (err) {
        if (err && err.name === "AbortError") return; /* the person closed the sheet */
        copy(url).then(copied, failed);
      });
    } else {
      copy(url).then(copied, failed);
    }
  });
})();
