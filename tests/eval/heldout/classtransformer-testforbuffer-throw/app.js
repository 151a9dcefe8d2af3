/* Customer sync: each Sync button takes one region's customer records
 * (seeded plain objects, the same on every load, as a JSON API would return
 * them), turns them into Customer instances with class-transformer's
 * plainToClass, counts the active ones, then turns the instances back into
 * plain objects with classToPlain (as the page would before posting them)
 * and shows a checksum of the result.
 *
 * The page defines no global Buffer (it is a browser page). The library is
 * loaded as its AMD build through a small loader (amd.js).
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const REGIONS = ['north', 'south', 'west'];
const RECORDS = 1200;   /* customers per region */

const CITIES = ['Oslo', 'Lyon', 'Porto', 'Graz', 'Turku', 'Brno', 'Gent', 'Cork'];
const TAGS = ['vip', 'new', 'late', 'b2b', 'promo', 'eu', 'retail', 'bulk'];

const state = {ct: null, shown: 0};

function Customer() {}
Customer.prototype.label = function label() { return this.name + ' <' + this.email + '>'; };

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

function makeRegion(index) {
  const rand = seededRandom(7100 + index * 31);
  const records = [];
  for (let i = 0; i < RECORDS; i++) {
    const id = index * 100000 + i;
    records.push({
      id: id,
      name: 'customer ' + id,
      email: 'c' + id + '@example.test',
      age: 18 + Math.floor(rand() * 70),
      active: rand() < 0.7,
      score: Math.round(rand() * 10000) / 100,
      currency: rand() < 0.5 ? 'EUR' : 'NOK',
      phone: '+47 ' + Math.floor(rand() * 1e8),
      since: 2000 + Math.floor(rand() * 25),
      note: rand() < 0.2 ? 'call first' : '',
      address: {
        street: Math.floor(rand() * 200) + ' Main St',
        city: pick(rand, CITIES),
        zip: String(1000 + Math.floor(rand() * 9000)),
        country: 'NO',
        floor: Math.floor(rand() * 9)
      },
      tags: [pick(rand, TAGS), pick(rand, TAGS), pick(rand, TAGS)]
    });
  }
  return records;
}

function checksum(plainList) {
  let h = 0;
  for (let i = 0; i < plainList.length; i++) {
    const s = JSON.stringify(plainList[i]);
    for (let j = 0; j < s.length; j++) h = (Math.imul(h, 31) + s.charCodeAt(j)) | 0;
  }
  return (h >>> 0).toString(16);
}

function syncRegion(index) {
  const t0 = performance.now();
  const plain = makeRegion(index);
  const customers = state.ct.plainToClass(Customer, plain);
  let active = 0;
  for (let i = 0; i < customers.length; i++) {
    if (!(customers[i] instanceof Customer)) throw new Error('not a Customer');
    if (customers[i].active) active++;
  }
  const back = state.ct.classToPlain(customers);
  const sum = checksum(back);
  state.shown++;
  const row = document.createElement('tr');
  [REGIONS[index], String(customers.length), String(active), sum].forEach(function (text) {
    const td = document.createElement('td');
    td.textContent = text;
    row.appendChild(td);
  });
  document.querySelector('#summary tbody').appendChild(row);
  document.getElementById('status').textContent =
    REGIONS[index] + ': ' + customers.length + ' customers, ' + active + ' active, checksum ' +
    sum + ', ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function init() {
  state.ct = window.amdRequire('class-transformer');
  for (let i = 0; i < REGIONS.length; i++) {
    document.getElementById('sync' + i).addEventListener('click', function () { syncRegion(i); });
  }
  document.getElementById('status').textContent = 'Ready';
  document.body.dataset.ready = '1';
}

init();
