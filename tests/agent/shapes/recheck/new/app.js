// Old code newly called, NEW: refresh re-renders every row on every call
// (the check on the height is gone); rerenderRows and the functions under
// it read as they did in OLD.
'use strict';
let seed = 11;
function rand() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
function cellText(row, k) {
  let s = '';
  for (let j = 0; j < 120; j++) s += ((row.v * (k + 1) + j) % 97) + ',';
  return s;
}
function renderRow(row) {
  let n = 0;
  for (let k = 0; k < 60; k++) n += cellText(row, k).length;
  return n;
}
function rerenderRows(rows) {
  let n = 0;
  for (const r of rows) n += renderRow(r);
  return n;
}
function tableHeight(rows) {
  return rows.length * 20;
}
const rows = [];
for (let i = 0; i < 1000; i++) rows.push({v: Math.floor(rand() * 1000)});
let shownHeight = tableHeight(rows);
function refresh() {
  let n = 0;
  const h = tableHeight(rows);
  n = rerenderRows(rows);
  shownHeight = h;
  return n + h;
}
let clicks = 0;
function onGo() {
  const n = refresh();
  clicks++;
  const d = document.createElement('p');
  d.id = 'done-' + clicks;
  d.textContent = 'refreshed ' + n;
  document.getElementById('out').appendChild(d);
}
document.getElementById('go').addEventListener('click', onGo);
