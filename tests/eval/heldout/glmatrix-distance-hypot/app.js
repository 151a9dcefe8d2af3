/* Point cloud clusters: three seeded 3D point clouds (the same on every load).
 * Each Cluster button groups one cloud into K clusters with a few rounds of
 * k-means (Lloyd's algorithm), measuring every point-to-centre distance with
 * glMatrix's vec3.distance, and lists the cluster sizes.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SCANS = ['Lidar', 'Drone', 'Indoor'];
const POINTS = 50000;  /* points per cloud */
const K = 16;          /* clusters */
const ROUNDS = 10;     /* k-means rounds per click */

const vec3 = glMatrix.vec3;
const state = {shown: 0};

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

/* A cloud of blobs around a few seeded centres, with some uniform noise. */
function makeCloud(index) {
  const rand = seededRandom(9100 + index * 31);
  const blobs = [];
  for (let b = 0; b < 12; b++) {
    blobs.push([rand() * 200 - 100, rand() * 200 - 100, rand() * 60]);
  }
  const points = new Array(POINTS);
  for (let i = 0; i < POINTS; i++) {
    if (rand() < 0.1) {
      points[i] = vec3.fromValues(rand() * 200 - 100, rand() * 200 - 100, rand() * 60);
    } else {
      const c = blobs[Math.floor(rand() * blobs.length)];
      const r = 4 + rand() * 10;
      points[i] = vec3.fromValues(c[0] + (rand() - 0.5) * r, c[1] + (rand() - 0.5) * r,
        c[2] + (rand() - 0.5) * r);
    }
  }
  return points;
}

function nearestCentre(p, centres) {
  let best = 0;
  let bestDist = Infinity;
  for (let k = 0; k < centres.length; k++) {
    const d = vec3.distance(p, centres[k]);
    if (d < bestDist) { bestDist = d; best = k; }
  }
  return best;
}

function kmeans(points) {
  const centres = [];
  const step = Math.floor(points.length / K);
  for (let k = 0; k < K; k++) centres.push(vec3.clone(points[k * step]));
  const owner = new Int32Array(points.length);
  const sums = [];
  const counts = new Int32Array(K);
  for (let k = 0; k < K; k++) sums.push(vec3.create());
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < K; k++) { vec3.set(sums[k], 0, 0, 0); counts[k] = 0; }
    for (let i = 0; i < points.length; i++) {
      const k = nearestCentre(points[i], centres);
      owner[i] = k;
      vec3.add(sums[k], sums[k], points[i]);
      counts[k]++;
    }
    for (let k = 0; k < K; k++) {
      if (counts[k] > 0) vec3.scale(centres[k], sums[k], 1 / counts[k]);
    }
  }
  return {centres: centres, counts: counts};
}

function clusterScan(index) {
  const t0 = performance.now();
  const points = makeCloud(index);
  const result = kmeans(points);
  const sizes = Array.from(result.counts).sort(function (a, b) { return b - a; });
  state.shown++;
  document.getElementById('sizes').textContent = 'sizes: ' + sizes.join(' ');
  document.getElementById('status').textContent =
    SCANS[index] + ' scan: ' + points.length + ' points in ' + K + ' clusters, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < SCANS.length; i++) {
    document.getElementById('scan' + i).addEventListener('click', function onCluster() { clusterScan(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
