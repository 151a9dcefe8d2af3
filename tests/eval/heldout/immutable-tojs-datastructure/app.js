/* Inventory export: three warehouses (seeded, the same on every load) held in
 * an Immutable.js store, each a List of Maps of 24 stock fields. Each Export
 * button turns one warehouse into plain JS with toJS() for a few report
 * sections (as an export dialog would) and shows a checksum and the first
 * rows. The store is built on load; the clicks only convert.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const HOUSES = ['North', 'South', 'East'];
const ROWS = 6000;      /* rows per warehouse */
const FIELDS = 24;      /* fields per row */
const SECTIONS = 15;    /* toJS passes per export */

const state = {store: null, shown: 0};

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

function makeHouse(index) {
  const rand = seededRandom(9100 + index * 31);
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    const row = {sku: 'SKU-' + index + '-' + i};
    for (let f = 1; f < FIELDS; f++) {
      row['f' + f] = f % 4 === 0 ? 'bin' + Math.floor(rand() * 40) : Math.floor(rand() * 1000);
    }
    rows.push(row);
  }
  return Immutable.fromJS(rows);
}

function checksum(rows) {
  let sum = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (const key in row) {
      const v = row[key];
      sum = (sum + (typeof v === 'number' ? v : v.length)) % 1000000007;
    }
  }
  return sum;
}

function exportHouse(index) {
  const t0 = performance.now();
  const house = state.store.get(index);
  let sum = 0;
  let first = null;
  for (let s = 0; s < SECTIONS; s++) {
    const plain = house.toJS();
    sum = (sum + checksum(plain)) % 1000000007;
    if (!first) first = plain.slice(0, 3);
  }
  state.shown++;
  document.getElementById('preview').textContent = JSON.stringify(first, null, 1);
  document.getElementById('status').textContent =
    HOUSES[index] + ': ' + house.size + ' rows, checksum ' + sum + ', ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  const houses = [];
  for (let i = 0; i < HOUSES.length; i++) houses.push(makeHouse(i));
  state.store = Immutable.List(houses);
  for (let i = 0; i < HOUSES.length; i++) {
    document.getElementById('export' + i).addEventListener('click', function onExport() { exportHouse(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
