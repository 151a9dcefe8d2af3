/* Static page export: three documents (seeded, the same on every load) built
 * as Preact vnodes and serialized with preact-render-to-string, as a static
 * site generator would do in the browser preview. Each Export button builds
 * one document (sections of long paragraphs with a title attribute), renders
 * it to an HTML string and shows its length, a checksum and its first
 * characters. A real regression for zamcap's accuracy experiment (NOTE.md). */
import { h } from 'preact';
import renderToString from '/lib/prts/index.js';

const DOCS = [
  { name: 'handbook', seed: 11, sections: 60, paragraphs: 70 },
  { name: 'changelog', seed: 23, sections: 60, paragraphs: 70 },
  { name: 'glossary', seed: 37, sections: 60, paragraphs: 70 }
];
const PARAGRAPH_WORDS = 70;
const WORDS = ['render', 'string', 'component', 'static', 'export', 'page',
  'layout', 'header', 'footer', 'article', 'section', 'content', 'theme',
  'preview', 'build', 'asset', 'route', 'link', 'image', 'caption', 'table',
  'figure', 'summary', 'detail', 'note', 'version', 'release', 'change',
  'term', 'entry', 'index', 'search', 'Q&A', 'a "quoted" term'];

const state = { shown: 0 };

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

function sentenceText(rand, words) {
  const parts = [];
  for (let i = 0; i < words; i++) {
    /* mostly plain words; the last two entries (with & and ") are rare */
    const r = rand();
    const k = r < 0.998 ? Math.floor(r / 0.998 * (WORDS.length - 2))
      : (r < 0.999 ? WORDS.length - 2 : WORDS.length - 1);
    parts.push(WORDS[k]);
  }
  return parts.join(' ') + '.';
}

function paragraphNode(rand, docName, s, p) {
  return h('p', { class: 'para', title: docName + ' ' + s + '.' + p + ': ' + sentenceText(rand, 8) },
    sentenceText(rand, PARAGRAPH_WORDS));
}

function sectionNode(rand, doc, s) {
  const paras = [];
  for (let p = 0; p < doc.paragraphs; p++) paras.push(paragraphNode(rand, doc.name, s, p));
  return h('section', { id: doc.name + '-' + s },
    h('h2', null, 'Section ' + (s + 1) + ': ' + sentenceText(rand, 4)), paras);
}

function documentNode(doc) {
  const rand = seededRandom(doc.seed);
  const sections = [];
  for (let s = 0; s < doc.sections; s++) sections.push(sectionNode(rand, doc, s));
  return h('article', { class: 'doc', 'data-doc': doc.name },
    h('h1', null, 'The ' + doc.name), sections);
}

function checksum(html) {
  let sum = 0;
  for (let i = 0; i < html.length; i += 13) sum = (sum * 31 + html.charCodeAt(i)) >>> 0;
  return sum;
}

function exportDocument(index) {
  const doc = DOCS[index];
  const html = renderToString(documentNode(doc));
  state.shown++;
  document.getElementById('out').textContent =
    doc.name + ': ' + html.length + ' characters, checksum ' + checksum(html) + '\n' +
    html.slice(0, 300);
  document.getElementById('status').textContent = 'Exported ' + state.shown;
  document.body.dataset.shown = String(state.shown);
}

function setup() {
  DOCS.forEach(function bindButton(doc, i) {
    document.getElementById('export' + i).addEventListener('click', function onExport() {
      exportDocument(i);
    });
  });
  document.body.dataset.ready = '1';
}

setup();
