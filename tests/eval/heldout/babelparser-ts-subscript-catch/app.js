/* Type outline: three generated TypeScript modules (seeded, the same on every
 * load), each a few hundred small typed functions and interfaces. Each Outline
 * button parses one module with @babel/parser and its typescript plugin and
 * lists how many AST nodes of each kind it has. A real regression for
 * zamcap's accuracy experiment (NOTE.md).
 * Wrapped in a function: the parser's file declares many top-level names
 * (parse, Position, State, ...) as a plain script. */
(function () {
  'use strict';

  const MODULES = ['orders', 'accounts', 'shipping'];
  const FUNCS = 260;   /* functions (each with an interface) per module */

  const parser = window.exports;
  const state = {shown: 0};

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

  const FIELDS = ['total', 'price', 'rate', 'count', 'weight', 'limit', 'score', 'size'];
  const TYPES = ['number', 'string', 'boolean', 'number[]'];
  const OPS = ['+', '-', '*'];

  function makeInterface(rand, name) {
    let s = `export interface ${name} {\n`;
    for (let k = 0; k < 3; k++) s += `  ${pick(rand, FIELDS)}${k}: ${pick(rand, TYPES)};\n`;
    return s + '}\n';
  }

  function makeFunction(rand, name, i) {
    const t = name.charAt(0).toUpperCase() + name.slice(1) + 'Row' + i;
    const f = pick(rand, FIELDS), g = pick(rand, FIELDS);
    const n = Math.floor(rand() * 1000);
    const kind = Math.floor(rand() * 3);
    let body;
    if (kind === 0) {
      body = `  const x: number = row.${f} ${pick(rand, OPS)} rows.length * ${n};\n` +
        `  if (x > ${n % 97}) { return helpers.clamp(x, opts.min, opts.max); }\n` +
        `  return Math.round(row.${g} / ${n % 13 + 1});\n`;
    } else if (kind === 1) {
      body = `  let acc: number = ${n};\n` +
        `  for (let j = 0; j < rows.length; j++) { acc += rows[j].${f} || opts.min; }\n` +
        `  return acc ${pick(rand, OPS)} row.${g};\n`;
    } else {
      body = `  const list = rows.filter((e: ${t}) => e.${f} !== row.${g});\n` +
        `  return list.map((e) => e.${g}).reduce((a, b) => a + b, 0) as number;\n`;
    }
    return makeInterface(rand, t) +
      `export function ${name}${i}(row: ${t}, rows: ${t}[], opts: {min: number, max: number}): number {\n${body}}\n`;
  }

  function makeModule(index) {
    const rand = seededRandom(4700 + index * 23);
    const name = MODULES[index];
    let src = `// ${name} module (generated)\nimport * as helpers from "./helpers";\n`;
    for (let i = 0; i < FUNCS; i++) src += makeFunction(rand, name, i);
    return src;
  }

  function countKinds(node, counts) {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) countKinds(node[i], counts);
      return;
    }
    if (!node || typeof node.type !== 'string') return;
    counts[node.type] = (counts[node.type] || 0) + 1;
    for (const key in node) {
      if (key === 'loc' || key === 'start' || key === 'end' || key === 'extra') continue;
      const child = node[key];
      if (child && typeof child === 'object') countKinds(child, counts);
    }
  }

  function outline(index) {
    const t0 = performance.now();
    const src = makeModule(index);
    const ast = parser.parse(src, {sourceType: 'module', plugins: ['typescript']});
    const counts = {};
    countKinds(ast.program, counts);
    const kinds = Object.keys(counts).sort();
    let total = 0;
    const lines = kinds.map((k) => { total += counts[k]; return k + ': ' + counts[k]; });
    document.getElementById('outline').textContent = lines.join('\n');
    state.shown++;
    document.getElementById('status').textContent =
      MODULES[index] + ': ' + src.length + ' chars, ' + total + ' nodes, ' +
      kinds.length + ' kinds, ' + Math.round(performance.now() - t0) + ' ms';
    document.body.dataset.total = String(total);
    document.body.setAttribute('data-shown', String(state.shown));
  }

  for (let i = 0; i < MODULES.length; i++) {
    document.getElementById('parse' + i).addEventListener('click', () => outline(i));
  }
  document.body.dataset.ready = '1';
})();
