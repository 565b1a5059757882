// Domino Auction: bids made on the drawing (issue 30 item 2), where the bid form is on the page.
// Each tile of the open auction (inside the group carrying `data-bids`) is a button: chosen, the
// tray under the drawing asks the chips to bid on it, writes them into the bid form's row for that
// tile (a new row if none holds it yet), shows the bid on the tile and the total against the chips
// left (`data-chips-left`), and says the service's verdict on the form in words, with a Send button;
// the tray is above the drawing, stuck at the window's top while the auction is in sight.
// Without the script the form is there.
"use strict";

(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var FORM = "move-bid";

  var made = window.GeniusPage ? window.GeniusPage.element : null;  // page.js runs first

  function input(form, row, part) {
    var id = FORM + "-bids-" + row + "-" + part;
    var found = document.getElementById(id);
    if (!found) {  // more tiles than the form's rows: the service reads every row posted
      found = made("input", "", { type: "hidden", id: id, name: "f.bids." + row + "." + part });
      form.appendChild(found);
    }
    return found;
  }

  // The form's row bidding on `tile`, else its first empty row (a new one past the last).
  function rowOf(form, tile) {
    var empty = null;
    for (var row = 0; ; row++) {
      var cell = document.getElementById(FORM + "-bids-" + row + "-tile");
      if (!cell) { return empty === null ? row : empty; }
      if (cell.value === tile) { return row; }
      if (!cell.value && empty === null) { empty = row; }
    }
  }

  function bidOf(form, tile) {
    var cell = document.getElementById(FORM + "-bids-" + rowOf(form, tile) + "-chips");
    return cell && document.getElementById(FORM + "-bids-" + rowOf(form, tile) + "-tile").value === tile ? cell.value : "";
  }

  function total(form) {
    var sum = 0;
    Array.prototype.forEach.call(form.querySelectorAll("input[name$='.chips']"), function (cell) { sum += Number(cell.value) || 0; });
    return sum;
  }

  // The bid written on the tile, under its shape ("bid 12"), or nothing.
  function label(group, chips, size) {
    var shown = group.querySelector("text.bid-now");
    if (!shown) {
      shown = document.createElementNS(SVG, "text");
      shown.setAttribute("class", "bid-now");
      shown.setAttribute("x", size[0] - 6);
      shown.setAttribute("y", 16);
      shown.setAttribute("text-anchor", "end");
      group.appendChild(shown);
    }
    shown.textContent = chips ? "bid " + chips : "";
    var box = group.querySelector("rect.hit");  // the button: its name says the bid too
    if (box) { box.setAttribute("aria-label", "Bid on " + named(group) + (chips ? ", " + chips + " chips bid" : "")); }
  }

  function tray(form, figure, left) {
    var box = made("div", "", { id: "bid-tray", "class": "tray top" });
    var field = made("div", "", { "class": "field", hidden: "" });
    var named = made("label", "Chips on the tile you choose", { "for": "bid-chips" });
    var chips = made("input", "", { id: "bid-chips", type: "number", min: "0", max: String(left), inputmode: "numeric" });
    [named, chips].forEach(function (part) { field.appendChild(part); });
    var sum = made("p", "", { id: "bid-total", role: "status", "aria-live": "polite" });
    var verdict = made("div", "", { id: "bid-verdict", role: "status", "aria-live": "polite" });
    var send = made("button", "Send the bids", { id: "bid-send", type: "button", "class": "quiet" });
    send.addEventListener("click", function () { form.requestSubmit(); });
    var help = made("p", "Bid: click a tile of the open auction, then write its chips (0: no bid). " +
      "Every chip bid is spent, won or not.");
    [help, field, sum, verdict, send].forEach(function (part) { box.appendChild(part); });
    figure.parentNode.insertBefore(box, figure);  // above the drawing, whose top is the open auction
    window.GeniusPage.verdictsInto(form, verdict);
    return { field: field, named: named, chips: chips, sum: sum };
  }

  // "tile 23 (L4)", from the tile's title ("Tile 23, L4, ...").
  function named(group) {
    var said = group.querySelector("title").textContent.split(", ");
    return said[0].toLowerCase() + " (" + said[1] + ")";
  }

  function bidOnTheDrawing() {
    var form = document.getElementById(FORM);
    var auction = document.querySelector("svg g[data-bids='open']");
    if (!form || !auction || !window.GeniusPage || !document.getElementById(FORM + "-bids-0-tile")) { return; }
    var left = Number(auction.getAttribute("data-chips-left"));
    var size = auction.getAttribute("data-tile-size").split(" ").map(Number);
    var shown = tray(form, auction.closest("figure"), left);
    var chosen = null;
    var groups = Array.prototype.slice.call(auction.querySelectorAll("g[data-mark^='tile-']"));
    function totalSaid() { shown.sum.textContent = "You bid " + total(form) + " chips in all, of the " + left + " you have left."; }
    function choose(group) {
      chosen = group;
      var tile = group.getAttribute("data-mark").slice("tile-".length);
      groups.forEach(function (one) {
        one.classList.toggle("chosen", one === group);
        one.querySelector("rect.hit").setAttribute("aria-pressed", String(one === group));
      });
      shown.field.hidden = false;
      shown.named.textContent = "Chips on " + named(group);
      shown.chips.value = bidOf(form, tile);
      shown.chips.focus();
    }
    shown.chips.addEventListener("input", function () {
      var tile = chosen.getAttribute("data-mark").slice("tile-".length);
      var row = rowOf(form, tile);
      input(form, row, "tile").value = shown.chips.value === "" ? "" : tile;
      input(form, row, "chips").value = shown.chips.value;
      label(chosen, Number(shown.chips.value), size);
      totalSaid();
      form.dispatchEvent(new Event("input", { bubbles: true }));  // checked as any form is
    });
    groups.forEach(function (group) {
      var hit = document.createElementNS(SVG, "rect");  // the whole box clickable, not its drawn shape alone
      [["class", "hit"], ["width", size[0]], ["height", size[1]]].forEach(function (pair) { hit.setAttribute(pair[0], pair[1]); });
      group.insertBefore(hit, group.firstChild.nextSibling);
      // The button is the box (named in words), not the group: the group's drawn text ("1 I3",
      // "bid 5") is no part of a name that says it otherwise (axe: label-content-name-mismatch).
      hit.setAttribute("role", "button");
      hit.setAttribute("tabindex", "0");
      hit.setAttribute("aria-label", "Bid on " + named(group));
      hit.setAttribute("aria-pressed", "false");
      group.classList.add("card-button");
      label(group, Number(bidOf(form, group.getAttribute("data-mark").slice("tile-".length))), size);
      group.addEventListener("click", function () { choose(group); });
      group.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(group); }
      });
    });
    auction.ownerSVGElement.setAttribute("role", "group");  // no longer a mere picture: it holds controls
    totalSaid();
    // The tray stays at the top of the window while the open auction is in sight, and no longer
    // (the boards under it, and the place tray at the foot, keep the whole window then).
    if (window.IntersectionObserver) {
      var above = document.getElementById("bid-tray");
      new IntersectionObserver(function (seen) { above.classList.toggle("stuck", seen[0].isIntersecting); }).observe(auction);
    }
  }

  document.addEventListener("DOMContentLoaded", bidOnTheDrawing);
})();
