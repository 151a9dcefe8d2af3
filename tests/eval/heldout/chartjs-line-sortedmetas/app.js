/* Sensor lines: three halls of temperature sensors (seeded, the same on every
 * load). Each Show button puts one hall's sensors on a single line chart, one
 * unstacked dataset per sensor, and updates the chart without animation.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const HALLS = ['North hall', 'South hall', 'Roof'];
const SENSORS = 40;    /* datasets per hall */
const READINGS = 1500; /* points per dataset */

const state = {chart: null, shown: 0};

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

function makeLabels() {
  const labels = [];
  for (let i = 0; i < READINGS; i++) labels.push('t' + i);
  return labels;
}

function makeHall(index) {
  const rand = seededRandom(7100 + index * 31);
  const datasets = [];
  for (let s = 0; s < SENSORS; s++) {
    let v = 15 + rand() * 10;
    const data = [];
    for (let i = 0; i < READINGS; i++) {
      v += (rand() - 0.5) * 0.8;
      data.push(Math.round(v * 100) / 100);
    }
    const hue = Math.floor((s * 360) / SENSORS);
    datasets.push({
      label: 'Sensor ' + (s + 1), data: data, fill: false,
      borderColor: 'hsl(' + hue + ',60%,45%)', borderWidth: 1,
      pointRadius: 0, pointHitRadius: 0, lineTension: 0
    });
  }
  return datasets;
}

function showHall(index) {
  const t0 = performance.now();
  const datasets = makeHall(index);
  state.chart.data.datasets = datasets;
  state.chart.update({duration: 0});
  let points = 0;
  for (let d = 0; d < datasets.length; d++) points += state.chart.getDatasetMeta(d).data.length;
  state.shown++;
  document.getElementById('status').textContent =
    HALLS[index] + ': ' + datasets.length + ' sensors, ' + points + ' points, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  const ctx = document.getElementById('chart').getContext('2d');
  state.chart = new Chart(ctx, {
    type: 'line',
    data: {labels: makeLabels(), datasets: []},
    options: {
      responsive: false, animation: {duration: 0},
      hover: {mode: null}, tooltips: {enabled: false},
      legend: {display: false}, elements: {line: {tension: 0}},
      scales: {xAxes: [{ticks: {autoSkip: true, maxTicksLimit: 12}}],
        yAxes: [{stacked: false}]}
    }
  });
  for (let i = 0; i < HALLS.length; i++) {
    document.getElementById('show' + i).addEventListener('click', function onShow() { showHall(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
