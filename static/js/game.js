/* Scorekeeper game page: conveniences over forms that work without them: the last
   player's tricks filled in from the deal's total; bids the rules forbid disabled; Third
   Hand's card grid; a pill group from the server applied in place; a preview shown only for
   the form as it now is (hx-sync="this:queue last"); focus on the first error of a refusal;
   bids that did not reach the server said so. */
(function () {
  "use strict";
  var RANKS = ["9", "10", "J", "Q", "K", "A"];
  var POINTS = { "9": 9, "10": 10, J: 10, Q: 10, K: 10, A: 1 };

  function each(root, selector, fn) { Array.prototype.forEach.call(root.querySelectorAll(selector), fn); }
  function picked(fieldset) {
    var input = fieldset && fieldset.querySelector("input:checked");
    return input ? input.value : null;
  }

  // Which count of a fill-total section is filled in: the one count the player has not
  // changed since the form was shown (a fresh form, a correction, or a form sent back
  // after a rejection alike), or else the only one still empty.
  function fillTarget(groups) {
    var open = groups.filter(function (g) { return !g.hasAttribute("data-touched"); });
    if (open.length === 1) return open[0];
    var empty = open.filter(function (g) { return picked(g) === null || g.hasAttribute("data-filled"); });
    var given = groups.filter(function (g) { return empty.indexOf(g) === -1; });
    return empty.length === 1 && given.every(function (g) { return picked(g) !== null; }) ? empty[0] : null;
  }

  function fill(section) {
    var total = parseInt(section.getAttribute("data-fill-total"), 10);
    var groups = Array.prototype.slice.call(section.querySelectorAll("fieldset.counts"));
    var last = fillTarget(groups);
    if (!last) return;
    var sum = 0, complete = true;
    groups.forEach(function (g) {
      if (g === last) return;
      var value = picked(g);
      if (value === null) complete = false; else sum += parseInt(value, 10);
    });
    each(last, "input", function (input) { input.checked = false; });
    last.removeAttribute("data-filled");
    if (!complete) return;
    var target = last.querySelector('input[value="' + (total - sum) + '"]');
    if (target && !target.disabled) { target.checked = true; last.setAttribute("data-filled", "1"); }
  }

  function applyRules(form) {
    var game = form.getAttribute("data-game");
    var dealer = form.querySelector('[data-role="dealer-bid"]');
    if (!dealer) return;
    var off = function () { return false; };
    if (game === "third_hand") {
      var first = picked(form.querySelector('[data-role="first-bid"]'));
      var limit = first ? RANKS.indexOf(first) : -1;
      off = function (value) { var k = RANKS.indexOf(value); return k !== -1 && k <= limit; };
    } else if (game === "prediction_whist" && form.getAttribute("data-hook") === "1") {
      var sum = 0, complete = true;
      each(form, '[data-role="bid"]', function (g) {
        var value = picked(g);
        if (value === null) complete = false; else sum += parseInt(value, 10);
      });
      var forbidden = complete ? String(parseInt(form.getAttribute("data-size"), 10) - sum) : null;
      off = function (value) { return value === forbidden; };
      var note = dealer.querySelector("legend .note");
      if (note && forbidden !== null && parseInt(forbidden, 10) >= 0) note.textContent = "may not bid " + forbidden;
    }
    each(dealer, "input", function (input) {
      input.disabled = off(input.value);
      if (input.disabled) input.checked = false;
    });
  }

  function setup(root) {
    each(root, "form[data-entry]", applyRules);
    if (root.matches && root.matches("form[data-entry]")) applyRules(root);
    // a live region from here on: the hint itself is not announced, what is kept is
    each(root, ".bids-status:empty", function (l) { l.textContent = "Bids are kept as you tap."; l.setAttribute("role", "status"); });
    // The tab's title names the deal to enter, as the page's heading does.
    var game = document.getElementById("game");
    if (game && game.getAttribute("data-title")) document.title = game.getAttribute("data-title");
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== "radio") return;
    var group = input.closest("fieldset");
    var form = input.closest("form[data-entry]");
    if (form) applyRules(form);
    var section = input.closest("[data-fill-total]");
    if (section && group && group.classList.contains("counts")) {
      group.setAttribute("data-touched", "1");
      group.removeAttribute("data-filled");
      fill(section);
    }
  }, true);

  // A checked count tapped again (no change event) counts as given: fill the one left.
  document.addEventListener("click", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || input.type !== "radio" || !input.checked) return;
    var group = input.closest("fieldset.counts");
    var section = input.closest("[data-fill-total]");
    if (!group || !section || group.hasAttribute("data-touched")) return;
    group.setAttribute("data-touched", "1");
    group.removeAttribute("data-filled");
    fill(section);
  }, true);

  function tally(grid) {
    var points = [0, 0], cards = [0, 0];
    each(grid, "input[type=hidden]", function (input) {
      if (input.value === "0" || input.value === "1") {
        var seat = parseInt(input.value, 10);
        points[seat] += POINTS[input.name.slice(4, -1)] || 0;
        cards[seat] += 1;
      }
    });
    var names = grid.getAttribute("data-names").split("|");
    var out = grid.parentNode.querySelector(".tally");
    if (out) {
      out.textContent = cards[0] + cards[1] === 0 ? "" :
        names[0] + " " + points[0] + " points (" + cards[0] + " cards) · " +
        names[1] + " " + points[1] + " points (" + cards[1] + " cards) · " +
        (cards[0] + cards[1]) + " of 14 cards";
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-card]");
    if (!button) return;
    event.preventDefault();
    var input = document.getElementById(button.getAttribute("data-input"));
    var grid = button.closest(".card-grid");
    var next = { "": "0", "0": "1" }[input.value] || "";
    var owners = grid.getAttribute("data-owners").split("|");
    var names = grid.getAttribute("data-names").split("|");
    input.value = next;
    button.classList.remove("own-0", "own-1");
    if (next) button.classList.add("own-" + next);
    button.querySelector("small").textContent = next ? owners[+next] : "";
    var label = button.getAttribute("aria-label").split(":")[0];
    button.setAttribute("aria-label", label + ": " + (next ? names[+next] : "not captured"));
    tally(grid);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // The server sends a pill group again (which bids are now disabled) while more may
  // have been tapped: rather than replace the pills under a finger, bring the page's
  // group in line (disabled pills, the legend's note) and keep what is checked.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var live = event.detail.target, fragment = event.detail.fragment;
    var fresh = fragment.querySelector ? fragment.querySelector("fieldset") : null;
    if (!fresh || !live.matches("fieldset.pills") || fresh.id !== live.id) return;
    each(fresh, "input[type=radio]", function (input) {
      var mine = live.querySelector('input[name="' + input.name + '"][value="' + input.value + '"]');
      if (!mine) return;
      mine.disabled = input.disabled;
      if (mine.disabled) mine.checked = false;
    });
    var legend = live.querySelector("legend"), freshLegend = fresh.querySelector("legend");
    if (legend && freshLegend) legend.innerHTML = freshLegend.innerHTML;
    event.detail.shouldSwap = false;
    var form = live.closest("form[data-entry]");
    if (form) applyRules(form);
  });

  // A preview answers for the form as it was sent. Pills tapped while it was on its way
  // are previewed next (htmx keeps the last request and sends it once this one is in,
  // rather than aborting this one: an aborted request is an error in the console); and
  // once the deal is saved (offline.js), no preview sent before speaks for it again.
  function previews(elt) {
    return elt && elt.classList && elt.classList.contains("fields") ? elt.closest("form[data-entry]") : null;
  }
  function entered(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") pairs.push(name + "=" + value);
    });
    return (form.getAttribute("data-saves") || "0") + "|" + pairs.join("&");
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var form = previews(event.detail.elt);
    if (form) event.detail.scorekeeperEntered = entered(form);
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    // A refusal (422) answers a form marked data-swap-refused: shown in its place.
    if (event.detail.xhr.status === 422 && config && config.elt.closest("[data-swap-refused]")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
    var form = config && previews(config.elt);
    if (!form || config.scorekeeperEntered === undefined) return;
    if (!document.contains(form) || entered(form) !== config.scorekeeperEntered) {
      event.detail.shouldSwap = false;
    }
  });
  function saving(form) {
    form.setAttribute("data-saves", String(parseInt(form.getAttribute("data-saves") || "0", 10) + 1));
  }

  // After a rejected save, the first error: focused, and scrolled to.
  function focusError() {
    var error = document.querySelector("#game .field-error, #deal-page .field-error");
    if (!error) return;
    var group = error.closest("fieldset, .number-field, .entry-section") || error;
    var focusable = group.querySelector("input:not([type=hidden]):not([disabled])");
    if (focusable) { focusable.focus({ preventScroll: true }); }
    group.scrollIntoView({ block: "center" });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    setup(document);
    if (event.detail.target.id === "game" || event.detail.target.id === "deal-page") focusError();
  });

  // Bids that did not reach the server (no connection, a server error): say so beside them.
  // (Saves are kept on the phone and sent by offline.js.)
  function trouble(event, offline) {
    var elt = event.detail.elt;
    if (!elt || !elt.closest) return;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var bids = elt.closest(".bids");
    var line = bids && bids.querySelector(".bids-status");
    if (!line) return;
    line.className = "bids-status field-error";
    line.textContent = offline ? "Bids not kept: no connection. Tap a bid again when back online."
      : "Bids not kept (the server answered " + status + "). Reload the page.";
  }
  // A form whose refusals are swapped in place, answered otherwise (gone, not allowed, no
  // connection): sent the plain way, for the browser to show that answer.
  function plainly(event) {
    var form = event.detail.elt;
    if (form && form.matches && form.matches("form[data-swap-refused]")) form.submit();
  }
  document.addEventListener("htmx:sendError", function (event) { trouble(event, true); plainly(event); });
  document.addEventListener("htmx:timeout", function (event) { trouble(event, true); plainly(event); });
  document.addEventListener("htmx:responseError", function (event) { trouble(event, false); plainly(event); });

  window.Scorekeeper = window.Scorekeeper || {};
  window.Scorekeeper.setup = setup;
  window.Scorekeeper.focusError = focusError;
  window.Scorekeeper.saving = saving;
  setup(document);
})();
