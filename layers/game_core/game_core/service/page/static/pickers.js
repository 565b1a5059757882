// What the pickers share (window.Pickers): a move picked by clicks on the player's page, where
// JavaScript runs (without it the move forms work as ever), as Palindrome Construction's bid in a
// table of the round's packs and items (palindrome.js) and Puzzler's Clubs' draft as cards put in
// order (clubs.js). Each picker reads what it offers off the drawn board (data attributes the
// game's board writes), writes the move into the form kept below it (folded: the no-script form,
// still editable), has page.js check it (an "input" event: checked, and the page not reloaded
// under it) and shows each reason of the service's verdict ("verdict", from page.js) beside the
// row it is about.
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

  // The form changed by the picker: page.js checks it (and keeps the page from reloading under it).
  function changed(form) {
    form.dispatchEvent(new Event("input", { bubbles: true }));
  }

  window.Pickers = { make: make, field: field, put: put, button: button, attach: attach, changed: changed };
})();
