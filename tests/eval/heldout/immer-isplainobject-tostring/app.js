/* Stock ledger: a small store kept as immutable state with immer's produce.
 * Each Import button builds one depot's stock rows (seeded, the same on every
 * load) as nested plain objects and hands them to produce, which finalizes
 * and auto-freezes the new rows (immer's default). The table shows the rows,
 * how many of them came back frozen, and a units checksum.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const DEPOTS = ['North', 'South', 'East'];
const ROWS = 120000;   /* stock rows per depot; each row is 6 plain objects */

const app = {state: {depots: {}, imported: 0}, shown: 0};

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

function makeRows(index) {
  const rand = seededRandom(9100 + index * 31);
  const rows = new Array(ROWS);
  for (let i = 0; i < ROWS; i++) {
    rows[i] = {
      sku: 'SKU-' + index + '-' + i,
      qty: {onHand: Math.floor(rand() * 500), reserved: Math.floor(rand() * 40)},
      bin: {aisle: 1 + Math.floor(rand() * 30), shelf: 1 + Math.floor(rand() * 8)},
      price: {list: Math.round(rand() * 10000) / 100, currency: 'EUR'},
      supplier: {id: Math.floor(rand() * 250), region: {code: 'R' + (i % 12)}}
    };
  }
  return rows;
}

function importDepot(index) {
  const t0 = performance.now();
  const name = DEPOTS[index];
  const rows = makeRows(index);
  app.state = immer.produce(app.state, function addDepot(draft) {
    draft.depots[name] = {rows: rows, importedAt: app.shown + 1};
    draft.imported += rows.length;
  });
  const stored = app.state.depots[name].rows;
  let frozen = 0;
  let units = 0;
  for (let i = 0; i < stored.length; i++) {
    const row = stored[i];
    if (Object.isFrozen(row) && Object.isFrozen(row.supplier.region)) frozen++;
    units += row.qty.onHand - row.qty.reserved;
  }
  app.shown++;
  const tr = document.createElement('tr');
  tr.innerHTML = '<td>' + name + '</td><td>' + stored.length + '</td><td>' + frozen +
    '</td><td>' + units + '</td>';
  document.getElementById('summary').appendChild(tr);
  document.getElementById('status').textContent = name + ': ' + stored.length +
    ' rows imported, ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(app.shown));
}

function setup() {
  for (let i = 0; i < DEPOTS.length; i++) {
    document.getElementById('import' + i).addEventListener('click', function onImport() { importDepot(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
