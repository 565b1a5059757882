// Moves picked by clicks on the player's page, where JavaScript runs (without it the move forms
// work as ever): Palindrome Construction's bid in a table of the round's packs and items, and
// Puzzler's Clubs' draft as cards put in order. Each picker reads what it offers off the drawn
// board (data attributes the game's board writes), writes the move into the form kept below it
// (folded: the no-script form, still editable), asks page.js to check it ("check-now") and shows
// each reason of the service's verdict ("verdict", from page.js) beside the row it is about.
"use strict";

(function () {
  function make(tag, attributes, text) {
    var element = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { element.setAttribute(name, attributes[name]); });
    if (text !== undefined) { element.textContent = text; }
    return element;
  }

  function field(form, name) {
    return form.querySelector("[name='f." + name + "']");
  }

  function put(form, name, value) {
    var input = field(form, name);
    if (input) { input.value = value; }
  }

  function button(text, label, press) {
    var made = make("button", { type: "button", "aria-label": label }, text);
    made.addEventListener("click", press);
    return made;
  }

  // The form's own inputs folded away under the picker (still sent, still editable by hand: a
  // change there is read back into the picker).
  function fold(form, picker, summary, onHandEdit) {
    var details = make("details", { "class": "by-hand" });
    details.appendChild(make("summary", {}, summary));
    Array.prototype.slice.call(form.children).forEach(function (child) {
      if (child.tagName === "FIELDSET" || (child.classList && child.classList.contains("field"))) {
        details.appendChild(child);
      }
    });
    form.insertBefore(picker, form.querySelector("button[type=submit]"));
    form.insertBefore(details, form.querySelector("button[type=submit]"));
    details.addEventListener("input", onHandEdit);
    details.addEventListener("change", onHandEdit);
  }

  // Each reason of a verdict beside the picker's row it is about: `placeOf(reason)` names the
  // row's key (or null: page.js shows it under the form).
  function showReasons(rows, verdict, placeOf) {
    Object.keys(rows).forEach(function (key) {
      rows[key].said.textContent = "";
      rows[key].row.classList.remove("refused");
    });
    verdict.reasons.forEach(function (reason) {
      var key = placeOf(reason);
      var row = key && rows[key];
      if (!row) { return; }
      row.said.textContent = (row.said.textContent ? row.said.textContent + " " : "") + reason.text;
      row.row.classList.add("refused");
    });
  }

  // ---- Palindrome Construction: the bidding table ------------------------------------------
  // A pack row takes one card (tapping another replaces it, tapping it again takes it back); an
  // item row any number, and garnets where the rule set lets garnets be bid. A card is used once:
  // tapped on a second row, it moves there.

  function bidTable() {
    var form = document.getElementById("move-bid");
    var drawn = document.querySelectorAll("svg g[data-pack], svg g[data-item]");
    if (!form || !drawn.length || !field(form, "cards.0.card")) { return; }
    var targets = Array.prototype.map.call(drawn, function (group) {
      var pack = group.getAttribute("data-pack");
      return pack ? { key: "pack-" + pack, kind: "pack", number: pack, words: "Pack " + pack,
        detail: group.getAttribute("data-digits").split("").join(" ") }
        : { key: "item-" + group.getAttribute("data-item"), kind: "item", number: group.getAttribute("data-item"),
          words: "Item " + group.getAttribute("data-item"), detail: group.getAttribute("data-name"),
          garnetValue: Number(group.getAttribute("data-garnet-value")) };
    });
    var state = { on: {}, garnets: 0, garnetItem: "1" };  // card -> target key
    var rows = {};
    var writtenRows = [];  // the form's row i -> the target key its card was written for

    function readForm() {
      state.on = {};
      writtenRows = [];
      for (var row = 0; field(form, "cards." + row + ".card"); row++) {
        var card = field(form, "cards." + row + ".card").value.trim();
        var pack = field(form, "cards." + row + ".pack").value.trim();
        var item = field(form, "cards." + row + ".item").value.trim();
        if (/^\d$/.test(card) && (pack || item)) {
          state.on[card] = pack ? "pack-" + pack : "item-" + item;
          writtenRows[row] = state.on[card];
        }
      }
      var garnets = field(form, "garnets");
      state.garnets = garnets && /^\d+$/.test(garnets.value.trim()) ? Number(garnets.value.trim()) : 0;
      var item = field(form, "garnet_item");
      state.garnetItem = item && item.value.trim() ? item.value.trim() : "1";
    }

    function writeForm() {
      writtenRows = [];
      for (var row = 0; field(form, "cards." + row + ".card"); row++) {
        ["card", "pack", "item"].forEach(function (name) { put(form, "cards." + row + "." + name, ""); });
      }
      Object.keys(state.on).sort().forEach(function (card, row) {
        var key = state.on[card];
        var target = key.split("-");
        put(form, "cards." + row + ".card", card);
        put(form, "cards." + row + "." + target[0], target[1]);
        writtenRows[row] = key;
      });
      put(form, "garnets", String(state.garnets));
      put(form, "garnet_item", state.garnetItem);
    }

    function cardsOn(key) {
      return Object.keys(state.on).filter(function (card) { return state.on[card] === key; }).sort();
    }

    function refresh() {
      targets.forEach(function (target) {
        var row = rows[target.key];
        Array.prototype.forEach.call(row.cards.children, function (one) {
          var card = one.getAttribute("data-card");
          var where = state.on[card];
          one.setAttribute("aria-pressed", where === target.key ? "true" : "false");
          one.classList.toggle("elsewhere", Boolean(where) && where !== target.key);
          one.setAttribute("aria-label", "Card " + card + (where === target.key ? " (on it: tap to take it back)"
            : where ? " (now on " + where.replace("-", " ") + ": tap to move it here)" : ""));
        });
        var mine = cardsOn(target.key);
        var sum = "";
        if (target.kind === "item") {
          var total = mine.reduce(function (a, b) { return a + Number(b); }, 0);
          var garnets = state.garnetItem === target.number ? state.garnets : 0;
          total += garnets * (target.garnetValue || 0);
          sum = mine.length || garnets ? ": sum " + total : "";
          if (row.garnets) {
            row.garnets.textContent = garnets + " garnet" + (garnets === 1 ? "" : "s") + " (+" + garnets * target.garnetValue + ")";
          }
        }
        row.mine.textContent = mine.length ? "Your card" + (mine.length > 1 ? "s " : " ") + mine.join(", ") + sum
          : (sum ? "No card" + sum : "No card");
      });
    }

    function changed() {
      writeForm();
      refresh();
      form.dispatchEvent(new Event("input", { bubbles: true }));  // checked, and the page not reloaded under it
    }

    function tap(target, card) {
      var key = target.key;
      if (state.on[card] === key) {
        delete state.on[card];
      } else {
        if (target.kind === "pack") {
          cardsOn(key).forEach(function (other) { delete state.on[other]; });  // one card a pack
        }
        state.on[card] = key;
      }
      changed();
    }

    function garnetStep(target, step) {
      var now = state.garnetItem === target.number ? state.garnets : 0;
      state.garnets = Math.max(0, now + step);
      state.garnetItem = target.number;
      changed();
    }

    var picker = make("div", { id: "bid-table", "class": "picker" });
    picker.appendChild(make("p", { "class": "hint", id: "bid-table-hint" },
      "Tap a card under a pack to bid it there (one card a pack; the highest card nobody else played on it wins the " +
      "pack). Under an item, tap as many cards as you like (the highest sum nobody else has wins it). Cards 0 to 9, " +
      "each used once: tapped again it is taken back, tapped on another row it moves there. Cards left over are not used."));
    var table = make("table", { "aria-describedby": "bid-table-hint" });
    table.appendChild(make("caption", {}, "Your bid, pack by pack and item by item"));
    var body = make("tbody");
    targets.forEach(function (target) {
      var row = make("tr", { id: "bid-" + target.key });
      var head = make("th", { scope: "row" }, target.words);
      head.appendChild(make("span", { "class": "detail" }, target.detail));
      var cell = make("td");
      var cards = make("div", { "class": "cards", role: "group", "aria-label": "Cards on " + target.words.toLowerCase() });
      for (var card = 0; card <= 9; card++) {
        var one = button(String(card), "Card " + card, tap.bind(null, target, String(card)));
        one.setAttribute("data-card", String(card));
        one.setAttribute("aria-pressed", "false");
        cards.appendChild(one);
      }
      var mine = make("p", { "class": "mine", "aria-live": "polite" });
      cell.appendChild(cards);
      cell.appendChild(mine);
      rows[target.key] = { row: row, cards: cards, mine: mine };
      if (target.kind === "item" && target.garnetValue > 0 && field(form, "garnets")) {
        var stepper = make("div", { "class": "garnets", role: "group", "aria-label": "Garnets on " + target.words.toLowerCase() });
        stepper.appendChild(button("\u2212", "One garnet fewer on " + target.words.toLowerCase(), garnetStep.bind(null, target, -1)));
        rows[target.key].garnets = make("span", { "aria-live": "polite" });
        stepper.appendChild(rows[target.key].garnets);
        stepper.appendChild(button("+", "One garnet more on " + target.words.toLowerCase() + " (each adds " +
          target.garnetValue + " to its sum)", garnetStep.bind(null, target, 1)));
        cell.appendChild(stepper);
      }
      rows[target.key].said = make("p", { "class": "error", id: "bid-" + target.key + "-said" });
      cell.appendChild(rows[target.key].said);
      row.appendChild(head);
      row.appendChild(cell);
      body.appendChild(row);
    });
    table.appendChild(body);
    picker.appendChild(table);
    fold(form, picker, "The same bid as rows of the form (filled in from the table; or write them by hand)", function () {
      readForm();
      refresh();
    });
    readForm();
    refresh();
    form.addEventListener("verdict", function (event) {
      showReasons(rows, event.detail, function (reason) {
        var hit = /^move-bid-cards-(\d+)-/.exec(reason.at);
        if (hit) { return writtenRows[Number(hit[1])] || null; }
        if (reason.at === "move-bid-garnets" || reason.at === "move-bid-garnet_item") { return "item-" + state.garnetItem; }
        return null;
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    bidTable();
  });
})();
