/* Build log viewer: three coloured terminal logs (seeded, the same on every
 * load). Each Wrap button wraps one log to the viewer's width with
 * wrap-ansi, keeping the ANSI colour codes, then shows the wrapped lines
 * (colour codes stripped for display), the row count and a checksum of the
 * wrapped text.
 *
 * wrap-ansi and its dependencies ship only CommonJS files (index.js, with
 * top-level `const` declarations that would clash between classic
 * scripts), so the page loads each published file with a small CommonJS
 * loader: it fetches lib/<package>/index.js, runs the text as the body of a
 * function (module, exports, require), and names the code after the file's
 * URL with a sourceURL comment. The files themselves are the published ones.
 * ansi-styles names color-convert only in lazy getters the page never
 * reads, so color-convert is an empty stand-in.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const MODULES = ['ansi-regex', 'strip-ansi', 'is-fullwidth-code-point',
  'emoji-regex', 'string-width', 'ansi-styles', 'wrap-ansi'];
const LOGS = ['build', 'test', 'deploy'];
const LINES = 14;      /* long log lines per log */
const WORDS = 320;     /* coloured tokens per long line */
const SHORT = 4;       /* short plain lines before each long line */
const COLUMNS = 100;   /* viewer width in columns */

const registry = {'color-convert': {}};
const state = {wrapAnsi: null, stripAnsi: null, shown: 0};

function requireModule(name) {
  if (!(name in registry)) throw new Error('module not loaded: ' + name);
  return registry[name];
}

function loadModule(name) {
  const url = new URL('lib/' + name + '/index.js', location.href).href;
  return fetch(url).then(function (res) { return res.text(); }).then(function (text) {
    const module = {exports: {}};
    /* the wrapper shares the file's first line, so line numbers stay the same */
    const factory = (0, eval)('(function (module, exports, require) {' + text +
      '\n})\n//# sourceURL=' + url);
    factory(module, module.exports, requireModule);
    registry[name] = module.exports;
  });
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

const ESC = '\u001B';
const COLORS = [31, 32, 33, 34, 35, 36, 90];
const TOKENS = ['GET', 'POST', '/api/orders', '/api/users', 'status=200',
  'status=404', 'cache', 'hit', 'miss', 'retry', 'queue', 'worker', 'ms',
  'user_id', 'order_id', 'invoice', 'shipment', 'timeout', 'ok', 'warn'];

function colour(code, text) {
  return ESC + '[' + code + 'm' + text + ESC + '[39m';
}

/* A log is a mix of short plain lines and long lines of coloured tokens
 * (a request trace printed on one line, as a reporter or logger does):
 * each long line follows SHORT short step lines. */
function makeLog(index) {
  const rand = seededRandom(7100 + index * 13);
  const lines = [];
  for (let i = 0; i < LINES; i++) {
    for (let j = 0; j < SHORT; j++) {
      lines.push(colour(90, '[' + LOGS[index] + ' ' + i + '.' + j + ']') + ' step finished');
    }
    const parts = [];
    for (let w = 0; w < WORDS; w++) {
      const tok = TOKENS[Math.floor(rand() * TOKENS.length)];
      parts.push(colour(COLORS[Math.floor(rand() * COLORS.length)], tok));
    }
    lines.push(parts.join(' '));
  }
  return lines.join('\n');
}

function checksum(text) {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

function wrapLog(index) {
  const t0 = performance.now();
  const log = makeLog(index);
  const wrapped = state.wrapAnsi(log, COLUMNS);
  const rows = wrapped.split('\n');
  const shownRows = rows.slice(0, 40).map(function (row) { return state.stripAnsi(row); });
  document.getElementById('log').textContent = shownRows.join('\n');
  state.shown += 1;
  document.getElementById('status').textContent = 'Wrapped ' + LOGS[index] + ' log: ' +
    rows.length + ' rows, checksum ' + checksum(wrapped) + ', ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.dataset.shown = String(state.shown);
}

function setup() {
  MODULES.reduce(function (p, name) {
    return p.then(function () { return loadModule(name); });
  }, Promise.resolve()).then(function () {
    state.wrapAnsi = registry['wrap-ansi'];
    state.stripAnsi = registry['strip-ansi'];
    for (let i = 0; i < LOGS.length; i++) {
      document.getElementById('wrap' + i).addEventListener('click', function onWrap() { wrapLog(i); });
    }
    document.getElementById('status').textContent = 'Ready';
    document.body.dataset.ready = '1';
  });
}

setup();
