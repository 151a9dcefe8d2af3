/* Release bundler: three generated rule modules (seeded, the same on every
 * load) of a pricing back office. Minifying a module runs its source through
 * Terser (parse and print, no compression or mangling) before the bundle
 * is published, as build tools embedded in web IDEs and playgrounds do.
 * A held-out real regression for zamcap's accuracy experiment (see NOTE.md):
 * terser 5.19.1's code printer asks the output buffer what it ends with
 * while it prints comparison operators. */
'use strict';

const MODULES = ['Pricing', 'Inventory', 'Alerts'];
const RULES = 1000;
const FIELDS = ['price', 'stock', 'margin', 'weight', 'discount', 'backlog', 'rating', 'returns'];
const OPS = ['>', '>=', '>', '>>', '<', '<=', '===', '!=='];

const state = {loaded: 0, results: {}};

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

function makeCondition(rand) {
  const field = pick(rand, FIELDS);
  const op = pick(rand, OPS);
  const limit = Math.floor(rand() * 1000);
  if (op === '>>') return '(item.' + field + ' >> 2) > ' + (limit >> 2);
  return 'item.' + field + ' ' + op + ' ' + limit;
}

function makeRule(rand, moduleName, index) {
  const name = moduleName.toLowerCase() + 'Rule' + index;
  const first = makeCondition(rand);
  const second = makeCondition(rand);
  const factor = (1 + rand()).toFixed(3);
  return 'export function ' + name + '(item, context) {\n' +
         '  const threshold = context.thresholds["' + pick(rand, FIELDS) + '"] || ' + index + ';\n' +
         '  if (' + first + ' && ' + second + ') {\n' +
         '    return {rule: "' + name + '", score: item.' + pick(rand, FIELDS) + ' * ' + factor + ', over: item.total > threshold};\n' +
         '  }\n' +
         '  return item.total >= threshold ? {rule: "' + name + '", score: 0, over: true} : null;\n' +
         '}\n';
}

function makeModule(index) {
  const moduleName = MODULES[index];
  const rand = seededRandom(7100 + index);
  const parts = ['// ' + moduleName + ' rules, generated\n'];
  for (let i = 0; i < RULES; i++) parts.push(makeRule(rand, moduleName, i));
  parts.push('export const ' + moduleName.toLowerCase() + 'Rules = [' +
             Array.from({length: RULES}, (_, i) => moduleName.toLowerCase() + 'Rule' + i).join(', ') + '];\n');
  return parts.join('');
}

async function minifyModule(index) {
  const source = makeModule(index);
  const result = await Terser.minify(source, {module: true, compress: false, mangle: false});
  return {source: source.length, minified: result.code.length};
}

function showResult(name, sizes) {
  const row = document.createElement('tr');
  const ratio = (100 * sizes.minified / sizes.source).toFixed(1) + ' %';
  for (const text of [name, sizes.source + ' B', sizes.minified + ' B', ratio]) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.appendChild(cell);
  }
  document.getElementById('summary').appendChild(row);
}

async function onModuleClick(event) {
  const index = Number(event.currentTarget.dataset.index);
  const name = MODULES[index];
  document.getElementById('status').textContent = 'Minifying ' + name + '...';
  const sizes = await minifyModule(index);
  state.results[name] = sizes;
  showResult(name, sizes);
  state.loaded += 1;
  document.getElementById('status').textContent = name + ' minified';
  document.body.dataset.loaded = String(state.loaded);
}

function setup() {
  const nav = document.getElementById('modules');
  MODULES.forEach(function addButton(name, index) {
    const button = document.createElement('button');
    button.textContent = name;
    button.dataset.module = name;
    button.dataset.index = String(index);
    button.addEventListener('click', onModuleClick);
    nav.appendChild(button);
  });
  document.body.dataset.ready = '1';
}

if (typeof document !== 'undefined') setup();
else module.exports = {makeModule, MODULES};
