/* Live trade blotter: a Tabulator grid (fixed height, so only the visible rows
 * are in the DOM) holding a seeded book of trades. Each Load button appends
 * several small batches of new fills with addData, as a streaming feed does.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const BOOK = 20000;      /* rows loaded at start */
const BATCHES = 4;       /* addData calls per click */
const PER_BATCH = 25;    /* rows per addData call */
const SYMBOLS = ['ACME', 'BOLT', 'CRUX', 'DYNA', 'EPIC', 'FLUX', 'GRIT', 'HALO'];

const state = {table: null, shown: 0, nextId: 1};

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

function makeTrade(rand) {
  const id = state.nextId++;
  return {
    id: id,
    symbol: SYMBOLS[Math.floor(rand() * SYMBOLS.length)],
    side: rand() < 0.5 ? 'BUY' : 'SELL',
    qty: 1 + Math.floor(rand() * 900),
    price: Math.round((20 + rand() * 180) * 100) / 100
  };
}

function makeRows(rand, n) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(makeTrade(rand));
  return rows;
}

async function loadFeed(index) {
  const rand = seededRandom(9100 + index * 31);
  for (let b = 0; b < BATCHES; b++) {
    await state.table.addData(makeRows(rand, PER_BATCH), true);
  }
  state.shown++;
  document.getElementById('status').textContent =
    'Rows: ' + state.table.getDataCount();
  document.body.dataset.shown = String(state.shown);
}

function init() {
  const rand = seededRandom(4242);
  state.table = new Tabulator('#grid', {
    height: 400,
    data: makeRows(rand, BOOK),
    columns: [
      {title: 'Id', field: 'id', width: 90},
      {title: 'Symbol', field: 'symbol', width: 120},
      {title: 'Side', field: 'side', width: 90},
      {title: 'Qty', field: 'qty', width: 100},
      {title: 'Price', field: 'price', width: 120}
    ]
  });
  state.table.on('tableBuilt', function () {
    for (let i = 0; i < 3; i++) {
      document.getElementById('feed' + i).addEventListener('click', function () {
        loadFeed(i);
      });
    }
    document.body.dataset.ready = '1';
  });
}

init();
