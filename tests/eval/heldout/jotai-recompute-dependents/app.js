/* Price watch: a seeded list of stock items, each with a price atom and a
 * derived "alert" atom (is the price at or above the shared threshold?).
 * Every alert atom is mounted by a store subscription that repaints its row.
 * Each Raise button moves the shared threshold up in a few small steps, as a
 * slider would; each step flips only the few rows whose price it crosses.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

var ITEMS = 2500;      /* items (one price atom + one alert atom each) */
var STEPS = 4;         /* threshold steps per click */
var STEP = 0.6;        /* threshold increase per step */

var J = (typeof jotaiVanilla !== 'undefined') ? jotaiVanilla : require('./lib/jotai-vanilla.js');

var state = {store: null, threshold: null, alerts: [], over: 0, shown: 0, rows: null};

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

function makeItems() {
  var rand = seededRandom(9127);
  var items = [];
  for (var i = 0; i < ITEMS; i++) {
    items.push({name: 'SKU-' + (10000 + i), price: Math.round((20 + rand() * 160) * 100) / 100});
  }
  return items;
}

function paintRow(i, value) {
  if (!state.rows) return;
  var row = state.rows[i];
  row.className = value ? 'over' : 'ok';
  row.lastChild.textContent = value ? 'alert' : '';
}

function setup() {
  var store = J.createStore();
  var threshold = J.atom(60);
  var items = makeItems();
  var alerts = [];
  var list = typeof document !== 'undefined' ? document.getElementById('rows') : null;
  if (list) state.rows = [];
  state.store = store;
  state.threshold = threshold;
  items.forEach(function (item, i) {
    var price = J.atom(item.price);
    var alert = J.atom(function (get) { return get(price) >= get(threshold); });
    alerts.push(alert);
    if (list) {
      var tr = document.createElement('tr');
      var a = document.createElement('td'); a.textContent = item.name;
      var b = document.createElement('td'); b.textContent = item.price.toFixed(2);
      var c = document.createElement('td');
      tr.appendChild(a); tr.appendChild(b); tr.appendChild(c);
      list.appendChild(tr);
      state.rows.push(tr);
    }
    store.sub(alert, function () {
      var v = store.get(alert);
      state.over += v ? 1 : -1;
      paintRow(i, v);
    });
    var v0 = store.get(alert);
    if (v0) state.over++;
    paintRow(i, v0);
  });
  state.alerts = alerts;
}

function raise(label) {
  var t0 = performance.now();
  for (var s = 0; s < STEPS; s++) {
    state.store.set(state.threshold, function (t) { return Math.round((t + STEP) * 100) / 100; });
  }
  state.shown++;
  var msg = label + ': threshold ' + state.store.get(state.threshold).toFixed(2) + ', ' +
    state.over + ' of ' + ITEMS + ' items on alert, ' + Math.round(performance.now() - t0) + ' ms';
  if (typeof document !== 'undefined') {
    document.getElementById('status').textContent = msg;
    document.body.setAttribute('data-shown', String(state.shown));
  }
  return msg;
}

if (typeof document !== 'undefined') {
  setup();
  document.getElementById('raise0').addEventListener('click', function () { raise('Raise a little'); });
  document.getElementById('raise1').addEventListener('click', function () { raise('Raise more'); });
  document.getElementById('raise2').addEventListener('click', function () { raise('Raise again'); });
  document.getElementById('status').textContent = state.over + ' of ' + ITEMS + ' items on alert';
  document.body.setAttribute('data-ready', '1');
} else {
  module.exports = {setup: setup, raise: raise, state: state};
}
