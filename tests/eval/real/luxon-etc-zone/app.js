/* Departures board: flights from airports that publish their times at a
 * fixed UTC offset (luxon's "UTC+n" zones). Each click on "Next hour"
 * shows the flights of the next hour of the day: a time column
 * (toLocaleString), a date column (toFormat with a localized macro
 * token) and a screen-reader label built from the formatted parts
 * (toLocaleParts). The flights are generated from a fixed seed, the same
 * on every load. A real regression for zamcap's accuracy experiment
 * (tests/eval/real/luxon-etc-zone/NOTE.md): luxon 1.27 asks
 * IANAZone.isValidZone, which builds a new Intl.DateTimeFormat, every
 * time it formats a DateTime in a fixed-offset zone. */
'use strict';

const FLIGHTS_PER_HOUR = 170;
const OFFSETS = [-8, -5, -3, 0, 1, 2, 3, 4, 5, 8, 9, 10];
const CODES = ['LHR', 'JFK', 'GRU', 'DXB', 'NRT', 'SYD', 'CPT', 'MEX', 'DEL', 'SIN', 'YVR', 'ARN'];
const DAY0 = Date.UTC(2024, 2, 11, 0, 0, 0);

const state = {hour: 0, flights: []};

/* a linear congruential generator with a fixed seed */
function makeLcg(seed) {
  let s = seed >>> 0;
  return function next() {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function makeFlights() {
  const rnd = makeLcg(20240311);
  const list = [];
  for (let h = 0; h < 24; h++) {
    for (let i = 0; i < FLIGHTS_PER_HOUR; i++) {
      const k = Math.floor(rnd() * CODES.length);
      list.push({hour: h, code: CODES[k] + (100 + Math.floor(rnd() * 900)),
                 from: CODES[k], offset: OFFSETS[k],
                 ts: DAY0 + h * 3600000 + Math.floor(rnd() * 3600) * 1000});
    }
  }
  return list;
}

function localTime(f) {
  const zone = f.offset === 0 ? 'UTC' : 'UTC' + (f.offset > 0 ? '+' : '') + f.offset;
  return luxon.DateTime.fromMillis(f.ts, {zone: zone});
}

function timeCell(dt) {
  return dt.toLocaleString(luxon.DateTime.TIME_24_SIMPLE);
}

function dateCell(dt) {
  return dt.toFormat('ccc D');
}

function spokenLabel(f, dt) {
  const parts = dt.toLocaleParts({hour: 'numeric', minute: '2-digit', weekday: 'long'});
  let words = 'flight ' + f.code + ' from ' + f.from;
  for (const p of parts) if (p.type !== 'literal') words += ' ' + p.value;
  return words;
}

function flightRow(f) {
  const dt = localTime(f);
  return '<tr aria-label="' + spokenLabel(f, dt) + '"><td>' + f.code + '</td><td>' +
         timeCell(dt) + '</td><td>' + dateCell(dt) + '</td></tr>';
}

function onNextClick() {
  const rows = state.flights.filter(function inHour(f) { return f.hour === state.hour; });
  document.getElementById('board').innerHTML = rows.map(flightRow).join('');
  state.hour++;
  document.getElementById('status').textContent = rows.length + ' flights, hour ' + state.hour;
  document.body.dataset.hour = String(state.hour);
}

function main() {
  state.flights = makeFlights();
  document.getElementById('next').addEventListener('click', onNextClick);
  document.body.dataset.ready = '1';
}

main();
