// Puzzler's Clubs' draft as six cards put in order (pickers.js has what the pickers share). Tap
// six cards (the community and hole cards, off the board's deal, are not offered), then put them
// in order with each card's up and down buttons (keyboard and phone alike: no dragging): the first
// is priority 1. A club names one of the unused Club Tokens (a choice of them, off the board's
// tokens); a priority may be lowered by 1 for 2 garnets.
"use strict";

(function () {
  var P = window.Pickers;
  var SUITS = { C: ["\u2663", "clubs"], S: ["\u2660", "spades"], H: ["\u2665", "hearts"], D: ["\u2666", "diamonds"] };
  var RANKS = "23456789TJQKA";
  var RANK_WORDS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
  var DRAFT = 6;

  function cardWords(code) {
    return (RANK_WORDS[code[0]] || code[0]) + " of " + SUITS[code[1]][1];
  }

  function cardFace(code) {
    return (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]][0];
  }

  // A card's button named as its face reads, then in words ("A\u2660, ace of spades"): the name
  // holds what the button shows (axe's label-content-name-mismatch).
  function named(card, state) {
    return cardFace(card) + ", " + cardWords(card) + state;
  }

  function tokensOf(held) {
    var listed = held ? held.getAttribute("data-unused") : "";
    return listed ? listed.split(" ").map(function (one) {
      var parts = one.split("=");
      return { name: parts[0], seconds: parts[1] };
    }) : [];
  }

  // What the form holds: its picks by priority, and the priority numbers lowered.
  function readForm(draft) {
    var form = draft.form;
    var rows = [];
    for (var row = 0; P.field(form, "picks." + row + ".card"); row++) {
      var card = P.field(form, "picks." + row + ".card").value.trim().toUpperCase().replace("10", "T");
      var priority = Number(P.field(form, "picks." + row + ".priority").value.trim());
      var token = P.field(form, "picks." + row + ".token");
      if (/^[2-9TJQKA][CSHD]$/.test(card)) {
        rows.push({ card: card, token: token ? token.value.trim() : "", priority: priority || 99 });
      }
    }
    rows.sort(function (a, b) { return a.priority - b.priority; });
    draft.picks = rows.map(function (one) { return { card: one.card, token: one.token }; });
    draft.lowered = {};
    var lowered = P.field(form, "lowered");
    (lowered ? lowered.value.split(/[\s,]+/) : []).forEach(function (n) {
      if (/^[1-6]$/.test(n)) { draft.lowered[n] = true; }
    });
  }

  // The form's row i is priority i + 1.
  function writeForm(draft) {
    var form = draft.form;
    for (var row = 0; P.field(form, "picks." + row + ".card"); row++) {
      var pick = draft.picks[row];
      P.put(form, "picks." + row + ".card", pick ? pick.card : "");
      P.put(form, "picks." + row + ".priority", pick ? String(row + 1) : "");
      P.put(form, "picks." + row + ".token", pick && pick.card[1] === "C" ? pick.token : "");
    }
    P.put(form, "lowered", Object.keys(draft.lowered).filter(function (n) {
      return draft.lowered[n] && Number(n) <= draft.picks.length;
    }).sort().join(" "));
  }

  function changed(draft, words) {
    writeForm(draft);
    render(draft);
    draft.said.textContent = words;
    P.changed(draft.form);
  }

  function indexOf(draft, card) {
    for (var i = 0; i < draft.picks.length; i++) { if (draft.picks[i].card === card) { return i; } }
    return -1;
  }

  function toggle(draft, card) {
    var at = indexOf(draft, card);
    if (at >= 0) {
      draft.picks.splice(at, 1);
      changed(draft, "Taken back: the " + cardWords(card) + ".");
    } else if (draft.picks.length >= DRAFT) {
      draft.said.textContent = "Six cards are chosen: take one back first (its \u00d7 button, or tap it here).";
    } else {
      draft.picks.push({ card: card, token: "" });
      changed(draft, "The " + cardWords(card) + " is priority " + draft.picks.length + ".");
    }
  }

  // A card one place up (step -1) or down; the focus stays on the card's button that moved it.
  function move(draft, at, step) {
    var to = at + step;
    if (to < 0 || to >= draft.picks.length) { return; }
    var moved = draft.picks.splice(at, 1)[0];
    draft.picks.splice(to, 0, moved);
    changed(draft, "The " + cardWords(moved.card) + " is priority " + (to + 1) + ".");
    var item = draft.list.children[to];
    var again = item && item.querySelector(step < 0 ? "button.up" : "button.down");
    if (again && !again.disabled) { again.focus(); } else if (item) { item.querySelector("button").focus(); }
  }

  function tokenChoice(draft, pick, at) {
    var select = P.make("select", { "aria-label": "Club Token for the " + cardWords(pick.card) });
    var none = draft.tokens.length ? "(choose a token)" : "(no token yet: solve a puzzle)";
    select.appendChild(P.make("option", { value: "" }, none));
    draft.tokens.forEach(function (token) {
      var option = P.make("option", { value: token.name }, "token " + token.name + " (" + token.seconds + " s)");
      option.selected = token.name === pick.token;
      select.appendChild(option);
    });
    select.addEventListener("change", function () {
      draft.picks[at].token = select.value;
      changed(draft, select.value ? "Token " + select.value + " on the " + cardWords(pick.card) + "." : "");
    });
    return select;
  }

  function orderButtons(draft, pick, at) {
    var words = cardWords(pick.card);
    var moves = P.make("div", { "class": "order-moves" });
    var up = P.button("\u2191", "Move the " + words + " up (priority " + at + ")", function () { move(draft, at, -1); });
    up.className = "up";
    up.disabled = at === 0;
    var down = P.button("\u2193", "Move the " + words + " down (priority " + (at + 2) + ")",
      function () { move(draft, at, 1); });
    down.className = "down";
    down.disabled = at === draft.picks.length - 1;
    moves.appendChild(up);
    moves.appendChild(down);
    moves.appendChild(P.button("\u00d7", "Take the " + words + " back", function () { toggle(draft, pick.card); }));
    return moves;
  }

  function lowerButton(draft, priority) {
    var lower = P.button("\u22121 for 2 garnets", "Lower priority " + priority + " by 1 for 2 garnets", function () {
      draft.lowered[priority] = !draft.lowered[priority];
      changed(draft, draft.lowered[priority] ? "Priority " + priority + " lowered by 1 (2 garnets)."
        : "Priority " + priority + " as it is.");
    });
    lower.setAttribute("aria-pressed", draft.lowered[priority] ? "true" : "false");
    return lower;
  }

  function row(draft, pick, at) {
    var priority = String(at + 1);
    var item = P.make("li", { id: "draft-pick-" + priority });
    item.appendChild(P.make("span", { "class": "face suit-" + pick.card[1] }, cardFace(pick.card)));
    item.appendChild(P.make("span", { "class": "words" }, " priority " + priority + ": " + cardWords(pick.card)));
    var moves = orderButtons(draft, pick, at);
    moves.appendChild(lowerButton(draft, priority));
    if (pick.card[1] === "C") { moves.appendChild(tokenChoice(draft, pick, at)); }
    item.appendChild(moves);
    item.appendChild(P.make("p", { "class": "error", id: "draft-pick-" + priority + "-said" }));
    return item;
  }

  function render(draft) {
    draft.list.textContent = "";
    draft.rows = {};
    draft.picks.forEach(function (pick, at) {
      var item = row(draft, pick, at);
      draft.list.appendChild(item);
      draft.rows[String(at)] = { row: item, said: item.querySelector(".error") };
    });
    Object.keys(draft.chooser).forEach(function (card) {
      var at = indexOf(draft, card);
      draft.chooser[card].setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      draft.chooser[card].setAttribute("aria-label",
        named(card, at >= 0 ? " (priority " + (at + 1) + ": tap to take it back)" : ""));
    });
  }

  // The cards a picker offers, a line a suit (`out` left out), each a button that calls `press`
  // with its card; `buttons` gets each button by card.
  function cardGrid(label, out, press, buttons) {
    var grid = P.make("div", { "class": "deck", role: "group", "aria-label": label });
    Object.keys(SUITS).forEach(function (suit) {
      var line = P.make("div", { "class": "cards", role: "group", "aria-label": SUITS[suit][1] });
      RANKS.split("").forEach(function (rank) {
        var card = rank + suit;
        if (out.indexOf(card) >= 0) { return; }
        var one = P.button(cardFace(card), named(card, ""), function () { press(card); });
        one.className = "suit-" + suit;
        buttons[card] = one;
        line.appendChild(one);
      });
      grid.appendChild(line);
    });
    return grid;
  }

  var HINT = "Tap six different cards (the community card and the hole cards are not in the draft), then put " +
    "them in order with \u2191 and \u2193: the first is priority 1. A card goes to the single lowest priority on " +
    "it; a club to the single lowest token \u00d7 priority, so each club names one of your unused Club Tokens.";

  function draftOrder() {
    var form = document.getElementById("move-draft");
    var deal = document.querySelector("svg g[data-out-of-draft]");
    if (!P || !form || !deal || !P.field(form, "picks.0.card")) { return; }
    var draft = { form: form, picks: [], lowered: {}, chooser: {}, rows: {},
      tokens: tokensOf(document.querySelector("svg g[data-unused]")),
      list: P.make("ol", { "class": "draft-order", "aria-label": "Your six cards, priority 1 first" }),
      said: P.make("p", { id: "draft-said", role: "status" }) };
    var picker = P.make("div", { id: "draft-picker", "class": "picker" });
    picker.appendChild(P.make("p", { "class": "hint", id: "draft-hint" }, HINT));
    var out = deal.getAttribute("data-out-of-draft").split(" ");  // the community and hole cards
    picker.appendChild(cardGrid("The cards you may draft", out, toggle.bind(null, draft), draft.chooser));
    picker.appendChild(P.make("p", { "class": "caption" }, "Your draft, priority 1 first:"));
    picker.appendChild(draft.list);
    picker.appendChild(draft.said);
    var summary = "The same draft as rows of the form (filled in from the cards; or write them by hand)";
    P.attach(form, picker, summary, readForm.bind(null, draft), render.bind(null, draft),
      function () { return draft.rows; }, function (reason) {
        var hit = /^move-draft-picks-(\d+)-/.exec(reason.at);
        return hit ? hit[1] : null;
      });
  }

  // The build: tap 1 to 5 of the cards you may build from (off the board's build section); the
  // form's cards fill in, in the order tapped, and are checked.
  function buildHand() {
    var form = document.getElementById("move-build");
    var usable = document.querySelector("svg g[data-usable]");
    if (!P || !form || !usable || !P.field(form, "cards")) { return; }
    var build = { form: form, cards: [], buttons: {}, rows: {} };
    var picker = P.make("div", { id: "build-picker", "class": "picker" });
    picker.appendChild(P.make("p", { "class": "hint" }, "Tap 1 to 5 of your cards to make your hand (straights, " +
      "flushes and full houses need five); tap one again to take it out."));
    var line = P.make("div", { "class": "cards", role: "group", "aria-label": "The cards you may build from" });
    usable.getAttribute("data-usable").split(" ").filter(Boolean).forEach(function (card) {
      var one = P.button(cardFace(card), named(card, ""), function () { pickCard(build, card); });
      one.className = "suit-" + card[1];
      build.buttons[card] = one;
      line.appendChild(one);
    });
    picker.appendChild(line);
    build.said = P.make("p", { id: "build-said", role: "status" });
    picker.appendChild(build.said);
    build.rows.hand = { row: picker, said: P.make("p", { "class": "error", id: "build-hand-said" }) };
    picker.appendChild(build.rows.hand.said);
    P.attach(form, picker, "The same hand as the form writes it (filled in from the cards; or write it by hand)",
      readHand.bind(null, build), showHand.bind(null, build), function () { return build.rows; },
      function (reason) { return /^move-build-cards/.test(reason.at) ? "hand" : null; });
  }

  function readHand(build) {
    build.cards = P.field(build.form, "cards").value.toUpperCase().split(/[\s,]+/).filter(function (card) {
      return Boolean(build.buttons[card]);
    });
  }

  function showHand(build) {
    Object.keys(build.buttons).forEach(function (card) {
      build.buttons[card].setAttribute("aria-pressed", build.cards.indexOf(card) >= 0 ? "true" : "false");
    });
    build.said.textContent = build.cards.length ? "Your hand: " + build.cards.map(cardWords).join(", ") + "."
      : "No card chosen yet.";
  }

  function pickCard(build, card) {
    var at = build.cards.indexOf(card);
    if (at >= 0) {
      build.cards.splice(at, 1);
    } else if (build.cards.length < 5) {
      build.cards.push(card);
    } else {
      build.said.textContent = "Five cards are chosen: take one out first.";
      return;
    }
    P.put(build.form, "cards", build.cards.join(" "));
    showHand(build);
    P.changed(build.form);
  }

  // The guesses: choose whom you guess for, then tap up to five cards for them (any of the 52);
  // each participant's guess in its own row, its reasons beside it.
  function guessOthers() {
    var form = document.getElementById("move-guess");
    var first = form && P.field(form, "guesses.0.participant");
    if (!P || !first || !P.field(form, "guesses.0.cards")) { return; }
    var others = Array.prototype.filter.call(first.options, function (option) {
      return option.value && !/\(you\)$/.test(option.textContent);
    }).map(function (option) { return { id: option.value, name: option.textContent }; });
    var guess = { form: form, others: others, on: others[0] ? others[0].id : "", cards: {}, rows: {}, written: [],
      buttons: {} };
    var picker = P.make("div", { id: "guess-picker", "class": "picker" });
    picker.appendChild(P.make("p", { "class": "hint" }, "Choose whom you guess for, then tap up to five cards " +
      "for them. Each card in their hand: +1 to you, -1 to them; each card not in it: -1 to you, +1 to them; " +
      "the right hand type: +2 more. Nobody guessed: nothing either way."));
    var who = P.make("div", { "class": "order-moves", role: "group", "aria-label": "Whom you guess for" });
    var list = P.make("ul", { "class": "draft-order", "aria-label": "Your guesses" });
    others.forEach(function (other) {
      guess.cards[other.id] = [];
      var choose = P.button(other.name, "Guess for " + other.name, function () { guess.on = other.id; showGuess(guess); });
      choose.setAttribute("data-participant", other.id);
      who.appendChild(choose);
      var item = P.make("li", { id: "guess-" + other.id });
      guess.rows[other.id] = { row: item, words: P.make("span"), said: P.make("p", { "class": "error" }), choose: choose };
      item.appendChild(guess.rows[other.id].words);
      item.appendChild(guess.rows[other.id].said);
      list.appendChild(item);
    });
    picker.appendChild(who);
    picker.appendChild(cardGrid("Cards to guess", [], guessCard.bind(null, guess), guess.buttons));
    picker.appendChild(list);
    P.attach(form, picker, "The same guesses as rows of the form (filled in from the cards; or write them by hand)",
      readGuess.bind(null, guess), showGuess.bind(null, guess), function () { return guess.rows; }, function (reason) {
        var hit = /^move-guess-guesses-(\d+)-/.exec(reason.at);
        return hit ? guess.written[Number(hit[1])] || null : null;
      });
  }

  function readGuess(guess) {
    var form = guess.form;
    guess.written = [];
    Object.keys(guess.cards).forEach(function (id) { guess.cards[id] = []; });
    for (var row = 0; P.field(form, "guesses." + row + ".participant"); row++) {
      var id = P.field(form, "guesses." + row + ".participant").value;
      if (!guess.cards[id]) { continue; }
      guess.cards[id] = P.field(form, "guesses." + row + ".cards").value.toUpperCase().split(/[\s,]+/)
        .filter(function (card) { return Boolean(guess.buttons[card]); });
      guess.written[row] = id;
    }
  }

  function writeGuess(guess) {
    var form = guess.form;
    var filled = guess.others.filter(function (other) { return guess.cards[other.id].length; });
    guess.written = [];
    for (var row = 0; P.field(form, "guesses." + row + ".participant"); row++) {
      var other = filled[row];
      P.put(form, "guesses." + row + ".participant", other ? other.id : "");
      P.put(form, "guesses." + row + ".cards", other ? guess.cards[other.id].join(" ") : "");
      guess.written[row] = other ? other.id : null;
    }
  }

  function showGuess(guess) {
    guess.others.forEach(function (other) {
      var row = guess.rows[other.id];
      var cards = guess.cards[other.id];
      row.choose.setAttribute("aria-pressed", other.id === guess.on ? "true" : "false");
      row.words.textContent = other.name + ": " + (cards.length ? cards.map(cardWords).join(", ") : "no guess");
    });
    var mine = guess.cards[guess.on] || [];
    Object.keys(guess.buttons).forEach(function (card) {
      guess.buttons[card].setAttribute("aria-pressed", mine.indexOf(card) >= 0 ? "true" : "false");
    });
  }

  function guessCard(guess, card) {
    var cards = guess.cards[guess.on];
    if (!cards) { return; }
    var at = cards.indexOf(card);
    if (at >= 0) {
      cards.splice(at, 1);
    } else if (cards.length < 5) {
      cards.push(card);
    } else {
      return;  // five cards a participant: one must be taken out first
    }
    writeGuess(guess);
    showGuess(guess);
    P.changed(guess.form);
  }

  document.addEventListener("DOMContentLoaded", function () {
    draftOrder();
    buildHand();
    guessOthers();
  });
})();
