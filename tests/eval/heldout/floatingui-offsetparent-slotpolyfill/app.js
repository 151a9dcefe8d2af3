/* Tag drawer: a list of records shown inside a small web component (a
 * "drawer" whose shadow root wraps its content in a <slot>), each record with
 * a tag chip. Each Show button opens a tag popup next to a set of chips and
 * places every popup with Floating UI's computePosition (offset, flip, shift),
 * then writes the positions. Seeded, the same on every load.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const GROUPS = ['Fruit', 'Colour', 'City'];
const ROWS = 120;        /* records in the drawer */
const OPEN = 12;         /* popups placed per click */

const VOCAB = [
  ['apple', 'pear', 'plum', 'quince', 'mango', 'fig', 'kiwi', 'lime'],
  ['teal', 'amber', 'ochre', 'navy', 'coral', 'olive', 'plum', 'slate'],
  ['Oslo', 'Lyon', 'Porto', 'Graz', 'Turku', 'Ghent', 'Brno', 'Cork']
];
const NAMES = ['invoice', 'order', 'ticket', 'shipment', 'contract', 'report',
  'request', 'booking', 'claim', 'receipt'];

const state = {rows: [], open: [], shown: 0};

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

class TagDrawer extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({mode: 'open'});
    root.innerHTML = '<style>.panel { padding: 4px; background: #fafafa; }' +
      ' .title { font-weight: bold; }</style>' +
      '<div class="panel"><div class="title">Records</div><slot></slot></div>';
  }
}
customElements.define('tag-drawer', TagDrawer);

function buildRows() {
  const rand = seededRandom(4242);
  const list = document.createElement('div');
  list.className = 'list';
  for (let i = 0; i < ROWS; i++) {
    const row = document.createElement('div');
    row.className = 'row';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = NAMES[Math.floor(rand() * NAMES.length)] + ' #' + (1000 + i);
    const chip = document.createElement('button');
    chip.className = 'chip';
    chip.type = 'button';
    chip.textContent = 'tags';
    const pop = document.createElement('div');
    pop.className = 'pop';
    pop.style.display = 'none';
    row.appendChild(name);
    row.appendChild(chip);
    row.appendChild(pop);
    list.appendChild(row);
    state.rows.push({chip: chip, pop: pop});
  }
  document.getElementById('drawer').appendChild(list);
}

function pickRows(index) {
  const rand = seededRandom(900 + index * 31);
  const picked = [];
  const used = new Set();
  while (picked.length < OPEN) {
    const k = Math.floor(rand() * ROWS);
    if (used.has(k)) continue;
    used.add(k);
    picked.push(k);
  }
  return picked;
}

function showGroup(index) {
  const t0 = performance.now();
  const F = window.FloatingUIDOM;
  for (let i = 0; i < state.open.length; i++) state.open[i].style.display = 'none';
  state.open = [];
  const picked = pickRows(index);
  const words = VOCAB[index];
  const jobs = [];
  for (let i = 0; i < picked.length; i++) {
    const r = state.rows[picked[i]];
    r.pop.textContent = GROUPS[index] + ': ' + words[i % words.length] + ', ' +
      words[(i * 3 + 1) % words.length];
    r.pop.style.display = 'block';
    state.open.push(r.pop);
    jobs.push(F.computePosition(r.chip, r.pop, {
      placement: i % 2 ? 'right-start' : 'bottom-start',
      middleware: [F.offset(4), F.flip(), F.shift({padding: 4})]
    }));
  }
  return Promise.all(jobs).then(function place(results) {
    let sum = 0;
    for (let i = 0; i < results.length; i++) {
      const p = results[i];
      state.open[i].style.left = p.x + 'px';
      state.open[i].style.top = p.y + 'px';
      sum += Math.round(p.x) * 7 + Math.round(p.y) * 3;
    }
    state.shown++;
    document.getElementById('status').textContent =
      GROUPS[index] + ': ' + results.length + ' popups placed, checksum ' + sum +
      ', ' + Math.round(performance.now() - t0) + ' ms';
    document.body.setAttribute('data-shown', String(state.shown));
  });
}

function setup() {
  buildRows();
  for (let i = 0; i < GROUPS.length; i++) {
    document.getElementById('show' + i).addEventListener('click', function onShow() { showGroup(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
