/* Stylesheet audit: the page builds a seeded stylesheet (the same on every
 * load), parses it once with PostCSS on load, and each Audit button walks
 * the parsed tree with Container#each to report one kind of finding
 * (property counts, repeated declarations, colour values), then shows the
 * totals and a checksum.
 *
 * PostCSS 4.x/5.x ship no browser build, so the page loads the package's
 * unminified CommonJS files (lib/*.js) one by one with a small CommonJS
 * shim: each file sees a global `module`, `exports` and `require`; the few
 * Node modules that the parser's files name at their top (path, fs,
 * source-map, js-base64, supports-color) are empty stand-ins, never called
 * on this page. Files a version does not have (stringifier.js and
 * stringify.js in 4.1.16) answer 404 and are skipped.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const MODULES = ['warn-once', 'css-syntax-error', 'stringifier', 'stringify',
  'node', 'declaration', 'comment', 'list', 'container', 'at-rule', 'rule',
  'root', 'tokenize', 'previous-map', 'input', 'parser', 'parse'];
const RULES = 6000;   /* rules in the stylesheet */
const PASSES = 40;    /* walks of the tree per audit */

const registry = {path: {resolve: function (p) { return p; }}, fs: {},
  'source-map': {}, 'js-base64': {Base64: {}}, 'supports-color': false};
const state = {root: null, shown: 0};

window.require = function require(path) {
  const name = path.replace(/^\.\//, '').replace(/\.js$/, '');
  if (!(name in registry)) throw new Error('module not loaded: ' + path);
  return registry[name];
};

function loadNext(i, done) {
  if (i >= MODULES.length) { done(); return; }
  const name = MODULES[i];
  window.module = {exports: {}};
  window.exports = window.module.exports;
  const script = document.createElement('script');
  script.src = 'lib/postcss/' + name + '.js';
  script.onload = function () { registry[name] = window.module.exports; loadNext(i + 1, done); };
  script.onerror = function () { loadNext(i + 1, done); };
  document.body.appendChild(script);
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

function buildCss() {
  const r = rng(20151107);
  const out = [];
  for (let i = 0; i < RULES; i++) {
    const decls = [];
    const n = 2 + Math.floor(r() * 5);
    for (let j = 0; j < n; j++) {
      const p = PROPS[Math.floor(r() * PROPS.length)];
      const v = p === 'color' || p === 'background'
        ? '#' + Math.floor(r() * 0xffffff).toString(16).padStart(6, '0')
        : Math.floor(r() * 40) + 'px';
      decls.push(p + ': ' + v);
    }
    const rule = '.c' + i + ' > .item' + (i % 17) + ' { ' + decls.join('; ') + ' }';
    if (i % 10 === 0) out.push('@media (min-width: ' + (300 + i % 900) + 'px) { ' + rule + ' }');
    else out.push(rule);
  }
  return out.join('\n');
}

/* Visits every node below `container` with Container#each (the same API in
 * both versions) and hands declarations to `onDecl`. */
function visit(container, onDecl) {
  container.each(function (node) {
    if (node.type === 'decl') onDecl(node);
    else if (node.nodes) visit(node, onDecl);
  });
}

const AUDITS = [
  function propertyCounts(root) {
    const counts = {};
    let total = 0;
    for (let p = 0; p < PASSES; p++) {
      visit(root, function (d) { counts[d.prop] = (counts[d.prop] || 0) + 1; total++; });
    }
    return {findings: Object.keys(counts).length, total: total,
      sum: Object.keys(counts).sort().map(function (k) { return k + counts[k]; }).join()};
  },
  function repeatedDeclarations(root) {
    let repeats = 0, total = 0, sum = '';
    for (let p = 0; p < PASSES; p++) {
      root.each(function walkRule(node) {
        if (node.nodes && node.type !== 'rule') { node.each(walkRule); return; }
        if (node.type !== 'rule') return;
        const seen = {};
        node.each(function (d) {
          total++;
          if (seen[d.prop]) repeats++;
          seen[d.prop] = true;
        });
      });
    }
    sum = repeats + '/' + total;
    return {findings: repeats, total: total, sum: sum};
  },
  function colourValues(root) {
    const colours = {};
    let total = 0;
    for (let p = 0; p < PASSES; p++) {
      visit(root, function (d) {
        total++;
        if (d.value.charAt(0) === '#') colours[d.value] = true;
      });
    }
    return {findings: Object.keys(colours).length, total: total, sum: String(Object.keys(colours).length)};
  }
];

function checksum(text) {
  let h = 2166136261 >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16);
}

function runAudit(i) {
  const res = AUDITS[i](state.root);
  const row = document.createElement('tr');
  [AUDITS[i].name, res.findings, res.total, checksum(res.sum)].forEach(function (v) {
    const td = document.createElement('td');
    td.textContent = String(v);
    row.appendChild(td);
  });
  document.querySelector('#summary tbody').appendChild(row);
  state.shown++;
  document.body.dataset.shown = String(state.shown);
  document.getElementById('status').textContent = 'Audits shown: ' + state.shown;
}

loadNext(0, function () {
  const parse = registry.parse;
  state.root = (parse['default'] || parse)(buildCss());
  for (let i = 0; i < AUDITS.length; i++) {
    document.getElementById('audit' + i).addEventListener('click', function () { runAudit(i); });
  }
  document.getElementById('status').textContent = 'Ready: ' + state.root.nodes.length + ' top-level nodes';
  document.body.dataset.ready = '1';
});
