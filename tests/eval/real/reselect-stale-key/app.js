/* Order dashboard: a small store (state replaced on every change, as in
 * Redux) holds the orders and some UI state. The totals are derived with
 * a Reselect selector built by createSelectorCreator(defaultMemoize,
 * _.isEqual), the documented way to keep a selector from recomputing when
 * an input is rebuilt with the same content. "Sync and review" stores a
 * fresh copy of the orders as the server sent them (the same content),
 * then steps a review cursor through the list, re-rendering after every
 * step. The orders are generated from a fixed seed, the same on every
 * load. A real regression for zamcap's accuracy experiment
 * (tests/eval/real/reselect-stale-key/NOTE.md): Reselect 4.1's
 * defaultMemoize keeps the arguments of its last miss, so after the sync
 * every later call compares the new orders with the old copy in depth;
 * 4.0 kept the last arguments, and _.isEqual's identity check answered. */
'use strict';

const ORDERS = 1300;
const REVIEW_STEPS = 40;
const REGIONS = ['north', 'south', 'east', 'west'];

let store = {orders: [], ui: {cursor: 0, syncs: 0}};

/* a 32-bit Weyl sequence scrambled, fixed seed */
function makeWeyl(seed) {
  let w = seed >>> 0;
  return function next() {
    w = (w + 0x9E3779B9) >>> 0;
    let z = w;
    z = Math.imul(z ^ (z >>> 16), 0x85EBCA6B) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xC2B2AE35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

function makeOrdersJson() {
  const rnd = makeWeyl(31337);
  const orders = [];
  for (let i = 0; i < ORDERS; i++) {
    orders.push({id: 'o' + i, region: REGIONS[Math.floor(rnd() * 4)],
                 lines: [{sku: 's' + Math.floor(rnd() * 500), qty: 1 + Math.floor(rnd() * 5),
                          price: Math.round(rnd() * 9000) / 100}],
                 paid: rnd() < 0.8});
  }
  return JSON.stringify(orders);
}

const SERVER_JSON = makeOrdersJson();

const createDeepEqualSelector = Reselect.createSelectorCreator(Reselect.defaultMemoize, _.isEqual);

function selectOrders(state) {
  return state.orders;
}

function computeTotals(orders) {
  const totals = {};
  for (const o of orders) {
    let sum = 0;
    for (const l of o.lines) sum += l.qty * l.price;
    totals[o.region] = (totals[o.region] || 0) + (o.paid ? sum : 0);
  }
  return totals;
}

const selectTotals = createDeepEqualSelector(selectOrders, computeTotals);

function render() {
  const totals = selectTotals(store);
  const dl = document.getElementById('totals');
  dl.innerHTML = REGIONS.map(function totalItem(r) {
    return '<dt>' + r + '</dt><dd>' + totals[r].toFixed(2) + '</dd>';
  }).join('');
  const o = store.orders[store.ui.cursor];
  document.getElementById('cursor').textContent = 'reviewing ' + (o ? o.id : '-');
}

function dispatch(next) {
  store = next;
  render();
}

function syncOrders() {
  dispatch({orders: JSON.parse(SERVER_JSON), ui: {cursor: 0, syncs: store.ui.syncs + 1}});
}

function stepReview(i) {
  dispatch({orders: store.orders, ui: {cursor: i, syncs: store.ui.syncs}});
}

function onSyncClick() {
  syncOrders();
  for (let i = 1; i <= REVIEW_STEPS; i++) stepReview(i);
  document.getElementById('status').textContent = 'sync ' + store.ui.syncs;
  document.body.dataset.syncs = String(store.ui.syncs);
}

function main() {
  store = {orders: JSON.parse(SERVER_JSON), ui: {cursor: 0, syncs: 0}};
  render();
  document.getElementById('sync').addEventListener('click', onSyncClick);
  document.body.dataset.ready = '1';
}

main();
