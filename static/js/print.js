// Print buttons ([data-print]) and copy buttons ([data-copy]: the id of the link's text box)
// show only where a script can press them; a link's text box ([data-select-on-focus])
// selects itself for copying. No inline handlers: the Content-Security-Policy forbids them.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
});
document.querySelectorAll("[data-select-on-focus]").forEach(function (input) {
  input.addEventListener("focus", function () { input.select(); });
});
document.querySelectorAll("[data-copy]").forEach(function (button) {
  var input = document.getElementById(button.getAttribute("data-copy"));
  var label = button.textContent;
  if (!input) return;
  button.hidden = false;
  function said(text) {
    button.textContent = text;
    setTimeout(function () { button.textContent = label; }, 2500);
  }
  button.addEventListener("click", function () {
    // The clipboard API needs a secure page (https, or this computer); else the browser's
    // own copy of the selected text.
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { said("Copied"); }, function () {
        input.focus();
        input.select();
        said("Select and copy");
      });
      return;
    }
    input.focus();
    input.select();
    said(document.execCommand && document.execCommand("copy") ? "Copied" : "Select and copy");
  });
});
