/* Backup reports: three nightly reports (seeded, the same on every load),
 * each a Markdown document with one section per backed-up machine. A section
 * is a heading and a paragraph that lists the copied files, one Windows path
 * per line, with the backslashes escaped as Markdown requires (C:\\Users\\...).
 * Each Show button renders one report with marked and puts the HTML in the
 * panel. A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const DAYS = ['Monday', 'Tuesday', 'Wednesday'];
const MACHINES = 10;   /* sections per report */
const FILES = 1100;    /* file lines per section */

const USERS = ['anna', 'bjorn', 'chen', 'dana', 'emre', 'fatou', 'gil', 'hana'];
const FOLDERS = ['Documents', 'Desktop', 'Pictures', 'Projects', 'AppData', 'Music'];
const NAMES = ['report', 'notes', 'budget', 'photo', 'draft', 'backup', 'config', 'log'];
const EXTS = ['docx', 'txt', 'xlsx', 'jpg', 'pdf', 'ini', 'json', 'md'];

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

function makeReport(index) {
  const rand = seededRandom(9100 + index * 43);
  const parts = [];
  for (let m = 0; m < MACHINES; m++) {
    parts.push('## Machine ws-' + (100 + index * 20 + m) + '\n\n');
    parts.push('Copied files:\n');
    for (let f = 0; f < FILES; f++) {
      const kb = 1 + Math.floor(rand() * 900);
      parts.push('C:\\\\Users\\\\' + pick(rand, USERS) + '\\\\' + pick(rand, FOLDERS) +
        '\\\\' + pick(rand, NAMES) + '-' + f + '.' + pick(rand, EXTS) + ' (' + kb + ' kB)\n');
    }
    parts.push('\n');
  }
  return parts.join('');
}

function showReport(index) {
  const t0 = performance.now();
  const source = makeReport(index);
  const html = marked.parse(source, {mangle: false, headerIds: false});
  document.getElementById('report').innerHTML = html;
  const sections = (html.match(/<h2>/g) || []).length;
  state.shown++;
  document.getElementById('status').textContent =
    DAYS[index] + ': ' + source.length + ' chars, ' + sections + ' machines, ' +
    html.length + ' chars of HTML, ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

for (let i = 0; i < DAYS.length; i++) {
  document.getElementById('show' + i).addEventListener('click', () => showReport(i));
}
document.body.dataset.ready = '1';
