/* File browser: a Vue 2 app with vue-i18n installed on the root (a large
 * seeded catalog in two languages) and a folder tree drawn as one
 * <tree-node> component per file or folder. Each Open button switches the
 * tree to another top folder: Vue destroys every node component of the
 * folder shown before and creates the new folder's nodes. The node
 * components never translate anything; they get vue-i18n's mixin hooks
 * because every component under an i18n root does. A real regression for
 * zamcap's accuracy experiment (NOTE.md). */
'use strict';

const FOLDERS = ['photos', 'projects', 'archive'];
const SECTIONS = 30;   /* message sections per language */
const KEYS = 50;       /* messages per section */
const TOP = 12;        /* subfolders per top folder */
const FILES = 15;      /* files per subfolder */

const WORDS = ['report', 'draft', 'final', 'scan', 'invoice', 'holiday',
  'summary', 'notes', 'budget', 'plan', 'review', 'backup', 'export', 'copy',
  'meeting', 'photo', 'design', 'old', 'new', 'shared'];
const EXTS = ['pdf', 'jpg', 'png', 'txt', 'docx', 'xlsx', 'zip'];

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

function word(rand) { return WORDS[Math.floor(rand() * WORDS.length)]; }

function makeCatalog(lang, seed) {
  const rand = seededRandom(seed);
  const cat = {ui: {folder: lang === 'en' ? 'Folder' : 'Ordner'}};
  for (let s = 0; s < SECTIONS; s++) {
    const sec = {};
    for (let k = 0; k < KEYS; k++) {
      sec['m' + k] = '[' + lang + '] ' + word(rand) + ' ' + word(rand) + ' ' + word(rand);
    }
    cat['s' + s] = sec;
  }
  return cat;
}

/* TOP subfolders with FILES files each: 12 + 12 * 15 = 192 nodes. */
function makeTree(index) {
  const rand = seededRandom(4200 + index * 53);
  const nodes = [];
  for (let d = 0; d < TOP; d++) {
    const files = [];
    for (let f = 0; f < FILES; f++) {
      files.push({
        id: index + '-' + d + '-' + f,
        name: word(rand) + '-' + word(rand) + '.' + EXTS[Math.floor(rand() * EXTS.length)],
        size: Math.floor(rand() * 90000) + 100,
        children: []
      });
    }
    nodes.push({id: index + '-' + d, name: word(rand) + ' ' + (2010 + d), size: 0, children: files});
  }
  return nodes;
}

Vue.component('tree-node', {
  name: 'tree-node',
  props: ['node'],
  template: '<li class="node">{{ node.name }}' +
    '<span class="size" v-if="node.size">{{ Math.round(node.size / 1024) }} kB</span>' +
    '<ul v-if="node.children.length">' +
    '<tree-node v-for="c in node.children" :key="c.id" :node="c"></tree-node>' +
    '</ul></li>'
});

Vue.use(VueI18n);
const i18n = new VueI18n({
  locale: 'en',
  messages: {en: makeCatalog('en', 11), de: makeCatalog('de', 23)}
});
const app = new Vue({el: '#app', i18n: i18n, data: {folder: 'home', nodes: makeTree(3)}});
let shown = 0;

function openFolder(index) {
  const t0 = performance.now();
  app.folder = FOLDERS[index];
  app.nodes = makeTree(index);
  Vue.nextTick(function () {
    shown++;
    const items = app.$el.querySelectorAll('li.node');
    let chars = 0;
    for (let i = 0; i < items.length; i++) chars += items[i].firstChild.textContent.length;
    document.getElementById('status').textContent =
      FOLDERS[index] + ': ' + items.length + ' entries, ' + chars + ' characters of names, ' +
      Math.round(performance.now() - t0) + ' ms';
    document.body.setAttribute('data-shown', String(shown));
  });
}

for (let i = 0; i < FOLDERS.length; i++) {
  document.getElementById('show' + i).addEventListener('click', function () { openFolder(i); });
}
document.body.dataset.ready = '1';
