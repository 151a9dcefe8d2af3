/* Dashboard layouts: a product ships default widget settings, where many
 * widgets are set by a one-word shorthand ('auto', 'compact', ...). Teams
 * save their own layouts from a newer editor that stores every widget as a
 * full settings object. Each Import button merges one team's saved layouts
 * onto the defaults with deepmerge and lists the result. A real regression
 * for zamcap's accuracy experiment (NOTE.md): deepmerge 4.2.x checks every
 * key with `key in target` inside a try/catch, which throws (and is caught)
 * for every key of an object merged onto a string; 4.1.1 did not ask. */
'use strict';

const TEAMS = ['Sales', 'Support', 'Finance'];
const LAYOUTS_PER_TEAM = 120;
const WIDGETS = 40;
const SHOWN = 14;
const SHORTHANDS = ['auto', 'compact', 'wide', 'hidden'];
const COLORS = ['slate', 'teal', 'amber', 'rose', 'indigo', 'lime'];

const state = {defaults: null, teams: [], imported: 0};

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

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

/* Defaults: every other widget is a shorthand string, the rest objects. */
function makeDefaults() {
  const rand = seededRandom(99);
  const d = {};
  for (let w = 0; w < WIDGETS; w++) {
    d['widget' + w] = w % 2 === 0 ? pick(rand, SHORTHANDS)
                                  : {color: pick(rand, COLORS), span: 1 + (w % 3), visible: true};
  }
  return d;
}

function makeWidgetSettings(rand, w) {
  return {color: pick(rand, COLORS), span: 1 + Math.floor(rand() * 4), visible: rand() > 0.1,
          title: 'Widget ' + w, refresh: 30 * (1 + Math.floor(rand() * 6)),
          align: rand() > 0.5 ? 'left' : 'right', border: Math.floor(rand() * 3),
          legend: rand() > 0.5};
}

function makeTeam(index) {
  const rand = seededRandom(5100 + index);
  const layouts = [];
  for (let l = 0; l < LAYOUTS_PER_TEAM; l++) {
    const layout = {};
    for (let w = 0; w < WIDGETS; w++) layout['widget' + w] = makeWidgetSettings(rand, w);
    layouts.push({owner: TEAMS[index].toLowerCase() + '-' + (l + 1), widgets: layout});
  }
  return layouts;
}

function applyLayout(layout) {
  return deepmerge(state.defaults, layout.widgets);
}

function summarize(owner, merged) {
  let visible = 0, span = 0;
  for (const key of Object.keys(merged)) {
    const w = merged[key];
    if (w && w.visible) visible++;
    if (w && w.span) span += w.span;
  }
  return {owner: owner, visible: visible, span: span};
}

function renderRows(rows) {
  document.getElementById('rows').innerHTML = rows.slice(0, SHOWN).map(function layoutRow(r) {
    return '<tr><td>' + r.owner + '</td><td>' + r.visible + ' visible</td><td>' + r.span + ' columns</td></tr>';
  }).join('');
}

function onImportClick(event) {
  const index = Number(event.currentTarget.dataset.team);
  const rows = state.teams[index].map(function importLayout(layout) {
    return summarize(layout.owner, applyLayout(layout));
  });
  renderRows(rows);
  state.imported++;
  document.getElementById('status').textContent = TEAMS[index] + ': ' + rows.length + ' layouts imported';
  document.body.dataset.imported = String(state.imported);
}

function main() {
  state.defaults = makeDefaults();
  TEAMS.forEach(function addTeam(name, index) {
    state.teams.push(makeTeam(index));
    const b = document.getElementById('import' + index);
    b.dataset.team = String(index);
    b.addEventListener('click', onImportClick);
  });
  document.body.dataset.ready = '1';
}

main();
