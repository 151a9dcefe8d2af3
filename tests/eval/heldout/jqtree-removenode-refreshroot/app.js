/* Folder cleanup: a project tree (seeded, the same on every load) of folders
 * full of files, shown with jqTree with every folder open. Each Clean button
 * picks a batch of files (one kind per button) and deletes them one by one
 * with the tree's removeNode method, as a "delete selected" action would.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

var FOLDERS = 40;        /* top-level folders */
var FILES = 45;          /* files per folder */
var PER_CLICK = 4;       /* files deleted per click */
var KINDS = ['draft', 'archive', 'duplicate'];
var WORDS = ['budget', 'review', 'design', 'report', 'notes', 'plan', 'audit',
  'summary', 'invoice', 'roadmap', 'minutes', 'backlog', 'release', 'spec'];

var state = {$tree: null, shown: 0, byKind: [[], [], []]};

function seededRandom(seed) {
  var s = seed >>> 0;
  return function nextRandom() {
    s = (s + 0x6D2B79F5) >>> 0;
    var t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeData() {
  var rand = seededRandom(9137);
  var data = [];
  var id = 1;
  for (var f = 0; f < FOLDERS; f++) {
    var folder = {id: id++, name: 'Project ' + (f + 1), children: []};
    for (var i = 0; i < FILES; i++) {
      var kind = Math.floor(rand() * KINDS.length);
      var word = WORDS[Math.floor(rand() * WORDS.length)];
      var file = {id: id++, name: word + '-' + (i + 1) + '.' + KINDS[kind] + '.txt'};
      folder.children.push(file);
      state.byKind[kind].push(file.id);
    }
    data.push(folder);
  }
  return data;
}

function countNodes() {
  return state.$tree.find('li').length;
}

function clean(kind) {
  var t0 = performance.now();
  var ids = state.byKind[kind];
  var step = Math.floor(ids.length / PER_CLICK);
  var removed = 0;
  for (var i = 0; i < PER_CLICK; i++) {
    var node = state.$tree.tree('getNodeById', ids[i * step]);
    if (node) {
      state.$tree.tree('removeNode', node);
      removed++;
    }
  }
  state.shown++;
  document.getElementById('status').textContent =
    KINDS[kind] + ': ' + removed + ' files deleted, ' + countNodes() + ' items left, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.$tree = jQuery('#tree');
  state.$tree.tree({data: makeData(), autoOpen: true, dragAndDrop: false});
  for (var k = 0; k < KINDS.length; k++) {
    (function bind(kind) {
      document.getElementById('clean' + kind).addEventListener('click', function onClean() { clean(kind); });
    })(k);
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
