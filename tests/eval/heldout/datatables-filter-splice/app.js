/* Parcel tracker: one DataTables table of seeded parcels (the same on every
 * load, built from a JavaScript array, ten rows per page). Each button runs
 * one saved search through the table's global search box (table.search(term)
 * .draw()); each term matches only a few dozen of the rows. A real regression
 * for zamcap's accuracy experiment (NOTE.md). */
'use strict';

var ROWS = 80000;
var SEARCHES = ['porto express', 'riga return', 'graz fragile'];
var NAMES = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farah', 'Goran', 'Hana',
  'Ines', 'Jonas', 'Kemal', 'Lena', 'Marta', 'Nils', 'Olga', 'Pavel', 'Rosa',
  'Sami', 'Tomas', 'Ulla', 'Vera', 'Wim', 'Yara', 'Zeno'];
var SURNAMES = ['Berg', 'Costa', 'Dahl', 'Eriksen', 'Fischer', 'Gallo', 'Horvat',
  'Ivanova', 'Jansen', 'Kowalski', 'Lindqvist', 'Moreau', 'Novak', 'Ortega',
  'Petrov', 'Quinn', 'Rossi', 'Schmidt', 'Tanaka', 'Varga', 'Weber'];
var CITIES = ['Aarhus', 'Bergen', 'Bologna', 'Brno', 'Cork', 'Delft', 'Gdansk',
  'Ghent', 'Graz', 'Kaunas', 'Lille', 'Lyon', 'Malmo', 'Porto', 'Riga', 'Tartu',
  'Turku', 'Utrecht', 'Valencia', 'Zagreb'];
var SERVICES = ['Standard', 'Economy', 'Express', 'Same day', 'Return', 'Locker'];
var NOTES = ['', '', '', 'Leave at door', 'Call first', 'Fragile', 'Signature',
  'Office hours', 'Back entrance', 'Neighbour ok'];

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

function makeRows() {
  var rand = seededRandom(4411);
  var rows = [];
  for (var i = 0; i < ROWS; i++) {
    rows.push([
      'PCL-' + (500000 + i),
      pick(rand, NAMES) + ' ' + pick(rand, SURNAMES),
      pick(rand, CITIES),
      pick(rand, SERVICES),
      (0.2 + Math.floor(rand() * 300) / 10).toFixed(1) + ' kg',
      pick(rand, NOTES)
    ]);
  }
  return rows;
}

function find(index) {
  var t0 = performance.now();
  var term = SEARCHES[index];
  state.table.one('draw', function onDrawn() {
    state.shown++;
    var info = state.table.page.info();
    var first = state.table.rows({page: 'current'}).data();
    var parcels = [];
    for (var i = 0; i < 3 && i < first.length; i++) parcels.push(first[i][0]);
    document.getElementById('status').textContent =
      '"' + term + '": ' + info.recordsDisplay + ' of ' + info.recordsTotal +
      ' parcels, first ' + parcels.join(', ') + ' (' +
      Math.round(performance.now() - t0) + ' ms)';
    document.body.setAttribute('data-shown', String(state.shown));
  });
  state.table.search(term).draw();
}

function setup() {
  state.table = $('#parcels').DataTable({
    data: makeRows(),
    pageLength: 10,
    order: [[0, 'asc']]
  });
  for (var i = 0; i < SEARCHES.length; i++) {
    (function bind(index) {
      document.getElementById('find' + index).addEventListener('click', function onFind() { find(index); });
    })(i);
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
