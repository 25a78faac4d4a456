// Before the first paint (loaded without defer): this device's theme and suit colours, chosen in
// the footer's settings (static/js/app.js), on <html> as data-theme and data-suits. Without a
// choice the theme follows the device's prefers-color-scheme, and follows it when it changes.
(function () {
  "use strict";
  var root = document.documentElement;
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function stored(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function apply() {
    var theme = stored("card-table-theme");
    if (theme !== "light" && theme !== "dark" && theme !== "contrast") theme = dark && dark.matches ? "dark" : "light";
    root.setAttribute("data-theme", theme);
    root.setAttribute("data-suits", stored("card-table-suits") === "four" ? "four" : "two");
  }
  window.cardTableLook = apply;
  apply();
  if (dark && dark.addEventListener) dark.addEventListener("change", apply);
})();
