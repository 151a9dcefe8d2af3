/* Sensor peaks: three production lines (seeded, the same on every load),
 * each with a few sensors sampled many times. Each Show button draws one
 * line as a Highcharts line chart. Data labels are on for every series, with
 * a filter so that only the rare readings above the alarm level get a label
 * (the usual "label the peaks" set-up). Animation is off.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const LINES = ['North', 'South', 'East'];
const SENSORS = 4;      /* series per chart */
const SAMPLES = 7000;   /* points per series */
const ALARM = 99.6;     /* readings above this get a data label */

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

function makeLine(index) {
  const rand = seededRandom(7100 + index * 31);
  const series = [];
  for (let s = 0; s < SENSORS; s++) {
    const data = [];
    let level = 50 + rand() * 10;
    for (let i = 0; i < SAMPLES; i++) {
      level += (rand() - 0.5) * 4;
      if (level < 5) level = 5;
      if (level > 95) level = 95;
      const spike = rand() < 0.003 ? 5 + rand() * 4 : 0;
      data.push(Math.round((level + spike) * 10) / 10);
    }
    series.push({name: LINES[index] + ' sensor ' + (s + 1), data: data});
  }
  return series;
}

function countLabels(chart) {
  let labels = 0;
  chart.series.forEach(function eachSeries(series) {
    series.points.forEach(function eachPoint(point) {
      if (point.dataLabel) labels++;
    });
  });
  return labels;
}

function showLine(index) {
  const t0 = performance.now();
  const series = makeLine(index);
  if (state.chart) state.chart.destroy();
  state.chart = Highcharts.chart('chart', {
    chart: {type: 'line', animation: false, width: 1200, height: 560},
    title: {text: LINES[index] + ' line, ' + SENSORS + ' sensors'},
    credits: {enabled: false},
    tooltip: {enabled: false},
    legend: {enabled: true},
    xAxis: {title: {text: 'sample'}},
    yAxis: {title: {text: 'reading'}, max: 110},
    plotOptions: {
      series: {
        animation: false,
        enableMouseTracking: false,
        marker: {enabled: false},
        turboThreshold: 0,
        dataLabels: {
          enabled: true,
          format: '{y}',
          filter: {property: 'y', operator: '>', value: ALARM}
        }
      }
    },
    series: series
  });
  const labels = countLabels(state.chart);
  state.shown++;
  document.getElementById('status').textContent =
    LINES[index] + ': ' + SENSORS * SAMPLES + ' readings, ' + labels + ' peaks labelled, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < LINES.length; i++) {
    document.getElementById('show' + i).addEventListener('click', function onShow() { showLine(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
