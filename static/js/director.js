/* Director's pages: conveniences over forms that work without them.
   - new tournament: fields that do not apply to the chosen selects are hidden
     (data-applies-when="round_kind=deals" or "round_kind=game,time"); without this
     script they all show, each with a note saying when it applies;
   - registering from the roster: a live filter of the list and a "select all listed"
     checkbox (without this script: the filter is a GET form, and "Register everyone
     listed" registers the same players on the server);
   - a refused dashboard form (shown at the form's address, answered 4xx): the address and
     this page's place in the history become the dashboard's, so that Back after the
     correction, or a reload, opens the dashboard as it is instead of asking to send the
     refused form again. */
(function () {
  "use strict";

  function each(root, selector, fn) { Array.prototype.forEach.call(root.querySelectorAll(selector), fn); }

  // --- A refused form: the history's entry is the dashboard's ---------------------------------

  var refusedAt = document.querySelector("[data-refused-at]");
  if (refusedAt && window.history.replaceState) {
    window.history.replaceState(null, "", refusedAt.getAttribute("data-refused-at"));
  }

  // --- New tournament: show only the fields that apply ---------------------------------------

  function applyFields(form) {
    each(form, "[data-applies-when]", function (box) {
      var rule = box.getAttribute("data-applies-when").split("=");
      var select = form.elements[rule[0]];
      var values = rule[1].split(",");
      var applies = !select || values.indexOf(select.value) !== -1;
      box.hidden = !applies;
    });
  }

  each(document, "form[data-applies-form]", function (form) {
    applyFields(form);
    form.addEventListener("change", function (event) {
      if (event.target && event.target.tagName === "SELECT") applyFields(form);
    });
    each(document, "[data-no-js-note]", function (note) { note.hidden = true; });
  });

  // --- Registering from the roster: filter and select all -----------------------------------

  each(document, "form[data-roster-form]", function (form) {
    var filter = document.querySelector("[data-roster-filter]");
    var query = form.querySelector("[data-roster-query]");
    var all = form.querySelector("[data-select-all]");
    var allLabel = form.querySelector("[data-select-all-label]");
    var count = form.querySelector("[data-listed-count]");

    function listedBoxes() {
      var boxes = [];
      each(form, "input[data-unregistered]", function (box) {
        if (!box.closest("li").hidden) boxes.push(box);
      });
      return boxes;
    }

    function refreshAll() {
      var boxes = listedBoxes();
      if (count) count.textContent = String(boxes.length);
      if (!all) return;
      var checked = boxes.filter(function (b) { return b.checked; }).length;
      all.checked = boxes.length > 0 && checked === boxes.length;
      all.indeterminate = checked > 0 && checked < boxes.length;
      all.disabled = boxes.length === 0;
    }

    function applyFilter() {
      var needle = filter ? filter.value.trim().toLowerCase() : "";
      each(form, ".roster-choices li[data-name]", function (li) {
        li.hidden = needle !== "" && li.getAttribute("data-name").indexOf(needle) === -1;
      });
      if (query) query.value = filter ? filter.value.trim() : "";
      refreshAll();
    }

    if (allLabel) allLabel.hidden = false;
    if (all) {
      all.addEventListener("change", function () {
        listedBoxes().forEach(function (box) { box.checked = all.checked; });
        refreshAll();
      });
    }
    form.addEventListener("change", function (event) {
      if (event.target !== all) refreshAll();
    });
    if (filter) {
      filter.addEventListener("input", applyFilter);
      filter.form.addEventListener("submit", function (event) { event.preventDefault(); applyFilter(); });
    }
    applyFilter();
  });
})();
