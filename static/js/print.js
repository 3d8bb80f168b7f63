// Print buttons ([data-print]) show only where a script can press them; a link's text box
// ([data-select-on-focus]) selects itself for copying. No inline handlers: the
// Content-Security-Policy forbids them.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
});
document.querySelectorAll("[data-select-on-focus]").forEach(function (input) {
  input.addEventListener("focus", function () { input.select(); });
});
