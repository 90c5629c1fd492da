/* The table sheet's outbox: a hand whose sending fails waits in this phone's storage with its
   idempotency key and is sent again when the connection returns (the server answers a repeated
   key with "duplicate", so nothing is entered twice). Everything else is htmx. */
(function () {
  "use strict";
  var STORE = "kaiser-outbox";

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; }
  }
  function save(items) { localStorage.setItem(STORE, JSON.stringify(items)); }

  function uuid4() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var b = crypto.getRandomValues(new Uint8Array(16)), h = [];
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    for (var i = 0; i < 16; i++) { h.push((b[i] + 256).toString(16).slice(1)); }
    h = h.join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  function show() {
    var box = document.getElementById("outbox");
    if (!box) { return; }
    var items = load(), waiting = items.filter(function (i) { return !i.error; });
    var lines = [];
    if (waiting.length === 1) { lines.push(box.dataset.one); }
    if (waiting.length > 1) { lines.push(box.dataset.many.replace("__N__", waiting.length)); }
    items.filter(function (i) { return i.error; }).forEach(function (i) {
      lines.push(box.dataset.refused + " " + i.error);
    });
    box.textContent = lines.join(" · ");
    box.hidden = lines.length === 0;
  }

  function refresh() { document.body.dispatchEvent(new CustomEvent("kaiser:refresh")); }

  var sending = false;
  function flush() {
    var items = load().filter(function (i) { return !i.error; });
    if (sending || !items.length) { show(); return; }
    sending = true;
    var item = items[0];
    fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: item.body
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        var rest = load();
        var mine = rest.filter(function (i) { return i.key === item.key; })[0];
        if (r.status === 200 || r.status === 201) {
          rest = rest.filter(function (i) { return i.key !== item.key; });
        } else if (r.status === 409 || r.status === 422) {
          if (mine) {
            mine.error = data.error || Object.keys(data.errors || {}).map(function (k) {
              return k + ": " + data.errors[k].join(" ");
            }).join("; ") || String(r.status);
          }
        } else {
          throw new Error("server " + r.status);  /* keep it: try again later */
        }
        save(rest);
        sending = false;
        refresh();
        flush();
      });
    }).catch(function () { sending = false; show(); });
  }

  function queue(form, formData) {
    var key = form.elements.idempotency_key.value;
    var items = load();
    if (!items.some(function (i) { return i.key === key; })) {
      items.push({ key: key, url: form.getAttribute("action"), body: new URLSearchParams(formData).toString() });
      save(items);
    }
    /* The next hand gets its own key and number; the taps are cleared. */
    var number = form.elements.number;
    var next = number && number.value ? String(Number(number.value) + 1) : "";
    form.reset();
    form.elements.idempotency_key.value = uuid4();
    if (next) { number.value = next; }
    /* Until the server has the hand, this phone does not know the next dealer or totals. */
    var title = document.getElementById("entry-title"), preview = document.getElementById("preview");
    if (title && next) { title.textContent = title.dataset.next.replace("__N__", next); }
    form.querySelectorAll(".dealer-name, .totals").forEach(function (el) { el.hidden = true; });
    if (preview) { preview.textContent = ""; }
    show();
  }

  function isHandForm(e) { return e.detail.elt && e.detail.elt.id === "hand-form"; }

  /* Sending failed (no signal): keep the hand. */
  document.addEventListener("htmx:sendError", function (e) {
    if (isHandForm(e)) { queue(e.detail.elt, e.detail.requestConfig.formData); }
  });
  /* Hands still waiting go first: a later hand joins the queue behind them. */
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (isHandForm(e) && load().some(function (i) { return !i.error; })) {
      e.preventDefault();
      queue(e.detail.elt, e.detail.requestConfig.formData);
      flush();
    }
  });

  /* Drop a refused hand from the list once its message was read (tap on the notice). */
  document.addEventListener("click", function (e) {
    if (e.target && e.target.id === "outbox") {
      save(load().filter(function (i) { return !i.error; }));
      show();
    }
  });
  /* A kaiser needs the tricks of each seat: open that part of the form when one is tapped. */
  document.addEventListener("change", function (e) {
    var seats = document.getElementById("seat-tricks");
    if (seats && e.target.name === "kind" && e.target.value.indexOf("kaiser") === 0) {
      seats.open = true;
    }
  });
  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", flush);
  setInterval(flush, 5000);
})();
