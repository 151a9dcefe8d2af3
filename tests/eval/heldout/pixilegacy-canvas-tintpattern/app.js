/* Bead boards: three boards of coloured beads (seeded, the same on every
 * load). Each Show button builds one board as PIXI.Graphics circles (a
 * fill and an outline, each bead its own colours) and draws it with
 * pixi.js-legacy's CanvasRenderer for a few frames while the beads drift.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const BOARDS = ['Meadow', 'Harbour', 'Orchard'];
const BEADS = 1500;   /* circles per board */
const FRAMES = 6;    /* frames drawn per Show */

const state = {renderer: null, shown: 0};

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

function makeBeads(index) {
  const rand = seededRandom(7100 + index * 31);
  const beads = [];
  for (let i = 0; i < BEADS; i++) {
    beads.push({
      x: rand() * 1180 + 10, y: rand() * 500 + 10,
      r: 3 + rand() * 6,
      fill: Math.floor(rand() * 0xFFFFFF),
      edge: Math.floor(rand() * 0xFFFFFF),
      dx: rand() * 4 - 2, dy: rand() * 4 - 2
    });
  }
  return beads;
}

function buildBead(bead) {
  const g = new PIXI.Graphics();
  g.lineStyle(1.5, bead.edge, 1);
  g.beginFill(bead.fill, 1);
  g.drawCircle(0, 0, bead.r);
  g.endFill();
  g.x = bead.x;
  g.y = bead.y;
  return g;
}

function buildStage(beads) {
  const stage = new PIXI.Container();
  for (let i = 0; i < beads.length; i++) stage.addChild(buildBead(beads[i]));
  return stage;
}

function driftBeads(stage, beads) {
  const kids = stage.children;
  for (let i = 0; i < kids.length; i++) {
    kids[i].x += beads[i].dx;
    kids[i].y += beads[i].dy;
  }
}

function drawFrames(stage, beads) {
  for (let f = 0; f < FRAMES; f++) {
    driftBeads(stage, beads);
    state.renderer.render(stage);
  }
}

function showBoard(index) {
  const t0 = performance.now();
  const beads = makeBeads(index);
  const stage = buildStage(beads);
  drawFrames(stage, beads);
  stage.destroy({children: true});
  state.shown++;
  document.getElementById('status').textContent =
    BOARDS[index] + ': ' + beads.length + ' beads, ' + FRAMES + ' frames, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.renderer = new PIXI.CanvasRenderer({width: 1200, height: 520, backgroundColor: 0xffffff});
  document.getElementById('board').appendChild(state.renderer.view);
  for (let i = 0; i < BOARDS.length; i++) {
    document.getElementById('show' + i).addEventListener('click', function onShow() { showBoard(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
