/* Sketch replay: three seeded sketches (the same on every load), each a few
 * long freehand strokes recorded as pen samples. Each Load button turns every
 * stroke into a filled outline, as a freehand-ink helper does (one "M x,y Q"
 * followed by all the quadratic control/end points), builds a fabric.Path
 * from that SVG path string, draws them on a static canvas and lists the
 * strokes. A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SKETCHES = ['Harbour', 'Orchard', 'Ridge'];
const STROKES = 5;          /* strokes per sketch */
const MIN_SAMPLES = 1300;   /* pen samples per stroke, lower bound */
const SPREAD = 500;         /* extra samples, seeded */

const state = {sketches: [], canvas: null, loaded: 0};

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

function penSamples(rand, count) {
  const pts = [];
  let x = 80 + rand() * 700, y = 60 + rand() * 300, heading = rand() * Math.PI * 2;
  for (let i = 0; i < count; i++) {
    heading += (rand() - 0.5) * 0.35;
    x = Math.min(880, Math.max(20, x + Math.cos(heading) * 1.6));
    y = Math.min(400, Math.max(20, y + Math.sin(heading) * 1.6));
    pts.push([x, y, 0.3 + rand() * 0.7]);
  }
  return pts;
}

function strokeOutline(pts) {
  /* left edge forward, right edge back: a closed outline like a pen stroke */
  const left = [], right = [];
  for (let i = 0; i < pts.length; i++) {
    const a = pts[Math.max(0, i - 1)], b = pts[Math.min(pts.length - 1, i + 1)];
    let nx = -(b[1] - a[1]), ny = b[0] - a[0];
    const len = Math.hypot(nx, ny) || 1;
    const w = 1.5 + pts[i][2] * 3;
    nx = nx / len * w; ny = ny / len * w;
    left.push([pts[i][0] + nx, pts[i][1] + ny]);
    right.push([pts[i][0] - nx, pts[i][1] - ny]);
  }
  return left.concat(right.reverse());
}

function fmt(v) {
  return v.toFixed(2);
}

function svgPathFromOutline(outline) {
  /* "M x0,y0 Q x0,y0 mx,my x1,y1 mx,my ... Z": one Q command, its
   * control/end pairs repeated for the whole outline */
  const parts = ['M', fmt(outline[0][0]) + ',' + fmt(outline[0][1]), 'Q'];
  for (let i = 0; i < outline.length; i++) {
    const p = outline[i], q = outline[(i + 1) % outline.length];
    parts.push(fmt(p[0]) + ',' + fmt(p[1]), fmt((p[0] + q[0]) / 2) + ',' + fmt((p[1] + q[1]) / 2));
  }
  parts.push('Z');
  return parts.join(' ');
}

function makeSketch(index) {
  const rand = seededRandom(7100 + index * 31);
  const strokes = [];
  for (let s = 0; s < STROKES; s++) {
    const count = MIN_SAMPLES + Math.floor(rand() * SPREAD);
    const outline = strokeOutline(penSamples(rand, Math.floor(count / 2)));
    strokes.push({
      name: SKETCHES[index] + ' stroke ' + (s + 1),
      samples: outline.length,
      color: 'hsl(' + Math.floor(rand() * 360) + ', 55%, 40%)',
      d: svgPathFromOutline(outline)
    });
  }
  return {name: SKETCHES[index], strokes: strokes};
}

function strokeToPath(stroke) {
  return new fabric.Path(stroke.d, {
    fill: stroke.color,
    stroke: stroke.color,
    strokeWidth: 0,
    objectCaching: false,
    selectable: false
  });
}

function drawSketch(sketch) {
  const canvas = state.canvas;
  canvas.clear();
  const paths = sketch.strokes.map(strokeToPath);
  paths.forEach(function addPath(p) { canvas.add(p); });
  canvas.renderAll();
  return paths;
}

function renderRows(sketch, paths) {
  document.getElementById('rows').innerHTML = sketch.strokes.map(function strokeRow(s, i) {
    const p = paths[i];
    return '<tr><td>' + s.name + '</td><td>' + s.samples + ' outline points</td><td>' +
      Math.round(p.width) + ' x ' + Math.round(p.height) + ' px</td><td>' +
      s.d.length + ' chars</td></tr>';
  }).join('');
}

function onLoadClick(event) {
  const index = Number(event.currentTarget.dataset.sketch);
  const sketch = state.sketches[index];
  const paths = drawSketch(sketch);
  renderRows(sketch, paths);
  state.loaded++;
  document.getElementById('status').textContent = sketch.name + ': ' + sketch.strokes.length + ' strokes';
  document.body.dataset.shown = String(state.loaded);
}

function main() {
  state.canvas = new fabric.StaticCanvas('pad', {renderOnAddRemove: false, enableRetinaScaling: false});
  SKETCHES.forEach(function addSketch(name, index) {
    state.sketches.push(makeSketch(index));
    const b = document.getElementById('load' + index);
    b.dataset.sketch = String(index);
    b.addEventListener('click', onLoadClick);
  });
  document.body.dataset.ready = '1';
}

main();
