/* Statement import: three bank statements exported as CSV with a header
 * row (seeded, the same on every load). Importing a statement streams it
 * row by row through Papa Parse's step callback, as importers of large
 * files do, and adds every transaction to its category's total. A held-out
 * real regression for zamcap's accuracy experiment
 * (tests/eval/heldout/papaparse-headerstep/NOTE.md): Papa Parse 5.5.1 runs
 * its new duplicate-header renaming every time the parser returns results,
 * which in step mode is once per row. */
'use strict';

const FILES = ['January', 'February', 'March'];
const ROWS = 3400;
const CATEGORIES = ['groceries', 'rent', 'travel', 'utilities', 'dining', 'books', 'health'];
const PAYEES = ['Corner Shop', 'City Rail', 'Power Co', 'Bistro Nord', 'Page & Co', 'Pharmacy 24'];
const COLUMNS = ['id', 'date', 'payee', 'category', 'amount', 'balance', 'reference', 'account',
                 'channel', 'memo', 'batch', 'terminal'];

const state = {files: {}, imported: 0};

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

/* Every field of a row differs from the row's other fields. */
function makeStatement(month) {
  const rand = seededRandom(300 + month);
  const lines = [COLUMNS.join(',')];
  let balance = 5000;
  for (let i = 0; i < ROWS; i++) {
    const amount = -(1 + Math.floor(rand() * 20000) / 100);
    balance += amount + 25;
    const id = 'T' + month + '-' + i;
    lines.push([id, '2024-0' + (month + 1) + '-' + String(1 + i % 28).padStart(2, '0'),
                pick(rand, PAYEES) + ' #' + i, 'cat:' + pick(rand, CATEGORIES), amount.toFixed(2),
                'bal ' + balance.toFixed(2), 'REF' + Math.floor(rand() * 1e9), 'ACC-00' + month,
                'card', 'memo ' + id, 'B' + (i >> 6), 'POS' + (i % 97)].join(','));
  }
  return lines.join('\n');
}

function importStatement(csv) {
  const totals = {};
  let rows = 0;
  Papa.parse(csv, {header: true, skipEmptyLines: true, step: function onRow(result) {
    const row = result.data;
    totals[row.category] = (totals[row.category] || 0) + Number(row.amount);
    rows++;
  }});
  return {rows: rows, totals: totals};
}

function renderTotals(summary) {
  document.getElementById('totals').innerHTML = Object.keys(summary.totals).sort().map(function totalRow(k) {
    return '<tr><td>' + k + '</td><td>' + summary.totals[k].toFixed(2) + '</td></tr>';
  }).join('');
}

function onFileClick(event) {
  const name = event.target.dataset.file;
  if (!name) return;
  const summary = importStatement(state.files[name]);
  renderTotals(summary);
  document.getElementById('status').textContent = name + ': ' + summary.rows + ' transactions';
  state.imported++;
  document.body.dataset.imported = String(state.imported);
}

function main() {
  const nav = document.getElementById('files');
  FILES.forEach(function addFile(name, index) {
    state.files[name] = makeStatement(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.file = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onFileClick);
  document.body.dataset.ready = '1';
}

main();
