/* Fixture linter: three generated data modules (seeded, the same on every
 * load) of a test-fixture repository, each a large table of records written
 * as a JavaScript array literal plus a few helper functions. Checking a
 * module runs JSHint over its source, as online linters and code playgrounds
 * do, and lists the warnings.
 * A held-out real regression for zamcap's accuracy experiment (see NOTE.md):
 * since jshint 2.6.1, every array literal makes the parser look ahead to its
 * closing bracket. */
'use strict';

const MODULES = ['Customers', 'Orders', 'Shipments'];
const ROWS = 900;
const CITIES = ['Lisbon', 'Oslo', 'Porto', 'Turku', 'Gdansk', 'Leeds', 'Lyon', 'Graz', 'Brno', 'Cork'];
const STATES = ['open', 'paid', 'held', 'sent', 'void'];

const state = {checked: 0};

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

function makeRow(rand, index) {
  const amount = (rand() * 5000).toFixed(2);
  return '  [' + index + ', "' + pick(rand, CITIES) + '", "' + pick(rand, STATES) + '", ' + amount + ', ' +
         (rand() < 0.5 ? 'true' : 'false') + ', ' + Math.floor(rand() * 40) + ']';
}

function makeModule(index) {
  const name = MODULES[index];
  const rand = seededRandom(4200 + index);
  const lines = ['/* ' + name + ' fixture, generated */', 'var ' + name.toLowerCase() + 'Rows = ['];
  const rows = [];
  for (let i = 0; i < ROWS; i++) rows.push(makeRow(rand, i));
  lines.push(rows.join(',\n'));
  lines.push('];');
  lines.push('function sum' + name + '(rows) {');
  lines.push('  var total = 0;');
  lines.push('  for (var i = 0; i < rows.length; i++) { if (rows[i][4]) { total += rows[i][3]; } }');
  lines.push('  return total;');
  lines.push('}');
  lines.push('function byCity' + name + '(rows, city) {');
  lines.push('  return rows.filter(function (row) { return row[1] === city; });');
  lines.push('}');
  lines.push('unusedTotal = sum' + name + '(' + name.toLowerCase() + 'Rows);');
  return lines.join('\n');
}

function lintModule(index) {
  const source = makeModule(index);
  const clean = JSHINT(source, {undef: true, unused: true, browser: true});
  const warnings = JSHINT.errors.filter(Boolean).map(function describe(error) {
    return 'line ' + error.line + ': ' + error.reason;
  });
  return {clean: clean, bytes: source.length, warnings: warnings};
}

function showResult(name, result) {
  const row = document.createElement('tr');
  const texts = [name, result.bytes + ' B', result.clean ? 'clean' : result.warnings.length + ' warnings',
                 result.warnings.slice(0, 3).join('; ')];
  for (const text of texts) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.appendChild(cell);
  }
  document.getElementById('summary').appendChild(row);
}

function onModuleClick(event) {
  const index = Number(event.currentTarget.dataset.index);
  const name = MODULES[index];
  const result = lintModule(index);
  showResult(name, result);
  state.checked += 1;
  document.getElementById('status').textContent = name + ' checked';
  document.body.dataset.loaded = String(state.checked);
}

function setup() {
  const nav = document.getElementById('modules');
  MODULES.forEach(function addButton(name, index) {
    const button = document.createElement('button');
    button.textContent = name;
    button.dataset.module = name;
    button.dataset.index = String(index);
    button.addEventListener('click', onModuleClick);
    nav.appendChild(button);
  });
  document.body.dataset.ready = '1';
}

if (typeof document !== 'undefined') setup();
else module.exports = {makeModule, MODULES};
