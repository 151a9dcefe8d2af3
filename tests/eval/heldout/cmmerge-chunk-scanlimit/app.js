/* Policy diff review: three seeded pairs of a managed-browser policy file
 * (the same on every load). Each Compare button opens a side-by-side
 * CodeMirror merge view (@codemirror/merge MergeView) of the previous and
 * the new version of one policy file, then lists the changed chunks the
 * merge view computed and a checksum of them.
 *
 * In every pair only the packed "allowlist" line differs: the previous
 * version stores it as nibbles written with the letters a-p, the new one as
 * upper-case base32 (A-Z, 2-7). The two encodings share no character, so
 * the diff has a single changed range on that line whatever its precision.
 *
 * The CodeMirror 6 packages ship CommonJS builds (dist/index.cjs) that
 * require each other, so the page loads each published file with a small
 * CommonJS loader: it fetches lib/<package>/<file>, runs the text as the
 * body of a function (module, exports, require), and names the code after
 * the file's URL with a sourceURL comment. The files themselves are the
 * published ones.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

/* require name -> file under lib/, in load order (dependencies first) */
const MODULES = [
  ['style-mod', 'style-mod/style-mod.cjs'],
  ['w3c-keyname', 'w3c-keyname/index.cjs'],
  ['@codemirror/state', 'state/index.cjs'],
  ['@codemirror/view', 'view/index.cjs'],
  ['@lezer/common', 'lezer-common/index.cjs'],
  ['@lezer/highlight', 'lezer-highlight/index.cjs'],
  ['@codemirror/language', 'language/index.cjs'],
  ['@codemirror/merge', 'merge/index.cjs']
];
const POLICIES = ['staging', 'beta', 'release'];
const NIBBLES = [3200, 3600, 4000];  /* length of the previous allowlist line */
const RULES = 40;                    /* unchanged rule lines around it */

const registry = {};
const state = {cm: null, merge: null, view: null, shown: 0};

function requireModule(name) {
  if (!(name in registry)) throw new Error('module not loaded: ' + name);
  return registry[name];
}

function loadModule(entry) {
  const url = new URL('lib/' + entry[1], location.href).href;
  return fetch(url).then(function (res) { return res.text(); }).then(function (text) {
    const module = {exports: {}};
    /* the wrapper shares the file's first line, so line numbers stay the same */
    const factory = (0, eval)('(function (module, exports, require) {' + text +
      '\n})\n//# sourceURL=' + url);
    factory(module, module.exports, requireModule);
    registry[entry[0]] = module.exports;
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

const HEX_LETTERS = 'abcdefghijklmnop';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/* Returns [previous, next] text of one policy file. */
function makePolicy(index) {
  const rand = seededRandom(4400 + index * 31);
  const head = ['{', '  "policy": "' + POLICIES[index] + '",', '  "schema": 3,'];
  const rules = [];
  for (let i = 0; i < RULES; i++) {
    rules.push('  "rule_' + i + '": {"enabled": ' + (rand() < 0.7 ? 'true' : 'false') +
      ', "weight": ' + Math.floor(rand() * 100) + ', "scope": "' +
      (rand() < 0.5 ? 'user' : 'device') + '"},');
  }
  const tail = rules.concat(['  "updated_by": "policy-sync"', '}']);
  let before = '', after = '';
  for (let i = 0; i < NIBBLES[index]; i++) before += HEX_LETTERS[Math.floor(rand() * 16)];
  const packed = Math.round(NIBBLES[index] * 4 / 5);
  for (let i = 0; i < packed; i++) after += BASE32[Math.floor(rand() * 32)];
  return [
    head.concat(['  "allowlist": "' + before + '",'], tail).join('\n'),
    head.concat(['  "allowlist": "' + after + '",'], tail).join('\n')
  ];
}

function checksum(text) {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

function compare(index) {
  const t0 = performance.now();
  const docs = makePolicy(index);
  if (state.view) state.view.destroy();
  const readOnly = [state.cm.EditorView.editable.of(false), state.cm.EditorState.readOnly.of(true)];
  state.view = new state.merge.MergeView({
    a: {doc: docs[0], extensions: readOnly},
    b: {doc: docs[1], extensions: readOnly},
    parent: document.getElementById('merge')
  });
  const rows = state.view.chunks.map(function (chunk) {
    return 'A ' + chunk.fromA + '-' + chunk.toA + '  B ' + chunk.fromB + '-' + chunk.toB +
      '  changes ' + chunk.changes.map(function (c) {
        return c.fromA + '-' + c.toA + '/' + c.fromB + '-' + c.toB;
      }).join(' ');
  });
  document.getElementById('chunks').textContent = rows.join('\n');
  state.shown += 1;
  document.getElementById('status').textContent = 'Compared ' + POLICIES[index] + ' policy: ' +
    rows.length + ' changed chunk(s), checksum ' + checksum(rows.join('\n')) + ', ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.dataset.shown = String(state.shown);
}

function setup() {
  MODULES.reduce(function (p, entry) {
    return p.then(function () { return loadModule(entry); });
  }, Promise.resolve()).then(function () {
    state.cm = {EditorView: registry['@codemirror/view'].EditorView,
      EditorState: registry['@codemirror/state'].EditorState};
    state.merge = registry['@codemirror/merge'];
    for (let i = 0; i < POLICIES.length; i++) {
      document.getElementById('cmp' + i).addEventListener('click', function onCompare() { compare(i); });
    }
    document.getElementById('status').textContent = 'Ready';
    document.body.dataset.ready = '1';
  });
}

setup();
