/* Validation rules console: three packs of form-validation rules, each a
 * generated JavaScript module (seeded, the same on every load) full of
 * regular-expression literals. Loading a pack parses its source with acorn
 * to list the rules before they are used, as rule editors and linters do.
 * A held-out real regression for zamcap's accuracy experiment
 * (tests/eval/heldout/acorn-regexpvalidate/NOTE.md): acorn 5.5.0 runs its
 * new in-library regular expression validator on every regex literal it
 * reads. */
'use strict';

const PACKS = ['Contacts', 'Payments', 'Shipping'];
const RULES = 10000;
const FIELDS = ['email', 'phone', 'zip', 'iban', 'sku', 'handle', 'vat', 'code'];
const PIECES = ['[a-z0-9._%+-]+', '\\d{3}-\\d{4}', '[A-Z]{2}\\d{2}[A-Z0-9]{4,30}', '(?:x\\d+)?',
                '[a-z0-9-]+\\.', '[A-F0-9]{8}', '\\s*', '(?:\\+\\d{1,3})?'];

const state = {packs: {}, loaded: 0};

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

function makePattern(rand) {
  const parts = [];
  for (let p = 0; p < 4; p++) parts.push(PIECES[Math.floor(rand() * PIECES.length)]);
  return '^(?:' + parts.join('') + ')$|^' + PIECES[Math.floor(rand() * PIECES.length)] + '$';
}

function makePack(index) {
  const rand = seededRandom(510 + index);
  const lines = ['export const rules = [];'];
  for (let i = 0; i < RULES; i++) {
    const field = FIELDS[Math.floor(rand() * FIELDS.length)];
    lines.push('rules.push({field: "' + field + '", id: ' + i + ', test: /' + makePattern(rand) + '/i, ' +
               'strict: /' + makePattern(rand) + '/});');
  }
  return lines.join('\n');
}

function listRules(ast) {
  const counts = {};
  for (const stmt of ast.body) {
    if (stmt.type !== 'ExpressionStatement') continue;
    const field = stmt.expression.arguments[0].properties[0].value.value;
    counts[field] = (counts[field] || 0) + 1;
  }
  return counts;
}

function renderSummary(counts) {
  document.getElementById('summary').innerHTML = Object.keys(counts).sort().map(function countRow(k) {
    return '<tr><td>' + k + '</td><td>' + counts[k] + '</td></tr>';
  }).join('');
}

function onPackClick(event) {
  const name = event.target.dataset.pack;
  if (!name) return;
  const ast = acorn.parse(state.packs[name], {ecmaVersion: 9, sourceType: 'module'});
  const counts = listRules(ast);
  renderSummary(counts);
  document.getElementById('status').textContent = name + ': ' + (ast.body.length - 1) + ' rules';
  state.loaded++;
  document.body.dataset.loaded = String(state.loaded);
}

function main() {
  const nav = document.getElementById('packs');
  PACKS.forEach(function addPack(name, index) {
    state.packs[name] = makePack(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.pack = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onPackClick);
  document.body.dataset.ready = '1';
}

main();
