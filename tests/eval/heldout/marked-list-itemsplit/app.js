/* Release notes: three changelogs (seeded, the same on every load), each a
 * long Markdown document of release sections. A section is a heading, a short
 * paragraph and a bullet list of changes. Each Show button renders one
 * changelog with marked and puts the HTML in the panel.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const PRODUCTS = ['Server', 'Client', 'Tools'];
const RELEASES = 700;  /* sections per changelog */
const CHANGES = 5;     /* bullet items per section */

const VOCAB = ['fix', 'crash', 'when', 'the', 'cache', 'is', 'empty', 'add',
  'option', 'for', 'proxy', 'timeout', 'update', 'docs', 'on', 'login',
  'speed', 'up', 'startup', 'remove', 'unused', 'flag', 'in', 'parser',
  'handle', 'unicode', 'paths', 'retry', 'upload', 'after', 'error', 'logs'];

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

function words(rand, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(VOCAB[Math.floor(rand() * VOCAB.length)]);
  return out.join(' ');
}

function makeChangelog(index) {
  const rand = seededRandom(7100 + index * 31);
  const parts = [];
  for (let r = 0; r < RELEASES; r++) {
    const version = (index + 1) + '.' + Math.floor(r / 10) + '.' + (r % 10);
    parts.push('## ' + PRODUCTS[index] + ' ' + version + '\n\n');
    parts.push('This release is about ' + words(rand, 8) + ', see *issue ' +
      (1000 + r) + '* and the [tracker](https://example.org/' + index + '/' + r + ').\n\n');
    for (let c = 0; c < CHANGES; c++) {
      parts.push('- ' + words(rand, 6) + ' (`#' + (r * CHANGES + c) + '`)\n');
    }
    parts.push('\n');
  }
  return parts.join('');
}

function showNotes(index) {
  const t0 = performance.now();
  const source = makeChangelog(index);
  const html = marked(source);
  document.getElementById('notes').innerHTML = html;
  const items = (html.match(/<li>/g) || []).length;
  state.shown++;
  document.getElementById('status').textContent =
    PRODUCTS[index] + ': ' + source.length + ' chars, ' + items + ' items, ' +
    html.length + ' chars of HTML, ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

for (let i = 0; i < PRODUCTS.length; i++) {
  document.getElementById('show' + i).addEventListener('click', () => showNotes(i));
}
document.body.dataset.ready = '1';
