/* Document library: a jsTree of seeded project folders, each holding a list
 * of documents (the same tree on every load), filtered with the search
 * plugin's show_only_matches. The page opens filtered to memos; each Find
 * button filters it to another kind of document, which first clears the
 * previous filter (every hidden node is shown again) and then hides the
 * non-matching nodes. A real regression for zamcap's accuracy experiment
 * (NOTE.md). */
'use strict';

const FOLDERS = Number(new URLSearchParams(location.search).get('folders')) || 20;
const DOCS = Number(new URLSearchParams(location.search).get('docs')) || 22; /* documents per folder */
const FINDS = ['invoice', 'report', 'contract'];

const KINDS = ['invoice', 'report', 'contract', 'memo', 'draft', 'minutes',
  'budget', 'plan', 'brief', 'summary'];
const TOPICS = ['harbour', 'school', 'library', 'bridge', 'clinic', 'park',
  'museum', 'depot', 'market', 'station', 'tower', 'garden'];

const state = {tree: null, shown: 0};

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

function makeTree() {
  const rand = seededRandom(4242);
  const folders = [];
  for (let f = 0; f < FOLDERS; f++) {
    const docs = [];
    for (let d = 0; d < DOCS; d++) {
      const kind = KINDS[Math.floor(rand() * KINDS.length)];
      const topic = TOPICS[Math.floor(rand() * TOPICS.length)];
      docs.push({id: 'd' + f + '_' + d, text: topic + ' ' + kind + ' ' + (d + 1), icon: 'jstree-file'});
    }
    folders.push({id: 'f' + f, text: 'Project ' + (f + 1), state: {opened: true}, children: docs});
  }
  return folders;
}

function find(index) {
  const t0 = performance.now();
  state.tree.search(FINDS[index]);
  state.shown++;
  const matches = $('#tree .jstree-search').length;
  const visible = $('#tree li.jstree-node:visible').length;
  document.getElementById('status').textContent =
    FINDS[index] + ': ' + matches + ' matches, ' + visible + ' nodes shown, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  $('#tree').on('ready.jstree', function onReady() {
    state.tree = $('#tree').jstree(true);
    state.tree.search('memo');
    for (let i = 0; i < FINDS.length; i++) {
      document.getElementById('find' + i).addEventListener('click', function onFind() { find(i); });
    }
    document.body.setAttribute('data-ready', '1');
  }).jstree({
    core: {data: makeTree(), animation: false, worker: false, themes: {dots: false}},
    plugins: ['search'],
    search: {show_only_matches: true, case_sensitive: false}
  });
}

setup();
