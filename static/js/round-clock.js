// The round clock: counts down to the end time the server sent, once a second.
//
// Every element with data-clock-ends (an ISO time) shows the time left in its
// [data-clock-time] child. How far this device's clock is from the server's is measured
// once, when the page loads, from the server's time the page carries (data-clock-now on
// the element, or data-server-now on the page), and used for every clock after that:
// a panel swapped in later (by htmx polling, perhaps from a cache) carries only the end
// time, which never goes stale. So a phone whose clock is wrong still shows the room's time.
(function () {
  "use strict";

  var loadedAt = Date.now();
  var page = document.querySelector("[data-server-now]");
  var pageServerNow = page ? Date.parse(page.getAttribute("data-server-now")) : NaN;
  var pageOffset = isNaN(pageServerNow) ? 0 : pageServerNow - loadedAt;

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function format(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  function offsetOf(clock) {
    if (!clock.hasAttribute("data-clock-offset")) {
      // An element sent with its own server time (a page that is never cached) is
      // measured against it when first seen, which is when it was loaded.
      var own = Date.parse(clock.getAttribute("data-clock-now") || "");
      clock.setAttribute("data-clock-offset", String(isNaN(own) ? pageOffset : own - Date.now()));
    }
    return Number(clock.getAttribute("data-clock-offset"));
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock-ends]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var ends = Date.parse(clock.getAttribute("data-clock-ends"));
      if (isNaN(ends)) continue;
      var now = Date.now() + offsetOf(clock);
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
  // A panel swapped in shows the time left at once, not a second later.
  document.addEventListener("htmx:afterSwap", tick);
})();
