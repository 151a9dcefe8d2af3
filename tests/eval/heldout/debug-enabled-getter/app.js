/* Order pipeline: each Run button pushes a batch of seeded orders (the same
 * on every load) through six stages (parse, validate, price, tax, stock,
 * ship). Every stage has its own `debug` logger and traces each order, the
 * way a library instrumented with `debug` does. The page turns on a typical
 * DEBUG setting for other subsystems (many patterns, a few exclusions) and an
 * audit logger; the stage loggers stay off. The table shows the counts, the
 * order total and how many audit lines were written (their text holds a
 * time difference, so only the count is shown).
 *
 * The debug package ships CommonJS files only (src/browser.js requires
 * ./common, which requires ms), so the page loads them one by one with a
 * small CommonJS shim (a global `module`, `exports` and `require`).
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const FILES = [['ms', 'lib/ms/index.js'], ['common', 'lib/debug/common.js'], ['browser', 'lib/debug/browser.js']];
const BATCHES = ['web', 'store', 'partner'];
const ORDERS = 30000;  /* orders per batch */

/* A DEBUG setting for the rest of the app: none of it matches the stages */
const DEBUG_SETTING = [
  'shop:auth:*', 'shop:session:*', 'shop:search:*', 'shop:catalog:*', 'shop:reviews:*',
  'shop:payments:card', 'shop:payments:wallet', 'shop:payments:refund', 'shop:coupons:*',
  'shop:email:*', 'shop:sms:*', 'shop:push:*', 'shop:cache:*', 'shop:router:*',
  'shop:i18n:*', 'shop:ab:*', 'shop:metrics:*', 'shop:feature-flags', 'shop:uploads:*',
  'shop:audit', 'vendor:maps:*', 'vendor:chat:*', 'vendor:analytics', 'http:*',
  '-shop:cache:hits', '-shop:router:match', '-shop:metrics:tick', '-http:retry',
  '-shop:search:suggest', '-vendor:chat:typing', '-shop:session:ping', '-shop:auth:refresh'
].join(',');

const registry = {};
const state = {debug: null, loggers: null, audit: null, auditLines: 0, shown: 0};

window.require = function require(path) {
  const name = path.replace(/^\.\//, '').replace(/\.js$/, '');
  if (!(name in registry)) throw new Error('module not loaded: ' + path);
  return registry[name];
};

function loadNext(i, done) {
  if (i >= FILES.length) { done(); return; }
  const [name, src] = FILES[i];
  window.module = {exports: {}};
  window.exports = window.module.exports;
  const script = document.createElement('script');
  script.src = src;
  script.onload = function () { registry[name] = window.module.exports; loadNext(i + 1, done); };
  document.body.appendChild(script);
}

function makeRandom(seed) {
  let s = seed >>> 0;
  return function next() {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function setupLoggers(debug) {
  debug.enable(DEBUG_SETTING);
  const stages = ['parse', 'validate', 'price', 'tax', 'stock', 'ship'];
  const loggers = {};
  for (const stage of stages) loggers[stage] = debug('shop:orders:' + stage);
  const audit = debug('shop:audit');
  audit.log = function auditSink() { state.auditLines++; };
  return {loggers, audit};
}

function makeOrders(index) {
  const rand = makeRandom(7700 + index * 53);
  const orders = [];
  for (let i = 0; i < ORDERS; i++) {
    orders.push({
      id: index * 1000000 + i,
      sku: 'SKU-' + Math.floor(rand() * 5000),
      qty: 1 + Math.floor(rand() * 4),
      price: Math.round(rand() * 20000) / 100,
      region: ['eu', 'us', 'apac', 'latam'][Math.floor(rand() * 4)],
      stock: Math.floor(rand() * 12)
    });
  }
  return orders;
}

const TAX = {eu: 0.2, us: 0.07, apac: 0.1, latam: 0.15};

function processOrder(order, log) {
  log.parse('order %d sku %s', order.id, order.sku);
  if (order.qty > order.stock) {
    log.validate('order %d rejected: qty %d > stock %d', order.id, order.qty, order.stock);
    return 0;
  }
  log.validate('order %d ok', order.id);
  const net = order.qty * order.price;
  log.price('order %d net %d', order.id, net);
  const tax = net * TAX[order.region];
  log.tax('order %d tax %d (%s)', order.id, tax, order.region);
  order.stock -= order.qty;
  log.stock('order %d stock left %d', order.id, order.stock);
  log.ship('order %d to %s', order.id, order.region);
  return Math.round((net + tax) * 100);
}

function runBatch(index) {
  const orders = makeOrders(index);
  const log = state.loggers;
  let accepted = 0;
  let cents = 0;
  for (let i = 0; i < orders.length; i++) {
    const c = processOrder(orders[i], log);
    if (c > 0) { accepted++; cents += c; }
    if (i % 1000 === 999) state.audit('batch %s reached %d', BATCHES[index], i + 1);
  }
  return {orders: orders.length, accepted, rejected: orders.length - accepted, cents};
}

function showBatch(index) {
  const before = state.auditLines;
  const r = runBatch(index);
  const row = document.createElement('tr');
  const cells = [BATCHES[index], r.orders, r.accepted, r.rejected,
    (r.cents / 100).toFixed(2), state.auditLines - before];
  for (const c of cells) {
    const td = document.createElement('td');
    td.textContent = String(c);
    row.appendChild(td);
  }
  document.querySelector('#summary tbody').appendChild(row);
  state.shown++;
  document.getElementById('status').textContent = 'Ran ' + state.shown + ' batch(es)';
  document.body.dataset.shown = String(state.shown);
}

function init() {
  loadNext(0, function ready() {
    state.debug = registry.browser;
    const l = setupLoggers(state.debug);
    state.loggers = l.loggers;
    state.audit = l.audit;
    BATCHES.forEach(function (name, i) {
      document.getElementById('run' + i).addEventListener('click', function onRunClick() { showBatch(i); });
    });
    document.getElementById('status').textContent = 'Ready';
    document.body.dataset.ready = '1';
  });
}

init();
