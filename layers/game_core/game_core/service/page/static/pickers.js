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

  // A picker set in its form: the form's inputs folded under it, what the form holds read into it
  // (now, and after each edit by hand), each verdict's reasons shown beside its rows (`rowsNow()`).
  function attach(form, picker, summary, read, draw, rowsNow, placeOf) {
    function again() { read(); draw(); }
    fold(form, picker, summary, again);
    again();
    form.addEventListener("verdict", function (event) { showReasons(rowsNow(), event.detail, placeOf); });
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
    var summary = "The same bid as rows of the form (filled in from the table; or write them by hand)";
    attach(form, picker, summary, readForm, refresh, function () { return rows; }, function (reason) {
      var hit = /^move-bid-cards-(\d+)-/.exec(reason.at);
      if (hit) { return writtenRows[Number(hit[1])] || null; }
      if (reason.at === "move-bid-garnets" || reason.at === "move-bid-garnet_item") { return "item-" + state.garnetItem; }
      return null;
    });
  }

  // ---- Puzzler's Clubs: the draft as six cards in order ------------------------------------
  // Tap six cards (the community and hole cards are not offered), then put them in order with
  // each card's up and down buttons: the first is priority 1. A club names one of the unused Club
  // Tokens (a choice of them); a priority may be lowered by 1 for 2 garnets.

  var SUITS = { C: ["\u2663", "clubs"], S: ["\u2660", "spades"], H: ["\u2665", "hearts"], D: ["\u2666", "diamonds"] };
  var RANKS = "23456789TJQKA";
  var RANK_WORDS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };

  function cardWords(code) {
    return (RANK_WORDS[code[0]] || code[0]) + " of " + SUITS[code[1]][1];
  }

  function cardFace(code) {
    return (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]][0];
  }

  function draftOrder() {
    var form = document.getElementById("move-draft");
    var deal = document.querySelector("svg g[data-out-of-draft]");
    if (!form || !deal || !field(form, "picks.0.card")) { return; }
    var out = deal.getAttribute("data-out-of-draft").split(" ");
    var held = document.querySelector("svg g[data-unused]");
    var tokens = held && held.getAttribute("data-unused") ? held.getAttribute("data-unused").split(" ").map(function (one) {
      var parts = one.split("=");
      return { name: parts[0], seconds: parts[1] };
    }) : [];
    var state = { picks: [], lowered: {} };  // picks in priority order: {card, token}
    var chooser = {};
    var list = make("ol", { "class": "draft-order", "aria-label": "Your six cards, priority 1 first" });
    var said = make("p", { id: "draft-said", role: "status" });

    function readForm() {
      var rows = [];
      for (var row = 0; field(form, "picks." + row + ".card"); row++) {
        var card = field(form, "picks." + row + ".card").value.trim().toUpperCase().replace("10", "T");
        var priority = Number(field(form, "picks." + row + ".priority").value.trim());
        var token = field(form, "picks." + row + ".token");
        if (/^[2-9TJQKA][CSHD]$/.test(card)) { rows.push({ card: card, token: token ? token.value.trim() : "", priority: priority || 99 }); }
      }
      rows.sort(function (a, b) { return a.priority - b.priority; });
      state.picks = rows.map(function (one) { return { card: one.card, token: one.token }; });
      state.lowered = {};
      var lowered = field(form, "lowered");
      (lowered ? lowered.value.split(/[\s,]+/) : []).forEach(function (n) { if (/^[1-6]$/.test(n)) { state.lowered[n] = true; } });
    }

    function writeForm() {
      for (var row = 0; field(form, "picks." + row + ".card"); row++) {
        var pick = state.picks[row];
        put(form, "picks." + row + ".card", pick ? pick.card : "");
        put(form, "picks." + row + ".priority", pick ? String(row + 1) : "");
        put(form, "picks." + row + ".token", pick && pick.card[1] === "C" ? pick.token : "");
      }
      put(form, "lowered", Object.keys(state.lowered).filter(function (n) {
        return state.lowered[n] && Number(n) <= state.picks.length;
      }).sort().join(" "));
    }

    function changed(words) {
      writeForm();
      render();
      said.textContent = words;
      form.dispatchEvent(new Event("input", { bubbles: true }));
    }

    function indexOf(card) {
      for (var i = 0; i < state.picks.length; i++) { if (state.picks[i].card === card) { return i; } }
      return -1;
    }

    function toggle(card) {
      var at = indexOf(card);
      if (at >= 0) {
        state.picks.splice(at, 1);
        changed("Taken back: the " + cardWords(card) + ".");
      } else if (state.picks.length >= 6) {
        said.textContent = "Six cards are chosen: take one back first (its \u00d7 button, or tap it here).";
      } else {
        state.picks.push({ card: card, token: "" });
        changed("The " + cardWords(card) + " is priority " + state.picks.length + ".");
      }
    }

    function move(at, step) {
      var to = at + step;
      if (to < 0 || to >= state.picks.length) { return; }
      var moved = state.picks.splice(at, 1)[0];
      state.picks.splice(to, 0, moved);
      changed("The " + cardWords(moved.card) + " is priority " + (to + 1) + ".");
      var again = list.children[to] && list.children[to].querySelector(step < 0 ? "button.up" : "button.down");
      if (again && !again.disabled) { again.focus(); } else if (list.children[to]) { list.children[to].querySelector("button").focus(); }
    }

    function tokenChoice(pick, at) {
      var select = make("select", { "aria-label": "Club Token for the " + cardWords(pick.card) });
      select.appendChild(make("option", { value: "" }, tokens.length ? "(choose a token)" : "(no token yet: solve a puzzle)"));
      tokens.forEach(function (token) {
        var option = make("option", { value: token.name }, "token " + token.name + " (" + token.seconds + " s)");
        if (token.name === pick.token) { option.selected = true; }
        select.appendChild(option);
      });
      select.addEventListener("change", function () {
        state.picks[at].token = select.value;
        changed(select.value ? "Token " + select.value + " on the " + cardWords(pick.card) + "." : "");
      });
      return select;
    }

    function row(pick, at) {
      var item = make("li", { id: "draft-pick-" + (at + 1) });
      var priority = String(at + 1);
      item.appendChild(make("span", { "class": "face suit-" + pick.card[1] }, cardFace(pick.card)));
      item.appendChild(make("span", { "class": "words" }, " priority " + priority + ": " + cardWords(pick.card)));
      var moves = make("div", { "class": "order-moves" });
      var up = button("\u2191", "Move the " + cardWords(pick.card) + " up (priority " + at + ")", function () { move(at, -1); });
      up.className = "up";
      up.disabled = at === 0;
      var down = button("\u2193", "Move the " + cardWords(pick.card) + " down (priority " + (at + 2) + ")", function () { move(at, 1); });
      down.className = "down";
      down.disabled = at === state.picks.length - 1;
      moves.appendChild(up);
      moves.appendChild(down);
      moves.appendChild(button("\u00d7", "Take the " + cardWords(pick.card) + " back", function () { toggle(pick.card); }));
      var lower = button("\u22121 for 2 garnets", "Lower priority " + priority + " by 1 for 2 garnets", function () {
        state.lowered[priority] = !state.lowered[priority];
        changed(state.lowered[priority] ? "Priority " + priority + " lowered by 1 (2 garnets)." : "Priority " + priority + " as it is.");
      });
      lower.setAttribute("aria-pressed", state.lowered[priority] ? "true" : "false");
      moves.appendChild(lower);
      if (pick.card[1] === "C") { moves.appendChild(tokenChoice(pick, at)); }
      item.appendChild(moves);
      item.appendChild(make("p", { "class": "error", id: "draft-pick-" + (at + 1) + "-said" }));
      return item;
    }

    var rows = {};
    function render() {
      list.textContent = "";
      rows = {};
      state.picks.forEach(function (pick, at) {
        var item = row(pick, at);
        list.appendChild(item);
        rows[String(at)] = { row: item, said: item.querySelector(".error") };
      });
      Object.keys(chooser).forEach(function (card) {
        var at = indexOf(card);
        chooser[card].setAttribute("aria-pressed", at >= 0 ? "true" : "false");
        chooser[card].setAttribute("aria-label", "The " + cardWords(card) + (at >= 0 ? " (priority " + (at + 1) + ": tap to take it back)" : ""));
      });
    }

    var picker = make("div", { id: "draft-picker", "class": "picker" });
    picker.appendChild(make("p", { "class": "hint", id: "draft-hint" },
      "Tap six different cards (the community card and the hole cards are not in the draft), then put them in order " +
      "with \u2191 and \u2193: the first is priority 1. A card goes to the single lowest priority on it; a club to " +
      "the single lowest token \u00d7 priority, so each club names one of your unused Club Tokens."));
    var grid = make("div", { "class": "deck", role: "group", "aria-label": "The cards you may draft" });
    Object.keys(SUITS).forEach(function (suit) {
      var line = make("div", { "class": "cards", role: "group", "aria-label": SUITS[suit][1] });
      RANKS.split("").forEach(function (rank) {
        var card = rank + suit;
        if (out.indexOf(card) >= 0) { return; }  // the community and hole cards: not in the draft
        var one = button(cardFace(card), "The " + cardWords(card), function () { toggle(card); });
        one.className = "suit-" + suit;
        chooser[card] = one;
        line.appendChild(one);
      });
      grid.appendChild(line);
    });
    picker.appendChild(grid);
    picker.appendChild(make("p", { "class": "caption" }, "Your draft, priority 1 first:"));
    picker.appendChild(list);
    picker.appendChild(said);
    var summary = "The same draft as rows of the form (filled in from the cards; or write them by hand)";
    attach(form, picker, summary, readForm, render, function () { return rows; }, function (reason) {
      var hit = /^move-draft-picks-(\d+)-/.exec(reason.at);
      return hit ? hit[1] : null;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    bidTable();
    draftOrder();
  });
})();
