// Classic Rummy: small touches on its table (the game works without this file; the server judges
// every lay-off, C3.2).
// - with one card selected, the melds it fits are highlighted (the hand's data-fits, from the
//   game's view) and their folded groups opened;
// - the meld groups a player opened or closed stay so when the table is refreshed live; on a wide
//   screen every group is open unless the player closed it (the server folds them for phones).
// Loaded on the pages of its tables (base.html); the table is swapped in again on every update, so
// everything listens on the document.
(function () {
  "use strict";
  var chosen = {}; // "page path#owner seat" -> open (true) or closed (false), as this player left it

  function key(group) {
    return window.location.pathname + "#" + group.getAttribute("data-owner");
  }

  function table() {
    return document.querySelector("#table.game-rummy");
  }

  function highlight() {
    var t = table();
    if (!t) return;
    var picked = t.querySelectorAll(".hand-form input[name=cards]:checked");
    var fits = [];
    if (picked.length === 1) {
      var label = picked[0].closest("[data-fits]");
      if (label) fits = label.getAttribute("data-fits").split(" ");
    }
    t.querySelectorAll(".rm-meld[data-meld]").forEach(function (meld) {
      var yes = fits.indexOf(meld.getAttribute("data-meld")) >= 0;
      meld.classList.toggle("fits", yes);
      var group = meld.closest("details");
      if (yes && group) group.open = true;
    });
  }

  var wide = window.matchMedia ? window.matchMedia("(min-width: 861px)") : null;

  function restore() {
    var t = table();
    if (!t) return;
    t.querySelectorAll("details.rm-owner[data-owner]").forEach(function (group) {
      if (Object.prototype.hasOwnProperty.call(chosen, key(group))) group.open = chosen[key(group)];
      else if (wide && wide.matches) group.open = true;
    });
    highlight();
  }

  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "cards" && table()) highlight();
  });

  // A click on a group's summary toggles it: remember what the player wanted (read after the
  // browser has toggled it).
  // A tap on a meld (a lay-off) keeps its group open for the answer.
  document.addEventListener("click", function (event) {
    var target = event.target && event.target.closest ? event.target : null;
    if (!target) return;
    var meld = target.closest("details.rm-owner button.rm-meld");
    if (meld) { chosen[key(meld.closest("details"))] = true; return; }
    var summary = target.closest("details.rm-owner > summary");
    if (!summary) return;
    var group = summary.parentElement;
    window.setTimeout(function () { chosen[key(group)] = group.open; }, 0);
  });

  document.addEventListener("DOMContentLoaded", restore);
  document.addEventListener("htmx:afterSettle", restore);
})();
