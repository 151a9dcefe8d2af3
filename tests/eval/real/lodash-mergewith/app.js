/* Workspace settings: the effective settings are the defaults merged with
 * a team layer and a user layer by lodash's _.mergeWith, with a customizer
 * that concatenates arrays (lists of plugins, keymaps) and leaves the rest
 * to lodash. The layers are generated, seeded: the same on every load.
 * Each button merges its layers into a fresh object and summarises it.
 * A real regression for zamcap's accuracy experiment
 * (tests/eval/real/lodash-mergewith/NOTE.md): lodash 4.7.0 deep-clones
 * every source object the customizer leaves alone, 4.6.1 copied it shallowly. */
'use strict';

const PROJECTS = 360;
const PANELS = 30;

const state = {layers: [], applied: 0, applies: 0};

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

function makePanel(rand, p) {
  return {title: 'panel ' + p, visible: rand() < 0.7, width: Math.floor(rand() * 400),
          colors: {fg: '#' + Math.floor(rand() * 4096).toString(16), bg: '#fff',
                   accent: {light: rand() < 0.5, level: Math.floor(rand() * 9)}},
          filters: {text: '', tags: {a: rand() < 0.5, b: rand() < 0.5}, limit: 50}};
}

function makeLayer(seed) {
  const rand = seededRandom(seed);
  const layer = {plugins: ['core'], projects: {}};
  for (let i = 0; i < PROJECTS; i++) {
    const panels = {};
    for (let p = 0; p < PANELS; p++) panels['p' + p] = makePanel(rand, p);
    layer.projects['project-' + i] = {name: 'Project ' + i, panels: panels,
                                      build: {target: 'es' + (2015 + i % 8), minify: rand() < 0.5}};
  }
  return layer;
}

function concatArrays(objValue, srcValue) {
  if (Array.isArray(objValue)) return objValue.concat(srcValue);
  return undefined;
}

function effectiveSettings(count) {
  const result = {};
  for (let i = 0; i < count; i++) _.mergeWith(result, state.layers[i], concatArrays);
  return result;
}

function countVisiblePanels(settings) {
  let n = 0;
  for (const key of Object.keys(settings.projects)) {
    const panels = settings.projects[key].panels;
    for (const p of Object.keys(panels)) if (panels[p].visible) n++;
  }
  return n;
}

function renderSummary(settings) {
  document.getElementById('summary').textContent =
    'plugins: ' + settings.plugins.join(', ') + '\nprojects: ' +
    Object.keys(settings.projects).length + '\nvisible panels: ' + countVisiblePanels(settings);
}

function onApplyClick(event) {
  state.applied = event.target.id === 'apply-team' ? 2 : 3;
  renderSummary(effectiveSettings(state.applied));
  document.getElementById('status').textContent = state.applied + ' layers';
  state.applies++;
  document.body.dataset.applies = String(state.applies);
}

function main() {
  state.layers = [makeLayer(11), makeLayer(22), makeLayer(33)];
  document.getElementById('apply-team').addEventListener('click', onApplyClick);
  document.getElementById('apply-user').addEventListener('click', onApplyClick);
  document.body.dataset.ready = '1';
}

main();
