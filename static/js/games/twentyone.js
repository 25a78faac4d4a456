// 21 against the dealer: the dealer's turn, shown card by card. The server has played the whole
// turn already (T3.4); the board marks each card with the step it came in (data-step: 0 = the
// hidden card turned over, 1, 2, ... = each card taken) and the dealer's value after each step
// (data-values). This script only paces what is already on the page: about half a second a
// step, the results once the last card shows. A tap (or a key) shows everything at once; with
// prefers-reduced-motion, once this tab has shown that turn, or when the turn was over before
// the page was loaded (a reload, a spectator arriving), nothing waits. Without this script
// everything is simply shown at once.
//
// While a turn is being shown, <html> has the class tw-revealing (the stylesheet hides the
// results until then). It is not put on #table: htmx resets the swapped table's attributes when
// it settles, and a live update may swap the table again mid-turn (the turn then carries on).
(function () {
  "use strict";
  var STEP_MS = 550;
  var STORE_KEY = "twentyone-dealer-shown";
  var shownHere = {};  // when sessionStorage cannot be used
  var run = null;  // the turn being shown: {key, step, last, timer}

  function seen(key) {
    try {
      return (window.sessionStorage.getItem(STORE_KEY) || "").split(" ").indexOf(key) >= 0;
    } catch (e) { return shownHere[key] === true; }
  }

  function remember(key) {
    shownHere[key] = true;
    try {
      var keys = (window.sessionStorage.getItem(STORE_KEY) || "").split(" ").filter(Boolean);
      if (keys.indexOf(key) < 0) keys.push(key);
      window.sessionStorage.setItem(STORE_KEY, keys.slice(-20).join(" "));
    } catch (e) { /* private mode: this page's memory is enough */ }
  }

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function dealerTurn() {
    var table = document.getElementById("table");
    return table && table.querySelector(".tw-dealer[data-dealer-turn]");
  }

  function valuesOf(dealer) {
    var box = dealer.querySelector(".tw-value[data-values]");
    return box ? box.getAttribute("data-values").split(" ") : [];
  }

  // Show the dealer's hand as it was after ``step`` (-1: the hidden card not yet turned over);
  // ``dealt``: the step's new card comes in with a small movement.
  function show(dealer, step, dealt) {
    var values = valuesOf(dealer);
    Array.prototype.forEach.call(dealer.querySelectorAll(".tw-step[data-step]"), function (slot) {
      var at = Number(slot.getAttribute("data-step"));
      slot.classList.toggle("tw-later", at > step && at > 0);
      slot.classList.toggle("tw-turning", at === 0 && step < 0);
      slot.classList.toggle("tw-dealt", !!dealt && at === step);
    });
    var box = dealer.querySelector(".tw-value[data-values]");
    if (box && values.length) box.textContent = step < 0 ? "?" : values[Math.min(step, values.length - 1)];
  }

  function end() {
    if (!run) return;
    window.clearTimeout(run.timer);
    var dealer = dealerTurn();
    if (dealer && dealer.getAttribute("data-dealer-turn") === run.key) show(dealer, run.last);
    run = null;
    document.documentElement.classList.remove("tw-revealing");
    // The round's buttons (the next deal) could not take the focus while hidden (the table held
    // it): they take it now, unless the player has moved it somewhere.
    var active = document.activeElement;
    if (!active || active === document.body || active.id === "table") {
      var next = document.querySelector("#table > .summary button, #table > .results button");
      if (next) next.focus({ preventScroll: true });
    }
  }

  function next() {
    run.step += 1;
    if (run.step > run.last) { end(); return; }
    show(dealerTurn(), run.step, true);
    run.timer = window.setTimeout(next, STEP_MS);
  }

  function reveal(event) {
    var dealer = dealerTurn();
    var key = dealer && dealer.getAttribute("data-dealer-turn");
    if (run && run.key === key) {  // the same turn, drawn again by a live update: carry on
      show(dealer, run.step);
      return;
    }
    end();
    if (!dealer || seen(key)) return;
    remember(key);
    if (!event || event.type !== "htmx:afterSwap" || reducedMotion()) return;
    run = {key: key, step: -1, last: valuesOf(dealer).length - 1, timer: null};
    document.documentElement.classList.add("tw-revealing");
    // (the status bar's words while the dealer plays, in the page's language: the board gives them)
    var bar = document.querySelector("#table .status-bar");
    if (bar) bar.setAttribute("data-dealer-playing", dealer.getAttribute("data-playing-words") || "The dealer is playing\u2026");
    show(dealer, -1);
    var table = document.getElementById("table");
    // The table shows the other players' actions first (app.js): the dealer waits for them.
    if (table && table.hasAttribute("data-steps")) return;
    run.timer = window.setTimeout(next, STEP_MS);
  }

  document.addEventListener("table:settled", function () {
    if (run && run.timer === null && run.step < 0) run.timer = window.setTimeout(next, STEP_MS);
  });

  // A tap or a key anywhere on the table shows the whole turn at once.
  document.addEventListener("click", function (event) {
    var table = document.getElementById("table");
    if (run && table && table.contains(event.target)) end();
  }, true);
  document.addEventListener("keydown", function (event) {
    if (run && event.key !== "Tab" && event.key !== "Shift") end();
  });

  // Before the swapped board is painted (afterSwap), not after it settled.
  document.addEventListener("htmx:afterSwap", reveal);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", reveal);
  else reveal(null);
})();
