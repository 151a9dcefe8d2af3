/* Departures board: an airline's operations page keeps every flight's
 * departure as a UTC timestamp and shows, per board, each flight's
 * departure in the destination's local time with the zone abbreviation
 * (DateTime.toZone(zone).format('yyyy-MM-dd HH:mm z')). Each board button
 * converts one board's flights and renders the first rows. A real
 * regression for zamcap's accuracy experiment (NOTE.md): timezonecomplete
 * 5.12 answers every offset and abbreviation query by walking the zone's
 * transitions from the first one on record. */
'use strict';

const BOARDS = ['Schiphol winter', 'Schiphol summer'];
const FLIGHTS_PER_BOARD = 600;
const SHOWN = 25;
const ZONES = ['Europe/Amsterdam', 'America/New_York', 'Australia/Sydney',
  'Europe/London', 'America/Chicago', 'Europe/Berlin'];
const PREFIXES = ['KL', 'DL', 'QF', 'BA', 'UA', 'LH'];

const state = {boards: {}, opened: 0};

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

function makeBoard(index) {
  const rand = seededRandom(4400 + index * 31);
  const start = Date.UTC(2024, index === 0 ? 0 : 5, 1);
  const flights = [];
  for (let i = 0; i < FLIGHTS_PER_BOARD; i++) {
    const z = Math.floor(rand() * ZONES.length);
    flights.push({
      flight: PREFIXES[z] + (100 + Math.floor(rand() * 900)),
      zone: ZONES[z],
      departsUtc: start + Math.floor(rand() * 180 * 24) * 3600000 + Math.floor(rand() * 4) * 900000
    });
  }
  return flights;
}

function localDeparture(flight, zone) {
  const utc = new tc.DateTime(flight.departsUtc, tc.utc());
  return utc.toZone(zone).format('yyyy-MM-dd HH:mm z');
}

function convertBoard(flights) {
  const zones = {};
  const out = [];
  for (const f of flights) {
    if (!zones[f.zone]) zones[f.zone] = tc.zone(f.zone);
    out.push({flight: f.flight, zone: f.zone, local: localDeparture(f, zones[f.zone])});
  }
  return out;
}

function renderRows(rows) {
  const body = document.getElementById('rows');
  body.textContent = '';
  for (const r of rows.slice(0, SHOWN)) {
    const tr = document.createElement('tr');
    for (const v of [r.flight, r.zone, r.local]) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function onBoardClick(index) {
  if (!state.boards[index]) state.boards[index] = makeBoard(index);
  const rows = convertBoard(state.boards[index]);
  renderRows(rows);
  document.getElementById('status').textContent =
    BOARDS[index] + ': ' + rows.length + ' departures';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function setup() {
  tc.TzDatabase.init([window.tzdata]);
  const nav = document.getElementById('boards');
  BOARDS.forEach(function addButton(name, i) {
    const b = document.createElement('button');
    b.id = 'board' + i;
    b.textContent = name;
    b.addEventListener('click', function onClick() { onBoardClick(i); });
    nav.appendChild(b);
  });
  document.body.dataset.ready = '1';
}

setup();
