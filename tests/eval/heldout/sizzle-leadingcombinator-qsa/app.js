/* Release log: one long list of task entries (seeded, the same on every
 * load) with a milestone entry every so often. Each Summarise button walks
 * the milestones of one release track and, for each, asks Sizzle for the
 * later sibling entries that are done or open ("~li.done", "~li.open") and
 * whether the very next entry is open ("+li.open"), then fills the summary
 * table. A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

var TRACKS = ['alpha', 'beta', 'stable'];
var ENTRIES = 3400;       /* entries in the log */
var MILESTONE_EVERY = 25; /* one milestone every N entries */
var STATES = ['done', 'open', 'blocked', 'done', 'done', 'open'];
var WORDS = ['fix', 'crash', 'parser', 'login', 'cache', 'layout', 'docs',
  'update', 'menu', 'export', 'import', 'search', 'theme', 'sync', 'build'];

var state = {shown: 0, milestones: []};

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

function buildLog() {
  var rand = seededRandom(8812);
  var ul = document.getElementById('log');
  var frag = document.createDocumentFragment();
  for (var i = 0; i < ENTRIES; i++) {
    var li = document.createElement('li');
    if (i % MILESTONE_EVERY === 0) {
      var track = TRACKS[(i / MILESTONE_EVERY) % TRACKS.length];
      li.className = 'milestone ' + track;
      li.textContent = track + ' milestone ' + (i / MILESTONE_EVERY);
      state.milestones.push(li);
    } else {
      li.className = STATES[Math.floor(rand() * STATES.length)];
      li.textContent = WORDS[Math.floor(rand() * WORDS.length)] + ' ' +
        WORDS[Math.floor(rand() * WORDS.length)] + ' #' + i;
    }
    frag.appendChild(li);
  }
  ul.appendChild(frag);
}

function summarise(track) {
  var rows = [];
  var totalDone = 0, totalOpen = 0, nextOpen = 0;
  for (var i = 0; i < state.milestones.length; i++) {
    var m = state.milestones[i];
    if (!m.classList.contains(track)) continue;
    var doneAfter = Sizzle('~li.done', m).length;
    var openAfter = Sizzle('~li.open', m).length;
    var next = Sizzle('+li.open', m).length;
    totalDone += doneAfter; totalOpen += openAfter; nextOpen += next;
    rows.push('<tr><td>' + m.textContent + '</td><td>' + doneAfter + '</td><td>' +
      openAfter + '</td><td>' + (next ? 'yes' : 'no') + '</td></tr>');
  }
  document.querySelector('#summary tbody').innerHTML = rows.slice(0, 12).join('');
  return track + ': ' + rows.length + ' milestones, ' + totalDone + ' done, ' +
    totalOpen + ' open after them, ' + nextOpen + ' followed by an open entry';
}

function show(index) {
  var text = summarise(TRACKS[index]);
  state.shown++;
  document.getElementById('status').textContent = text;
  document.body.dataset.shown = String(state.shown);
}

buildLog();
for (var b = 0; b < TRACKS.length; b++) {
  document.getElementById('show' + b).addEventListener('click', show.bind(null, b));
}
document.body.dataset.ready = '1';
