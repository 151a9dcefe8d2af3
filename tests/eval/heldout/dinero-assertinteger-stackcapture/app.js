/* Shop ledger: three months of sales lines (seeded, the same on every load).
 * Each Load button turns every line of one month into Dinero money objects
 * (the unit price, the line amount and the tax, each built with the Dinero
 * factory) and sums them per store with getAmount(). No arithmetic method
 * of Dinero is used, so both builds do the same work and print the same
 * totals. A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const MONTHS = ['January', 'February', 'March'];
const STORES = ['North', 'South', 'East', 'West', 'Harbour', 'Airport'];
const LINES = 30000;   /* sales lines per month */
const CURRENCY = 'EUR';

const state = {shown: 0};

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

function makeMonth(index) {
  const rand = seededRandom(9100 + index * 31);
  const lines = [];
  for (let i = 0; i < LINES; i++) {
    const price = 50 + Math.floor(rand() * 20000);
    const qty = 1 + Math.floor(rand() * 6);
    const refund = rand() < 0.04;
    lines.push({store: Math.floor(rand() * STORES.length), price: price,
      qty: qty, refund: refund});
  }
  return lines;
}

function bookLine(line) {
  const unit = Dinero({amount: line.price, currency: CURRENCY});
  const gross = Dinero({amount: unit.getAmount() * line.qty, currency: CURRENCY});
  const tax = Dinero({amount: Math.floor(gross.getAmount() / 5), currency: CURRENCY});
  return line.refund ? -(gross.getAmount() + tax.getAmount())
    : gross.getAmount() + tax.getAmount();
}

function loadMonth(index) {
  const t0 = performance.now();
  const lines = makeMonth(index);
  const totals = STORES.map(function () { return {lines: 0, cents: 0, refunds: 0}; });
  for (let i = 0; i < lines.length; i++) {
    const row = totals[lines[i].store];
    const cents = bookLine(lines[i]);
    row.lines++;
    row.cents += cents;
    if (cents < 0) row.refunds++;
  }
  const body = document.querySelector('#totals tbody');
  body.textContent = '';
  for (let s = 0; s < STORES.length; s++) {
    const tr = document.createElement('tr');
    [STORES[s], totals[s].lines, totals[s].cents, totals[s].refunds].forEach(function (v) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  state.shown++;
  document.getElementById('status').textContent =
    MONTHS[index] + ': ' + lines.length + ' lines booked in ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < MONTHS.length; i++) {
    document.getElementById('month' + i).addEventListener('click', function onLoad() { loadMonth(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
