// Seahaven Towers: the table's touches (the game works without this file: the first tap then
// loads the table with the card selected, the second posts the move).
// - a tap selects a card in the page: the board shows where it may go (each destination button
//   lists the places whose card may go there, data-sources, from the game's view) and the dock's
//   form takes the card and its place; a second tap on the card puts it down again;
// - a double tap sends a card to its foundation (data-home, the view's to_foundation);
// - a drag (pointer events: mouse, touch, pen) picks the card up, shows where it may go, and a
//   drop on one of those places presses that place's button: the same form, the same check by
//   the server; a drop anywhere else puts the card back;
// - input never waits for the board: a move, drop or double tap made while the last one is on
//   its way is kept (by card) and made on the new board, if it is still a legal move there;
//   a live update keeps the selected card selected, and the solver's verdict arriving redraws
//   its mark alone where nothing else changes;
// - keys: H hint, U or Ctrl+Z undo, arrows move between the columns and the cells (with a card
//   picked up: between the places it may go), Enter or Space picks a card up and puts it down,
//   F sends the focused card home, Escape puts the card back;
// - the cards a move sent home by themselves (data-auto-moves) go home one after another;
// - the timer ticks (the server gives the seconds played when the table was drawn).
// Loaded on the pages of its tables (base.html); the table is swapped in again on every update, so
// everything listens on the document.
(function () {
  "use strict";
  // The words this script shows, in the page's language (static/js/app.js's, loaded first).
  function word(key, english, fields) {
    return window.cardTableWord ? window.cardTableWord(key, english, fields) : english;
  }
  var DOUBLE_TAP_MS = 450;
  var DRAG_PIXELS = 8; // a press that moves further than this is a drag, not a tap
  var AUTO_STEP_MS = 170;
  var SWAPPING = ".htmx-swapping, .htmx-settling, .htmx-added"; // htmx's classes while a swap is on
  var picked = { card: null, at: 0 }; // the card last tapped to select it, and when
  var sending = false; // a move is on its way: further moves wait in ``queue`` for the new board
  var queue = []; // moves made meanwhile: {kind: "move", card, to}, {kind: "home", card}, {kind: "undo"}
  var keyboard = false; // the last input was a key (focus then follows the cards)
  var keyboardMoveAt = 0; // when a move (or an undo) was last made by keyboard
  var refocus = null; // where focus goes on then: a place (t3) or a selector (".sh-undo")
  var keep = null; // the card selected when a live update came: selected again on the new board
  var drag = null; // the card being dragged: {card, place, x, y, pointer, started, ghost}
  var swallowClick = 0; // a drop's click (the browser's, after pointerup) is not a tap
  var pressing = false; // this script is pressing a place's button (a drop's move): not swallowed
  var shownVersion = null; // the version whose automatic moves were shown

  document.documentElement.classList.add("sh-js"); // hides the dock's buttons meant for no script

  function board() {
    return document.querySelector("#table.game-seahaven .sh-board.sh-playing");
  }

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  function sourceOf(b, card) {
    return b.querySelector('.sh-src[data-card="' + card + '"]');
  }

  function destinationFor(b, place, to) {
    var button = b.querySelector('.sh-to[data-to="' + to + '"]');
    if (!button) return null;
    return (button.getAttribute("data-sources") || "").split(" ").indexOf(place) >= 0 ? button : null;
  }

  // Show ``source`` (a card's button, or null) as the selected card, as the server would.
  function select(b, source) {
    var place = source ? source.getAttribute("data-from") : "";
    b.setAttribute("data-from", place);
    all(b, ".sh-src").forEach(function (s) { s.setAttribute("aria-pressed", s === source ? "true" : "false"); });
    all(b, ".sh-to").forEach(function (to) {
      var from = (to.getAttribute("data-sources") || "").split(" ");
      to.hidden = !place || from.indexOf(place) < 0;
      to.classList.remove("sh-hinted");
      to.classList.remove("sh-over");
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
        button.textContent = word("to_foundation", "%(card)s to foundation %(number)s", { card: source.textContent, number: home.slice(1) });
      }
    }
    var line = document.querySelector("#table .sh-picked");
    if (line) {
      line.textContent = source
        ? word(home ? "selected_home" : "selected", home ? "%(card)s selected: tap or drag it where it goes, or send it home."
          : "%(card)s selected: tap or drag it where it goes.", { card: source.textContent })
        : line.getAttribute("data-none");
    }
    var hint = document.querySelector("#table .sh-hint");
    if (hint) hint.hidden = true;
    var message = document.querySelector("#table .dock .message.error");
    if (message) message.hidden = true;
  }

  function selectedCard(b) {
    var chosen = b && b.querySelector('.sh-src[aria-pressed="true"]');
    return chosen ? chosen.getAttribute("data-card") : null;
  }

  // -- moves: made now, or kept for the new board ---------------------------------------------

  // Press the button of ``to`` for ``card`` (a real click, so that htmx sends the button's value
  // with the form), or keep the move until the board on its way is shown. False: not a legal
  // move on this board.
  function makeMove(card, to, byKeyboard) {
    if (sending) { queue.push({ kind: "move", card: card, to: to }); return true; }
    var b = board();
    var source = b && sourceOf(b, card);
    var button = source && destinationFor(b, source.getAttribute("data-from"), to);
    if (!button) return false;
    select(b, source);
    if (byKeyboard) { keyboardMoveAt = Date.now(); refocus = source.getAttribute("data-from"); }
    pressing = true;
    try { button.click(); } finally { pressing = false; } // (htmx sends it: ``sending`` from then on)
    // The places it could go are put away at once: the next card may be picked up on this board
    // while the move is on its way (that move then waits for the new board).
    if (sending) all(b, ".sh-to").forEach(function (to) { to.hidden = true; });
    return true;
  }

  function undo() {
    if (sending) { queue.push({ kind: "undo" }); return true; }
    var button = document.querySelector("#table .sh-undo:not([disabled])");
    if (button) button.click();
    return !!button;
  }

  function sendHome(card, byKeyboard) {
    if (sending) { queue.push({ kind: "home", card: card }); return true; }
    var b = board();
    var source = b && sourceOf(b, card);
    var home = source && source.getAttribute("data-home");
    return home ? makeMove(card, home, byKeyboard) : false;
  }

  function runQueue() {
    while (queue.length && !sending) {
      var next = queue.shift();
      if (next.kind === "undo") { undo(); continue; }
      var done = next.kind === "home" ? sendHome(next.card) : makeMove(next.card, next.to);
      if (!done) say(next.card + " cannot go there any more: the board changed.");
    }
  }

  function say(text) {
    var region = document.getElementById("announcer");
    if (region && text) region.textContent = text;
  }

  // -- taps ---------------------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var target = event.target && event.target.closest ? event.target : null;
    var b = board();
    if (target && target.closest("#table.game-seahaven .sh-undo")) {
      if (sending) { event.preventDefault(); queue.push({ kind: "undo" }); return; }
      if (keyboard) { keyboardMoveAt = Date.now(); refocus = ".sh-undo:not([disabled])"; }
    }
    if (!target || !b || !b.contains(target)) return;
    if (!pressing && Date.now() < swallowClick) { event.preventDefault(); event.stopPropagation(); return; }
    var to = target.closest(".sh-to");
    if (to) {
      if (sending) { // the board is on its way: this move waits for it
        event.preventDefault();
        var card = selectedCard(b);
        if (card) queue.push({ kind: "move", card: card, to: to.getAttribute("data-to") });
        return;
      }
      // the button submits #act-form (htmx)
      if (keyboard) { keyboardMoveAt = Date.now(); refocus = b.getAttribute("data-from"); }
      return;
    }
    var source = target.closest(".sh-src");
    if (!source) return;
    event.preventDefault(); // the page selects it; no reload
    var cardId = source.getAttribute("data-card");
    var now = Date.now();
    if (b.getAttribute("data-from") === source.getAttribute("data-from")) {
      var second = picked.card === cardId && now - picked.at < DOUBLE_TAP_MS;
      picked = { card: null, at: 0 };
      if (second && source.getAttribute("data-home")) sendHome(cardId, event.detail === 0);
      else select(b, null);
      return;
    }
    select(b, source);
    picked = { card: cardId, at: now };
    if (event.detail === 0) { // Enter or Space: on to the first place it may go
      var first = all(b, ".sh-to").filter(function (d) { return !d.hidden; })[0];
      if (first) first.focus();
    }
  });

  // -- drag and drop ------------------------------------------------------------------------------

  function placeAt(x, y) {
    var element = document.elementFromPoint(x, y);
    var slot = element && element.closest ? element.closest("#table .sh-board [data-place]") : null;
    return slot ? slot.getAttribute("data-place") : null;
  }

  document.addEventListener("pointerdown", function (event) {
    keyboard = false;
    if (event.button !== 0) return;
    // A drag whose end never came (its card's button went with a redrawn board before the drag
    // began) is over.
    if (drag) endDrag(event, false);
    var source = event.target && event.target.closest ? event.target.closest("#table .sh-board.sh-playing .sh-src") : null;
    if (!source) return;
    drag = { card: source.getAttribute("data-card"), place: source.getAttribute("data-from"), x: event.clientX,
             y: event.clientY, pointer: event.pointerId, started: false, ghost: null, over: null };
    source.addEventListener("pointermove", pointerMoved, { passive: false });
    source.addEventListener("pointerup", pointerUp);
    source.addEventListener("pointercancel", pointerCancelled);
  });

  function startDrag(event) {
    var b = board();
    var source = b && sourceOf(b, drag.card);
    if (!source) { drag = null; return; }
    drag.started = true;
    select(b, source);
    var box = source.getBoundingClientRect();
    var ghost = source.cloneNode(true);
    ghost.removeAttribute("form");
    ghost.removeAttribute("name");
    ghost.className = source.className + " sh-ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.setAttribute("tabindex", "-1");
    ghost.style.width = box.width + "px";
    ghost.style.height = box.height + "px";
    drag.dx = event.clientX - box.left;
    drag.dy = event.clientY - box.top;
    document.body.appendChild(ghost);
    drag.ghost = ghost;
    source.classList.add("sh-dragging");
  }

  function moveGhost(event) {
    drag.ghost.style.transform = "translate(" + (event.clientX - drag.dx) + "px," + (event.clientY - drag.dy) + "px)";
    var b = board();
    var place = placeAt(event.clientX, event.clientY);
    var over = b && place ? destinationFor(b, drag.place, place) : null;
    if (drag.over && drag.over !== over) drag.over.classList.remove("sh-over");
    if (over) over.classList.add("sh-over");
    drag.over = over;
  }

  // Each pointer event of a drag is handled once: by the card's button, which hears the drag's
  // events even after a redrawn board has dropped it (a finger's events stay with the element it
  // touched first), or by the page.
  function once(handler) {
    return function (event) {
      if (event.shHandled) return;
      event.shHandled = true;
      handler(event);
    };
  }

  var pointerMoved = once(function (event) {
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.started) {
      if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) < DRAG_PIXELS) return;
      startDrag(event);
      if (!drag) return;
    }
    event.preventDefault();
    moveGhost(event);
  });
  var pointerUp = once(function (event) {
    if (drag && event.pointerId === drag.pointer) endDrag(event, true);
  });
  var pointerCancelled = once(function (event) {
    if (drag && event.pointerId === drag.pointer) endDrag(event, false);
  });
  document.addEventListener("pointermove", pointerMoved, { passive: false });
  document.addEventListener("pointerup", pointerUp);
  document.addEventListener("pointercancel", pointerCancelled);

  function endDrag(event, dropped) {
    var ended = drag;
    drag = null;
    if (!ended || !ended.started) return;
    if (ended.ghost && ended.ghost.parentNode) ended.ghost.parentNode.removeChild(ended.ghost);
    all(document, "#table .sh-dragging").forEach(function (s) { s.classList.remove("sh-dragging"); });
    swallowClick = Date.now() + 400;
    var place = dropped ? placeAt(event.clientX, event.clientY) : null;
    var b = board();
    // A board being swapped in is not pressed yet: the drop waits for it (table:settled).
    if (place && place !== ended.place && document.querySelector(SWAPPING)) {
      queue.push({ kind: "move", card: ended.card, to: place });
      return;
    }
    if (place && place !== ended.place && makeMove(ended.card, place)) return;
    if (b && !sending) select(b, null); // dropped nowhere it may go: put back
  }

  // A drag that began on a card must not also scroll the page or select text.
  document.addEventListener("dragstart", function (event) {
    if (event.target && event.target.closest && event.target.closest("#table .sh-src")) event.preventDefault();
  });

  // -- keys -----------------------------------------------------------------------------------------

  function typing(target) {
    return target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable);
  }

  // The places of the board in two rows (cells and foundations above, columns below), each with
  // the button keys may stop at: a card that may move, or (with a card picked up) a place it
  // may go, or the picked card itself.
  function stops(b) {
    var chosen = b.getAttribute("data-from");
    var rows = [[], []];
    all(b, "[data-place]").forEach(function (slot) {
      var place = slot.getAttribute("data-place");
      var button = null;
      if (chosen) {
        button = place === chosen ? slot.querySelector(".sh-src") : slot.querySelector(".sh-to:not([hidden])");
      } else {
        button = slot.querySelector(".sh-src");
      }
      if (button) rows[place.charAt(0) === "t" ? 1 : 0].push(button);
    });
    return rows;
  }

  function arrow(b, key, from) {
    var rows = stops(b);
    var row = -1;
    var index = -1;
    rows.forEach(function (buttons, r) {
      var i = buttons.indexOf(from);
      if (i >= 0) { row = r; index = i; }
    });
    var next = null;
    if (row < 0) {
      next = rows[1][0] || rows[0][0];
    } else if (key === "ArrowLeft" || key === "ArrowRight") {
      var step = key === "ArrowRight" ? 1 : -1;
      var line = rows[row];
      next = line[(index + step + line.length) % line.length];
    } else {
      var other = rows[key === "ArrowUp" ? 0 : 1];
      if (other.length && other !== rows[row]) {
        var x = from.getBoundingClientRect().left;
        next = other.reduce(function (best, button) {
          var distance = Math.abs(button.getBoundingClientRect().left - x);
          return !best || distance < best.distance ? { button: button, distance: distance } : best;
        }, null).button;
      }
    }
    if (next) next.focus();
  }

  document.addEventListener("keydown", function (event) {
    keyboard = true;
    var b = board();
    if (!b || typing(event.target) || event.altKey || event.metaKey) return;
    var key = event.key;
    var inBoard = event.target && b.contains(event.target);
    if (key === "Escape") {
      var chosen = b.querySelector('.sh-src[aria-pressed="true"]');
      if (chosen) { select(b, null); chosen.focus(); }
      return;
    }
    if ((key === "z" || key === "Z") && event.ctrlKey || (key === "u" || key === "U") && !event.ctrlKey) {
      event.preventDefault();
      keyboardMoveAt = Date.now();
      refocus = ".sh-undo:not([disabled])";
      undo();
      return;
    }
    if (event.ctrlKey) return;
    if (key === "h" || key === "H") {
      var hint = document.querySelector("#table .sh-hint-button");
      if (hint) { event.preventDefault(); keyboardMoveAt = Date.now(); refocus = "hint"; hint.click(); }
      return;
    }
    if (key === "f" || key === "F") {
      var focused = inBoard && event.target.closest(".sh-src");
      var card = focused ? focused.getAttribute("data-card") : selectedCard(b);
      if (card) {
        event.preventDefault();
        if (!sendHome(card, true)) say(card + " cannot go to a foundation now.");
      }
      return;
    }
    // (from the dock too: after Undo or Hint the arrows take the player back to the cards)
    var table = document.getElementById("table");
    var inTable = event.target === document.body || (table && table.contains(event.target) && !event.target.closest("summary"));
    if (/^Arrow(Left|Right|Up|Down)$/.test(key) && (inBoard || inTable)) {
      event.preventDefault();
      arrow(b, key, inBoard ? event.target.closest("button") : null);
    }
  });

  // -- the table as it comes -------------------------------------------------------------------------

  // A move of this page is on its way from the moment htmx sends it to the new table's arrival.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig || {};
    var path = config.path || (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (config.verb && config.verb !== "get" && /\/act$/.test(path) && document.querySelector("#table.game-seahaven")) {
      sending = true;
    }
  });

  // A live update (not this page's own move) keeps the card this player had selected.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "table" || !event.detail.shouldSwap) return;
    var config = event.detail.requestConfig || {};
    var own = !!config.verb && config.verb !== "get";
    keep = own ? null : selectedCard(board());
    // ... and the button that had the focus, given it again on the new table at once (a key
    // pressed just after a live update must reach the same card)
    var active = document.activeElement;
    keptFocus = !own && active && target.contains(active) ? focusKey(active) : null;
  });

  var keptFocus = null;

  function focusKey(element) {
    if (element.getAttribute("data-card")) return '.sh-src[data-card="' + element.getAttribute("data-card") + '"]';
    if (element.getAttribute("data-to")) return '.sh-to[data-to="' + element.getAttribute("data-to") + '"]';
    var named = ["sh-undo", "sh-hint-button", "sh-finish"].filter(function (c) { return element.classList.contains(c); })[0];
    return named ? "." + named : null;
  }

  document.addEventListener("htmx:afterSwap", function () {
    var selector = keptFocus;
    keptFocus = null;
    var table = document.querySelector("#table.game-seahaven");
    var active = document.activeElement;
    if (!selector || !table || (active && active !== document.body && table.contains(active))) return;
    var again = table.querySelector(selector);
    if (again && !again.hidden) again.focus({ preventScroll: true });
  });

  // The solver's answer arrives as the whole table (.sh-awaiting's fetch). When the server says it
  // changes the mark alone (data-mark-only) and the table is the one shown, only the mark is
  // swapped: the board stays as it is under a finger about to drag a card. This runs before
  // app.js's handler (capture), which then sees no table being swapped.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var elt = detail.requestConfig && detail.requestConfig.elt; // (detail.elt is the target)
    var table = document.querySelector("#table.game-seahaven");
    if (!detail.shouldSwap || !table || !elt || !elt.classList || !elt.classList.contains("sh-awaiting")) return;
    if (sending) return; // (the move's answer brings the table: app.js keeps this one out)
    var mark = table.querySelector(".sh-analysis");
    var response = detail.serverResponse || ""; // (read as app.js reads a version: htmx parses it once)
    var incoming = /id="table"[^>]*data-version="(\d+)"/.exec(response);
    if (!mark || !incoming || incoming[1] !== table.getAttribute("data-version")) return;
    if (!/class="sh-analysis" data-mark-only/.test(response)) return;
    detail.target = mark;
    detail.selectOverride = ".sh-analysis";
  }, true);

  // The table's one live region (#announcer, app.js) also says the hint, and when the "still
  // winnable?" mark changes (when no move is left, the status line says so already).
  var lastMark = null;
  function announce(table) {
    var hint = table.querySelector(".sh-hint");
    var mark = table.querySelector(".sh-mark");
    var markText = mark ? mark.textContent.replace(/^\W+/, "") : null;
    var said = null;
    if (hint) said = hint.textContent.replace(/\s+/g, " ").trim();
    else if (markText && lastMark !== null && markText !== lastMark && !table.querySelector(".sh-stuck")) said = markText;
    lastMark = markText;
    if (said) say(said);
  }

  // -- the cards that went home by themselves, one after another -----------------------------------

  var SIGNS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var RANKS = "A23456789TJQK";

  function cardFace(id) { // as templates/table/_card.html draws a card: the rank as players write it, the sign
    var span = document.createElement("span");
    var index = document.createElement("b");
    var sign = document.createElement("i");
    span.className = "card suit-" + id.charAt(1);
    span.setAttribute("data-card", id);
    span.setAttribute("aria-hidden", "true");
    index.textContent = id.charAt(0) === "T" ? "10" : id.charAt(0);
    sign.textContent = SIGNS[id.charAt(1)] || "";
    index.appendChild(sign);
    span.appendChild(index);
    return span;
  }

  function below(id) { // the card a foundation showed before ``id`` went on it, or null
    var rank = RANKS.indexOf(id.charAt(0));
    return rank > 0 ? RANKS.charAt(rank - 1) + id.charAt(1) : null;
  }

  // The cards being shown going home one by one: {version, board, moves, index} while they go.
  var stepping = null;

  function showAutoMoves(table) {
    var b = table.querySelector(".sh-board");
    var version = table.getAttribute("data-version");
    var first = shownVersion === null;
    if (!b) return;
    if (version === shownVersion) {
      // The same table again (a live update, the solver's answer) while its cards go home: the
      // ones still on their way go on from where they were, on the new board.
      if (stepping && stepping.version === version && stepping.board !== b) {
        stepThrough(b, version, stepping.moves.slice(stepping.index));
      }
      return;
    }
    shownVersion = version;
    stepping = null;
    if (first) return; // (a page loaded afresh shows the board as it is)
    var text = b.getAttribute("data-auto-moves");
    var motion = !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
    if (!text || !motion) return;
    stepThrough(b, version, text.split(" ").map(function (item) {
      var parts = /^(\w+)>(\w+):(\w+)$/.exec(item);
      return parts ? { from: parts[1], to: parts[2], card: parts[3] } : null;
    }).filter(Boolean));
  }

  // Shows the board ``b`` as it was before ``moves``, then makes them one by one.
  function stepThrough(b, version, moves) {
    if (!moves.length) return;
    var slots = {};
    all(b, "[data-place]").forEach(function (slot) { slots[slot.getAttribute("data-place")] = slot; });
    var finals = {};
    function keepFinal(place) {
      if (!finals[place] && slots[place]) finals[place] = Array.prototype.slice.call(slots[place].childNodes);
    }
    function showTop(place, id) { // a foundation showing ``id`` on top (or empty)
      var slot = slots[place];
      all(slot, ".card, .sh-count").forEach(function (e) { e.remove(); });
      var face = id ? cardFace(id) : document.createElement("span");
      if (!id) { face.className = "card empty sh-empty"; face.setAttribute("aria-hidden", "true"); }
      slot.insertBefore(face, slot.firstChild);
    }
    // the board as it was before the first of them: each card back where it came from
    var seen = {};
    moves.forEach(function (m) {
      keepFinal(m.from); keepFinal(m.to);
      if (!seen[m.to]) { seen[m.to] = true; showTop(m.to, below(m.card)); }
    });
    moves.slice().reverse().forEach(function (m) {
      var slot = slots[m.from];
      if (!slot) return;
      if (m.from.charAt(0) === "c") {
        all(slot, ".card").forEach(function (e) { e.remove(); });
        slot.insertBefore(cardFace(m.card), slot.firstChild);
      } else {
        all(slot, ".sh-empty").forEach(function (e) { e.remove(); });
        var face = cardFace(m.card);
        var after = slot.querySelector(".sh-to");
        slot.insertBefore(face, after);
      }
    });
    b.classList.add("sh-stepping");
    var step = moves.length > 8 ? AUTO_STEP_MS / 2 : AUTO_STEP_MS;
    var run = { version: version, board: b, moves: moves, index: 0 };
    stepping = run;
    (function next() {
      if (!b.isConnected || stepping !== run) return;
      if (run.index >= moves.length) {
        Object.keys(finals).forEach(function (place) { slots[place].replaceChildren.apply(slots[place], finals[place]); });
        b.classList.remove("sh-stepping");
        stepping = null;
        return;
      }
      var m = moves[run.index++];
      var from = slots[m.from];
      var face = from && all(from, '.card[data-card="' + m.card + '"]').pop();
      if (face) face.remove();
      if (from && m.from.charAt(0) === "c") {
        var empty = document.createElement("span");
        empty.className = "card empty sh-empty";
        empty.setAttribute("aria-hidden", "true");
        from.insertBefore(empty, from.firstChild);
      }
      showTop(m.to, m.card);
      window.setTimeout(next, step);
    })();
  }

  // A new table: nothing is on its way any more; what was kept meanwhile is made now. After a move
  // made by keyboard, focus goes on from the same place (else the first card that may move).
  document.addEventListener("table:settled", function (event) {
    var own = !!(event.detail && event.detail.own); // the answer to this page's own move
    sending = false;
    var table = document.querySelector("#table.game-seahaven");
    if (!table) { lastMark = null; queue = []; return; }
    announce(table);
    showAutoMoves(table);
    var b = board();
    if (b && keep) {
      var again = sourceOf(b, keep);
      if (again && !b.getAttribute("data-from")) select(b, again);
    }
    keep = null;
    if (b && queue.length) runQueue();
    if (sending) return;
    // A hint asked by key before the solver's answer came: the answer's table marks its place,
    // which takes the focus then (whatever the swap in between gave it back to).
    var hinted = b && keyboard && refocus === "hint" && Date.now() - keyboardMoveAt < 5000 ? b.querySelector(".sh-to.sh-hinted") : null;
    if (hinted) {
      refocus = null;
      if (document.activeElement !== hinted) hinted.focus({ preventScroll: true });
      return;
    }
    // Focus is lost if it left the table, or (after this page's own move) if the house put it on
    // the dock's first button; a control the player focused stays focused through a live update.
    var active = document.activeElement;
    var lost = !active || active === document.body || !table.contains(active) || (own && active.closest(".dock"));
    if (b && keyboard && lost && Date.now() - keyboardMoveAt < 5000) {
      var next = null;
      if (refocus === "hint") next = b.querySelector(".sh-to.sh-hinted") || b.querySelector('.sh-src[aria-pressed="true"]');
      else if (refocus && refocus.charAt(0) === ".") next = table.querySelector(refocus);
      else if (refocus) next = b.querySelector('[data-place="' + refocus + '"] .sh-src');
      next = next || b.querySelector(".sh-src");
      if (next) next.focus({ preventScroll: true });
    }
  });
  document.addEventListener("htmx:responseError", function () { sending = false; queue = []; });
  document.addEventListener("htmx:sendError", function () { sending = false; queue = []; });

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
