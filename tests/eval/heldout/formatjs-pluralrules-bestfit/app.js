/* Support inbox: three queues of customer tickets (seeded: the same on every
 * load). Opening a queue lists its tickets, each in the customer's language,
 * with the reply and attachment counts worded by plural category. The label
 * helper asks Intl.PluralRules for the category of every count it prints,
 * building the rules object on the spot (no cache), the way small i18n
 * helpers often do. Intl.PluralRules is the formatjs polyfill
 * (@formatjs/intl-pluralrules, see index.html), with 24 languages loaded.
 * A real regression for zamcap's accuracy experiment (NOTE.md): from
 * @formatjs/intl-localematcher 0.5.0 the polyfill's "best fit" locale
 * matcher computes a CLDR language distance against every loaded locale each
 * time a PluralRules object is created. */
'use strict';

const QUEUES = ['Billing', 'Shipping', 'Returns'];
const TICKETS = 36;      /* tickets per queue */
const LANGS = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'nb', 'fi', 'pl',
               'cs', 'ru', 'uk', 'ja', 'zh', 'ko', 'ar', 'he', 'tr', 'el', 'hu', 'ro',
               'en-GB', 'pt-BR', 'fr-CA', 'es-MX', 'de-AT'];

/* Words per plural category; a missing category falls back to "other". */
const WORDS = {
  reply: {zero: 'replies', one: 'reply', two: 'replies', few: 'replies', many: 'replies', other: 'replies'},
  file: {zero: 'files', one: 'file', two: 'files', few: 'files', many: 'files', other: 'files'}
};

const state = {queues: {}, shown: 0};

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

function makeQueue(index) {
  const rand = seededRandom(7700 + index);
  const tickets = [];
  for (let i = 0; i < TICKETS; i++) {
    tickets.push({
      id: QUEUES[index].slice(0, 3).toUpperCase() + '-' + (1000 + i * 7 + index),
      lang: LANGS[Math.floor(rand() * LANGS.length)],
      replies: Math.floor(rand() * 25),
      files: Math.floor(rand() * 6)
    });
  }
  return {name: QUEUES[index], tickets: tickets};
}

function pluralLabel(lang, count, noun) {
  const category = new Intl.PluralRules(lang).select(count);
  const word = WORDS[noun][category] || WORDS[noun].other;
  return count + ' ' + word + ' [' + category + ']';
}

function ticketRow(ticket) {
  const tr = document.createElement('tr');
  const cells = [ticket.id, ticket.lang,
                 pluralLabel(ticket.lang, ticket.replies, 'reply'),
                 pluralLabel(ticket.lang, ticket.files, 'file')];
  for (const text of cells) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.appendChild(td);
  }
  return tr;
}

function summarize(rows) {
  const counts = {};
  for (const row of rows) {
    const key = row.lastChild.textContent.replace(/^.*\[/, '[');
    counts[key] = (counts[key] || 0) + 1;
  }
  return Object.keys(counts).sort().map(function (k) { return k + ' x' + counts[k]; }).join(', ');
}

function onQueueClick(event) {
  const index = Number(event.currentTarget.dataset.index);
  const queue = state.queues[index] || (state.queues[index] = makeQueue(index));
  const body = document.getElementById('rows');
  body.textContent = '';
  const rows = queue.tickets.map(ticketRow);
  for (const row of rows) body.appendChild(row);
  state.shown += 1;
  document.getElementById('status').textContent =
    queue.name + ': ' + rows.length + ' tickets; files ' + summarize(rows);
  document.body.dataset.shown = String(state.shown);
}

function init() {
  const nav = document.getElementById('queues');
  QUEUES.forEach(function (name, index) {
    const button = document.createElement('button');
    button.type = 'button';
    button.id = 'queue' + index;
    button.textContent = name;
    button.setAttribute('aria-label', 'Open ' + name + ' queue');
    button.dataset.queue = name;
    button.dataset.index = String(index);
    button.addEventListener('click', onQueueClick);
    nav.appendChild(button);
  });
  document.body.dataset.ready = '1';
}

init();
