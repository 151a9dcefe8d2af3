/* Order history: a shop's account page renders its order tables in the
 * browser with nunjucks, from templates kept in memory (a small loader
 * serves them by name). The table template includes a row template once per
 * order. Each Show button renders one year's orders. A real regression for
 * zamcap's accuracy experiment (NOTE.md): nunjucks 3.1.0's
 * Environment.getTemplate no longer stores the templates it creates in the
 * loader's cache, so every {% include %} makes a new Template, which lexes,
 * parses and compiles the row template again when it renders; 3.0.1
 * compiled it once. */
'use strict';

const YEARS = [2023, 2024, 2025];
const ORDERS_PER_YEAR = 320;
const PRODUCTS = ['Espresso beans', 'Filter papers', 'Milk jug', 'Grinder burr set', 'Descaler',
  'Travel mug', 'Cold brew kit', 'Tamper', 'Scale', 'Kettle', 'Cleaning tablets', 'Dosing cup'];
const STATUSES = ['delivered', 'delivered', 'delivered', 'returned', 'cancelled', 'in transit'];
const CARRIERS = ['Parcelo', 'Swiftpost', 'Northline'];

const TEMPLATES = {
  'orders.njk':
    '<h2>{{ year }}: {{ orders | length }} orders</h2>\n' +
    '<table class="orders"><tbody>\n' +
    '{% for order in orders %}{% include "order-row.njk" %}{% endfor %}\n' +
    '</tbody></table>\n',
  'order-row.njk':
    '<tr class="order {{ order.status | replace(" ", "-") }}{% if loop.last %} last{% endif %}">\n' +
    '  <td>{{ order.number }}</td>\n' +
    '  <td>{{ order.date | default("-") }}</td>\n' +
    '  <td>{% for line in order.lines %}{{ line.qty }} x {{ line.product | escape }}' +
    '{% if not loop.last %}, {% endif %}{% endfor %}</td>\n' +
    '  <td class="num">{{ (order.total / 100) | round(2) }} {{ order.currency | upper }}</td>\n' +
    '  <td>{% if order.status == "delivered" %}Delivered by {{ order.carrier }}' +
    '{% elif order.status == "returned" %}Returned ({{ order.refund | default(0) }} refunded)' +
    '{% elif order.status == "cancelled" %}Cancelled{% else %}On its way with {{ order.carrier }}{% endif %}</td>\n' +
    '  <td>{% set points = (order.total / 500) | int %}{{ points }} point{% if points != 1 %}s{% endif %}</td>\n' +
    '  <td>{% if order.gift %}<span class="gift" title="{{ order.giftNote | truncate(30) }}">gift</span>' +
    '{% endif %}{% if order.lines | length > 3 %}<span class="big">{{ order.lines | length }} items</span>{% endif %}</td>\n' +
    '</tr>\n'
};

const state = {env: null, years: [], shown: 0};

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

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function makeOrder(rand, year, number) {
  const lines = [];
  const count = 1 + Math.floor(rand() * 5);
  let total = 0;
  for (let l = 0; l < count; l++) {
    const qty = 1 + Math.floor(rand() * 3);
    const price = 300 + Math.floor(rand() * 4000);
    total += qty * price;
    lines.push({product: pick(rand, PRODUCTS), qty: qty, price: price});
  }
  const status = pick(rand, STATUSES);
  return {
    number: 'A' + year + '-' + String(number).padStart(4, '0'),
    date: year + '-' + String(1 + Math.floor(rand() * 12)).padStart(2, '0') + '-' +
          String(1 + Math.floor(rand() * 28)).padStart(2, '0'),
    lines: lines, total: total, currency: 'eur', status: status, carrier: pick(rand, CARRIERS),
    refund: status === 'returned' ? Math.round(total / 100) : 0,
    gift: rand() < 0.15, giftNote: 'Happy birthday, enjoy the coffee and the new gear!'
  };
}

function makeYear(index) {
  const rand = seededRandom(4100 + index);
  const orders = [];
  for (let n = 1; n <= ORDERS_PER_YEAR; n++) orders.push(makeOrder(rand, YEARS[index], n));
  return orders;
}

/* An in-memory loader: returns each template's source by name. */
const MemoryLoader = nunjucks.Loader.extend({
  getSource: function getSource(name) {
    if (!Object.prototype.hasOwnProperty.call(TEMPLATES, name)) return null;
    return {src: TEMPLATES[name], path: name, noCache: false};
  }
});

function renderYear(index) {
  return state.env.render('orders.njk', {year: YEARS[index], orders: state.years[index]});
}

function onShowClick(event) {
  const index = Number(event.currentTarget.dataset.year);
  document.getElementById('orders').innerHTML = renderYear(index);
  state.shown++;
  document.getElementById('status').textContent = YEARS[index] + ': ' + state.years[index].length + ' orders';
  document.body.dataset.shown = String(state.shown);
}

function main() {
  state.env = new nunjucks.Environment(new MemoryLoader(), {autoescape: true});
  YEARS.forEach(function addYear(year, index) {
    state.years.push(makeYear(index));
    const b = document.getElementById('show' + index);
    b.dataset.year = String(index);
    b.addEventListener('click', onShowClick);
  });
  document.body.dataset.ready = '1';
}

main();
