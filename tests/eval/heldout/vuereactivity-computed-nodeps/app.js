/* Order pricing desk: a fixed catalog (seeded, the same on every load, a
 * plain constant, not reactive) is indexed once by a Vue computed, since it
 * never changes. Each Price button prices a seeded order line by line: it
 * looks every line up in the computed index and adds the line to reactive
 * running totals, as a store action would.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const {ref, reactive, computed} = VueReactivity;

const CHANNELS = ['retail', 'wholesale', 'export'];
const CATALOG_SIZE = 6000;  /* catalog entries */
const ORDER_LINES = 350;    /* lines per order */

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

function makeCatalog() {
  const rand = seededRandom(9001);
  const items = [];
  for (let i = 0; i < CATALOG_SIZE; i++) {
    items.push({
      code: 'P' + (700000 + i * 7),
      family: 'F' + Math.floor(rand() * 40),
      base: Math.round(rand() * 20000) / 100,
      tiers: [1 - rand() * 0.1, 1 - rand() * 0.25, 1 + rand() * 0.15]
    });
  }
  return items;
}

const CATALOG = makeCatalog();

/* Indexes the catalog by code, with each family's average base price. */
function buildIndex() {
  const byCode = new Map();
  const familySum = {};
  const familyCount = {};
  for (let i = 0; i < CATALOG.length; i++) {
    const item = CATALOG[i];
    byCode.set(item.code, item);
    familySum[item.family] = (familySum[item.family] || 0) + item.base;
    familyCount[item.family] = (familyCount[item.family] || 0) + 1;
  }
  const familyAvg = {};
  for (const f in familySum) familyAvg[f] = familySum[f] / familyCount[f];
  return {byCode: byCode, familyAvg: familyAvg};
}

const catalogIndex = computed(buildIndex);

const totals = reactive({lines: 0, amount: 0, aboveAverage: 0});

function makeOrder(channel) {
  const rand = seededRandom(31 + channel * 1000);
  const lines = [];
  for (let i = 0; i < ORDER_LINES; i++) {
    lines.push({
      code: CATALOG[Math.floor(rand() * CATALOG.length)].code,
      qty: 1 + Math.floor(rand() * 20)
    });
  }
  return lines;
}

let shown = 0;

function priceOrder(channel) {
  const order = makeOrder(channel);
  totals.lines = 0;
  totals.amount = 0;
  totals.aboveAverage = 0;
  const parts = [];
  for (let i = 0; i < order.length; i++) {
    const index = catalogIndex.value;
    const item = index.byCode.get(order[i].code);
    const unit = item.base * item.tiers[channel];
    const amount = Math.round(unit * order[i].qty * 100) / 100;
    totals.lines++;
    totals.amount += amount;
    if (item.base > index.familyAvg[item.family]) totals.aboveAverage++;
    if (i < 120) {
      parts.push('<span class="line">' + item.code + ' x' + order[i].qty +
        ' = ' + amount.toFixed(2) + '</span>');
    }
  }
  document.getElementById('orders').innerHTML = parts.join('');
  shown++;
  document.getElementById('status').textContent = CHANNELS[channel] + ': ' +
    totals.lines + ' lines, ' + totals.amount.toFixed(2) + ', ' +
    totals.aboveAverage + ' above family average';
  document.body.dataset.shown = String(shown);
}

for (let i = 0; i < CHANNELS.length; i++) {
  document.getElementById('price' + i).addEventListener('click', function () {
    priceOrder(i);
  });
}
document.body.dataset.ready = '1';
