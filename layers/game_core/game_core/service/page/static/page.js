// The player's page, improved where JavaScript runs (it works without): a link's secret, kept in
// the fragment (never sent to a server, never logged), is posted once through the sign-in form and
// taken off the address bar; the deadline counts down live and is given in the browser's own zone;
// a Clubs puzzle's time taken counts on beside the answer box; a sealed receipt gets a copy
// button; the page reloads itself to stay
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
        // Marked "auto": the server keeps what is new marked until the player loads the page.
        var url = new URL(window.location.href);
        url.searchParams.set("auto", "");
        window.location.replace(url.toString());
      } else {
        timer = window.setTimeout(check, due - Date.now());
      }
    }
    document.addEventListener("visibilitychange", check);
    check();
  }

  // A move form checked as it is written (issue 30): the form posted to the page's check route
  // (`/play/{id}/check`, which stores nothing) a moment after the last change, and each reason
  // shown beside the input it is about (its `<id>-error`), the rest and the "legal" mark under the
  // form. Without the script the form is sent as ever and the service's refusal comes back as a page.
  function checked(form) {
    var box = document.getElementById(form.id + "-check");
    if (!box) {
      box = document.createElement("div");
      box.id = form.id + "-check";
      box.className = "check";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      form.insertBefore(box, form.querySelector("button[type=submit]"));
    }
    return box;
  }

  function clearField(input) {
    var said = document.getElementById(input.id + "-error");
    if (said) { said.textContent = ""; }
    input.removeAttribute("aria-invalid");
  }

  function showAtField(input, text) {
    var said = document.getElementById(input.id + "-error");
    if (!said) {
      said = document.createElement("span");
      said.className = "error";
      said.id = input.id + "-error";
      input.parentNode.appendChild(said);
      var described = input.getAttribute("aria-describedby");
      input.setAttribute("aria-describedby", (described ? described + " " : "") + said.id);
    }
    said.textContent = said.textContent ? said.textContent + " " + text : text;
    input.setAttribute("aria-invalid", "true");
  }

  function showVerdict(form, verdict) {
    Array.prototype.forEach.call(form.querySelectorAll("input, select, textarea"), clearField);
    var box = checked(form);
    box.textContent = "";
    var rest = document.createElement("ul");
    verdict.reasons.forEach(function (reason) {
      var at = document.getElementById(reason.at);
      if (at && at !== form && form.contains(at) && /^(INPUT|SELECT|TEXTAREA)$/.test(at.tagName)) {
        showAtField(at, reason.text);
      } else {
        var item = document.createElement("li");
        item.textContent = reason.text;
        item.setAttribute("data-code", reason.code);
        rest.appendChild(item);
      }
    });
    var head = document.createElement("p");
    head.className = verdict.legal ? "legal" : "not-legal";
    head.textContent = (verdict.legal ? "\u2713 " : "") + verdict.said;
    box.appendChild(head);
    if (rest.childNodes.length) { box.appendChild(rest); }
    box.setAttribute("data-legal", verdict.legal ? "true" : "false");
  }

  // The service's verdict on `body` (the form's fields, as URLSearchParams) as if `form` were sent:
  // a promise of the check route's answer, null when none came. A game's own script asks it of a
  // move it only shows (a preview on the drawing) as well as of the form as written.
  function askCheck(form, body) {
    body.delete("delivery");  // a check is no delivery
    return fetch(form.getAttribute("action").replace(/\/move$/, "/check"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json" },
      body: body.toString()
    }).then(function (reply) {
      return reply.ok ? reply.json() : null;
    }).catch(function () { return null; });  // no verdict: the form is still sent and checked on send
  }

  // Each verdict on a form as written is shown (`showVerdict`), then told to the game's own script
  // as a `verdict` event on the form (its `detail` the verdict).
  function checkMoves() {
    Array.prototype.forEach.call(document.querySelectorAll("form[id^='move-']"), function (form) {
      var timer = null;
      var asked = 0;
      function ask() {
        var mine = ++asked;  // only the latest answer is shown
        askCheck(form, new URLSearchParams(new FormData(form))).then(function (verdict) {
          if (verdict && mine === asked) {
            showVerdict(form, verdict);
            form.dispatchEvent(new CustomEvent("verdict", { detail: verdict }));
          }
        });
      }
      function later() {
        window.clearTimeout(timer);
        timer = window.setTimeout(ask, 400);
      }
      form.addEventListener("input", later);
      form.addEventListener("change", later);
    });
  }

  // Pushing Crates on the drawing: beside each crate on the track, a left and a right arrow (each a
  // button for the keyboard and a screen reader) that write the push into the round form's first
  // empty row and check it. Drawn only where the form is, so the page without script has no dead
  // buttons.
  var SVG = "http://www.w3.org/2000/svg";

  function pushInto(form, crate, direction) {
    for (var row = 0; ; row++) {
      var who = document.getElementById(form.id + "-pushes-" + row + "-crate");
      var way = document.getElementById(form.id + "-pushes-" + row + "-direction");
      if (!who || !way) { return -1; }
      if (!who.value) {
        who.value = crate;
        way.value = direction;
        form.dispatchEvent(new Event("input", { bubbles: true }));  // checked, and the page no longer reloads over it
        return row;
      }
    }
  }

  function arrow(form, group, crate, direction, x, y) {
    var title = group.querySelector("title").textContent;  // "Your crate", "Bo's crate"
    var whose = title.replace(/^Your /, "your ");
    var button = document.createElementNS(SVG, "g");
    button.setAttribute("class", "push");
    button.setAttribute("role", "button");
    button.setAttribute("tabindex", "0");
    button.setAttribute("data-crate", crate);
    button.setAttribute("data-direction", direction);
    button.setAttribute("aria-label", "Push " + whose + " " + direction);
    var circle = document.createElementNS(SVG, "circle");
    circle.setAttribute("cx", x);
    circle.setAttribute("cy", y);
    circle.setAttribute("r", 9);
    var sign = document.createElementNS(SVG, "text");
    sign.setAttribute("x", x);
    sign.setAttribute("y", y + 4);
    sign.setAttribute("text-anchor", "middle");
    sign.textContent = direction === "left" ? "\u2190" : "\u2192";
    button.appendChild(circle);
    button.appendChild(sign);
    function press() {
      var row = pushInto(form, crate, direction);
      var said = document.getElementById("push-said");
      if (said) {
        said.textContent = row < 0 ? "Every push row is used: send a smaller round, or clear a row first."
          : "Push " + (row + 1) + ": " + whose + " " + direction + ".";
      }
    }
    button.addEventListener("click", press);
    button.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); press(); }
    });
    group.appendChild(button);
  }

  function cratesOnTheDrawing() {
    var form = document.getElementById("move-round");
    var crates = document.querySelectorAll("svg g[data-mark^='crate-']");
    if (!form || !crates.length || !document.getElementById(form.id + "-pushes-0-crate")) { return; }
    var said = document.createElement("p");
    said.id = "push-said";
    said.setAttribute("role", "status");
    said.textContent = "Push a crate on the track with its arrows; the round form below fills in and is checked.";
    crates[0].ownerSVGElement.parentNode.parentNode.appendChild(said);
    Array.prototype.forEach.call(crates, function (group) {
      var box = group.querySelector("rect");
      var x = Number(box.getAttribute("x"));
      var y = Number(box.getAttribute("y")) + Number(box.getAttribute("height")) / 2;
      var crate = group.getAttribute("data-mark").slice("crate-".length);
      arrow(form, group, crate, "left", x - 9, y);
      arrow(form, group, crate, "right", x + Number(box.getAttribute("width")) + 9, y);
    });
  }

  // A drawing given controls to click is no longer a picture (role img holds no controls: a screen
  // reader would not reach them) but a group of them, still named by its title.
  function drawingsWithControls() {
    var drawings = document.querySelectorAll("#board svg[role='img']");
    Array.prototype.forEach.call(drawings, function (svg) {
      if (svg.querySelector("[role='button'], [tabindex], a, button, input, select")) {
        svg.setAttribute("role", "group");
      }
    });
  }

  // A sealed receipt's copy button (the text stays selectable where no clipboard is offered).
  function copyButtons() {
    var places = document.querySelectorAll("[data-copies]");
    Array.prototype.forEach.call(places, function (place) {
      var source = document.getElementById(place.getAttribute("data-copies"));
      if (!source || !navigator.clipboard) { return; }
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Copy the receipt";
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.textContent).then(function () {
          button.textContent = "Copied";
        }, function () {
          button.textContent = "Not copied: select the text instead";
        });
      });
      place.appendChild(button);
    });
  }

  // Each verdict on `form` also said in `box` (a game's tray beside its drawing, `data-legal` on it):
  // the verdict's words, then each reason in words.
  function verdictsInto(form, box) {
    form.addEventListener("verdict", function (event) {
      var verdict = event.detail;
      box.textContent = "";
      box.setAttribute("data-legal", verdict.legal ? "true" : "false");
      var head = document.createElement("p");
      head.className = verdict.legal ? "legal" : "not-legal";
      head.textContent = (verdict.legal ? "\u2713 " : "") + verdict.said;
      box.appendChild(head);
      if (!verdict.reasons.length) { return; }
      var list = document.createElement("ul");
      verdict.reasons.forEach(function (reason) {
        var item = document.createElement("li");
        item.textContent = reason.text;
        item.setAttribute("data-code", reason.code);
        list.appendChild(item);
      });
      box.appendChild(list);
    });
  }

  // An HTML element with its text and attributes (for a game's own script).
  function element(tag, text, attributes) {
    var made = document.createElement(tag);
    made.textContent = text;
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    return made;
  }

  window.GeniusPage = { check: askCheck, verdictsInto: verdictsInto, element: element };

  document.addEventListener("DOMContentLoaded", function () {
    copyButtons();
    signInFromFragment();
    countdown();
    elapsed();
    keepCurrent();
    checkMoves();
    cratesOnTheDrawing();
    drawingsWithControls();
  });
})();
