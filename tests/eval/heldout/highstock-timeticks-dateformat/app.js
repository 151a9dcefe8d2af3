/* Sensor history: three sensors (seeded, the same on every load), each a
 * sparse series of readings over several weeks. Each Show button draws one
 * sensor as a Highstock chart whose data grouping is forced to one-minute
 * buckets (the user picked "per minute" resolution), so the grouping step
 * asks the datetime tick algorithm for one group position per minute of
 * the whole range. A real regression for zamcap's accuracy experiment
 * (NOTE.md). */
'use strict';

var SENSORS = ['Boiler', 'Chiller', 'Pump'];
var DAYS = 80;          /* length of each sensor's history */
var READINGS = 400;     /* sparse readings over that range */
var START = Date.UTC(2016, 9, 3);

var state = {chart: null, shown: 0};

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

function makeSeries(index) {
  var rand = seededRandom(7100 + index * 31);
  var span = DAYS * 24 * 3600 * 1000;
  var step = Math.floor(span / READINGS / 60000) * 60000;
  var data = [];
  var value = 40 + index * 10;
  for (var i = 0; i < READINGS; i++) {
    value += (rand() - 0.5) * 4;
    data.push([START + i * step, Math.round(value * 10) / 10]);
  }
  return data;
}

var SERIES = SENSORS.map(function (name, i) { return makeSeries(i); });

function show(index) {
  if (state.chart) {
    state.chart.destroy();
    state.chart = null;
  }
  state.chart = Highcharts.stockChart('chart', {
    chart: {animation: false},
    credits: {enabled: false},
    rangeSelector: {enabled: false},
    navigator: {enabled: false},
    scrollbar: {enabled: false},
    title: {text: SENSORS[index] + ' temperature'},
    xAxis: {ordinal: false},
    plotOptions: {series: {animation: false}},
    series: [{
      name: SENSORS[index],
      data: SERIES[index],
      dataGrouping: {forced: true, units: [['minute', [1]]]}
    }]
  });
  var points = state.chart.series[0].points.length;
  state.shown += 1;
  document.getElementById('status').textContent =
    SENSORS[index] + ': ' + points + ' grouped points';
  document.body.dataset.points = String(points);
  document.body.dataset.shown = String(state.shown);
}

SENSORS.forEach(function (name, i) {
  document.getElementById('show' + i).addEventListener('click', function () {
    show(i);
  });
});

document.body.dataset.ready = '1';
