/* Warehouse stock board: a Vuex store holds a seeded (same on every load)
 * list of stock lines; its getters sum and rank them for the selected
 * warehouse. Each Show button commits the warehouse to the store, then
 * fills the board with tiles, and every tile reads the store's getters,
 * as many small components bound with mapGetters would.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const WAREHOUSES = ['north', 'south', 'east'];
const LINES = 12000;   /* stock lines in the store */
const TILES = 60;      /* tiles per board; each reads the getters */

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

function makeLines() {
  const rand = seededRandom(4242);
  const lines = [];
  for (let i = 0; i < LINES; i++) {
    lines.push(Object.freeze({
      sku: 'SKU-' + (100000 + i),
      warehouse: WAREHOUSES[Math.floor(rand() * WAREHOUSES.length)],
      group: Math.floor(rand() * 24),
      qty: Math.floor(rand() * 500),
      price: Math.round(rand() * 10000) / 100
    }));
  }
  /* frozen: Vue leaves it raw, so the getters walk a plain array */
  return Object.freeze(lines);
}

function linesOf(state) {
  const out = [];
  const lines = state.lines;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].warehouse === state.warehouse) out.push(lines[i]);
  }
  return out;
}

function groupTotals(state) {
  const totals = new Array(24).fill(0);
  const lines = linesOf(state);
  for (let i = 0; i < lines.length; i++) {
    totals[lines[i].group] += lines[i].qty * lines[i].price;
  }
  return totals;
}

function topLines(state) {
  return linesOf(state).slice().sort(function (a, b) {
    return (b.qty * b.price) - (a.qty * a.price) || (a.sku < b.sku ? -1 : 1);
  }).slice(0, 5).map(function (l) { return l.sku; });
}

const store = Vuex.createStore({
  state: function () {
    return {lines: makeLines(), warehouse: 'north'};
  },
  mutations: {
    pick: function (state, name) { state.warehouse = name; }
  },
  getters: {
    groupTotals: groupTotals,
    topLines: topLines
  }
});

let shown = 0;

function renderBoard(index) {
  store.commit('pick', WAREHOUSES[index]);
  const board = document.getElementById('board');
  const parts = [];
  for (let t = 0; t < TILES; t++) {
    const totals = store.getters.groupTotals;
    const top = store.getters.topLines;
    const g = t % 24;
    parts.push('<span class="tile">group ' + g + ': ' + totals[g].toFixed(2) +
      '<br>' + top[t % top.length] + '</span>');
  }
  board.innerHTML = parts.join('');
  shown++;
  document.getElementById('status').textContent =
    WAREHOUSES[index] + ' (' + TILES + ' tiles)';
  document.body.dataset.shown = String(shown);
}

for (let i = 0; i < WAREHOUSES.length; i++) {
  document.getElementById('show' + i).addEventListener('click', function () {
    renderBoard(i);
  });
}
document.body.dataset.ready = '1';
