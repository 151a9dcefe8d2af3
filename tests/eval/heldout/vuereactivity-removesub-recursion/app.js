/* Cost rollup: a layered cost model kept as @vue/reactivity computeds.
 * Layer k's rolled-up cost is its own base cost plus the rolled-up cost of
 * every earlier layer, so the top layer is reached from the base by 2^k
 * paths. The page reads its report on demand (a computed that no effect
 * watches), and each department button applies a seeded change to the base
 * cost, then shows the inputs-only view (the report stops reading the top
 * layer) and the full projection again, twice. A held-out real regression
 * for zamcap's accuracy experiment (NOTE.md): @vue/reactivity 3.5.0-3.5.11
 * walks the dependency graph once per path when the report drops the top
 * layer (removeSub recursing into computeds with no subscribers); 3.4 has
 * no such walk and 3.5.12 stops at the first level. */
'use strict';

const DEPARTMENTS = ['Plant', 'Logistics', 'Services'];
const LAYERS = 24;
const VIEW_SWITCHES = 2;

const state = {base: null, projection: null, layers: [], report: null, shown: 0};

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

function makeLayer(earlier, index) {
  return VueReactivity.computed(function layerCost() {
    let sum = state.base.value + index;
    for (let i = 0; i < earlier.length; i++) sum += earlier[i].value;
    return sum % 1000003;
  });
}

function buildModel() {
  state.base = VueReactivity.ref(100);
  state.projection = VueReactivity.ref(true);
  for (let k = 0; k < LAYERS; k++) {
    state.layers.push(makeLayer(state.layers.slice(), k));
  }
  const top = state.layers[LAYERS - 1];
  state.report = VueReactivity.computed(function reportRows() {
    if (state.projection.value) {
      return [['base', state.base.value], ['layer ' + (LAYERS - 1), top.value]];
    }
    return [['base', state.base.value], ['view', 'inputs only']];
  });
}

function renderReport() {
  const rows = state.report.value.map(function reportRow(r) {
    return '<tr><th>' + r[0] + '</th><td>' + r[1] + '</td></tr>';
  });
  document.getElementById('report').innerHTML = rows.join('');
  return rows.length;
}

function switchViews() {
  let log = [];
  for (let i = 0; i < VIEW_SWITCHES; i++) {
    state.projection.value = false;
    log.push(renderReport());
    state.projection.value = true;
    log.push(renderReport());
  }
  return log.length;
}

function onDepartmentClick(event) {
  const index = DEPARTMENTS.indexOf(event.target.dataset.dept);
  if (index < 0) return;
  const rand = seededRandom(5200 + index);
  state.base.value = state.base.value + Math.floor(rand() * 90) + 10;
  renderReport();
  const renders = switchViews();
  const top = state.layers[LAYERS - 1].value;
  document.getElementById('status').textContent = DEPARTMENTS[index] + ': base ' + state.base.value +
    ', top layer ' + top + ', ' + renders + ' view renders';
  state.shown++;
  document.body.dataset.shown = String(state.shown);
}

buildModel();
renderReport();
for (const b of document.querySelectorAll('button[data-dept]')) {
  b.addEventListener('click', onDepartmentClick);
}
document.body.dataset.ready = '1';
