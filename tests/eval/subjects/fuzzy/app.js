/* Book finder: fuzzy search over a book catalog, built on Fuse.js (npm,
 * loaded unminified from lib/fuse.js). An eval subject for zamcap's accuracy
 * experiment (tests/eval/README.md).
 *
 * The catalog is generated on load (a seeded generator: every load is the
 * same) but not indexed. "Open the catalog" builds the Fuse index and
 * enables the search box; every keystroke searches titles, authors and
 * tags, renders the best matches with the matched characters marked, and
 * counts the results' tags; "Newest first" re-sorts the current results.
 *
 * Background work, the same in every build: a reading-list tick every
 * 600 ms and a fake asynchronous "recent searches" save per keystroke. */
'use strict';

const BOOK_COUNT = 1500;
const MAX_RESULTS = 20;
const ADJECTIVES = ['Silver', 'Hidden', 'Broken', 'Silent', 'Golden', 'Distant',
                    'Crimson', 'Frozen', 'Wandering', 'Forgotten', 'Burning', 'Hollow'];
const NOUNS = ['River', 'Garden', 'Empire', 'Lantern', 'Harbor', 'Citadel',
               'Orchard', 'Compass', 'Archive', 'Meadow', 'Tower', 'Voyage'];
const PLACES = ['the North', 'Avalon', 'the Marsh', 'Kestrel Bay', 'the Old Road',
                'Tarrow', 'the Salt Coast', 'Elmsworth', 'the High Pass'];
const FIRST = ['Ada', 'Bruno', 'Clara', 'Dmitri', 'Elena', 'Farid', 'Greta',
               'Hiro', 'Ines', 'Jonas', 'Keiko', 'Luis'];
const LAST = ['Tolliver', 'Okafor', 'Lindqvist', 'Moreau', 'Santos', 'Whitcombe',
              'Nakamura', 'Petrov', 'Haddad', 'Brennan', 'Castellano', 'Varga'];
const TAGS = ['fantasy', 'history', 'mystery', 'travel', 'poetry', 'science',
              'romance', 'war', 'cooking', 'biography'];

const state = {books: [], fuse: null, query: '', results: [], newestFirst: false,
               recent: [], ticks: 0, readingList: []};

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

function pick(rand, list) { return list[Math.floor(rand() * list.length)]; }

function makeBook(rand, id) {
  const title = 'The ' + pick(rand, ADJECTIVES) + ' ' + pick(rand, NOUNS) + ' of ' + pick(rand, PLACES);
  return {id: id, title: title, author: pick(rand, FIRST) + ' ' + pick(rand, LAST),
          year: 1900 + Math.floor(rand() * 124), tags: [pick(rand, TAGS), pick(rand, TAGS)]};
}

function makeCatalog(count) {
  const rand = seededRandom(1812);
  const books = [];
  for (let i = 0; i < count; i++) books.push(makeBook(rand, i + 1));
  return books;
}

/* ---- searching ---- */

function buildIndex(books) {
  return new Fuse(books, {
    keys: [{name: 'title', weight: 2}, 'author', 'tags'],
    includeMatches: true,
    includeScore: true,
    threshold: 0.34,
    ignoreLocation: true,
    minMatchCharLength: 2,
  });
}

function searchBooks(query) {
  if (query.length < 2) return [];
  return state.fuse.search(query, {limit: 200});
}

function orderResults(results) {
  if (!state.newestFirst) return results;
  return results.slice().sort(function byYear(a, b) { return b.item.year - a.item.year; });
}

/* ---- rendering ---- */

function markIndices(text, indices) {
  let html = '', last = 0;
  for (const [start, end] of indices) {
    if (start < last) continue;
    html += escapeHtml(text.slice(last, start)) + '<mark>' +
            escapeHtml(text.slice(start, end + 1)) + '</mark>';
    last = end + 1;
  }
  return html + escapeHtml(text.slice(last));
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function renderMatch(result) {
  const book = result.item;
  const byKey = {};
  for (const match of result.matches || [])
    if (match.key !== 'tags') byKey[match.key] = match.indices;
  return '<li data-id="' + book.id + '"><span class="title">' +
         markIndices(book.title, byKey.title || []) + '</span><span class="author">' +
         markIndices(book.author, byKey.author || []) + '</span><span class="year">' +
         book.year + ', score ' + result.score.toFixed(3) + '</span></li>';
}

function renderResults(results) {
  const list = document.getElementById('results');
  list.innerHTML = results.slice(0, MAX_RESULTS).map(renderMatch).join('');
  list.dataset.query = state.query;
  list.dataset.order = state.newestFirst ? 'year' : 'score';
}

function countFacets(results) {
  const counts = new Map();
  for (const result of results)
    for (const tag of result.item.tags) counts.set(tag, (counts.get(tag) || 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

function renderFacets(facets) {
  document.getElementById('facets').innerHTML =
      facets.map(([tag, count]) => '<li>' + tag + ' (' + count + ')</li>').join('');
}

function updateResults() {
  state.results = orderResults(searchBooks(state.query));
  renderResults(state.results);
  renderFacets(countFacets(state.results));
  document.getElementById('status').textContent =
      state.results.length + ' books match "' + state.query + '"';
}

/* ---- event handlers ---- */

function onOpenCatalogClick() {
  state.fuse = buildIndex(state.books);
  const query = document.getElementById('query');
  query.disabled = false;
  document.getElementById('status').textContent = state.books.length + ' books indexed';
  document.getElementById('status').dataset.ready = 'yes';
}

function onQueryInput(event) {
  state.query = event.target.value.trim();
  updateResults();
  rememberSearch(state.query);
}

function onNewestFirstChange(event) {
  state.newestFirst = event.target.checked;
  updateResults();
}

/* ---- noise: reading-list tick and a fake asynchronous save ---- */

function readingListTick() {
  state.ticks++;
  const decade = new Map();
  for (const book of state.books) {
    const d = book.year - book.year % 10;
    decade.set(d, (decade.get(d) || 0) + 1);
  }
  document.body.dataset.decades = String(decade.size);
}

function storeRecent(list) { state.recent = list; }

function rememberSearch(query) {
  Promise.resolve([query, ...state.recent].slice(0, 8)).then(storeRecent);
  new Promise(function waitForServer(resolve) {
    setTimeout(resolve, Date.now() % 5, query);
  }).then(function onSearchLogged(q) { document.body.dataset.lastQuery = q; });
}

/* ---- start ---- */

function startApp() {
  state.books = makeCatalog(BOOK_COUNT);
  document.getElementById('open-catalog').addEventListener('click', onOpenCatalogClick);
  document.getElementById('query').addEventListener('input', onQueryInput);
  document.getElementById('opt-year').addEventListener('change', onNewestFirstChange);
  setInterval(readingListTick, 600);
}

startApp();
