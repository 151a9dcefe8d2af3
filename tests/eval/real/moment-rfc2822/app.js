/* Ticket import: support tickets exported from a help desk (seeded: the
 * same on every load), one batch a week. Opening a batch guesses which of
 * its columns hold dates by trying moment() on every cell, as import
 * wizards do, then shows the first rows with the date columns formatted.
 * The chat transcripts are long and full of ':(' faces. A real regression
 * for zamcap's accuracy experiment (tests/eval/real/moment-rfc2822/NOTE.md):
 * moment 2.18 tries RFC 2822 on every string that is not ISO 8601, and the
 * pattern that strips RFC 2822 comments rescans the rest of the string
 * from every '(' that is not closed; 2.17 has no RFC 2822 parsing. */
'use strict';

const BATCHES = ['Week 1', 'Week 2', 'Week 3'];
const TICKETS = 160;
const TRANSCRIPT = 24000; /* characters of chat per ticket */
const SHOWN = 30;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SUBJECTS = ['Cannot log in', 'Invoice is wrong', 'App crashes on start', 'Refund request',
                  'Password reset mail missing', 'Export is empty', 'Slow dashboard'];
const LINES = ['customer: it still does not work :(', 'agent: sorry to hear that :( checking now',
               'customer: I tried again this morning :(', 'agent: :( could you send a screenshot',
               'customer: same error as yesterday :( :(', 'agent: thanks :( I see it on our side',
               'customer: ok, waiting :(', 'agent: a fix is on its way, sorry :('];
const COLUMNS = ['subject', 'created', 'due', 'transcript'];

const state = {batches: {}, opened: 0};

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

function pad(n) {
  return (n < 10 ? '0' : '') + n;
}

function makeTicket(rand, week, i) {
  const day = 1 + week * 7 + Math.floor(rand() * 7);
  let transcript = '';
  while (transcript.length < TRANSCRIPT) {
    transcript += LINES[Math.floor(rand() * LINES.length)] + '\n';
  }
  return {subject: SUBJECTS[Math.floor(rand() * SUBJECTS.length)] + ' #' + (week * 1000 + i),
          created: '2024-03-' + pad(day) + ' ' + pad(Math.floor(rand() * 24)) + ':' +
                   pad(Math.floor(rand() * 60)),
          due: (day + 3) + ' ' + MONTHS[2 + Math.floor((day + 3) / 31)] + ' 2024',
          transcript: transcript};
}

function makeBatch(week) {
  const rand = seededRandom(900 + week);
  const tickets = [];
  for (let i = 0; i < TICKETS; i++) tickets.push(makeTicket(rand, week, i));
  return tickets;
}

function looksLikeDate(value) {
  return moment(value).isValid();
}

function dateColumns(tickets) {
  return COLUMNS.filter(function isDateColumn(col) {
    let dates = 0;
    for (const t of tickets) if (looksLikeDate(t[col])) dates++;
    return dates > tickets.length / 2;
  });
}

function renderBatch(tickets, dates) {
  document.getElementById('columns').textContent = 'date columns: ' + dates.join(', ');
  document.getElementById('rows').innerHTML = tickets.slice(0, SHOWN).map(function ticketRow(t) {
    return '<tr>' + COLUMNS.map(function cell(col) {
      const v = dates.indexOf(col) >= 0 ? moment(t[col]).format('ddd D MMM') : t[col].slice(0, 40);
      return '<td>' + v + '</td>';
    }).join('') + '</tr>';
  }).join('');
}

function onBatchClick(event) {
  const name = event.target.dataset.batch;
  if (!name) return;
  const tickets = state.batches[name];
  renderBatch(tickets, dateColumns(tickets));
  document.getElementById('status').textContent = name + ': ' + tickets.length + ' tickets';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  moment.suppressDeprecationWarnings = true; /* the Date() fallback's warning */
  const nav = document.getElementById('batches');
  BATCHES.forEach(function addBatch(name, week) {
    state.batches[name] = makeBatch(week);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.batch = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onBatchClick);
  document.body.dataset.ready = '1';
}

main();
