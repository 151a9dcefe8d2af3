// Sketch history: each button draws a layer of seeded freehand strokes as
// fabric.Path objects, then saves an undo snapshot of the whole canvas with
// StaticCanvas.toObject() (which calls Path.toObject for every stroke).
import { StaticCanvas, Path } from './lib/fabric.mjs';

const STROKES_PER_LAYER = 60;
const POINTS_PER_STROKE = 2000;

let canvas = null;
const history = [];
let shown = 0;

function makeRandom(seed) {
  let a = seed >>> 0;
  return function random() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function round2(value) {
  return Math.round(value * 100) / 100;
}

// A freehand stroke as path commands ([['M', x, y], ['L', x, y], ...]), the
// form a drawing tool keeps; given as an array, fabric.Path skips parsePath.
function strokeCommands(random) {
  let x = 40 + random() * 400;
  let y = 30 + random() * 260;
  let angle = random() * Math.PI * 2;
  const commands = [['M', round2(x), round2(y)]];
  for (let i = 1; i < POINTS_PER_STROKE; i++) {
    angle += (random() - 0.5) * 0.6;
    x = Math.min(470, Math.max(10, x + Math.cos(angle) * 1.7));
    y = Math.min(310, Math.max(10, y + Math.sin(angle) * 1.7));
    commands.push(['L', round2(x), round2(y)]);
  }
  return commands;
}

function drawLayer(layer) {
  const random = makeRandom(1000 + layer * 7919);
  const colors = ['#1f77b4', '#d62728', '#2ca02c'];
  for (let s = 0; s < STROKES_PER_LAYER; s++) {
    const stroke = new Path(strokeCommands(random), {
      fill: '',
      stroke: colors[(layer - 1) % colors.length],
      strokeWidth: 1,
      objectCaching: false,
    });
    canvas.add(stroke);
  }
  canvas.renderAll();
}

function saveSnapshot() {
  const snapshot = canvas.toObject();
  history.push(snapshot);
  return snapshot;
}

function summarize(snapshot) {
  let commands = 0;
  let checksum = 0;
  for (const object of snapshot.objects) {
    for (const command of object.path) {
      commands++;
      for (let i = 1; i < command.length; i++) {
        checksum = (checksum + Math.round(command[i] * 100) * (i + commands % 7)) % 1000000007;
      }
    }
  }
  return 'snapshot ' + history.length + ': ' + snapshot.objects.length + ' strokes, ' +
    commands + ' commands, checksum ' + checksum;
}

function onLayerClick(layer) {
  drawLayer(layer);
  const snapshot = saveSnapshot();
  const line = summarize(snapshot);
  document.getElementById('out').textContent += line + '\n';
  shown++;
  document.getElementById('status').textContent = 'layer ' + layer + ' saved';
  document.body.dataset.shown = String(shown);
}

function init() {
  canvas = new StaticCanvas('sketch', { renderOnAddRemove: false, enableRetinaScaling: false });
  for (const layer of [1, 2, 3]) {
    document.getElementById('layer' + layer).addEventListener('click', () => onLayerClick(layer));
  }
  document.body.dataset.ready = '1';
}

init();
