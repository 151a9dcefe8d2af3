/* Price tags: three shelves of product labels (seeded, the same on every
 * load). Each Show button lays one shelf out as fabric.Text labels with
 * letter spacing on a static canvas in the page and draws the canvas a few
 * times (as a zoom slider would). A real regression for zamcap's accuracy
 * experiment (NOTE.md). */
'use strict';

const SHELVES = ['Pantry', 'Dairy', 'Bakery'];
const LABELS = 120;   /* labels per shelf */
const ZOOMS = [1, 0.9, 1.1, 1]; /* zoom levels each shelf is drawn at */

const WORDS = ['organic', 'oat', 'milk', 'rye', 'bread', 'sea', 'salt', 'honey',
  'butter', 'whole', 'wheat', 'pasta', 'olive', 'oil', 'dark', 'roast', 'coffee',
  'greek', 'yogurt', 'aged', 'cheddar', 'brown', 'rice', 'maple', 'syrup'];

const state = {canvas: null, shown: 0};

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

function makeLabel(rand) {
  const n = 2 + Math.floor(rand() * 2);
  const words = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(rand() * WORDS.length)]);
  const price = (1 + Math.floor(rand() * 2000) / 100).toFixed(2);
  return words.join(' ') + '\n$' + price;
}

function makeShelf(index) {
  const rand = seededRandom(7100 + index * 31);
  const labels = [];
  for (let i = 0; i < LABELS; i++) labels.push(makeLabel(rand));
  return labels;
}

function placeLabel(text, i) {
  return new fabric.Text(text, {
    left: 8 + (i % 10) * 118, top: 8 + Math.floor(i / 10) * 48,
    fontSize: 11, fontFamily: 'sans-serif', charSpacing: 60,
    fill: '#222', objectCaching: false
  });
}

function showShelf(index) {
  const t0 = performance.now();
  const labels = makeShelf(index);
  const canvas = state.canvas;
  canvas.clear();
  let chars = 0;
  for (let i = 0; i < labels.length; i++) {
    canvas.add(placeLabel(labels[i], i));
    chars += labels[i].length;
  }
  for (let z = 0; z < ZOOMS.length; z++) {
    canvas.setZoom(ZOOMS[z]);
    canvas.renderAll();
  }
  state.shown++;
  document.getElementById('status').textContent =
    SHELVES[index] + ': ' + labels.length + ' labels, ' + chars + ' characters, ' +
    ZOOMS.length + ' draws, ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.canvas = new fabric.StaticCanvas('shelf', {renderOnAddRemove: false});
  for (let i = 0; i < SHELVES.length; i++) {
    document.getElementById('show' + i).addEventListener('click', function onShow() { showShelf(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
