/* Record export: three kinds of records (seeded, the same on every load),
 * each with a nested activity history. Each Export button builds one kind,
 * strips the private fields of every record with _.omit (as an app does
 * before sending or showing data), and sums up what is left.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const KINDS = ['accounts', 'orders', 'tickets'];
const RECORDS = 600;   /* records per export */
const HISTORY = 150;   /* history entries per record */
const PRIVATE = ['ssn', 'token', 'internalNote'];

const VOCAB = ['open', 'closed', 'paid', 'refund', 'call', 'email', 'visit',
  'review', 'upgrade', 'cancel', 'renew', 'audit'];

const state = {shown: 0};

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

function makeRecord(kind, i, rand) {
  const history = [];
  for (let h = 0; h < HISTORY; h++) {
    history.push({
      at: 1700000000 + h * 3600,
      kind: VOCAB[Math.floor(rand() * VOCAB.length)],
      amount: Math.round(rand() * 10000) / 100,
      by: 'user' + Math.floor(rand() * 50),
      tags: [VOCAB[h % VOCAB.length], kind]
    });
  }
  return {
    id: kind + '-' + i,
    name: kind + ' ' + i,
    owner: 'user' + Math.floor(rand() * 50),
    ssn: String(100000000 + Math.floor(rand() * 899999999)),
    token: 'tok' + Math.floor(rand() * 1e9),
    internalNote: 'note ' + i,
    history: history
  };
}

function makeRecords(index) {
  const rand = seededRandom(7100 + index * 31);
  const records = [];
  for (let i = 0; i < RECORDS; i++) records.push(makeRecord(KINDS[index], i, rand));
  return records;
}

function exportKind(index) {
  const t0 = performance.now();
  const records = makeRecords(index);
  let fields = 0, entries = 0, total = 0;
  for (let i = 0; i < records.length; i++) {
    const pub = _.omit(records[i], PRIVATE);
    fields += Object.keys(pub).length;
    entries += pub.history.length;
    for (let h = 0; h < pub.history.length; h += 10) total += pub.history[h].amount;
  }
  state.shown++;
  document.getElementById('out').textContent =
    KINDS[index] + ': ' + records.length + ' records, ' + fields + ' public fields, ' +
    entries + ' history entries, sampled amount ' + total.toFixed(2);
  document.getElementById('status').textContent =
    'Exported ' + KINDS[index] + ' in ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < KINDS.length; i++) {
    document.getElementById('export' + i).addEventListener('click', function onExport() { exportKind(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
