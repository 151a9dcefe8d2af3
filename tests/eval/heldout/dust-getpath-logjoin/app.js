/* Store visit exports: a retail dashboard exports, for one region at a
 * time, every store's record as a semicolon-separated text file rendered
 * with a Dust template (the page shows its first lines). Every field of a record sits three levels below the store
 * (store.profile.name.display, store.metrics.visits.total, ...), so each
 * is a dotted Dust reference. A real regression for zamcap's accuracy experiment
 * (NOTE.md): dustjs-linkedin 2.1.0 added a debug log line to every dotted
 * reference lookup, built (down.join('.') and string concatenation) even
 * when logging is off. Nothing heavy runs on load: the template is
 * compiled and the data generated on the first click of each region. */
'use strict';

const REGIONS = ['North region', 'South region', 'West region'];
const STORES_PER_REGION = 150000;
const PREVIEW_CHARS = 3000;

const TEMPLATE =
  '{#rows}{store.profile.name.display};{store.profile.name.code};' +
  '{store.location.address.city};{store.location.address.postcode};' +
  '{store.location.region.name};{store.location.region.manager};' +
  '{store.metrics.visits.total};{store.metrics.visits.unique};' +
  '{store.metrics.visits.returning};{store.metrics.sales.count};' +
  '{store.metrics.sales.average};{store.metrics.sales.refunds};' +
  '{store.metrics.rating.score};{store.metrics.rating.rank};' +
  '{store.staff.counts.fullTime};{store.staff.counts.partTime}\n{/rows}';

const state = {compiled: false, opened: 0};

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

function makeStores(index) {
  const rand = seededRandom(9001 + index * 77);
  const managers = ['Ade', 'Bea', 'Cyd', 'Dov', 'Eli', 'Fay'];
  const rows = [];
  for (let i = 0; i < STORES_PER_REGION; i++) {
    const visits = Math.floor(rand() * 5000);
    rows.push({store: {
      profile: {name: {display: 'Store ' + Math.floor(rand() * 900), code: 'R' + index + '-' + i}},
      location: {address: {city: 'City' + Math.floor(rand() * 120), postcode: 10000 + Math.floor(rand() * 89999)},
                 region: {name: REGIONS[index], manager: managers[Math.floor(rand() * managers.length)]}},
      metrics: {visits: {total: visits, unique: Math.floor(visits * rand()), returning: Math.floor(visits * rand() / 2)},
                sales: {count: Math.floor(rand() * 900), average: Math.floor(rand() * 9000) / 100,
                        refunds: Math.floor(rand() * 20)},
                rating: {score: Math.floor(rand() * 50) / 10, rank: i + 1}},
      staff: {counts: {fullTime: Math.floor(rand() * 30), partTime: Math.floor(rand() * 40)}}}});
  }
  return rows;
}

function compileTemplate() {
  if (state.compiled) return;
  dust.loadSource(dust.compile(TEMPLATE, 'report/stores'));
  state.compiled = true;
}

function renderReport(rows) {
  let html = '';
  dust.render('report/stores', {rows: rows}, function reportDone(err, out) {
    if (err) throw err;
    html = out;
  });
  return html;
}

function showReport(name, html) {
  document.getElementById('preview').textContent = html.slice(0, PREVIEW_CHARS);
  document.getElementById('status').textContent = name + ': ' + html.length + ' characters';
}

function onRegionClick(event) {
  const index = event.target.dataset.region;
  if (index === undefined) return;
  compileTemplate();
  const rows = makeStores(Number(index));
  const html = renderReport(rows);
  showReport(REGIONS[index], html);
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('regions');
  REGIONS.forEach(function addRegion(name, index) {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = 'region' + index;
    b.textContent = name;
    b.dataset.region = String(index);
    nav.appendChild(b);
  });
  nav.addEventListener('click', onRegionClick);
  document.body.dataset.ready = '1';
}

main();
