/* Outline printer: three seeded outlines (the same on every load), each a
 * list of sections holding labelled items with a few words each. Each Print
 * button builds one outline as a Prettier document (prettier/doc builders:
 * group, indent, line, hardline, join) and lays it out with
 * printDocToString at a fixed print width, as a pretty-printer built on
 * Prettier's doc printer would. The first lines are shown with a line count
 * and a checksum of the whole text.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const OUTLINES = ['Roadmap', 'Inventory', 'Changelog'];
const SECTIONS = 260;   /* sections per outline */
const ITEMS = 8;        /* items per section */
const PRINT_WIDTH = 60;
const SHOW_LINES = 60;  /* lines put on the page */

const VOCAB = ['budget', 'review', 'ship', 'design', 'team', 'customer',
  'latency', 'roadmap', 'sprint', 'metrics', 'draft', 'onboarding',
  'release', 'notes', 'feedback', 'audit', 'migration', 'backlog', 'owner',
  'deadline', 'risk', 'plan', 'cache', 'index', 'widget', 'search', 'report'];

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

function buildOutline(index) {
  const b = doc.builders;
  const rand = seededRandom(8100 + index * 31);
  const sections = [];
  for (let s = 0; s < SECTIONS; s++) {
    const items = [];
    for (let i = 0; i < ITEMS; i++) {
      const words = [];
      const count = 3 + Math.floor(rand() * 10);
      for (let w = 0; w < count; w++) words.push(VOCAB[Math.floor(rand() * VOCAB.length)]);
      items.push(b.group(['item ' + (i + 1) + ':', b.indent([b.line, b.join(b.line, words)])]));
    }
    sections.push([OUTLINES[index].toLowerCase() + ' ' + (s + 1) + ' {',
      b.indent([b.hardline, b.join(b.hardline, items)]), b.hardline, '}']);
  }
  return b.join([b.hardline, b.hardline], sections);
}

function checksum(text) {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

function printOutline(index) {
  const t0 = performance.now();
  const outline = buildOutline(index);
  const result = doc.printer.printDocToString(outline, {printWidth: PRINT_WIDTH, tabWidth: 2});
  const text = result.formatted;
  const lines = text.split('\n');
  document.getElementById('out').textContent = lines.slice(0, SHOW_LINES).join('\n');
  state.shown++;
  document.getElementById('status').textContent =
    OUTLINES[index] + ': ' + lines.length + ' lines, ' + text.length + ' chars, sum ' +
    checksum(text) + ', ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

for (let i = 0; i < OUTLINES.length; i++) {
  document.getElementById('print' + i).addEventListener('click', function onPrint() {
    printOutline(i);
  });
}
document.body.dataset.ready = '1';
