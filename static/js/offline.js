/* Scorekeeper game page: entering deals with no connection, never losing or doubling one
   (README, "With no signal: offline entry"). A tap on Save keeps the deal on the phone
   (queue.js) and then sends the deals waiting, in order; with no connection the deal shows
   as "waiting to send" and the next deal's form (it came with the page) comes up. The rules
   the engine put in the page as data are checked here first; the server's verdict is final:
   a refusal comes back to the form, a deal another phone recorded first is shown beside it
   (_collision.html). The service worker (service-worker.js) keeps a copy of the page. */
(function () {
  "use strict";
  var Queue = window.ScorekeeperQueue;
  var RETRY_MS = [500, 2000, 5000]; // after a send found no connection: soon, then less often
  var failures = 0;
  var waiting = [];      // the deals kept for this game, as last read
  var trying = {};       // keys of deals just saved, on their first way to the server
  var sending = false, again = false, retry = null;
  var game = null;       // this game's id (the page's offline-data block)

  function data() {
    var block = document.getElementById("offline-data");
    return block ? JSON.parse(block.textContent) : null;
  }
  var first = data();
  if (!first || !Queue || !window.indexedDB) return;
  game = first.game;

  function section() { return document.getElementById("game"); }
  // The game page's address (a finished game's page has no offline data: the first one's).
  function pageUrl() { return (data() || first).page; }
  function entryForm() { var el = section(); return el && el.querySelector("form[data-entry]"); }
  function csrf() {
    var input = document.querySelector("[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function lastSynced() { return localStorage.getItem("scorekeeper-synced-" + game) || ""; }

  // --- The header line ------------------------------------------------------------------

  function status(text) {
    var line = document.getElementById("sync-status");
    if (!line) return;
    var count = waiting.filter(function (item) { return item.state === "waiting"; }).length;
    if (!text) {
      if (count) {
        text = count + (count === 1 ? " deal" : " deals") + " waiting to send" +
          (navigator.onLine ? "" : " · offline");
      } else if (!navigator.onLine) {
        text = "Offline";
      } else {
        text = "Online and up to date";
      }
      if (lastSynced()) text += " · last synced at " + lastSynced();
    }
    line.textContent = text;
    line.hidden = false;
    line.className = "sync-status" + (count ? " waiting" : "");
  }

  // --- A deal as tapped: its values, the engine's checks, its provisional scores ----------

  // The record's field ``field`` as tapped (input names: <field>-<seat>, or <field>).
  function valueOf(form, name) {
    var inputs = form.querySelectorAll('[name="' + name + '"]');
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i];
      if (input.type === "radio" && !input.checked) continue;
      var text = input.value.trim();
      if (text === "") return undefined;
      if (text === "none") return null;
      return /^\d+$/.test(text) ? parseInt(text, 10) : text;
    }
    return undefined;
  }

  function fieldValues(form, field, seats) {
    if (form.querySelector('[name="' + field + '"]')) return valueOf(form, field);
    var values = [];
    for (var seat = 0; seat < seats; seat++) values.push(valueOf(form, field + "-" + seat));
    return values;
  }

  function fill(message, words) {
    return message.replace(/\{(\w+)\}/g, function (all, word) {
      return word in words ? String(words[word]) : all;
    });
  }

  // The first check of the deal that the entry breaks: {field, message}, or null.
  function broken(deal, form, names) {
    var missing = Object.keys(deal.missing);
    for (var m = 0; m < missing.length; m++) {
      var name = missing[m];
      var instead = deal.instead[name];
      if (instead && Array.prototype.some.call(form.querySelectorAll('[name^="' + instead + '"]'),
        function (input) { return input.value !== ""; })) continue;
      if (form.querySelector('[name="' + name + '"]') && valueOf(form, name) === undefined) {
        return { field: name, message: deal.missing[name] };
      }
    }
    for (var c = 0; c < deal.checks.length; c++) {
      var check = deal.checks[c];
      var values = fieldValues(form, check.field, names.length);
      if (!Array.isArray(values)) continue;
      var given = values.every(function (value) { return typeof value === "number"; });
      var sum = given ? values.reduce(function (a, b) { return a + b; }, 0) : null;
      var kind = check.check;
      for (var seat = 0; seat < values.length && (kind === "range" || kind === "one_of"); seat++) {
        var value = values[seat];
        if (typeof value !== "number") continue;
        var ok = kind === "range" ? value >= check.min && value <= check.max
          : check.values.indexOf(value) !== -1;
        if (!ok) {
          return { field: check.field + "-" + seat, message: fill(check.message, { name: names[seat], value: value }) };
        }
      }
      if (!given && kind !== "above") continue;
      if ((kind === "sum" && sum !== check.total) ||
          (kind === "sum_range" && (sum < check.min || sum > check.max))) {
        return { field: check.field, message: fill(check.message, { sum: sum }) };
      }
      if (kind === "pairs" && (check.pairs[String(values[0])] || []).indexOf(values[1]) === -1) {
        return { field: check.field, message: fill(check.message, { value0: values[0], value1: values[1] }) };
      }
      if (kind === "not_sum" && sum === check.total) {
        return {
          field: check.field + "-" + check.seat,
          message: fill(check.message, { name: names[check.seat], forbidden: check.total - (sum - values[check.seat]) }),
        };
      }
      if (kind === "above") {
        var mine = values[check.seat], over = values[check.over];
        if (mine !== undefined && mine !== null && over !== undefined && over !== null &&
            check.order.indexOf(String(mine)) <= check.order.indexOf(String(over))) {
          return {
            field: check.field + "-" + check.seat,
            message: fill(check.message, { name: names[check.seat], value: mine, over: over }),
          };
        }
      }
    }
    return null;
  }

  // Each seat's score read off the engine's score table, or null where it gave none.
  function provisional(deal, form, names) {
    if (!deal.score) return null;
    var scores = [];
    for (var seat = 0; seat < names.length; seat++) {
      var at = deal.score.table;
      for (var k = 0; k < deal.score.keys.length; k++) {
        var key = deal.score.keys[k], index;
        if (key.field) index = fieldValues(form, key.field, names.length)[seat];
        else index = valueOf(form, key.is_seat) === seat ? 1 : 0;
        at = at && typeof index === "number" ? at[index] : undefined;
      }
      if (typeof at !== "number") return null;
      scores.push(at);
    }
    return scores;
  }

  // The deal in words, for a game the page cannot score: each question and what was tapped.
  function summary(form) {
    var parts = [];
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.pills"), function (group) {
      var input = group.querySelector("input:checked");
      var legend = group.querySelector("legend");
      if (input && legend) parts.push(legend.firstChild.textContent.trim() + ": " + input.nextElementSibling.textContent);
    });
    Array.prototype.forEach.call(form.querySelectorAll(".number-field input"), function (input) {
      var label = form.querySelector('label[for="' + input.id + '"]');
      if (input.value && label) parts.push(label.textContent.trim() + ": " + input.value);
    });
    return parts.join(" · ");
  }

  function dealData(number) {
    var page = data();
    var deals = page ? page.deals : [];
    for (var i = 0; i < deals.length; i++) if (deals[i].number === number) return deals[i];
    return null;
  }

  // The message beside its field, as the server shows a rejection (same ids, same words).
  function showError(form, found) {
    clearErrors(form);
    var number = form.querySelector("[name=number]").value;
    var place = document.getElementById("d" + number + "-" + found.field) ||
      document.getElementById("d" + number + "-sec-" + found.field);
    var line = document.createElement("p");
    line.className = "field-error local-error";
    line.setAttribute("role", "alert");
    line.textContent = found.message.charAt(0).toUpperCase() + found.message.slice(1);
    // As after a rejection by the server, the counts are open again to be filled in.
    Array.prototype.forEach.call(form.querySelectorAll("fieldset[data-touched]"), function (group) {
      group.removeAttribute("data-touched");
    });
    if (place) {
      line.id = place.id + "-error";
      place.classList.add("has-error");
      var box = place.querySelector("input:not([type=hidden]):not([type=radio])");
      (box || place).setAttribute("aria-describedby", line.id);
      if (box) box.setAttribute("aria-invalid", "true");
      var grid = place.closest(".number-grid"); // number boxes side by side: below them all
      if (grid) grid.after(line); else place.appendChild(line);
    } else {
      form.insertBefore(line, form.querySelector(".save-row"));
    }
    (place || line).scrollIntoView({ block: "center" });
    sayOnce(form);
  }

  // A refusal is said once: beside its field. A preview that says the same (it may arrive
  // after the save was refused here) keeps quiet about it.
  function sayOnce(form) {
    var shown = {};
    Array.prototype.forEach.call(form.querySelectorAll(".local-error"), function (line) {
      shown[line.textContent.trim()] = true;
    });
    Array.prototype.forEach.call(form.querySelectorAll(".preview .error"), function (line) {
      if (shown[line.textContent.trim()]) line.remove();
    });
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    // An outerHTML swap leaves the old element out of the page: look for its successor.
    var now = target && target.id ? document.getElementById(target.id) : target;
    var form = now && now.closest && now.closest("form[data-entry]");
    if (form) sayOnce(form);
  });

  function clearErrors(form) {
    Array.prototype.forEach.call(form.querySelectorAll(".has-error"), function (place) {
      if (place.querySelector(".local-error") || place.matches(".number-field")) place.classList.remove("has-error");
    });
    Array.prototype.forEach.call(form.querySelectorAll(".local-error"), function (line) { line.remove(); });
  }

  // --- Saving: kept first, then sent -------------------------------------------------------

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#game form[data-entry]")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var number = parseInt(form.querySelector("[name=number]").value, 10);
    var deal = dealData(number);
    var page = data();
    if (!deal || !page) return;
    // A preview still on its way would show this deal's refusal a second time, after the
    // save's answer: the save speaks for the deal from here on (game.js leaves it unshown).
    if (window.Scorekeeper && window.Scorekeeper.saving) window.Scorekeeper.saving(form);
    var found = broken(deal, form, page.names);
    if (found) { showError(form, found); return; }
    clearErrors(form);
    var key = form.querySelector("[name=idempotency_key]");
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && name !== "cycle") fields.push([name, value]);
    });
    var item = {
      key: key.value, game: game, number: number, fields: fields, csrf: csrf(),
      save: page.save, byKey: page.by_key, summary: summary(form), scores: provisional(deal, form, page.names),
      kept: Date.now(), state: "waiting",
    };
    var button = form.querySelector(".save");
    if (button) button.disabled = true;
    // Shown as waiting only if this first try finds no connection: online, the page moves on
    // with the server's answer, as a save always did.
    trying[item.key] = true;
    Queue.keep(item).then(function () {
      return refreshWaiting();
    }).then(function () {
      sync();
    }).catch(function () {
      if (button) button.disabled = false;
      showError(form, { field: "", message: "this phone could not keep the deal (its storage is full or off); tap Save again" });
    });
  }, true);

  function refreshWaiting() {
    return Queue.kept(game).then(function (items) { waiting = items; return items; });
  }

  // The page sends its deals while it is open; once it is hidden (a closed tab, a phone gone to
  // sleep) the browser is asked to send them when it can (Background Sync).
  function askForSync() {
    if (!waiting.some(function (item) { return item.state === "waiting"; })) return;
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register("deals-" + game);
      return null;
    }).catch(function () { /* no Background Sync: the page sends them */ });
  }

  // --- What the page shows of the waiting deals ----------------------------------------------

  function sheetBody() {
    var el = section();
    var body = el.querySelector("table.sheet tbody");
    if (body) return body;
    var page = data();
    var empty = el.querySelector("#sheet-title-" + game + " + p.muted");
    var table = document.createElement("table");
    table.className = "sheet cols-" + page.names.length;
    var head = table.createTHead().insertRow();
    var corner = document.createElement("th");
    corner.textContent = "#";
    head.appendChild(corner);
    page.names.forEach(function (name) {
      var th = document.createElement("th");
      th.scope = "col";
      th.textContent = name;
      head.appendChild(th);
    });
    table.appendChild(document.createElement("tbody"));
    var title = el.querySelector("#sheet-title-" + game);
    if (empty) empty.replaceWith(table);
    else if (title) title.after(table);
    return table.tBodies[0];
  }

  // A deal's score and a total as the scoresheet writes them: +3, −2 (a real minus sign).
  function total(value) { return value < 0 ? "\u2212" + -value : String(value); }
  function signed(score) { return score > 0 ? "+" + score : total(score); }

  function showWaitingRows(page, items) {
    var el = section();
    Array.prototype.forEach.call(el.querySelectorAll("tr.waiting"), function (row) { row.remove(); });
    if (!items.length) return;
    var body = sheetBody();
    var totals = page.totals.slice();
    items.forEach(function (item) {
      var row = document.createElement("tr");
      row.className = "waiting";
      var th = document.createElement("th");
      th.scope = "row";
      th.innerHTML = "";
      th.textContent = String(item.number);
      var note = document.createElement("small");
      note.className = "waiting-note";
      note.textContent = "waiting to send";
      th.appendChild(note);
      row.appendChild(th);
      if (item.scores && totals) {
        item.scores.forEach(function (score, seat) {
          totals[seat] += score;
          var cell = document.createElement("td");
          cell.className = "num provisional";
          var small = document.createElement("small");
          small.textContent = signed(score);
          var bold = document.createElement("b");
          bold.textContent = total(totals[seat]);
          cell.appendChild(small);
          cell.appendChild(bold);
          row.appendChild(cell);
        });
      } else {
        totals = null; // the totals after a deal the page cannot score are the server's
        var cell = document.createElement("td");
        cell.colSpan = page.names.length;
        cell.className = "entered";
        cell.textContent = item.summary;
        row.appendChild(cell);
      }
      body.appendChild(row);
    });
    var key = el.querySelector("#sheet-key-" + game + "-waiting");
    if (!key) {
      key = document.createElement("p");
      key.id = "sheet-key-" + game + "-waiting";
      key.className = "hint waiting-key";
      body.closest("table").after(key);
    }
    key.textContent = "Deals waiting to send are kept on this phone; their scores are provisional until the server has them.";
  }

  // The form of deal ``number`` in place of the one shown (from the page's upcoming forms).
  function showForm(page, number) {
    var el = section();
    var form = entryForm();
    if (form && form.id === "entry-" + number) return;
    var deal = dealData(number);
    var template = null;
    Array.prototype.forEach.call(el.querySelectorAll("template.upcoming"), function (candidate) {
      if (candidate.content.querySelector("#entry-" + number)) template = candidate;
    });
    var note = el.querySelector(".waiting-form");
    // The table's last deal as the page was served (e.g. time called for the round).
    var lastAllowed = parseInt(el.getAttribute("data-last-deal") || "0", 10);
    var past = lastAllowed > 0 && number > lastAllowed;
    var over = !past && page.scheduled && number > page.scheduled;
    if (past || over || !deal || !template) {
      var heading = el.querySelector("#game-title");
      if (form) form.remove();
      if (!note) {
        note = document.createElement("p");
        note.className = "waiting-form muted";
        el.querySelector("#sheet-title-" + game).before(note);
      }
      if (past) {
        note.className = "waiting-form message info";
        note.textContent = "No more deals at this table: " + el.getAttribute("data-last-deal-reason") +
          ", and deal " + lastAllowed + " was its last.";
        if (heading) heading.textContent = "No more deals";
      } else if (over) {
        note.className = "waiting-form message info";
        note.textContent = "Deal " + page.scheduled + " was the game’s last: its final scores show once the deals waiting are sent.";
        if (heading) heading.textContent = "Last deal entered";
      } else {
        note.className = "waiting-form muted";
        note.textContent = "Deal " + number + "’s form comes back once the deals waiting are sent.";
      }
      return;
    }
    if (note) note.remove();
    var fresh = template.content.querySelector("form").cloneNode(true);
    // No server is asked about this form until it is the next deal there too.
    Array.prototype.forEach.call(fresh.querySelectorAll("[hx-post]"), function (part) {
      part.removeAttribute("hx-post");
      part.removeAttribute("hx-trigger");
    });
    fresh.setAttribute("data-local", "1");
    fresh.querySelector("[name=idempotency_key]").value = newKey();
    var token = fresh.querySelector("[name=csrfmiddlewaretoken]");
    if (token) token.value = csrf() || token.value;
    var preview = fresh.querySelector(".preview");
    if (preview) preview.querySelector("p").textContent = "Provisional scores show here as you tap; the server scores the deal when it has it.";
    if (form) form.replaceWith(fresh);
    else el.querySelector("#sheet-title-" + game).before(fresh);
    var heading = el.querySelector("#game-title");
    if (heading) {
      // "Deal N of <the table's last>" where its round ends first
      var tail = deal.header.indexOf(" · ") > -1 ? deal.header.slice(deal.header.indexOf(" · ")) : "";
      heading.textContent = lastAllowed > 0 ? "Deal " + number + " of " + lastAllowed + tail : deal.header;
    }
    if (window.Scorekeeper && window.Scorekeeper.setup) window.Scorekeeper.setup(fresh);
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // Bring the page in line with the deals kept: rows waiting, and the form of the deal after.
  function render() {
    var page = data();
    status();
    if (!page || !page.deals.length) return;
    var next = page.deals[0].number;
    var stuck = waiting.some(function (item) { return item.state !== "waiting"; });
    var shown = waiting.filter(function (item) {
      return item.state === "waiting" && item.number >= next && !trying[item.key];
    });
    showWaitingRows(page, shown);
    if (stuck) return; // the server's answer (a refusal, a collision) is what the page shows
    var last = shown.length ? shown[shown.length - 1].number : next - 1;
    if (last >= next) showForm(page, last + 1);
  }

  // Provisional scores of a form entered ahead of the server (or with no connection).
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("#game form[data-entry]");
    if (!form || (!form.hasAttribute("data-local") && navigator.onLine)) return;
    var page = data();
    var deal = page && dealData(parseInt(form.querySelector("[name=number]").value, 10));
    var preview = form.querySelector(".preview");
    if (!deal || !preview) return;
    var scores = provisional(deal, form, page.names);
    var found = scores && broken(deal, form, page.names);
    var line = document.createElement("p");
    line.className = "muted";
    if (scores && !found) {
      line.textContent = "Provisional: " + page.names.map(function (name, seat) {
        return name + " " + signed(scores[seat]);
      }).join(", ") + ".";
    } else {
      line.textContent = found ? found.message.charAt(0).toUpperCase() + found.message.slice(1)
        : "The server scores this deal when it has it.";
    }
    preview.replaceChildren(line);
  });

  // --- Sending ----------------------------------------------------------------------------

  function install(html) {
    var S = window.Scorekeeper;
    var fresh = S && S.parse ? S.parse(html, "#game") : null;
    if (!fresh || !section()) return;
    S.install(section(), fresh);
  }

  function stamp() {
    var now = new Date();
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    localStorage.setItem("scorekeeper-synced-" + game, pad(now.getHours()) + ":" + pad(now.getMinutes()));
  }

  function sync() {
    if (sending) { again = true; return; }
    clearTimeout(retry);
    retry = null;
    sending = true;
    var latest = null, found = null;
    var had = waiting.length > 0;
    refreshWaiting().then(function (items) {
      if (!items.some(function (item) { return item.state === "waiting"; })) {
        // Sent meanwhile by another tab or the service worker: the server's game, then.
        return had && !items.length ? showServer().then(function () { return "done"; }) : "done";
      }
      return Queue.flush(game, csrf(), {
        sending: function (item) { status("Sending deal " + item.number + "…"); },
        answer: function (item, answer) {
          stamp();
          failures = 0;
          // What the page shows next follows this answer (a refused deal keeps its form).
          waiting = waiting.filter(function (other) { return other.key !== item.key; });
          if (answer.outcome === "refused" || answer.outcome === "collision") waiting.unshift(item);
          if (answer.outcome === "saved" || answer.outcome === "not-saved") {
            latest = answer.html;
            if (latest === null) found = item.number;
            return;
          }
          latest = null;
          install(answer.html);
          if (answer.outcome === "refused" && window.Scorekeeper.focusError) window.Scorekeeper.focusError();
        },
      }).then(function (end) {
        if (latest) install(latest);
        else if (found) return showSaved(found).then(function () { return end; });
        if (end === "done") keepCopy();
        return end;
      });
    }).catch(function () {
      if (latest) install(latest);
      retry = setTimeout(sync, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
    }).then(function () {
      return refreshWaiting();
    }).then(function () {
      sending = false;
      trying = {};
      render();
      if (again) { again = false; sync(); }
      else if (!retry && waiting.some(function (item) { return item.state === "waiting"; })) {
        retry = setTimeout(sync, RETRY_MS[RETRY_MS.length - 1]);
      }
    });
  }

  // The game as it is now on the server: after a deal found recorded by its key (the answer
  // to its save was lost), or deals sent by another tab or the service worker.
  function showServer(notice) {
    return fetch(pageUrl(), { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var fresh = html && window.Scorekeeper.parse(html, "#game");
        if (fresh) window.Scorekeeper.install(section(), fresh, notice);
      });
  }
  function showSaved(number) { return showServer("Deal " + number + " saved."); }

  // The service worker's copy of the page brought up to date (what opens with no network).
  // On a connection that drops requests the copy may not be brought up to date at the first
  // ask: the worker answers whether it was, and the page asks again a little later when it
  // was not, or when no answer came (a few times), so that a reload with no network opens
  // the game as it now stands.
  var KEEP_TRIES = 5;
  var KEEP_AGAIN_MS = 3000; // after a failed ask
  var KEEP_ANSWER_MS = 20000; // an ask not answered by then counts as failed
  function keepCopy(tries) {
    if (!("serviceWorker" in navigator)) return;
    var left = typeof tries === "number" ? tries : KEEP_TRIES;
    var path = pageUrl();
    navigator.serviceWorker.ready.then(function (registration) {
      var worker = registration.active;
      if (!worker) return;
      if (!window.MessageChannel) { worker.postMessage({ keep: path }); return; }
      var channel = new MessageChannel();
      var settled = false;
      var done = function (kept) {
        if (settled) return;
        settled = true;
        window.clearTimeout(timer);
        if (!kept && left > 1) {
          window.setTimeout(function () { if (navigator.onLine) keepCopy(left - 1); }, KEEP_AGAIN_MS);
        }
      };
      var timer = window.setTimeout(function () { done(false); }, KEEP_ANSWER_MS);
      channel.port1.onmessage = function (event) { done(!!(event.data && event.data.kept)); };
      worker.postMessage({ keep: path }, [channel.port2]);
    });
  }

  // --- The two choices of a collision: keep what was recorded, or correct it with mine --------

  function dropCollisions(number) {
    return Promise.all(waiting.filter(function (item) {
      return item.state === "collision" && item.number === number;
    }).map(function (item) { return Queue.drop(item.key); }));
  }

  function collisionNumber(element) {
    var box = element.closest(".collision");
    return box ? parseInt(box.id.replace("collision-", ""), 10) : null;
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".collision a.button");
    var number = link && collisionNumber(link);
    if (!number) return;
    event.preventDefault();
    dropCollisions(number).then(function () { location.href = link.href; });
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var number = form.closest && form.closest(".collision") && collisionNumber(form);
    if (!number) return;
    event.preventDefault();
    dropCollisions(number).then(function () { form.submit(); });
  });

  // --- When to send -------------------------------------------------------------------------

  window.Scorekeeper = window.Scorekeeper || {};
  // Whether deals wait here: the page's own polling then leaves the section to the sending.
  window.Scorekeeper.waiting = function () { return waiting.length > 0; };

  document.addEventListener("scorekeeper:installed", render);
  document.addEventListener("visibilitychange", function () { if (document.hidden) askForSync(); });
  window.addEventListener("pagehide", askForSync);
  window.addEventListener("online", function () { status(); sync(); });
  window.addEventListener("offline", function () { status(); });
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.synced === game) { stamp(); sync(); }
    });
    var script = document.querySelector("script[data-sw]");
    // The worker, once it is active; a rejection when its install failed or did not end.
    var active = function (registration) {
      return new Promise(function (resolve, reject) {
        var worker = registration.installing || registration.waiting;
        var timer = window.setTimeout(reject, 50000); // the worker's own limit: 45 s
        var failed = function () {
          if (worker.state === "redundant" && !registration.active) { clearTimeout(timer); reject(); }
        };
        if (worker) { worker.addEventListener("statechange", failed); failed(); }
        navigator.serviceWorker.ready.then(resolve).finally(function () { clearTimeout(timer); });
      });
    };
    var register = function (tries) {
      if (!script) return; // a page without its service worker's address keeps no copy
      navigator.serviceWorker.register(script.getAttribute("data-sw"), { scope: "/" })
        .then(active)
        .then(function () {
          // The page opened from the network: keep a copy for opening it with no network.
          if (navigator.onLine) keepCopy();
        })
        .catch(function () {
          // The worker or its files did not arrive (a dropped request): try again shortly. With no
          // service worker at all the page still keeps and sends deals.
          if (tries > 1) window.setTimeout(function () { register(tries - 1); }, KEEP_AGAIN_MS);
        });
    };
    register(KEEP_TRIES);
  }

  // On loading: deals kept earlier (this tab or another, before a reload) are sent again,
  // those that needed the player too (the server shows the refusal or the collision again).
  refreshWaiting().then(function (items) {
    return Promise.all(items.filter(function (item) { return item.state !== "waiting"; })
      .map(function (item) { item.state = "waiting"; return Queue.keep(item); }));
  }).then(refreshWaiting).then(function () { render(); sync(); });
})();
