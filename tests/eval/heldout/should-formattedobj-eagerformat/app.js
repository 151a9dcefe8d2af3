/* Address book self-check: a small in-memory store of records (contacts and
 * orders, seeded, the same on every load), in the style of the model layers
 * of the time: every record keeps a reference to its store and defines an
 * inspect() method that prints it as "[kind cid]". Each button runs a batch
 * of should.js assertions over the store and lists the records that fail.
 * All property assertions pass; a few seeded records have a bad e-mail
 * address or an empty order, and those checks fail. A real regression for
 * zamcap's accuracy experiment (NOTE.md). */
'use strict';

const CONTACTS = 36;
const ORDERS = 36;
const CITIES = ['Lyon', 'Porto', 'Graz', 'Turku', 'Gdansk', 'Bergen'];
const FIRST = ['Ana', 'Bo', 'Chen', 'Dara', 'Eli', 'Femi', 'Gus', 'Hana', 'Ivo', 'Jun'];
const LAST = ['Okafor', 'Lind', 'Moreau', 'Sato', 'Novak', 'Reyes', 'Berg', 'Kaur'];
const EMAIL = /^[a-z.]+@[a-z]+\.[a-z]{2,}$/;

const state = {store: null, shown: 0};

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

function Record(store, kind, cid, attrs) {
  this.cid = cid;
  this.kind = kind;
  this.attributes = attrs;
  this.store = store;
  this.history = [{at: 0, changed: Object.keys(attrs)}];
}

Record.prototype.get = function get(key) {
  return this.attributes[key];
};

/* The custom inspection hook of Node's util.inspect (and of should.js 4.1.0's
 * copy of it): print the record, not the store it points to. */
Record.prototype.inspect = function inspect() {
  return '[' + this.kind + ' ' + this.cid + ']';
};

function Store(name) {
  this.name = name;
  this.records = [];
  this.byCid = {};
  this.counters = {contact: 0, order: 0};
}

Store.prototype.add = function add(kind, attrs) {
  const cid = kind.charAt(0) + (++this.counters[kind]);
  const record = new Record(this, kind, cid, attrs);
  this.records.push(record);
  this.byCid[cid] = record;
  return record;
};

Store.prototype.ofKind = function ofKind(kind) {
  return this.records.filter(function isKind(r) { return r.kind === kind; });
};

function buildStore() {
  const rand = seededRandom(4242);
  const store = new Store('addressbook');
  for (let i = 0; i < CONTACTS; i++) {
    const first = FIRST[Math.floor(rand() * FIRST.length)];
    const last = LAST[Math.floor(rand() * LAST.length)];
    let email = (first + '.' + last).toLowerCase() + '@example.org';
    if (i % 11 === 5) email = email.replace('@', '.at.');
    store.add('contact', {
      name: first + ' ' + last,
      email: email,
      age: 18 + Math.floor(rand() * 70),
      city: CITIES[Math.floor(rand() * CITIES.length)],
      tags: rand() < 0.5 ? ['customer'] : ['customer', 'newsletter'],
    });
  }
  for (let i = 0; i < ORDERS; i++) {
    const lines = [];
    const n = i % 13 === 7 ? 0 : 1 + Math.floor(rand() * 4);
    let total = 0;
    for (let k = 0; k < n; k++) {
      const qty = 1 + Math.floor(rand() * 5);
      const price = 2 + Math.floor(rand() * 60);
      lines.push({sku: 'SKU-' + (100 + Math.floor(rand() * 900)), qty: qty, price: price});
      total += qty * price;
    }
    store.add('order', {
      contact: 'c' + (1 + Math.floor(rand() * CONTACTS)),
      lines: lines,
      total: total,
      status: rand() < 0.8 ? 'paid' : 'open',
    });
  }
  return store;
}

function attempt(failures, label, check) {
  try {
    check();
    return 1;
  } catch (err) {
    failures.push(label);
    return 0;
  }
}

function checkContacts() {
  const failures = [];
  const contacts = state.store.ofKind('contact');
  let passed = 0;
  contacts.forEach(function checkContact(rec) {
    passed += attempt(failures, rec.cid + ' kind', function () {
      Should(rec).have.property('kind', 'contact');
    });
    passed += attempt(failures, rec.cid + ' attributes', function () {
      Should(rec).have.ownProperty('attributes');
    });
    passed += attempt(failures, rec.cid + ' email ' + rec.get('email'), function () {
      Should(rec.get('email')).match(EMAIL);
    });
    passed += attempt(failures, rec.cid + ' age', function () {
      Should(rec.get('age')).be.a.Number.and.be.within(18, 99);
    });
  });
  return {title: 'Contacts', count: contacts.length, passed: passed, failures: failures};
}

function checkOrders() {
  const failures = [];
  const store = state.store;
  const orders = store.ofKind('order');
  let passed = 0;
  orders.forEach(function checkOrder(rec) {
    passed += attempt(failures, rec.cid + ' fields', function () {
      Should(rec).have.properties('cid', 'attributes');
    });
    passed += attempt(failures, rec.cid + ' owner ' + rec.get('contact'), function () {
      Should(store.byCid[rec.get('contact')]).have.property('kind', 'contact');
    });
    passed += attempt(failures, rec.cid + ' lines', function () {
      Should(rec.get('lines')).have.property('length').above(0);
    });
    passed += attempt(failures, rec.cid + ' total', function () {
      Should(rec.get('total')).be.a.Number.and.not.be.below(0);
    });
  });
  return {title: 'Orders', count: orders.length, passed: passed, failures: failures};
}

function checkStore() {
  const failures = [];
  const store = state.store;
  let passed = 0;
  passed += attempt(failures, 'record count', function () {
    Should(store.records).have.property('length', CONTACTS + ORDERS);
  });
  CITIES.forEach(function checkCity(city) {
    const people = store.ofKind('contact').filter(function inCity(r) { return r.get('city') === city; });
    passed += attempt(failures, city + ' has contacts', function () {
      Should(people).have.property('length').above(0);
    });
    people.forEach(function checkResident(rec) {
      passed += attempt(failures, rec.cid + ' indexed', function () {
        Should(store.byCid[rec.cid] === rec).be.true;
      });
    });
  });
  return {title: 'Store', count: store.records.length, passed: passed, failures: failures};
}

function show(result) {
  state.shown++;
  const lines = [result.title + ': ' + result.count + ' records, ' + result.passed + ' checks passed, ' +
    result.failures.length + ' failed'];
  result.failures.forEach(function addLine(f) { lines.push('  FAIL ' + f); });
  document.getElementById('out').textContent = lines.join('\n');
  document.getElementById('status').textContent = result.title + ' checked';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.store = buildStore();
  document.getElementById('checkContacts').addEventListener('click', function onContacts() { show(checkContacts()); });
  document.getElementById('checkOrders').addEventListener('click', function onOrders() { show(checkOrders()); });
  document.getElementById('checkStore').addEventListener('click', function onStore() { show(checkStore()); });
  document.body.setAttribute('data-ready', '1');
}

setup();
