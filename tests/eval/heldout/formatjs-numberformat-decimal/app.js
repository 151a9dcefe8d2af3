/* Timesheet report: each team's clock-in entries for a month (seeded: the
 * same on every load). Opening a team formats every entry's start and end
 * time ("08:05", two-digit hours and minutes, the way Luxon pads clock
 * fields through Intl.NumberFormat), its duration in minutes ("452 min")
 * and a running count, then sums the team's minutes per person and shows
 * the first rows and the totals. Intl.NumberFormat is the formatjs polyfill
 * (@formatjs/intl-numberformat, see index.html).
 * A real regression for zamcap's accuracy experiment (NOTE.md): 8.15's
 * polyfill does its arithmetic with decimal.js, and ComputeExponent takes an
 * arbitrary-precision logarithm twice for every number it formats. */
'use strict';

const TEAMS = ['Assembly', 'Packing', 'Dispatch'];
const PEOPLE = 24;       /* people per team */
const DAYS = 22;         /* working days in the month */
const SHOWN = 40;        /* rows shown */

const state = {teams: {}, opened: 0};

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

function makeTeam(index) {
  const rand = seededRandom(4100 + index);
  const entries = [];
  for (let p = 0; p < PEOPLE; p++) {
    for (let d = 0; d < DAYS; d++) {
      const start = 6 * 60 + Math.floor(rand() * 180);          /* 06:00 .. 08:59 */
      const length = 300 + Math.floor(rand() * 240);             /* 5 to 9 hours */
      entries.push({person: TEAMS[index].slice(0, 3).toUpperCase() + '-' + (p + 1), day: d + 1,
                    start: start, end: start + length});
    }
  }
  return {name: TEAMS[index], entries: entries};
}

function makeFormatters() {
  return {
    pad: new Intl.NumberFormat('en', {minimumIntegerDigits: 2, useGrouping: false}),
    minutes: new Intl.NumberFormat('en', {style: 'unit', unit: 'minute', unitDisplay: 'short'}),
    count: new Intl.NumberFormat('en', {maximumFractionDigits: 0})
  };
}

function clockTime(fmt, minuteOfDay) {
  return fmt.pad.format(Math.floor(minuteOfDay / 60)) + ':' + fmt.pad.format(minuteOfDay % 60);
}

function formatEntry(fmt, entry, n) {
  return {
    person: entry.person,
    day: entry.day,
    n: fmt.count.format(n),
    from: clockTime(fmt, entry.start),
    to: clockTime(fmt, entry.end),
    duration: fmt.minutes.format(entry.end - entry.start)
  };
}

function summarize(fmt, entries) {
  const totals = {};
  entries.forEach(function addMinutes(e) {
    totals[e.person] = (totals[e.person] || 0) + (e.end - e.start);
  });
  return Object.keys(totals).map(function totalRow(person) {
    return person + ' ' + fmt.minutes.format(totals[person]);
  });
}

function renderTeam(team, rows, totals) {
  document.getElementById('rows').innerHTML = rows.slice(0, SHOWN).map(function rowHtml(r) {
    return '<tr><td>' + r.n + '</td><td>' + r.person + '</td><td>' + r.day + '</td><td>' + r.from +
           '</td><td>' + r.to + '</td><td>' + r.duration + '</td></tr>';
  }).join('') + '<tr><td colspan="6">' + totals.join(', ') + '</td></tr>';
}

function onTeamClick(event) {
  const name = event.target.dataset.team;
  if (!name) return;
  const team = state.teams[name];
  const fmt = makeFormatters();
  const rows = team.entries.map(function entryRow(e, i) { return formatEntry(fmt, e, i + 1); });
  const totals = summarize(fmt, team.entries);
  renderTeam(team, rows, totals);
  document.getElementById('status').textContent = name + ': ' + fmt.count.format(rows.length) + ' entries, ' +
                                                  totals.length + ' people';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('teams');
  TEAMS.forEach(function addTeam(name, index) {
    state.teams[name] = makeTeam(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.team = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onTeamClick);
  document.body.dataset.ready = '1';
}

main();
