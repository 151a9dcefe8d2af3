/* Stock sync check: three warehouses whose stock lists (seeded, the same on
 * every load) are kept twice, as the copy the page last saved and as the copy
 * the server sends back. Each Check button compares one warehouse's two
 * copies with assert.deepEqual from the npm `assert` package (Node's assert
 * module as bundlers ship it for the browser) and shows "in sync" or the
 * first difference. A real regression for zamcap's accuracy experiment
 * (NOTE.md).
 *
 * The `assert` package is CommonJS only (as are its `util` and `inherits`
 * dependencies), so the page loads the package files with a tiny CommonJS
 * loader: each file is fetched from lib/ and evaluated inside a module
 * wrapper whose sourceURL is the file's own address, so that its functions
 * keep their file and line numbers. */
'use strict';

const WAREHOUSES = ['North', 'East', 'South'];
const ITEMS = 4500;        /* stock lines per warehouse */
const BINS = 2;            /* bin records per stock line */

const state = {assert: null, stocks: [], shown: 0};

/* ---- a tiny CommonJS loader for the package files under lib/ ---- */

const MODULE_FILES = {
  'inherits': 'lib/inherits.js',
  'util/support/isBuffer': 'lib/util/support/isBuffer.js',
  'util/': 'lib/util/util.js',
  'assert': 'lib/assert.js'
};

/* what each package file asks require() for -> the module it means */
const REQUESTS = {
  'assert': 'assert',
  'util/': 'util/',
  'util': 'util/',
  './support/isBuffer': 'util/support/isBuffer',
  'inherits': 'inherits'
};

function fetchSource(path) {
  return fetch(path).then(function checkResponse(res) {
    if (!res.ok) throw new Error('cannot load ' + path);
    return res.text();
  });
}

function makeRequire(sources, cache) {
  function requireModule(request) {
    const name = REQUESTS[request];
    if (cache[name]) return cache[name].exports;
    const path = MODULE_FILES[name];
    if (!path) throw new Error('unknown module ' + request);
    const module = {exports: {}};
    cache[name] = module;
    const url = new URL(path, document.baseURI).href;
    const wrapped = '(function (module, exports, require, process, global) {' +
      sources[name] + '\n})\n//# sourceURL=' + url;
    const factory = (0, eval)(wrapped);
    factory(module, module.exports, requireModule, {env: {}}, window);
    return module.exports;
  }
  return requireModule;
}

function loadAssert() {
  const names = Object.keys(MODULE_FILES);
  return Promise.all(names.map(function load(name) { return fetchSource(MODULE_FILES[name]); }))
    .then(function evaluate(texts) {
      const sources = {};
      names.forEach(function keep(name, i) { sources[name] = texts[i]; });
      return makeRequire(sources, {})('assert');
    });
}

/* ---- seeded data ---- */

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

function makeStock(warehouseIndex) {
  const rand = seededRandom(7919 * (warehouseIndex + 1));
  const lines = [];
  for (let i = 0; i < ITEMS; i++) {
    const bins = [];
    for (let b = 0; b < BINS; b++) {
      bins.push({aisle: 1 + Math.floor(rand() * 40), shelf: 'S' + Math.floor(rand() * 9),
                 qty: Math.floor(rand() * 500)});
    }
    lines.push({sku: 'W' + warehouseIndex + '-' + (100000 + i), name: 'Part ' + Math.floor(rand() * 90000),
                price: Math.round(rand() * 100000) / 100, bins: bins});
  }
  return lines;
}

function serverCopy(lines, warehouseIndex) {
  const copy = JSON.parse(JSON.stringify(lines));
  /* the East server copy has one changed quantity on its last line */
  if (warehouseIndex === 1) copy[copy.length - 1].bins[BINS - 1].qty += 1;
  return copy;
}

/* ---- the check ---- */

function compareStock(local, remote) {
  try {
    state.assert.deepEqual(local, remote, 'stock lists differ');
    return 'in sync';
  } catch (err) {
    if (err && err.name === 'AssertionError') return 'out of sync';
    throw err;
  }
}

function checkWarehouse(index) {
  const local = state.stocks[index];
  const remote = serverCopy(local, index);
  const verdict = compareStock(local, remote);
  state.shown += 1;
  const line = WAREHOUSES[index] + ': ' + local.length + ' stock lines, ' + verdict;
  const out = document.getElementById('out');
  out.textContent += line + '\n';
  document.getElementById('status').textContent = 'checked ' + state.shown;
  document.body.dataset.shown = String(state.shown);
}

function init() {
  loadAssert().then(function ready(assert) {
    state.assert = assert;
    for (let i = 0; i < WAREHOUSES.length; i++) state.stocks.push(makeStock(i));
    WAREHOUSES.forEach(function bind(name, i) {
      document.getElementById('check' + i).addEventListener('click', function onCheck() { checkWarehouse(i); });
    });
    document.body.dataset.ready = '1';
  });
}

init();
