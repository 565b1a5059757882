// The player's page, improved where JavaScript runs (it works without): a link's secret, kept in
// the fragment (never sent to a server, never logged), is posted once through the sign-in form and
// taken off the address bar; the deadline counts down live and is given in the browser's own zone;
// a Clubs puzzle's time taken counts on beside the answer box; the page reloads itself to stay
// current (keepCurrent).
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

  // The page stays current as a table on Board Game Arena does: reloaded every `data-refresh`
  // seconds while its tab is visible, and a few seconds after its countdown reaches zero (the phase
  // resolves); never while hidden (it reloads when shown again, if due), and never once the player
  // has written in a form (a reload would lose it: then the next send shows the news).
  function keepCurrent() {
    var main = document.querySelector("main[data-refresh]");
    if (!main) { return; }
    var every = 1000 * Number(main.getAttribute("data-refresh"));
    var loaded = Date.now();
    var due = loaded + every;
    var time = document.getElementById("countdown");
    if (time) {
      var left = Date.parse(time.getAttribute("datetime")) - Date.parse(time.getAttribute("data-now"));
      if (left > 0) { due = Math.min(due, loaded + left + 3000); }
    }
    var writing = false;
    var timer = null;
    document.addEventListener("input", function () { writing = true; });
    function check() {
      window.clearTimeout(timer);
      if (writing || document.visibilityState !== "visible") { return; }
      if (Date.now() >= due) {
        window.location.reload();
      } else {
        timer = window.setTimeout(check, due - Date.now());
      }
    }
    document.addEventListener("visibilitychange", check);
    check();
  }

  document.addEventListener("DOMContentLoaded", function () {
    signInFromFragment();
    countdown();
    elapsed();
    keepCurrent();
  });
})();
