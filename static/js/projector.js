/* The projector on the hall's wall: every row reaches the wall.
 *
 * The server sends the night in screenfuls (#board, one panel: the seating or a page of the
 * standings) sized for rows of one line. When long names make a screenful taller than the
 * screen, this splits it into parts that fit (each the longest run of [data-fit] items, from
 * where the last part ended, that leaves nothing below or beside the screen), shows each for
 * data-seconds, then asks htmx for the next panel (hx-trigger="projector-next"). Without
 * JavaScript the page's <noscript> refresh and its links step the panels instead.
 */
(function () {
  "use strict";

  var timer = null;
  var running = null; // the #board being shown
  var screenfuls = 0; // shown since the page loaded, marked on the board (data-shown)

  function fits() {
    var doc = document.documentElement;
    return doc.scrollHeight <= window.innerHeight && doc.scrollWidth <= window.innerWidth;
  }

  // [start, end) of each part: the items from start on are tried, the last one dropped until
  // the screen holds them (a single item too tall for the screen is a part of its own).
  function split(items) {
    var parts = [];
    var start = 0;
    while (start < items.length) {
      var end = items.length;
      items.forEach(function (item, index) { item.hidden = index < start; });
      while (end - start > 1 && !fits()) {
        end -= 1;
        items[end].hidden = true;
      }
      parts.push([start, end]);
      start = end;
    }
    return parts;
  }

  function show(board, items, parts, index) {
    var part = parts[index];
    items.forEach(function (item, i) { item.hidden = i < part[0] || i >= part[1]; });
    var label = board.querySelector("[data-part]");
    if (label) {
      label.textContent = parts.length > 1 ? "(" + (index + 1) + "/" + parts.length + ")" : "";
    }
    screenfuls += 1;
    board.setAttribute("data-shown", String(screenfuls));
  }

  function next(board) {
    if (window.htmx) {
      window.htmx.trigger(board, "projector-next");
    } else {
      window.location.search = board.getAttribute("data-next");
    }
  }

  function start() {
    var board = document.getElementById("board");
    window.clearTimeout(timer);
    running = board;
    if (!board) {
      return;
    }
    var seconds = parseInt(board.getAttribute("data-seconds"), 10) || 15;
    var items = Array.prototype.slice.call(board.querySelectorAll("[data-fit]"));
    var parts = items.length ? split(items) : [[0, 0]];
    var index = 0;
    show(board, items, parts, index);
    function tick() {
      index += 1;
      if (index < parts.length) {
        show(board, items, parts, index);
      } else {
        // Asked again every period until the next panel replaces this one (a missed
        // request, the server restarting, must not freeze the wall).
        next(board);
      }
      timer = window.setTimeout(tick, seconds * 1000);
    }
    timer = window.setTimeout(tick, seconds * 1000);
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(start, 250);
  });
  // htmx has put the next panel in place of the last one.
  document.addEventListener("htmx:afterSettle", function () {
    if (document.getElementById("board") !== running) {
      start();
    }
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
