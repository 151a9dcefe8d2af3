/* Help desk queues: a Vue 2 table whose every cell text comes from
 * vue-i18n's $t. The catalog holds the help desk's strings in two
 * languages (seeded, the same on every load). Each Show button swaps the
 * table to one queue of tickets; Vue re-renders the rows and each row calls
 * $t five times. A real regression for zamcap's accuracy experiment
 * (NOTE.md). */
'use strict';

const QUEUES = ['billing', 'shipping', 'returns'];
const SECTIONS = 30;   /* message sections per language */
const KEYS = 50;       /* messages per section */
const ROWS = 45;       /* tickets per queue */

const WORDS = ['order', 'invoice', 'parcel', 'refund', 'account', 'delivery',
  'address', 'payment', 'courier', 'label', 'warranty', 'discount', 'receipt',
  'customer', 'tracking', 'exchange', 'voucher', 'balance', 'return', 'item'];

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

function phrase(rand, n) {
  const w = [];
  for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(rand() * WORDS.length)]);
  return w.join(' ');
}

/* A catalog of SECTIONS x KEYS strings for one language, plus the table
 * header strings. Notes take two list arguments ({0} customer, {1} days). */
function makeCatalog(lang, seed) {
  const rand = seededRandom(seed);
  const cat = {
    ui: {ticket: lang + ' ticket', topic: lang + ' topic', state: lang + ' state',
      priority: lang + ' priority', channel: lang + ' channel', note: lang + ' note'}
  };
  for (let s = 0; s < SECTIONS; s++) {
    const sec = {};
    for (let k = 0; k < KEYS; k++) {
      sec['m' + k] = '[' + lang + '] ' + phrase(rand, 5) +
        (k % 5 === 4 ? ' for {0}, open {1} days' : '');
    }
    cat['s' + s] = sec;
  }
  return cat;
}

function key(rand, kind) {
  const s = Math.floor(rand() * SECTIONS);
  let k = Math.floor(rand() * KEYS);
  if (kind === 'note') k = k - (k % 5) + 4;
  else if (k % 5 === 4) k -= 1;
  return 's' + s + '.m' + k;
}

function makeQueue(index) {
  const rand = seededRandom(7100 + index * 31);
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    rows.push({
      id: QUEUES[index].slice(0, 3).toUpperCase() + '-' + (1000 + i),
      topic: key(rand), state: key(rand), priority: key(rand),
      channel: key(rand), note: key(rand, 'note'),
      customer: 'C' + Math.floor(rand() * 9000 + 1000),
      days: 1 + Math.floor(rand() * 30)
    });
  }
  return rows;
}

Vue.use(VueI18n);
const i18n = new VueI18n({
  locale: 'en',
  messages: {en: makeCatalog('en', 11), de: makeCatalog('de', 23)}
});
const app = new Vue({el: '#app', i18n: i18n, data: {rows: []}});
let shown = 0;

function showQueue(index) {
  const t0 = performance.now();
  app.rows = makeQueue(index);
  Vue.nextTick(function () {
    shown++;
    const cells = app.$el.querySelectorAll('tbody td');
    let chars = 0;
    for (let i = 0; i < cells.length; i++) chars += cells[i].textContent.length;
    document.getElementById('status').textContent =
      QUEUES[index] + ': ' + app.rows.length + ' tickets, ' + chars +
      ' characters of text, ' + Math.round(performance.now() - t0) + ' ms';
    document.body.setAttribute('data-shown', String(shown));
  });
}

for (let i = 0; i < QUEUES.length; i++) {
  document.getElementById('show' + i).addEventListener('click', function () { showQueue(i); });
}
document.body.dataset.ready = '1';
