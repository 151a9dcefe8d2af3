/* Shipment table export: a DataTables grid of seeded shipments (the same on
 * every load). Each Export button collects the cells of some columns of all
 * rows with the DataTables API, table.cells(rows, columns).data(), the way the
 * Buttons export does, and shows a CSV preview, its line count and a checksum.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const ROWS = 5000;
const CITIES = ['Oslo', 'Lima', 'Pune', 'Kobe', 'Graz', 'Cork', 'Faro', 'Baku', 'Nice', 'Turku'];
const CARRIERS = ['North', 'Swift', 'Atlas', 'Kite', 'Orbit'];
const STATES = ['new', 'packed', 'shipped', 'delivered'];

const state = {table: null, shown: 0};

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

function makeShipments(count) {
  const rand = seededRandom(20190305);
  const rows = [];
  for (let i = 0; i < count; i++) {
    rows.push([
      'S' + String(100000 + i),
      CITIES[Math.floor(rand() * CITIES.length)],
      CARRIERS[Math.floor(rand() * CARRIERS.length)],
      (1 + rand() * 99).toFixed(1),
      (5 + rand() * 495).toFixed(2),
      STATES[Math.floor(rand() * STATES.length)]
    ]);
  }
  return rows;
}

function buildTable() {
  state.table = jQuery('#grid').DataTable({
    data: makeShipments(ROWS),
    columns: [
      {title: 'Id'}, {title: 'City'}, {title: 'Carrier'},
      {title: 'Weight'}, {title: 'Cost'}, {title: 'Status'}
    ],
    deferRender: true,
    pageLength: 10,
    ordering: false
  });
}

function collectCells(columns) {
  return state.table.cells(null, columns).data().toArray();
}

function toCsv(values, width) {
  const lines = [];
  for (let i = 0; i < values.length; i += width) {
    lines.push(values.slice(i, i + width).join(','));
  }
  return lines;
}

function checksum(lines) {
  let h = 0;
  for (const line of lines) {
    for (let i = 0; i < line.length; i++) h = (Math.imul(h, 31) + line.charCodeAt(i)) | 0;
  }
  return (h >>> 0).toString(16);
}

function exportColumns(label, columns) {
  const values = collectCells(columns);
  const lines = toCsv(values, columns.length);
  document.getElementById('out').textContent =
    label + ': ' + lines.length + ' lines, checksum ' + checksum(lines) + '\n' +
    lines.slice(0, 8).join('\n');
  state.shown += 1;
  document.body.dataset.shown = String(state.shown);
}

function onExportIds() { exportColumns('ids and cities', [0, 1]); }
function onExportWeights() { exportColumns('weights', [3]); }
function onExportAll() { exportColumns('all columns', [0, 1, 2, 3, 4, 5]); }

function init() {
  buildTable();
  document.getElementById('exportIds').addEventListener('click', onExportIds);
  document.getElementById('exportWeights').addEventListener('click', onExportWeights);
  document.getElementById('exportAll').addEventListener('click', onExportAll);
  document.getElementById('status').textContent = ROWS + ' shipments';
  document.body.dataset.ready = '1';
}

init();
