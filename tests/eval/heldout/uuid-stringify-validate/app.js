/* Import ledger: each Import button takes a batch of records (seeded, the
 * same on every load) and gives every record a random (version 4) UUID made
 * from the batch's own seeded bytes, with uuid's v4({random}) API, then
 * shows the count, the first ids and a checksum of all ids.
 *
 * The uuid package's browser-ready single files are minified, so the page
 * loads its unminified CommonJS files (dist/*.js) one by one with a small
 * CommonJS shim: each file sees a global `exports` and `require`. Both
 * versions load rng-browser.js (as rng.js, which v4.js requires; unused,
 * the page passes its own bytes) and v4.js; 8.2.0 adds bytesToUuid.js,
 * 8.3.0 regex.js, validate.js and stringify.js. The page asks for all six;
 * the files a version does not have answer 404 and are skipped.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const MODULES = ['rng', 'regex', 'validate', 'stringify', 'bytesToUuid', 'v4'];
const BATCHES = ['orders', 'invoices', 'shipments'];
const RECORDS = 1200000;  /* records per batch */

const registry = {};
const state = {v4: null, shown: 0};

window.require = function require(path) {
  const name = path.replace(/^\.\//, '').replace(/\.js$/, '');
  if (!(name in registry)) throw new Error('module not loaded: ' + path);
  return registry[name];
};

function loadNext(i, done) {
  if (i >= MODULES.length) { done(); return; }
  const name = MODULES[i];
  window.exports = {};
  const script = document.createElement('script');
  script.src = 'lib/uuid/' + name + '.js';
  script.onload = function () { registry[name] = window.exports; loadNext(i + 1, done); };
  script.onerror = function () { loadNext(i + 1, done); };
  document.body.appendChild(script);
}

function seededBytes(seed, n) {
  let s = seed >>> 0;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (t ^ (t >>> 14)) >>> 24;
  }
  return out;
}

/* 64 kB of seeded bytes per batch, read at a moving offset for each record */
function importBatch(index) {
  const pool = seededBytes(9100 + index * 31, 65536 + 16);
  const random = new Uint8Array(16);
  const first = [];
  let sum = 0;
  for (let r = 0; r < RECORDS; r++) {
    const off = (r * 7 + (r >>> 12)) & 65535;
    for (let j = 0; j < 16; j++) random[j] = pool[off + j];
    const id = state.v4({random: random});
    if (r < 2) first.push(id);
    sum = (Math.imul(sum, 31) + id.charCodeAt(r % 36)) | 0;
  }
  return {records: RECORDS, first: first, checksum: (sum >>> 0).toString(16)};
}

function show(index) {
  const res = importBatch(index);
  const row = document.createElement('tr');
  [BATCHES[index], String(res.records), res.first.join(' '), res.checksum].forEach(function (text) {
    const td = document.createElement('td');
    td.textContent = text;
    row.appendChild(td);
  });
  document.querySelector('#summary tbody').appendChild(row);
  state.shown += 1;
  document.getElementById('status').textContent = 'Imported ' + BATCHES[index];
  document.body.dataset.shown = String(state.shown);
}

loadNext(0, function () {
  state.v4 = registry.v4.default;
  BATCHES.forEach(function (name, i) {
    document.getElementById('import' + i).addEventListener('click', function () { show(i); });
  });
  document.getElementById('status').textContent = 'Ready';
  document.body.dataset.ready = '1';
});
