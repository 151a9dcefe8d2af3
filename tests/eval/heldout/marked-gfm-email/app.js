/* Service notes: a small wiki of Markdown notes, one per service (seeded,
 * the same on every load). Each note pastes the service's long-lived access
 * tokens (JWT-like base64url strings) inline, as ops notes do. Opening a
 * service renders its note with marked (GFM on, the default) into the
 * preview. A held-out real regression for zamcap's accuracy experiment
 * (tests/eval/heldout/marked-gfm-email/NOTE.md): marked 0.3.14's GFM text
 * rule looks ahead for an e-mail address at every position, scanning the
 * rest of each long run of address characters again each time. */
'use strict';

const SERVICES = ['billing', 'search', 'uploads'];
const TOKENS = 3;
const TOKEN_CHARS = 7000;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-';

const state = {notes: {}, opened: 0};

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

function makeToken(rand, length) {
  const parts = [];
  for (let i = 0; i < length; i++) {
    parts.push(i % 1000 === 999 ? '.' : ALPHABET[Math.floor(rand() * ALPHABET.length)]);
  }
  return parts.join('');
}

function makeNote(name, index) {
  const rand = seededRandom(31 + index);
  const lines = ['# ' + name + ' service', '', 'Owner: team ' + (index + 1) +
                 '. Rotate the tokens below every quarter.', ''];
  for (let t = 0; t < TOKENS; t++) {
    lines.push('## Token ' + (t + 1), '');
    lines.push('Issued for the **' + name + '** worker ' + (t + 1) + ': ' +
               makeToken(rand, TOKEN_CHARS + Math.floor(rand() * 200)) + ' (do not share).', '');
  }
  lines.push('- restart with `svc restart ' + name + '`', '- logs in *ops/' + name + '*');
  return lines.join('\n');
}

function renderNote(source) {
  return marked(source);
}

function onServiceClick(event) {
  const name = event.target.dataset.service;
  if (!name) return;
  const html = renderNote(state.notes[name]);
  document.getElementById('preview').innerHTML = html;
  document.getElementById('status').textContent = name + ': ' + html.length + ' characters of HTML';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('services');
  SERVICES.forEach(function addService(name, index) {
    state.notes[name] = makeNote(name, index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.service = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onServiceClick);
  document.body.dataset.ready = '1';
}

main();
