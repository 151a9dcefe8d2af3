/* Stock report: three depots, each with a seeded list of products (the same
 * on every load). Opening a depot writes one line per product, in words,
 * through i18next's plural keys: "3 boxes, 1 pallet, back in 2 days".
 * The resources carry both key styles (item / item_plural for i18next 20,
 * item_one / item_other for 21), so both versions print the same text.
 * A held-out real regression for zamcap's accuracy experiment
 * (tests/eval/heldout/i18next-pluralrules/NOTE.md): i18next 21 builds a new
 * Intl.PluralRules for every plural lookup; 20 looked its rules up in a
 * table built once. */
'use strict';

const DEPOTS = ['North', 'Harbour', 'Airport'];
const PRODUCTS = 1300;
const SHOWN = 30;
const NAMES = ['bolt', 'hinge', 'bracket', 'washer', 'spring', 'clamp', 'rivet', 'gasket'];

const state = {depots: {}, opened: 0};

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

function makeDepot(index) {
  const rand = seededRandom(700 + index);
  const products = [];
  for (let i = 0; i < PRODUCTS; i++) {
    products.push({sku: 'SKU-' + (index * 10000 + i),
                   name: NAMES[Math.floor(rand() * NAMES.length)],
                   boxes: Math.floor(rand() * 4), pallets: Math.floor(rand() * 3),
                   days: 1 + Math.floor(rand() * 3)});
  }
  return products;
}

function pluralPair(one, other) {
  return {one: one, other: other};
}

function makeResources() {
  const words = {box: pluralPair('{{count}} box', '{{count}} boxes'),
                 pallet: pluralPair('{{count}} pallet', '{{count}} pallets'),
                 day: pluralPair('back in {{count}} day', 'back in {{count}} days')};
  const translation = {};
  Object.keys(words).forEach(function addKey(key) {
    translation[key] = words[key].one;
    translation[key + '_plural'] = words[key].other;
    translation[key + '_one'] = words[key].one;
    translation[key + '_other'] = words[key].other;
  });
  return {en: {translation: translation}};
}

function describeStock(p) {
  return i18next.t('box', {count: p.boxes}) + ', ' + i18next.t('pallet', {count: p.pallets}) +
         ', ' + i18next.t('day', {count: p.days});
}

function reportDepot(products) {
  return products.map(function reportLine(p) {
    return {sku: p.sku, name: p.name, text: describeStock(p)};
  });
}

function renderReport(lines) {
  document.getElementById('rows').innerHTML = lines.slice(0, SHOWN).map(function lineRow(l) {
    return '<tr><td>' + l.sku + '</td><td>' + l.name + '</td><td>' + l.text + '</td></tr>';
  }).join('');
}

function onDepotClick(event) {
  const name = event.target.dataset.depot;
  if (!name) return;
  const lines = reportDepot(state.depots[name]);
  renderReport(lines);
  let chars = 0;
  for (const l of lines) chars += l.text.length;
  document.getElementById('status').textContent = name + ': ' + lines.length + ' products, ' +
                                                  chars + ' characters';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  i18next.init({lng: 'en', initImmediate: false, resources: makeResources()});
  const nav = document.getElementById('depots');
  DEPOTS.forEach(function addDepot(name, index) {
    state.depots[name] = makeDepot(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.depot = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onDepotClick);
  document.body.dataset.ready = '1';
}

main();
