/* Ticket board: a large archive table (built once on load, seeded) and a feed
 * of ticket cards. Each Load button replaces the feed with a seeded batch of
 * cards; every card is inserted and handed to htmx.process() on its own, as a
 * widget that receives HTML from elsewhere does, so its hx-get button is
 * wired up. No request is ever sent. A real regression for zamcap's accuracy
 * experiment (NOTE.md). */
'use strict';

const QUEUES = ['Open', 'Pending', 'Closed'];
const ARCHIVE_ROWS = 2000; /* rows in the archive table (page size) */
const CARDS = 60;          /* cards per batch */

const WORDS = ['printer', 'login', 'invoice', 'refund', 'latency', 'export',
  'password', 'billing', 'crash', 'upload', 'timeout', 'report', 'sync',
  'license', 'mobile', 'search', 'email', 'backup', 'vpn', 'dashboard'];
const PEOPLE = ['ana', 'bo', 'chen', 'dara', 'eli', 'femi', 'gus', 'hana'];

const state = {shown: 0};

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

function subject(rand) {
  return pick(rand, WORDS) + ' ' + pick(rand, WORDS) + ' issue';
}

function buildArchive() {
  const rand = seededRandom(9001);
  const rows = [];
  for (let i = 0; i < ARCHIVE_ROWS; i++) {
    const who = pick(rand, PEOPLE);
    rows.push('<tr class="row" data-id="' + i + '"><td><a href="#t' + i +
      '" title="ticket ' + i + '">#' + i + '</a></td><td><span class="subj">' +
      subject(rand) + '</span></td><td><em data-user="' + who + '">' + who +
      '</em></td><td><small class="age">' + Math.floor(rand() * 90) + 'd</small></td></tr>');
  }
  document.getElementById('archive').innerHTML = '<table><tbody>' + rows.join('') + '</tbody></table>';
}

function makeCard(rand, queue, i) {
  const card = document.createElement('div');
  card.className = 'card';
  card.id = 'card-' + queue + '-' + i;
  const id = 10000 + Math.floor(rand() * 90000);
  card.innerHTML = '<b>#' + id + '</b> <span class="subj">' + subject(rand) +
    '</span><br><em>' + pick(rand, PEOPLE) + '</em> ' +
    '<button type="button" hx-get="detail.html?id=' + id +
    '" hx-target="closest .card" hx-swap="innerHTML">Details</button>';
  return card;
}

function countWired(feed) {
  const buttons = feed.querySelectorAll('button[hx-get]');
  let wired = 0;
  for (let i = 0; i < buttons.length; i++) {
    const data = buttons[i]['htmx-internal-data'];
    if (data && data.initHash) wired++;
  }
  return wired;
}

function loadQueue(index) {
  const t0 = performance.now();
  const rand = seededRandom(4200 + index * 31);
  const feed = document.getElementById('feed');
  feed.textContent = '';
  for (let i = 0; i < CARDS; i++) {
    const card = makeCard(rand, index, i);
    feed.appendChild(card);
    htmx.process(card);
  }
  const wired = countWired(feed);
  state.shown++;
  document.getElementById('status').textContent =
    QUEUES[index] + ': ' + CARDS + ' cards, ' + wired + ' buttons wired, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  buildArchive();
  for (let i = 0; i < QUEUES.length; i++) {
    document.getElementById('load' + i).addEventListener('click', function onLoad() { loadQueue(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
