/* Warehouse racks: three seeded halls (the same on every load), each a grid
 * of stacked crates. Each Show button builds the hall's crates as meshes
 * (one shared box geometry and one shared Lambert material per crate kind,
 * as in the "simple cubes"), renders a short fly-over of the hall
 * (a fixed number of frames, synchronously in the click) and lists the
 * fullest aisles. A real regression for zamcap's accuracy experiment
 * (NOTE.md). */
'use strict';

const HALLS = ['A', 'B', 'C'];
const AISLES = 24;
const SLOTS = 30;        /* rack slots per aisle */
const FRAMES = 24;       /* fly-over frames rendered per click */
const KINDS = 4;         /* crate kinds (materials) */

const state = {halls: [], renderer: null, scene: null, camera: null, group: null,
               geometry: null, materials: [], shown: 0};

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

function makeHall(index) {
  const rand = seededRandom(9300 + index * 17);
  const crates = [];
  for (let a = 0; a < AISLES; a++) {
    for (let s = 0; s < SLOTS; s++) {
      const height = 1 + Math.floor(rand() * 4);
      for (let h = 0; h < height; h++) {
        crates.push({aisle: a, slot: s, level: h, kind: Math.floor(rand() * KINDS)});
      }
    }
  }
  return {name: 'Hall ' + HALLS[index], crates: crates};
}

function setupScene() {
  const renderer = new THREE.WebGLRenderer({antialias: false});
  renderer.setPixelRatio(1);
  renderer.setSize(640, 360);
  document.getElementById('view').appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf0f0f0);
  scene.add(new THREE.AmbientLight(0xffffff, 0.5));
  const sun = new THREE.DirectionalLight(0xffffff, 0.7);
  sun.position.set(30, 60, 20);
  scene.add(sun);
  const camera = new THREE.PerspectiveCamera(50, 640 / 360, 0.5, 400);
  state.renderer = renderer;
  state.scene = scene;
  state.camera = camera;
  state.geometry = new THREE.BoxGeometry(0.9, 0.9, 0.9);
  for (let k = 0; k < KINDS; k++) {
    state.materials.push(new THREE.MeshLambertMaterial({color: new THREE.Color().setHSL(k / KINDS, 0.5, 0.5)}));
  }
}

function buildCrates(hall) {
  if (state.group) state.scene.remove(state.group);
  const group = new THREE.Group();
  hall.crates.forEach(function addCrate(c) {
    const mesh = new THREE.Mesh(state.geometry, state.materials[c.kind]);
    mesh.position.set(c.slot - SLOTS / 2, c.level + 0.5, (c.aisle - AISLES / 2) * 1.6);
    group.add(mesh);
  });
  state.scene.add(group);
  state.group = group;
}

function flyOver() {
  const camera = state.camera;
  for (let f = 0; f < FRAMES; f++) {
    const angle = f / FRAMES * Math.PI * 0.5 + 0.3;
    camera.position.set(Math.cos(angle) * 40, 22, Math.sin(angle) * 40);
    camera.lookAt(0, 0, 0);
    state.renderer.render(state.scene, camera);
  }
}

function fullestAisles(hall) {
  const counts = new Array(AISLES).fill(0);
  hall.crates.forEach(function countCrate(c) { counts[c.aisle]++; });
  return counts.map(function toRow(n, a) { return {aisle: a + 1, crates: n}; })
    .sort(function byCrates(x, y) { return y.crates - x.crates || x.aisle - y.aisle; });
}

function renderRows(hall, aisles) {
  document.getElementById('rows').innerHTML = aisles.slice(0, 6).map(function aisleRow(r) {
    return '<tr><td>' + hall.name + ' aisle ' + r.aisle + '</td><td>' + r.crates + ' crates</td></tr>';
  }).join('');
}

function onShowClick(event) {
  const index = Number(event.currentTarget.dataset.hall);
  const hall = state.halls[index];
  buildCrates(hall);
  flyOver();
  renderRows(hall, fullestAisles(hall));
  state.shown++;
  document.getElementById('status').textContent = hall.name + ': ' + hall.crates.length + ' crates';
  document.body.dataset.shown = String(state.shown);
}

function main() {
  setupScene();
  HALLS.forEach(function addHall(name, index) {
    state.halls.push(makeHall(index));
    const b = document.getElementById('show' + index);
    b.dataset.hall = String(index);
    b.addEventListener('click', onShowClick);
  });
  state.renderer.render(state.scene, state.camera);
  document.body.dataset.ready = '1';
}

main();
