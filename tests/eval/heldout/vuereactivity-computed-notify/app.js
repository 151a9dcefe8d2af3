/* Forecast model: a month-by-month revenue forecast kept as a chain of
 * @vue/reactivity computeds. Each month has a low and a high estimate, and
 * both read both estimates of the month before (a diamond per month). One
 * effect renders the last months. Each scenario button applies three
 * seeded adjustments to the opening estimates, one ref write each. A
 * held-out real regression for zamcap's accuracy experiment
 * (NOTE.md): @vue/reactivity 3.5.0-3.5.5 propagates a change through
 * computeds once per path, not once per computed, so a write costs 2^months
 * notifications (3.4 and 3.5.6 mark each computed once). */
'use strict';

const SCENARIOS = ['Baseline', 'Expansion', 'Downturn'];
const MONTHS = 21;
const ADJUSTMENTS = 3;
const SHOWN = 6;

const state = {low0: null, high0: null, months: [], opened: 0, rendered: 0};

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

function makeMonth(prev, index) {
  const drift = 1 + (index % 5) / 100;
  const low = VueReactivity.computed(function lowEstimate() {
    return Math.round((0.9 * prev.low.value + 0.1 * prev.high.value) * drift);
  });
  const high = VueReactivity.computed(function highEstimate() {
    return Math.round((1.08 * prev.high.value - 0.05 * prev.low.value) * drift);
  });
  return {index: index, low: low, high: high};
}

function buildModel() {
  state.low0 = VueReactivity.ref(1000);
  state.high0 = VueReactivity.ref(1400);
  let prev = {index: 0, low: state.low0, high: state.high0};
  for (let m = 1; m <= MONTHS; m++) {
    prev = makeMonth(prev, m);
    state.months.push(prev);
  }
}

function renderForecast() {
  const rows = state.months.slice(-SHOWN).map(function monthRow(m) {
    return '<tr><td>M' + m.index + '</td><td>' + m.low.value + '</td><td>' + m.high.value + '</td></tr>';
  });
  document.getElementById('forecast').innerHTML =
    '<tr><th>month</th><th>low</th><th>high</th></tr>' + rows.join('');
  state.rendered++;
}

function makeAdjustments(index) {
  const rand = seededRandom(4100 + index);
  const list = [];
  for (let i = 0; i < ADJUSTMENTS; i++) {
    list.push({which: rand() < 0.5 ? 'low0' : 'high0', delta: Math.floor(rand() * 200) - 60});
  }
  return list;
}

function applyScenario(list) {
  for (const adj of list) {
    state[adj.which].value = state[adj.which].value + adj.delta;
  }
}

function onScenarioClick(event) {
  const index = SCENARIOS.indexOf(event.target.dataset.scenario);
  if (index < 0) return;
  applyScenario(makeAdjustments(index));
  const last = state.months[state.months.length - 1];
  document.getElementById('status').textContent = SCENARIOS[index] + ': month ' + last.index +
    ' low ' + last.low.value + ', high ' + last.high.value + ' (' + state.rendered + ' renders)';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  buildModel();
  VueReactivity.effect(renderForecast);
  const nav = document.getElementById('scenarios');
  SCENARIOS.forEach(function addScenario(name) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.scenario = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onScenarioClick);
  document.body.dataset.ready = '1';
}

main();
