/* Dashboard boards: three boards of cards (seeded, the same on every load).
 * The grid uses a 1px cell height with no margin, so that cards sit close
 * together and each card's height is given in pixels (rows). Each Show button
 * tears down the current grid and builds a new one with GridStack.init and
 * load(). A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const BOARDS = ['Sales', 'Ops', 'Support'];
const CARDS = 12;        /* cards per board */
const COLUMNS = 12;
const BOARD_ROWS = [380, 420, 460]; /* rough height of each board, in 1px rows */

const state = {grid: null, shown: 0};

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

/* Cards in three columns of four; each column's heights add up to about
 * the board's height. */
function makeBoard(index) {
  const rand = seededRandom(7100 + index * 31);
  const rows = BOARD_ROWS[index];
  const cards = [];
  for (let col = 0; col < 3; col++) {
    let y = 0;
    for (let k = 0; k < CARDS / 3; k++) {
      const last = k === CARDS / 3 - 1;
      const h = last ? Math.max(40, rows - y) : 60 + Math.floor(rand() * 50);
      cards.push({
        id: BOARDS[index].toLowerCase() + '-' + (col * 4 + k),
        x: col * 4, y: y, w: 4, h: h,
        content: BOARDS[index] + ' card ' + (col * 4 + k + 1) + ' (' + h + 'px)'
      });
      y += h;
    }
  }
  return cards;
}

function showBoard(index) {
  const host = document.getElementById('host');
  if (state.grid) {
    state.grid.destroy();
    state.grid = null;
  }
  host.textContent = '';
  const el = document.createElement('div');
  el.className = 'grid-stack';
  host.appendChild(el);
  const grid = GridStack.init({
    cellHeight: '1px', margin: 0, column: COLUMNS,
    animate: false, float: true, disableDrag: true, disableResize: true
  }, el);
  grid.load(makeBoard(index));
  state.grid = grid;

  /* same layout in both builds: a signature of the placed cards */
  let sig = 0;
  grid.engine.nodes.forEach(function (n) { sig = (sig * 31 + n.x * 7 + n.y * 3 + n.h) % 1000003; });
  state.shown++;
  document.getElementById('status').textContent =
    BOARDS[index] + ': ' + grid.engine.nodes.length + ' cards, ' + grid.getRow() + ' rows, layout ' + sig;
  document.body.dataset.shown = String(state.shown);
}

BOARDS.forEach(function (name, i) {
  document.getElementById('show' + i).addEventListener('click', function () { showBoard(i); });
});
document.body.dataset.ready = '1';
