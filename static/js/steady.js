/* The score sheet keeps still under the finger (used by sheet.js, loaded before it):
   - an error line that clears while the player taps keeps its space until the hand is saved;
   - a refusal brings the field at fault just below whatever covers the top, and focuses it;
   - after Save: the saved hand in the server's words for the bar, the running score flashes,
     focus on the next hand's first field, the page's title with the new score. */
(function () {
  "use strict";
  /* The saved hand in the server's words (#last-said, drawn with the rows), when it is hand n. */
  function lastSaid(n) {
    var said = document.getElementById("last-said");
    return said && Number(said.dataset.n) === n ? said.textContent.trim() : "";
  }
  /* The running score at the top flashes when it changes (a save, an undo). */
  function flashTotals() {
    var totals = document.querySelector("#entry-head .totals");
    if (!totals) { return; }
    totals.classList.remove("flash"); void totals.offsetWidth; totals.classList.add("flash");
  }
  /* The page's title carries the score: the sides and totals the server wrote in the entry's
     head with the last answer, in the title's form ("Ann & Bob 34 – Cat & Dan 21 · Kaiser
     League"). Read from the page, so that the small answer need not carry it twice. */
  function retitle() {
    var sides = document.querySelectorAll("#entry-head .totals > span");
    if (!sides.length) { return; }
    var parts = Array.prototype.map.call(sides, function (side) {
      return side.textContent.replace(/\s+/g, " ").trim();
    });
    document.title = parts.join(" \u2013 ") + " \u00b7 Kaiser League";
  }
  /* After Save the thumb starts the next hand: focus on its first field (no scroll). */
  function firstField() {
    var first = document.querySelector("#hand-form .taps input, #hand-form input:not([type=hidden])");
    if (first) { first.focus({ preventScroll: true }); }
  }
  /* Whatever fixed or sticky thing covers the top of the screen: a field must start below it. */
  function topCover() {
    var cover = 0;
    document.querySelectorAll("body *").forEach(function (el) {
      var pos = getComputedStyle(el).position;
      if (pos !== "fixed" && pos !== "sticky") { return; }
      var r = el.getBoundingClientRect();
      if (r.top <= 0 && r.bottom > cover && r.height < innerHeight / 2) { cover = r.bottom; }
    });
    return cover;
  }
  /* A refusal: the field at fault (its whole fieldset, legend first) just below whatever covers
     the top, and focused, so the thumb and a screen reader land on it. */
  function toFault(wrong) {
    var field = wrong.closest("fieldset, details") || wrong;
    if (field.tagName === "DETAILS") { field.open = true; }
    var y = field.getBoundingClientRect().top + window.scrollY - topCover() - 8;
    window.scrollTo(0, Math.max(0, y));
    var input = field.querySelector("input:not([type=hidden]), select, textarea");
    if (input) { input.focus({ preventScroll: true }); }
  }
  /* An error line that clears while the player taps keeps its space (one line, kaiser.css) until
     the hand is saved: the rows below it stay under the finger. A class, not a style: the
     page's Content-Security-Policy drops the style attributes htmx puts back after a swap. */
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var old = e.detail.target, fresh = e.detail.fragment;
    if (fresh && fresh.nodeType === 11) { fresh = fresh.firstElementChild; }
    if (!old || !fresh || !old.classList || !old.classList.contains("field-error")) { return; }
    /* A live preview's line took no room (kaiser.css): there is none to keep. */
    if (old.classList.contains("live") && !old.classList.contains("kept")) { return; }
    /* On both: while htmx settles, the new line wears the old one's attributes for a moment. */
    if (old.getBoundingClientRect().height && fresh.classList) {
      old.classList.add("kept"); fresh.classList.add("kept");
    }
  });

  window.KaiserSteady = {
    lastSaid: lastSaid, flashTotals: flashTotals, retitle: retitle, firstField: firstField,
    toFault: toFault
  };
})();
