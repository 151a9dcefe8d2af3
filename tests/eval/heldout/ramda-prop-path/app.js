/* Order desk: each "Load next batch" click takes the next batch of orders
 * (generated from a fixed seed, the same on every load), sorts them by
 * region, price (in cents) and id and by quantity, groups them by region, totals
 * each region's quantity with Ramda (R.sortWith, R.sortBy, R.groupBy,
 * R.pluck, R.prop), and shows the totals and the first rows. A real
 * regression for zamcap's accuracy experiment (see NOTE.md in this
 * folder). */
'use strict';

var ORDERS_PER_BATCH = 130000;
var ROWS_SHOWN = 30;
var REGIONS = ['north', 'south', 'east', 'west', 'central'];
var batch = 0;

/* a 32-bit Weyl sequence scrambled, fixed seed */
function makeWeyl(seed) {
  var w = seed >>> 0;
  return function next() {
    w = (w + 0x9E3779B9) >>> 0;
    var z = w;
    z = Math.imul(z ^ (z >>> 16), 0x85EBCA6B) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xC2B2AE35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

function makeOrders(n) {
  var rnd = makeWeyl(1009 + n * 7919);
  var orders = [];
  for (var i = 0; i < ORDERS_PER_BATCH; i++) {
    orders.push({
      id: n * ORDERS_PER_BATCH + i,
      region: REGIONS[Math.floor(rnd() * REGIONS.length)],
      cents: Math.floor(rnd() * 2000000),
      qty: 1 + Math.floor(rnd() * 60),
      sku: 'K' + Math.floor(rnd() * 9000)
    });
  }
  return orders;
}

var byRegionThenPrice = R.sortWith([
  R.ascend(R.prop('region')),
  R.descend(R.prop('cents')),
  R.ascend(R.prop('id'))
]);
var byQuantity = R.sortBy(R.prop('qty'));
var groupByRegion = R.groupBy(R.prop('region'));
var totalQuantity = R.compose(R.sum, R.pluck('qty'));

function summarize(orders) {
  var sorted = byRegionThenPrice(orders);
  var smallest = byQuantity(orders);
  var groups = groupByRegion(orders);
  var totals = R.map(totalQuantity, groups);
  return { sorted: sorted, smallest: smallest, totals: totals };
}

function renderReport(report) {
  var html = '';
  for (var i = 0; i < report.sorted.length && i < ROWS_SHOWN; i++) {
    var o = report.sorted[i];
    html += '<tr><td>' + o.id + '</td><td>' + o.region + '</td><td>' + (o.cents / 100).toFixed(2) +
      '</td><td>' + o.qty + '</td><td>' + o.sku + '</td></tr>';
  }
  document.querySelector('#orders tbody').innerHTML = html;
  var parts = [];
  for (var r = 0; r < REGIONS.length; r++) {
    parts.push(REGIONS[r] + ' ' + (report.totals[REGIONS[r]] || 0));
  }
  document.getElementById('totals').textContent = 'units by region: ' + parts.join(', ') +
    '; smallest order ' + report.smallest[0].qty + ' units';
}

function loadNextBatch() {
  batch += 1;
  var orders = makeOrders(batch);
  var report = summarize(orders);
  renderReport(report);
  document.getElementById('status').textContent = 'batch ' + batch + ': ' + orders.length + ' orders';
  document.body.dataset.batches = String(batch);
}

function main() {
  document.getElementById('batch').addEventListener('click', loadNextBatch);
  document.body.dataset.ready = '1';
}

main();
