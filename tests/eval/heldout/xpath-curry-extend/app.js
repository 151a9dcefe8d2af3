/* Supplier feed audit: a shop's back office receives product feeds from
 * its suppliers as XML and audits each one with a list of XPath checks
 * (products of a category, items priced over a limit, missing stock,
 * discontinued lines, ...). Each feed button builds that supplier's feed,
 * parses it with the browser's DOMParser and runs the checks with the
 * xpath package, then lists the results. A real regression for zamcap's
 * accuracy experiment (NOTE.md): xpath 0.0.25-0.0.27 evaluate location
 * paths through curried functional helpers and copy the evaluation
 * context for every node a predicate tests; 0.0.24 looped over the nodes
 * with one mutable context. */
'use strict';

const FEEDS = ['Northwind feed', 'Contoso feed', 'Fabrikam feed'];
const PRODUCTS_PER_FEED = 1500;
const CATEGORIES = ['garden', 'kitchen', 'tools', 'lighting', 'storage', 'textiles'];

const CHECKS = [
  ['garden products', "//product[@category='garden']/name"],
  ['priced over 80', "//product[price > 80]/@sku"],
  ['out of stock', "//product[stock/@qty = 0]/name"],
  ['discontinued', "//product[@status='discontinued'][price < 20]/@sku"],
  ['every 10th line', "//product[position() mod 10 = 1]/supplier/ref"],
  ['kitchen count', "count(//product[@category='kitchen'])"]
];

const state = {opened: 0};

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

function buildFeedXml(index) {
  const rand = seededRandom(9001 + index * 313);
  const parts = ['<feed supplier="' + FEEDS[index] + '">'];
  for (let i = 0; i < PRODUCTS_PER_FEED; i++) {
    const category = CATEGORIES[Math.floor(rand() * CATEGORIES.length)];
    const status = rand() < 0.1 ? 'discontinued' : 'active';
    const price = (rand() * 120).toFixed(2);
    const qty = rand() < 0.15 ? 0 : Math.floor(rand() * 500);
    parts.push('<product sku="S' + index + '-' + i + '" category="' + category + '" status="' + status + '">' +
               '<name>Item ' + i + '</name><price>' + price + '</price>' +
               '<stock qty="' + qty + '"/><supplier><ref>R' + (i * 7 % 1000) + '</ref></supplier></product>');
  }
  parts.push('</feed>');
  return parts.join('');
}

function parseFeed(xml) {
  return new DOMParser().parseFromString(xml, 'application/xml');
}

function runCheck(doc, expression) {
  const result = xpath.select(expression, doc);
  return Array.isArray(result) ? result.length + ' nodes' : String(result);
}

function auditFeed(doc) {
  return CHECKS.map(function checkRow(check) {
    return {label: check[0], expression: check[1], result: runCheck(doc, check[1])};
  });
}

function renderRows(rows) {
  const body = document.getElementById('rows');
  body.textContent = '';
  for (const row of rows) {
    const tr = document.createElement('tr');
    for (const text of [row.label, row.expression, row.result]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function onFeedClick(index) {
  const doc = parseFeed(buildFeedXml(index));
  const rows = auditFeed(doc);
  renderRows(rows);
  state.opened += 1;
  document.getElementById('status').textContent = FEEDS[index] + ': ' + rows.length + ' checks';
  document.body.dataset.opened = String(state.opened);
}

function setup() {
  const nav = document.getElementById('feeds');
  FEEDS.forEach(function addButton(label, index) {
    const button = document.createElement('button');
    button.id = 'feed' + index;
    button.textContent = label;
    button.addEventListener('click', function () { onFeedClick(index); });
    nav.appendChild(button);
  });
  document.body.dataset.ready = '1';
}

setup();
