/* Flow module checker: each Check button builds a seeded Flow-typed
 * JavaScript module (the same on every load: functions with typed
 * parameters, local variables, calls, member chains and a few ternaries),
 * parses it with babylon and the "flow" plugin, then walks the AST to count
 * node kinds and shows the counts and a checksum.
 *
 * babylon 6.x ships no browser build, so the page loads the package's
 * unminified CommonJS files (lib/*.js) with a small CommonJS shim: it
 * fetches every file of the list below and runs each one, when it is first
 * required, as a function of (exports, require, module), named by a
 * sourceURL that is the file's own address. The few babel-runtime helpers
 * the files require are small stand-ins written here. The modules have no
 * comments, so both versions build the same AST.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const FILES = [
  'index.js', 'options.js', 'parser/comments.js', 'parser/expression.js',
  'parser/index.js', 'parser/location.js', 'parser/lval.js', 'parser/node.js',
  'parser/statement.js', 'parser/util.js', 'plugins/flow.js', 'plugins/jsx/index.js',
  'plugins/jsx/xhtml.js', 'tokenizer/context.js', 'tokenizer/index.js',
  'tokenizer/state.js', 'tokenizer/types.js', 'util/identifier.js',
  'util/location.js', 'util/whitespace.js'
];
const BASE = 'lib/babylon/';
const MODULES = [
  {name: 'billing', functions: 420, seed: 1101},
  {name: 'search', functions: 400, seed: 2207},
  {name: 'reports', functions: 440, seed: 3313}
];

/* Stand-ins for the babel-runtime helpers that babylon's Babel 6 output requires. */
const RUNTIME = {
  'babel-runtime/helpers/classCallCheck': function (instance, Ctor) {
    if (!(instance instanceof Ctor)) throw new TypeError('Cannot call a class as a function');
  },
  'babel-runtime/helpers/createClass': function (Ctor, protoProps, staticProps) {
    function define(target, props) {
      for (const p of props) {
        Object.defineProperty(target, p.key, {value: p.value, enumerable: !!p.enumerable,
          configurable: true, writable: true});
      }
    }
    if (protoProps) define(Ctor.prototype, protoProps);
    if (staticProps) define(Ctor, staticProps);
    return Ctor;
  },
  'babel-runtime/helpers/inherits': function (Sub, Super) {
    Sub.prototype = Object.create(Super && Super.prototype,
      {constructor: {value: Sub, enumerable: false, writable: true, configurable: true}});
    if (Super) Object.setPrototypeOf(Sub, Super);
  },
  'babel-runtime/helpers/possibleConstructorReturn': function (self, result) {
    return result && (typeof result === 'object' || typeof result === 'function') ? result : self;
  },
  'babel-runtime/core-js/get-iterator': function (obj) { return obj[Symbol.iterator](); },
  'babel-runtime/core-js/object/create': Object.create,
  'babel-runtime/core-js/object/get-prototype-of': Object.getPrototypeOf
};

const sources = {};
const modules = {};
const state = {babylon: null, shown: 0};

function normalize(parts) {
  const out = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop(); else out.push(p);
  }
  return out.join('/');
}

function resolve(from, request) {
  const dir = from.split('/').slice(0, -1);
  const path = normalize(dir.concat(request.split('/')));
  if (sources[path + '.js'] !== undefined) return path + '.js';
  if (sources[path + '/index.js'] !== undefined) return path + '/index.js';
  if (sources[path] !== undefined) return path;
  throw new Error('module not loaded: ' + request + ' from ' + from);
}

function load(path) {
  if (modules[path]) return modules[path].exports;
  const module = {exports: {}};
  modules[path] = module;
  const url = new URL(BASE + path, location.href).href;
  const fn = (0, eval)('(function (exports, require, module) {\n' + sources[path] +
    '\n})\n//# sourceURL=' + url);
  fn.call(module.exports, module.exports, function (request) {
    if (request in RUNTIME) return RUNTIME[request];
    return load(resolve(path, request));
  }, module);
  return module.exports;
}

function rng(seed) {
  let s = seed >>> 0;
  return function () {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const TYPES = ['number', 'string', 'boolean', 'Array<number>', '?string', 'Object'];
const NAMES = ['total', 'count', 'label', 'items', 'rate', 'limit', 'offset', 'price', 'key', 'flag'];

function buildSource(m) {
  const r = rng(m.seed);
  const pick = function (list) { return list[r() % list.length]; };
  const out = [];
  for (let f = 0; f < m.functions; f++) {
    const a = pick(NAMES), b = pick(NAMES) + '2';
    out.push('function ' + m.name + 'Step' + f + '(' + a + ': ' + pick(TYPES) + ', ' +
      b + ': ' + pick(TYPES) + '): number {');
    for (let s = 0; s < 6; s++) {
      const v = 'v' + s;
      switch (r() % 4) {
        case 0:
          out.push('  var ' + v + ': number = ' + a + ' + ' + (r() % 100) + ' * ' + b + '.length;');
          break;
        case 1:
          out.push('  var ' + v + ' = helpers.compute(' + a + ', ' + b + ', [' + (r() % 9) + ', ' +
            (r() % 7) + ', ' + (r() % 5) + ']);');
          break;
        case 2:
          out.push('  var ' + v + ' = ' + a + ' > ' + (r() % 50) + ' ? ' + b + ' : ' + (r() % 3) + ';');
          break;
        default:
          out.push('  var ' + v + ' = {id: ' + (r() % 1000) + ', name: "' + pick(NAMES) +
            '", value: ' + a + ' - ' + (r() % 10) + '};');
      }
    }
    out.push('  return v0 + v1 + v2 + v3 + v4 + v5 + ' + (r() % 1000) + ';');
    out.push('}');
  }
  return out.join('\n');
}

function walk(node, counts) {
  if (!node || typeof node.type !== 'string') return;
  counts[node.type] = (counts[node.type] || 0) + 1;
  for (const key in node) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'extra') continue;
    const val = node[key];
    if (Array.isArray(val)) { for (const v of val) walk(v, counts); }
    else if (val && typeof val === 'object' && typeof val.type === 'string') walk(val, counts);
  }
}

function checksum(text) {
  let h = 2166136261 >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return ('00000000' + h.toString(16)).slice(-8);
}

function checkModule(index) {
  const m = MODULES[index];
  const code = buildSource(m);
  const ast = state.babylon.parse(code, {sourceType: 'module', plugins: ['flow']});
  const counts = {};
  walk(ast.program, counts);
  const summary = Object.keys(counts).sort().map(function (k) { return k + '=' + counts[k]; }).join(' ');
  const row = document.createElement('tr');
  for (const cell of [m.name, code.length, ast.tokens.length, counts.FunctionDeclaration || 0,
    counts.ConditionalExpression || 0, checksum(summary)]) {
    const td = document.createElement('td');
    td.textContent = String(cell);
    row.appendChild(td);
  }
  document.querySelector('#summary tbody').appendChild(row);
  document.getElementById('counts').textContent = summary;
  state.shown += 1;
  document.getElementById('status').textContent = 'Checked ' + m.name;
  document.body.dataset.shown = String(state.shown);
}

async function init() {
  await Promise.all(FILES.map(async function (path) {
    const res = await fetch(BASE + path);
    if (res.ok) sources[path] = await res.text();
  }));
  state.babylon = load('index.js');
  MODULES.forEach(function (m, i) {
    document.getElementById('check' + i).addEventListener('click', function () {
      checkModule(i);
    });
  });
  document.getElementById('status').textContent = 'Ready';
  document.body.dataset.ready = '1';
}

if (typeof window !== 'undefined') init();
