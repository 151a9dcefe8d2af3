// The consequence of a copy, NEW: renderView copies the rows first
// (cloneRows), so patchRows' identity short cut never holds and it diffs
// every row; patchRows itself is the same code.
'use strict';
let seed = 17;
function rand() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
function sameRow(a, b) {
  if (a.id !== b.id || a.label !== b.label) return false;
  for (let k = 0; k < a.cells.length; k++)
    if (a.cells[k] !== b.cells[k]) return false;
  return true;
}
function patchRows(prev, next) {
  if (prev === next) return 0;
  let changed = 0;
  for (let i = 0; i < next.length; i++)
    if (!prev[i] || !sameRow(prev[i], next[i])) changed++;
  return changed;
}
const state = {rows: []};
for (let i = 0; i < 40000; i++) {
  const cells = [];
  for (let k = 0; k < 24; k++) cells.push(Math.floor(rand() * 100));
  state.rows.push({id: i, label: 'row ' + i, cells});
}
let shown = state.rows;
function cloneRows(rows) {
  return rows.slice();
}
function renderView(s) {
  const next = cloneRows(s.rows);
  const changed = patchRows(shown, next);
  shown = next;
  return changed;
}
let clicks = 0;
function onGo() {
  let changed = 0;
  for (let r = 0; r < 100; r++) changed += renderView(state);
  clicks++;
  const d = document.createElement('p');
  d.id = 'done-' + clicks;
  d.textContent = 'patched ' + changed;
  document.getElementById('out').appendChild(d);
}
document.getElementById('go').addEventListener('click', onGo);
