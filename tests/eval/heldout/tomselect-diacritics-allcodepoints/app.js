/* Place picker preview: a form builder that shows a Tom Select place picker
 * in a fresh preview panel (a same-origin iframe that loads the library, as
 * embedded form previews do). Each Find button opens a new panel, fills the
 * picker with a seeded list of place names (the same list on every load;
 * some names carry accents), types a query into the picker's search box and
 * refreshes the option list, as a user typing would. Diacritics matching is
 * on (Tom Select's default), so the first search in each panel builds the
 * library's accent-folding tables.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const PLACES = 2400;
const QUERIES = ['zur', 'sao', 'mal'];
const PARTS = ['zür', 'ich', 'são', 'pau', 'lo', 'mál', 'aga', 'kö', 'ln',
  'bre', 'men', 'lyó', 'na', 'san', 'tia', 'go', 'ber', 'gen', 'ma', 'drí',
  'd', 'ro', 'sa', 'rio', 'ñu', 'ñoa', 'zu', 'ri', 'se', 'vil', 'la', 'mo'];

const FRAME_HTML = '<!doctype html><html><head><meta charset="utf-8"></head>' +
  '<body><select id="place" aria-label="Place"></select>' +
  '<script src="lib/tom-select.complete.js"><\/script>' +
  '<script>parent.pickerFrameReady(window);<\/script></body></html>';

const state = {places: null, shown: 0, pending: -1};

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

function makePlaces() {
  const rand = seededRandom(4711);
  const list = [];
  for (let i = 0; i < PLACES; i++) {
    const n = 2 + Math.floor(rand() * 3);
    let name = '';
    for (let k = 0; k < n; k++) name += PARTS[Math.floor(rand() * PARTS.length)];
    name = name.charAt(0).toUpperCase() + name.slice(1);
    list.push({id: 'p' + i, name: name + ' ' + (i % 97)});
  }
  return list;
}

/* Called by the preview frame once the library has loaded in it. */
function pickerFrameReady(win) {
  const index = state.pending;
  const ts = new win.TomSelect(win.document.getElementById('place'), {
    options: state.places.map(p => ({id: p.id, name: p.name})),
    valueField: 'id',
    labelField: 'name',
    searchField: ['name'],
    maxOptions: 50,
    diacritics: true
  });
  ts.setTextboxValue(QUERIES[index]);
  ts.refreshOptions(false);
  const found = ts.currentResults ? ts.currentResults.items.length : 0;
  const first = found ? ts.currentResults.items[0].id : '-';
  state.shown++;
  document.getElementById('status').textContent =
    'query ' + QUERIES[index] + ': ' + found + ' matches, first ' + first;
  document.body.dataset.shown = String(state.shown);
}
window.pickerFrameReady = pickerFrameReady;

function openPanel(index) {
  const panel = document.getElementById('panel');
  panel.textContent = '';
  state.pending = index;
  const frame = document.createElement('iframe');
  frame.title = 'Picker preview';
  frame.srcdoc = FRAME_HTML;
  panel.appendChild(frame);
}

function init() {
  state.places = makePlaces();
  for (let i = 0; i < QUERIES.length; i++) {
    document.getElementById('find' + i).addEventListener('click', () => openPanel(i));
  }
  document.body.dataset.ready = '1';
}

init();
