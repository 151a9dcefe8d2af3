/* Stylesheet outline: each button builds one seeded stylesheet (the same
 * text on every load), parses it with PostCSS's `parse`, and shows an outline
 * of the tree: rules, declarations, at-rules, comments, the last line a node
 * ends on, and a checksum of every node's source start and end positions.
 *
 * PostCSS 8.1.x ships no browser build, so the page loads the package's
 * unminified CommonJS files (lib/*.js) with a small CommonJS shim: it
 * fetches every file of the list below and runs each one, when it is first
 * required, as a function of (exports, require, module), named by a
 * sourceURL that is the file's own address (the files declare top-level
 * `let`s, so they cannot run as plain scripts side by side). The position
 * helpers the two versions use are loaded in both builds (line-column with
 * isarray and isobject, and vfile-location); each PostCSS version requires
 * only its own. The Node modules that the parser's files name at their top
 * (url, path, fs, source-map, colorette, nanoid/non-secure) are small
 * stand-ins; only nanoid is called (for the input's id), and its stand-in
 * returns a fixed string. Both versions give the same result.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

/* request name -> file under lib/ */
const FILES = {
  'isarray': 'isarray/index.js',
  'isobject': 'isobject/index.js',
  'line-column': 'line-column/line-column.js',
  'vfile-location': 'vfile-location/index.js'
};
['symbols', 'tokenize', 'terminal-highlight', 'css-syntax-error',
  'stringifier', 'stringify', 'node', 'declaration', 'comment', 'container',
  'at-rule', 'list', 'rule', 'root', 'previous-map', 'input', 'parser',
  'parse'].forEach(function (m) { FILES['./' + m] = 'postcss/' + m + '.js'; });

/* The three stylesheets: rules in each (every rule is 4 to 8 lines). */
const SHEETS = [
  {name: 'base.css', seed: 20201121, rules: 1600},
  {name: 'components.css', seed: 20201203, rules: 1800},
  {name: 'utilities.css', seed: 20201209, rules: 1700}
];

function plain(s) { return String(s); }
const BUILTINS = {
  url: {fileURLToPath: plain, pathToFileURL: plain},
  path: {resolve: plain, isAbsolute: function () { return false; },
    dirname: plain, join: plain},
  fs: {existsSync: function () { return false; }, readFileSync: plain},
  'source-map': {SourceMapConsumer: function () {}, SourceMapGenerator: function () {}},
  colorette: {cyan: plain, gray: plain, green: plain, yellow: plain,
    magenta: plain, red: plain, bold: plain, options: {enabled: false}},
  'nanoid/non-secure': {nanoid: function () { return 'page01'; }}
};
window.process = window.process || {env: {}};

const sources = {};   // file under lib/ -> text
const modules = {};   // file under lib/ -> module
const state = {parse: null, shown: 0};

function requireFile(request) {
  if (BUILTINS[request]) return BUILTINS[request];
  const file = FILES[request.replace(/\.js$/, '')];
  if (!file || sources[file] === undefined) throw new Error('module not loaded: ' + request);
  if (modules[file]) return modules[file].exports;
  const module = {exports: {}};
  modules[file] = module;
  const url = new URL('lib/' + file, location.href).href;
  const fn = (0, eval)('(function (exports, require, module) {' + sources[file] +
    '\n})\n//# sourceURL=' + url);
  fn.call(module.exports, module.exports, requireFile, module);
  return module.exports;
}

function fetchAll() {
  return Promise.all(Object.keys(FILES).map(function (k) {
    const file = FILES[k];
    return fetch('lib/' + file).then(function (r) { return r.ok ? r.text() : null; })
      .then(function (t) { if (t !== null) sources[file] = t; });
  }));
}

function rng(seed) {
  let s = seed >>> 0;
  return function () {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROPS = ['color', 'background', 'margin', 'padding', 'border',
  'display', 'width', 'height', 'font-size', 'line-height', 'opacity'];
const BLOCKS = ['card', 'grid', 'nav', 'button', 'panel', 'list', 'badge'];

function declText(r) {
  const p = PROPS[Math.floor(r() * PROPS.length)];
  let v;
  if (p === 'color' || p === 'background') v = '#' + Math.floor(r() * 0xffffff).toString(16).padStart(6, '0');
  else if (p === 'display') v = r() < 0.5 ? 'flex' : 'block';
  else if (p === 'opacity') v = (Math.floor(r() * 10) / 10).toFixed(1);
  else v = Math.floor(r() * 40) + 'px ' + Math.floor(r() * 20) + 'px';
  return p + ': ' + v + ';';
}

/* One seeded stylesheet, one declaration per line, as a formatter writes it. */
function buildStylesheet(sheet) {
  const r = rng(sheet.seed);
  const out = [];
  for (let i = 0; i < sheet.rules; i++) {
    if (i % 50 === 0) out.push('/* section ' + (i / 50) + ' */');
    const block = BLOCKS[Math.floor(r() * BLOCKS.length)];
    const sel = '.' + block + '-' + i + ' .item-' + (i % 13);
    const decls = [];
    const n = 2 + Math.floor(r() * 5);
    for (let j = 0; j < n; j++) decls.push(declText(r));
    if (i % 9 === 0) {
      out.push('@media (min-width: ' + (320 + (i % 8) * 160) + 'px) {');
      out.push('  ' + sel + ' {');
      decls.forEach(function (d) { out.push('    ' + d); });
      out.push('  }');
      out.push('}');
    } else {
      out.push(sel + ',');
      out.push(sel + ':hover {');
      decls.forEach(function (d) { out.push('  ' + d); });
      out.push('}');
    }
  }
  return out.join('\n') + '\n';
}

/* Walks the parsed tree and folds every node's source positions. */
function outlineTree(root) {
  const res = {rules: 0, decls: 0, atrules: 0, comments: 0, lastLine: 0, sum: 0};
  (function visit(node) {
    const src = node.source;
    if (src && src.start && src.end) {
      res.sum = (res.sum * 31 + src.start.line * 1009 + src.start.column * 7 +
        src.end.line * 13 + src.end.column) % 1000000007;
      if (src.end.line > res.lastLine) res.lastLine = src.end.line;
    }
    if (node.type === 'rule') res.rules++;
    else if (node.type === 'decl') res.decls++;
    else if (node.type === 'atrule') res.atrules++;
    else if (node.type === 'comment') res.comments++;
    if (node.nodes) node.nodes.forEach(visit);
  })(root);
  return res;
}

function outlineSheet(i) {
  const sheet = SHEETS[i];
  const css = buildStylesheet(sheet);
  const root = state.parse(css);
  const res = outlineTree(root);
  const row = document.createElement('tr');
  [sheet.name, res.rules, res.decls, res.atrules, res.comments, res.lastLine, res.sum]
    .forEach(function (v) {
      const td = document.createElement('td');
      td.textContent = String(v);
      row.appendChild(td);
    });
  document.querySelector('#summary tbody').appendChild(row);
  state.shown++;
  document.body.dataset.shown = String(state.shown);
  document.getElementById('status').textContent = 'Outlines shown: ' + state.shown;
}

fetchAll().then(function () {
  state.parse = requireFile('./parse');
  for (let i = 0; i < SHEETS.length; i++) {
    document.getElementById('outline' + i).addEventListener('click', function () { outlineSheet(i); });
  }
  document.getElementById('status').textContent = 'Ready';
  document.body.dataset.ready = '1';
});
