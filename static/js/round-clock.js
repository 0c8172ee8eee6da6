// The round clock: counts down to the end time the server sent, once a second.
//
// Every element with data-clock-ends (an ISO time) and data-clock-now (the server's time
// when the page was made) shows the time left in its [data-clock-time] child. The
// difference between the server's clock and this device's is measured once per element,
// so a phone whose clock is wrong still shows the room's time. Elements swapped in later
// (by htmx polling) are picked up on the next tick.
(function () {
  "use strict";

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function format(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock-ends]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var ends = Date.parse(clock.getAttribute("data-clock-ends"));
      if (isNaN(ends)) continue;
      if (!clock.hasAttribute("data-clock-offset")) {
        // The element's own server time, or else the page's (a panel swapped in later).
        var source = clock.hasAttribute("data-clock-now") ? clock : document.querySelector("[data-server-now]");
        var serverNow = source ? Date.parse(source.getAttribute(source === clock ? "data-clock-now" : "data-server-now")) : NaN;
        var offset = isNaN(serverNow) ? 0 : serverNow - Date.now();
        clock.setAttribute("data-clock-offset", String(offset));
      }
      var now = Date.now() + Number(clock.getAttribute("data-clock-offset"));
      var left = Math.max(0, Math.ceil((ends - now) / 1000));
      var shown = clock.querySelector("[data-clock-time]");
      // The word for a clock run out comes with the page, in the page's language.
      if (shown) shown.textContent = left > 0 ? format(left) : clock.getAttribute("data-clock-over-text") || "Time";
      clock.classList.toggle("clock-over", left === 0);
      clock.classList.toggle("clock-last-minutes", left > 0 && left <= 300);
    }
  }

  tick();
  setInterval(tick, 1000);
})();
