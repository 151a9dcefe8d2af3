/* Contact import check: a CRM's import screen checks every row of an
 * uploaded contact file against a Joi schema before the import runs, and
 * lists the rows that would be rejected. Each file button validates one
 * file's rows (Joi.validate(row, schema, {abortEarly: false}), once per
 * row) and renders the first rejected rows. A real regression for
 * zamcap's accuracy experiment (NOTE.md): joi 8.3.0 replaced the plain
 * type check of the validation options with a Joi schema that is built
 * anew on every validate call; 8.4.1 built it once again. */
'use strict';

const FILES = ['Trade fair leads', 'Newsletter export', 'Partner contacts'];
const ROWS_PER_FILE = 4000;
const SHOWN = 25;
const COUNTRIES = ['DE', 'FR', 'NL', 'BE', 'AT', 'CH', 'IT', 'ES', 'PL', 'SE'];
const SOURCES = ['fair', 'web', 'partner', 'phone'];

const state = {files: {}, opened: 0};

/* joi-browser's UMD wrapper has no library name: it copies Joi's API onto
 * the global object (window.object, window.string, window.validate ...). */
function joiApi() {
  return window.Joi || window;
}

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

function makeFile(index) {
  const rand = seededRandom(9100 + index * 77);
  const rows = [];
  for (let i = 0; i < ROWS_PER_FILE; i++) {
    const first = 'Name' + Math.floor(rand() * 5000);
    const row = {
      id: 1 + i + index * ROWS_PER_FILE,
      firstName: first,
      lastName: 'Family' + Math.floor(rand() * 9000),
      email: first.toLowerCase() + '.' + i + '@example.org',
      country: COUNTRIES[Math.floor(rand() * COUNTRIES.length)],
      age: 18 + Math.floor(rand() * 70),
      source: SOURCES[Math.floor(rand() * SOURCES.length)],
      consent: rand() < 0.8
    };
    const fault = rand();
    if (fault < 0.03) row.email = 'not-an-address-' + i;
    else if (fault < 0.05) row.age = 7 + Math.floor(rand() * 9);
    else if (fault < 0.06) row.country = 'XX';
    rows.push(row);
  }
  return rows;
}

function makeContactSchema() {
  const Joi = joiApi();
  return Joi.object({
    id: Joi.number().integer().min(1).required(),
    firstName: Joi.string().min(1).max(40).required(),
    lastName: Joi.string().min(1).max(60).required(),
    email: Joi.string().email().required(),
    country: Joi.string().valid(COUNTRIES).required(),
    age: Joi.number().integer().min(16).max(120),
    source: Joi.string().valid(SOURCES),
    consent: Joi.boolean().required()
  });
}

function checkRow(schema, row) {
  const result = joiApi().validate(row, schema, {abortEarly: false});
  return result.error ? result.error.details.map(function detailText(d) { return d.message; }) : null;
}

function checkFile(schema, rows) {
  const rejected = [];
  for (let i = 0; i < rows.length; i++) {
    const problems = checkRow(schema, rows[i]);
    if (problems) rejected.push({row: rows[i], problems: problems});
  }
  return rejected;
}

function renderRejected(rejected, total) {
  document.getElementById('rows').innerHTML = rejected.slice(0, SHOWN).map(function rowHtml(r) {
    return '<tr><td>' + r.row.id + '</td><td>' + r.row.firstName + ' ' + r.row.lastName +
           '</td><td>' + r.row.email + '</td><td>' + r.problems.join('; ') + '</td></tr>';
  }).join('') + '<tr><td colspan="4">' + total + ' rows, ' + rejected.length + ' rejected</td></tr>';
}

function onFileClick(event) {
  const name = event.target.dataset.file;
  if (!name) return;
  const schema = makeContactSchema();
  const rows = state.files[name];
  const rejected = checkFile(schema, rows);
  renderRejected(rejected, rows.length);
  document.getElementById('status').textContent = name + ': ' + rejected.length + ' rejected';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('files');
  FILES.forEach(function addFile(name, index) {
    state.files[name] = makeFile(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.id = 'file' + index;
    b.textContent = name;
    b.dataset.file = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onFileClick);
  document.body.dataset.ready = '1';
}

main();
