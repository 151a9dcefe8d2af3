/* Sensor traces: three plant areas, each a set of sensor readings (seeded,
 * the same on every load). Each Plot button builds the area's chart geometry
 * in a new PIXI.Graphics (Phaser 2's bundled Pixi): a polyline per sensor
 * (moveTo, then lineTo per reading) and a small marker rectangle per alarm,
 * then reads the chart's bounds. A real regression for zamcap's accuracy
 * experiment (NOTE.md). */
'use strict';

const AREAS = ['Boiler', 'Pumps', 'Valves'];
const SENSORS = 6;     /* polylines per chart */
const READINGS = 2000; /* lineTo calls per polyline */
const WIDTH = 1200;
const HEIGHT = 600;

const state = {graphics: null, shown: 0};

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

function makeArea(index) {
  const rand = seededRandom(7100 + index * 31);
  const sensors = [];
  for (let s = 0; s < SENSORS; s++) {
    const values = [];
    let v = 0.5;
    for (let i = 0; i < READINGS; i++) {
      v += (rand() - 0.5) * 0.04;
      if (v < 0.05) v = 0.05;
      if (v > 0.95) v = 0.95;
      values.push(Math.round(v * 1000) / 1000);
    }
    sensors.push(values);
  }
  return sensors;
}

function plotArea(index) {
  const t0 = performance.now();
  const sensors = makeArea(index);
  const g = new PIXI.Graphics();
  state.graphics = g;
  let segments = 0;
  let alarms = 0;
  const step = WIDTH / (READINGS - 1);
  for (let s = 0; s < sensors.length; s++) {
    const values = sensors[s];
    g.lineStyle(1, 0x3366cc + s * 0x101010, 1);
    g.moveTo(0, HEIGHT - values[0] * HEIGHT);
    for (let i = 1; i < values.length; i++) {
      g.lineTo(i * step, HEIGHT - values[i] * HEIGHT);
      segments++;
    }
  }
  g.lineStyle(0, 0, 0);
  for (let s = 0; s < sensors.length; s++) {
    const values = sensors[s];
    for (let i = 0; i < values.length; i++) {
      if (values[i] > 0.9) {
        g.beginFill(0xcc3333, 1);
        g.drawRect(i * step - 2, HEIGHT - values[i] * HEIGHT - 2, 4, 4);
        g.endFill();
        alarms++;
      }
    }
  }
  const b = g.getBounds();
  state.shown++;
  document.getElementById('status').textContent =
    AREAS[index] + ': ' + sensors.length + ' sensors, ' + segments + ' segments, ' +
    alarms + ' alarms, ' + Math.round(performance.now() - t0) + ' ms';
  document.getElementById('stats').textContent =
    'shapes ' + g.graphicsData.length + '  bounds ' + Math.round(b.x) + ',' + Math.round(b.y) +
    ' ' + Math.round(b.width) + 'x' + Math.round(b.height);
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < AREAS.length; i++) {
    document.getElementById('show' + i).addEventListener('click', function onPlot() { plotArea(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
