/* Support call report: each "Build shift report" click takes the next
 * shift's call records (generated from a fixed seed, the same on every
 * load), formats every call's talk, hold and queue time with the Moment
 * Duration Format plugin (moment.duration(ms).format(template)), and
 * shows the totals and the first rows. A real regression for zamcap's
 * accuracy experiment (see NOTE.md in this folder). */
'use strict';

var CALLS_PER_SHIFT = 700;
var ROWS_SHOWN = 40;
var shift = 0;

/* a 32-bit Weyl sequence scrambled, fixed seed */
function makeWeyl(seed) {
  var w = seed >>> 0;
  return function next() {
    w = (w + 0x9E3779B9) >>> 0;
    var z = w;
    z = Math.imul(z ^ (z >>> 16), 0x85EBCA6B) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xC2B2AE35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

function makeShiftCalls(n) {
  var rnd = makeWeyl(4242 + n * 7919);
  var calls = [];
  for (var i = 0; i < CALLS_PER_SHIFT; i++) {
    calls.push({
      id: 'S' + n + '-' + i,
      talkMs: Math.floor(rnd() * 5400000),
      holdMs: Math.floor(rnd() * 900000),
      queueMs: Math.floor(rnd() * 200000000)
    });
  }
  return calls;
}

function formatCall(call) {
  return {
    id: call.id,
    talk: moment.duration(call.talkMs).format('h:mm:ss'),
    hold: moment.duration(call.holdMs).format('m:ss'),
    queue: moment.duration(call.queueMs).format('d [days] h [hours] m [min]')
  };
}

function renderRows(rows) {
  var html = '';
  for (var i = 0; i < rows.length && i < ROWS_SHOWN; i++) {
    var r = rows[i];
    html += '<tr><td>' + r.id + '</td><td>' + r.talk + '</td><td>' + r.hold + '</td><td>' + r.queue + '</td></tr>';
  }
  document.querySelector('#calls tbody').innerHTML = html;
}

function buildShiftReport() {
  shift += 1;
  var calls = makeShiftCalls(shift);
  var rows = calls.map(formatCall);
  var talk = 0, hold = 0;
  for (var i = 0; i < calls.length; i++) { talk += calls[i].talkMs; hold += calls[i].holdMs; }
  document.getElementById('summary').textContent = 'shift ' + shift + ': ' + calls.length +
    ' calls, talk ' + moment.duration(talk).format('h:mm:ss') + ', hold ' + moment.duration(hold).format('h:mm:ss');
  renderRows(rows);
  document.getElementById('status').textContent = 'shift ' + shift;
  document.body.dataset.shifts = String(shift);
}

function main() {
  document.getElementById('report').addEventListener('click', buildShiftReport);
  document.body.dataset.ready = '1';
}

main();
