/* Bundle linter: three generated "bundles" (seeded, the same on every load).
 * Each has a long run of blank lines (as a concatenation tool leaves between
 * modules) and then a block of string constants, some with needless escapes.
 * Each Lint button runs ESLint's Linter (the browser build) with the
 * no-useless-escape rule over one bundle and lists what it found. Every
 * report turns a character index into a line/column with
 * SourceCode#getLocFromIndex. A real regression for zamcap's accuracy
 * experiment (NOTE.md). */
'use strict';

const BUNDLES = ['vendor', 'app', 'test'];
const BLANK_LINES = 40000; /* blank lines before the constants */
const CONSTANTS = 500;     /* string constants after them */
const ESCAPES = ['\\q', '\\%', '\\a', '\\#', '\\@', '\\-'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa'];

const state = {linter: null, shown: 0};

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

function makeBundle(index) {
  const rand = seededRandom(7100 + index * 31);
  const lines = ['/* bundle: ' + BUNDLES[index] + ' */'];
  for (let i = 0; i < BLANK_LINES; i++) lines.push('');
  for (let i = 0; i < CONSTANTS; i++) {
    /* two needless escapes per constant */
    const text = pick(rand, WORDS) + pick(rand, ESCAPES) + pick(rand, WORDS) +
      pick(rand, ESCAPES) + pick(rand, WORDS);
    lines.push('var k' + i + ' = "' + text + '";');
  }
  return lines.join('\n');
}

function lintBundle(index) {
  const t0 = performance.now();
  const code = makeBundle(index);
  const messages = state.linter.verify(code, {rules: {'no-useless-escape': 'error'}});
  let sum = 0;
  for (let i = 0; i < messages.length; i++) sum = (sum * 31 + messages[i].line * 97 + messages[i].column) % 1000000007;
  const last = messages[messages.length - 1];
  state.shown++;
  document.getElementById('report').textContent =
    BUNDLES[index] + ': ' + messages.length + ' problems, last at ' +
    last.line + ':' + last.column + ' (' + last.message + '), checksum ' + sum;
  document.getElementById('status').textContent =
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.linter = new eslint.Linter();
  for (let i = 0; i < BUNDLES.length; i++) {
    document.getElementById('lint' + i).addEventListener('click', function onLint() { lintBundle(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
