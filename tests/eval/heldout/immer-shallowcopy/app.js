/* Seat map: an arena's seats kept in one immutable state object (seat id ->
 * seat), updated with Immer's produce, one booking at a time, as a store
 * with a reducer per action does. Each booking wave replays a seeded batch
 * of bookings (the same on every load) and shows the first rows. A held-out
 * real regression for zamcap's accuracy experiment
 * (tests/eval/heldout/immer-shallowcopy/NOTE.md): Immer 7 copies a modified
 * object through Object.getOwnPropertyDescriptors and Object.create with
 * the descriptors, which is slower for an object with many keys than
 * Immer 6's copy. */
'use strict';

const WAVES = ['Presale', 'Members', 'General'];
const ROWS = 150;
const PER_ROW = 20;
const BOOKINGS = 30;
const SHOWN = 200;

const state = {store: null, opened: 0, log: []};

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

function makeArena() {
  const seats = {};
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < PER_ROW; c++) {
      seats['R' + r + 'S' + c] = {row: r, col: c, sold: false, holder: ''};
    }
  }
  return {seats: seats, sold: 0, revenue: 0};
}

function bookSeat(store, action) {
  return immer.produce(store, function applyBooking(draft) {
    const seat = draft.seats[action.seat];
    if (seat.sold) return;
    seat.sold = true;
    seat.holder = action.holder;
    draft.sold += 1;
    draft.revenue += action.price;
  });
}

function makeWave(index) {
  const rand = seededRandom(880 + index);
  const actions = [];
  for (let i = 0; i < BOOKINGS; i++) {
    actions.push({seat: 'R' + Math.floor(rand() * ROWS) + 'S' + Math.floor(rand() * PER_ROW),
                  holder: 'guest' + index + '-' + i, price: 20 + Math.floor(rand() * 60)});
  }
  return actions;
}

function runWave(actions) {
  let store = state.store;
  for (const a of actions) store = bookSeat(store, a);
  return store;
}

function renderSeats(store) {
  const ids = Object.keys(store.seats).slice(0, SHOWN);
  document.getElementById('seats').innerHTML = ids.map(function seatHtml(id) {
    const s = store.seats[id];
    return '<span class="' + (s.sold ? 'sold' : '') + '">' + s.col + '</span>';
  }).join('');
}

function onWaveClick(event) {
  const index = WAVES.indexOf(event.target.dataset.wave);
  if (index < 0) return;
  state.store = runWave(makeWave(index));
  renderSeats(state.store);
  document.getElementById('status').textContent = WAVES[index] + ': ' + state.store.sold +
    ' seats sold, revenue ' + state.store.revenue;
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  state.store = makeArena();
  const nav = document.getElementById('waves');
  WAVES.forEach(function addWave(name) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.wave = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onWaveClick);
  document.body.dataset.ready = '1';
}

main();
