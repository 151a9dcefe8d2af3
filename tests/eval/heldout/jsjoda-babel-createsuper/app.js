/* Flight connections: an airline's planning page. Each season button
 * takes the season's scheduled legs (departure airport with its fixed UTC
 * offset, local departure date and time, block time), works out each
 * leg's local arrival time at the destination, the minimum connection to
 * the next leg, and the layover, all with js-joda date-time objects
 * (LocalDate, LocalTime, LocalDateTime, ZonedDateTime, Duration). A real
 * regression for zamcap's accuracy experiment (NOTE.md): @js-joda/core
 * 4.2.0's bundle was built by Babel in spec mode for IE 11, so every
 * js-joda class constructor reaches its parent class through Babel's
 * _createSuper helper (Reflect.construct); 4.1.0's loose build called
 * the parent constructor directly. */
'use strict';

const SEASONS = ['Winter', 'Spring', 'Summer'];
const LEGS_PER_SEASON = 25000;
const SHOWN = 30;

const AIRPORTS = [
  {code: 'JFK', hours: -5, minutes: 0}, {code: 'ORD', hours: -6, minutes: 0},
  {code: 'LHR', hours: 0, minutes: 0}, {code: 'FRA', hours: 1, minutes: 0},
  {code: 'DXB', hours: 4, minutes: 0}, {code: 'DEL', hours: 5, minutes: 30},
  {code: 'SIN', hours: 8, minutes: 0}, {code: 'NRT', hours: 9, minutes: 0}
];

const state = {seasons: {}, opened: 0};

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

function makeSeason(index) {
  const rand = seededRandom(9001 + index * 77);
  const legs = [];
  for (let i = 0; i < LEGS_PER_SEASON; i++) {
    const from = Math.floor(rand() * AIRPORTS.length);
    let to = Math.floor(rand() * AIRPORTS.length);
    if (to === from) to = (to + 1) % AIRPORTS.length;
    legs.push({
      flight: 'ZC' + (100 + Math.floor(rand() * 900)),
      from: from, to: to,
      dayOfSeason: Math.floor(rand() * 90),
      hour: 5 + Math.floor(rand() * 18), minute: 5 * Math.floor(rand() * 12),
      blockMinutes: 55 + Math.floor(rand() * 720),
      turnMinutes: 35 + Math.floor(rand() * 60)
    });
  }
  return {start: [2024, 1 + index * 3, 1], legs: legs};
}

function zoneOf(airport) {
  return JSJoda.ZoneOffset.ofHoursMinutes(airport.hours, airport.minutes);
}

function departureOf(season, leg, zones) {
  const day = JSJoda.LocalDate.of(season.start[0], season.start[1], season.start[2]).plusDays(leg.dayOfSeason);
  const local = JSJoda.LocalDateTime.of(day, JSJoda.LocalTime.of(leg.hour, leg.minute));
  return JSJoda.ZonedDateTime.of(local, zones[leg.from]);
}

function arrivalOf(departure, leg, zones) {
  return departure.plusMinutes(leg.blockMinutes).withZoneSameInstant(zones[leg.to]);
}

function connectionOf(arrival, leg) {
  const ready = arrival.plusMinutes(leg.turnMinutes);
  const nextSlot = ready.truncatedTo(JSJoda.ChronoUnit.HOURS).plusHours(1);
  return {ready: ready, next: nextSlot, layover: JSJoda.Duration.between(arrival, nextSlot).toMinutes()};
}

function planLeg(season, leg, zones) {
  const departure = departureOf(season, leg, zones);
  const arrival = arrivalOf(departure, leg, zones);
  const connection = connectionOf(arrival, leg);
  return {
    flight: leg.flight,
    route: AIRPORTS[leg.from].code + '-' + AIRPORTS[leg.to].code,
    departs: departure.toLocalDateTime().toString(),
    arrives: arrival.toLocalDateTime().toString(),
    overnight: arrival.toLocalDate().isAfter(departure.toLocalDate()),
    nextDeparture: connection.next.toLocalTime().toString(),
    layover: connection.layover
  };
}

function planSeason(season) {
  const zones = AIRPORTS.map(zoneOf);
  return season.legs.map(function legRow(leg) { return planLeg(season, leg, zones); });
}

function summarize(rows) {
  let overnight = 0, layover = 0;
  rows.forEach(function addRow(r) {
    if (r.overnight) overnight++;
    layover += r.layover;
  });
  return {overnight: overnight, averageLayover: Math.round(layover / rows.length)};
}

function renderSeason(rows, summary) {
  document.getElementById('rows').innerHTML = rows.slice(0, SHOWN).map(function rowHtml(r) {
    return '<tr><td>' + r.flight + '</td><td>' + r.route + '</td><td>' + r.departs + '</td><td>' +
           r.arrives + '</td><td>' + r.nextDeparture + '</td><td>' + r.layover + ' min</td></tr>';
  }).join('') + '<tr><td colspan="6">' + summary.overnight + ' overnight legs, average layover ' +
           summary.averageLayover + ' min</td></tr>';
}

function onSeasonClick(event) {
  const name = event.target.dataset.season;
  if (!name) return;
  const rows = planSeason(state.seasons[name]);
  const summary = summarize(rows);
  renderSeason(rows, summary);
  document.getElementById('status').textContent = name + ': ' + rows.length + ' legs';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('seasons');
  SEASONS.forEach(function addSeason(name, index) {
    state.seasons[name] = makeSeason(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.id = 'season' + index;
    b.textContent = name;
    b.dataset.season = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onSeasonClick);
  document.body.dataset.ready = '1';
}

main();
