/* The table sheet on the phone. Everything else is htmx; this file adds:
   - the outbox: a hand whose sending fails waits in this phone's storage with its idempotency key
     and is sent again when the connection returns (the server answers a repeated key with
     "duplicate", so nothing is entered twice);
   - the messages of the action bar: waiting (with a count), sent, refused, conflict. No answer is
     ever retried silently: a network failure or a server error keeps the hand and says so; any
     other refusal says why and what to do, and the hand is kept (and stops) or dropped;
   - after Save: the form's taps cleared (the answer brings the new row and the form's head
     only), back to the top of the form, the new row flashes;
   - Misdeal asks first;
   - the service worker (the sheet opens with no signal) and a fresh copy of the page for it.
   The texts come translated from the page (#sheet-texts, a JSON script tag). */
(function () {
  "use strict";
  var STORE = "kaiser-outbox";
  var SHELL = "kaiser-sheet-v1";
  var texts = {};
  var transient = null;  /* {kind, text}: "saved"/"sent" and refusals of a hand still in the form */
  /* What keeps the sheet still under the finger (steady.js); nothing if that file is missing. */
  var steady = window.KaiserSteady || {
    lastSaid: function () { return ""; }, flashTotals: function () {}, retitle: function () {},
    firstField: function () {}, toFault: function (el) { el.scrollIntoView({ block: "center" }); }
  };

  function t(name, n, code) {
    return (texts[name] || name).split("__N__").join(n === undefined ? "" : n)
      .split("__CODE__").join(code === undefined ? "" : code);
  }
  function load() {
    try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; }
  }
  function save(items) { localStorage.setItem(STORE, JSON.stringify(items)); }
  function mine(items) {
    var form = document.getElementById("hand-form");
    var url = form ? form.getAttribute("action") : location.pathname + "hands/";
    return items.filter(function (i) { return i.url === url; });
  }

  function uuid4() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var b = crypto.getRandomValues(new Uint8Array(16)), h = [];
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    for (var i = 0; i < 16; i++) { h.push((b[i] + 256).toString(16).slice(1)); }
    h = h.join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  function button(label, act, key) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "secondary"; b.textContent = label;
    b.dataset.act = act; if (key) { b.dataset.key = key; }
    return b;
  }
  function line(kind, text) {
    var p = document.createElement("p");
    p.className = "msg " + kind; p.textContent = text;
    return p;
  }

  /* The action bar's message area: the outbox first, then the last event. A message written by
     the server (a conflict shown by htmx) stays until the next render replaces the form. */
  function show() {
    var box = document.getElementById("bar-msg");
    if (!box) { return; }
    var items = mine(load()), waiting = items.filter(function (i) { return i.state === "waiting"; });
    box.querySelectorAll(".msg[data-js]").forEach(function (el) { el.remove(); });
    var lines = [];
    if (waiting.length) {
      var w = line("waiting", waiting.length === 1 ? t("waiting_one") : t("waiting_many", waiting.length));
      if (waiting.some(function (i) { return i.note; })) {
        w.textContent += " " + waiting.filter(function (i) { return i.note; })[0].note;
      }
      lines.push(w);
    }
    items.filter(function (i) { return i.state !== "waiting"; }).forEach(function (i) {
      var p = line("refused", i.note);
      if (i.link) {
        var a = document.createElement("a"); a.href = i.link; a.textContent = t("correct");
        p.appendChild(document.createTextNode(" ")); p.appendChild(a);
      }
      p.appendChild(document.createElement("br"));
      if (i.state === "stopped") { p.appendChild(button(t("retry"), "retry", i.key)); }
      p.appendChild(button(i.state === "stopped" ? t("discard") : t("ok"), "discard", i.key));
      lines.push(p);
    });
    if (transient) {
      var p = line(transient.kind, transient.text);
      if (transient.kind === "refused") { p.appendChild(document.createTextNode(" ")); p.appendChild(button(t("ok"), "dismiss")); }
      lines.push(p);
    }
    lines.forEach(function (p) { p.dataset.js = "1"; box.appendChild(p); });
    document.dispatchEvent(new CustomEvent("kaiser:outbox"));  /* pending.js draws the queue */
  }

  function refresh() { document.body.dispatchEvent(new CustomEvent("kaiser:refresh")); }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  /* What to do with an answer that is not a success: [state, message]. "waiting" keeps the hand
     and tries again later, "stopped" keeps it until the player says, "dropped" forgets it. */
  function judge(status, data, redirected, number) {
    var msg = data && data.message;
    if (redirected) { return ["stopped", t("signed_out")]; }
    if (status >= 500 || status === 429 || status === 408) {
      return ["waiting", msg || t(status === 429 ? "429" : "5xx", number, status)];
    }
    if (status === 403) {
      return ["stopped", msg || (data && data.status ? t("403") : t("csrf"))];
    }
    if (status === 409) {
      if (!msg && data && data.hand) {
        msg = t("conflict", data.hand.number).split("__WHO__").join(data.hand.entered_by || "?");
      }
      return ["dropped", msg || t("409")];
    }
    if (status === 404) { return ["dropped", msg || t("404")]; }
    if (status === 422) {
      var why = data && data.errors ? Object.keys(data.errors).map(function (k) {
        return data.errors[k].join(" ");
      }).join(" ") : "";
      return ["dropped", msg || (t("422") + (why ? " (" + why + ")" : ""))];
    }
    return ["dropped", msg || t("4xx", number, status)];
  }

  var sending = false;
  function flush() {
    var items = mine(load()).filter(function (i) { return i.state === "waiting"; });
    if (sending || !items.length || navigator.onLine === false) { show(); return; }
    sending = true;
    var item = items[0];
    var body = new URLSearchParams(item.body);
    body.set("csrfmiddlewaretoken", csrfToken());  /* a reloaded page has the current token */
    fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": csrfToken()
      },
      body: body.toString()
    }).then(function (r) {
      return r.json().catch(function () { return null; }).then(function (data) {
        var rest = load(), it = rest.filter(function (i) { return i.key === item.key; })[0];
        var ok = (r.status === 200 || r.status === 201) && data && !r.redirected;
        if (ok) {
          rest = rest.filter(function (i) { return i.key !== item.key; });
          transient = { kind: "sent", text: t("sent", data.number || item.number) };
        } else if (it) {
          var verdict = judge(r.status, data, r.redirected || (r.ok && !data), item.number);
          it.state = verdict[0]; it.note = verdict[1];
          if (r.status === 409 && data && data.hand && data.hand.number) {
            it.link = item.url.replace(/hands\/$/, "hands/" + data.hand.number + "/");
          }
        }
        save(rest);
        sending = false;
        show();
        refresh();
        if (ok) { flush(); }
      });
    }).catch(function () { sending = false; show(); });
  }

  function nextNumber(form) {
    var n = Number(form.elements.number.value) || 0;
    mine(load()).forEach(function (i) { if (i.state === "waiting" && i.number >= n) { n = i.number + 1; } });
    return n;
  }

  /* The form as the next hand after the waiting ones: its own key and number; the totals and
     the dealer are unknown until the server has the hands. */
  function nextHand(form, number) {
    form.elements.idempotency_key.value = uuid4();
    form.elements.number.value = String(number);
    var title = document.getElementById("entry-title"), preview = document.getElementById("preview");
    if (title) { title.textContent = title.dataset.next.replace("__N__", number); }
    form.querySelectorAll(".dealer-name, .totals").forEach(function (el) { el.hidden = true; });
    if (preview) { preview.textContent = ""; }
  }

  function queue(form, formData, note) {
    var key = form.elements.idempotency_key.value;
    var number = Number(form.elements.number.value) || 0;
    var items = load();
    if (!items.some(function (i) { return i.key === key; })) {
      items.push({
        key: key, number: number, url: form.getAttribute("action"), state: "waiting",
        note: note || "", body: new URLSearchParams(formData).toString()
      });
      save(items);
    }
    var seat = form.elements.entered_as ? form.elements.entered_as.value : "";
    form.reset();
    if (form.elements.entered_as) { form.elements.entered_as.value = seat; }
    nextHand(form, number + 1);
    transient = null;
    show();
    toFormTop();
  }

  function toFormTop() {
    var form = document.getElementById("hand-form");
    if (!form) { return; }
    window.scrollTo(0, Math.max(0, form.getBoundingClientRect().top + window.scrollY - 4));
  }

  function isHandForm(e) { return e.detail.elt && e.detail.elt.id === "hand-form"; }

  /* Sending failed (no signal): keep the hand. */
  document.addEventListener("htmx:sendError", function (e) {
    if (isHandForm(e)) { queue(e.detail.elt, e.detail.requestConfig.formData); }
  });
  var pending = null;  /* the number of the hand being saved by htmx */
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (!isHandForm(e)) { return; }
    /* Hands still waiting go first: a later hand joins the queue behind them. */
    if (mine(load()).some(function (i) { return i.state === "waiting"; }) || navigator.onLine === false) {
      e.preventDefault();
      queue(e.detail.elt, e.detail.requestConfig.formData);
      flush();
      return;
    }
    pending = Number(e.detail.elt.elements.number.value);
  });
  /* A refusal htmx does not swap (403, 409, 5xx...): say it; the taps stay in the form, or a
     server error queues the hand to be tried again. */
  document.addEventListener("htmx:responseError", function (e) {
    if (!isHandForm(e)) { return; }
    pending = null;
    var xhr = e.detail.xhr, data = null;
    try { data = JSON.parse(xhr.responseText); } catch (err) { data = null; }
    var verdict = judge(xhr.status, data, false, e.detail.elt.elements.number.value);
    if (verdict[0] === "waiting") {
      queue(e.detail.elt, e.detail.requestConfig.formData, verdict[1]);
      return;
    }
    transient = { kind: "refused", text: verdict[1] };
    show();
  });
  /* A saved hand's answer brings its row and the form's head (number, key, dealer, totals),
     not the tap fields: they are cleared here, and the auction's seats put in the new dealer's
     order (#entry-head's data-auction). A form the server drew again whole is blank already. */
  function blankForm(form) {
    var seat = form.elements.entered_as ? form.elements.entered_as.value : "";
    form.reset();
    if (form.elements.entered_as) { form.elements.entered_as.value = seat; }
    form.querySelectorAll("details.more[open]").forEach(function (d) { d.open = false; });
    var preview = document.getElementById("preview");
    if (preview) {
      if (window.htmx) { htmx.trigger(preview, "htmx:abort"); }  /* a preview of the saved hand */
      preview.textContent = "";
    }
    form.querySelectorAll(".field-error").forEach(function (el) {
      el.textContent = ""; el.classList.remove("kept");
    });
    var head = document.getElementById("entry-head"), box = document.getElementById("auction-seats");
    if (head && box && head.dataset.auction) {
      head.dataset.auction.split(" ").forEach(function (seat) {
        var label = box.querySelector('label[data-seat="' + seat + '"]');
        if (label) { box.appendChild(label); }
      });
    }
  }

  /* An answer of rows (a poll's, a saved hand's) adds the rows after those the sheet showed
     when it was asked; another answer may have added them meanwhile (a poll crossing a save).
     Such a late answer is dropped, and the sheet asks again with what it shows now. A whole
     sheet (HX-Reswap) replaces everything and is never late. */
  document.addEventListener("htmx:beforeSwap", function (e) {
    var config = e.detail.requestConfig, xhr = e.detail.xhr;
    if (!config || !config.elt || !xhr || xhr.status !== 200 || xhr.getResponseHeader("HX-Reswap")) { return; }
    if (config.elt.id !== "sheet-state" && config.elt.id !== "hand-form") { return; }
    var seen = document.getElementById("sheet-seen"), sent = config.parameters || {};
    if (!seen || sent.n === undefined) { return; }
    var now = seen.querySelector("input[name=n]").value + " " + seen.querySelector("input[name=h]").value;
    if (now !== sent.n + " " + sent.h) {
      e.detail.shouldSwap = false;
      refresh();
    }
  });

  /* A hidden page (another app open, the phone locked) skips its polls; shown again, it asks
     at once. */
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (document.hidden && e.detail.elt && e.detail.elt.id === "sheet-state") { e.preventDefault(); }
  });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { refresh(); } });

  /* The fixed bar may grow with its message: the field at fault must end above it. */
  function aboveBar(el) {
    var bar = document.getElementById("action-bar");
    if (!el || !bar) { return; }
    var over = el.getBoundingClientRect().bottom + 8 - bar.getBoundingClientRect().top;
    if (over > 0) { window.scrollBy(0, over); }
  }
  document.addEventListener("htmx:afterSettle", function (e) {
    var form = document.getElementById("hand-form");
    var wrong = null;
    /* Only the answer to the hand form settles its hand (a preview answered late does not). */
    var config = e.detail.requestConfig;
    if (pending !== null && config && config.elt && config.elt.id === "hand-form") {
      var saved = !form || Number(form.elements.number.value) > pending;
      var row = document.getElementById("hand-" + pending);
      if (saved && row && !document.querySelector("#bar-msg .refused")) {
        row.classList.remove("flash"); void row.offsetWidth; row.classList.add("flash");
        transient = { kind: "sent", text: steady.lastSaid(pending) || t("saved", pending) };
        steady.flashTotals();
        keepShell();
      }
      if (saved && form) { blankForm(form); }
      pending = null;
      wrong = saved ? null : document.querySelector("#entry .field-error:not(:empty), #entry .errorlist");
      if (wrong) { steady.toFault(wrong); } else { toFormTop(); steady.firstField(); }
    }
    if (config && config.elt && config.elt.classList && config.elt.classList.contains("undo")) {
      /* The bar says what was taken back (the last "saved" would be wrong now). */
      transient = { kind: "sent", text: config.elt.dataset.done || "" };
      steady.flashTotals();
    }
    steady.retitle();
    if (form && mine(load()).some(function (i) { return i.state === "waiting"; })) {
      var n = nextNumber(form);
      if (n !== Number(form.elements.number.value)) { nextHand(form, n); }
    }
    show();
    aboveBar(wrong);
  });

  document.addEventListener("click", function (e) {
    var el = e.target;
    if (!el || !el.dataset) { return; }
    /* Misdeal asks first: the tapped hand stays if the answer is no. */
    if (el.classList.contains("misdeal") && el.dataset.confirm && !window.confirm(el.dataset.confirm)) {
      e.preventDefault();
      return;
    }
    if (el.dataset.act === "discard") {
      save(load().filter(function (i) { return i.key !== el.dataset.key; }));
      show();
    } else if (el.dataset.act === "retry") {
      var items = load();
      items.forEach(function (i) { if (i.key === el.dataset.key) { i.state = "waiting"; i.note = ""; } });
      save(items);
      flush();
    } else if (el.dataset.act === "dismiss") {
      transient = null;
      show();
    }
  });
  /* A kaiser needs the tricks of each seat: open that part of the form when one is tapped. */
  document.addEventListener("change", function (e) {
    var seats = document.getElementById("seat-tricks");
    if (seats && e.target.name === "kind" && e.target.value.indexOf("kaiser") === 0) {
      seats.open = true;
    }
    if (transient && transient.kind === "sent") { transient = null; show(); }
  });

  /* The sheet as last seen, for the service worker to show when there is no signal. */
  function keepShell() {
    if (!window.caches || navigator.onLine === false) { return; }
    caches.open(SHELL).then(function (cache) { return cache.add(location.pathname); }).catch(function () {});
  }

  document.addEventListener("DOMContentLoaded", function () {
    var el = document.getElementById("sheet-texts");
    try { texts = JSON.parse(el.textContent); } catch (err) { texts = {}; }
    var form = document.getElementById("hand-form");
    if (form) {
      /* A copy of the page from the cache may carry a key already spent: always a fresh one. */
      form.elements.idempotency_key.value = uuid4();
      var n = nextNumber(form);
      if (n !== Number(form.elements.number.value)) { nextHand(form, n); }
    }
    /* A hand stopped by a refusal gets one new try per page load (the page has a fresh token). */
    var items = load();
    items.forEach(function (i) { if (i.state === "stopped") { i.state = "waiting"; } });
    save(items);
    if ("serviceWorker" in navigator && document.body.dataset.sw) {
      navigator.serviceWorker.register(document.body.dataset.sw, { scope: "/" }).catch(function () {});
    }
    if (navigator.onLine !== false) { keepShell(); }
    flush();
  });
  window.addEventListener("online", flush);
  setInterval(flush, 5000);
})();
