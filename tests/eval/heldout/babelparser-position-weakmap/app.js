/* Module outline: three generated ES modules (seeded, the same on every
 * load), each a few thousand small functions. Each Outline button parses one
 * module with @babel/parser and lists how many nodes of each kind the AST
 * has. A real regression for zamcap's accuracy experiment (NOTE.md).
 * Wrapped in a function: the parser's file declares many top-level names
 * (parse, Position, State, ...) as a plain script. */
(function () {
  'use strict';

  const MODULES = ['billing', 'search', 'reports'];
  const FUNCS = 4000;   /* functions per module */

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

  const NAMES = ['total', 'item', 'rate', 'count', 'row', 'key', 'value', 'limit'];
  const OPS = ['+', '-', '*', '%'];

  function makeFunction(rand, name, i) {
    const a = pick(rand, NAMES), b = pick(rand, NAMES) + '2';
    const n = Math.floor(rand() * 1000);
    const kind = Math.floor(rand() * 3);
    let body;
    if (kind === 0) {
      body = `  const x = ${a} ${pick(rand, OPS)} ${b} * ${n};\n` +
        `  if (x > ${n % 97}) { return [x, ${a}, "${name}${i}"]; }\n` +
        `  return {k: x, v: ${b}};\n`;
    } else if (kind === 1) {
      body = `  let acc = ${n};\n` +
        `  for (let j = 0; j < ${a}.length; j++) { acc += ${a}[j].${pick(rand, NAMES)} || 0; }\n` +
        `  return acc ${pick(rand, OPS)} ${b};\n`;
    } else {
      body = `  const list = ${a}.filter((e) => e.${pick(rand, NAMES)} !== ${b});\n` +
        `  return list.map((e, k) => ({id: k, label: \`${name}-\${e.${pick(rand, NAMES)}}\`}));\n`;
    }
    return `export function ${name}${i}(${a}, ${b}) {\n${body}}\n`;
  }

  function makeModule(index) {
    const rand = seededRandom(9100 + index * 31);
    const name = MODULES[index];
    let src = `// ${name} module (generated)\n`;
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
    const ast = parser.parse(src, {sourceType: 'module'});
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
