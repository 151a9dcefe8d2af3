/* Tile board: each Paint button repaints one region of a tile board on the
 * next animation frame through rxjs's animationFrameScheduler. Every tile is
 * one scheduled task. The first tile task also queues a placeholder task per
 * tile for the frame after (shown if a tile failed to paint); each tile that
 * paints cancels its placeholder, so only the final "summary" task runs on
 * the following frame. The tile values are seeded, the same on every load.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const REGIONS = ['North', 'South', 'East'];
const TILES = 11000;   /* tiles (scheduled tasks) per region */

const state = {shown: 0, busy: false};

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

function makeRegion(index) {
  const rand = seededRandom(7100 + index * 31);
  const heights = new Float64Array(TILES);
  for (let i = 0; i < TILES; i++) heights[i] = rand() * 100;
  return heights;
}

function paintRegion(index) {
  if (state.busy) return;
  state.busy = true;
  const t0 = performance.now();
  const af = rxjs.animationFrameScheduler;
  const heights = makeRegion(index);
  const shades = new Uint8Array(TILES);
  const placeholders = [];
  let painted = 0, placeholdersShown = 0, cancelled = 0;

  function showPlaceholder(i) { shades[i] = 1; placeholdersShown++; }

  function summary() {
    let sum = 0;
    for (let i = 0; i < TILES; i++) sum += shades[i];
    state.shown++;
    state.busy = false;
    document.getElementById('board').textContent =
      REGIONS[index] + ' shade checksum ' + sum;
    document.getElementById('status').textContent =
      REGIONS[index] + ': ' + painted + ' tiles painted, ' + cancelled +
      ' placeholders cancelled, ' + placeholdersShown + ' shown, ' +
      Math.round(performance.now() - t0) + ' ms';
    document.body.setAttribute('data-shown', String(state.shown));
  }

  function paintTile(i) {
    if (i === 0) {
      /* Queue the next frame's placeholders (one per other tile) and the
       * summary, behind the tiles still waiting in this frame. */
      for (let j = 1; j < TILES; j++) placeholders.push(af.schedule(showPlaceholder, 0, j));
      af.schedule(summary, 0);
    } else {
      placeholders[i - 1].unsubscribe();
      cancelled++;
    }
    shades[i] = 2 + Math.floor(heights[i] / 10);
    painted++;
  }

  for (let i = 0; i < TILES; i++) af.schedule(paintTile, 0, i);
}

function setup() {
  for (let i = 0; i < REGIONS.length; i++) {
    document.getElementById('paint' + i).addEventListener('click', function onPaint() { paintRegion(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
