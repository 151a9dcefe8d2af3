/* Diagram checker: a docs site's check of its flowchart snippets. Three
 * sets of seeded flowcharts (the same on every load); each node label and
 * edge label carries a little HTML (<b>, <br/>, <i>), as the docs write them.
 * Each Check button parses one set with mermaid (strict security level, the
 * default, so every label is sanitized) and lists the nodes, edges and the
 * length of the sanitized labels. Nothing is rendered to SVG.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SETS = ['Services', 'Pipelines', 'Workflows'];
const CHARTS = 6;      /* flowcharts per set */
const NODES = 80;      /* nodes per flowchart */
const EDGES = 70;      /* labelled edges per flowchart */

const NOUNS = ['auth', 'billing', 'cache', 'queue', 'search', 'ingest', 'report',
  'export', 'mailer', 'gateway', 'ledger', 'audit', 'profile', 'upload', 'notify'];
const OWNERS = ['ana', 'bo', 'chen', 'dara', 'eli', 'fay', 'gus', 'hana'];
const VERBS = ['calls', 'reads', 'writes', 'emits', 'polls', 'signs', 'retries'];

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

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function makeChart(rand, setIndex, chartIndex) {
  const lines = ['flowchart LR'];
  for (let i = 0; i < NODES; i++) {
    const name = pick(rand, NOUNS) + '-' + (setIndex * 100 + chartIndex * 10 + (i % 10));
    lines.push('  n' + i + '["<b>' + name + '</b><br/>owner: ' + pick(rand, OWNERS) + '"]');
  }
  for (let e = 0; e < EDGES; e++) {
    const a = Math.floor(rand() * NODES);
    const b = (a + 1 + Math.floor(rand() * (NODES - 1))) % NODES;
    lines.push('  n' + a + ' -->|"<i>' + pick(rand, VERBS) + '</i> ' + e + '"| n' + b);
  }
  return lines.join('\n');
}

function makeSet(index) {
  const rand = seededRandom(7100 + index * 31);
  const charts = [];
  for (let c = 0; c < CHARTS; c++) charts.push(makeChart(rand, index, c));
  return charts;
}

async function checkChart(text) {
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const vertices = diagram.db.getVertices();
  const edges = diagram.db.getEdges();
  let nodes = 0, chars = 0;
  for (const id of Object.keys(vertices)) {
    nodes++;
    chars += String(vertices[id].text).length;
  }
  for (let i = 0; i < edges.length; i++) chars += String(edges[i].text).length;
  return {nodes: nodes, edges: edges.length, chars: chars};
}

async function checkSet(index) {
  const t0 = performance.now();
  const charts = makeSet(index);
  const rows = [];
  let nodes = 0, edges = 0, chars = 0;
  for (let c = 0; c < charts.length; c++) {
    const r = await checkChart(charts[c]);
    nodes += r.nodes; edges += r.edges; chars += r.chars;
    rows.push(SETS[index] + ' #' + (c + 1) + ': ' + r.nodes + ' nodes, ' + r.edges +
      ' edges, ' + r.chars + ' label chars');
  }
  state.shown++;
  document.getElementById('report').textContent = rows.join('\n');
  document.getElementById('status').textContent =
    SETS[index] + ': ' + charts.length + ' charts, ' + nodes + ' nodes, ' + edges +
    ' edges, ' + chars + ' label chars, ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  mermaid.initialize({startOnLoad: false, securityLevel: 'strict'});
  for (let i = 0; i < SETS.length; i++) {
    document.getElementById('check' + i).addEventListener('click', function onCheck() {
      checkSet(i);
    });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
