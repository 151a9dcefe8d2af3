/* Scope checker: a small in-browser lint pass built on Babel. Each Check
 * button generates one module (seeded, the same on every load: a few `let`
 * settings read by a leaf helper, and a tower of helpers where each level
 * calls the level below twice), runs Babel.transform on it with a plugin
 * that asks, for every read of a `let` setting, whether the declaration may
 * run before the read (path.willIMaybeExecuteBefore), and prints the
 * findings and the compiled code. A real regression for zamcap's accuracy
 * experiment (NOTE.md). */
'use strict';

const MODULES = [
  {name: 'pricing', depth: 17, settings: ['rate', 'floor']},
  {name: 'routing', depth: 17, settings: ['hops', 'limit']},
  {name: 'billing', depth: 17, settings: ['tax', 'fee']}
];

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

function makeModule(index) {
  const mod = MODULES[index];
  const rand = seededRandom(7100 + index * 31);
  const lines = [];
  for (const name of mod.settings) {
    lines.push('let ' + name + ' = ' + (1 + Math.floor(rand() * 9)) + ';');
  }
  const p = mod.name;
  const reads = mod.settings.join(' * ');
  lines.push('function ' + p + '0(x) { return x + ' + reads + '; }');
  for (let i = 1; i <= mod.depth; i++) {
    const k = 1 + Math.floor(rand() * 5);
    lines.push('function ' + p + i + '(x) { return ' + p + (i - 1) + '(x) + ' +
      p + (i - 1) + '(x + ' + k + '); }');
  }
  lines.push('export const result = ' + p + mod.depth + '(1);');
  return lines.join('\n');
}

function scopePlugin(findings) {
  return function () {
    return {
      visitor: {
        VariableDeclarator(path) {
          if (path.parent.kind !== 'let') return;
          const name = path.node.id.name;
          const binding = path.scope.getBinding(name);
          for (const ref of binding.referencePaths) {
            findings.reads++;
            if (!path.willIMaybeExecuteBefore(ref)) findings.early.push(name);
          }
        }
      }
    };
  };
}

function checkModule(index) {
  const t0 = performance.now();
  const source = makeModule(index);
  const findings = {reads: 0, early: []};
  const out = Babel.transform(source, {plugins: [scopePlugin(findings)]});
  state.shown++;
  document.getElementById('out').textContent = out.code;
  document.getElementById('status').textContent =
    MODULES[index].name + ': ' + findings.reads + ' reads checked, ' +
    findings.early.length + ' may read before the declaration, ' +
    out.code.length + ' chars compiled, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

for (let i = 0; i < MODULES.length; i++) {
  document.getElementById('check' + i).addEventListener('click', function onCheckClick() {
    checkModule(i);
  });
}
document.body.dataset.ready = '1';
