/* Java viewer: a list of generated Java sources (seeded: the same on every
 * load); clicking a file highlights it with highlight.js and shows it with
 * numbered lines. The sources declare fields of generic types such as
 * `List<CustomerInvoice>`. A real regression for zamcap's accuracy
 * experiment (tests/eval/real/hljs-java-generics/NOTE.md): highlight.js
 * 9.0.0's Java grammar backtracks exponentially in the length of a generic
 * type argument that is not followed by a method's parenthesis; 8.9.1 does not. */
'use strict';

const WORDS = ['Customer', 'Account', 'Invoice', 'Order', 'Ledger', 'Vendor', 'Region',
               'Entry', 'Payment', 'Batch', 'Item', 'Stock'];
const FILES = ['BillingService.java', 'InventoryService.java', 'LedgerService.java'];
const FIELDS = 14;

const state = {sources: {}, open: null};

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

function typeName(rand) {
  let name = '';
  while (name.length < 11) name += WORDS[Math.floor(rand() * WORDS.length)];
  return name.slice(0, 13);
}

function makeSource(file, seed) {
  const rand = seededRandom(seed);
  const cls = file.replace('.java', '');
  const lines = ['package com.example.billing;', '', 'import java.util.List;',
                 'import java.util.Map;', '', '/** Generated for the viewer. */',
                 'public class ' + cls + ' {'];
  for (let i = 0; i < FIELDS; i++) {
    const t = typeName(rand);
    lines.push('  private final List<' + t + '> ' + t.charAt(0).toLowerCase() + t.slice(1) +
               'List' + i + ';');
  }
  for (let i = 0; i < 6; i++) {
    lines.push('', '  public int total' + i + '(int limit) {',
               '    int sum = ' + i + ';', '    for (int k = 0; k < limit; k++) {',
               '      sum += k * ' + (i + 2) + '; // running total', '    }',
               '    return sum;', '  }');
  }
  lines.push('}');
  return lines.join('\n');
}

function highlightSource(text) {
  return hljs.highlight('java', text).value;
}

function renderLines(html) {
  const list = document.getElementById('code');
  list.innerHTML = html.split('\n').map(function lineItem(l) {
    return '<li>' + l + '</li>';
  }).join('');
}

function onFileClick(event) {
  const file = event.target.dataset.file;
  if (!file) return;
  state.open = file;
  renderLines(highlightSource(state.sources[file]));
  document.getElementById('status').textContent = file;
  document.body.dataset.open = file;
}

function main() {
  const nav = document.getElementById('files');
  FILES.forEach(function addFile(file, i) {
    state.sources[file] = makeSource(file, 100 + i);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = file;
    b.dataset.file = file;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onFileClick);
  document.body.dataset.ready = '1';
}

main();
