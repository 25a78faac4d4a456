// Mason Rummy: small touches on top of htmx. The game works without this file.
// - the tab title says when it is your turn, and an optional sound plays when it becomes so;
// - the sound choice is kept in this browser (localStorage);
// - a refused lay-down's message goes away when the player changes the selection;
// - a live refresh of the table keeps the cards the player has ticked.
(function () {
  "use strict";
  var SOUND_KEY = "mason-rummy-sound";
  var wasMyTurn = null;

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    var context = new Context();
    var oscillator = context.createOscillator();
    var gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + 0.35);
    oscillator.connect(gain);
    gain.connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + 0.35);
  }

  function addSoundToggle(bar) {
    if (bar.querySelector(".sound-toggle")) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "link-button sound-toggle";
    function label() { button.textContent = soundOn() ? "Sound: on" : "Sound: off"; }
    button.addEventListener("click", function () {
      try { window.localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
      label();
    });
    label();
    bar.appendChild(button);
  }

  function update() {
    var table = document.getElementById("table");
    if (!table) { wasMyTurn = null; return; }
    var myTurn = table.getAttribute("data-my-turn") === "yes";
    var base = document.title.replace(/^\u25B6 Your turn - /, "").replace(/^Your turn - /, "");
    document.title = myTurn ? "\u25B6 Your turn - " + base : base;
    if (myTurn && wasMyTurn === false && soundOn()) beep();
    wasMyTurn = myTurn;
    var bar = table.querySelector(".status-bar");
    if (bar && table.getAttribute("data-player") === "yes") addSoundToggle(bar);
  }

  // A refusal's message is about the last selection: hide it once the player picks again.
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target || target.name !== "cards") return;
    var table = document.getElementById("table");
    var message = table && table.querySelector(".message.error");
    if (message) message.hidden = true;
  });

  // A live refresh (someone else's move) swaps the whole table: the cards this player has
  // ticked stay ticked where they are still in the same seat's hand and may be selected.
  var ticked = null;
  function handSeat(root) {
    var seat = root && root.querySelector("input[name=seat]");
    return seat ? seat.value : null;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var target = detail.target;
    ticked = null;
    if (!target || target.id !== "table" || !detail.requestConfig || detail.requestConfig.verb !== "get") return;
    var values = Array.prototype.map.call(target.querySelectorAll("input[name=cards]:checked"),
                                          function (input) { return input.value; });
    if (values.length) ticked = {seat: handSeat(target), values: values};
  });
  document.addEventListener("htmx:afterSwap", function () {
    var keep = ticked;
    ticked = null;
    var table = document.getElementById("table");
    if (!keep || !table || handSeat(table) !== keep.seat) return;
    Array.prototype.forEach.call(table.querySelectorAll("input[name=cards]"), function (input) {
      if (!input.disabled && keep.values.indexOf(input.value) !== -1) input.checked = true;
    });
  });

  document.addEventListener("DOMContentLoaded", update);
  document.addEventListener("htmx:afterSettle", update);
})();
