/* Docs outline: three sections of a large API reference (seeded, the same on
 * every load). Each Outline button gives every heading of the section an
 * anchor id with Docsify.slugify, the way docsify does for each heading of a
 * page (the slug cache is cleared first, as docsify clears it per page, so
 * repeated titles get -1, -2, ... suffixes), and lists the table of contents.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SECTIONS = ['Core API', 'Plugins', 'Configuration'];
const HEADINGS = 6000;   /* headings per section */
const LISTED = 60;       /* entries drawn in the table of contents */

const NAMES = ['router', 'cache', 'sidebar', 'search', 'theme', 'markdown',
  'cover', 'embed', 'hook', 'alias', 'emoji', 'zoom', 'copy', 'pagination',
  'tabs', 'fetch', 'render', 'compiler', 'event', 'navbar', 'lifecycle',
  'plugin', 'config', 'helper'];
const VERBS = ['get', 'set', 'load', 'init', 'mount', 'update', 'resolve',
  'parse', 'format', 'watch', 'clear', 'merge'];
const PARTS = ['Overview', 'Parameters', 'Returns', 'Example', 'Options',
  'Notes', 'See also'];

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

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

/* One heading per API entry, followed by a few of the usual sub-headings. */
function makeHeadings(index) {
  const rand = seededRandom(7100 + index * 31);
  const out = [];
  let entry = 0;
  while (out.length < HEADINGS) {
    entry++;
    out.push(SECTIONS[index] + ' ' + pick(rand, VERBS) + ' ' + pick(rand, NAMES) + ' ' + entry);
    const parts = 1 + Math.floor(rand() * 3);
    for (let p = 0; p < parts && out.length < HEADINGS; p++) out.push(pick(rand, PARTS));
  }
  return out;
}

function checksum(strings) {
  let h = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i];
    for (let j = 0; j < s.length; j++) h = (Math.imul(h, 31) + s.charCodeAt(j)) | 0;
  }
  return (h >>> 0).toString(16);
}

function showOutline(index) {
  const t0 = performance.now();
  const headings = makeHeadings(index);
  const slugify = window.Docsify.slugify;
  slugify.clear();
  const ids = [];
  for (let i = 0; i < headings.length; i++) ids.push(slugify(headings[i]));
  const toc = document.getElementById('toc');
  toc.textContent = '';
  for (let i = 0; i < LISTED; i++) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = '#/?id=' + ids[i];
    a.textContent = headings[i] + ' (' + ids[i] + ')';
    li.appendChild(a);
    toc.appendChild(li);
  }
  state.shown++;
  document.getElementById('status').textContent =
    SECTIONS[index] + ': ' + ids.length + ' headings, ' + new Set(ids).size +
    ' distinct ids, checksum ' + checksum(ids) + ', ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

for (let i = 0; i < SECTIONS.length; i++) {
  document.getElementById('show' + i).addEventListener('click', () => showOutline(i));
}
document.body.dataset.ready = '1';
