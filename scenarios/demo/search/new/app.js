/* Product search: search-as-you-type over a catalog of 3,000 products, the
 * zamcap demo app (NEW build).
 *
 * NEW: highlighting is accent-insensitive ("retro" highlights "Rétro"), and
 * highlightMatches builds the pattern again for every name and category:
 * buildHighlightPattern asks Intl.Collator about every Latin letter for
 * every query character, a large alternation. The regression zamcap finds.
 *
 * On load it generates the catalog (every style x material x item, shuffled
 * with a seeded generator, prices from the same generator) and waits for
 * input. Each keystroke filters the catalog (accent- and case-insensitive
 * substring match on name and category), sorts the matches by relevance,
 * renders the first MAX_RESULTS and highlights the query in them.
 *
 * Background work that has nothing to do with the regression, present in
 * both builds alike: a clock that ticks every 500 ms and refreshes catalog
 * statistics, a mouseover preview on results, and per query a fake
 * asynchronous "recent searches" save and suggestion request whose promise
 * callbacks settle in an order that varies from run to run. */
'use strict';

const MAX_RESULTS = 25;
const STYLES = ['Rustic', 'Modern', 'Classic', 'Compact', 'Deluxe', 'Vintage',
                'Nordic', 'Urban', 'Cozy', 'Sleek', 'Sturdy', 'Elegant',
                'Handmade', 'Minimal', 'Rétro'];
const MATERIALS = ['Oak', 'Walnut', 'Bamboo', 'Steel', 'Brass', 'Linen',
                   'Marble', 'Leather', 'Ceramic', 'Glass'];
const ITEMS = [['Lamp', 'lighting'], ['Floor Lamp', 'lighting'],
               ['Chair', 'seating'], ['Stool', 'seating'],
               ['Bench', 'seating'], ['Sofa', 'seating'],
               ['Table', 'tables'], ['Desk', 'tables'],
               ['Side Table', 'tables'], ['Étagère', 'storage'],
               ['Cabinet', 'storage'], ['Dresser', 'storage'],
               ['Basket', 'storage'], ['Mirror', 'decor'],
               ['Clock', 'decor'], ['Vase', 'decor'], ['Frame', 'decor'],
               ['Tray', 'decor'], ['Planter', 'garden'], ['Rug', 'textiles']];

const state = {products: [], query: '', queryKey: '', hoveredId: 0,
               recent: [], suggestedFor: ''};

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

