/* Order reference codes: a shop's back office turns (order number,
 * warehouse) pairs into short public reference codes with Hashids, and
 * checks the codes customers typed in support tickets by decoding them
 * back. Each batch button encodes one month's orders, decodes every code
 * again to verify it round-trips, and lists the first codes. A real
 * regression for zamcap's accuracy experiment (NOTE.md): hashids 2.x
 * supports Unicode alphabets by spreading strings into arrays of code
 * points ([...str]) at every step of every encode and decode; 1.2.2
 * worked on the strings with charAt/substr and split(''). */
'use strict';

const BATCHES = ['January orders', 'February orders', 'March orders'];
const ORDERS_PER_BATCH = 15000;
const WAREHOUSES = 37;
const SHOWN = 30;

const state = {batches: {}, opened: 0};

function seededRandom(seed) {
  let s = seed >>> 0;
  return function nextRandom() {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeBatch(index) {
  const rand = seededRandom(4242 + index * 131);
  const orders = [];
  let number = 100000 + index * 50000;
  for (let i = 0; i < ORDERS_PER_BATCH; i++) {
    number += 1 + Math.floor(rand() * 5);
    orders.push({number: number, warehouse: Math.floor(rand() * WAREHOUSES),
                 total: Math.round(rand() * 40000) / 100});
  }
  return orders;
}

function makeCoder() {
  const Hashids = window.Hashids.default || window.Hashids;
  return new Hashids('back office reference salt', 10);
}

function referenceFor(coder, order) {
  return coder.encode(order.number, order.warehouse);
}

function verifyReference(coder, code, order) {
  const decoded = coder.decode(code);
  return decoded.length === 2 && Number(decoded[0]) === order.number && Number(decoded[1]) === order.warehouse;
}

function codeBatch(coder, orders) {
  return orders.map(function orderRow(order) {
    const code = referenceFor(coder, order);
    return {number: order.number, warehouse: order.warehouse, total: order.total, code: code,
            ok: verifyReference(coder, code, order)};
  });
}

function renderBatch(rows) {
  let failed = 0;
  rows.forEach(function countFailed(r) { if (!r.ok) failed++; });
  document.getElementById('rows').innerHTML = rows.slice(0, SHOWN).map(function rowHtml(r) {
    return '<tr><td>' + r.number + '</td><td>W' + r.warehouse + '</td><td>' + r.total.toFixed(2) +
           '</td><td>' + r.code + '</td><td>' + (r.ok ? 'ok' : 'MISMATCH') + '</td></tr>';
  }).join('') + '<tr><td colspan="5">' + rows.length + ' codes, ' + failed + ' mismatches</td></tr>';
}

function onBatchClick(event) {
  const name = event.target.dataset.batch;
  if (!name) return;
  const coder = makeCoder();
  const rows = codeBatch(coder, state.batches[name]);
  renderBatch(rows);
  document.getElementById('status').textContent = name + ': ' + rows.length + ' codes';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('batches');
  BATCHES.forEach(function addBatch(name, index) {
    state.batches[name] = makeBatch(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.id = 'batch' + index;
    b.textContent = name;
    b.dataset.batch = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onBatchClick);
  document.body.dataset.ready = '1';
}

main();
