/* Orders: a data grid sorted, filtered and grouped with lodash (npm, the
 * full unminified build in lib/lodash.js). An eval subject for zamcap's
 * accuracy experiment (tests/eval/README.md).
 *
 * On load it generates ORDER_COUNT orders (a seeded generator: every load is
 * the same) and shows nothing but the header. Clicking a column header
 * sorts by it (again: the other way); typing in the filter box filters on
 * every keystroke; "Group by region" adds per-region cards. Every change
 * runs the whole view again: filter, order, page, a summary row and, when
 * grouped, the group statistics.
 *
 * Background work, the same in every build: a region tally every 600 ms
 * and a fake asynchronous save of the view settings after each change. */
'use strict';

const ORDER_COUNT = 3000;
const PAGE_SIZE = 40;
const CUSTOMERS = ['Alderberry Ltd', 'Bergstrom AG', 'Cobalt & Sons', 'Dunmore Inc',
                   'Elbert Foods', 'Fairweather Co', 'Granberg Tools', 'Hollins Bakery',
                   'Ibsen Marine', 'Juniper Labs', 'Kimberley Farms', 'Lindberg Motors'];
const REGIONS = ['North', 'South', 'East', 'West', 'Central', 'Islands'];
const PRODUCTS = ['bolts', 'cables', 'drills', 'gloves', 'ladders', 'pipes',
                  'pumps', 'saws', 'tape', 'valves'];
const FIELDS = ['customer', 'region', 'product'];
const NUMERIC = ['id', 'quantity', 'amount'];

const state = {orders: [], column: 'id', direction: 'asc', filter: '', groupBy: null,
               rows: [], saved: null, ticks: 0};

/* mulberry32: the same sequence on every load. */
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

function makeOrders(count) {
  const rand = seededRandom(5150);
  const orders = [];
  for (let i = 0; i < count; i++) {
    const quantity = 1 + Math.floor(rand() * 40);
    orders.push({id: i + 1, customer: CUSTOMERS[Math.floor(rand() * CUSTOMERS.length)],
                 region: REGIONS[Math.floor(rand() * REGIONS.length)],
                 product: PRODUCTS[Math.floor(rand() * PRODUCTS.length)],
                 quantity: quantity, amount: Math.round(quantity * (5 + rand() * 95) * 100) / 100,
                 placed: '2024-' + String(1 + Math.floor(rand() * 12)).padStart(2, '0') + '-' +
                         String(1 + Math.floor(rand() * 28)).padStart(2, '0')});
  }
  return orders;
}

/* ---- the view ---- */

function matchesFilter(order) {
  if (!state.filter) return true;
  const needle = _.toLower(state.filter);
  return _.some(FIELDS, function fieldMatches(field) {
    return _.includes(_.toLower(order[field]), needle);
  });
}

function selectRows() {
  return _.chain(state.orders)
      .filter(matchesFilter)
      .orderBy([state.column, 'id'], [state.direction, 'asc'])
      .value();
}

function formatCell(order, column) {
  const value = order[column];
  if (column === 'amount') return _.padStart(value.toFixed(2), 9);
  return _.escape(String(value));
}

function renderRow(order) {
  const cells = _.map(['id', 'customer', 'region', 'product', 'quantity', 'amount', 'placed'],
                      function cellHtml(column) {
    const cls = _.includes(NUMERIC, column) ? ' class="num"' : '';
    return '<td' + cls + '>' + formatCell(order, column) + '</td>';
  });
  return '<tr>' + cells.join('') + '</tr>';
}

function renderRows(rows) {
  const body = document.getElementById('rows');
  body.innerHTML = _.map(_.take(rows, PAGE_SIZE), renderRow).join('');
  body.dataset.filter = state.filter;
  body.dataset.sort = state.column + '-' + state.direction;
}

