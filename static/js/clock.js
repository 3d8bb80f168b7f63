/* A timed round's clock ([data-clock-end], templates/tournaments/_clock.html): counted down
   every second in the browser from the server's end time, corrected by the difference
   between the server's clock and the phone's (no polling for it). At a table that has
   played, the deals its pace still allows; at zero, "finish the deal in progress". The
   page can replace its clocks at any time (live updates): each is found again every tick,
   and after a swap. The clocks' difference comes from the newest server time seen. */
(function () {
  "use strict";

  var seen = new WeakSet();
  var skew = 0, skewFrom = -Infinity; // server minus phone; the server time it came from

  function learn(clock) {
    if (seen.has(clock)) return;
    seen.add(clock);
    var serverNow = Date.parse(clock.getAttribute("data-clock-now"));
    if (serverNow > skewFrom) { skewFrom = serverNow; skew = serverNow - Date.now(); }
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function left(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(sec);
  }

  function tick() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-end]"), function (clock) {
      learn(clock);
      var now = Date.now() + skew;
      var end = Date.parse(clock.getAttribute("data-clock-end"));
      if (clock.classList.contains("called")) return;
      if (end <= now) {
        clock.classList.add("called");
        var closes = clock.getAttribute("data-clock-closes");
        clock.textContent = "Time is called: finish the deal in progress, and start no new one." +
          (closes ? " The round closes at " + closes + "." : "");
        return;
      }
      var rest = clock.querySelector("[data-clock-left]");
      if (rest) rest.textContent = left(end - now) + " to go";
      var pace = clock.querySelector("[data-clock-pace]");
      var deals = parseInt(clock.getAttribute("data-clock-deals") || "0", 10);
      var started = Date.parse(clock.getAttribute("data-clock-started") || "");
      if (pace && deals > 0 && now > started) {
        var n = Math.round((end - now) / ((now - started) / deals));
        pace.textContent = n === 0 ? ": at this table's pace, the deal in play is likely its last"
          : ": about " + n + " more deal" + (n === 1 ? "" : "s") + " at this table's pace";
      }
    });
  }

  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("scorekeeper:installed", tick);
})();
