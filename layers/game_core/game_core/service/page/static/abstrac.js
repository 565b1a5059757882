// Abstrac: cards laid or taken on the drawing (issue 30 item 2), where the move's form is on the page.
// Laying (the row game): each card not yet laid (`data-lay` on the drawing) is a button; clicked in
// order, the cards are written into the lay form (click one again to take it back). Taking (the
// row's picking, or a deal's take): each of the three cards at the front (`data-take`: how many a
// take up to it is) is a button that writes that count into the form. Either way the form is then
// checked by the service as any form is (page.js), and its verdict said in words beside the cards,
// in a tray under the drawing with the move chosen and a Send button. Without the script the form is there.
"use strict";

(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };

  function words(card) { return COLOURS[card[1]] + " " + card[0]; }

  var made = window.GeniusPage ? window.GeniusPage.element : null;  // page.js runs first

  // The tray under the drawing: what to do, the move chosen, the service's verdict, and Send.
  function tray(form, figure, help) {
    var box = made("div", "", { id: "card-tray", "class": "tray" });
    var chosen = made("p", "No card chosen yet.", { id: "card-said", role: "status", "aria-live": "polite" });
    var verdict = made("div", "", { id: "card-verdict", role: "status", "aria-live": "polite" });
    var send = made("button", "Send this move", { id: "card-send", type: "button", "class": "quiet" });
    send.addEventListener("click", function () { form.requestSubmit(); });
    [made("p", help), chosen, verdict, send].forEach(function (part) { box.appendChild(part); });
    figure.parentNode.insertBefore(box, figure.nextSibling);
    figure.querySelector("svg").setAttribute("role", "group");  // no longer a mere picture: it holds controls
    window.GeniusPage.verdictsInto(form, verdict);
    return chosen;
  }

  function clickable(group, label, press) {
    group.setAttribute("class", ((group.getAttribute("class") || "") + " card-button").trim());
    group.setAttribute("role", "button");
    group.setAttribute("tabindex", "0");
    group.setAttribute("aria-label", label);
    group.setAttribute("aria-pressed", "false");
    group.addEventListener("click", press);
    group.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); press(); }
    });
  }

  // A card shown chosen (`order`: its place in the move, or null when not chosen). The number is
  // drawn beside the button, not in it: the button's name stays what it shows.
  function mark(group, order) {
    var old = group.badge;
    if (old) { old.parentNode.removeChild(old); group.badge = null; }
    group.setAttribute("aria-pressed", order ? "true" : "false");
    group.classList.toggle("chosen", Boolean(order));
    if (!order) { return; }
    var card = group.querySelector("rect");
    var badge = document.createElementNS(SVG, "text");
    badge.setAttribute("class", "order");
    badge.setAttribute("x", Number(card.getAttribute("x")) + Number(card.getAttribute("width")) - 3);
    badge.setAttribute("y", Number(card.getAttribute("y")) + 12);
    badge.setAttribute("text-anchor", "end");
    badge.setAttribute("aria-hidden", "true");  // its place in the move is said in words in the tray
    badge.textContent = String(order);
    group.parentNode.appendChild(badge);
    group.badge = badge;
  }

  // The form's input written and the form told (page.js checks it, and stops reloading the page).
  function write(form, values) {
    Object.keys(values).forEach(function (id) {
      var input = document.getElementById(id);
      if (input) { input.value = values[id]; }
    });
    form.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function laying() {
    var form = document.getElementById("move-lay");
    var cards = Array.prototype.slice.call(document.querySelectorAll("svg g[data-lay]"));
    if (!form || !cards.length || !document.getElementById("move-lay-cards")) { return; }
    var said = tray(form, cards[0].closest("figure"), "Lay 1 to 3 cards at the back of the row: click them " +
      "under \u201cNot yet laid\u201d in the order you lay them (click one again to take it back).");
    var chosen = [];
    function show() {
      cards.forEach(function (group) { mark(group, chosen.indexOf(group.getAttribute("data-lay")) + 1 || null); });
      said.textContent = chosen.length ? "You lay " + chosen.map(words).join(", ") + ", in this order, at the back of the row."
        : "No card chosen yet.";
      write(form, { "move-lay-cards": chosen.join(" ") });
    }
    cards.forEach(function (group) {
      var card = group.getAttribute("data-lay");
      // Named by its face first ("1R", what shows: axe's label-content-name-mismatch), then in words.
      clickable(group, "Lay " + card + ", " + words(card), function () {
        var at = chosen.indexOf(card);
        if (at < 0) { chosen.push(card); } else { chosen.splice(at, 1); }
        show();
      });
    });
  }

  function taking() {
    var form = document.getElementById("move-pick") || document.getElementById("move-take");
    var cards = Array.prototype.slice.call(document.querySelectorAll("svg g[data-take]"));
    if (!form || !cards.length || !document.getElementById(form.id + "-count")) { return; }
    var where = form.id === "move-pick" ? "front of the row" : "top of the line";
    var said = tray(form, cards[0].closest("figure"), "Take 1 to 3 cards from the " + where +
      ": click the last card you take (the ones before it come with it).");
    cards.forEach(function (group) {
      var count = Number(group.getAttribute("data-take"));
      var taken = cards.slice(0, count).map(function (one) { return words(one.getAttribute("data-card")); });
      clickable(group, "Take " + count + " (up to " + words(group.getAttribute("data-card")) + ")", function () {
        cards.forEach(function (one) { mark(one, Number(one.getAttribute("data-take")) <= count ? Number(one.getAttribute("data-take")) : null); });
        said.textContent = "You take " + count + " card" + (count > 1 ? "s" : "") + " from the " + where + ": " + taken.join(", ") + ".";
        var values = {};  // the take said one way only: by its count
        values[form.id + "-count"] = String(count);
        values[form.id + "-last"] = "";
        values[form.id + "-cards"] = "";
        write(form, values);
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.GeniusPage) { return; }
    laying();
    taking();
  });
})();
