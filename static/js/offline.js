/* The offline page: the score sheets this phone keeps (the service worker's copies, the very
   ones that open with no signal), each by its heading in the copy and a link to it. A phone
   that logged out keeps none, so it lists none. */
(function () {
  "use strict";
  var CACHE = "kaiser-sheet-v1";
  var SHEET = /^\/games\/(\d+)\/$/;

  function heading(html, path) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var h1 = doc.querySelector("h1.sheet-title");
    if (!h1) { return [path, ""]; }
    var small = h1.querySelector("small");
    var sub = small ? small.textContent.replace(/\s+/g, " ").trim() : "";
    if (small) { small.remove(); }
    return [h1.textContent.replace(/\s+/g, " ").trim() || path, sub];
  }

  function list(games) {
    var ul = document.getElementById("offline-games"), none = document.getElementById("offline-none");
    if (!ul) { return; }
    ul.textContent = "";
    games.sort(function (a, b) { return b.id - a.id; }).forEach(function (g) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = g.path;
      a.className = "button secondary";  /* a thumb's target, as the sheet's buttons */
      /* One child: the button's flex box lays out the title and its line under it as text. */
      var span = document.createElement("span"), b = document.createElement("b");
      b.textContent = g.title;
      span.appendChild(b);
      if (g.sub) {
        var small = document.createElement("small");
        small.textContent = g.sub;
        span.appendChild(document.createTextNode(" "));
        span.appendChild(small);
      }
      a.appendChild(span);
      li.appendChild(a);
      ul.appendChild(li);
    });
    ul.hidden = !games.length;
    if (none) { none.hidden = games.length > 0; }
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.caches) { list([]); return; }
    caches.open(CACHE).then(function (cache) {
      return cache.keys().then(function (requests) {
        var sheets = requests.map(function (r) { return new URL(r.url).pathname; })
          .filter(function (path) { return SHEET.test(path); });
        return Promise.all(sheets.map(function (path) {
          return cache.match(path).then(function (hit) { return hit ? hit.text() : ""; })
            .then(function (html) {
              var h = heading(html, path);
              return { path: path, id: Number(SHEET.exec(path)[1]), title: h[0], sub: h[1] };
            });
        }));
      });
    }).then(list, function () { list([]); });
  });
})();
