/* The old build: the main text comes 100 ms after load and nothing moves
 * afterwards. The click handler blocks the main thread for 150 ms, the
 * same in both builds (INP sees it; the time comparison must not). */
"use strict";

var HERO_DELAY_MS = 100;
var BANNER = false;

function busy(ms) {
  var end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin */
  }
}

function showHero() {
  var p = document.createElement("p");
  p.id = "hero";
  p.textContent =
    "The main content of this page: a paragraph large enough to be the " +
    "largest contentful paint, shown after a timer rather than after work.";
  document.body.insertBefore(p, document.getElementById("out"));
}

function addBanner() {
  var b = document.createElement("div");
  b.id = "banner";
  document.body.insertBefore(b, document.body.firstChild);
}

function ready() {
  document.body.classList.add("ready");
}

function onGo() {
  busy(150);
  var out = document.getElementById("out");
  out.textContent = "done";
  out.className = "done";
}

window.addEventListener("load", function () {
  setTimeout(function () {
    showHero();
    if (!BANNER) return setTimeout(ready, 200);
    /* A frame later, a banner pushes everything down: a layout shift
     * with no input before it. */
    setTimeout(function () {
      addBanner();
      setTimeout(ready, 200);
    }, 200);
  }, HERO_DELAY_MS);
  document.getElementById("go").addEventListener("click", onGo);
});
