/* Handbook panels: three panels (seeded, the same on every load), each a
 * Vue component with a hand-written render function that wraps its default
 * slot. The slot content is a large static outline written in the parent's
 * template. Each Refresh button bumps one panel's own revision counter a
 * number of times, letting Vue re-render that panel after each bump, as a
 * live "last synced" header would. Only the panel re-renders; the parent
 * (which owns the slot content) does not.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const PANELS = ['Policies', 'Procedures', 'Glossary'];
const GROUPS = 30;      /* groups per panel */
const ITEMS = 70;       /* items per group */
const REFRESHES = 800;  /* re-renders of the panel per click */

const VOCAB = ['budget', 'review', 'ship', 'design', 'team', 'customer',
  'latency', 'roadmap', 'sprint', 'metrics', 'draft', 'onboarding', 'release',
  'notes', 'feedback', 'audit', 'migration', 'backlog', 'owner', 'deadline',
  'risk', 'plan', 'access', 'vendor', 'expense', 'travel', 'security', 'leave'];

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

function words(rand, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(VOCAB[Math.floor(rand() * VOCAB.length)]);
  return out.join(' ');
}

/* The static outline of one panel, as template markup (no bindings, so the
 * compiler hoists it into one static tree). */
function outlineMarkup(index) {
  const rand = seededRandom(7100 + index * 31);
  let html = '<div class="outline">';
  for (let g = 0; g < GROUPS; g++) {
    html += '<div class="group"><h3>' + (g + 1) + '. ' + words(rand, 2) + '</h3><ul>';
    for (let i = 0; i < ITEMS; i++) {
      html += '<li><b>' + words(rand, 1) + '</b><span>' + words(rand, 5) + '</span></li>';
    }
    html += '</ul></div>';
  }
  return html + '</div>';
}

/* A panel: header with its own revision counter, body = the default slot,
 * rendered by hand (no <slot> element). */
const HandbookPanel = {
  props: ['title'],
  data: function panelData() { return {revision: 0}; },
  render: function renderPanel(h) {
    return h('section', {class: 'panel'}, [
      h('h2', this.title + ' (revision ' + this.revision + ')'),
      h('div', {class: 'body'}, this.$slots.default)
    ]);
  }
};

function appTemplate() {
  let html = '<div class="panels">';
  for (let p = 0; p < PANELS.length; p++) {
    html += '<handbook-panel ref="p' + p + '" title="' + PANELS[p] + '">' +
      outlineMarkup(p) + '</handbook-panel>';
  }
  return html + '</div>';
}

async function refreshPanel(index) {
  const t0 = performance.now();
  const panel = state.root.$refs['p' + index];
  for (let r = 0; r < REFRESHES; r++) {
    panel.revision++;
    await Vue.nextTick();
  }
  const el = panel.$el;
  state.shown++;
  document.getElementById('status').textContent =
    PANELS[index] + ': ' + el.querySelectorAll('li').length + ' items, header "' +
    el.querySelector('h2').textContent + '", ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  Vue.config.productionTip = false;
  state.root = new Vue({
    el: '#app',
    template: appTemplate(),
    components: {'handbook-panel': HandbookPanel}
  });
  for (let i = 0; i < PANELS.length; i++) {
    document.getElementById('refresh' + i).addEventListener('click', function onRefresh() {
      refreshPanel(i);
    });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
