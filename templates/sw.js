{% load static %}/* Kaiser League's service worker (served at /sw.js so that it may control the whole site).
   The score sheet opens with no signal: each sheet page (and the files it needs) is kept as it
   was last seen, and served from here when the network is gone. Any other page asked with no
   signal gets the offline page, which lists the sheets kept here. Only GET requests are kept:
   hands are never sent by this worker (the page's outbox sends them, once, by their key). */
"use strict";
var CACHE = "kaiser-sheet-v1";
var OFFLINE = "{% url 'offline' %}";
var SHELL = [
  "{% static 'css/kaiser.css' %}",
  "{% static 'js/steady.js' %}",
  "{% static 'js/textsize.js' %}",
  "{% static 'js/sheet.js' %}",
  "{% static 'js/pending.js' %}",
  "{% static 'js/offline.js' %}",
  "{% static 'django_htmx/htmx-2.min.js' %}",
  "{% static 'django_htmx/django-htmx.js' %}",
  "{% static 'manifest.webmanifest' %}",
  "{% static 'icons/icon.svg' %}"
];
var STATIC = "{% get_static_prefix %}";
var SHEET = /^\/games\/\d+\/$/;
var LOGOUT = "{% url 'logout' %}";
/* Bumped at each logout: an answer asked before it (the last person's page) is never kept. */
var generation = 0;

/* The offline page as the person signed in now sees it (in their language, in the site's
   frame); a redirect (to the login page) or an error keeps nothing. */
function keepOffline(cache) {
  var asked = generation;
  return fetch(OFFLINE, { credentials: "same-origin" }).then(function (response) {
    if (response.ok && !response.redirected && asked === generation) {
      return cache.put(OFFLINE, response);
    }
    return null;
  }).catch(function () { return null; });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(SHELL).then(function () { return keepOffline(cache); });
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("kaiser-") === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function fromNetworkKeeping(request, key) {
  var asked = generation;
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected && response.type === "basic" && asked === generation) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) {
        /* Checked again: a logout may have come while the cache was opening. */
        if (asked === generation) { return cache.put(key, copy); }
        return null;
      });
    }
    return response;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method === "POST" && url.origin === self.location.origin && url.pathname === LOGOUT) {
    /* Logging out: the kept sheets were this person's; the next one on this phone must not see
       them. The request itself goes to the network as it is; the next page opened keeps the
       offline page again, as whoever is signed in then sees it. */
    event.waitUntil(forget());
    return;
  }
  if (request.method !== "GET") { return; }
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate" && SHEET.test(url.pathname)) {
    /* The sheet: the network first (the latest state), the last copy when there is none. */
    event.respondWith(fromNetworkKeeping(request, url.pathname).catch(function () {
      return caches.match(url.pathname).then(function (hit) {
        return hit || caches.match(OFFLINE);
      }).then(function (hit) { return hit || Response.error(); });
    }));
  } else if (request.mode === "navigate") {
    /* Any other page (home, a club): the network only; with no signal, the offline page. */
    event.respondWith(fetch(request).then(function (response) {
      /* None kept (this phone just logged out): keep the one for whoever is here now. */
      if (response.ok) {
        event.waitUntil(caches.match(OFFLINE).then(function (hit) {
          return hit || caches.open(CACHE).then(keepOffline);
        }));
      }
      return response;
    }, function () {
      return caches.match(OFFLINE).then(function (hit) { return hit || Response.error(); });
    }));
  } else if (url.pathname.indexOf(STATIC) === 0) {
    /* Files: the kept copy at once, refreshed behind it (names without a hash change in place). */
    event.respondWith(caches.match(request).then(function (hit) {
      var fresh = fromNetworkKeeping(request, request);
      if (hit) {
        event.waitUntil(fresh.catch(function () { return null; }));
        return hit;
      }
      return fresh;
    }));
  }
});

/* Forget every kept page and file (a logout): answers still on their way are not kept either. */
function forget() {
  generation += 1;
  return caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("kaiser-") === 0; })
      .map(function (k) { return caches.delete(k); }));
  });
}
