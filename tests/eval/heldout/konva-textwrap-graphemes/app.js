/* Sticky notes: three walls of notes (seeded, the same on every load), each
 * note a paragraph of plain text. Each Show button lays one wall out as
 * Konva.Text nodes with a width and word wrap, then narrows and widens every
 * note a few times (as a resize handle would) and draws the layer once.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const WALLS = ['Planning', 'Research', 'Retro'];
const NOTES = 12;      /* notes per wall */
const WORDS = 110;     /* words per note */
const WIDTHS = [150, 125, 140]; /* widths each note is resized to */

const VOCAB = ['budget', 'review', 'ship', 'design', 'the', 'a', 'of', 'team',
  'customer', 'latency', 'roadmap', 'and', 'to', 'sprint', 'metrics', 'draft',
  'in', 'for', 'onboarding', 'release', 'notes', 'with', 'feedback', 'audit',
  'migration', 'is', 'on', 'backlog', 'owner', 'deadline', 'risk', 'plan'];

const state = {stage: null, layer: null, shown: 0};

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

function makeParagraph(rand) {
  const words = [];
  for (let i = 0; i < WORDS; i++) words.push(VOCAB[Math.floor(rand() * VOCAB.length)]);
  return words.join(' ') + '.';
}

function makeWall(index) {
  const rand = seededRandom(5300 + index * 17);
  const notes = [];
  for (let i = 0; i < NOTES; i++) notes.push(makeParagraph(rand));
  return notes;
}

function placeNote(text, i) {
  return new Konva.Text({
    x: 10 + (i % 8) * 148, y: 10 + Math.floor(i / 8) * 195,
    text: text, width: 140, fontSize: 11, fontFamily: 'sans-serif',
    wrap: 'word', fill: '#333'
  });
}

function resizeNotes(nodes) {
  let lines = 0;
  for (let w = 0; w < WIDTHS.length; w++) {
    for (let i = 0; i < nodes.length; i++) {
      nodes[i].width(WIDTHS[w]);
      lines += nodes[i].textArr.length;
    }
  }
  return lines;
}

function showWall(index) {
  const t0 = performance.now();
  const notes = makeWall(index);
  state.layer.destroyChildren();
  const nodes = [];
  for (let i = 0; i < notes.length; i++) {
    const node = placeNote(notes[i], i);
    state.layer.add(node);
    nodes.push(node);
  }
  const lines = resizeNotes(nodes);
  state.layer.draw();
  state.shown++;
  document.getElementById('status').textContent =
    WALLS[index] + ': ' + nodes.length + ' notes, ' + lines + ' lines laid out, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.stage = new Konva.Stage({container: 'board', width: 1200, height: 600});
  state.layer = new Konva.Layer();
  state.stage.add(state.layer);
  for (let i = 0; i < WALLS.length; i++) {
    document.getElementById('show' + i).addEventListener('click', function onShow() { showWall(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
