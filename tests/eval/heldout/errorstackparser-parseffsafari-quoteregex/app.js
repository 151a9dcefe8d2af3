/* Crash report viewer: three batches of error reports captured from Firefox
 * users (seeded, the same on every load). Each report is a Firefox-format
 * `error.stack` string, with a source line quoted in the trace (a console
 * warning call with its string arguments), as error collectors often paste it.
 * Each Parse button runs ErrorStackParser.parse over one batch and shows how
 * many frames were found, the most frequent top frames and a checksum of all
 * parsed fields. A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const BATCHES = ['A', 'B', 'C'];
const REPORTS = 40;        /* reports per batch */
const QUOTED_ARGS = 5;     /* quoted string arguments on the warning line */

const FUNCS = ['render', 'update', 'mount', 'flush', 'dispatch', 'onClick', 'commit', 'reconcile'];
const FILES = ['app/view.js', 'app/component.js', 'lib/events.js', 'lib/store.js', 'app/list.js'];
const WORDS = ['loading', 'false', 'true', 'disabled', 'hidden', 'checked', 'value', 'title', 'open',
  'selected', 'readonly', 'required', 'multiple'];

const state = {batches: null, shown: 0};

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

function frameLine(rand) {
  const fn = pick(rand, FUNCS);
  const owner = rand() < 0.5 ? 'Component.prototype.' : '';
  const line = 1 + Math.floor(rand() * 400);
  const col = 1 + Math.floor(rand() * 60);
  return owner + fn + '@http://127.0.0.1:8080/' + pick(rand, FILES) + ':' + line + ':' + col;
}

function warningLine(rand) {
  const args = [];
  for (let i = 0; i < QUOTED_ARGS; i++) args.push('"' + pick(rand, WORDS) + '"');
  return '    warn("Warning: Received `%s` for a non-boolean attribute `%s`.", ' + args.join(', ') + ')';
}

function makeReport(rand) {
  const lines = [];
  const before = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < before; i++) lines.push(frameLine(rand));
  lines.push(warningLine(rand));
  const after = 2 + Math.floor(rand() * 3);
  for (let i = 0; i < after; i++) lines.push(frameLine(rand));
  return {message: 'Render failed', stack: lines.join('\n')};
}

function makeBatches() {
  return BATCHES.map(function makeBatch(name, b) {
    const rand = seededRandom(1000 + b * 77);
    const reports = [];
    for (let i = 0; i < REPORTS; i++) reports.push(makeReport(rand));
    return {name: name, reports: reports};
  });
}

function checksum(text, h) {
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) >>> 0;
  return h;
}

function parseBatch(batch) {
  let frames = 0;
  let located = 0;
  let sum = 7;
  const tops = new Map();
  for (const report of batch.reports) {
    const parsed = ErrorStackParser.parse(report);
    frames += parsed.length;
    for (const f of parsed) {
      if (f.lineNumber !== undefined) located++;
      sum = checksum(String(f.functionName) + '|' + f.fileName + '|' + f.lineNumber + '|' + f.columnNumber, sum);
    }
    const top = String(parsed[0].functionName);
    tops.set(top, (tops.get(top) || 0) + 1);
  }
  return {frames: frames, located: located, sum: sum, tops: tops};
}

function renderResult(batch, result) {
  const out = document.getElementById('out');
  const top = Array.from(result.tops.entries())
    .sort(function byCount(a, b) { return b[1] - a[1] || (a[0] < b[0] ? -1 : 1); })
    .slice(0, 5)
    .map(function fmt(e) { return e[0] + ' x' + e[1]; })
    .join(', ');
  const div = document.createElement('div');
  div.textContent = 'Batch ' + batch.name + ': ' + batch.reports.length + ' reports, ' + result.frames +
    ' frames, ' + result.located + ' with a location, checksum ' + result.sum.toString(16) + '; top: ' + top;
  out.appendChild(div);
}

function onParse(index) {
  const batch = state.batches[index];
  const result = parseBatch(batch);
  renderResult(batch, result);
  state.shown++;
  document.body.dataset.shown = String(state.shown);
}

function init() {
  state.batches = makeBatches();
  BATCHES.forEach(function wire(name, i) {
    document.getElementById('parse' + i).addEventListener('click', function onClick() { onParse(i); });
  });
  document.body.dataset.ready = '1';
}

init();
