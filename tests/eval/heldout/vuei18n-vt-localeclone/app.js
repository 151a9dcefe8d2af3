/* Warehouse stock: a Vue 2 page translated with vue-i18n. The app's
 * English messages (seeded, the same on every load) hold the labels of
 * every screen, about a thousand keys; the stock list translates its
 * category, status and unit cells with the v-t directive, as vue-i18n's
 * guide recommends for speed. "Load stock" renders the list; the sort
 * buttons re-render it in another order (keyed rows, so every cell keeps
 * its message key).
 * A real regression for zamcap's accuracy experiment (NOTE.md): since
 * vue-i18n 8.3.1, v-t's update hook asks i18n.getLocaleMessage(locale), a
 * deep copy of the whole locale's messages, and compares it in depth with
 * the copy the element kept, for every v-t element on every re-render. */
'use strict';

const ROWS = 200;
const SCREENS = 40;          /* other screens' message groups */
const KEYS_PER_SCREEN = 25;
const CATEGORIES = ['tools', 'paint', 'garden', 'lighting', 'plumbing', 'fasteners', 'electrical',
                    'flooring', 'kitchen', 'storage', 'safety', 'outdoor'];
const STATUSES = ['in_stock', 'low', 'reserved', 'backorder', 'discontinued', 'inbound'];
const UNITS = ['piece', 'box', 'pack', 'meter', 'liter', 'kilogram', 'roll', 'pair'];
const NOUNS = ['hammer', 'drill', 'brush', 'hose', 'lamp', 'valve', 'screw', 'cable', 'tile', 'shelf',
               'glove', 'bench'];
const ADJECTIVES = ['steel', 'compact', 'heavy', 'blue', 'outdoor', 'quick', 'matte', 'long'];

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

function titleCase(word) {
  return word.split('_').map(function capital(w) { return w.charAt(0).toUpperCase() + w.slice(1); }).join(' ');
}

function makeMessages() {
  const rand = seededRandom(5150);
  const en = {category: {}, status: {}, unit: {}};
  CATEGORIES.forEach(function categoryLabel(c) { en.category[c] = titleCase(c); });
  STATUSES.forEach(function statusLabel(s) { en.status[s] = titleCase(s); });
  UNITS.forEach(function unitLabel(u) { en.unit[u] = 'per ' + u; });
  for (let s = 0; s < SCREENS; s++) {
    const screen = en['screen' + s] = {};
    for (let k = 0; k < KEYS_PER_SCREEN; k++) {
      screen['label' + k] = titleCase(pick(rand, ADJECTIVES)) + ' ' + pick(rand, NOUNS) + ' ' +
                            pick(rand, ['settings', 'report', 'order', 'history', 'notice']) + ' ' + k;
    }
  }
  return {en: en};
}

function makeStock() {
  const rand = seededRandom(9021);
  const items = [];
  for (let i = 0; i < ROWS; i++) {
    items.push({id: 1000 + i, name: titleCase(pick(rand, ADJECTIVES)) + ' ' + pick(rand, NOUNS),
                category: pick(rand, CATEGORIES), status: pick(rand, STATUSES), unit: pick(rand, UNITS),
                stock: Math.floor(rand() * 500), price: Math.round(rand() * 20000) / 100});
  }
  return items;
}

function compareBy(key) {
  return function compareItems(a, b) {
    if (a[key] < b[key]) return -1;
    if (a[key] > b[key]) return 1;
    return a.id - b.id;
  };
}

const TEMPLATE =
  '<div>' +
  '<nav><button type="button" id="load" @click="loadStock">Load stock</button>' +
  '<button type="button" v-for="k in sortKeys" :key="k" :data-sort="k" @click="sortBy(k)">Sort by {{ k }}</button></nav>' +
  '<p id="status">{{ status }}</p>' +
  '<table><tbody>' +
  '<tr v-for="item in sorted" :key="item.id">' +
  '<td>{{ item.id }}</td><td>{{ item.name }}</td>' +
  '<td v-t="\'category.\' + item.category"></td>' +
  '<td v-t="\'status.\' + item.status"></td>' +
  '<td>{{ item.stock }}</td><td v-t="\'unit.\' + item.unit"></td><td>{{ item.price }}</td>' +
  '</tr></tbody></table></div>';

function markRendered(vm) {
  vm.$nextTick(function rendered() {
    vm.clicks++;
    document.body.dataset.opened = String(vm.clicks);
  });
}

function main() {
  Vue.config.productionTip = false;
  Vue.config.devtools = false;
  const i18n = new VueI18n({locale: 'en', messages: makeMessages()});
  const stock = makeStock();
  new Vue({
    el: '#app',
    i18n: i18n,
    template: TEMPLATE,
    data: {items: [], sortKey: 'id', sortKeys: ['name', 'stock', 'price'], status: 'No stock loaded', clicks: 0},
    computed: {
      sorted: function sorted() {
        return this.items.slice().sort(compareBy(this.sortKey));
      }
    },
    methods: {
      loadStock: function loadStock() {
        this.items = stock.slice();
        this.status = this.items.length + ' items';
        markRendered(this);
      },
      sortBy: function sortBy(key) {
        this.sortKey = key;
        this.status = this.items.length + ' items by ' + key;
        markRendered(this);
      }
    }
  });
  document.body.dataset.ready = '1';
}

main();
