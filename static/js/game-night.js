/* A group's game nights (templates/season/_game_nights.html): the proposal is sent with this
   phone's time zone, so that "Friday 20:00" means the proposer's Friday evening and everyone
   else's page and calendar show the same moment. */
(function () {
  "use strict";
  function start() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
    if (!zone) return;
    document.querySelectorAll("[data-zone]").forEach(function (input) { input.value = zone; });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
