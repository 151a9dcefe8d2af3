/* Visitor log: a day of a shop's access log (seeded: the same on every
 * load), one button per day. Opening a day parses every visit's
 * user-agent string with UAParser and counts visits per browser, OS and
 * device type. A few visits a day come from an in-store kiosk whose
 * app pads the device field of its user agent with spaces after the
 * tablet's name. A real regression for zamcap's accuracy experiment
 * (tests/eval/real/uaparser-machspeed/NOTE.md): ua-parser-js 0.7.14 adds
 * a MachSpeed tablet pattern, /android.+[;\/]\s*(Trio[\s\-]*.*)\s+build/i,
 * that backtracks cubically on a 'Trio' followed by spaces and no
 * ' build'; 0.7.13 has no such pattern. */
'use strict';

const DAYS = ['Monday', 'Tuesday', 'Wednesday'];
const VISITS = 400;
const KIOSK_VISITS = 2; /* a day */
const PADDING = 480; /* spaces after the kiosk's tablet name */
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/58.0.3029.110 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_12_4) AppleWebKit/603.1.30 (KHTML, like Gecko) Version/10.1 Safari/603.1.30',
  'Mozilla/5.0 (Windows NT 6.1; rv:52.0) Gecko/20100101 Firefox/52.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 10_3_1 like Mac OS X) AppleWebKit/603.1.30 (KHTML, like Gecko) Version/10.0 Mobile/14E304 Safari/602.1',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/57.0.2987.133 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko'
];
const PATHS = ['/', '/cart', '/checkout', '/product/mug', '/product/lamp', '/search?q=chair'];
const SHOWN = 12;

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

function kioskAgent(rand) {
  return 'Mozilla/5.0 (Linux; Android 4.4.2; Trio' + ' '.repeat(PADDING + Math.floor(rand() * 20)) +
         ') AppleWebKit/537.36 (KHTML, like Gecko) Chrome/30.0.0.0 Safari/537.36 StoreKiosk/2.1';
}

function makeDay(index) {
  const rand = seededRandom(7300 + index);
  const visits = [];
  for (let i = 0; i < VISITS; i++) {
    visits.push({time: 8 * 3600 + i * 90, path: PATHS[Math.floor(rand() * PATHS.length)],
                 agent: AGENTS[Math.floor(rand() * AGENTS.length)]});
  }
  for (let k = 0; k < KIOSK_VISITS; k++) {
    visits[Math.floor(rand() * VISITS)].agent = kioskAgent(rand);
  }
  return visits;
}

function describe(agent) {
  const r = new UAParser(agent).getResult();
  return {browser: r.browser.name || '?', os: r.os.name || '?', device: r.device.type || 'desktop'};
}

function tally(visits) {
  const counts = {};
  for (const v of visits) {
    const d = describe(v.agent);
    for (const key of [d.browser, d.os, d.device]) counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
}

function renderCounts(counts) {
  const keys = Object.keys(counts).sort(function byCount(a, b) {
    return counts[b] - counts[a] || (a < b ? -1 : 1);
  });
  document.getElementById('rows').innerHTML = keys.slice(0, SHOWN).map(function countRow(k) {
    return '<tr><td>' + k + '</td><td>' + counts[k] + '</td></tr>';
  }).join('');
}

function onDayClick(event) {
  const name = event.target.dataset.day;
  if (!name) return;
  const visits = state.days[name];
  renderCounts(tally(visits));
  document.getElementById('status').textContent = name + ': ' + visits.length + ' visits';
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
