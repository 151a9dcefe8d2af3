/* Shift roster: a wide table (seeded, the same on every load) of staff rows
 * with one column per day of the period; the name and team columns are
 * frozen on the left and the total column on the right, and the table uses
 * the fitData layout. Each Show button loads one period's rows and redraws
 * the table with a full layout pass (as after a window resize or a column
 * change), then reports how many rows and columns it shows.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const PERIODS = ['January', 'February', 'March'];
const ROWS = 36;      /* staff rows per period */
const DAYS = 28;      /* day columns */
const SHIFTS = ['E', 'L', 'N', 'off', 'E', 'L', 'trn', 'off'];
const TEAMS = ['North', 'South', 'East', 'West', 'Depot', 'Night'];
const FIRST = ['Ada', 'Ben', 'Chen', 'Dora', 'Eli', 'Fay', 'Gus', 'Hana',
  'Ivo', 'Jun', 'Kai', 'Lena', 'Milo', 'Nia', 'Oto', 'Pia'];

const state = {table: null, shown: 0};

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

function makeColumns() {
  const cols = [
    {title: 'Name', field: 'name', frozen: true},
    {title: 'Team', field: 'team', frozen: true}
  ];
  for (let d = 1; d <= DAYS; d++) cols.push({title: 'D' + d, field: 'd' + d});
  cols.push({title: 'Shifts', field: 'total', frozen: true});
  return cols;
}

function makePeriod(index) {
  const rand = seededRandom(7100 + index * 31);
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    const row = {id: i + 1,
      name: FIRST[Math.floor(rand() * FIRST.length)] + ' ' + (100 + i),
      team: TEAMS[Math.floor(rand() * TEAMS.length)]};
    let total = 0;
    for (let d = 1; d <= DAYS; d++) {
      const s = SHIFTS[Math.floor(rand() * SHIFTS.length)];
      row['d' + d] = s;
      if (s !== 'off') total++;
    }
    row.total = total;
    rows.push(row);
  }
  return rows;
}

function showPeriod(index) {
  const t0 = performance.now();
  const rows = makePeriod(index);
  Promise.resolve(state.table.setData(rows)).then(function () {
    state.table.redraw(true);
    state.shown++;
    document.getElementById('status').textContent =
      PERIODS[index] + ': ' + state.table.getDataCount() + ' rows, ' +
      state.table.getColumns().length + ' columns, ' +
      Math.round(performance.now() - t0) + ' ms';
    document.body.setAttribute('data-shown', String(state.shown));
  });
}

function init() {
  let built = false;
  function ready() {
    if (built) return;
    built = true;
    document.body.setAttribute('data-ready', '1');
  }
  state.table = new Tabulator('#roster', {
    height: '420px',
    layout: 'fitData',
    columns: makeColumns(),
    data: []
  });
  /* 5.x builds the table in a later task and reports it with an event;
   * 4.x builds it inside the constructor. */
  if (state.table.on) state.table.on('tableBuilt', ready);
  else ready();
  PERIODS.forEach(function (name, i) {
    document.getElementById('show' + i).addEventListener('click', function () {
      showPeriod(i);
    });
  });
}

init();
