/* Formula sheet: a small spreadsheet whose input cells (refs) feed 23 rows
 * of formula cells (computeds). Each formula adds two neighbouring cells of
 * the row above, so rows share their inputs (a lattice of diamonds). One
 * effect totals the last row into the page. Each Edit button changes one
 * input cell once. Values are seeded, the same on every load.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const WIDTH = 4;     /* cells per row */
const DEPTH = 23;    /* formula rows */
const MOD = 1000003;

const R = VueReactivity;
const state = {shown: 0, inputs: [], last: null, total: 0};

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

function build() {
  const rand = seededRandom(3505);
  for (let i = 0; i < WIDTH; i++) state.inputs.push(R.ref(Math.floor(rand() * 1000)));
  let row = state.inputs;
  for (let d = 0; d < DEPTH; d++) {
    const above = row;
    const next = [];
    for (let i = 0; i < WIDTH; i++) {
      const a = above[i];
      const b = above[(i + 1) % WIDTH];
      next.push(R.computed(function formula() { return (a.value + b.value) % MOD; }));
    }
    row = next;
  }
  state.last = row;
  const out = document.getElementById('out');
  R.effect(function renderTotals() {
    let total = 0;
    const cells = [];
    for (const c of state.last) { total += c.value; cells.push(c.value); }
    state.total = total;
    out.innerHTML = cells.map(function (v) { return '<td>' + v + '</td>'; }).join('') +
      '<td><b>' + total + '</b></td>';
  });
}

function edit(k) {
  const rand = seededRandom(77 + k);
  state.inputs[k].value = state.inputs[k].value + 1 + Math.floor(rand() * 50);
  state.shown++;
  document.getElementById('status').textContent = 'edited cell ' + 'ABC'[k] + ', total ' + state.total;
  document.body.dataset.shown = String(state.shown);
}

build();
for (let k = 0; k < 3; k++) {
  document.getElementById('edit' + k).addEventListener('click', function () { edit(k); });
}
document.body.dataset.ready = '1';
