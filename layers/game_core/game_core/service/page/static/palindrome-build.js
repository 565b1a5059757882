// Palindrome Construction's construction built by clicks as a list of steps (pickers.js has what
// the pickers share). "Add a step" offers a button for placing digits and one for each item the
// player holds unused; a step moves up or is removed by its own buttons. Each step's operands are
// buttons and choices drawn from the player's own strings and digits as they stand before that
// step (worked out here from the board's data, only to offer sensible choices: the service
// judges). The steps are written, one a line, in the game's grammar into the construction form's
// box (folded: the no-script form, still editable; a line written there by hand is read back, one
// the picker cannot read kept as written), and each reason of the service's verdict ("step 2
// (swap): ...") is shown beside its step.
"use strict";

(function () {
  var P = window.Pickers;
  var STRINGS = [1, 2, 3];
  var KINDS = {
    append: { item: null, words: "Place digits", line: function (s) {
      return "APPEND " + s.digits + " TO " + s.string + (s.position ? " AT " + s.position : ""); } },
    duplicate: { item: "Duplicate", words: "Duplicate a digit", line: function (s) { return "DUPLICATE " + s.digit; } },
    shift: { item: "Shift", words: "Shift a digit", line: function (s) { return "SHIFT " + s.digit + " TO " + s.to; } },
    insert: { item: "Insert", words: "Insert into a string", line: function (s) { return "INSERT " + s.string; } },
    eraser: { item: "Eraser", words: "Erase a digit", line: function (s) {
      return "ERASER " + s.string + " AT " + s.position; } },
    swap: { item: "Swap", words: "Swap two digits", line: function (s) {
      return "SWAP " + s.string + " AT " + s.first + " AND " + s.second; } },
    mirror: { item: "Mirror", words: "Mirror a string", line: function (s) { return "MIRROR " + s.string; } },
    keep: { item: "Keep", words: "Keep the unplaced digits", line: function () { return "KEEP"; } },
    clone: { item: "Clone", words: "Clone a string", line: function (s) {
      return "CLONE " + s.source + " TO " + s.string; } }
  };
  var READERS = [
    [/^APPEND\s+(\d+)\s+TO\s+([123])(?:\s+AT\s+(\d+))?$/, function (m) {
      return { action: "append", digits: m[1], string: m[2], position: m[3] || "" }; }],
    [/^DUPLICATE\s+(\d)$/, function (m) { return { action: "duplicate", digit: m[1] }; }],
    [/^SHIFT\s+(\d)\s+(?:TO|INTO)\s+(\d)$/, function (m) { return { action: "shift", digit: m[1], to: m[2] }; }],
    [/^INSERT\s+([123])$/, function (m) { return { action: "insert", string: m[1] }; }],
    [/^ERASER?\s+([123])\s+AT\s+(\d+)$/, function (m) { return { action: "eraser", string: m[1], position: m[2] }; }],
    [/^SWAP\s+([123])\s+AT\s+(\d+)\s+AND\s+(\d+)$/, function (m) {
      return { action: "swap", string: m[1], first: m[2], second: m[3] }; }],
    [/^MIRROR\s+([123])$/, function (m) { return { action: "mirror", string: m[1] }; }],
    [/^KEEP$/, function () { return { action: "keep" }; }],
    [/^CLONE\s+([123])\s+(?:TO|ONTO)\s+([123])$/, function (m) {
      return { action: "clone", source: m[1], string: m[2] }; }]
  ];
  var FRESH = {
    append: { string: "1", digits: "", position: "" }, duplicate: { digit: "" }, shift: { digit: "", to: "" },
    insert: { string: "1" }, eraser: { string: "1", position: "" }, swap: { string: "1", first: "", second: "" },
    mirror: { string: "1" }, keep: {}, clone: { source: "1", string: "2" }
  };

  function readLine(line) {
    var said = line.trim().toUpperCase().replace(/\s+/g, " ");
    for (var i = 0; i < READERS.length; i++) {
      var hit = READERS[i][0].exec(said);
      if (hit) { return READERS[i][1](hit); }
    }
    return { action: "hand", line: line.trim() };
  }

  // The box's lines as steps (the BUILD header and blank lines left out).
  function readForm(build) {
    build.steps = build.area.value.split("\n").filter(function (line) {
      return line.trim() && !/^BUILD(\s+\d+)?$/i.test(line.trim());
    }).map(readLine);
    build.written = build.steps.map(function (step, index) { return index; });  // each line read is a step sent
  }

  // A step complete enough to write (an unfinished one waits, with its words saying what it needs).
  function needs(step) {
    var wanted = { append: ["digits"], duplicate: ["digit"], shift: ["digit", "to"], eraser: ["position"],
      swap: ["first", "second"] }[step.action] || [];
    return wanted.filter(function (name) { return !step[name]; });
  }

  function writeForm(build) {
    var lines = ["BUILD"];
    build.written = [];
    build.steps.forEach(function (step, index) {
      if (needs(step).length) { return; }
      lines.push(step.action === "hand" ? step.line : KINDS[step.action].line(step));
      build.written.push(index);
    });
    build.area.value = lines.join("\n");
  }

  // The player's strings and unplaced digits as they would stand before step `upTo` (only to offer
  // choices: a step that would be refused changes nothing here, as the service skips it).
  function benchBefore(build, upTo) {
    var bench = { strings: build.strings.slice(), pool: build.toPlace.split(""), inserted: {} };
    build.steps.slice(0, upTo).forEach(function (step) { apply(bench, step); });
    return bench;
  }

  function take(pool, digits) {
    var left = pool.slice();
    for (var i = 0; i < digits.length; i++) {
      var at = left.indexOf(digits[i]);
      if (at < 0) { return null; }
      left.splice(at, 1);
    }
    return left;
  }

  function apply(bench, step) {
    var k = Number(step.string) - 1;
    var s = bench.strings[k];
    if (step.action === "append" && step.digits && take(bench.pool, step.digits)) {
      bench.pool = take(bench.pool, step.digits);
      var at = step.position ? Number(step.position) - 1 : s.length;
      bench.strings[k] = s.slice(0, at) + step.digits + s.slice(at);
    } else if (step.action === "duplicate" && bench.pool.indexOf(step.digit) >= 0) {
      bench.pool.push(step.digit);
    } else if (step.action === "shift" && step.to && bench.pool.indexOf(step.digit) >= 0) {
      bench.pool[bench.pool.indexOf(step.digit)] = step.to;
    } else if (step.action === "insert") {
      bench.inserted[step.string] = true;
    } else if (step.action === "eraser" && step.position && Number(step.position) <= s.length) {
      bench.strings[k] = s.slice(0, step.position - 1) + s.slice(step.position);
    } else if (step.action === "swap" && step.first && step.second && Math.max(step.first, step.second) <= s.length) {
      var chars = s.split("");
      var first = chars[step.first - 1];
      chars[step.first - 1] = chars[step.second - 1];
      chars[step.second - 1] = first;
      bench.strings[k] = chars.join("");
    } else if (step.action === "mirror") {
      bench.strings[k] = s + s.split("").reverse().join("");
    } else if (step.action === "clone") {
      bench.strings[k] = s + bench.strings[Number(step.source) - 1];
    }
  }

  function changed(build) {
    writeForm(build);
    draw(build);
    P.changed(build.form);
  }

  // A choice of `options` ([value, words] pairs) for the step's field `name`.
  function choice(build, step, name, label, options) {
    var select = P.make("select", { "aria-label": label, "data-field": name });
    options.forEach(function (option) {
      var made = P.make("option", { value: option[0] }, option[1]);
      if (String(step[name]) === String(option[0])) { made.setAttribute("selected", "selected"); }
      select.appendChild(made);
    });
    select.addEventListener("change", function () {
      step[name] = select.value;
      changed(build);
    });
    return select;
  }

  function stringChoice(build, step, name, label, bench) {
    return choice(build, step, name, label, STRINGS.map(function (n) {
      return [String(n), "string " + n + " (" + (bench.strings[n - 1] || "empty") + ")"];
    }));
  }

  function positions(length, blank) {
    var made = [["", blank]];
    for (var p = 1; p <= length; p++) { made.push([String(p), "position " + p]); }
    return made;
  }

  function digitChoice(build, step, name, label, digits) {
    var offered = digits.filter(function (d, i) { return digits.indexOf(d) === i; }).sort();
    if (step[name] && offered.indexOf(step[name]) < 0) { offered.push(step[name]); }
    var options = offered.map(function (d) { return [d, d]; });
    return choice(build, step, name, label, [["", "choose a digit"]].concat(options));
  }

  // Placing digits: a button for each unplaced digit (tapped: placed next), one to take the last back.
  function appendParts(build, step, bench, parts) {
    var left = take(bench.pool, step.digits) || [];
    var tray = P.make("div", { "class": "cards", role: "group", "aria-label": "Digits to place, in order" });
    left.forEach(function (digit) {
      tray.appendChild(P.button(digit, "Place a " + digit, function () { step.digits += digit; changed(build); }));
    });
    if (step.digits) {
      tray.appendChild(P.button("\u232b", "Take the last digit back", function () {
        step.digits = step.digits.slice(0, -1);
        changed(build);
      }));
    }
    if (!left.length && !step.digits) { tray.appendChild(P.make("span", {}, "no digit left to place")); }
    parts.push(P.make("span", {}, "Digits: " + (step.digits || "none yet") + " onto"));
    parts.push(stringChoice(build, step, "string", "The string the digits go onto", bench));
    if (bench.inserted[step.string] || step.position) {
      var length = bench.strings[Number(step.string) - 1].length + 1;
      parts.push(choice(build, step, "position", "Where in the string", positions(length, "at the end")));
    }
    parts.push(tray);
  }

  function operands(build, step, index) {
    var bench = benchBefore(build, index);
    var parts = [];
    var length = step.string ? bench.strings[Number(step.string) - 1].length : 0;
    if (step.action === "append") {
      appendParts(build, step, bench, parts);
    } else if (step.action === "duplicate" || step.action === "shift") {
      parts.push(digitChoice(build, step, "digit", "The unplaced digit", bench.pool));
      if (step.action === "shift") {
        parts.push(P.make("span", {}, "into"));
        parts.push(digitChoice(build, step, "to", "The digit it becomes", "0123456789".split("")));
      }
    } else if (["eraser", "swap", "insert", "mirror"].indexOf(step.action) >= 0) {
      parts.push(stringChoice(build, step, "string", "The string", bench));
      if (step.action === "eraser") {
        parts.push(choice(build, step, "position", "The digit to erase", positions(length, "which digit?")));
      }
      if (step.action === "swap") {
        parts.push(choice(build, step, "first", "The first digit to swap", positions(length, "which digit?")));
        parts.push(choice(build, step, "second", "The second digit to swap", positions(length, "with which?")));
      }
    } else if (step.action === "clone") {
      parts.push(stringChoice(build, step, "source", "The string copied", bench));
      parts.push(P.make("span", {}, "onto the end of"));
      parts.push(stringChoice(build, step, "string", "The string it is copied onto", bench));
    } else if (step.action === "hand") {
      parts.push(P.make("code", {}, step.line));
    }
    return parts;
  }

  function stepRow(build, step, index) {
    var kind = KINDS[step.action];
    var row = P.make("li", { id: "build-step-" + (index + 1), "class": "step", "data-action": step.action });
    row.appendChild(P.make("strong", {}, (kind ? kind.words : "Written by hand") + ": "));
    operands(build, step, index).forEach(function (part) { row.appendChild(part); });
    if (index > 0) {  // the order matters (an Insert before the digits it lets in): a step moves up
      row.appendChild(P.button("\u2191", "Move step " + (index + 1) + " up", function () {
        build.steps.splice(index - 1, 0, build.steps.splice(index, 1)[0]);
        changed(build);
      }));
    }
    row.appendChild(P.button("Remove", "Remove step " + (index + 1), function () {
      build.steps.splice(index, 1);
      changed(build);
    }));
    var missing = needs(step);
    var said = P.make("p", { "class": "error", id: "build-step-" + (index + 1) + "-said" },
      missing.length ? "Not sent yet: choose the " + missing.join(" and ") + "." : "");
    row.appendChild(said);
    build.rows[index] = { row: row, said: said };
    return row;
  }

  // The items held unused, less those the steps already use: what "Add a step" still offers.
  function itemsLeft(build) {
    var left = Object.assign({}, build.held);
    build.steps.forEach(function (step) {
      var item = KINDS[step.action] && KINDS[step.action].item;
      if (item) { left[item] = (left[item] || 0) - 1; }
    });
    return left;
  }

  function adders(build) {
    var made = P.make("div", { "class": "cards", role: "group", "aria-label": "Add a step" });
    var left = itemsLeft(build);
    Object.keys(KINDS).forEach(function (action) {
      var item = KINDS[action].item;
      if (item && !(left[item] > 0)) { return; }
      var words = KINDS[action].words + (item ? " (your " + item + ")" : "");
      made.appendChild(P.button(words, "Add a step: " + words, function () {
        build.steps.push(Object.assign({ action: action }, FRESH[action]));
        changed(build);
      }));
    });
    return made;
  }

  function draw(build) {
    var bench = benchBefore(build, build.steps.length);
    build.list.textContent = "";
    build.rows = {};
    build.steps.forEach(function (step, index) { build.list.appendChild(stepRow(build, step, index)); });
    build.add.replaceChild(adders(build), build.add.lastChild);
    build.after.textContent = "After these steps: " + STRINGS.map(function (n) {
      return "string " + n + " " + (bench.strings[n - 1] || "empty");
    }).join(", ") + "; left unplaced: " + (bench.pool.join(" ") || "none") + ".";
  }

  // The step a reason names ("step 3 (swap): ..." of the steps written), as its row in the list.
  function placeOf(build, reason) {
    var hit = /^step (\d+)\b/i.exec(reason.text);
    return hit && build.written[Number(hit[1]) - 1] !== undefined ? String(build.written[Number(hit[1]) - 1]) : null;
  }

  var HINT = "Build your construction step by step, in order: place this round's digits at the end of a " +
    "string, or use an item you hold. Each step's choices show your strings as they would stand then. " +
    "Digits you do not place are discarded (unless you use Keep).";

  function picker(build) {
    var made = P.make("div", { id: "build-steps", "class": "picker" });
    made.appendChild(P.make("p", { "class": "hint", id: "build-steps-hint" }, HINT));
    build.list = P.make("ol", { "class": "build-steps", "aria-label": "Your steps, in order",
      "aria-describedby": "build-steps-hint" });
    build.add = P.make("div", { "class": "add-step" });
    build.add.appendChild(P.make("p", {}, "Add a step:"));
    build.add.appendChild(P.make("div"));
    build.after = P.make("p", { "class": "mine", id: "build-after", "aria-live": "polite" });
    made.appendChild(build.list);
    made.appendChild(build.add);
    made.appendChild(build.after);
    return made;
  }

  function steps() {
    var form = document.getElementById("move-construction");
    var area = form && P && P.field(form, "lines");
    if (!area) { return; }
    var data = function (selector, name) {
      var found = document.querySelector("svg g[" + selector + "]");
      return found ? found.getAttribute(name) || "" : "";
    };
    var build = { form: form, area: area, steps: [], rows: {}, written: [], held: {},
      strings: STRINGS.map(function (n) { return data("data-string='" + n + "'", "data-string-digits"); }),
      toPlace: data("data-to-place", "data-to-place") };
    Array.prototype.forEach.call(document.querySelectorAll("svg g[data-held-item]"), function (group) {
      var name = group.getAttribute("data-held-item");
      build.held[name] = (build.held[name] || 0) + 1;
    });
    var summary = "The same construction as lines of the form (written from the steps; or write them by hand)";
    P.attach(form, picker(build), summary, readForm.bind(null, build), draw.bind(null, build),
      function () { return build.rows; }, placeOf.bind(null, build));
  }

  document.addEventListener("DOMContentLoaded", steps);
})();
