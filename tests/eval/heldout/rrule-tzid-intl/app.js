/* Team calendar: recurring meetings of teams with offices in several time
 * zones, each a recurrence rule with a TZID (DTSTART;TZID=...), generated
 * from a fixed seed. "Next team" expands the next team's rules over the
 * first quarter with RRule.between and draws a table of meetings per
 * office and week. A real
 * regression for zamcap's accuracy experiment (see NOTE.md): rrule 2.7
 * dropped Luxon and re-zones every occurrence with two
 * Date.toLocaleString calls in explicit time zones plus a new
 * Intl.DateTimeFormat, none of them cached; 2.6 went through Luxon's
 * cached formatters. */
'use strict';

const ZONES = ['Europe/Brussels', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney',
               'America/Los_Angeles', 'Europe/London', 'Asia/Kolkata', 'America/Sao_Paulo'];
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR'];
const TEAMS = 3, RULES_PER_TEAM = 40;
const FROM = new Date(Date.UTC(2024, 0, 1)), TO = new Date(Date.UTC(2024, 3, 1));

/* a 32-bit Weyl sequence scrambled, fixed seed */
function makeWeyl(seed) {
  let w = seed >>> 0;
  return function next() {
    w = (w + 0x9E3779B9) >>> 0;
    let z = w;
    z = Math.imul(z ^ (z >>> 16), 0x85EBCA6B) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xC2B2AE35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

function pad(n) { return (n < 10 ? '0' : '') + n; }

function makeRuleText(rnd, i) {
  const zone = ZONES[i % ZONES.length];
  const hour = 8 + Math.floor(rnd() * 9), minute = [0, 15, 30, 45][Math.floor(rnd() * 4)];
  const kind = rnd();
  let rrule;
  if (kind < 0.35) {
    rrule = 'FREQ=DAILY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR';            /* stand-up */
  } else if (kind < 0.75) {
    const a = DAYS[Math.floor(rnd() * 5)], b = DAYS[Math.floor(rnd() * 5)];
    rrule = 'FREQ=WEEKLY;INTERVAL=1;BYDAY=' + (a === b ? a : a + ',' + b);
  } else if (kind < 0.9) {
    rrule = 'FREQ=DAILY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR;BYHOUR=' + (8 + Math.floor(rnd() * 2)) + ',12,16';  /* on-call checks */
  } else {
    rrule = 'FREQ=MONTHLY;BYDAY=' + DAYS[Math.floor(rnd() * 5)] + ';BYSETPOS=' + (1 + Math.floor(rnd() * 3));
  }
  return {zone: zone, text: 'DTSTART;TZID=' + zone + ':20240101T' + pad(hour) + pad(minute) + '00\nRRULE:' + rrule};
}

function buildTeams() {
  const rnd = makeWeyl(580);
  const teams = [];
  for (let t = 0; t < TEAMS; t++) {
    const rules = [];
    for (let i = 0; i < RULES_PER_TEAM; i++) {
      const r = makeRuleText(rnd, t * RULES_PER_TEAM + i);
      rules.push({zone: r.zone, rule: rrule.rrulestr(r.text)});
    }
    teams.push(rules);
  }
  return teams;
}

const TEAM_RULES = buildTeams();
let shown = 0;

function expandRule(entry, from, to) {
  return entry.rule.between(from, to, true);
}

function tallyQuarter(rules, from, to) {
  const perZone = {};
  let total = 0;
  for (const entry of rules) {
    const dates = expandRule(entry, from, to);
    const row = perZone[entry.zone] || (perZone[entry.zone] = new Array(14).fill(0));
    for (const d of dates) {
      const week = Math.floor((d.getTime() - from.getTime()) / (7 * 86400000));
      if (week >= 0 && week < 14) row[week]++;
    }
    total += dates.length;
  }
  return {perZone: perZone, total: total};
}

function renderTable(t) {
  const rows = Object.keys(t.perZone).sort().map(function zoneRow(z) {
    return '<tr><th>' + z + '</th>' + t.perZone[z].map(function cell(n) { return '<td>' + n + '</td>'; }).join('') + '</tr>';
  });
  document.getElementById('table').innerHTML = rows.join('');
}

function onNextClick() {
  const t = tallyQuarter(TEAM_RULES[shown % TEAMS], FROM, TO);
  shown++;
  renderTable(t);
  document.getElementById('status').textContent = 'team ' + shown + ': ' + t.total + ' meetings in the first quarter';
  document.body.dataset.teams = String(shown);
}

function main() {
  document.getElementById('next').addEventListener('click', onNextClick);
  document.body.dataset.ready = '1';
}

main();
