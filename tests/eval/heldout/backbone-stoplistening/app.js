/* Sensor wall: a fleet of seeded sensors (Backbone models, the same on every
 * load) and one wall that listens to each sensor's changes. Connect makes
 * the wall listen to every sensor and pushes one reading to each; Disconnect
 * retires the sensors one by one, as a wall does when sensors go offline:
 * stopListening(sensor) for each. A held-out real regression for zamcap's
 * accuracy experiment (tests/eval/heldout/backbone-stoplistening/NOTE.md):
 * Backbone 1.2 checks after every stopListening(obj) whether the listener's
 * whole listening map is empty, which lists all its keys each time. */
'use strict';

const SENSORS = 1600;
const SHOWN = 48;
const KINDS = ['temp', 'humidity', 'co2', 'noise', 'light'];

const state = {fleet: [], wall: null, rounds: 0, actions: 0, changes: 0};

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

function makeFleet(count) {
  const rand = seededRandom(2024);
  const fleet = [];
  for (let i = 0; i < count; i++) {
    fleet.push(new Backbone.Model({id: i + 1, kind: KINDS[Math.floor(rand() * KINDS.length)],
                                   value: Math.round(rand() * 1000) / 10}));
  }
  return fleet;
}

function onSensorChange(model) {
  state.changes++;
  return model.id;
}

function connectFleet() {
  const wall = state.wall;
  state.fleet.forEach(function watchSensor(sensor) {
    wall.listenTo(sensor, 'change', onSensorChange);
  });
  const rand = seededRandom(99 + state.rounds);
  state.fleet.forEach(function pushReading(sensor) {
    sensor.set('value', Math.round(rand() * 1000) / 10);
  });
}

function disconnectFleet() {
  const wall = state.wall;
  let retired = 0;
  state.fleet.forEach(function retireSensor(sensor) {
    wall.stopListening(sensor);
    retired++;
  });
  return retired;
}

function renderTiles() {
  const box = document.getElementById('tiles');
  box.innerHTML = state.fleet.slice(0, SHOWN).map(function tileHtml(s) {
    return '<div>' + s.get('kind') + ' #' + s.id + ': ' + s.get('value') + '</div>';
  }).join('');
}

function finishAction(text) {
  document.getElementById('status').textContent = text;
  state.actions++;
  document.body.dataset.actions = String(state.actions);
}

function onConnectClick() {
  connectFleet();
  renderTiles();
  finishAction('connected ' + state.fleet.length + ' sensors, ' + state.changes + ' changes seen');
}

function onDisconnectClick() {
  const retired = disconnectFleet();
  state.rounds++;
  renderTiles();
  finishAction('retired ' + retired + ' sensors (round ' + state.rounds + ')');
}

function main() {
  state.fleet = makeFleet(SENSORS);
  state.wall = _.extend({}, Backbone.Events);
  document.getElementById('connect').addEventListener('click', onConnectClick);
  document.getElementById('disconnect').addEventListener('click', onDisconnectClick);
  document.body.dataset.ready = '1';
}

main();
