/* Formula checker: three sheets of formulas (seeded, the same on every load)
 * in a small expression language with six precedence levels, parsed with a
 * nearley grammar (character lexer). Each Check button parses one sheet; most
 * formulas are valid, a few have a typo (a stray bracket right after an
 * opening parenthesis). The page shows, for each formula, "ok" or the offset
 * and character of the syntax error. A real regression for zamcap's accuracy
 * experiment (NOTE.md). */
'use strict';

const SHEETS = ['A', 'B', 'C'];
const LEVELS = 6;          /* precedence levels L0..L5 above Atom */
const FORMULAS = 40;       /* formulas per sheet */
const TYPOS = 8;           /* formulas with a syntax error per sheet */
const OPS = ['+', '-', '*', '/', '%', '^'];

const state = {grammar: null, shown: 0};

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

/* L_i -> L_{i+1} | L_{i+1} op_i L_i ; Atom -> "(" L0 ")" | digit */
function compiledGrammar() {
  const rules = [];
  for (let i = 0; i < LEVELS; i++) {
    const next = i + 1 < LEVELS ? 'L' + (i + 1) : 'Atom';
    rules.push({name: 'L' + i, symbols: [next]});
    rules.push({name: 'L' + i, symbols: [next, {literal: OPS[i]}, 'L' + i]});
  }
  rules.push({name: 'Atom', symbols: [{literal: '('}, 'L0', {literal: ')'}]});
  rules.push({name: 'Atom', symbols: [/[0-9]/]});
  return {Lexer: undefined, ParserRules: rules, ParserStart: 'L0'};
}

function makeExpr(rand, depth) {
  const n = 1 + Math.floor(rand() * 3);
  const parts = [];
  for (let i = 0; i < n; i++) {
    if (depth > 0 && rand() < 0.3) parts.push('(' + makeExpr(rand, depth - 1) + ')');
    else parts.push(String(Math.floor(rand() * 10)));
  }
  let s = parts[0];
  for (let i = 1; i < parts.length; i++) s += OPS[Math.floor(rand() * OPS.length)] + parts[i];
  return s;
}

function makeSheet(index) {
  const rand = seededRandom(7100 + index * 31);
  const formulas = [];
  for (let i = 0; i < FORMULAS; i++) formulas.push(makeExpr(rand, 2));
  for (let t = 0; t < TYPOS; t++) {
    const at = Math.floor(rand() * FORMULAS);
    const d = String(Math.floor(rand() * 10));
    formulas[at] = d + '+(]' + formulas[at];
  }
  return formulas;
}

function checkFormula(text) {
  const parser = new nearley.Parser(state.grammar);
  try {
    parser.feed(text);
    return parser.results.length ? 'ok' : 'incomplete';
  } catch (err) {
    const ch = err.token && err.token.value !== undefined ? err.token.value : '?';
    return 'error at ' + err.offset + ' (' + ch + ')';
  }
}

function checkSheet(index) {
  const t0 = performance.now();
  const formulas = makeSheet(index);
  const lines = [];
  let errors = 0;
  for (let i = 0; i < formulas.length; i++) {
    const verdict = checkFormula(formulas[i]);
    if (verdict !== 'ok') errors++;
    lines.push(String(i + 1).padStart(2) + '  ' + formulas[i] + '  ' + verdict);
  }
  state.shown++;
  document.getElementById('out').textContent = lines.join('\n');
  document.getElementById('status').textContent =
    'Sheet ' + SHEETS[index] + ': ' + formulas.length + ' formulas, ' + errors + ' with errors, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.grammar = nearley.Grammar.fromCompiled(compiledGrammar());
  for (let i = 0; i < SHEETS.length; i++) {
    document.getElementById('check' + i).addEventListener('click', function onCheck() { checkSheet(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
