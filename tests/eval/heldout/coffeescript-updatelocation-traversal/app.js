/* Coffee build scripts: three long CoffeeScript build scripts (seeded, the
 * same on every load), each a flat list of steps at the top level. Each
 * Build button compiles one script with CoffeeScript.compile and shows the
 * start of the JavaScript.
 *
 * CommonJS shim: coffee-script 1.x ships no browser build in its npm
 * package, only the compiler's CommonJS modules in lib/coffee-script/. The
 * page loads them one by one as classic scripts; each file sees a fresh
 * global `exports` and a `require` that answers the modules loaded so far
 * (and empty stubs for Node's fs, path, vm and module, which compile() does
 * not use). A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const MODULES = ['helpers', 'rewriter', 'lexer', 'parser', 'scope', 'nodes', 'coffee-script'];
const SCRIPTS = ['Assets', 'Reports', 'Exports'];
const STEPS = 420;     /* steps per script (two statements each) */

const TASKS = ['minify', 'bundle', 'hash', 'copy', 'lint', 'gzip', 'render',
  'index', 'upload', 'verify', 'stamp', 'split'];
const TARGETS = ['css', 'js', 'img', 'fonts', 'html', 'csv', 'pdf', 'json'];

const registry = {fs: {}, path: {}, vm: {}, module: {}};
const state = {compiler: null, shown: 0};

window.require = function require(path) {
  const name = path.replace(/^\.\//, '').replace(/\.js$/, '');
  if (!(name in registry)) throw new Error('module not loaded: ' + path);
  return registry[name];
};

function loadNext(i, done) {
  if (i >= MODULES.length) { done(); return; }
  const name = MODULES[i];
  window.exports = {};
  const script = document.createElement('script');
  script.src = 'lib/coffee/' + name + '.js';
  script.onload = function () { registry[name] = window.exports; loadNext(i + 1, done); };
  document.body.appendChild(script);
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

function pick(rand, list) { return list[Math.floor(rand() * list.length)]; }

function makeScript(index) {
  const rand = seededRandom(9100 + index * 37);
  const lines = ['# Build script: ' + SCRIPTS[index], 'done = 0'];
  for (let i = 0; i < STEPS; i++) {
    const task = pick(rand, TASKS), target = pick(rand, TARGETS);
    const weight = 1 + Math.floor(rand() * 9);
    lines.push('step' + i + ' = run "' + task + '", "' + target + '/' + i + '", {weight: ' + weight + ', level: opts.level * ' + (i % 7) + '}');
    lines.push('done += step' + i + '.count if step' + i + '.ok and step' + i + '.count > ' + (i % 13));
  }
  lines.push('report done');
  return lines.join('\n');
}

function buildScript(index) {
  const t0 = performance.now();
  const source = makeScript(index);
  const js = state.compiler.compile(source, {bare: true});
  state.shown++;
  const lines = js.split('\n').length;
  document.getElementById('out').textContent = js.slice(0, 4000);
  document.getElementById('status').textContent =
    SCRIPTS[index] + ': ' + source.length + ' chars of CoffeeScript -> ' + lines +
    ' lines, ' + js.length + ' chars of JavaScript, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.compiler = registry['coffee-script'];
  for (let i = 0; i < SCRIPTS.length; i++) {
    document.getElementById('build' + i).addEventListener('click', function onBuild() { buildScript(i); });
  }
  document.getElementById('status').textContent = 'CoffeeScript ' + state.compiler.VERSION + ' ready';
  document.body.setAttribute('data-ready', '1');
}

loadNext(0, setup);