/* "Rétro Oak Étagère" -> "retro oak etagere": what searching compares. */
function foldAccents(text) {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

function makeCatalog() {
  const rand = seededRandom(3000);
  const products = [];
  for (const style of STYLES)
    for (const material of MATERIALS)
      for (const [item, category] of ITEMS) {
        const name = [style, material, item].join(' ');
        products.push({id: products.length + 1, name: name,
                       key: foldAccents(name + ' ' + category),
                       category: category,
                       price: Math.round(1500 + rand() * 48500) / 100});
      }
  for (let i = products.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const swap = products[i];
    products[i] = products[j];
    products[j] = swap;
  }
  return products;
}

/* ---- searching ---- */

/* Matches that start with the query first, then the cheaper first. */
function compareRelevance(a, b) {
  const key = state.queryKey;
  return (b.key.startsWith(key) - a.key.startsWith(key)) || a.price - b.price;
}

function matchProducts(query) {
  state.queryKey = foldAccents(query.trim());
  const matches = [];
  for (const product of state.products)
    if (product.key.includes(state.queryKey)) matches.push(product);
  return matches.sort(compareRelevance);
}

/* ---- highlighting ---- */

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/* Every Latin letter: Basic Latin to IPA Extensions, Latin Extended
 * Additional, Latin Extended-C, -D and -E, and the fullwidth forms. */
const LATIN_BLOCKS = [[0x41, 0x2af], [0x1e00, 0x1eff], [0x2c60, 0x2c7f],
                      [0xa720, 0xa7ff], [0xab30, 0xab6f], [0xff21, 0xff5a]];

function makeLatinLetters() {
  const letters = [];
  for (const [first, last] of LATIN_BLOCKS)
    for (let code = first; code <= last; code++) {
      const letter = String.fromCharCode(code);
      if (/\p{L}/u.test(letter)) letters.push(letter);
    }
  return letters;
}

const LATIN_LETTERS = makeLatinLetters();
const BASE_COLLATOR = new Intl.Collator('en', {sensitivity: 'base'});

/* The query, case- and accent-insensitive: each character becomes the
 * alternation of the Latin letters that collate equal to it,
 * "re" -> (?:R|r|Ŕ|ŕ|...)(?:E|e|È|É|Ê|Ë|è|é|...). */
function buildHighlightPattern(query) {
  let source = '';
  for (const ch of query) {
    const forms = [];
    for (const letter of LATIN_LETTERS)
      if (BASE_COLLATOR.compare(letter, ch) === 0) forms.push(letter);
    source += forms.length ? '(?:' + forms.join('|') + ')' : escapeRegExp(ch);
  }
  return new RegExp(source, 'g');
}

/* Puts text into element with every match of the query in a <mark>. */
function highlightMatches(element, text, query) {
  const pattern = buildHighlightPattern(query);
  const parts = [];
  let last = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m && m[0]; m = pattern.exec(text)) {
    const mark = document.createElement('mark');
    mark.textContent = m[0];
    parts.push(text.slice(last, m.index), mark);
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  element.replaceChildren(...parts);
}

/* A row's first two children are the name and the category. */
function highlightResults(rows, products, query) {
  for (let i = 0; i < rows.length; i++) {
    highlightMatches(rows[i].children[0], products[i].name, query);
    highlightMatches(rows[i].children[1], products[i].category, query);
  }
}

/* ---- rendering ---- */

function formatPrice(price) { return '€' + price.toFixed(2); }

function createResultRow(product) {
  const row = document.createElement('li');
  row.className = 'result';
  row.dataset.id = String(product.id);
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = product.name;
  const category = document.createElement('span');
  category.className = 'category';
  category.textContent = product.category;
  const price = document.createElement('span');
  price.className = 'price';
  price.textContent = formatPrice(product.price);
  row.append(name, category, price);
  return row;
}

function renderResults(query) {
  const matches = query ? matchProducts(query) : [];
  const page = matches.slice(0, MAX_RESULTS);
  const rows = [];
  for (const product of page) rows.push(createResultRow(product));
  if (query) highlightResults(rows, page, query);
  const list = document.getElementById('results');
  list.replaceChildren(...rows);
  list.dataset.query = query;
  document.getElementById('result-count').textContent = query
      ? matches.length + ' results for "' + query + '"'
      : 'Type to search';
}

function updateResults(query) {
  state.query = query;
  renderResults(query.trim() ? query : '');
  rememberSearch(query);
}

function onSearchInput(event) {
  updateResults(event.target.value);
}

/* ---- noise: hover preview ---- */

function findProduct(id) {
  for (const product of state.products) if (product.id === id) return product;
  return null;
}

function countInCategory(category) {
  let count = 0;
  for (const product of state.products) count += product.category === category;
  return count;
}

function onResultMouseOver(event) {
  const row = event.target.closest('.result');
  if (!row || Number(row.dataset.id) === state.hoveredId) return;
  const previous = document.querySelector('.result.hovered');
  if (previous) previous.classList.remove('hovered');
  row.classList.add('hovered');
  state.hoveredId = Number(row.dataset.id);
  const product = findProduct(state.hoveredId);
  document.getElementById('preview').textContent = product
      ? formatPrice(product.price * 1.2) + ' incl. VAT, one of ' +
        countInCategory(product.category) + ' in ' + product.category
      : '';
}

/* ---- noise: clock and catalog statistics, every 500 ms ---- */

function computeCatalogStats() {
  const sums = new Map();
  for (const product of state.products) {
    const entry = sums.get(product.category) || {count: 0, total: 0};
    entry.count++;
    entry.total += product.price;
    sums.set(product.category, entry);
  }
  let cheapest = '', lowest = Infinity;
  for (const [category, entry] of sums)
    if (entry.total / entry.count < lowest) {
      lowest = entry.total / entry.count;
      cheapest = category;
    }
  return {categories: sums.size, cheapest: cheapest, average: lowest};
}

function tickClock() {
  const now = new Date();
  document.getElementById('clock').textContent = now.toTimeString().slice(0, 8);
  const stats = computeCatalogStats();
  document.getElementById('stats').textContent =
      state.products.length + ' products in ' + stats.categories +
      ' categories; cheapest on average: ' + stats.cheapest + ' (' +
      formatPrice(stats.average) + ')';
}

/* ---- noise: recent searches and suggestions, asynchronously ---- */

function fakeRequest(payload, latencyMs) {
  return new Promise(function startRequest(resolve) {
    setTimeout(resolve, latencyMs, payload);
  });
}

/* Typing "lamp" leaves one entry, not "l", "la", "lam", "lamp". */
function storeRecentSearch(query) {
  if (!query.trim() || state.recent[0] === query) return;
  const last = state.recent[0];
  if (last && query.startsWith(last)) state.recent[0] = query;
  else state.recent = [query].concat(state.recent.slice(0, 4));
  document.getElementById('recent').textContent =
      'recent: ' + state.recent.join(', ');
}

function onSuggestionsLoaded(query) { state.suggestedFor = query; }
function onAnalyticsSent(query) { document.body.dataset.lastQuery = query; }

function rememberSearch(query) {
  Promise.resolve(query).then(storeRecentSearch);
  /* The "server" answers after 0-6 ms: the two callbacks below run in an
   * order that depends on the clock. */
  fakeRequest(query, Date.now() % 7).then(onSuggestionsLoaded);
  fakeRequest(query, 3).then(onAnalyticsSent);
}

/* ---- start ---- */

function startApp() {
  state.products = makeCatalog();
  document.getElementById('search').addEventListener('input', onSearchInput);
  document.getElementById('results')
      .addEventListener('mouseover', onResultMouseOver);
  tickClock();
  setInterval(tickClock, 500);
}

startApp();
