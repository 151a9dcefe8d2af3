/* Order board: a seeded list of orders from customers in many regions. Each
 * Show button renders one region's orders as a table in which every row is
 * written in its customer's own language (a region-tagged code such as
 * zh-Hant-TW or sr-Latn-RS), so every cell is an i18next t() call with a
 * per-row lng. The data and the output are the same on every load.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const REGIONS = [
  {name: 'Asia', locales: ['zh-Hant-TW', 'zh-Hans-CN', 'ja-JP', 'ko-KR', 'zh-Hant-HK']},
  {name: 'Europe', locales: ['sr-Latn-RS', 'de-CH', 'fr-BE', 'pt-PT', 'az-Cyrl-AZ']},
  {name: 'Americas', locales: ['pt-BR', 'es-MX', 'en-CA', 'fr-CA', 'es-419']}
];
const ROWS = 7000;     /* orders per region */
const STATUSES = ['pending', 'packed', 'shipped', 'delivered', 'returned'];
const NAMES = ['Mei', 'Jun', 'Ana', 'Luka', 'Sofia', 'Kenji', 'Noah', 'Ines',
  'Marta', 'Omar', 'Hana', 'Diego', 'Lea', 'Ivan', 'Yuki', 'Caio'];

const state = {i18n: null, shown: 0};

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

/* One small catalogue per locale; the strings are tagged with the locale so
 * that the output shows which bundle answered. */
function catalogue(tag) {
  const tr = {};
  for (let i = 0; i < STATUSES.length; i++) tr['status_' + STATUSES[i]] = '[' + tag + '] ' + STATUSES[i];
  tr.items_one = '[' + tag + '] {{count}} item';
  tr.items_other = '[' + tag + '] {{count}} items';
  tr.eta = '[' + tag + '] arrives in {{days}} d';
  tr.greeting = '[' + tag + '] dear {{name}}';
  return {translation: tr};
}

function makeOrders(regionIndex) {
  const rand = seededRandom(7100 + regionIndex * 31);
  const locales = REGIONS[regionIndex].locales;
  const orders = [];
  for (let i = 0; i < ROWS; i++) {
    orders.push({
      id: regionIndex * 100000 + i,
      lng: locales[Math.floor(rand() * locales.length)],
      status: STATUSES[Math.floor(rand() * STATUSES.length)],
      items: 1 + Math.floor(rand() * 9),
      days: Math.floor(rand() * 14),
      name: NAMES[Math.floor(rand() * NAMES.length)]
    });
  }
  return orders;
}

function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function renderRow(t, o) {
  const opts = {lng: o.lng};
  const cells = [
    '#' + o.id,
    t('greeting', {lng: o.lng, name: o.name}),
    t('status_' + o.status, opts),
    t('items', {lng: o.lng, count: o.items}),
    t('eta', {lng: o.lng, days: o.days})
  ];
  let html = '<tr>';
  for (let i = 0; i < cells.length; i++) html += '<td>' + escapeHtml(cells[i]) + '</td>';
  return html + '</tr>';
}

function showRegion(index) {
  const t0 = performance.now();
  const orders = makeOrders(index);
  const t = state.i18n.t.bind(state.i18n);
  const rows = [];
  let chars = 0;
  for (let i = 0; i < orders.length; i++) {
    const row = renderRow(t, orders[i]);
    chars += row.length;
    rows.push(row);
  }
  document.getElementById('board').innerHTML = '<table>' + rows.join('') + '</table>';
  state.shown++;
  document.getElementById('status').textContent =
    REGIONS[index].name + ': ' + orders.length + ' orders, ' + chars + ' chars, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  const resources = {en: catalogue('en')};
  for (let r = 0; r < REGIONS.length; r++) {
    for (let i = 0; i < REGIONS[r].locales.length; i++) {
      const tag = REGIONS[r].locales[i];
      resources[tag] = catalogue(tag);
    }
  }
  state.i18n = i18next.createInstance();
  state.i18n.init({resources: resources, lng: 'en', fallbackLng: 'en', initImmediate: false});
  for (let i = 0; i < REGIONS.length; i++) {
    document.getElementById('show' + i).addEventListener('click', function onShow() { showRegion(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
