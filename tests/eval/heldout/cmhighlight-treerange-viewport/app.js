/* Stock sheet editor: a CodeMirror 6 (0.18) editor holding a large,
 * seeded JSON stock sheet (the same on every load), highlighted by
 * @codemirror/highlight's tree highlighter with the JSON language.
 * Each Restock button types a run of edits into the restock counters at
 * the top of the sheet (one transaction per edit, as a user typing would
 * produce), then logs a checksum of the document and of the highlighted
 * lines the editor shows.
 *
 * After every edit the highlighter rebuilds its decorations for the
 * visible part of the document. In @codemirror/highlight 0.18.0 the tree
 * walk behind it no longer stopped at the visible range, so each edit
 * walked the syntax tree of the whole sheet (fixed in 0.18.1).
 *
 * The CodeMirror 0.18 packages ship CommonJS builds (dist/index.cjs) that
 * require each other, so the page loads each published file with a small
 * CommonJS loader: it fetches lib/<package>/<file>, runs the text as the
 * body of a function (module, exports, require) and names the code after
 * the file's URL with a sourceURL comment. The files themselves are the
 * published ones.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

/* require name -> file under lib/, dependencies first */
const MODULES = [
  ['style-mod', 'style-mod/style-mod.cjs'],
  ['w3c-keyname', 'w3c-keyname/index.cjs'],
  ['@codemirror/text', 'text/index.cjs'],
  ['@codemirror/state', 'state/index.cjs'],
  ['@codemirror/rangeset', 'rangeset/index.cjs'],
  ['@codemirror/view', 'view/index.cjs'],
  ['lezer-tree', 'lezer-tree/tree.cjs'],
  ['lezer', 'lezer/index.cjs'],
  ['@codemirror/language', 'language/index.cjs'],
  ['@codemirror/highlight', 'highlight/index.cjs'],
  ['lezer-json', 'lezer-json/index.cjs'],
  ['@codemirror/lang-json', 'lang-json/index.cjs']
];
const RECORDS = 4500;       /* records in the stock sheet */
const EDITS = [60, 60, 60];    /* counter edits per click */
const WAREHOUSES = ['north', 'east', 'south'];
const COUNTERS = 12;        /* restock counters above the item list */

const registry = {};
const state = {view: null, shown: 0};

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

function hash(str, h) {
  h = h >>> 0;
  for (let i = 0; i < str.length; i++) h = Math.imul(h ^ str.charCodeAt(i), 16777619) >>> 0;
  return h;
}

const WORDS = ['bolt', 'nut', 'washer', 'hinge', 'bracket', 'spring', 'gasket',
  'valve', 'clamp', 'rivet', 'pin', 'bearing', 'flange', 'coupler'];

function buildSheet() {
  const rnd = seededRandom(20210303);
  const lines = ['{', '  "sheet": "stock",', '  "restocked": {'];
  for (let c = 0; c < COUNTERS; c++) {
    lines.push('    "bay-' + (c + 1) + '": ' + Math.floor(rnd() * 500) + (c < COUNTERS - 1 ? ',' : ''));
  }
  lines.push('  },', '  "items": [');
  for (let i = 0; i < RECORDS; i++) {
    const word = WORDS[Math.floor(rnd() * WORDS.length)];
    lines.push('    {');
    lines.push('      "sku": "P-' + String(100000 + i) + '",');
    lines.push('      "name": "' + word + ' ' + Math.floor(rnd() * 90 + 10) + 'mm",');
    lines.push('      "qty": ' + Math.floor(rnd() * 500) + ',');
    lines.push('      "price": ' + (rnd() * 100).toFixed(2) + ',');
    lines.push('      "active": ' + (rnd() < 0.8 ? 'true' : 'false') + ',');
    lines.push('      "tags": ["' + word + '", "bin-' + Math.floor(rnd() * 40) + '", null]');
    lines.push('    }' + (i < RECORDS - 1 ? ',' : ''));
  }
  lines.push('  ]', '}');
  return lines.join('\n');
}

/* the counter number on line `lineNo` (1-based) */
function counterRange(doc, lineNo) {
  const line = doc.line(lineNo);
  const m = /": (\d+)/.exec(line.text);
  const from = line.from + m.index + 3;
  return {from: from, to: from + m[1].length};
}

/* the lines the editor shows, with each highlighted token's text and colour
   (the generated class names differ between releases, the colours do not) */
function shownLines(view) {
  const out = [];
  view.contentDOM.querySelectorAll('.cm-line').forEach(function (line) {
    out.push(line.textContent);
    line.querySelectorAll('span').forEach(function (span) {
      out.push(span.textContent + '=' + getComputedStyle(span).color);
    });
  });
  return out.join('\n');
}

function restock(which) {
  const view = state.view;
  const rnd = seededRandom(7000 + which);
  const t0 = performance.now();
  for (let k = 0; k < EDITS[which]; k++) {
    /* counter c is on line 4 + c */
    const range = counterRange(view.state.doc, 4 + (k % COUNTERS));
    const qty = String(Math.floor(rnd() * 900) + 1);
    view.dispatch({changes: {from: range.from, to: range.to, insert: qty},
                   selection: {anchor: range.from + qty.length}});
  }
  const ms = performance.now() - t0;
  const doc = view.state.doc.toString();
  const sum = hash(shownLines(view), hash(doc, 2166136261));
  state.shown += 1;
  document.getElementById('log').textContent +=
    WAREHOUSES[which] + ': ' + EDITS[which] + ' edits, doc ' + doc.length +
    ' chars, checksum ' + sum.toString(16) + ' (' + ms.toFixed(0) + ' ms)\n';
  document.body.dataset.shown = String(state.shown);
  document.body.dataset.checksum = sum.toString(16);
}

function whenParsed(view, lang, done) {
  const started = performance.now();
  (function poll() {
    if (lang.syntaxTree(view.state).length >= view.state.doc.length ||
        performance.now() - started > 20000) done();
    else setTimeout(poll, 50);
  })();
}

function start() {
  const cmState = requireModule('@codemirror/state');
  const cmView = requireModule('@codemirror/view');
  const lang = requireModule('@codemirror/language');
  const highlight = requireModule('@codemirror/highlight');
  const json = requireModule('@codemirror/lang-json');
  state.view = new cmView.EditorView({
    state: cmState.EditorState.create({
      doc: buildSheet(),
      extensions: [json.json(), highlight.defaultHighlightStyle]
    }),
    parent: document.getElementById('editor')
  });
  WAREHOUSES.forEach(function (w, i) {
    document.getElementById('upd' + i).addEventListener('click', function () { restock(i); });
  });
  whenParsed(state.view, lang, function () {
    document.getElementById('status').textContent =
      'Ready: ' + state.view.state.doc.lines + ' lines, parsed ' +
      lang.syntaxTree(state.view.state).length;
    document.body.dataset.ready = '1';
    if (/[?&]auto=1/.test(location.search)) [0, 1, 2].forEach(restock);
  });
}

MODULES.reduce(function (p, entry) {
  return p.then(function () { return loadModule(entry); });
}, Promise.resolve()).then(start).catch(function (err) {
  document.getElementById('status').textContent = 'Error: ' + err;
  throw err;
});
