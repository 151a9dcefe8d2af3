/* Street map viewer: a neighbourhood's ways (streets, footpaths, building
 * outlines), generated from a fixed seed, drawn with d3.geo.path through a
 * Mercator projection at a street-level zoom, as an OpenStreetMap editor
 * draws them. "Pan east" moves the view in small animation steps and
 * redraws every way at each step. A real regression for zamcap's accuracy
 * experiment (see NOTE.md): d3 3.2's adaptive resampling subdivides every
 * projected segment longer than about 11 px, recursively, and then drops
 * the points it did not need; 3.1 subdivided only where the projection
 * bends the line. */
'use strict';

const CENTER = [-77.0225, 38.9008];
const SCALE = 120000000;         /* px per radian: closer than street level, about zoom 21.5 */
const WIDTH = 960, HEIGHT = 600;
const STREETS = 90, PATHS = 140, BUILDINGS = 260;
const STEPS_PER_PAN = 8, STEP_PX = 24;

/* a 32-bit Weyl sequence scrambled, fixed seed */
function makeWeyl(seed) {
  let w = seed >>> 0;
  return function next() {
    w = (w + 0x9E3779B9) >>> 0;
    let z = w;
    z = Math.imul(z ^ (z >>> 16), 0x85EBCA6B) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xC2B2AE35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

const rnd = makeWeyl(20130620);
const DEG_PER_M_LAT = 1 / 111320;
const DEG_PER_M_LON = 1 / (111320 * Math.cos(CENTER[1] * Math.PI / 180));

function offset(p, dxm, dym) {
  return [p[0] + dxm * DEG_PER_M_LON, p[1] + dym * DEG_PER_M_LAT];
}

function makeStreet() {
  /* a street: a few long straight blocks (30 to 90 m each) */
  let p = offset(CENTER, (rnd() - 0.5) * 500, (rnd() - 0.5) * 350);
  const coords = [p];
  let heading = rnd() * Math.PI * 2;
  const blocks = 3 + Math.floor(rnd() * 4);
  for (let i = 0; i < blocks; i++) {
    const len = 30 + rnd() * 60;
    heading += (rnd() - 0.5) * 0.6;
    p = offset(p, Math.cos(heading) * len, Math.sin(heading) * len);
    coords.push(p);
  }
  return {type: 'Feature', properties: {kind: 'street'}, geometry: {type: 'LineString', coordinates: coords}};
}

function makePath() {
  let p = offset(CENTER, (rnd() - 0.5) * 500, (rnd() - 0.5) * 350);
  const coords = [p];
  let heading = rnd() * Math.PI * 2;
  const n = 4 + Math.floor(rnd() * 8);
  for (let i = 0; i < n; i++) {
    const len = 6 + rnd() * 20;
    heading += (rnd() - 0.5) * 1.2;
    p = offset(p, Math.cos(heading) * len, Math.sin(heading) * len);
    coords.push(p);
  }
  return {type: 'Feature', properties: {kind: 'path'}, geometry: {type: 'LineString', coordinates: coords}};
}

function makeBuilding() {
  const c = offset(CENTER, (rnd() - 0.5) * 500, (rnd() - 0.5) * 350);
  const w = 8 + rnd() * 25, h = 8 + rnd() * 25, a = rnd() * Math.PI / 2;
  const ca = Math.cos(a), sa = Math.sin(a);
  const corners = [[-w, -h], [w, -h], [w, h], [-w, h], [-w, -h]].map(function corner(q) {
    return offset(c, (q[0] * ca - q[1] * sa) / 2, (q[0] * sa + q[1] * ca) / 2);
  });
  /* closed ring, counter-clockwise as GeoJSON expects; d3 v3 wants clockwise exteriors */
  return {type: 'Feature', properties: {kind: 'building'}, geometry: {type: 'Polygon', coordinates: [corners.reverse()]}};
}

function buildWays() {
  const ways = [];
  for (let i = 0; i < STREETS; i++) ways.push(makeStreet());
  for (let i = 0; i < PATHS; i++) ways.push(makePath());
  for (let i = 0; i < BUILDINGS; i++) ways.push(makeBuilding());
  return ways;
}

const WAYS = buildWays();
const projection = d3.geo.mercator().center(CENTER).scale(SCALE).translate([WIDTH / 2, HEIGHT / 2]);
const pathGen = d3.geo.path().projection(projection);
let panX = 0, pans = 0;

function drawLayer(kind) {
  let d = '';
  for (const w of WAYS) {
    if (w.properties.kind === kind) d += pathGen(w) || '';
  }
  return d;
}

function drawMap() {
  projection.translate([WIDTH / 2 - panX, HEIGHT / 2]);
  const streets = drawLayer('street'), paths = drawLayer('path'), buildings = drawLayer('building');
  document.getElementById('streets').setAttribute('d', streets);
  document.getElementById('paths').setAttribute('d', paths);
  document.getElementById('buildings').setAttribute('d', buildings);
  return streets.length + paths.length + buildings.length;
}

function panStep() {
  panX += STEP_PX;
  return drawMap();
}

function onPanClick() {
  let chars = 0;
  for (let i = 0; i < STEPS_PER_PAN; i++) chars += panStep();
  pans++;
  document.getElementById('status').textContent = 'pan ' + pans + ' (' + chars + ' path characters)';
  document.body.dataset.pans = String(pans);
}

function main() {
  drawMap();
  document.getElementById('pan').addEventListener('click', onPanClick);
  document.body.dataset.ready = '1';
}

main();
