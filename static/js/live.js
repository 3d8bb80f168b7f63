/* Scorekeeper live pages: every phone at a table current, without a reload.
   An element with data-live (the game section, the dashboard's round status) asks its URL
   about once a second, while the page is visible, with the ETag it was rendered with: a 304
   means nothing moved. When the version moves on:
   - a game page fetches its section again and swaps it in, keeping what was tapped in the
     entry form when it is still for the same deal; if that deal was recorded meanwhile by
     another phone, the server shows what was recorded beside this phone's entry;
   - the dashboard's part comes back with the answer itself (or a reload when the round
     moved on).
   Back/Forward from the browser's page cache checks at once. While deals kept on the phone
   are waiting to be sent (offline.js), their answers show the game instead. */
(function () {
  "use strict";
  var POLL_MS = 1000;
  var timer = null;
  var busy = false;

  function live() { return document.querySelector("[data-live]"); }

  function schedule(delay) {
    clearTimeout(timer);
    timer = null;
    if (document.hidden || !live()) return;
    timer = setTimeout(check, delay === undefined ? POLL_MS : delay);
  }

  function get(url, headers) {
    return fetch(url, { headers: headers || {}, cache: "no-store", credentials: "same-origin" });
  }

  function check() {
    var el = live();
    if (!el) return;
    if (busy) { schedule(); return; }
    busy = true;
    var sent = el.getAttribute("data-etag") || "";
    var fragment = el.getAttribute("data-live-swap") === "fragment";
    get(el.getAttribute("data-live"), { "If-None-Match": sent, "HX-Request": "true" })
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.status === 404 || response.status === 403) {
          location.reload(); // access gone (a revoked table link): the page says so
          return null;
        }
        if (response.status !== 200) return null;
        if (response.headers.get("HX-Refresh") === "true") { location.reload(); return null; }
        if (fragment) {
          return response.text().then(function (html) { swapFragment(el, html); });
        }
        var tag = response.headers.get("ETag");
        return tag && tag !== sent ? refresh(el) : null;
      })
      .catch(function () { /* no connection: ask again later */ })
      .then(function () { busy = false; schedule(); });
  }

  function parse(html, selector) {
    var box = document.createElement("template");
    box.innerHTML = html;
    return box.content.querySelector(selector);
  }

  // A confirm step opened (e.g. "Take back publishing…") stays open across the swap.
  function swapFragment(el, html) {
    var fresh = parse(html, "#" + el.id);
    if (!fresh) return;
    var open = {};
    el.querySelectorAll("details[open] > summary").forEach(function (s) { open[s.textContent] = 1; });
    fresh.querySelectorAll("details > summary").forEach(function (s) { if (open[s.textContent]) s.parentNode.open = true; });
    el.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
  }

  // --- The game section ---------------------------------------------------------------------

  var PLUMBING = { csrfmiddlewaretoken: 1, number: 1, idempotency_key: 1 };

  // What the person tapped in the entry form (names of inputs changed by hand).
  document.addEventListener("change", function (event) {
    var input = event.target;
    var form = input && input.closest && input.closest("form[data-entry]");
    if (!form || !input.name || PLUMBING[input.name] || !form.closest("#game")) return;
    form.tapped = form.tapped || {};
    form.tapped[input.name] = true;
  }, true);

  function tapped(form) { return form && form.tapped ? Object.keys(form.tapped) : []; }

  // A bid kept on the server is the table's: another phone's change to it shows here.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt, config = event.detail.requestConfig;
    if (!event.detail.successful || !elt || !elt.classList || !elt.classList.contains("bids")) return;
    var form = elt.closest("form[data-entry]");
    if (!form || !form.tapped || !config) return;
    var sent = config.formData || null;
    Object.keys(form.tapped).forEach(function (name) {
      if (!elt.querySelector('[name="' + name + '"]')) return;
      var value = sent ? sent.get(name) : (config.parameters || {})[name];
      if (value !== undefined && value === valueOf(form, name)) delete form.tapped[name];
    });
  });

  function valueOf(form, name) {
    var inputs = form.querySelectorAll('[name="' + name + '"]');
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i];
      if (input.type === "radio") { if (input.checked) return input.value; } else return input.value;
    }
    return null;
  }

  // Put the taps of the old form into the fresh one (same deal): radios, typed numbers,
  // Third Hand's captured cards; the idempotency key too, so a retry never doubles.
  function carry(old, fresh) {
    var names = tapped(old);
    // A group filled in from what is left (e.g. the last player's tricks) goes along.
    var filled = [];
    Array.prototype.forEach.call(old.querySelectorAll("fieldset[data-filled]"), function (group) {
      var input = group.querySelector("input:checked");
      if (input && names.indexOf(input.name) === -1) filled.push(input.name);
    });
    names.concat(filled).forEach(function (name) {
      var value = valueOf(old, name);
      var inputs = fresh.querySelectorAll('[name="' + name + '"]');
      Array.prototype.forEach.call(inputs, function (input) {
        if (input.type === "radio") {
          input.checked = value !== null && input.value === value && !input.disabled;
        } else {
          input.value = value === null ? "" : value;
          var button = fresh.querySelector('button[data-input="' + input.id + '"]');
          if (button) {
            var grid = button.closest(".card-grid");
            var owners = grid ? grid.getAttribute("data-owners").split("|") : [];
            button.classList.remove("own-0", "own-1");
            if (input.value) button.classList.add("own-" + input.value);
            var small = button.querySelector("small");
            if (small) small.textContent = input.value ? owners[+input.value] || "" : "";
          }
        }
      });
    });
    ["data-touched", "data-filled"].forEach(function (mark) {
      Array.prototype.forEach.call(old.querySelectorAll("fieldset[" + mark + "]"), function (group) {
        var twin = group.id && fresh.querySelector("#" + CSS.escape(group.id));
        if (twin) twin.setAttribute(mark, "1");
      });
    });
    var key = old.querySelector('[name="idempotency_key"]');
    var freshKey = fresh.querySelector('[name="idempotency_key"]');
    if (key && freshKey) freshKey.value = key.value;
    fresh.tapped = old.tapped;
    return names.length > 0;
  }

  function install(el, fresh, notice) {
    // A collision still to be decided stays while the rest of the game moves on.
    var open = el.querySelector(".collision");
    if (open && !notice && !fresh.querySelector(".collision")) {
      var before = fresh.querySelector("form[data-entry]") || fresh.querySelector("h2");
      if (before) before.parentNode.insertBefore(open, before);
    }
    if (notice) {
      var list = document.createElement("ul");
      list.className = "messages";
      list.setAttribute("role", "status");
      var item = document.createElement("li");
      item.className = "message success";
      item.textContent = notice;
      list.appendChild(item);
      fresh.insertBefore(list, fresh.firstChild);
    }
    // What htmx keeps across its swaps (hx-preserve: the figures shown or not) stays here too.
    Array.prototype.forEach.call(el.querySelectorAll("[hx-preserve][id]"), function (kept) {
      var twin = fresh.querySelector("#" + CSS.escape(kept.id));
      if (twin) twin.replaceWith(kept);
    });
    el.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    if (window.Scorekeeper && window.Scorekeeper.setup) window.Scorekeeper.setup(fresh);
    document.dispatchEvent(new CustomEvent("scorekeeper:installed"));
  }

  // Someone is typing outside the entry form (a reason to undo, ...): wait for them.
  function typingElsewhere(el) {
    var active = document.activeElement;
    return active && el.contains(active) && active.tagName === "INPUT" && active.type !== "radio" &&
      !active.closest("form[data-entry]") && active.value !== "";
  }

  // Writes made from this page (saves, bids, undo): while one is under way, or if one was
  // made since a refresh began, the refresh stands down; the write's answer shows the game.
  var writes = 0;
  var writing = 0;
  function isWrite(event) {
    var config = event.detail.requestConfig, elt = event.detail.elt;
    // The preview of a deal as it is tapped writes nothing.
    return config && config.verb !== "get" && !(elt && elt.classList && elt.classList.contains("fields"));
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isWrite(event)) {
      writes += 1;
      writing += 1;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isWrite(event)) {
      writing = Math.max(0, writing - 1);
    }
  });

  function stale(el, since) {
    return writing > 0 || writes !== since || !document.contains(el);
  }

  function refresh(el, notice) {
    var form = el.querySelector("form[data-entry]");
    var since = writes;
    if ((writing > 0 && !notice) || typingElsewhere(el)) return null;
    // Deals kept on this phone are being sent (offline.js): their answers show the game.
    if (window.Scorekeeper && window.Scorekeeper.waiting && window.Scorekeeper.waiting()) return null;
    return get(el.getAttribute("data-page"), { "HX-Request": "true" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null || (stale(el, since) && !notice)) return null;
        var fresh = parse(html, "#game");
        if (!fresh) return null;
        var freshForm = fresh.querySelector("form[data-entry]");
        if (form && freshForm && freshForm.id === form.id) {
          var kept = carry(form, freshForm);
          install(el, fresh, notice);
          var fields = freshForm.querySelector(".fields");
          if (kept && fields && window.htmx) window.htmx.trigger(fields, "change");
          return null;
        }
        if (form && tapped(form).length && !notice) return collision(el, form, since);
        install(el, fresh, notice);
        return null;
      });
  }

  // The deal this phone was entering is no longer the next one: the server shows what was
  // recorded beside what was tapped here (nothing is written).
  function collision(el, form, since) {
    var body = new FormData(form);
    return fetch(el.getAttribute("data-collision"), {
      method: "POST",
      body: body,
      headers: { "HX-Request": "true" },
      credentials: "same-origin",
      cache: "no-store",
    })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var fresh = html && parse(html, "#game");
        if (fresh && !stale(el, since)) install(el, fresh);
      });
  }

  window.Scorekeeper = window.Scorekeeper || {};
  window.Scorekeeper.parse = parse;
  window.Scorekeeper.install = install;

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); timer = null; } else schedule(0);
  });
  // Back/Forward from the page cache: check at once, before any tap on a stale form.
  window.addEventListener("pageshow", function (event) { if (event.persisted) schedule(0); });
  // A save swapped the section in (with its new version): carry on from there.
  document.addEventListener("htmx:afterSwap", function () { if (!timer) schedule(); });
  schedule(0);
})();
