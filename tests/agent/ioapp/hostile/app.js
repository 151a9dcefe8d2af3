// The I/O test app's hostile page (test_io's hostile case; the same build
// is old and new). It looks for zamcap's storage wrapper the ways a page
// can, and says what it found by the URL it fetches (/verdict/ok, or
// /verdict/fail-<what>); it replaces fetch, XMLHttpRequest's send and
// Storage's setItem after the wrapper, freezes the prototypes, takes a
// setItem from a fresh frame's realm, and then floods: 100 000 requests,
// 100 MB written to localStorage, 60 000 sessionStorage keys (past the
// capture's caps).
'use strict';
var nativeText = function (f) { return Function.prototype.toString.call(f); };

function checks() {
  var bad = [];
  var set = Storage.prototype.setItem;
  var put = IDBObjectStore.prototype.put;
  var cookieSet = Object.getOwnPropertyDescriptor(Document.prototype,
                                                  'cookie').set;
  var fts = Function.prototype.toString;
  if (set.name !== 'setItem') bad.push('name');
  if (set.length !== 2) bad.push('length');
  if (nativeText(set) !== 'function setItem() { [native code] }')
    bad.push('source');
  if (String(set) !== nativeText(set)) bad.push('string');
  if (nativeText(fts) !== 'function toString() { [native code] }')
    bad.push('tostring');
  if ('prototype' in set) bad.push('prototype');
  if (Object.getOwnPropertyNames(set).sort().join() !== 'length,name')
    bad.push('props');
  try { new set(); bad.push('construct'); } catch (e) {
    if (!(e instanceof TypeError)) bad.push('construct-error');
  }
  if (put.length !== 1 || nativeText(put) !== 'function put() { [native code] }')
    bad.push('idb');
  if (cookieSet.name !== 'set cookie' ||
      nativeText(cookieSet) !== 'function set cookie() { [native code] }')
    bad.push('cookie');
  try { set.call({}, 'a', 'b'); bad.push('receiver'); } catch (e) {
    if (!(e instanceof TypeError)) bad.push('receiver-error');
  }
  return bad;
}

async function onCheck() {
  var bad = checks();
  // replaced after the wrapper: each calls what was there (the wrapper)
  var f = window.fetch;
  window.fetch = function () { return f.apply(this, arguments); };
  var send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (b) { return send.call(this, b); };
  var set = Storage.prototype.setItem;
  Storage.prototype.setItem = function (k, v) { return set.call(this, k, v); };
  for (var i = 0; i < 3; i++) localStorage.setItem('through-page', 'v' + i);
  // frozen: the page still runs, its writes still counted
  Object.freeze(Storage.prototype);
  Object.freeze(Function.prototype);
  localStorage.setItem('after-freeze', 'v');
  // a setItem from another realm
  var frame = document.createElement('iframe');
  document.body.appendChild(frame);
  frame.contentWindow.Storage.prototype.setItem.call(localStorage, 'realm', 'v');
  var x = new XMLHttpRequest();
  x.open('GET', '/verdict/xhr');
  x.send();
  await fetch(bad.length ? '/verdict/fail-' + bad.join('-') : '/verdict/ok');
  document.getElementById('out').className = 'checked';
}

// 100 000 requests, a thousand at a time (each fails at once: a port
// Chrome refuses), 100 MB to localStorage (1 MB strings, 2 bytes a
// character) and 60 000 sessionStorage keys.
async function flood() {
  for (var b = 0; b < 100; b++) {
    var batch = [];
    for (var i = 0; i < 1000; i++)
      batch.push(fetch('http://127.0.0.1:9/flood').catch(function () {}));
    await Promise.all(batch);
  }
  var mb = 'x'.repeat(1 << 19);
  for (var k = 0; k < 100; k++) localStorage.setItem('big', mb);
  var letters = 'abcdefghijklmnopqrstuvwxyz';
  for (var n = 0; n < 60000; n++) {
    var key = '', v = n;
    do { key += letters[v % 26]; v = Math.floor(v / 26); } while (v);
    sessionStorage.setItem('k' + key, '1');
  }
  document.getElementById('out').className = 'flooded';
}

document.getElementById('check').addEventListener('click', onCheck);
document.getElementById('flood').addEventListener('click', flood);