function summarize(rows) {
  return {
    count: _.size(rows),
    customers: _.uniqBy(rows, 'customer').length,
    quantity: _.sumBy(rows, 'quantity'),
    amount: _.round(_.sumBy(rows, 'amount'), 2),
    mean: _.round(_.meanBy(rows, 'amount') || 0, 2),
    largest: _.get(_.maxBy(rows, 'amount'), 'id', '-'),
  };
}

function renderSummary(summary) {
  document.getElementById('summary').innerHTML =
      '<tr><td colspan="7">' + summary.count + ' orders from ' + summary.customers +
      ' customers, ' + summary.quantity + ' items, total ' + summary.amount + ', mean ' +
      summary.mean + ', largest #' + summary.largest + '</td></tr>';
}

function describeGroup(orders, region) {
  const products = _.countBy(orders, 'product');
  const best = _.head(_.orderBy(_.toPairs(products), [1, 0], ['desc', 'asc']));
  const byMonth = _.groupBy(orders, function month(order) { return order.placed.slice(0, 7); });
  return {region: region, count: orders.length, total: _.round(_.sumBy(orders, 'amount'), 2),
          best: best ? best[0] : '-', months: _.keys(byMonth).length};
}

function groupRows(rows) {
  const groups = _.groupBy(rows, state.groupBy);
  return _.sortBy(_.map(groups, describeGroup), 'region');
}

function renderGroups(groups) {
  const section = document.getElementById('groups');
  section.innerHTML = _.map(groups, function groupCard(g) {
    return '<div data-region="' + g.region + '"><b>' + g.region + '</b>: ' + g.count +
           ' orders, ' + g.total + ', mostly ' + g.best + ', ' + g.months + ' months</div>';
  }).join('');
}

function markSortedHeader() {
  for (const th of document.querySelectorAll('#grid th')) {
    th.classList.toggle('sorted-asc', th.dataset.column === state.column && state.direction === 'asc');
    th.classList.toggle('sorted-desc', th.dataset.column === state.column && state.direction === 'desc');
  }
}

function applyView(reason) {
  state.rows = selectRows();
  renderRows(state.rows);
  renderSummary(summarize(state.rows));
  renderGroups(state.groupBy ? groupRows(state.rows) : []);
  markSortedHeader();
  document.getElementById('status').textContent = reason;
  saveSettings();
}

/* ---- event handlers ---- */

function onHeaderClick(event) {
  const th = event.target.closest('th');
  if (!th) return;
  const column = th.dataset.column;
  state.direction = state.column === column && state.direction === 'asc' ? 'desc' : 'asc';
  state.column = column;
  applyView('sorted by ' + column);
}

function onFilterInput(event) {
  state.filter = event.target.value.trim();
  applyView('filtered');
}

function onGroupClick(event) {
  state.groupBy = event.target.id === 'group-region' ? 'region' : null;
  applyView(state.groupBy ? 'grouped' : 'ungrouped');
}

/* ---- noise: a tally tick and a fake asynchronous save ---- */

function tallyTick() {
  state.ticks++;
  const tally = _.countBy(state.orders, 'region');
  document.body.dataset.regions = _.keys(tally).join(',');
}

function storeSettings(settings) { state.saved = settings; }

function saveSettings() {
  Promise.resolve(_.pick(state, ['column', 'direction', 'filter', 'groupBy'])).then(storeSettings);
  new Promise(function waitForServer(resolve) {
    setTimeout(resolve, Date.now() % 5, state.column);
  }).then(function onSettingsSaved(c) { document.body.dataset.saved = c; });
}

/* ---- start ---- */

function startApp() {
  state.orders = makeOrders(ORDER_COUNT);
  document.querySelector('#grid thead').addEventListener('click', onHeaderClick);
  document.getElementById('filter').addEventListener('input', onFilterInput);
  document.getElementById('group-region').addEventListener('click', onGroupClick);
  document.getElementById('group-none').addEventListener('click', onGroupClick);
  document.getElementById('status').textContent = state.orders.length + ' orders';
  setInterval(tallyTick, 600);
}

startApp();
