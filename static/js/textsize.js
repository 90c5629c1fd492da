/* Larger text, per phone: a setting kept in this phone's storage, applied before the page is
   drawn (this script is loaded in the head, not deferred) so nothing jumps; the header's button
   (hidden without JavaScript, which it needs) turns it on and off. */
(function () {
  "use strict";
  var KEY = "kaiser-large-text", root = document.documentElement;
  function on() {
    try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  root.classList.toggle("large-text", on());
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("text-size");
    if (!button) { return; }
    button.hidden = false;
    button.setAttribute("aria-pressed", on() ? "true" : "false");
    button.addEventListener("click", function () {
      var now = !on();
      try { localStorage.setItem(KEY, now ? "1" : "0"); } catch (e) { /* private mode: this page only */ }
      root.classList.toggle("large-text", now);
      button.setAttribute("aria-pressed", now ? "true" : "false");
    });
  });
})();
