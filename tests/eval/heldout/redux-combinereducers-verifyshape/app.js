/* Widget board: one Redux store whose root reducer is combineReducers over
 * one small reducer per widget (a dashboard that registers a slice per tile,
 * seeded, the same on every load). Each Refresh button dispatches a burst of
 * metric updates for one group of widgets, one action per sample, and then
 * shows the group's totals.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const GROUPS = ['sales', 'traffic', 'errors'];
const WIDGETS = 1500;   /* widget reducers in the root combineReducers */
const SAMPLES = 140;    /* actions dispatched per click */

const state = {store: null, shown: 0, notified: 0};

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

function widgetKey(i) {
  return 'widget' + String(i).padStart(4, '0');
}

/* One reducer per widget: it only reacts to samples addressed to it. */
function makeWidgetReducer(key, group) {
  const initial = {group: group, value: 0, samples: 0};
  return function widgetReducer(current, action) {
    if (current === undefined) return initial;
    if (action.type === 'metric/sample' && action.key === key) {
      return {group: current.group, value: current.value + action.amount,
        samples: current.samples + 1};
    }
    if (action.type === 'metric/reset' && action.group === current.group) {
      return current.samples === 0 ? current : {group: current.group, value: 0, samples: 0};
    }
    return current;
  };
}

function buildStore() {
  const reducers = {};
  for (let i = 0; i < WIDGETS; i++) {
    reducers[widgetKey(i)] = makeWidgetReducer(widgetKey(i), GROUPS[i % GROUPS.length]);
  }
  return Redux.createStore(Redux.combineReducers(reducers));
}

function groupTotals(snapshot, group) {
  let value = 0, samples = 0, tiles = 0;
  const keys = Object.keys(snapshot);
  for (let i = 0; i < keys.length; i++) {
    const w = snapshot[keys[i]];
    if (w.group !== group) continue;
    tiles++;
    value += w.value;
    samples += w.samples;
  }
  return {value: value, samples: samples, tiles: tiles};
}

function refreshGroup(index) {
  const t0 = performance.now();
  const group = GROUPS[index];
  const rand = seededRandom(9100 + index * 31);
  const store = state.store;
  store.dispatch({type: 'metric/reset', group: group});
  for (let s = 0; s < SAMPLES; s++) {
    /* widgets of this group are every third index starting at index */
    const w = index + GROUPS.length * Math.floor(rand() * (WIDGETS / GROUPS.length));
    store.dispatch({type: 'metric/sample', key: widgetKey(w),
      amount: 1 + Math.floor(rand() * 50)});
  }
  const totals = groupTotals(store.getState(), group);
  state.shown++;
  document.getElementById('status').textContent =
    'Refreshed ' + group + ': ' + totals.tiles + ' tiles, ' + totals.samples +
    ' samples, total ' + totals.value + ' (' + state.notified + ' notifications, ' +
    Math.round(performance.now() - t0) + ' ms)';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.store = buildStore();
  state.store.subscribe(function onChange() { state.notified++; });
  for (let i = 0; i < GROUPS.length; i++) {
    document.getElementById('refresh' + i).addEventListener('click', function onRefresh() { refreshGroup(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
