/* Order ledger: one DataTables table of seeded orders (the same on every
 * load, built from a JavaScript array, ten rows per page). Each Sort button
 * clicks one column header, the way a user orders the table, and waits for
 * the table's redraw. A real regression for zamcap's accuracy experiment
 * (NOTE.md). */
'use strict';

var ROWS = 22000;
var SORT_COLUMNS = [2, 3, 4];   /* City, Amount, Tracking; column 0 is the initial order */
var NAMES = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farah', 'Goran', 'Hana',
  'Ines', 'Jonas', 'Kemal', 'Lena', 'Marta', 'Nils', 'Olga', 'Pavel', 'Rosa',
  'Sami', 'Tomas', 'Ulla', 'Vera', 'Wim', 'Yara', 'Zeno'];
var SURNAMES = ['Berg', 'Costa', 'Dahl', 'Eriksen', 'Fischer', 'Gallo', 'Horvat',
  'Ivanova', 'Jansen', 'Kowalski', 'Lindqvist', 'Moreau', 'Novak', 'Ortega',
  'Petrov', 'Quinn', 'Rossi', 'Schmidt', 'Tanaka', 'Varga', 'Weber'];
var CITIES = ['Aarhus', 'Bergen', 'Bologna', 'Brno', 'Cork', 'Delft', 'Gdansk',
  'Ghent', 'Graz', 'Kaunas', 'Lille', 'Lyon', 'Malmo', 'Porto', 'Riga', 'Tartu',
  'Turku', 'Utrecht', 'Valencia', 'Zagreb'];

var state = {table: null, shown: 0};

function seededRandom(seed) {
  var s = seed >>> 0;
  return function nextRandom() {
    s = (s + 0x6D2B79F5) >>> 0;
    var t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(rand, list) { return list[Math.floor(rand() * list.length)]; }

/* A seeded permutation of 0..n-1, so that Amount and Tracking have no ties
 * (ties would be broken by each version's own rule). */
function permutation(rand, n) {
  var p = [];
  for (var i = 0; i < n; i++) p.push(i);
  for (var j = n - 1; j > 0; j--) {
    var k = Math.floor(rand() * (j + 1));
    var t = p[j]; p[j] = p[k]; p[k] = t;
  }
  return p;
}

function makeRows() {
  var rand = seededRandom(7207);
  var cents = permutation(rand, ROWS), codes = permutation(rand, ROWS);
  var rows = [];
  for (var i = 0; i < ROWS; i++) {
    rows.push([
      'ORD-' + (100000 + i),
      pick(rand, NAMES) + ' ' + pick(rand, SURNAMES),
      pick(rand, CITIES),
      ((cents[i] * 37 + 1500) / 100).toFixed(2),
      'TRK' + String(100000 + codes[i] * 13).slice(-6) + pick(rand, ['A', 'B', 'C'])
    ]);
  }
  return rows;
}

function sortBy(index) {
  var t0 = performance.now();
  var column = SORT_COLUMNS[index];
  var header = document.querySelectorAll('#ledger thead th')[column];
  state.table.one('draw', function onDrawn() {
    state.shown++;
    var first = state.table.rows({page: 'current'}).data();
    var orders = [];
    for (var i = 0; i < 3 && i < first.length; i++) orders.push(first[i][0]);
    document.getElementById('status').textContent =
      header.textContent + ': first ' + orders.join(', ') + ' (' +
      Math.round(performance.now() - t0) + ' ms)';
    document.body.setAttribute('data-shown', String(state.shown));
  });
  header.click();
}

function setup() {
  state.table = $('#ledger').DataTable({
    data: makeRows(),
    processing: true,
    pageLength: 10,
    order: [[0, 'asc']]
  });
  for (var i = 0; i < SORT_COLUMNS.length; i++) {
    (function bind(index) {
      document.getElementById('sort' + index).addEventListener('click', function onSort() { sortBy(index); });
    })(i);
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
