// The player's page, improved where JavaScript runs (it works without): a link's secret, kept in
// the fragment (never sent to a server, never logged), is posted once through the sign-in form and
// taken off the address bar; the deadline counts down live and is given in the browser's own zone;
// a Clubs puzzle's time taken counts on beside the answer box.
"use strict";

(function () {
  function signInFromFragment() {
    var form = document.getElementById("sign-in");
    var secret = decodeURIComponent(window.location.hash.slice(1));
    if (window.location.hash) {
      history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    if (form && secret) {
      document.getElementById("secret").value = secret;
      form.submit();
    }
  }

  function words(seconds) {
    if (seconds <= 0) { return "closed: the page shows the next phase once it resolves"; }
    var days = Math.floor(seconds / 86400);
    var hours = Math.floor((seconds % 86400) / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var parts = [];
    if (days) { parts.push(days + " d"); }
    if (days || hours) { parts.push(hours + " h"); }
    parts.push(minutes + " min");
    if (!days) { parts.push((seconds % 60) + " s"); }
    return parts.join(" ") + " left";
  }

  function countdown() {
    var time = document.getElementById("countdown");
    var left = document.getElementById("countdown-left");
    if (!time || !left) { return; }
    var deadline = Date.parse(time.getAttribute("datetime"));
    // The server's clock, not the browser's: the count is right even when the two disagree.
    var serverNow = Date.parse(time.getAttribute("data-now"));
    var loaded = Date.now();
    var local = document.getElementById("countdown-local");
    if (local) {
      local.textContent = "Your time: " + new Date(deadline).toLocaleString(undefined, {
        weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit", timeZoneName: "short"
      });
    }
    function tick() {
      var seconds = Math.floor((deadline - serverNow - (Date.now() - loaded)) / 1000);
      left.textContent = words(seconds);
    }
    tick();
    window.setInterval(tick, 1000);
  }

  function span(seconds) {
    var minutes = Math.floor(seconds / 60);
    return (minutes ? minutes + " min " : "") + (seconds % 60) + " s";
  }

  // Clubs' puzzles: the time taken since each was sent, counting on (from the server's now).
  function elapsed() {
    var clocks = document.querySelectorAll("time.elapsed");
    var loaded = Date.now();
    Array.prototype.forEach.call(clocks, function (clock) {
      var started = Date.parse(clock.getAttribute("datetime"));
      var serverNow = Date.parse(clock.getAttribute("data-now"));
      function tick() {
        clock.textContent = span(Math.max(0, Math.floor((serverNow - started + Date.now() - loaded) / 1000)));
      }
      tick();
      window.setInterval(tick, 1000);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    signInFromFragment();
    countdown();
    elapsed();
  });
})();
