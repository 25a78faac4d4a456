// 21 against the dealer: the dealer's turn, shown card by card. The server has played the whole
// turn already (T3.4); the board marks each card with the step it came in (data-step: 0 = the
// hidden card turned over, 1, 2, ... = each card taken) and the dealer's value after each step
// (data-values). This script only paces what is already on the page: about half a second a
// step, the results once the last card shows. A tap (or a key) shows everything at once; with
// prefers-reduced-motion, or once this tab has shown that turn, nothing waits. Without this
// script everything is simply shown at once.
(function () {
  "use strict";
  var STEP_MS = 550;
  var STORE_KEY = "twentyone-dealer-shown";
  var shownHere = {};  // when sessionStorage cannot be used
  var running = null;  // {table, timer, finish}

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

  function stop() {
    if (running) {
      window.clearTimeout(running.timer);
      running = null;
    }
  }

  function reveal() {
    var table = document.getElementById("table");
    if (running) {
      if (running.table === table) return;  // another part of the page was swapped
      stop();
    }
    var dealer = table && table.querySelector(".tw-dealer[data-dealer-turn]");
    if (!dealer) return;
    var key = dealer.getAttribute("data-dealer-turn");
    if (seen(key) || reducedMotion()) { remember(key); return; }
    remember(key);

    var cards = Array.prototype.slice.call(dealer.querySelectorAll(".tw-step[data-step]"));
    var valueBox = dealer.querySelector(".tw-value[data-values]");
    var values = valueBox ? valueBox.getAttribute("data-values").split(" ") : [];
    var finalValue = valueBox ? valueBox.textContent : "";
    var last = values.length - 1;
    var step = -1;

    function show(upTo) {
      cards.forEach(function (slot) {
        var at = Number(slot.getAttribute("data-step"));
        slot.classList.toggle("tw-later", at > upTo && at > 0);
        slot.classList.toggle("tw-turning", at === 0 && upTo < 0);
        if (at === upTo) slot.classList.add("tw-dealt");
      });
      if (valueBox) valueBox.textContent = upTo < 0 ? "?" : values[Math.min(upTo, last)];
    }

    function finish() {
      stop();
      cards.forEach(function (slot) { slot.classList.remove("tw-later", "tw-turning"); });
      if (valueBox) valueBox.textContent = finalValue;
      table.classList.remove("tw-revealing");
    }

    function next() {
      step += 1;
      if (step > last) { finish(); return; }
      show(step);
      running.timer = window.setTimeout(next, STEP_MS);
    }

    table.classList.add("tw-revealing");
    show(-1);
    running = {table: table, finish: finish, timer: window.setTimeout(next, STEP_MS)};
  }

  // A tap or a key anywhere on the table shows the whole turn at once.
  function skip(event) {
    if (running && event.target && running.table.contains(event.target)) running.finish();
  }
  document.addEventListener("click", skip, true);
  document.addEventListener("keydown", function (event) {
    if (running && event.key !== "Tab" && event.key !== "Shift") running.finish();
  });

  // Run before the swapped board is painted (afterSwap), not after it settled.
  document.addEventListener("htmx:afterSwap", reveal);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", reveal);
  else reveal();
})();
