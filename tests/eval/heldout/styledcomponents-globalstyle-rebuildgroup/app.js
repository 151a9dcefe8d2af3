/* Themed dashboard: a grid of widgets (seeded, the same on every load). Every
 * widget mounts the same dynamic createGlobalStyle component with the
 * dashboard's theme tokens (accent colour, density), the way a widget kit
 * ships its own global theme rules. Each View button re-renders the whole
 * dashboard for one team a few times (as live data updates would); the theme
 * does not change, so the global CSS stays the same on every render.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const VIEWS = ['Sales', 'Support', 'Hiring'];
const WIDGETS = 50;      /* widgets on the dashboard (each mounts the global style) */
const RULES = 24;        /* theme rules in the global style */
const UPDATES = 3;       /* re-renders per click */

const h = React.createElement;
const state = {root: null, shown: 0};

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

const rand = seededRandom(9131);
const THEME = {
  accent: '#' + [0, 1, 2].map(() => (64 + Math.floor(rand() * 160)).toString(16)).join(''),
  density: 2 + Math.floor(rand() * 4)
};

/* One global style with RULES rules whose values come from the props, so
 * styled-components treats it as dynamic (re-evaluated on every render). */
function makeThemeGlobals() {
  const strings = [];
  const fns = [];
  let text = '';
  for (let i = 0; i < RULES; i++) {
    text += '.dash .w' + i + ' { border-left: 3px solid ';
    strings.push(text);
    fns.push(p => p.accent);
    text = '; padding: ';
    strings.push(text);
    fns.push(p => (p.density + (i % 3)) + 'px');
    text = '; }\n';
  }
  strings.push(text);
  return styled.default.createGlobalStyle(strings, ...fns);
}
const ThemeGlobals = makeThemeGlobals();

function widgetData(view, update) {
  const r = seededRandom(400 + view * 31 + update);
  const rows = [];
  for (let i = 0; i < WIDGETS; i++) {
    rows.push({title: VIEWS[view] + ' #' + (i + 1), value: Math.floor(r() * 1000)});
  }
  return rows;
}

function Widget(props) {
  return h('div', {className: 'w' + (props.index % RULES)},
    h(ThemeGlobals, {accent: THEME.accent, density: THEME.density, update: props.update}),
    h('b', null, props.row.title), ' ', String(props.row.value));
}

function Dashboard(props) {
  return h('div', {className: 'dash'},
    props.rows.map((row, i) => h(Widget, {key: i, index: i, row: row, update: props.update})));
}

function renderView(view, update) {
  ReactDOM.flushSync(() => {
    state.root.render(h(Dashboard, {rows: widgetData(view, update), update: view * 10 + update}));
  });
}

function show(view) {
  for (let u = 0; u < UPDATES; u++) renderView(view, u);
  state.shown++;
  const tile = document.querySelector('.dash .w5');
  const cs = getComputedStyle(tile);
  document.getElementById('status').textContent =
    VIEWS[view] + ': ' + document.querySelectorAll('.dash > div').length + ' widgets, ' +
    cs.borderLeftColor + ' / ' + cs.paddingLeft;
  document.body.dataset.shown = String(state.shown);
}

function init() {
  state.root = ReactDOM.createRoot(document.getElementById('root'));
  renderView(0, 99);
  VIEWS.forEach((_, i) => {
    document.getElementById('view' + i).addEventListener('click', () => show(i));
  });
  document.body.dataset.ready = '1';
}

init();
