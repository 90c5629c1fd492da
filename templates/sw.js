{% load static %}/* Kaiser League's service worker (served at /sw.js so that it may control the whole site).
   The score sheet opens with no signal: each sheet page (and the files it needs) is kept as it
   was last seen, and served from here when the network is gone. Only GET requests are touched:
   hands are never sent by this worker (the page's outbox sends them, once, by their key). */
"use strict";
var CACHE = "kaiser-sheet-v1";
var SHELL = [
  "{% static 'css/kaiser.css' %}",
  "{% static 'js/sheet.js' %}",
  "{% static 'django_htmx/htmx-2.min.js' %}",
  "{% static 'django_htmx/django-htmx.js' %}",
  "{% static 'manifest.webmanifest' %}",
  "{% static 'icons/icon.svg' %}"
];
var STATIC = "{% get_static_prefix %}";
var SHEET = /^\/games\/\d+\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("kaiser-") === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function fromNetworkKeeping(request, key) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(key, copy); });
    }
    return response;
  });
}

var LOGOUT = "{% url 'logout' %}";

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method === "POST" && url.origin === self.location.origin && url.pathname === LOGOUT) {
    /* Logging out: the kept sheets were this person's; the next one on this phone must not see
       them. The request itself goes to the network as it is. */
    event.waitUntil(caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k.indexOf("kaiser-") === 0; })
        .map(function (k) { return caches.delete(k); }));
    }));
    return;
  }
  if (request.method !== "GET") { return; }
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate" && SHEET.test(url.pathname)) {
    /* The sheet: the network first (the latest state), the last copy when there is none. */
    event.respondWith(fromNetworkKeeping(request, url.pathname).catch(function () {
      return caches.match(url.pathname).then(function (hit) {
        return hit || Response.error();
      });
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
