/* Help center search: a product's help center keeps three collections of
 * long articles (installation guides, service manuals, release notes),
 * written with a small technical vocabulary. Each Index button builds a
 * lunr search index over one collection (title and body of every article)
 * and runs a few saved searches against it. A real regression for zamcap's
 * accuracy experiment (NOTE.md): lunr 2.0 lets a pipeline function expand
 * one token into several, and its Pipeline.run collects each function's
 * output with `memo.concat(result)` inside a reduce, copying the whole
 * output array once per token; 1.0.0 pushed each token once. */
'use strict';

const COLLECTIONS = ['Guides', 'Manuals', 'Release notes'];
const ARTICLES_PER_COLLECTION = 2;
const WORDS_PER_ARTICLE = 4000;
const SAVED_SEARCHES = ['pump pressure', 'valve seal', 'filter cartridge', 'sensor calibration',
                        'firmware update', 'drain hose'];

const TERMS = ['pump', 'valve', 'seal', 'filter', 'cartridge', 'sensor', 'calibration', 'pressure',
  'firmware', 'update', 'drain', 'hose', 'inlet', 'outlet', 'gasket', 'bracket', 'mount', 'screw',
  'panel', 'display', 'button', 'reset', 'alarm', 'error', 'code', 'cycle', 'rinse', 'heater',
  'thermostat', 'element', 'relay', 'fuse', 'cable', 'connector', 'socket', 'power', 'supply',
  'voltage', 'current', 'motor', 'bearing', 'belt', 'drum', 'door', 'latch', 'lock', 'hinge',
  'spring', 'tank', 'reservoir', 'level', 'float', 'switch', 'timer', 'program', 'setting',
  'menu', 'option', 'network', 'wireless', 'pairing', 'account', 'warranty', 'service', 'technician',
  'install', 'remove', 'replace', 'clean', 'inspect', 'tighten', 'loosen', 'check', 'measure',
  'adjust', 'test', 'restart', 'flush', 'descale', 'lubricate', 'align', 'secure', 'connect',
  'disconnect', 'unit', 'cabinet', 'frame', 'foot', 'leveling', 'water', 'flow', 'leak', 'noise',
  'vibration', 'temperature', 'humidity', 'odor', 'residue', 'scale', 'mineral', 'detergent'];
const FILLERS = ['the', 'and', 'of', 'to', 'a', 'in', 'is', 'it', 'that', 'for', 'with', 'on',
                 'before', 'after', 'then', 'until', 'each', 'both'];

const state = {collections: [], indexed: 0};

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

function makeSentence(rand) {
  const words = [];
  const length = 6 + Math.floor(rand() * 10);
  for (let w = 0; w < length; w++) words.push(rand() < 0.35 ? pick(rand, FILLERS) : pick(rand, TERMS));
  return words;
}

function makeArticle(rand, collection, number) {
  const words = [];
  while (words.length < WORDS_PER_ARTICLE) {
    const sentence = makeSentence(rand);
    sentence[0] = sentence[0].charAt(0).toUpperCase() + sentence[0].slice(1);
    sentence[sentence.length - 1] += '.';
    Array.prototype.push.apply(words, sentence);
  }
  return {
    id: collection.toLowerCase().replace(/ /g, '-') + '-' + number,
    title: collection + ' ' + number + ': ' + pick(rand, TERMS) + ' ' + pick(rand, TERMS),
    body: words.join(' ')
  };
}

function makeCollection(index) {
  const rand = seededRandom(7300 + index);
  const articles = [];
  for (let a = 1; a <= ARTICLES_PER_COLLECTION; a++) articles.push(makeArticle(rand, COLLECTIONS[index], a));
  return articles;
}

function buildIndex(articles) {
  return lunr(function configureIndex() {
    this.ref('id');
    this.field('title');
    this.field('body');
    for (const article of articles) this.add(article);
  });
}

function runSavedSearches(index) {
  return SAVED_SEARCHES.map(function savedSearch(query) {
    const hits = index.search(query);
    return {query: query, hits: hits.length, best: hits.length ? hits[0].ref : '-'};
  });
}

function renderRows(rows) {
  document.getElementById('rows').innerHTML = rows.map(function searchRow(r) {
    return '<tr><td>' + r.query + '</td><td>' + r.hits + ' articles</td><td>' + r.best + '</td></tr>';
  }).join('');
}

function onIndexClick(event) {
  const which = Number(event.currentTarget.dataset.collection);
  const index = buildIndex(state.collections[which]);
  renderRows(runSavedSearches(index));
  state.indexed++;
  document.getElementById('status').textContent = COLLECTIONS[which] + ': ' +
    state.collections[which].length + ' articles indexed';
  document.body.dataset.indexed = String(state.indexed);
}

function main() {
  COLLECTIONS.forEach(function addCollection(name, index) {
    state.collections.push(makeCollection(index));
    const b = document.getElementById('index' + index);
    b.dataset.collection = String(index);
    b.addEventListener('click', onIndexClick);
  });
  document.body.dataset.ready = '1';
}

main();
