// The I/O test app (old build). Each button does its I/O in a function
// of its own; the new build changes one thing in each (new/app.js says
// what), with about the same CPU time. The data under api/ and img/ is
// written by tests/agent/test_io.c.
'use strict';
var ITEMS = 48;
var store = {notes: [], draft: ''};

function show(cls, text) {
  var el = document.getElementById('out');
  el.textContent = text;
  el.className = cls;
}

// N+1: one request for the page's items.
async function loadPage() {
  var r = await fetch('/api/items?page=1');
  var items = await r.json();
  show('listed', items.length + ' items');
}

// The report, as small as its fields ask (a token in the URL).
async function fetchReport() {
  var r = await fetch('/api/report?fields=summary&token=s3cr3tT0k3nV4lue9');
  var t = await r.text();
  show('reported', t.length + ' bytes');
}

// The draft is kept in memory as it is typed, and saved once.
function onDraftInput(e) {
  store.draft = e.target.value;
}
function saveDraft() {
  localStorage.setItem('draft', JSON.stringify(store));
}

// The items go to IndexedDB in one put.
function storeItems(db, items) {
  var tx = db.transaction('items', 'readwrite');
  tx.objectStore('items').put(items, 'all');
  return new Promise(function (ok) { tx.oncomplete = ok; });
}
function onSave() {
  saveDraft();
  var req = indexedDB.open('io-test', 1);
  req.onupgradeneeded = function () { req.result.createObjectStore('items'); };
  req.onsuccess = async function () {
    var items = [];
    for (var i = 1; i <= ITEMS; i++) items.push({id: i, name: 'item ' + i});
    await storeItems(req.result, items);
    show('saved', 'saved');
  };
}

// Statistics: six requests, from statsA.
async function statsA() {
  for (var i = 0; i < 6; i++) await fetch('/api/stats?n=' + i);
}
async function onStats() {
  await statsA();
  show('counted', 'counted');
}

// Requests a cache serves (the service worker's) and requests that fail
// (a 404, a port Chrome refuses), alike in both builds.
async function cachedFetch() {
  var sw = navigator.serviceWorker;
  await sw.register('sw.js');
  await sw.ready;
  if (!sw.controller)
    await new Promise(function (ok) {
      sw.addEventListener('controllerchange', ok, {once: true});
    });
  await fetch('/api/cached');
}
async function onMisc() {
  await cachedFetch();
  await fetch('/api/missing').catch(function () {});
  await fetch('http://127.0.0.1:9/nothing').catch(function () {});
  show('misc', 'misc');
}

document.getElementById('list').addEventListener('click', loadPage);
document.getElementById('report').addEventListener('click', fetchReport);
document.getElementById('draft').addEventListener('input', onDraftInput);
document.getElementById('save').addEventListener('click', onSave);
document.getElementById('stats').addEventListener('click', onStats);
document.getElementById('misc').addEventListener('click', onMisc);
