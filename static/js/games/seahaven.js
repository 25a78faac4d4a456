// Seahaven Towers: small touches on its table (the game works without this file: the first tap
// then loads the table with the card selected, the second posts the move).
// - the first tap selects a card in the page: the board shows where it may go (each destination
//   button lists the places whose card may go there, data-sources, from the game's view) and the
//   dock's form takes the card and its place; a second tap on the card puts it down again;
// - a double tap sends a card to its foundation (data-home, the view's to_foundation);
// - by keyboard: Tab to a card, Enter or Space, focus goes to its first destination, Tab on
//   through the others, Escape puts the card down; after the move focus is on the first card
//   that may move (after Undo, on Undo again);
// - the timer ticks (the server gives the seconds played when the table was drawn).
// Loaded once for every page (base.html); the table is swapped in again on every update, so
// everything listens on the document.
(function () {
  "use strict";
  var DOUBLE_TAP_MS = 450;
  var picked = { place: null, at: 0 }; // the last card this page selected, and when
  var sending = false; // a move is on its way: further taps wait for the new table
  var keyboard = false; // the last input was a key (focus then follows the cards)
  var keyboardMoveAt = 0; // when a move (or an undo) was last made by keyboard
  var refocus = ".sh-src"; // where focus goes on then: the first card that may move, or Undo again

  document.documentElement.classList.add("sh-js"); // hides the dock's buttons meant for no script

  function board() {
    return document.querySelector("#table.game-seahaven .sh-board.sh-playing");
  }

  function sources(b) {
    return Array.prototype.slice.call(b.querySelectorAll(".sh-src"));
  }

  function destinations(b) {
    return Array.prototype.slice.call(b.querySelectorAll(".sh-to"));
  }

  // Show ``source`` (a card's button, or null) as the selected card, as the server would.
  function select(b, source) {
    var place = source ? source.getAttribute("data-from") : "";
    b.setAttribute("data-from", place);
    sources(b).forEach(function (s) { s.setAttribute("aria-pressed", s === source ? "true" : "false"); });
    destinations(b).forEach(function (to) {
      var from = (to.getAttribute("data-sources") || "").split(" ");
      to.hidden = !place || from.indexOf(place) < 0;
      to.classList.remove("sh-hinted");
    });
    var form = document.getElementById("act-form");
    if (form) {
      form.elements.from.value = place;
      form.elements.cards.value = source ? source.getAttribute("data-card") : "";
      form.elements.cards.disabled = !source;
    }
    var home = source && source.getAttribute("data-home");
    var button = document.querySelector("#table .sh-home");
    if (button) {
      button.hidden = !home;
      if (home) {
        button.value = "move|to=" + home;
        button.textContent = source.textContent + " to foundation " + home.slice(1);
      }
    }
    var line = document.querySelector("#table .sh-picked");
    if (line) {
      line.textContent = source
        ? source.textContent + " selected: tap where it goes" + (home ? ", or send it home." : ".")
        : line.getAttribute("data-none");
    }
    var hint = document.querySelector("#table .sh-hint");
    if (hint) hint.hidden = true;
    var message = document.querySelector("#table .dock .message.error");
    if (message) message.hidden = true;
  }

  // A double tap: the card goes to its foundation as if that place were tapped (a real click on
  // its button, so that htmx sends the button's value with the form).
  function sendHome(b, source) {
    select(b, source);
    var button = b.querySelector('.sh-to[data-to="' + source.getAttribute("data-home") + '"]');
    if (button) button.click();
  }

  document.addEventListener("click", function (event) {
    var target = event.target && event.target.closest ? event.target : null;
    var b = board();
    if (target && keyboard && target.closest("#table.game-seahaven .sh-undo")) {
      keyboardMoveAt = Date.now();
      refocus = ".sh-undo:not([disabled])";
    }
    if (!target || !b || !b.contains(target)) return;
    var to = target.closest(".sh-to");
    if (to) {
      if (sending) event.preventDefault();
      else sending = true; // the button submits #act-form (htmx)
      if (keyboard) { keyboardMoveAt = Date.now(); refocus = ".sh-src"; }
      return;
    }
    var source = target.closest(".sh-src");
    if (!source) return;
    event.preventDefault(); // the page selects it; no reload
    if (sending) return;
    var place = source.getAttribute("data-from");
    var now = Date.now();
    if (b.getAttribute("data-from") === place) {
      var second = picked.place === place && now - picked.at < DOUBLE_TAP_MS;
      picked = { place: null, at: 0 };
      if (second && source.getAttribute("data-home")) sendHome(b, source);
      else select(b, null);
      return;
    }
    select(b, source);
    picked = { place: place, at: now };
    if (event.detail === 0) { // Enter or Space: on to the first place it may go
      var first = destinations(b).filter(function (d) { return !d.hidden; })[0];
      if (first) first.focus();
    }
  });

  document.addEventListener("keydown", function (event) {
    keyboard = true;
    if (event.key !== "Escape") return;
    var b = board();
    var chosen = b && b.querySelector('.sh-src[aria-pressed="true"]');
    if (!chosen) return;
    select(b, null);
    chosen.focus();
  });
  document.addEventListener("pointerdown", function () { keyboard = false; });

  // The table's one live region (#announcer, app.js) also says the hint, and when the "still
  // winnable?" mark changes (when no move is left, the status line says so already).
  var lastMark = null;
  function announce(table) {
    var region = document.getElementById("announcer");
    var hint = table.querySelector(".sh-hint");
    var mark = table.querySelector(".sh-mark");
    var markText = mark ? mark.textContent.replace(/^\W+/, "") : null;
    var said = null;
    if (hint) said = hint.textContent.replace(/\s+/g, " ").trim();
    else if (markText && lastMark !== null && markText !== lastMark && !table.querySelector(".sh-stuck")) said = markText;
    lastMark = markText;
    if (region && said) region.textContent = said;
  }

  // A new table: nothing is on its way any more. After a move made by keyboard, focus goes on
  // from the first card that may move (again if a live update swapped the table once more).
  document.addEventListener("table:settled", function () {
    sending = false;
    picked = { place: null, at: 0 };
    var table = document.querySelector("#table.game-seahaven");
    if (!table) { lastMark = null; return; }
    announce(table);
    var b = board();
    var lost = !document.activeElement || document.activeElement === document.body || !table.contains(document.activeElement)
      || document.activeElement.closest(".dock");
    if (b && keyboard && lost && Date.now() - keyboardMoveAt < 5000) {
      var next = table.querySelector(refocus) || b.querySelector(".sh-src");
      if (next) next.focus({ preventScroll: true });
    }
  });
  document.addEventListener("htmx:afterSettle", function () { sending = false; });
  document.addEventListener("htmx:responseError", function () { sending = false; });
  document.addEventListener("htmx:sendError", function () { sending = false; });

  // -- the timer -------------------------------------------------------------------------------

  function clockText(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor(seconds / 60) % 60;
    var s = seconds % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var clocks = document.querySelectorAll("#table .sh-clock[data-running=yes]");
    Array.prototype.forEach.call(clocks, function (clock) {
      if (!clock.shownAt) clock.shownAt = Date.now();
      var seconds = Number(clock.getAttribute("data-seconds")) || 0;
      clock.textContent = clockText(seconds + Math.floor((Date.now() - clock.shownAt) / 1000));
    });
  }
  window.setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);
  document.addEventListener("DOMContentLoaded", tick);
})();
