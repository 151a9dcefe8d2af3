// The lost cache, OLD: renderRow compiles its template once and keeps it.
'use strict';
let seed = 7;
function rand() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
const TEMPLATE = Array.from({length: 400}, (_, i) =>
  'cell ' + i + ' {{name}} and {{count}} of {{total}};').join(' ');
function tokenize(src) {
  const out = [];
  let word = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === ' ' || c === '{' || c === '}') {
      if (word) out.push(word);
      word = '';
    } else {
      word += c;
    }
  }
  if (word) out.push(word);
  return out;
}
function compileTemplate(src) {
  const toks = tokenize(src);
  let n = 0;
  for (let k = 0; k < 3; k++)
    for (const t of tokenize(src)) n += t.length;
  return {toks, n};
}
let compiled = null;
function renderRow(item) {
  if (!compiled) compiled = compileTemplate(TEMPLATE);
  return item.name + ':' + (compiled.n + item.count);
}
function renderTable(items) {
  let s = '';
  for (const it of items) s += renderRow(it);
  return s.length;
}
let clicks = 0;
function onGo() {
  const items = [];
  for (let i = 0; i < 300; i++)
    items.push({name: 'item' + i, count: Math.floor(rand() * 100)});
  const n = renderTable(items);
  clicks++;
  const d = document.createElement('p');
  d.id = 'done-' + clicks;
  d.textContent = 'rendered ' + n;
  document.getElementById('out').appendChild(d);
}
document.getElementById('go').addEventListener('click', onGo);
