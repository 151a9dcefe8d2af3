// The explore demo (tests/agent/exploreapp/README.md): a table of
// products, as many as the page's ?rows= asks, searched by the words
// typed into #search. Both builds do the same work, but for one
// combination of inputs (see new/app.js).
'use strict';

var WORDS = ['red', 'blue', 'green', 'shoes', 'boots', 'hat', 'scarf',
             'wool', 'leather', 'summer', 'winter', 'sale'];
var params = new URLSearchParams(location.search);
var ROWS = Math.max(1, Math.min(5000, parseInt(params.get('rows') || '10', 10)));
var state = { rows: [], tab: 'all' };

// A seeded generator: every load makes the same table.
function makeRows(n) {
  var seed = 7, rows = [];
  function next() {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  }
  for (var i = 0; i < n; i++) {
    var name = WORDS[next() % WORDS.length] + ' ' +
               WORDS[next() % WORDS.length] + ' ' + i;
    rows.push({ id: i, name: name, price: next() % 200 });
  }
  return rows;
}

function tokenize(query) {
  return query.toLowerCase().split(' ').filter(Boolean);
}

function matchRow(row, terms) {
  for (var k = 0; k < terms.length; k++)
    if (row.name.indexOf(terms[k]) < 0) return false;
  return true;
}

function filterRows(rows, terms) {
  var out = [];
  for (var i = 0; i < rows.length; i++)
    if (matchRow(rows[i], terms)) out.push(rows[i]);
  return out;
}

function renderResults(hits, query) {
  var html = '';
  for (var i = 0; i < hits.length && i < 200; i++)
    html += '<tr><td>' + hits[i].name + '</td><td>' + hits[i].price +
            '</td></tr>';
  var body = document.getElementById('results');
  body.innerHTML = html;
  body.setAttribute('data-count', String(hits.length));
  body.setAttribute('data-query', query);
}

function rankHits(hits, terms) {
  return hits;
}

function onSearch() {
  var query = document.getElementById('search').value;
  var terms = tokenize(query);
  var hits = filterRows(state.rows, terms);
  hits = rankHits(hits, terms);
  renderResults(hits, query);
}

function onNote() {
  document.getElementById('status').textContent =
      document.getElementById('note').value;
}

state.rows = makeRows(ROWS);
// The search runs once typing pauses (the replay types a character at a
// time, each an input event).
var pending = 0;
document.getElementById('search').addEventListener('input', function () {
  clearTimeout(pending);
  pending = setTimeout(onSearch, 30);
});
document.getElementById('note').addEventListener('input', onNote);
['all', 'sale'].forEach(function (t) {
  document.getElementById('tab-' + t).addEventListener('click', function () {
    state.tab = t;
    document.body.setAttribute('data-tab', t);
  });
});
