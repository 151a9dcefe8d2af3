/* Page builder: a document of sections and widgets (seeded, the same on
 * every load), edited the way Elementor and many WordPress plugins do it:
 * every copy of a piece of the document is JSON.parse(JSON.stringify(x)).
 * core-js (the whole bundle, as wp-polyfill shipped it) is loaded first.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SECTIONS = 60;       /* sections in the document */
const WIDGETS = 40;        /* widgets per section */
const KINDS = ['heading', 'text-editor', 'image', 'button', 'icon-list', 'spacer', 'video', 'form'];
const WORDS = ['alpha', 'amber', 'birch', 'cobalt', 'delta', 'ember', 'fjord', 'gamma',
  'harbor', 'indigo', 'juniper', 'kelvin', 'lumen', 'meadow', 'nectar', 'onyx'];

const state = {doc: null, revisions: [], shown: 0};

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

function makeText(rand, n) {
  const words = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(rand() * WORDS.length)]);
  return words.join(' ');
}

function makeWidget(rand, sectionIndex, widgetIndex) {
  const kind = KINDS[Math.floor(rand() * KINDS.length)];
  return {
    id: 'w' + sectionIndex + '-' + widgetIndex,
    widgetType: kind,
    settings: {
      title: makeText(rand, 3),
      text: '<p>' + makeText(rand, 12) + '</p>',
      align: rand() < 0.5 ? 'left' : 'center',
      typography: {family: 'Roboto', size: 12 + Math.floor(rand() * 20), weight: 400, lineHeight: 1.4},
      margin: [Math.floor(rand() * 20), 0, Math.floor(rand() * 20), 0],
      link: {url: 'https://example.org/' + WORDS[widgetIndex % WORDS.length], isExternal: rand() < 0.3},
      classes: ['el-' + kind, 'col-' + (widgetIndex % 4)]
    }
  };
}

function makeDocument() {
  const rand = seededRandom(4242);
  const sections = [];
  for (let s = 0; s < SECTIONS; s++) {
    const widgets = [];
    for (let w = 0; w < WIDGETS; w++) widgets.push(makeWidget(rand, s, w));
    sections.push({id: 's' + s, layout: rand() < 0.5 ? 'boxed' : 'full', background: '#' + (0x100000 + Math.floor(rand() * 0xefffff)).toString(16), widgets: widgets});
  }
  return {title: 'Landing page', version: 3, sections: sections};
}

function deepCopy(value) {
  return JSON.parse(JSON.stringify(value));
}

function countWidgets(doc) {
  let n = 0;
  for (const section of doc.sections) n += section.widgets.length;
  return n;
}

function duplicateSections() {
  const doc = state.doc;
  const copies = [];
  for (const section of doc.sections) {
    const copy = deepCopy(section);
    copy.id = section.id + '-copy';
    copies.push(copy);
  }
  return {title: doc.title, version: doc.version, sections: doc.sections.concat(copies)};
}

function saveRevision() {
  const copy = deepCopy(state.doc);
  state.revisions.push(copy);
  return copy;
}

function exportTemplate() {
  const text = JSON.stringify({content: state.doc.sections, page_settings: {title: state.doc.title}}, null, 2);
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return {length: text.length, lines: lines};
}

function show(text) {
  document.getElementById('out').textContent = text;
  state.shown++;
  document.getElementById('status').textContent = 'done ' + state.shown;
  document.body.dataset.shown = String(state.shown);
}

function onDuplicate() {
  const doc = duplicateSections();
  show('duplicated: ' + doc.sections.length + ' sections, ' + countWidgets(doc) + ' widgets');
}

function onRevision() {
  const copy = saveRevision();
  show('revision ' + state.revisions.length + ': ' + copy.sections.length + ' sections, ' + countWidgets(copy) + ' widgets');
}

function onExport() {
  const result = exportTemplate();
  show('template: ' + result.length + ' characters, ' + result.lines + ' lines');
}

function init() {
  state.doc = makeDocument();
  document.getElementById('duplicate').addEventListener('click', onDuplicate);
  document.getElementById('revision').addEventListener('click', onRevision);
  document.getElementById('export').addEventListener('click', onExport);
  document.body.dataset.ready = '1';
}

init();
