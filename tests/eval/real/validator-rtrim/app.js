/* Feedback inbox: messages sent through a web form (seeded: the same on
 * every load), one folder per product. Opening a folder cleans every
 * message as form back ends do (validator.trim on the sender and the
 * body, validator.isEmail on the sender, validator.escape on the body)
 * and lists the first rows. Many bodies were pasted from a fixed-width
 * export, where empty columns became long runs of spaces inside the text.
 * A real regression for zamcap's accuracy experiment
 * (tests/eval/real/validator-rtrim/NOTE.md): validator 13.6 strips
 * trailing white space with /(\s)+$/g, which rescans the rest of every
 * run of spaces that is not at the end of the string; 13.5's /\s+$/g does
 * not in Chromium's V8. */
'use strict';

const FOLDERS = ['Billing', 'Mobile app', 'Website'];
const MESSAGES = 24;
const GAP = 1400; /* spaces in a pasted table's empty column */
const SHOWN = 20;
const NAMES = ['ana', 'bram', 'chloe', 'dev', 'emil', 'fatou', 'greta', 'hugo'];
const DOMAINS = ['example.com', 'mail.example.org', 'shop.example.net'];
const OPENINGS = ['Hello, the export below looks wrong:', 'Hi team, see the rows I copied:',
                  'Good morning, two columns are empty here:', 'Hey, this is what the report shows:'];
const CELLS = ['order 1042', 'total 19.90', 'status paid', 'item mug', 'qty 2', 'ref A-77'];
const CLOSINGS = ['Thanks', 'Regards', 'Cheers', 'Best'];

const state = {folders: {}, opened: 0};

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

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function makeMessage(rand, folder, i) {
  const name = pick(rand, NAMES);
  const gap = ' '.repeat(GAP + Math.floor(rand() * 200));
  const body = '  ' + pick(rand, OPENINGS) + '\n' + pick(rand, CELLS) + gap + pick(rand, CELLS) +
               '\n' + pick(rand, CLOSINGS) + ', ' + name + '  \n';
  return {id: folder * 1000 + i,
          sender: ' ' + name + '.' + (i % 7) + '@' + pick(rand, DOMAINS) + ' ',
          body: body};
}

function makeFolder(index) {
  const rand = seededRandom(4100 + index);
  const messages = [];
  for (let i = 0; i < MESSAGES; i++) messages.push(makeMessage(rand, index, i));
  return messages;
}

function cleanMessage(m) {
  const sender = validator.trim(m.sender);
  const body = validator.trim(m.body);
  return {id: m.id, sender: sender, valid: validator.isEmail(sender),
          body: validator.escape(body), length: body.length};
}

function renderFolder(cleaned) {
  document.getElementById('rows').innerHTML = cleaned.slice(0, SHOWN).map(function messageRow(c) {
    return '<tr><td>' + c.id + '</td><td>' + c.sender + (c.valid ? '' : ' (invalid)') +
           '</td><td>' + c.length + '</td><td>' + c.body.slice(0, 40) + '</td></tr>';
  }).join('');
}

function onFolderClick(event) {
  const name = event.target.dataset.folder;
  if (!name) return;
  const cleaned = state.folders[name].map(cleanMessage);
  renderFolder(cleaned);
  const valid = cleaned.filter(function isValid(c) { return c.valid; }).length;
  document.getElementById('status').textContent = name + ': ' + cleaned.length + ' messages, ' +
                                                  valid + ' valid senders';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('folders');
  FOLDERS.forEach(function addFolder(name, index) {
    state.folders[name] = makeFolder(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.folder = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onFolderClick);
  document.body.dataset.ready = '1';
}

main();
