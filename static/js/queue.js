/* Scorekeeper: the deals a phone keeps until the server has them, and their sending.
   Used by the game page (offline.js) and by the service worker (Background Sync).

   A deal saved on the game page is kept first in IndexedDB (database "scorekeeper", store
   "deals", one record per deal by its idempotency key): it outlives a reload, a closed tab
   and a phone that sleeps. It is then sent as the entry form would send it, with its key, so
   a deal sent twice (an answer lost on the way) is recorded once. The deals of a game go in
   the order of their numbers, one at a time, and stop at the first the server refuses or
   finds recorded by another phone: the deals after it wait until the player has dealt with
   it. The answer's Deal-Outcome header says how a save ended (scorekeeper/pages/game_views.py).

   Plain code rather than a library: the store needs get-all, put and delete, a few lines. */
(function (scope) {
  "use strict";
  var DATABASE = "scorekeeper", STORE = "deals";
  var WAIT_MS = 20000; // a request with no answer by then is taken as lost

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(request.result); };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  // The deals kept for a game, by deal number (the order they are sent in).
  function kept(game) {
    return run("readonly", function (store) { return store.getAll(); }).then(function (items) {
      return items.filter(function (item) { return item.game === game; })
        .sort(function (a, b) { return a.number - b.number || a.kept - b.kept; });
    });
  }

  function keep(item) { return run("readwrite", function (store) { return store.put(item); }); }
  function drop(key) { return run("readwrite", function (store) { return store.delete(key); }); }

  // Send one deal; resolves with {outcome, html}, rejects when no answer came back (no
  // connection, a request cut off, a server that did not say how the save ended).
  function ask(url, options) {
    var stop = new AbortController();
    var timer = setTimeout(function () { stop.abort(); }, WAIT_MS);
    options.signal = stop.signal;
    options.credentials = "same-origin";
    options.cache = "no-store";
    return fetch(url, options).finally(function () { clearTimeout(timer); });
  }

  function send(item, csrf) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && csrf ? csrf : pair[1]);
    });
    return ask(item.save, {
      method: "POST",
      body: body,
      headers: { "HX-Request": "true", "X-CSRFToken": csrf || item.csrf },
    }).then(function (response) {
      var outcome = response.headers.get("Deal-Outcome");
      if (!outcome) throw new Error("the save had no answer (" + response.status + ")");
      return response.text().then(function (html) { return { outcome: outcome, html: html }; });
    });
  }

  // Whether the server recorded a deal with this key (a send whose answer never came back):
  // true, false, or a rejection when it cannot be asked.
  function recorded(item) {
    var url = item.byKey.replace("KEY", encodeURIComponent(item.key));
    return ask(url, { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 200) return true;
        if (response.status === 404) return false;
        throw new Error("the server answered " + response.status);
      });
  }

  // Send a game's waiting deals in order. hooks.answer(item, answer) hears each answer (its
  // html is null for a deal found recorded by its key), and
  // shows the player a refusal or a collision (without it, such a deal stays waiting).
  // Resolves "done" once none waits, "stopped" at a deal that needs the player; rejects
  // when the connection failed (what was not answered stays kept).
  function flush(game, csrf, hooks) {
    var work = function () {
      return kept(game).then(function (items) {
        var i = 0;
        function next() {
          var item = items[i++];
          if (!item) return "done";
          if (item.state !== "waiting") return "stopped";
          if (hooks.sending) hooks.sending(item);
          // Sent before with no answer: recorded then, perhaps; asked first, by its key.
          var before = item.sent ? recorded(item) : Promise.resolve(false);
          item.sent = true;
          return before.then(function (known) {
            if (known) return { outcome: "saved", html: null };
            return keep(item).then(function () { return send(item, csrf); });
          }).then(function (answer) {
            var settled = answer.outcome === "saved" || answer.outcome === "not-saved";
            if (settled) {
              return drop(item.key).then(function () {
                if (hooks.answer) hooks.answer(item, answer);
                return answer.outcome === "saved" ? next() : "stopped";
              });
            }
            // Refused, or recorded by another phone: for the player to see (a sender with
            // nobody to show it, the service worker, leaves it waiting for the page).
            if (!hooks.answer) return "stopped";
            item.state = answer.outcome;
            return keep(item).then(function () {
              if (hooks.answer) hooks.answer(item, answer);
              return "stopped";
            });
          });
        }
        return next();
      });
    };
    // One sender at a time for a game, across tabs and the service worker.
    var locks = scope.navigator && scope.navigator.locks;
    return locks ? locks.request("scorekeeper-deals-" + game, work) : work();
  }

  scope.ScorekeeperQueue = { kept: kept, keep: keep, drop: drop, flush: flush };
})(self);
