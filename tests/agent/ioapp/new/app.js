// The I/O test app (new build). Against the old one: loadPage fetches each
// item on its own (N+1); the report's endpoint answers ten times more;
// the draft is written to localStorage on every keystroke; storeItems puts
// each item on its own; the statistics' requests are made by statsB
// instead of statsA (the same requests: no cause). The rest is the same.
'use strict';
var ITEMS = 48;
var store = {notes: [], draft: ''};

function show(cls, text) {
  var el = document.getElementById('out');
  el.textContent = text;
  el.className = cls;
}

// N+1: one request per item.
async function loadPage() {
  var items = [];
  for (var id = 1; id <= ITEMS; id++) {
    var r = await fetch('/api/item/' + id);
    items.push(await r.json());
  }
  show('listed', items.length + ' items');
}

// The report (its endpoint now answers ten times more).
async function fetchReport() {
  var r = await fetch('/api/report?fields=summary&token=s3cr3tT0k3nV4lue9');
  var t = await r.text();
  show('reported', t.length + ' bytes');
}

// The whole store is written on every keystroke.
function onDraftInput(e) {
  store.draft = e.target.value;
  saveDraft();
}
function saveDraft() {
  localStorage.setItem('draft', JSON.stringify(store));
}

// Each item is put on its own.
function storeItems(db, items) {
  var tx = db.transaction('items', 'readwrite');
  var os = tx.objectStore('items');
  for (var i = 0; i < items.length; i++) os.put(items[i], items[i].id);
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

// Statistics: the same six requests, now from statsB.
async function statsB() {
  for (var i = 0; i < 6; i++) await fetch('/api/stats?n=' + i);
}
async function onStats() {
  await statsB();
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
