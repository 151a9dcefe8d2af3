/* Stock sheet: a seeded table of product records (the same on every load),
 * kept as an immutable store the way a Babel-compiled reducer does it:
 * every update copies a record with object spread, `{...row, qty: n}`,
 * which Babel 7.5 compiles to `_objectSpread2({}, row, {qty: n})` from
 * @babel/runtime. Each button applies one bulk update to every record and
 * shows a small summary. A real regression for zamcap's accuracy
 * experiment (NOTE.md). */
import _objectSpread from './lib/objectSpread2.js';
import _defineProperty from './lib/defineProperty.js';

const ROWS = 30000;        /* product records */
const FIELDS = 48;         /* extra attribute fields per record */

const state = {rows: [], shown: 0};

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

function makeRows() {
  const rand = seededRandom(20190709);
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    const row = {id: i, sku: 'SKU-' + (100000 + i), qty: Math.floor(rand() * 40),
      price: Math.round(rand() * 10000) / 100, low: false};
    for (let j = 0; j < FIELDS; j++) row['attr' + j] = Math.floor(rand() * 1000);
    rows.push(row);
  }
  return rows;
}

/* {...row, qty: row.qty + 5} */
function restockRow(row) {
  return _objectSpread({}, row, {qty: row.qty + 5});
}

/* {...row, price: ..., [tag]: true} */
function discountRow(row, tag) {
  return _objectSpread({}, row, _defineProperty({price: Math.round(row.price * 90) / 100}, tag, true));
}

/* {...row, low: row.qty < 12} */
function flagRow(row) {
  return _objectSpread({}, row, {low: row.qty < 12});
}

function summarize(rows) {
  let qty = 0, value = 0, low = 0, attrs = 0;
  for (const row of rows) {
    qty += row.qty;
    value += row.qty * row.price;
    if (row.low) low++;
    attrs += row.attr7;
  }
  return 'records ' + rows.length + '  qty ' + qty + '  value ' + value.toFixed(2) +
    '  low ' + low + '  attr7 ' + attrs + '  keys ' + Object.keys(rows[0]).length;
}

function show(label) {
  const text = label + ': ' + summarize(state.rows);
  document.getElementById('out').textContent += text + '\n';
  state.shown++;
  document.getElementById('status').textContent = 'done ' + state.shown;
  document.body.dataset.shown = String(state.shown);
}

function onRestock() {
  state.rows = state.rows.map(restockRow);
  show('Restock all');
}

function onDiscount() {
  state.rows = state.rows.map(function (row) { return discountRow(row, 'onSale'); });
  show('Apply discount');
}

function onFlag() {
  state.rows = state.rows.map(flagRow);
  show('Flag low stock');
}

function init() {
  state.rows = makeRows();
  document.getElementById('restock').addEventListener('click', onRestock);
  document.getElementById('discount').addEventListener('click', onDiscount);
  document.getElementById('flag').addEventListener('click', onFlag);
  document.body.dataset.ready = '1';
}

init();
