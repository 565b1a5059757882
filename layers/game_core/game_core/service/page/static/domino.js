// Domino Auction: tiles placed on the drawing (issue 30 item 2), where the place form is on the page.
// Beside the board, a tray of the pieces to place (the tiles won, `data-place-cells` on each tile
// drawn, and the 1x1 squares left, `data-squares-left`), with rotate, flip and remove. On the own
// board (`data-own`, its grid in `data-grid`), the chosen piece follows the pointer (or the arrow
// keys): its first cell in reading order on the cell under it. Resting there asks the service's
// check route whether the placement would be legal (page.js's GeniusPage.check: the same checks as
// a send, nothing stored) and colours the preview by the answer, the reasons said in words beside
// the board. A click (or Enter) places it: the place form's rows are written (pieces in the tray's
// order, from row 0, so the service's "placement n" is the tray's n-th placed piece), checked as
// any form is, and sent with the form's own Send or the tray's. Without the script the form is there.
"use strict";

(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var FORM = "move-place";

  function normalised(cells) {
    var top = Math.min.apply(null, cells.map(function (c) { return c[0]; }));
    var left = Math.min.apply(null, cells.map(function (c) { return c[1]; }));
    return cells.map(function (c) { return [c[0] - top, c[1] - left]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
  }

  function turned(cells) { return normalised(cells.map(function (c) { return [c[1], -c[0]]; })); }
  function flipped(cells) { return normalised(cells.map(function (c) { return [c[0], -c[1]]; })); }
  function cellName(cell) { return String.fromCharCode(65 + cell[1]) + (cell[0] + 1); }

  // The cells a piece covers with its first cell (reading order) on `at`, named as the form names them.
  function covering(piece, at) {
    var first = piece.cells[0];
    return piece.cells.map(function (c) { return cellName([at[0] + c[0] - first[0], at[1] + c[1] - first[1]]); });
  }

  function pieces(board) {
    var found = [];
    Array.prototype.forEach.call(document.querySelectorAll("svg g[data-place-cells]"), function (tile) {
      var number = tile.getAttribute("data-mark").slice("tile-".length);
      var shape = tile.querySelector("title").textContent.split(", ")[1];
      var cells = tile.getAttribute("data-place-cells").split(" ").map(function (c) { return c.split(".").map(Number); });
      found.push({ tile: number, label: "Tile " + number + " (" + shape + ")", cells: normalised(cells), fill: tile.querySelector("path[fill]").getAttribute("fill") });
    });
    var squares = Number(board.getAttribute("data-squares-left") || 0);
    for (var n = 1; n <= squares; n++) {
      found.push({ tile: "square", label: "1x1 square " + n + " (2 garnets)", cells: [[0, 0]], fill: "#555555", optional: true });
    }
    return found;
  }

  function button(text, id) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = "quiet";
    made.textContent = text;
    if (id) { made.id = id; }
    return made;
  }

  function input(form, row, part) {
    var id = FORM + "-placements-" + row + "-" + part;
    var found = document.getElementById(id);
    if (!found) {  // more pieces than the form's rows: the service reads every row posted
      found = document.createElement("input");
      found.type = "hidden";
      found.id = id;
      found.name = "f.placements." + row + "." + part;
      form.appendChild(found);
    }
    return found;
  }

  function rowCount(form) {
    var rows = 0;
    while (document.getElementById(FORM + "-placements-" + rows + "-tile")) { rows++; }
    return rows;
  }

  function Placing(form, board) {
    this.form = form;
    this.board = board;
    this.pieces = pieces(board);
    this.chosen = 0;
    this.cursor = [0, 0];
    this.hoverTimer = null;
    this.asked = 0;
    this.entries = [];
    var grid = board.getAttribute("data-grid").split(" ").map(Number);
    this.grid = { left: grid[0], top: grid[1], cell: grid[2], size: grid[3] };
  }

  // The rows the form sends: every placed piece in the tray's order; `extra` (a piece at a place
  // looked at, not yet chosen) counted as placed there.
  Placing.prototype.rows = function (extra) {
    var rows = [];
    this.pieces.forEach(function (piece, index) {
      var at = extra && extra.index === index ? extra.at : piece.at;
      if (at) { rows.push({ index: index, tile: piece.tile, cells: covering(piece, at) }); }
    });
    return rows;
  };

  Placing.prototype.write = function () {
    var rows = this.rows(null);
    var total = Math.max(rowCount(this.form), rows.length);
    for (var row = 0; row < total; row++) {
      input(this.form, row, "tile").value = row < rows.length ? rows[row].tile : "";
      input(this.form, row, "cells").value = row < rows.length ? rows[row].cells.join(" ") : "";
    }
    // An input event: the page checks the form as written, and stops reloading itself.
    this.form.dispatchEvent(new Event("input", { bubbles: true }));
  };

  Placing.prototype.body = function (rows) {
    var body = new URLSearchParams(new FormData(this.form));
    Array.from(body.keys()).filter(function (key) { return key.indexOf("f.placements.") === 0; })
      .forEach(function (key) { body.delete(key); });
    rows.forEach(function (row, n) {
      body.set("f.placements." + n + ".tile", row.tile);
      body.set("f.placements." + n + ".cells", row.cells.join(" "));
    });
    return body;
  };

  // The reasons of a verdict about each row ({row: [words]}) and about none (`rest`).
  function byRow(verdict) {
    var found = { rest: [] };
    verdict.reasons.forEach(function (reason) {
      var hit = new RegExp("^" + FORM + "-placements-(\\d+)-").exec(reason.at);
      var key = hit ? Number(hit[1]) : "rest";
      (found[key] = found[key] || []).push(reason.text);
    });
    return found;
  }

  function drawn(tag, attributes) {
    var made = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    return made;
  }

  // The outline of cells (numeric, on the grid) as one path in the board's units.
  Placing.prototype.path = function (cells) {
    var g = this.grid;
    return cells.map(function (c) {
      return "M" + (g.left + c[1] * g.cell) + " " + (g.top + c[0] * g.cell) + "h" + g.cell + "v" + g.cell + "h-" + g.cell + "z";
    }).join("");
  };

  Placing.prototype.cellsAt = function (piece, at) {
    var first = piece.cells[0];
    return piece.cells.map(function (c) { return [at[0] + c[0] - first[0], at[1] + c[1] - first[1]]; });
  };

  Placing.prototype.layer = function () {
    var g = this.grid;
    var svg = this.board.ownerSVGElement;
    svg.setAttribute("role", "group");  // no longer a mere picture: it holds a control
    var layer = drawn("g", { "class": "place-layer" });
    this.placedLayer = drawn("g", { "class": "placed" });
    this.preview = drawn("path", { "class": "preview", d: "" });
    this.target = drawn("rect", {
      "class": "place-target", x: g.left, y: g.top, width: g.cell * g.size, height: g.cell * g.size,
      tabindex: "0", role: "button", "aria-describedby": "place-said"
    });
    [this.placedLayer, this.preview, this.target].forEach(function (part) { layer.appendChild(part); });
    this.board.appendChild(layer);
  };

  Placing.prototype.cellAt = function (event) {
    var point = this.board.ownerSVGElement.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    var local = point.matrixTransform(this.target.getScreenCTM().inverse());
    var g = this.grid;
    var cell = [Math.floor((local.y - g.top) / g.cell), Math.floor((local.x - g.left) / g.cell)];
    return cell.map(function (n) { return Math.max(0, Math.min(g.size - 1, n)); });
  };

  // The piece chosen, drawn where the cursor is, and asked about a moment after it rests there.
  Placing.prototype.look = function (cell) {
    var self = this;
    var piece = this.pieces[this.chosen];
    this.cursor = cell;
    this.preview.setAttribute("d", this.path(this.cellsAt(piece, cell)));
    this.preview.setAttribute("fill", piece.fill);
    this.preview.setAttribute("data-legal", "asking");
    window.clearTimeout(this.hoverTimer);
    this.hoverTimer = window.setTimeout(function () { self.ask(piece, cell); }, 250);
  };

  Placing.prototype.ask = function (piece, cell) {
    var self = this;
    var mine = ++this.asked;
    var index = this.chosen;
    var rows = this.rows({ index: index, at: cell });
    var row = rows.findIndex(function (one) { return one.index === index; });
    window.GeniusPage.check(this.form, this.body(rows)).then(function (verdict) {
      if (!verdict || mine !== self.asked) { return; }
      var found = byRow(verdict);
      var here = (found[row] || []).concat(found.rest);
      self.preview.setAttribute("data-legal", here.length ? "false" : "true");
      var where = piece.label + " on " + covering(piece, cell).join(" ");
      self.say(here.length ? where + ": not legal here. " + here.join(" ") : where + ": legal here. Click or press Enter to place it.");
    });
  };

  Placing.prototype.say = function (words) { this.said.textContent = words; };

  Placing.prototype.place = function () {
    var piece = this.pieces[this.chosen];
    piece.at = this.cursor;
    piece.reasons = null;
    this.preview.setAttribute("d", "");
    this.write();
    var next = this.pieces.findIndex(function (one) { return !one.at && !one.optional; });
    this.choose(next < 0 ? this.chosen : next);
    this.say(piece.label + " placed on " + covering(piece, piece.at).join(" ") + ".");
  };

  Placing.prototype.turn = function (how) {
    var piece = this.pieces[this.chosen];
    piece.cells = how(piece.cells);
    if (piece.at) { this.write(); }
    this.redraw();
    this.look(piece.at || this.cursor);
  };

  Placing.prototype.remove = function () {
    var piece = this.pieces[this.chosen];
    piece.at = null;
    piece.reasons = null;
    this.write();
    this.redraw();
    this.say(piece.label + " taken off your board.");
  };

  Placing.prototype.choose = function (index) {
    this.chosen = index;
    this.redraw();
    this.target.setAttribute("aria-label", "Your board: place " + this.pieces[index].label +
      " (arrow keys move it, Enter places it, R rotates, F flips)");
  };

  // The service's verdict on the form as written: each placed piece's reasons beside it in the tray.
  Placing.prototype.verdict = function (verdict) {
    var found = byRow(verdict);
    this.rows(null).forEach(function (row, n) { this.pieces[row.index].reasons = found[n] || []; }, this);
    this.redraw();
    this.verdictLine.setAttribute("data-legal", verdict.legal ? "true" : "false");
    this.verdictLine.textContent = verdict.said + (found.rest.length ? " " + found.rest.join(" ") : "");
  };

  Placing.prototype.redraw = function () {
    var self = this;
    this.placedLayer.textContent = "";
    this.pieces.forEach(function (piece, index) {
      var entry = self.entries[index];
      entry.setAttribute("aria-pressed", index === self.chosen ? "true" : "false");
      var state = piece.at ? "on " + covering(piece, piece.at).join(" ") : piece.optional ? "not used" : "not placed yet";
      var wrong = piece.reasons && piece.reasons.length;
      entry.textContent = piece.label + ": " + state + (wrong ? ". Not legal: " + piece.reasons.join(" ") : "");
      entry.setAttribute("data-legal", piece.at && piece.reasons ? String(!wrong) : "");
      if (!piece.at) { return; }
      self.placedLayer.appendChild(drawn("path", {
        d: self.path(self.cellsAt(piece, piece.at)), fill: piece.fill, "class": wrong ? "placed-piece illegal" : "placed-piece"
      }));
    });
  };

  Placing.prototype.tray = function (figure) {
    var self = this;
    var tray = document.createElement("div");
    tray.id = "place-tray";
    tray.className = "tray";
    var help = document.createElement("p");
    help.textContent = "Place your pieces on your board: choose one, then point at a cell (the piece's first cell " +
      "in reading order goes there) and click. The service says at once whether it would be legal there.";
    var list = document.createElement("div");
    list.setAttribute("role", "group");
    list.setAttribute("aria-label", "Pieces to place");
    this.entries = this.pieces.map(function (piece, index) {
      var entry = button(piece.label, "place-piece-" + index);
      entry.className = "quiet piece";
      entry.addEventListener("click", function () { self.choose(index); self.look(piece.at || self.cursor); });
      list.appendChild(entry);
      return entry;
    });
    var tools = document.createElement("div");
    [["Rotate \u21bb", "place-rotate", function () { self.turn(turned); }],
      ["Flip \u21c6", "place-flip", function () { self.turn(flipped); }],
      ["Remove", "place-remove", function () { self.remove(); }],
      ["Send the placements", "place-send", function () { self.form.requestSubmit(); }]].forEach(function (one) {
      var made = button(one[0], one[1]);
      made.addEventListener("click", one[2]);
      tools.appendChild(made);
    });
    this.said = document.createElement("p");  // the piece looked at or just moved
    this.said.id = "place-said";
    this.verdictLine = document.createElement("p");  // the service's verdict on the form as written
    this.verdictLine.id = "place-verdict";
    [this.said, this.verdictLine].forEach(function (line) {
      line.setAttribute("role", "status");
      line.setAttribute("aria-live", "polite");
    });
    [help, list, tools, this.said, this.verdictLine].forEach(function (part) { tray.appendChild(part); });
    figure.parentNode.insertBefore(tray, figure.nextSibling);
  };

  var KEYS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  Placing.prototype.listen = function () {
    var self = this;
    this.target.addEventListener("pointermove", function (event) {
      var cell = self.cellAt(event);
      if (cell[0] !== self.cursor[0] || cell[1] !== self.cursor[1] || !self.preview.getAttribute("d")) { self.look(cell); }
    });
    this.target.addEventListener("click", function (event) { self.look(self.cellAt(event)); self.place(); });
    this.target.addEventListener("keydown", function (event) {
      var step = KEYS[event.key];
      var size = self.grid.size;
      if (step) {
        self.look([Math.max(0, Math.min(size - 1, self.cursor[0] + step[0])), Math.max(0, Math.min(size - 1, self.cursor[1] + step[1]))]);
      } else if (event.key === "Enter" || event.key === " ") {
        self.place();
      } else if (event.key === "r" || event.key === "f") {
        self.turn(event.key === "r" ? turned : flipped);
      } else {
        return;
      }
      event.preventDefault();
    });
    this.form.addEventListener("verdict", function (event) { self.verdict(event.detail); });
  };

  function placeOnTheDrawing() {
    var form = document.getElementById(FORM);
    var board = document.querySelector("svg g[data-own][data-grid]");
    if (!form || !board || !window.GeniusPage || !document.getElementById(FORM + "-placements-0-tile")) { return; }
    var placing = new Placing(form, board);
    if (!placing.pieces.length) { return; }
    placing.layer();
    placing.tray(board.ownerSVGElement.closest("figure"));
    placing.listen();
    placing.choose(0);
  }

  document.addEventListener("DOMContentLoaded", placeOnTheDrawing);
})();
