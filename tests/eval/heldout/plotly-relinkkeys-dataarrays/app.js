/* Sensor history: one live sensor drawn as a line, plus a set of archived
 * sensors with long recordings that are kept in the chart but hidden
 * (visible: 'legendonly', so they sit in the legend and are not drawn).
 * All data is seeded and the same on every load. Each Show button zooms the
 * x axis to one window of the day with Plotly.relayout, which re-runs the
 * chart's defaults step (Plots.supplyDefaults) over every trace.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const WINDOWS = [
  {name: 'Morning', range: [200, 700]},
  {name: 'Noon', range: [700, 1200]},
  {name: 'Evening', range: [1300, 1800]}
];
const LIVE_POINTS = 2000;     /* points of the visible sensor */
const ARCHIVED = 24;          /* hidden (legendonly) sensors */
const ARCHIVED_POINTS = 300000; /* points per hidden sensor */

const state = {shown: 0};

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

function makeSeries(rand, count, step) {
  const x = new Array(count);
  const y = new Array(count);
  let v = 20;
  for (let i = 0; i < count; i++) {
    x[i] = i * step;
    v += rand() - 0.5;
    y[i] = Math.round(v * 100) / 100;
  }
  return {x: x, y: y};
}

function buildData() {
  const rand = seededRandom(8117);
  const data = [];
  const live = makeSeries(rand, LIVE_POINTS, 1);
  data.push({x: live.x, y: live.y, mode: 'lines', name: 'live sensor'});
  for (let t = 0; t < ARCHIVED; t++) {
    const s = makeSeries(rand, ARCHIVED_POINTS, LIVE_POINTS / ARCHIVED_POINTS);
    data.push({x: s.x, y: s.y, mode: 'lines', name: 'archive ' + (t + 1),
      visible: 'legendonly'});
  }
  return data;
}

function showWindow(index) {
  const t0 = performance.now();
  const w = WINDOWS[index];
  const gd = document.getElementById('chart');
  Plotly.relayout(gd, {title: 'Sensor history: ' + w.name,
    'xaxis.range': w.range.slice()}).then(function () {
    state.shown++;
    const r = gd._fullLayout.xaxis.range;
    document.getElementById('status').textContent =
      w.name + ': x ' + r[0] + ' to ' + r[1] + ', ' + gd._fullData.length +
      ' traces, ' + Math.round(performance.now() - t0) + ' ms';
    document.body.setAttribute('data-shown', String(state.shown));
  });
}

function init() {
  const data = buildData();
  Plotly.newPlot('chart', data, {title: 'Sensor history',
    margin: {t: 50, r: 150}}).then(function () {
    for (let i = 0; i < WINDOWS.length; i++) {
      document.getElementById('show' + i).addEventListener('click', function () {
        showWindow(i);
      });
    }
    document.body.dataset.ready = '1';
  });
}

init();
