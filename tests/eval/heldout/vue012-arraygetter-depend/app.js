/* Order lines: a Vue 0.12 table of order lines. Each row shows its position
 * as "n / count", so every row's binding reads the `lines` array (through
 * the parent scope) while its watcher collects dependencies. The buttons add
 * a seeded batch of lines, sort the lines by total and drop the small lines;
 * each replaces or mutates the array once, so every row binding is
 * re-evaluated. A held-out real regression for zamcap's accuracy experiment
 * (NOTE.md): from Vue 0.12.8 to 0.12.12 the reactive getter of an
 * array-valued property makes the current watcher depend on every element of
 * the array on each read, so each row's re-evaluation walks the whole array
 * (vuejs/vue#1248; 0.12.7 and 0.12.13 do not). */
'use strict';

var START_LINES = 720;
var ADD_LINES = 60;

function seededRandom(seed) {
  var s = seed >>> 0;
  return function nextRandom() {
    s = (s + 0x6D2B79F5) >>> 0;
    var t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

var rand = seededRandom(1248);
var nextSku = 1;

function makeLine() {
  var sku = 'SKU-' + (1000 + nextSku++);
  return {sku: sku, qty: 1 + Math.floor(rand() * 9), price: 5 + Math.floor(rand() * 95)};
}

function makeLines(n) {
  var list = [];
  for (var i = 0; i < n; i++) list.push(makeLine());
  return list;
}

var shown = 0;

function markShown(vm) {
  vm.$nextTick(function afterRender() {
    shown++;
    document.body.dataset.shown = String(shown);
  });
}

var app = new Vue({
  el: '#app',
  data: {
    lines: makeLines(START_LINES),
    status: 'ready'
  },
  methods: {
    addLines: function addLines() {
      this.lines.push.apply(this.lines, makeLines(ADD_LINES));
      this.status = 'added ' + ADD_LINES + ' lines, ' + this.lines.length + ' in all';
      markShown(this);
    },
    sortByTotal: function sortByTotal() {
      this.lines.sort(function byTotal(a, b) {
        return (b.qty * b.price - a.qty * a.price) || (a.sku < b.sku ? -1 : 1);
      });
      this.status = 'sorted ' + this.lines.length + ' lines by total';
      markShown(this);
    },
    dropSmall: function dropSmall() {
      this.lines = this.lines.filter(function isLarge(line) {
        return line.qty * line.price >= 60;
      });
      this.status = 'kept ' + this.lines.length + ' lines';
      markShown(this);
    }
  }
});

app.$nextTick(function onReady() {
  document.body.dataset.ready = '1';
});
