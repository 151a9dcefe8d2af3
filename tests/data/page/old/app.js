'use strict';
// zamcap golden-test page. Every function does a deterministic amount of
// busy work measured with performance.now(), so the CPU profiler attributes
// stable self time to it. See tests/data/README.md for the call chain.

var ROWS = 40;

// Spin inline (not via a shared helper) so that the time is self time of
// the function that owns the loop.
function loadData() {
  var end = performance.now() + 25;
  var items = [];
  var seed = 12345;
  while (performance.now() < end) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  }
  for (var i = 0; i < ROWS; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    items.push({ id: i, name: 'item <' + i + '> & co', price: seed % 10000,
                 ts: 1700000000000 + i * 86400000 });
  }
  return items;
}

function formatDate(ts) {
  var end = performance.now() + 0.5;
  var d = new Date(ts);
  while (performance.now() < end) { d.getTime(); }
  return d.toISOString().slice(0, 10);
}

function escapeHtml(s) {
  var end = performance.now() + 0.5;
  var out = s;
  while (performance.now() < end) {
    out = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }
  return out;
}

function formatRow(item) {
  var end = performance.now() + 1.0;
  var price = 0;
  while (performance.now() < end) { price = (item.price / 100).toFixed(2); }
  return '<tr><td>' + item.id + '</td><td>' + escapeHtml(item.name) +
         '</td><td>' + formatDate(item.ts) + '</td><td>' + price + '</td></tr>';
}

function buildRows(items) {
  var rows = [];
  for (var i = 0; i < items.length; i++) {
    rows.push(formatRow(items[i]));
  }
  return rows;
}

function applyLayout(html) {
  var tbody = document.querySelector('#list tbody');
  tbody.innerHTML = html;
  var end = performance.now() + 15;
  var h = 0;
  while (performance.now() < end) { h = tbody.offsetHeight; }
  return h;
}

function renderList(items) {
  var rows = buildRows(items);
  return applyLayout(rows.join(''));
}

function updateStats(items) {
  var end = performance.now() + 20;
  var sum = 0;
  while (performance.now() < end) {
    sum = 0;
    for (var i = 0; i < items.length; i++) { sum += items[i].price; }
  }
  document.getElementById('stats').textContent =
      items.length + ' orders, total ' + (sum / 100).toFixed(2);
}

// Noise: a promise reaction and a small timer callback.
function onDataReady(items) {
  var end = performance.now() + 3;
  while (performance.now() < end) { items.length; }
}

function onTick() {
  var end = performance.now() + 4;
  while (performance.now() < end) { document.title.length; }
}

function main() {
  var items = loadData();
  renderList(items);
  Promise.resolve(items).then(onDataReady);
  setTimeout(onTick, 30);
  setTimeout(function lateUpdate() { updateStats(items); }, 60);
}

// Start the work a little after load, when browser start-up (and the
// headless omnibox WebUI renderer it preloads) no longer competes for the CPU.
function onLoad() {
  setTimeout(main, 1200);
}

window.addEventListener('load', onLoad);
