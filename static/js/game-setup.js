// Progressive enhancement: the pills and "(deals first)" follow the seats as they are chosen,
// and typing in a choice's number input chooses it. Everything works without this.
(function () {
  var form = document.querySelector("form.setup");
  if (!form) return;
  function refresh() {
    form.querySelectorAll("select[data-seat]").forEach(function (select) {
      var i = select.dataset.seat, pill = form.querySelector('[data-seat-name="' + i + '"]');
      var name = select.value ? select.options[select.selectedIndex].text : "";
      if (pill) pill.textContent = "Seat " + (Number(i) + 1) + (name ? " · " + name : "");
    });
    var dealer = form.querySelector('input[name="first_dealer"]:checked');
    form.querySelectorAll(".deals-first").forEach(function (span) {
      span.hidden = !dealer || span.dataset.seat !== dealer.value;
    });
  }
  form.addEventListener("change", refresh);
  var error = form.querySelector(".field-error");
  if (error) error.scrollIntoView({block: "center"});
  form.querySelectorAll("[data-choice]").forEach(function (input) {
    input.addEventListener("focus", function () {
      var radio = document.getElementById(input.dataset.choice);
      if (radio && !radio.checked) { radio.checked = true; }
    });
  });
  refresh();
})();
