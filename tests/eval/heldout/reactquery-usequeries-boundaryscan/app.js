/* Sensor board: a few thousand sensors (seeded, the same on every load), each
 * one a cached query read with react-query's useQueries. Each Show button
 * steps the board's threshold a few times (as a slider would); every step
 * re-renders the board, which calls useQueries again over all the sensors and
 * lists the ones at or above the threshold. Nothing is fetched: every query is
 * disabled and its data is put in the cache before the first render.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SENSORS = 3000;   /* queries passed to useQueries */
const STEPS = 4;        /* threshold steps (re-renders) per click */
const VIEWS = [
  {name: 'warm', from: 40, step: 5},
  {name: 'hot', from: 70, step: 5},
  {name: 'all', from: 0, step: 2},
];
const ROOMS = ['lab', 'hall', 'attic', 'cellar', 'office', 'garage', 'porch',
  'kitchen'];

const h = React.createElement;

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

const client = new ReactQuery.QueryClient({
  defaultOptions: {
    queries: {
      enabled: false, staleTime: Infinity, cacheTime: Infinity, retry: false,
      refetchOnWindowFocus: false, refetchOnReconnect: false,
    },
  },
});

function seedSensors() {
  const rnd = seededRandom(20221001);
  const queries = [];
  for (let i = 0; i < SENSORS; i++) {
    const key = ['sensor', i];
    client.setQueryData(key, {
      id: i,
      room: ROOMS[Math.floor(rnd() * ROOMS.length)],
      value: Math.floor(rnd() * 1000) / 10,
    });
    queries.push({queryKey: key, queryFn: () => client.getQueryData(key)});
  }
  return queries;
}

const QUERIES = seedSensors(); /* one stable array: useQueries' options memo holds */

function Board(props) {
  const results = ReactQuery.useQueries({queries: QUERIES});
  let count = 0;
  let sum = 0;
  const first = [];
  for (let i = 0; i < results.length; i++) {
    const d = results[i].data;
    if (d && d.value >= props.threshold) {
      count++;
      sum += d.value;
      if (first.length < 24) first.push(d);
    }
  }
  return h('div', null,
    h('p', {id: 'summary'}, count + ' of ' + results.length +
      ' sensors at or above ' + props.threshold + ' (mean ' +
      (count ? (sum / count).toFixed(1) : '0') + ')'),
    h('ul', null, first.map((d) => h('li', {key: d.id},
      '#' + d.id + ' ' + d.room + ' ' + d.value.toFixed(1)))));
}

let setThresholdFromOutside = null;

function App() {
  const pair = React.useState(50);
  setThresholdFromOutside = pair[1];
  return h(ReactQuery.QueryClientProvider, {client: client},
    h(Board, {threshold: pair[0]}));
}

const state = {shown: 0, lastSummary: ''};

function show(view) {
  for (let k = 0; k < STEPS; k++) {
    const t = view.from + k * view.step;
    ReactDOM.flushSync(() => setThresholdFromOutside(t));
  }
  state.lastSummary = document.getElementById('summary').textContent;
  state.shown++;
  document.getElementById('status').textContent =
    view.name + ': ' + state.lastSummary;
  document.body.dataset.shown = String(state.shown);
}

function init() {
  const root = ReactDOM.createRoot(document.getElementById('board'));
  ReactDOM.flushSync(() => root.render(h(App)));
  VIEWS.forEach((view, i) => {
    document.getElementById('show' + i).addEventListener('click',
      () => show(view));
  });
  document.body.dataset.ready = '1';
}

init();
