/* Stock list: a warehouse's stock in a Tabulator table next to a filters
 * panel. The table is built on the first click of "Toggle filters" (the
 * stock is generated from a fixed seed, the same on every load); each click
 * shows or hides the panel, which changes the table's width, and then asks
 * the table to redraw, as Tabulator's documentation says to do when the
 * table's container is resized and autoResize is off. A real regression for
 * zamcap's accuracy experiment (NOTE.md): Tabulator 5.6.1's redraw
 * re-renders every row even when the table's height did not change. */
'use strict';

const ITEMS = 300;
const WAREHOUSES = ['Leeds', 'Bristol', 'Glasgow', 'Cardiff', 'Belfast', 'Norwich'];
const CATEGORIES = ['fasteners', 'hand tools', 'paint', 'timber', 'electrical', 'plumbing', 'garden'];

const state = {table: null, clicks: 0};

/* 32-bit xorshift-multiply generator with a fixed seed */
function makeXsm(seed) {
  let s = seed >>> 0;
  return function next() {
    s ^= s >>> 12; s ^= s << 25; s ^= s >>> 27;
    s >>>= 0;
    return (Math.imul(s, 0x2545F491) >>> 0) / 4294967296;
  };
}

function makeStock(seed) {
  const rnd = makeXsm(seed);
  const rows = [];
  for (let i = 0; i < ITEMS; i++) {
    const category = CATEGORIES[Math.floor(rnd() * CATEGORIES.length)];
    rows.push({
      id: i + 1,
      sku: 'SKU-' + (100000 + Math.floor(rnd() * 900000)),
      product: category + ' item ' + (1 + Math.floor(rnd() * 400)),
      category: category,
      warehouse: WAREHOUSES[Math.floor(rnd() * WAREHOUSES.length)],
      qty: Math.floor(rnd() * 2500),
      price: Math.round(rnd() * 50000) / 100,
    });
  }
  return rows;
}

function buildTable() {
  return new Tabulator('#stock', {
    data: makeStock(424242),
    layout: 'fitColumns',
    autoResize: false,
    columns: [
      {title: 'SKU', field: 'sku'},
      {title: 'Product', field: 'product'},
      {title: 'Category', field: 'category'},
      {title: 'Warehouse', field: 'warehouse'},
      {title: 'Qty', field: 'qty', hozAlign: 'right'},
      {title: 'Price', field: 'price', hozAlign: 'right'},
    ],
  });
}

function toggleFilters() {
  document.body.classList.toggle('no-filters');
  state.table.redraw();
}

function markDone() {
  state.clicks++;
  document.getElementById('status').textContent = ITEMS + ' items';
  document.body.dataset.clicks = String(state.clicks);
}

function onToggleClick() {
  if (!state.table) {
    state.table = buildTable();
    state.table.on('tableBuilt', markDone);
  } else {
    toggleFilters();
    markDone();
  }
}

function main() {
  document.getElementById('toggle').addEventListener('click', onToggleClick);
  document.body.dataset.ready = '1';
}

main();
