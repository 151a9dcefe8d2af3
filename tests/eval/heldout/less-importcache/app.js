/* Widget kit builder: a component kit written as many Less files (seeded,
 * generated in memory, the same on every load): shared design tokens and
 * mixins, and one file per widget that imports both, as kits are usually
 * organised. Building a brand compiles the kit's entry file (which imports
 * every widget) with less.render, reading the files through a small
 * in-memory file manager. A held-out real regression for zamcap's accuracy
 * experiment (tests/eval/heldout/less-importcache/NOTE.md): Less 3.11.2
 * dropped the import manager's cache of parsed files, so the shared files
 * are parsed again for every widget that imports them. */
'use strict';

const BRANDS = {Harbor: '#1f6feb', Meadow: '#2da44e', Sunset: '#d1242f'};
const WIDGETS = 14;
const TOKENS = 40;
const MIXINS = 15;
const SHOWN = 3000;

const state = {files: {}, requested: 0};

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

function makeKit() {
  const rand = seededRandom(4242);
  const files = {};
  const tokens = [];
  for (let i = 0; i < TOKENS; i++) {
    tokens.push('@space-' + i + ': ' + (1 + Math.floor(rand() * 40)) + 'px;');
    tokens.push('@tone-' + i + ': mix(@brand, #ffffff, ' + Math.floor(rand() * 90) + '%);');
  }
  files['tokens.less'] = tokens.join('\n');
  const mixins = [];
  for (let m = 0; m < MIXINS; m++) {
    mixins.push('.box-' + m + '(@n) { padding: (@n * 2px) (@n * 3px); border: 1px solid darken(@brand, ' +
                (m % 30) + '%); border-radius: (@n + ' + m % 4 + 'px); }');
  }
  files['mixins.less'] = mixins.join('\n');
  const entry = [];
  for (let w = 0; w < WIDGETS; w++) {
    const name = 'widget-' + w + '.less';
    files[name] = '@import "tokens.less";\n@import "mixins.less";\n' +
      '.w' + w + ' { .box-' + (w % MIXINS) + '(' + (1 + w % 5) + '); color: @tone-' + (w % TOKENS) +
      '; margin: @space-' + (w * 7 % TOKENS) + '; }';
    entry.push('@import "' + name + '";');
  }
  files['kit.less'] = entry.join('\n');
  return files;
}

function MemoryFileManager() {}
MemoryFileManager.prototype = Object.create(less.FileManager.prototype);
MemoryFileManager.prototype.supports = function supports() { return true; };
MemoryFileManager.prototype.supportsSync = function supportsSync() { return true; };
MemoryFileManager.prototype.loadFileSync = function loadFileSync(filename) {
  return {contents: state.files[filename], filename: filename};
};
MemoryFileManager.prototype.loadFile = function loadFile(filename, dir, options, env, callback) {
  const file = this.loadFileSync(filename);
  if (callback) callback(null, file);
  return Promise.resolve(file);
};

const memoryFiles = {install: function installMemoryFiles(lessInstance, pluginManager) {
  pluginManager.addFileManager(new MemoryFileManager());
}};

/* less 3.11 may call the render callback more than once for one render
 * (sync imports); the page counts builds, not callbacks. */
function showCss(name, css, build) {
  document.getElementById('css').textContent = css.slice(0, SHOWN);
  document.getElementById('status').textContent = name + ': ' + css.length + ' characters of CSS';
  document.body.dataset.built = String(build);
}

function buildBrand(name) {
  const build = ++state.requested;
  const source = '@brand: ' + BRANDS[name] + ';\n' + state.files['kit.less'];
  less.render(source, {syncImport: true, plugins: [memoryFiles], filename: 'brand.less'},
              function onBuilt(err, out) { showCss(name, err ? 'error: ' + err.message : out.css, build); });
}

function onBrandClick(event) {
  const name = event.target.dataset.brand;
  if (name) buildBrand(name);
}

function main() {
  state.files = makeKit();
  const nav = document.getElementById('brands');
  Object.keys(BRANDS).forEach(function addBrand(name) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.brand = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onBrandClick);
  document.body.dataset.ready = '1';
}

main();
