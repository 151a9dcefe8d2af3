/* Report filters: a form of multi-select tag filters (seeded, the same on
 * every load), each a Choices widget with many tags already picked. Each
 * Show button (a click on the page, outside every widget) reads the picked
 * tags of every filter and writes a short report summary. Choices listens
 * to every click on the document; the click is what reaches the slow path.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

var FILTERS = 2;      /* Choices widgets on the page */
var TAGS = 36;        /* options per filter */
var PICKED = 30;      /* options picked (selected) per filter */
var REPORTS = ['Sales', 'Support', 'Hiring'];

var SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'so',
  'da', 'fu', 'gi', 'ho', 'ju', 'be'];

var state = {widgets: [], shown: 0};

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

function makeTag(rand, i) {
  var n = 2 + Math.floor(rand() * 3);
  var word = '';
  for (var k = 0; k < n; k++) word += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
  return word + '-' + i;
}

function buildFilter(index) {
  var rand = seededRandom(7100 + index * 31);
  var box = document.createElement('div');
  box.className = 'filter';
  var label = document.createElement('label');
  label.textContent = 'Filter ' + (index + 1);
  label.htmlFor = 'filter' + index;
  var select = document.createElement('select');
  select.id = 'filter' + index;
  select.multiple = true;
  for (var i = 0; i < TAGS; i++) {
    var tag = makeTag(rand, i);
    var opt = document.createElement('option');
    opt.value = tag;
    opt.textContent = tag;
    if (i < PICKED) opt.selected = true;
    select.appendChild(opt);
  }
  box.appendChild(label);
  box.appendChild(select);
  document.getElementById('filters').appendChild(box);
  return new Choices(select, {removeItemButton: true, shouldSort: false,
    searchEnabled: false});
}

function showReport(which) {
  var lines = [];
  var total = 0;
  for (var i = 0; i < state.widgets.length; i++) {
    var values = state.widgets[i].getValue(true);
    total += values.length;
    lines.push('Filter ' + (i + 1) + ': ' + values.length + ' tags, first ' +
      values[0] + ', last ' + values[values.length - 1]);
  }
  state.shown += 1;
  document.getElementById('summary').textContent =
    REPORTS[which] + ' report (' + total + ' tags)\n' + lines.join('\n');
  document.getElementById('status').textContent = 'Shown ' + state.shown;
  document.body.dataset.shown = String(state.shown);
}

function init() {
  for (var i = 0; i < FILTERS; i++) state.widgets.push(buildFilter(i));
  REPORTS.forEach(function (name, i) {
    document.getElementById('show' + i).addEventListener('click', function () {
      showReport(i);
    });
  });
  document.body.dataset.ready = '1';
}

init();
