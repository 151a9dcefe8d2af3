/* Order board snapshot: three boards of orders (seeded, the same on every
 * load), each inside an <order-board> custom element (a tag with a hyphen,
 * never defined). Each Snapshot button renders one board to a canvas with
 * html2canvas and reports the canvas size. A real regression for zamcap's
 * accuracy experiment (NOTE.md). */
'use strict';

const REGIONS = ['north', 'south', 'west'];
const ROWS = 20;           /* orders per board */
const NAMES = ['Anchor bolt', 'Brass hinge', 'Cedar plank', 'Door stop', 'Elbow joint',
  'Flat washer', 'Gate latch', 'Hex nut', 'Iron bracket', 'Jamb screw'];
const STATES = ['open', 'packed', 'shipped', 'held'];

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

function makeOrders(index) {
  const rand = seededRandom(4200 + index * 17);
  const orders = [];
  for (let i = 0; i < ROWS; i++) {
    orders.push({
      id: 'R' + (1000 + index * 500 + i),
      name: NAMES[Math.floor(rand() * NAMES.length)] + ' ' + (1 + Math.floor(rand() * 90)),
      qty: 1 + Math.floor(rand() * 400),
      st: STATES[Math.floor(rand() * STATES.length)]
    });
  }
  return orders;
}

function cell(cls, text) {
  const span = document.createElement('span');
  span.className = cls;
  span.textContent = text;
  return span;
}

function buildBoard(index) {
  const board = document.createElement('order-board');
  board.id = 'board' + index;
  const title = document.createElement('h2');
  title.textContent = 'Region ' + REGIONS[index];
  board.appendChild(title);
  for (const order of makeOrders(index)) {
    const row = document.createElement('div');
    row.className = 'row';
    row.appendChild(cell('id', order.id));
    row.appendChild(cell('name', order.name));
    row.appendChild(cell('qty', String(order.qty)));
    row.appendChild(cell('st', order.st));
    board.appendChild(row);
  }
  return board;
}

function setup() {
  const boards = document.getElementById('boards');
  for (let i = 0; i < REGIONS.length; i++) boards.appendChild(buildBoard(i));
  for (let i = 0; i < REGIONS.length; i++) {
    document.getElementById('snap' + i).addEventListener('click', function onSnap() {
      snapshotBoard(i);
    });
  }
  document.body.dataset.ready = '1';
}

function snapshotBoard(index) {
  if (state.busy) return;
  state.busy = true;
  const board = document.getElementById('board' + index);
  html2canvas(board, {logging: false, scale: 1, backgroundColor: '#ffffff'}).then(function onCanvas(canvas) {
    state.busy = false;
    state.shown++;
    document.getElementById('status').textContent = 'Region ' + REGIONS[index] + ': ' +
      canvas.width + 'x' + canvas.height;
    document.body.dataset.shown = String(state.shown);
  });
}

setup();
