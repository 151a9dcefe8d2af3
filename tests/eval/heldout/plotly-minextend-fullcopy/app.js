/* Weather stations: the temperature record of one station drawn as a line,
 * and the records of the other stations kept in the chart but hidden
 * (visible: 'legendonly': they are listed in the legend, not drawn).
 * All data is seeded and the same on every load. Each Highlight button
 * restyles the drawn station's line (colour and width) with Plotly.restyle;
 * plotly then restyles the legend, building a small stand-in trace for each
 * legend item (Lib.minExtend).
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const STYLES = [
  {name: 'red', color: '#d62728', width: 3},
  {name: 'green', color: '#2ca02c', width: 2},
  {name: 'blue', color: '#1f77b4', width: 4}
];
const MAIN_POINTS = 3000;      /* points of the drawn station */
const OTHERS = 30;             /* hidden (legendonly) stations */
const OTHER_POINTS = 250000;   /* points per hidden station */

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

function makeRecord(rand, count) {
  const x = new Array(count);
  const y = new Array(count);
  let v = 12;
  for (let i = 0; i < count; i++) {
    x[i] = i;
    v += (rand() - 0.5) * 0.8;
    y[i] = Math.round(v * 10) / 10;
  }
  return {x: x, y: y};
}

function buildData() {
  const rand = seededRandom(6632);
  const data = [];
  const main = makeRecord(rand, MAIN_POINTS);
  data.push({x: main.x, y: main.y, mode: 'lines', name: 'station 0',
    line: {color: '#555', width: 1}});
  for (let t = 0; t < OTHERS; t++) {
    const r = makeRecord(rand, OTHER_POINTS);
    data.push({x: r.x, y: r.y, mode: 'lines', name: 'station ' + (t + 1),
      visible: 'legendonly'});
  }
  return data;
}

function highlight(index) {
  const t0 = performance.now();
  const st = STYLES[index];
  const gd = document.getElementById('chart');
  Plotly.restyle(gd, {'line.color': st.color, 'line.width': st.width}, [0])
    .then(function () {
      state.shown++;
      const items = gd.querySelectorAll('.legend .traces').length;
      const line = gd._fullData[0].line;
      document.getElementById('status').textContent =
        'Station 0 in ' + st.name + ': line ' + line.color + ' width ' +
        line.width + ', ' + items + ' legend items, ' +
        Math.round(performance.now() - t0) + ' ms';
      document.body.setAttribute('data-shown', String(state.shown));
    });
}

function init() {
  const data = buildData();
  Plotly.newPlot('chart', data, {title: 'Weather stations',
    margin: {t: 50, r: 160}}).then(function () {
    for (let i = 0; i < STYLES.length; i++) {
      document.getElementById('style' + i).addEventListener('click', function () {
        highlight(i);
      });
    }
    document.body.dataset.ready = '1';
  });
}

init();
