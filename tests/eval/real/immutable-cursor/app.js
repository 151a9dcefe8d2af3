/* Budget sheet: ROWS budget lines of COLS monthly cells in an Immutable Map
 * (seeded: the same on every load), read through Immutable's contrib
 * cursors the way an Om-style view does: one cursor per row, one per cell.
 * Recalculate sums every row; Scale multiplies every cell through the
 * cursors, then sums again. A real regression for zamcap's accuracy
 * experiment (tests/eval/real/immutable-cursor/NOTE.md): Immutable 3.6.0's
 * cursors build every sub-cursor's key path with Seq(head).concat(tail)
 * .toArray(), 3.5.0's with Array.prototype.concat. */
'use strict';

const ROWS = 700;
const COLS = 24;

const state = {data: null, version: 0};

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

function makeSheet() {
  const rand = seededRandom(2718);
  const rows = {};
  for (let i = 0; i < ROWS; i++) {
    const cells = {};
    for (let j = 0; j < COLS; j++) cells['m' + j] = {v: Math.round(rand() * 1000), note: ''};
    rows['line' + i] = {label: 'Line ' + i, cells: cells};
  }
  return Immutable.fromJS({sheet: {rows: rows}});
}

function rowTotal(rowCursor) {
  const cells = rowCursor.cursor('cells');
  let sum = 0;
  for (let j = 0; j < COLS; j++) sum += cells.cursor('m' + j).get('v');
  return sum;
}

function sheetTotals(data) {
  const rows = Cursor.from(data, ['sheet', 'rows']);
  const totals = [];
  for (let i = 0; i < ROWS; i++) totals.push(rowTotal(rows.cursor('line' + i)));
  return totals;
}

function scaleSheet(data, factor) {
  return data.updateIn(['sheet', 'rows'], function scaleRows(rows) {
    return rows.map(function scaleRow(row) {
      return row.update('cells', function scaleCells(cells) {
        return cells.map(function scaleCell(c) { return c.set('v', Math.round(c.get('v') * factor)); });
      });
    });
  });
}

function renderTotals(totals) {
  document.getElementById('totals').innerHTML = totals.map(function totalRow(t, i) {
    return '<tr><td>Line ' + i + '</td><td>' + t + '</td></tr>';
  }).join('');
}

function showVersion() {
  state.version++;
  document.getElementById('status').textContent = 'version ' + state.version;
  document.body.dataset.version = String(state.version);
}

function onRecalcClick() {
  renderTotals(sheetTotals(state.data));
  showVersion();
}

function onScaleClick() {
  state.data = scaleSheet(state.data, 1.1);
  renderTotals(sheetTotals(state.data));
  showVersion();
}

function main() {
  state.data = makeSheet();
  document.getElementById('recalc').addEventListener('click', onRecalcClick);
  document.getElementById('scale').addEventListener('click', onScaleClick);
  document.body.dataset.ready = '1';
}

main();
