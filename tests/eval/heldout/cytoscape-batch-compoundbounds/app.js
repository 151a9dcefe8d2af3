/* Team map: a seeded compound graph (groups holding members) kept in a
 * cytoscape model with the stylesheet on (headless, no canvas). Each button
 * nudges every member of the map a little (one bulk positions() call, as a
 * drag or a small relayout would), then, inside cy.batch(), stores on every
 * member the size of the group box around it, read from the parent node's
 * width() and height(). The page lists the group sizes afterwards.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const GROUPS = 20;     /* compound parents */
const MEMBERS = 150;   /* children per parent */
const ROUNDS = ['North', 'South', 'East'];

const state = {cy: null, members: null, shown: 0, rand: null};

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

function buildElements(rand) {
  const els = [];
  for (let g = 0; g < GROUPS; g++) {
    els.push({data: {id: 'g' + g, label: 'Team ' + g}});
    for (let m = 0; m < MEMBERS; m++) {
      els.push({
        data: {id: 'n' + g + '_' + m, parent: 'g' + g, label: 'member ' + m},
        position: {x: (g % 5) * 420 + rand() * 300, y: Math.floor(g / 5) * 420 + rand() * 300}
      });
    }
  }
  return els;
}

function init() {
  state.rand = seededRandom(90210);
  state.cy = cytoscape({
    headless: true,
    styleEnabled: true,
    elements: buildElements(state.rand),
    style: [
      {selector: 'node', style: {width: 20, height: 20, label: 'data(label)'}},
      {selector: ':parent', style: {padding: 10, 'compound-sizing-wrt-labels': 'exclude'}}
    ]
  });
  state.members = state.cy.nodes(':child');
  document.body.dataset.ready = '1';
}

function nudgeAndMeasure(round) {
  const rand = state.rand;
  const cy = state.cy;
  /* one bulk move of every member */
  state.members.positions(function (n) {
    const p = n.position();
    return {x: p.x + (rand() - 0.5) * 20, y: p.y + (rand() - 0.5) * 20};
  });
  /* store the size of the enclosing group on each member */
  cy.batch(function () {
    state.members.forEach(function (n) {
      const group = n.parent();
      n.data('groupW', Math.round(group.width()));
      n.data('groupH', Math.round(group.height()));
      n.data('round', round);
    });
  });
  const rows = [];
  cy.nodes(':parent').forEach(function (g) {
    const first = g.children()[0];
    rows.push(g.data('label') + ': ' + first.data('groupW') + ' x ' + first.data('groupH'));
  });
  let sum = 0;
  state.members.forEach(function (n) { sum += n.data('groupW') + n.data('groupH'); });
  document.getElementById('status').textContent = round + ' checksum ' + sum;
  document.getElementById('list').textContent = rows.join('\n');
}

function onShow(i) {
  nudgeAndMeasure(ROUNDS[i]);
  state.shown += 1;
  document.body.dataset.shown = String(state.shown);
}

ROUNDS.forEach(function (name, i) {
  document.getElementById('show' + i).addEventListener('click', function () { onShow(i); });
});
init();
