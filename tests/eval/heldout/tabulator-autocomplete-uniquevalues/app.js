/* Shipment ledger: a Tabulator table of seeded shipments (the same on every
 * load) whose Town column has an autocomplete header filter built from the
 * column's own values (headerFilterParams.values = true). Each Find button
 * focuses that filter and types three town names one key at a time (from the
 * third letter on), then deletes them again with backspace down to three
 * letters, the way a user hunts for a town, and counts the suggestions shown
 * after every key (every prefix typed matches at least one town).
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const ROWS = 25000;      /* shipments in the ledger */
const TOWNS = 1500;      /* distinct town names */
const FIRST = 3;         /* letters in the first keystroke's value (typed fast) */
const SEARCHES = [
  ['norvale', 'kestmoor', 'brindon'],
  ['rivermark', 'tallowby', 'ashford'],
  ['hillcrest', 'dunmere', 'calloway']
];

const HEADS = ['nor', 'kest', 'brin', 'river', 'tallow', 'ash', 'hill', 'dun',
  'call', 'mar', 'pen', 'wick', 'fen', 'lor', 'sel', 'grim'];
const MIDS = ['', 'a', 'e', 'o', 'ing', 'er', 'el', 'ow'];
const TAILS = ['vale', 'moor', 'don', 'mark', 'by', 'ford', 'crest', 'mere',
  'way', 'ton', 'ham', 'stead', 'field', 'bury', 'wick', 'gate'];

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

function makeTowns() {
  const names = [];
  const seen = {};
  let i = 0;
  while (names.length < TOWNS) {
    const h = HEADS[i % HEADS.length];
    const m = MIDS[Math.floor(i / HEADS.length) % MIDS.length];
    const t = TAILS[Math.floor(i / (HEADS.length * MIDS.length)) % TAILS.length];
    const n = Math.floor(i / (HEADS.length * MIDS.length * TAILS.length));
    let name = h + m + t + (n ? ' ' + (n + 1) : '');
    name = name.charAt(0).toUpperCase() + name.slice(1);
    if (!seen[name]) { seen[name] = true; names.push(name); }
    i++;
  }
  return names;
}

function makeRows() {
  const rand = seededRandom(4242);
  const towns = makeTowns();
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    rows.push({
      id: i + 1,
      ref: 'SH-' + String(100000 + i),
      town: towns[Math.floor(rand() * towns.length)],
      weight: Math.round(rand() * 5000) / 10,
      crates: 1 + Math.floor(rand() * 40)
    });
  }
  return rows;
}

function filterInput() {
  return document.querySelector('.tabulator-col[tabulator-field="town"] .tabulator-header-filter input');
}

function suggestionCount() {
  return document.querySelectorAll('.tabulator-edit-select-list-item').length;
}

function pressKey(input, value) {
  input.value = value;
  input.dispatchEvent(new KeyboardEvent('keyup', {key: 'a', bubbles: true}));
}

function findTowns(index) {
  const t0 = performance.now();
  const input = filterInput();
  input.focus();
  if (document.activeElement !== input) input.dispatchEvent(new FocusEvent('focus'));
  let keys = 0;
  let suggestions = 0;
  const words = SEARCHES[index];
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    for (let c = FIRST; c <= word.length; c++) {
      pressKey(input, word.slice(0, c));
      keys++;
      suggestions += suggestionCount();
    }
    for (let c = word.length - 1; c >= FIRST; c--) {
      pressKey(input, word.slice(0, c));
      keys++;
      suggestions += suggestionCount();
    }
  }
  input.blur();
  state.shown++;
  document.getElementById('status').textContent =
    'Search ' + (index + 1) + ': ' + keys + ' keys, ' + suggestions +
    ' suggestions shown, ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.table = new Tabulator('#ledger', {
    height: 400,
    data: makeRows(),
    layout: 'fitColumns',
    columns: [
      {title: 'Ref', field: 'ref'},
      {title: 'Town', field: 'town', headerFilter: 'autocomplete',
        headerFilterParams: {values: true}, headerFilterLiveFilter: false},
      {title: 'Weight (kg)', field: 'weight', hozAlign: 'right'},
      {title: 'Crates', field: 'crates', hozAlign: 'right'}
    ]
  });
  for (let i = 0; i < SEARCHES.length; i++) {
    document.getElementById('find' + i).addEventListener('click', function onFind() { findTowns(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
