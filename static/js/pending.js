/* The sheet with no signal: the hands waiting in this phone's outbox (kept by sheet.js) shown
   as pending rows under the sheet's rows, with what was entered and no score (only the server
   scores a hand: the row is replaced by the server's own once the hand is sent), and who deals
   the next hand and who bids first.

   Who deals is no score, and the engine's rule for it is a plain rotation whatever the
   rules (scorecards/rules/scoring.py): after a scored hand the deal passes left, a hand thrown
   in (the Misdeal button; every seat passing is recorded so too) is dealt again by the same
   dealer. The page says the seats in the order of the current hand's auction (#entry-head's
   data-auction, the dealer last), so each waiting hand moves the deal on by one seat, or none.
   Nothing is guessed past a hand that a refusal stopped (it may be discarded or entered
   again): there the next dealer is "when the signal returns". A waiting hand may end the game;
   only the server knows (it scores), and its answer then shows the end.

   It also keeps the offline page (the service worker shows it for any page asked with no
   signal) as the person signed in sees it now. Texts come translated from this script's
   data attributes. */
(function () {
  "use strict";
  var STORE = "kaiser-outbox";
  var CACHE = "kaiser-sheet-v1";
  var me = document.currentScript;
  var conf = me ? me.dataset : {};

  function outbox() {
    var form = document.getElementById("hand-form");
    var items;
    try { items = JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { items = []; }
    if (!form) { return []; }
    var url = form.getAttribute("action");
    /* Dropped hands are gone; waiting ones and ones stopped by a refusal may still be sent. */
    return items.filter(function (i) { return i.url === url && i.state !== "dropped"; })
      .sort(function (a, b) { return a.number - b.number; });
  }

  /* The label of `name`=`value` as the form shows it (a seat's or a side's name, a kind). */
  function label(name, value) {
    if (value === null || value === "") { return ""; }
    var input = document.querySelector('#hand-form input[name="' + name + '"][value="' + value + '"]');
    var span = input && input.parentNode.querySelector("span");
    return span ? span.textContent.trim() : "";
  }
  function defaultKind() {
    var first = document.querySelector('#hand-form input[name="kind"]');
    return first ? first.value : "";
  }

  /* As the server reads a hand's thrown_in (scorecards/handform.py: TRUE_VALUES). */
  function thrownIn(body) {
    var v = (new URLSearchParams(body).get("thrown_in") || "").trim().toLowerCase();
    return ["1", "on", "true", "yes"].indexOf(v) >= 0;
  }

  /* What was entered, in words: [bid cell, the rest]. */
  function entries(body) {
    var p = new URLSearchParams(body);
    if (thrownIn(body)) { return [conf.misdeal || "", ""]; }
    var bid = [label("bidder", p.get("bidder")), p.get("bid") || ""];
    var kind = p.get("kind");
    if (kind && kind !== defaultKind()) { bid.push(label("kind", kind) || kind); }
    var rest = [];
    var tricks = p.get("tricks_bidder");
    if (tricks === null) {
      tricks = [p.get("tricks_0"), p.get("tricks_1"), p.get("tricks_2")]
        .filter(function (v) { return v !== null && v !== ""; }).join("–");
    }
    if (tricks) { rest.push((conf.tricks || "__N__").split("__N__").join(tricks)); }
    var five = label("five_hearts", p.get("five_hearts"));
    var three = label("three_spades", p.get("three_spades"));
    if (five) { rest.push("5♥ " + five); }
    if (three) { rest.push("3♠ " + three); }
    return [bid.filter(Boolean).join(" "), rest.join(" · ")];
  }

  /* The seats in dealing order from the current dealer: [dealer, left of the dealer, ...]. */
  function rotation() {
    var head = document.getElementById("entry-head");
    var order = head && head.dataset.auction ? head.dataset.auction.split(" ") : [];
    if (!order.length) { return []; }
    return [order[order.length - 1]].concat(order.slice(0, -1));
  }

  function cell(text, cls) {
    var td = document.createElement("td");
    if (cls) { td.className = cls; }
    td.textContent = text;
    return td;
  }

  function render() {
    var rows = document.getElementById("sheet-rows");
    var old = document.getElementById("pending-rows");
    if (old) { old.remove(); }
    var next = document.getElementById("pending-next");
    if (next) { next.remove(); }
    var items = outbox();
    var empty = document.getElementById("no-hands");
    if (empty) { empty.hidden = items.length > 0; }
    if (!rows || !items.length) { return; }
    var order = rotation(), seats = order.length;
    var at = 0, known = seats > 0;
    var sides = rows.closest("table").querySelectorAll("thead th").length - 3;
    var body = document.createElement("tbody");
    body.id = "pending-rows";
    items.forEach(function (item) {
      var said = entries(item.body);
      var tr = document.createElement("tr");
      tr.id = "pending-" + item.number;
      tr.className = "pending";
      tr.appendChild(cell(String(item.number), "num"));
      tr.appendChild(cell(known ? label("bidder", order[at % seats]) : "?"));
      tr.appendChild(cell(said[0]));
      var rest = cell(said[1], "pending-entries");
      rest.colSpan = Math.max(1, sides);
      var mark = document.createElement("em");
      mark.className = "pending-mark";
      mark.textContent = conf.pending || "";
      if (said[1]) { rest.appendChild(document.createElement("br")); }
      rest.appendChild(mark);
      tr.appendChild(rest);
      body.appendChild(tr);
      /* A misdeal is dealt again by the same dealer; any other hand moves the deal on; a
         hand stopped by a refusal may never count. */
      if (item.state !== "waiting") { known = false; }
      if (!thrownIn(item.body)) { at += 1; }
    });
    rows.parentNode.insertBefore(body, rows.nextSibling);
    var head = document.getElementById("entry-head");
    if (head) {
      var p = document.createElement("p");
      p.id = "pending-next";
      p.className = "pending-next";
      p.textContent = known
        ? (conf.next || "").split("__DEALER__").join(label("bidder", order[at % seats]))
          .split("__BIDDER__").join(label("bidder", order[(at + 1) % seats]))
        : (conf.unknown || "");
      head.parentNode.insertBefore(p, head.nextSibling);
    }
  }

  /* The offline page in this person's language and frame, for the service worker. */
  function keepOffline() {
    if (!window.caches || !conf.offline || navigator.onLine === false) { return; }
    caches.open(CACHE).then(function (cache) { return cache.add(conf.offline); }).catch(function () {});
  }

  document.addEventListener("kaiser:outbox", render);
  document.addEventListener("htmx:afterSettle", render);
  document.addEventListener("DOMContentLoaded", function () { render(); keepOffline(); });
})();
