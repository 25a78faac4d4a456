// Points Rummy: arranging the hand by keys (the game works without this file: select cards, then
// "Make a new group", "Add to group N" or "Take out of its group").
// - with the focus on a card of the hand, a digit N puts that card (and the cards selected with
//   it) into group N; the number after the last group makes a new group of them; 0 takes them
//   out of their group. The buttons of the hand do it (the same form, the server's check);
// - then the focus goes on to the next card not in a group (where the card just grouped was), so
//   that a whole hand is arranged with one key a card; the arrow keys move between the cards
//   (app.js) and Space selects one (the finish card of a declaration).
(function () {
  "use strict";
  var nextUngrouped = null; // after a grouping by key: which card not in a group takes the focus

  function ungroupedCards(root) {
    return Array.prototype.filter.call(root.querySelectorAll(".points-hand .ungrouped input[name=cards]"),
                                       function (input) { return !input.disabled; });
  }

  document.addEventListener("keydown", function (event) {
    var card = event.target;
    if (!card || card.name !== "cards" || card.type !== "checkbox" || card.disabled) return;
    var form = card.closest("#table.game-points .points-hand");
    if (!form || event.altKey || event.ctrlKey || event.metaKey || !/^[0-9]$/.test(event.key)) return;
    var number = Number(event.key);
    var groups = form.querySelectorAll(".groups .group:not(.ungrouped)").length;
    var button = number === 0 ? form.querySelector("#arrange-ungroup")
      : number <= groups ? form.querySelector("#add-to-" + number)
      : number === groups + 1 ? form.querySelector("#arrange-group") : null;
    if (!button || button.disabled) return;
    event.preventDefault();
    card.checked = true;
    var index = ungroupedCards(form).indexOf(card);
    nextUngrouped = index >= 0 ? index : 0;
    button.click(); // (as a person's click: htmx sends the button's name and value with the form)
  });

  document.addEventListener("table:settled", function (event) {
    var index = nextUngrouped;
    nextUngrouped = null;
    if (index === null || !(event.detail && event.detail.own)) return;
    var table = document.querySelector("#table.game-points");
    if (!table) return;
    var cards = ungroupedCards(table);
    var next = cards[Math.min(index, cards.length - 1)];
    if (next) next.focus({ preventScroll: true });
  });
})();
