// The card table: small touches on top of htmx, for every game. The game works without this file.
// - paced turns: when the table changes by other players' actions (a computer's draw, lay-downs
//   and discard; another person's move), the board shows each step as a spectator saw it, about
//   half a second apart, before the table as it is now; Skip (or Escape) shows it at once, and
//   with prefers-reduced-motion it is always at once. The server decided everything already:
//   the buttons wait until the steps are shown.
// - one stable live region (#announcer) says whose turn it is and each move of the others;
// - a live update keeps the cards the player has selected (where they can still be selected);
// - after an action, focus goes to the next useful control (after a control of a group marked
//   data-keep-focus, arranging one's own cards, it stays on that control), and a new table never
//   leaves it on the page's body (the same control again, else the next sensible one, else the
//   table); arrow keys move between cards;
//   on a replay, arrow keys step back and forth, and Play steps on by itself, a step every
//   AUTOPLAY_MS, each step's page fetched and swapped in (without this file, Play is hidden and
//   the step links work as they are);
// - the tab title says when it is your turn; sounds (made here, with the Web Audio API) say it and
//   the table's news (its data-news: a card drawn, played, laid down, a round over, won, lost),
//   as the footer's settings ask (off until switched on; on a spectator's page only if asked);
// - a card that moved (drawn, taken, discarded, laid down or off, moved) slides from where it was
//   to where it is after the swap; a new card from the stock or the seat that played it. The
//   page only moves the cards it has: a card hidden to this seat is never in it;
// - the footer's settings: theme, four suit colours, sounds (kept in localStorage; theme.js
//   applies the look before the first paint);
// - a refused action's message goes away when the player changes the selection;
// - a button that asks first (data-confirm: a move that costs points, the host releasing a seat)
//   asks in a dialog; "Yes" sends its form with confirmed=1 (without this file, the server asks);
// - times (<time class="local-time">, UTC in the page) are shown in the browser's own time;
// - a set-up form's seat named AI does not offer "this device / their own device";
// - a boosted link to a page that needs a stylesheet or script this page has not loaded (a game's
//   table) loads that page whole.
(function () {
  "use strict";
  // The words this script shows, in the page's language: the page gives them (base.html's
  // data-words, through the catalogue); English where a page gives none.
  var WORDS = (function () {
    try { return JSON.parse(document.body.getAttribute("data-words") || "{}"); } catch (e) { return {}; }
  }());
  function word(key, english, fields) {
    var text = WORDS[key] || english;
    Object.keys(fields || {}).forEach(function (name) { text = text.split("%(" + name + ")s").join(fields[name]); });
    return text;
  }
  window.cardTableWord = word; // (a game's own script shows its words through it too)
  var SOUND_KEY = "card-table-sound";
  var SOUND_OFF_KEY = "card-table-sound-off"; // the kinds switched off, by a space
  var SOUND_WATCHING_KEY = "card-table-sound-watching";
  var OLD_SOUND_KEY = "mason-rummy-sound";  // where browsers kept the choice before: still read
  var STEP_MS = 550;
  var AUTOPLAY_MS = 1200;
  var wasMyTurn = null;
  var lastStatus = null;
  var shownVersion = null; // the version of the table shown (or being shown step by step)
  var pacing = null; // the steps being shown: {finish, stop}
  var kept = null; // the selection to keep across a live update
  var keptFolds = null; // the <details> this player opened, by their summary, kept open across a live update
  var ownAction = false; // the swap answers this page's own form
  var keptFocus = null; // the id of the data-keep-focus control this page's own form was sent with
  var newsAt = null; // the log's length the last news was heard at
  var places = null; // where each card was before the swap: {id: rect}, and the piles a new card comes from

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }

  function store(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* private mode */ }
  }

  function soundOn() {
    var value = stored(SOUND_KEY);
    return (value === null ? stored(OLD_SOUND_KEY) : value) === "on";
  }

  function soundsOff() { return (stored(SOUND_OFF_KEY) || "").split(" "); }

  // Each sound: notes (Hz) one after another, each `length` seconds, in a wave's shape.
  var SOUNDS = {
    turn: [[660, 880], 0.13, "sine"], draw: [[520], 0.07, "triangle"], play: [[300, 220], 0.06, "triangle"],
    meld: [[523, 659, 784], 0.09, "sine"], round: [[392, 523], 0.16, "sine"],
    won: [[523, 659, 784, 1047], 0.12, "sine"], lost: [[392, 330, 262], 0.16, "sine"]
  };
  var audio = null;

  // A sound of ``kind``, ``delay`` seconds from now, if this device and this page want it.
  function sound(kind, table, delay) {
    var made = SOUNDS[kind];
    if (!made || !soundOn() || soundsOff().indexOf(kind) >= 0) return;
    if (table.getAttribute("data-watching") === "yes" && stored(SOUND_WATCHING_KEY) !== "on") return;
    if (window.__soundsPlayed && window.__soundsPlayed.push) window.__soundsPlayed.push(kind); // (tests listen here)
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      if (audio.state === "suspended") audio.resume();
      var start = audio.currentTime + (delay || 0);
      made[0].forEach(function (pitch, n) {
        var at = start + n * made[1];
        var oscillator = audio.createOscillator();
        var gain = audio.createGain();
        oscillator.type = made[2];
        oscillator.frequency.value = pitch;
        gain.gain.setValueAtTime(0.12, at);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + made[1] * 1.6);
        oscillator.connect(gain);
        gain.connect(audio.destination);
        oscillator.start(at);
        oscillator.stop(at + made[1] * 1.6);
      });
    } catch (e) { /* no sound on this device */ }
  }

  function addSoundToggle(bar) {
    if (bar.querySelector(".sound-toggle")) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "link-button sound-toggle";
    function label() { button.textContent = soundOn() ? word("sound_on", "Sound: on") : word("sound_off", "Sound: off"); }
    button.addEventListener("click", function () {
      store(SOUND_KEY, soundOn() ? "off" : "on");
      label();
      settingsShown();
    });
    label();
    bar.appendChild(button);
  }

  function announce(text) {
    var region = document.getElementById("announcer");
    if (region && text) region.textContent = text;
  }

  function statusText(table) {
    var strong = table.querySelector(".status-bar strong");
    return strong ? strong.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function cardInputs(table) {
    return Array.prototype.slice.call(table.querySelectorAll("input[name=cards]"));
  }

  // -- focus -----------------------------------------------------------------------------------

  function focusNext(table, afterOwnAction, becameMyTurn) {
    var target = null;
    var focus = table.getAttribute("data-focus");
    var stay = afterOwnAction && keptFocus ? document.getElementById(keptFocus) : null;
    keptFocus = null;
    if (stay && !stay.disabled && table.contains(stay) && focus !== "confirm") {
      target = stay;
    } else if (focus && (afterOwnAction || becameMyTurn)) {
      if (focus === "confirm") target = table.querySelector(".confirm-step .confirm-no");
      if (focus === "hand") target = cardInputs(table).filter(function (i) { return !i.disabled; })[0];
      // (a move of the turn before a group of controls that keep the focus: arranging one's cards)
      if (!target) target = table.querySelector(".dock .actions:not([data-keep-focus]) button:not([disabled])");
      if (!target) target = table.querySelector(".dock .actions button, .dock button:not(.pace-skip)");
    } else if (afterOwnAction) {
      target = table.querySelector(".handover button, .summary button, .results button");
    }
    if (target) target.focus({ preventScroll: true });
    if (afterOwnAction || hadFocus !== null) keepFocusInTable(table);
    hadFocus = null;
  }

  // The focus is never lost to the page's body by a new table: if the control that had it (in
  // the table swapped out) is gone, the same control on the new table takes it, else the first
  // move button that can be pressed, the hand, the round's or the game's buttons, and else the
  // table itself (the next Tab goes on from there; a game's script may place it later, as 21's
  // once the dealer has played).
  var hadFocus = null; // what had the focus in the table swapped out: a selector of the same control

  function focusSelector(element) {
    if (!element || !element.tagName) return null;
    if (element.id) return "#" + window.CSS.escape(element.id);
    var tag = element.tagName.toLowerCase();
    var parts = ["name", "value", "data-card", "data-to", "data-from", "data-meld"].filter(function (name) {
      return element.hasAttribute(name);
    }).map(function (name) { return "[" + name + '="' + window.CSS.escape(element.getAttribute(name)) + '"]'; });
    if (parts.length) return tag + parts.join("");
    var classes = Array.prototype.slice.call(element.classList).filter(function (c) { return !/^htmx-/.test(c); });
    return classes.length ? tag + "." + classes.map(function (c) { return window.CSS.escape(c); }).join(".") : null;
  }

  // (the table itself holds the focus only while nothing in it can: that counts as lost too)
  function focusLost(table) {
    var active = document.activeElement;
    return !active || active === document.body || !active.isConnected || active === table;
  }

  function holdFocus(table) {
    if (!table.hasAttribute("tabindex")) table.setAttribute("tabindex", "-1");
    table.focus({ preventScroll: true });
  }

  function usable(element) {
    return !!element && !element.disabled && !element.closest("[hidden], [inert]") && element.getClientRects().length > 0;
  }

  function tryFocus(element) {
    if (!usable(element)) return false;
    element.focus({ preventScroll: true });
    return document.activeElement === element;
  }

  function keepFocusInTable(table) {
    if (!focusLost(table) || !table.isConnected) return;
    var candidates = [];
    if (hadFocus) {
      try { candidates.push(table.querySelector(hadFocus)); } catch (e) { /* not a selector any more */ }
    }
    var groups = [".dock .actions button", ".dock button:not(.pace-skip)", "input[name=cards]",
                  ".confirm-step button, .handover button, .summary button, .results button"];
    groups.forEach(function (selector) {
      candidates.push.apply(candidates, Array.prototype.slice.call(table.querySelectorAll(selector)));
    });
    for (var i = 0; i < candidates.length; i++) {
      if (tryFocus(candidates[i])) return;
    }
    holdFocus(table);
  }

  // -- the table as it is now --------------------------------------------------------------------

  // The tab title (and the sound) follow the table as it is now, even while steps are shown.
  function titled(table) {
    var myTurn = table.getAttribute("data-my-turn") === "yes";
    var becameMyTurn = myTurn && wasMyTurn === false;
    var prefix = word("your_turn", "Your turn") + " - ";
    var base = document.title.replace("\u25B6 " + prefix, "");
    if (base.indexOf(prefix) === 0) base = base.slice(prefix.length);
    document.title = myTurn ? "\u25B6 " + prefix + base : base;
    // The news of a grown log (not the page's first look), then the turn coming round.
    var at = table.getAttribute("data-news-at");
    var news = newsAt !== null && at !== newsAt ? table.getAttribute("data-news") : "";
    newsAt = at;
    if (news) sound(news, table, 0);
    if (becameMyTurn) sound("turn", table, news ? 0.25 : 0);
    wasMyTurn = myTurn;
    return becameMyTurn;
  }

  function settled(table, afterOwnAction, becameMyTurn) {
    var bar = table.querySelector(".status-bar");
    if (bar && table.getAttribute("data-player") === "yes") addSoundToggle(bar);
    var status = statusText(table);
    if (status && status !== lastStatus) {
      if (lastStatus !== null) announce(status);
      lastStatus = status;
    }
    focusNext(table, afterOwnAction, becameMyTurn);
    // For a game's own script: the table is shown as it is now (after any paced steps).
    table.dispatchEvent(new window.CustomEvent("table:settled", { bubbles: true, detail: { own: !!afterOwnAction } }));
  }

  // -- paced steps ----------------------------------------------------------------------------------

  function stopPacing() {
    if (pacing) pacing.stop();
    pacing = null;
  }

  function pace(table, url, afterOwnAction, becameMyTurn, first) {
    var board = table.querySelector(".board");
    var dock = table.querySelector(".dock");
    if (!board || !dock || !window.fetch) { settled(table, afterOwnAction, becameMyTurn); return; }
    var finalBoard = Array.prototype.slice.call(board.childNodes);
    var waiting = Array.prototype.filter.call(table.querySelectorAll("button"), function (b) { return !b.disabled; });
    var bar = document.createElement("div");
    bar.className = "pace";
    var said = document.createElement("span");
    said.className = "pace-text";
    said.textContent = "\u2026";
    var skip = document.createElement("button");
    skip.type = "button";
    skip.className = "pace-skip";
    skip.textContent = word("skip", "Skip");
    bar.appendChild(said);
    bar.appendChild(skip);
    dock.insertBefore(bar, dock.firstChild);
    table.classList.add("pacing");
    waiting.forEach(function (b) { b.disabled = true; });
    if (focusLost(table)) holdFocus(table); // (until the table as it is now is shown)
    var timer = null;
    var over = false;
    var state = {
      stop: function () { over = true; window.clearTimeout(timer); },
      finish: function () {
        if (over) return;
        state.stop();
        pacing = null;
        board.replaceChildren.apply(board, finalBoard);
        if (bar.parentNode) bar.parentNode.removeChild(bar);
        table.classList.remove("pacing");
        waiting.forEach(function (b) { b.disabled = false; });
        settled(table, afterOwnAction || state.own, becameMyTurn);
      }
    };
    pacing = state;
    skip.addEventListener("click", state.finish);
    window.fetch(url, { credentials: "same-origin" }).then(function (answer) {
      return answer.ok ? answer.text() : "";
    }).then(function (html) {
      if (over) return;
      // parsed as an inert document: nothing in it runs or loads until a step is shown
      var steps = new window.DOMParser().parseFromString(html, "text/html").querySelectorAll("template.step");
      var index = 0;
      (function next() {
        if (over) return;
        if (index >= steps.length) { state.finish(); return; }
        var step = steps[index++];
        var text = step.getAttribute("data-text") || "";
        said.textContent = text;
        announce(text);
        // The last step is the table as it is now: the real board is shown for it (a game's own
        // script may pace what happened inside that one action, on table:settled).
        var before = index === 1 && first ? first : whereCardsAre(table); // (the first step: from the cards before the swap)
        board.replaceChildren.apply(board, index === steps.length ? finalBoard : [step.content.cloneNode(true)]);
        moveCards(board, before);
        timer = window.setTimeout(next, STEP_MS);
      })();
    }).catch(state.finish);
  }

  function shown(table, afterOwnAction) {
    var version = table.getAttribute("data-version");
    var steps = table.getAttribute("data-steps");
    var again = version === shownVersion;
    shownVersion = version;
    var becameMyTurn = titled(table);
    if (steps && !again && !reducedMotion()) pace(table, steps, afterOwnAction, becameMyTurn, places);
    else {
      if (places && !reducedMotion()) moveCards(table, places);
      settled(table, afterOwnAction, becameMyTurn);
    }
    places = null;
  }

  // -- cards that move --------------------------------------------------------------------------

  // Where a card is: its box, and its place: the dock (this seat's hand: a card that only shifts
  // in it, re-sorted or under a taller dock, stays still), else its parent's path on the board.
  function rect(element) {
    var box = element.getBoundingClientRect();
    return { left: box.left, top: box.top, width: box.width, place: place(element) };
  }

  function place(card) {
    if (card.closest(".dock")) return "dock";
    var path = "";
    for (var at = card.parentElement; at && at.id !== "table" && at.parentElement; at = at.parentElement) {
      path = Array.prototype.indexOf.call(at.parentElement.children, at) + "/" + path;
    }
    return path;
  }

  // Before a swap: where each card is, and where a new card comes from: the stock (the board's
  // first face-down card) for this seat's hand, else the seat whose turn it was.
  function whereCardsAre(table) {
    var found = { cards: {}, stock: null, seat: null };
    Array.prototype.forEach.call(table.querySelectorAll("[data-card]"), function (card) {
      found.cards[card.getAttribute("data-card")] = rect(card);
    });
    var stock = table.querySelector(".board .card.back");
    var seat = table.querySelector(".board .turn");
    found.stock = stock ? rect(stock) : null;
    found.seat = seat ? rect(seat) : found.stock;
    return found;
  }

  // After it: each card that is somewhere else slides from where it was (the Web Animations API).
  function moveCards(table, before) {
    Array.prototype.forEach.call(table.querySelectorAll("[data-card]"), function (card) {
      var was = before.cards[card.getAttribute("data-card")];
      // (a card from another seat's hand comes face down: its face was hidden until it lands)
      var hidden = !was && !card.closest(".hand-form");
      if (!was) was = hidden ? before.seat : before.stock;
      if (!was || !card.animate) return;
      var now = rect(card);
      if (now.place === was.place && before.cards[card.getAttribute("data-card")]) return; // (not moved: shifted)
      var dx = was.left - now.left;
      var dy = was.top - now.top;
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
      card.classList.add("moving");
      if (hidden) card.classList.add("arriving");
      var scale = was.width && now.width ? was.width / now.width : 1;
      var slide = card.animate([{ transform: "translate(" + dx + "px," + dy + "px) scale(" + scale + ")", transformOrigin: "0 0" },
                                { transform: "none", transformOrigin: "0 0" }],
                               { duration: 240, easing: "ease-out" });
      slide.onfinish = slide.oncancel = function () { card.classList.remove("moving", "arriving"); };
    });
  }

  // -- htmx swaps ---------------------------------------------------------------------------------------

  // Each page loads only the stylesheets and scripts it uses (a game's own on its table). A page
  // that a boosted link or form brings in keeps this page's <head>: one that needs a file this
  // page has not loaded (a table, after the home page) is loaded as a whole page instead.
  function loadedAssets() {
    var urls = {};
    Array.prototype.forEach.call(document.querySelectorAll("link[href], script[src]"), function (e) {
      urls[e.getAttribute("href") || e.getAttribute("src")] = true;
    });
    return urls;
  }

  function needsMore(html) {
    var head = /<head[\s\S]*?<\/head>/i.exec(html);
    if (!head) return false;
    var loaded = loadedAssets();
    var wanted = head[0].match(/<(?:link|script)\b[^>]*\s(?:href|src)="[^"]+"/gi) || [];
    return wanted.some(function (tag) {
      var url = /(?:href|src)="([^"]+)"/i.exec(tag)[1].replace(/&amp;/g, "&");
      return !loaded[url];
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.boosted || !detail.shouldSwap || detail.isError || !needsMore(detail.serverResponse || "")) return;
    detail.shouldSwap = false;
    window.location.assign((detail.xhr && detail.xhr.responseURL) || detail.pathInfo.finalRequestPath);
  });

  // While this page's own form is on its way, a live refresh (the event stream saying the table
  // changed: by that very action, most likely) waits for the form's answer instead of racing it.
  var posting = 0;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig || {};
    if (config.verb && config.verb !== "get") { posting += 1; return; }
    var target = event.detail.target;
    if (posting > 0 && target && target.id === "table") event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig || {};
    if (config.verb && config.verb !== "get" && posting > 0) posting -= 1;
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "table" || !event.detail.shouldSwap) return;
    var config = event.detail.requestConfig || {};
    var own = !!config.verb && config.verb !== "get";
    // A live refresh already on its way when this page's form was sent: its table is not newer
    // than the one the form's answer brings, and swapping it in would drop that answer (htmx
    // ignores the answer of a form no longer in the page), and with it every later refresh.
    if (!own && posting > 0) { event.detail.shouldSwap = false; return; }
    var incoming = /id="table"[^>]*data-version="(\d+)"/.exec(event.detail.serverResponse || "");
    if (pacing && incoming && incoming[1] === shownVersion) {
      event.detail.shouldSwap = false; // the same table, already being shown step by step
      if (own) pacing.own = true; // (a live update showed this page's own action first)
      return;
    }
    ownAction = own;
    var active = document.activeElement;
    hadFocus = active && active !== document.body && target.contains(active) ? focusSelector(active) || "" : null;
    keptFocus = own && active && active.id && active.closest("[data-keep-focus]") && target.contains(active) ? active.id : null;
    // A live update (someone else's action, a seat claimed) keeps this player's selection.
    kept = ownAction ? null : cardInputs(target).filter(function (i) { return i.checked; }).map(function (i) { return i.value; });
    // ... and what it unfolded (a confirmation it is about to press must not close under it).
    keptFolds = ownAction ? null : folds(target);
    places = reducedMotion() ? null : whereCardsAre(target);
    stopPacing();
  });

  function foldKey(details) {
    var summary = details.querySelector("summary");
    return (details.getAttribute("data-owner") || "") + "|" + (summary ? summary.textContent.trim() : "");
  }

  function folds(root) {
    var open = {};
    Array.prototype.forEach.call(root.querySelectorAll("details[open]"), function (d) { open[foldKey(d)] = true; });
    return open;
  }

  document.addEventListener("htmx:afterSwap", function () {
    var table = document.getElementById("table");
    // The control that had the focus takes it again at once, not only once the new table has
    // settled: a second swap of the same move (its live update) must not leave it on the body.
    if (table && hadFocus && focusLost(table)) {
      try { tryFocus(table.querySelector(hadFocus)); } catch (e) { /* not a selector any more */ }
    }
    if (table && keptFolds) {
      Array.prototype.forEach.call(table.querySelectorAll("details"), function (d) {
        var key = foldKey(d);
        if (keptFolds[key] === true) d.open = true; // (what the server opens, it may open)
      });
    }
    keptFolds = null;
    if (!table || !kept || !kept.length) return;
    cardInputs(table).forEach(function (input) {
      if (!input.disabled && kept.indexOf(input.value) >= 0) input.checked = true;
    });
    kept = null;
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var table = document.getElementById("table");
    if (!table) { wasMyTurn = null; lastStatus = null; shownVersion = null; newsAt = null; places = null; return; }
    var config = event.detail && event.detail.requestConfig;
    var own = ownAction || !!(config && config.verb && config.verb !== "get");
    ownAction = false;
    shown(table, own);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var table = document.getElementById("table");
    if (table) shown(table, false);
  });

  // -- a guided first game: outline what its step points at, described by its hint ---------------------

  function pointAt() {
    var table = document.getElementById("table");
    var guide = table && table.querySelector("[data-learn-target]");
    var selector = guide && guide.getAttribute("data-learn-target");
    if (!selector) return;
    var found;
    try { found = table.querySelectorAll(selector); } catch (e) { return; }
    Array.prototype.forEach.call(found, function (element) {
      element.classList.add("learn-target");
      var described = element.matches("label") ? element.querySelector("input") || element : element;
      var ids = (described.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (ids.indexOf("learn-hint") < 0) ids.push("learn-hint");
      described.setAttribute("aria-describedby", ids.join(" "));
    });
  }
  document.addEventListener("DOMContentLoaded", pointAt);
  document.addEventListener("htmx:afterSettle", pointAt);

  // -- keys ---------------------------------------------------------------------------------------------

  var ARROWS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key === "Escape" && pacing) { pacing.finish(); return; }
    if (target && target.name === "cards" && target.type === "checkbox" && ARROWS[event.key]) {
      var inputs = cardInputs(target.form || document).filter(function (i) { return !i.disabled; });
      var next = inputs[inputs.indexOf(target) + ARROWS[event.key]];
      if (next) { next.focus(); event.preventDefault(); }
      return;
    }
    var replay = document.querySelector(".replay-bar");
    if (replay && autoplay && (event.key === "ArrowRight" || event.key === "ArrowLeft")) stopAutoplay();
    if (replay && (event.key === "ArrowRight" || event.key === "ArrowLeft") && !event.altKey && !event.ctrlKey
        && !(target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      var url = replay.getAttribute(event.key === "ArrowRight" ? "data-next" : "data-prev");
      if (url) { event.preventDefault(); window.location.assign(url); }
    }
  });

  // -- a replay that plays itself ------------------------------------------------------------------

  var autoplay = null; // the timer of the next step

  function stopAutoplay() {
    if (autoplay) window.clearTimeout(autoplay);
    autoplay = null;
  }

  // Show the replay's page at ``url`` in place of this one (its bar, jumps, hands and table), and
  // keep the focus on the play/pause control (or what had it, by its id).
  function replayTo(url, focusControl) {
    stopAutoplay();
    if (!window.fetch || !window.DOMParser) { window.location.assign(url); return; }
    window.fetch(url, { credentials: "same-origin" }).then(function (answer) {
      if (!answer.ok) throw new Error("no step");
      return answer.text();
    }).then(function (html) {
      var fresh = new window.DOMParser().parseFromString(html, "text/html").querySelector(".replay-page");
      var here = document.querySelector(".replay-page");
      if (!fresh || !here) { window.location.assign(url); return; }
      var active = document.activeElement;
      var activeId = active && active.id && here.contains(active) ? active.id : null;
      here.replaceWith(fresh);
      if (window.history && window.history.replaceState) window.history.replaceState(null, "", url);
      replayReady(fresh, focusControl, activeId);
    }).catch(function () { window.location.assign(url); });
  }

  function replayReady(replay, focusControl, activeId) {
    var play = replay.querySelector(".replay-play");
    if (play) play.hidden = false;
    var target = null;
    if (focusControl) target = replay.querySelector(".replay-pause, .replay-play") || replay.querySelector(".replay-bar a.button");
    else if (activeId) target = document.getElementById(activeId);
    if (target) target.focus({ preventScroll: true });
    var next = replay.getAttribute("data-autoplay");
    if (next) autoplay = window.setTimeout(function () { replayTo(next, false); }, AUTOPLAY_MS);
  }

  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest(".replay-play, .replay-pause") : null;
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
    event.preventDefault();
    replayTo(link.getAttribute("href"), true);
  });

  // A replay's page, loaded or swapped in by a boosted link or form (a jump, a step link).
  function replayShown() {
    stopAutoplay();
    var replay = document.querySelector(".replay-page");
    if (replay) replayReady(replay, replay.getAttribute("data-autoplay") !== "", null);
  }
  document.addEventListener("DOMContentLoaded", replayShown);
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.querySelector && target.querySelector(".replay-page")) replayShown();
  });

  // -- asking first ------------------------------------------------------------------------------

  var dialog = null;
  var asked = null; // the button whose question the dialog shows

  function confirmDialog() {
    if (dialog && dialog.isConnected) return dialog;
    dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    dialog.setAttribute("aria-labelledby", "confirm-dialog-question");
    var question = document.createElement("p");
    question.id = "confirm-dialog-question";
    var row = document.createElement("div");
    row.className = "row";
    var no = document.createElement("button");
    no.type = "button";
    no.className = "button confirm-no";
    no.textContent = word("no_go_back", "No, go back");
    var yes = document.createElement("button");
    yes.type = "button";
    yes.className = "button danger-primary confirm-yes";
    row.appendChild(no);
    row.appendChild(yes);
    dialog.appendChild(question);
    dialog.appendChild(row);
    document.body.appendChild(dialog);
    no.addEventListener("click", function () { dialog.close("no"); });
    yes.addEventListener("click", function () { dialog.close("yes"); });
    dialog.addEventListener("close", function () {
      var button = asked;
      asked = null;
      if (!button || !button.isConnected) return;
      if (dialog.returnValue !== "yes" || !button.form) { button.focus(); return; }
      var field = button.form.querySelector("input[name=confirmed]") || document.createElement("input");
      field.type = "hidden";
      field.name = "confirmed";
      field.value = "1";
      button.form.appendChild(field);
      button.setAttribute("data-confirmed", "yes");
      button.click(); // (as a person's click: htmx sends the button's name and value with the form)
    });
    return dialog;
  }

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("button[data-confirm]") : null;
    if (!button) return;
    if (button.getAttribute("data-confirmed") === "yes") {
      button.removeAttribute("data-confirmed"); // asked and answered: this click goes through
      return;
    }
    if (typeof window.HTMLDialogElement === "undefined" || button.disabled) return; // the server asks instead
    event.preventDefault();
    event.stopPropagation();
    var box = confirmDialog();
    box.querySelector("p").textContent = button.getAttribute("data-confirm");
    box.querySelector(".confirm-yes").textContent = button.getAttribute("data-confirm-yes") || word("yes", "Yes");
    box.returnValue = "";
    asked = button;
    box.showModal();
    box.querySelector(".confirm-no").focus();
  }, true);

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail && event.detail.elt;
    var field = form && form.querySelector ? form.querySelector("input[name=confirmed]") : null;
    if (field && !field.closest(".confirm-step")) field.parentNode.removeChild(field);
  });

  // -- this device's settings (the footer's) ------------------------------------------------------

  function settingsShown() {
    var box = document.getElementById("settings");
    if (!box) return;
    box.hidden = false;
    var theme = document.getElementById("set-theme");
    if (theme) theme.value = stored("card-table-theme") || "";
    var check = function (id, on) { var input = document.getElementById(id); if (input) input.checked = on; };
    check("set-suits", stored("card-table-suits") === "four");
    check("set-sound", soundOn());
    check("set-sound-watching", stored(SOUND_WATCHING_KEY) === "on");
    var off = soundsOff();
    Array.prototype.forEach.call(box.querySelectorAll("input[data-sound-kind]"), function (input) {
      input.checked = off.indexOf(input.getAttribute("data-sound-kind")) < 0;
    });
    var bar = document.querySelector(".sound-toggle");
    if (bar) bar.textContent = soundOn() ? word("sound_on", "Sound: on") : word("sound_off", "Sound: off");
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target || !target.closest || !target.closest("#settings")) return;
    if (target.id === "set-theme") store("card-table-theme", target.value);
    if (target.id === "set-suits") store("card-table-suits", target.checked ? "four" : "two");
    if (target.id === "set-sound") store(SOUND_KEY, target.checked ? "on" : "off");
    if (target.id === "set-sound-watching") store(SOUND_WATCHING_KEY, target.checked ? "on" : "off");
    if (target.hasAttribute("data-sound-kind")) {
      store(SOUND_OFF_KEY, Array.prototype.filter.call(document.querySelectorAll("#settings input[data-sound-kind]"),
                                                      function (input) { return !input.checked; })
        .map(function (input) { return input.getAttribute("data-sound-kind"); }).join(" "));
    }
    if (window.cardTableLook) window.cardTableLook();
    settingsShown();
  });

  // -- local times ----------------------------------------------------------------------------------

  function localTimes(root) {
    Array.prototype.forEach.call(root.querySelectorAll("time.local-time:not([data-local])"), function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      // (in the page's language, the one its reader chose; the browser's own if it knows none)
      var language = document.documentElement.lang || undefined;
      var options = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" };
      try { time.textContent = moment.toLocaleString(language, options); }
      catch (e) { time.textContent = moment.toLocaleString(undefined, options); }
      time.setAttribute("data-local", "yes");
    });
  }

  // -- set-up forms: a computer seat has no device ------------------------------------------------

  function computerSeats(root) {
    Array.prototype.forEach.call(root.querySelectorAll("input[data-device-choice]"), function (input) {
      var choice = document.getElementById(input.getAttribute("data-device-choice"));
      if (choice) choice.hidden = input.value.trim().toUpperCase() === "AI";
    });
  }

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target && target.hasAttribute && target.hasAttribute("data-device-choice")) computerSeats(target.form || document);
  });

  function touchUp(root) {
    localTimes(root);
    computerSeats(root);
    settingsShown();
  }

  document.addEventListener("DOMContentLoaded", function () { touchUp(document); });
  document.addEventListener("htmx:afterSettle", function () { touchUp(document); });

  // A refusal's message is about the last selection: hide it once the player picks again.
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target || target.name !== "cards") return;
    var table = document.getElementById("table");
    var message = table && table.querySelector(".message.error");
    if (message) message.hidden = true;
  });
})();
