// Palindrome Construction's bid picked in a table of the round's packs and items (pickers.js has
// what the pickers share). A pack row takes one card (tapping another replaces it, tapping it
// again takes it back); an item row any number, and garnets where the rule set lets garnets be
// bid. A card is used once: tapped on a second row, it moves there. The rows come from the
// board's rows of the round open for bidding (data-pack, data-item).
"use strict";

(function () {
  var P = window.Pickers;

  function targetOf(group) {
    var pack = group.getAttribute("data-pack");
    if (pack) {
      return { key: "pack-" + pack, kind: "pack", number: pack, words: "Pack " + pack,
        detail: group.getAttribute("data-digits").split("").join(" ") };
    }
    var item = group.getAttribute("data-item");
    return { key: "item-" + item, kind: "item", number: item, words: "Item " + item,
      detail: group.getAttribute("data-name"), garnetValue: Number(group.getAttribute("data-garnet-value")) };
  }

  // What the form holds: each card's row (pack-3, item-1), the garnets and their item.
  function readForm(bid) {
    var form = bid.form;
    bid.on = {};
    bid.written = [];
    for (var row = 0; P.field(form, "cards." + row + ".card"); row++) {
      var card = P.field(form, "cards." + row + ".card").value.trim();
      var pack = P.field(form, "cards." + row + ".pack").value.trim();
      var item = P.field(form, "cards." + row + ".item").value.trim();
      if (/^\d$/.test(card) && (pack || item)) {
        bid.on[card] = pack ? "pack-" + pack : "item-" + item;
        bid.written[row] = bid.on[card];
      }
    }
    var garnets = P.field(form, "garnets");
    bid.garnets = garnets && /^\d+$/.test(garnets.value.trim()) ? Number(garnets.value.trim()) : 0;
    var item = P.field(form, "garnet_item");
    bid.garnetItem = item && item.value.trim() ? item.value.trim() : "1";
  }

  function writeForm(bid) {
    var form = bid.form;
    bid.written = [];
    for (var row = 0; P.field(form, "cards." + row + ".card"); row++) {
      ["card", "pack", "item"].forEach(function (name) { P.put(form, "cards." + row + "." + name, ""); });
    }
    Object.keys(bid.on).sort().forEach(function (card, row) {
      var target = bid.on[card].split("-");
      P.put(form, "cards." + row + ".card", card);
      P.put(form, "cards." + row + "." + target[0], target[1]);
      bid.written[row] = bid.on[card];
    });
    P.put(form, "garnets", String(bid.garnets));
    P.put(form, "garnet_item", bid.garnetItem);
  }

  function cardsOn(bid, key) {
    return Object.keys(bid.on).filter(function (card) { return bid.on[card] === key; }).sort();
  }

  function showButtons(bid, target) {
    Array.prototype.forEach.call(bid.rows[target.key].cards.children, function (one) {
      var card = one.getAttribute("data-card");
      var where = bid.on[card];
      one.setAttribute("aria-pressed", where === target.key ? "true" : "false");
      one.classList.toggle("elsewhere", Boolean(where) && where !== target.key);
      one.setAttribute("aria-label", "Card " + card + (where === target.key ? " (on it: tap to take it back)"
        : where ? " (now on " + where.replace("-", " ") + ": tap to move it here)" : ""));
    });
  }

  // A row's words: its cards, and for an item its sum (cards + garnets x their value).
  function showMine(bid, target) {
    var row = bid.rows[target.key];
    var mine = cardsOn(bid, target.key);
    var sum = "";
    if (target.kind === "item") {
      var garnets = bid.garnetItem === target.number ? bid.garnets : 0;
      var total = mine.reduce(function (a, b) { return a + Number(b); }, 0) + garnets * (target.garnetValue || 0);
      sum = mine.length || garnets ? ": sum " + total : "";
      if (row.garnets) {
        row.garnets.textContent = garnets + " garnet" + (garnets === 1 ? "" : "s") + " (+" + garnets * target.garnetValue + ")";
      }
    }
    row.mine.textContent = mine.length ? "Your card" + (mine.length > 1 ? "s " : " ") + mine.join(", ") + sum
      : "No card" + sum;
  }

  function refresh(bid) {
    bid.targets.forEach(function (target) {
      showButtons(bid, target);
      showMine(bid, target);
    });
  }

  function changed(bid) {
    writeForm(bid);
    refresh(bid);
    P.changed(bid.form);
  }

  function tap(bid, target, card) {
    if (bid.on[card] === target.key) {
      delete bid.on[card];
    } else {
      if (target.kind === "pack") {  // one card a pack
        cardsOn(bid, target.key).forEach(function (other) { delete bid.on[other]; });
      }
      bid.on[card] = target.key;
    }
    changed(bid);
  }

  function garnetStep(bid, target, step) {
    var now = bid.garnetItem === target.number ? bid.garnets : 0;
    bid.garnets = Math.max(0, now + step);
    bid.garnetItem = target.number;
    changed(bid);
  }

  function stepper(bid, target) {
    var words = target.words.toLowerCase();
    var made = P.make("div", { "class": "garnets", role: "group", "aria-label": "Garnets on " + words });
    made.appendChild(P.button("\u2212", "One garnet fewer on " + words, garnetStep.bind(null, bid, target, -1)));
    bid.rows[target.key].garnets = P.make("span", { "aria-live": "polite" });
    made.appendChild(bid.rows[target.key].garnets);
    made.appendChild(P.button("+", "One garnet more on " + words + " (each adds " + target.garnetValue + " to its sum)",
      garnetStep.bind(null, bid, target, 1)));
    return made;
  }

  function tableRow(bid, target) {
    var row = P.make("tr", { id: "bid-" + target.key });
    var head = P.make("th", { scope: "row" }, target.words);
    head.appendChild(P.make("span", { "class": "detail" }, target.detail));
    var cell = P.make("td");
    var cards = P.make("div", { "class": "cards", role: "group", "aria-label": "Cards on " + target.words.toLowerCase() });
    for (var card = 0; card <= 9; card++) {
      var one = P.button(String(card), "Card " + card, tap.bind(null, bid, target, String(card)));
      one.setAttribute("data-card", String(card));
      one.setAttribute("aria-pressed", "false");
      cards.appendChild(one);
    }
    bid.rows[target.key] = { row: row, cards: cards, mine: P.make("p", { "class": "mine", "aria-live": "polite" }) };
    cell.appendChild(cards);
    cell.appendChild(bid.rows[target.key].mine);
    if (target.kind === "item" && target.garnetValue > 0 && P.field(bid.form, "garnets")) {
      cell.appendChild(stepper(bid, target));
    }
    bid.rows[target.key].said = P.make("p", { "class": "error", id: "bid-" + target.key + "-said" });
    cell.appendChild(bid.rows[target.key].said);
    row.appendChild(head);
    row.appendChild(cell);
    return row;
  }

  var HINT = "Tap a card under a pack to bid it there (one card a pack; the highest card nobody else played on it " +
    "wins the pack). Under an item, tap as many cards as you like (the highest sum nobody else has wins it). " +
    "Cards 0 to 9, each used once: tapped again it is taken back, tapped on another row it moves there. Cards " +
    "left over are not used.";

  function picker(bid) {
    var made = P.make("div", { id: "bid-table", "class": "picker" });
    made.appendChild(P.make("p", { "class": "hint", id: "bid-table-hint" }, HINT));
    var table = P.make("table", { "aria-describedby": "bid-table-hint" });
    table.appendChild(P.make("caption", {}, "Your bid, pack by pack and item by item"));
    var body = P.make("tbody");
    bid.targets.forEach(function (target) { body.appendChild(tableRow(bid, target)); });
    table.appendChild(body);
    made.appendChild(table);
    return made;
  }

  // The row a reason is about: the form row's card written for it, or the garnets' item.
  function placeOf(bid, reason) {
    var hit = /^move-bid-cards-(\d+)-/.exec(reason.at);
    if (hit) { return bid.written[Number(hit[1])] || null; }
    if (reason.at === "move-bid-garnets" || reason.at === "move-bid-garnet_item") { return "item-" + bid.garnetItem; }
    return null;
  }

  // A click on an open row of the drawn table leads to its row of the bid table (that row's first
  // card gets the focus). Only a pointer's shortcut: the bid table itself, right under the
  // drawing's words, is where the keyboard and a screen reader bid (the drawing stays a picture).
  function drawnRowsLead(bid, drawn) {
    Array.prototype.forEach.call(drawn, function (group, index) {
      var target = bid.targets[index];
      group.classList.add("lead");
      group.addEventListener("click", function () {
        var first = bid.rows[target.key].cards.firstChild;
        first.scrollIntoView({ block: "center" });
        first.focus();
      });
    });
  }

  function bidTable() {
    var form = document.getElementById("move-bid");
    var drawn = document.querySelectorAll("svg g[data-pack], svg g[data-item]");
    if (!P || !form || !drawn.length || !P.field(form, "cards.0.card")) { return; }
    var bid = { form: form, targets: Array.prototype.map.call(drawn, targetOf), rows: {}, on: {}, written: [],
      garnets: 0, garnetItem: "1" };
    var summary = "The same bid as rows of the form (filled in from the table; or write them by hand)";
    P.attach(form, picker(bid), summary, readForm.bind(null, bid), refresh.bind(null, bid),
      function () { return bid.rows; }, placeOf.bind(null, bid));
    drawnRowsLead(bid, drawn);
  }

  document.addEventListener("DOMContentLoaded", bidTable);
})();
