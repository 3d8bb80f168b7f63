/* Scorekeeper's service worker (README, "With no signal"), registered by offline.js from
   /sw.js (which sets self.SCOREKEEPER: the release and the files a game page needs): keeps
   a copy of each game page opened and of its files, answers with them when the network
   does not, and sends the deals kept on the phone by Background Sync (queue.js). */
/* global ScorekeeperQueue */
(function () {
  "use strict";
  var config = self.SCOREKEEPER;
  var FILES = "scorekeeper-files-" + config.version;
  var PAGES = "scorekeeper-pages";
  var GAME_PAGE = /^\/g\/\d+\/$/;

  // An install whose files have not all come within this time fails (a request the network
  // dropped without a word): the page then registers the worker again (offline.js), which
  // waits a little longer than this.
  var INSTALL_MS = 45000;
  self.addEventListener("install", function (event) {
    var late = new Promise(function (resolve, reject) {
      setTimeout(function () { reject(new Error("the files did not all come")); }, INSTALL_MS);
    });
    event.waitUntil(Promise.race([
      caches.open(FILES).then(function (cache) { return cache.addAll(config.assets); }), late,
    ]).then(function () { return self.skipWaiting(); }));
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("scorekeeper-files-") === 0 && name !== FILES;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); }));
  });

  function page(request, path) {
    return fetch(request).then(function (response) {
      if (response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(PAGES).then(function (cache) { return cache.put(path, copy); });
      }
      return response;
    }).catch(function () {
      return caches.open(PAGES).then(function (cache) {
        return cache.match(path, { ignoreVary: true, ignoreSearch: true });
      }).then(function (copy) { return copy || Response.error(); });
    });
  }

  function file(request) {
    return caches.match(request, { ignoreVary: true }).then(function (copy) {
      return copy || fetch(request).then(function (response) {
        if (response.ok) {
          var kept = response.clone();
          caches.open(FILES).then(function (cache) { return cache.put(request, kept); });
        }
        return response;
      });
    });
  }

  self.addEventListener("fetch", function (event) {
    var request = event.request;
    if (request.method !== "GET") return;
    var url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    if (request.mode === "navigate" && GAME_PAGE.test(url.pathname)) {
      event.respondWith(page(request, url.pathname));
    } else if (url.pathname.indexOf("/static/") === 0) {
      event.respondWith(file(request));
    }
  });

  self.addEventListener("sync", function (event) {
    var match = /^deals-(\d+)$/.exec(event.tag);
    if (!match) return;
    var game = parseInt(match[1], 10);
    event.waitUntil(ScorekeeperQueue.flush(game, null, {}).then(function () {
      return self.clients.matchAll({ type: "window" });
    }).then(function (windows) {
      windows.forEach(function (client) { client.postMessage({ synced: game }); });
    }));
  });

  // A game page asks for its copy to be brought up to date (on opening, after its deals were
  // sent), and is answered on the port it sends whether that was done ({kept: true|false}).
  self.addEventListener("message", function (event) {
    var path = event.data && event.data.keep;
    if (typeof path !== "string" || !GAME_PAGE.test(path)) return;
    var reply = event.ports && event.ports[0];
    // and under this worker's control, when its load went past it (a hard reload, or a load
    // during the worker's activation, which its claim then missed)
    event.waitUntil(self.clients.claim());
    event.waitUntil(fetch(path, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok || response.redirected) return false;
        return caches.open(PAGES).then(function (cache) { return cache.put(path, response); })
          .then(function () { return true; });
      })
      .catch(function () { return false; /* no connection: the copy stays as it was */ })
      .then(function (kept) { if (reply) reply.postMessage({ kept: kept }); }));
  });
})();
