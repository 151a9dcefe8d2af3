/* Departures board: three days of seeded flights (the same on every load),
 * all times kept in UTC. Opening a day formats every flight's departure
 * and arrival with Luxon's localized presets (toLocaleString), as an
 * operations board that prints in UTC does, and lists the first rows.
 * A held-out real regression for zamcap's accuracy experiment
 * (tests/eval/heldout/luxon-utcformat/NOTE.md): Luxon 1.27 checks, for
 * every formatter of a fixed-offset date, whether the browser knows the
 * matching Etc/GMT zone, by building a fresh Intl.DateTimeFormat. */
'use strict';

const DAYS = ['Monday', 'Tuesday', 'Wednesday'];
const FLIGHTS = 300;
const SHOWN = 25;
const CITIES = ['Oslo', 'Lima', 'Accra', 'Perth', 'Quito', 'Riga', 'Hanoi', 'Cairo', 'Doha'];

const state = {days: {}, opened: 0};

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

function makeDay(index) {
  const rand = seededRandom(5150 + index);
  const start = Date.UTC(2021, 5, 7 + index);
  const flights = [];
  for (let i = 0; i < FLIGHTS; i++) {
    const dep = start + Math.floor(rand() * 86400) * 1000;
    flights.push({code: 'ZC' + (100 + i), to: CITIES[Math.floor(rand() * CITIES.length)],
                  dep: dep, arr: dep + (45 + Math.floor(rand() * 600)) * 60000});
  }
  return flights;
}

function formatTimes(f) {
  const dep = luxon.DateTime.fromMillis(f.dep, {zone: 'utc'});
  const arr = luxon.DateTime.fromMillis(f.arr, {zone: 'utc'});
  return {dep: dep.toLocaleString(luxon.DateTime.DATETIME_MED),
          arr: arr.toLocaleString(luxon.DateTime.TIME_SIMPLE)};
}

function boardLines(flights) {
  return flights.map(function boardLine(f) {
    const t = formatTimes(f);
    return {code: f.code, to: f.to, dep: t.dep, arr: t.arr};
  });
}

function renderBoard(lines) {
  document.getElementById('rows').innerHTML = lines.slice(0, SHOWN).map(function lineRow(l) {
    return '<tr><td>' + l.code + '</td><td>' + l.to + '</td><td>' + l.dep + '</td><td>' + l.arr +
           '</td></tr>';
  }).join('');
}

function onDayClick(event) {
  const name = event.target.dataset.day;
  if (!name) return;
  const lines = boardLines(state.days[name]);
  renderBoard(lines);
  let chars = 0;
  for (const l of lines) chars += l.dep.length + l.arr.length;
  document.getElementById('status').textContent = name + ': ' + lines.length + ' flights, ' +
                                                  chars + ' characters';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('days');
  DAYS.forEach(function addDay(name, index) {
    state.days[name] = makeDay(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.day = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onDayClick);
  document.body.dataset.ready = '1';
}

main();
