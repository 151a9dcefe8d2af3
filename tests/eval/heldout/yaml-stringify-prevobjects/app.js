/* Manifest exporter: each Export button builds a seeded deployment manifest
 * (the same on every load): a list of services, each a small object with a
 * name, a port, an env map and a tags list, and writes it out as YAML with
 * YAML.stringify. The page shows the size, the line count, a checksum and
 * the first lines of the YAML.
 *
 * yaml 1.x has no single-file browser build, so the page loads the package's
 * unminified CommonJS files (dist/*.js) with a small CommonJS shim: it
 * fetches every file of the list below (a file a version does not have
 * answers 404 and is skipped) and runs each one, when it is first required,
 * as a function of (exports, require, module), named by a sourceURL that is
 * the file's own address. No object appears twice in a manifest, so both
 * versions write the same text.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const FILES = [
  'Anchors.js', 'Document.js', 'addComment.js', 'cst/Alias.js', 'cst/BlankLine.js',
  'cst/BlockValue.js', 'cst/Collection.js', 'cst/CollectionItem.js', 'cst/Comment.js',
  'cst/Directive.js', 'cst/Document.js', 'cst/FlowCollection.js', 'cst/Node.js',
  'cst/ParseContext.js', 'cst/PlainValue.js', 'cst/QuoteDouble.js', 'cst/QuoteSingle.js',
  'cst/Range.js', 'cst/getLinePos.js', 'cst/parse.js', 'errors.js', 'foldFlowLines.js',
  'index.js', 'listTagNames.js', 'schema/Alias.js', 'schema/Collection.js', 'schema/Map.js',
  'schema/Merge.js', 'schema/Node.js', 'schema/Pair.js', 'schema/Scalar.js', 'schema/Seq.js',
  'schema/_binary.js', 'schema/_omap.js', 'schema/_pairs.js', 'schema/_set.js',
  'schema/_string.js', 'schema/_timestamp.js', 'schema/core.js', 'schema/failsafe.js',
  'schema/index.js', 'schema/json.js', 'schema/parseMap.js', 'schema/parseSeq.js',
  'schema/parseUtils.js', 'schema/yaml-1.1.js', 'stringify.js', 'toJSON.js'
];
const BASE = 'lib/yaml/';
const MANIFESTS = [
  {name: 'staging', services: 5000, seed: 1201},
  {name: 'production', services: 5200, seed: 2203},
  {name: 'disaster-recovery', services: 4800, seed: 3307}
];

const sources = {};
const modules = {};
const state = {YAML: null, shown: 0};

function normalize(parts) {
  const out = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop(); else out.push(p);
  }
  return out.join('/');
}

function resolve(from, request) {
  const dir = from.split('/').slice(0, -1);
  const path = normalize(dir.concat(request.split('/')));
  if (sources[path + '.js'] !== undefined) return path + '.js';
  if (sources[path + '/index.js'] !== undefined) return path + '/index.js';
  if (sources[path] !== undefined) return path;
  throw new Error('module not loaded: ' + request + ' from ' + from);
}

function load(path) {
  if (modules[path]) return modules[path].exports;
  const module = {exports: {}};
  modules[path] = module;
  const url = new URL(BASE + path, location.href).href;
  const fn = (0, eval)('(function (exports, require, module) {\n' + sources[path] +
    '\n})\n//# sourceURL=' + url);
  fn.call(module.exports, module.exports, function (request) {
    return load(resolve(path, request));
  }, module);
  return module.exports;
}

function rng(seed) {
  let s = seed >>> 0;
  return function () {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const REGIONS = ['eu-north', 'eu-west', 'us-east', 'us-west', 'ap-south', 'ap-east', 'sa-east'];
const TIERS = ['web', 'worker', 'batch'];
const TAGS = ['billing', 'search', 'auth', 'media', 'mail', 'report', 'audit', 'cache', 'queue'];

function buildManifest(m) {
  const r = rng(m.seed);
  const services = [];
  for (let i = 0; i < m.services; i++) {
    services.push({
      name: 'svc-' + i + '-' + (r() % 1000),
      port: 1000 + r() % 50000,
      env: {region: REGIONS[r() % REGIONS.length], tier: TIERS[r() % TIERS.length]},
      tags: [TAGS[r() % TAGS.length], 'v' + (r() % 5)]
    });
  }
  return {manifest: m.name, version: 3, services: services};
}

function checksum(text) {
  let h = 2166136261 >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return ('00000000' + h.toString(16)).slice(-8);
}

function exportManifest(index) {
  const m = MANIFESTS[index];
  const yaml = state.YAML.stringify(buildManifest(m));
  const lines = yaml.split('\n').length - 1;
  const row = document.createElement('tr');
  for (const cell of [m.name, m.services, yaml.length, lines, checksum(yaml)]) {
    const td = document.createElement('td');
    td.textContent = String(cell);
    row.appendChild(td);
  }
  document.querySelector('#summary tbody').appendChild(row);
  document.getElementById('preview').textContent = yaml.slice(0, 600);
  state.shown += 1;
  document.getElementById('status').textContent = 'Exported ' + m.name;
  document.body.dataset.shown = String(state.shown);
}

async function init() {
  await Promise.all(FILES.map(async function (path) {
    const res = await fetch(BASE + path);
    if (res.ok) sources[path] = await res.text();
  }));
  state.YAML = load('index.js').default;
  MANIFESTS.forEach(function (m, i) {
    document.getElementById('export' + i).addEventListener('click', function () {
      exportManifest(i);
    });
  });
  document.getElementById('status').textContent = 'Ready';
  document.body.dataset.ready = '1';
}

init();
