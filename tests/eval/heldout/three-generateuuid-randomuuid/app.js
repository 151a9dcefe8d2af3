/* Level spawner: a game-editor page that builds a level as a three.js scene
 * graph (no renderer, no WebGL). Each Spawn button clears the scene and
 * places a seeded set of props; every prop is a THREE.Group with nested
 * groups of THREE.Mesh parts that share one geometry, each part with its own
 * tinted copy of the base material.
 * It then updates the world matrices and sums the world positions, so the
 * status line is the same in every build. Nothing is spawned on load.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const LEVELS = [
  {name: 'Forest', seed: 1301, props: 5600},
  {name: 'Harbor', seed: 2602, props: 5400},
  {name: 'Castle', seed: 3903, props: 5800}
];

/* Each prop kind: a list of sub-assemblies, each a list of part offsets. */
const KINDS = [
  {name: 'tree', parts: [[[0, 0, 0], [0, 1, 0], [0, 2, 0]], [[0.4, 2.5, 0], [-0.4, 2.5, 0], [0, 2.5, 0.4], [0, 2.5, -0.4], [0, 3.1, 0]]]},
  {name: 'crates', parts: [[[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]], [[0.5, 1, 0.5], [0.5, 1, 0], [0, 1, 0.5]], [[0.5, 2, 0.5]]]},
  {name: 'lamp', parts: [[[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 3, 0]], [[0.3, 3.4, 0], [-0.3, 3.4, 0]], [[0, 3.8, 0]]]},
  {name: 'wall', parts: [[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], [[0, 1, 0], [1, 1, 0], [2, 1, 0], [3, 1, 0]], [[0.5, 2, 0], [2.5, 2, 0]]]}
];

const state = {scene: null, geometry: null, material: null, spawned: 0};

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

function buildProp(kind, rand) {
  const prop = new THREE.Group();
  prop.name = kind.name;
  for (let a = 0; a < kind.parts.length; a++) {
    const assembly = new THREE.Group();
    assembly.rotation.y = rand() * 0.2;
    const offsets = kind.parts[a];
    for (let p = 0; p < offsets.length; p++) {
      const paint = state.material.clone();
      paint.color.offsetHSL(rand() * 0.1, 0, 0);
      const part = new THREE.Mesh(state.geometry, paint);
      part.position.set(offsets[p][0], offsets[p][1], offsets[p][2]);
      part.scale.setScalar(0.8 + rand() * 0.4);
      assembly.add(part);
    }
    prop.add(assembly);
  }
  return prop;
}

function spawnLevel(index) {
  const t0 = performance.now();
  const level = LEVELS[index];
  const rand = seededRandom(level.seed);
  state.scene.clear();
  const root = new THREE.Group();
  root.name = level.name;
  let nodes = 1;
  for (let i = 0; i < level.props; i++) {
    const kind = KINDS[Math.floor(rand() * KINDS.length)];
    const prop = buildProp(kind, rand);
    prop.position.set(Math.floor(rand() * 400) - 200, 0, Math.floor(rand() * 400) - 200);
    prop.rotation.y = Math.floor(rand() * 8) * Math.PI / 4;
    root.add(prop);
    prop.traverse(function count() { nodes++; });
  }
  state.scene.add(root);
  state.scene.updateMatrixWorld(true);
  let sum = 0;
  let meshes = 0;
  root.traverse(function addUp(node) {
    if (node.isMesh) {
      const e = node.matrixWorld.elements;
      sum += e[12] + e[13] + e[14] + node.material.color.r;
      meshes++;
    }
  });
  state.spawned++;
  document.getElementById('status').textContent =
    level.name + ': ' + level.props + ' props, ' + nodes + ' nodes, ' + meshes +
    ' meshes, position sum ' + sum.toFixed(3) + ', ' + Math.round(performance.now() - t0) + ' ms';
  document.getElementById('log').textContent +=
    level.name + ' ' + nodes + ' ' + meshes + ' ' + sum.toFixed(3) + '\n';
  document.body.setAttribute('data-shown', String(state.spawned));
}

function setup() {
  state.scene = new THREE.Scene();
  state.geometry = new THREE.BoxGeometry(0.9, 0.9, 0.9);
  state.material = new THREE.MeshBasicMaterial({color: 0x887755});
  for (let i = 0; i < LEVELS.length; i++) {
    document.getElementById('spawn' + i).addEventListener('click', function onSpawn() { spawnLevel(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
