/* Meter readings: three substations (seeded, the same on every load), each
 * with a reading per quarter hour over several weeks, this year and last
 * year. Each Show button draws one substation's readings as a bar chart
 * (Chart.js, two datasets side by side, no animation) and lists the peak
 * days. A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const STATIONS = ['North', 'Harbour', 'Hillside'];
const READINGS = 4000; /* bars per dataset */
const SHOWN = 8;

const state = {stations: [], chart: null, shown: 0};

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

function slotLabel(i) {
  const day = Math.floor(i / 96), q = i % 96;
  const h = Math.floor(q / 4), m = (q % 4) * 15;
  return 'd' + (day + 1) + ' ' + (h < 10 ? '0' : '') + h + ':' + (m < 10 ? '0' : '') + m;
}

function makeStation(index) {
  const rand = seededRandom(4400 + index);
  const base = 40 + index * 15;
  const labels = [], current = [], previous = [];
  for (let i = 0; i < READINGS; i++) {
    const daily = Math.sin((i % 96) / 96 * Math.PI * 2 - 1.2) * 20;
    labels.push(slotLabel(i));
    current.push(Math.round(base + daily + rand() * 12));
    previous.push(Math.round(base * 0.9 + daily + rand() * 12));
  }
  return {name: STATIONS[index], labels: labels, current: current, previous: previous};
}

function chartConfig(station) {
  return {
    type: 'bar',
    data: {
      labels: station.labels,
      datasets: [
        {label: 'This year', data: station.current, backgroundColor: '#3a7bd5'},
        {label: 'Last year', data: station.previous, backgroundColor: '#c8c8c8'}
      ]
    },
    options: {
      responsive: false,
      animation: {duration: 0},
      hover: {animationDuration: 0},
      responsiveAnimationDuration: 0,
      events: [],
      legend: {display: true},
      scales: {
        xAxes: [{ticks: {autoSkip: true, maxRotation: 0, autoSkipPadding: 20}}],
        yAxes: [{ticks: {beginAtZero: true}}]
      }
    }
  };
}

function peakDays(station) {
  const days = [];
  for (let i = 0; i < station.current.length; i += 96) {
    const slice = station.current.slice(i, i + 96);
    days.push({day: i / 96 + 1, peak: Math.max.apply(null, slice),
               total: slice.reduce(function addReading(a, b) { return a + b; }, 0)});
  }
  return days.sort(function byPeak(a, b) { return b.peak - a.peak || a.day - b.day; });
}

function renderPeaks(name, days) {
  document.getElementById('rows').innerHTML = days.slice(0, SHOWN).map(function peakRow(d) {
    return '<tr><td>' + name + ' day ' + d.day + '</td><td>peak ' + d.peak + '</td><td>total ' + d.total + '</td></tr>';
  }).join('');
}

function drawStation(station) {
  if (state.chart) state.chart.destroy();
  const ctx = document.getElementById('chart').getContext('2d');
  state.chart = new Chart(ctx, chartConfig(station));
}

function onShowClick(event) {
  const index = Number(event.currentTarget.dataset.station);
  const station = state.stations[index];
  drawStation(station);
  renderPeaks(station.name, peakDays(station));
  state.shown++;
  document.getElementById('status').textContent = station.name + ': ' + station.current.length + ' readings';
  document.body.dataset.shown = String(state.shown);
}

function main() {
  STATIONS.forEach(function addStation(name, index) {
    state.stations.push(makeStation(index));
    const b = document.getElementById('show' + index);
    b.dataset.station = String(index);
    b.addEventListener('click', onShowClick);
  });
  document.body.dataset.ready = '1';
}

main();
