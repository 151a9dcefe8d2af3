/* Config converter: turns a CSV inventory of service deployments into a
 * nested YAML configuration and back, built on Papa Parse and js-yaml (npm,
 * loaded unminified from lib/). An eval subject for zamcap's accuracy
 * experiment (tests/eval/README.md).
 *
 * On load it generates the CSV (a seeded generator: every load is the same)
 * and shows it. "Parse CSV" parses it with typed values and builds the
 * nested configuration (service > environment > region); "Convert to YAML"
 * dumps that with sorted keys; "Validate YAML" loads the YAML text again
 * and compares it with the configuration, node by node; "Export CSV"
 * flattens the configuration and writes CSV with Papa Parse again.
 *
 * Background work, the same in every build: a size tick every 600 ms and a
 * fake asynchronous save after each step. */
'use strict';

const ROW_COUNT = 900;
const SERVICES = ['billing', 'search', 'auth', 'catalog', 'checkout', 'mailer',
                  'images', 'reports', 'gateway', 'scheduler', 'ledger', 'profile'];
const ENVS = ['dev', 'staging', 'prod'];
const REGIONS = ['eu-west', 'eu-north', 'us-east', 'us-west', 'ap-south'];
const OWNERS = ['team-ada', 'team-bo', 'team-chen', 'team-dee'];
const TAGS = ['pci', 'public', 'internal', 'batch', 'canary', 'legacy', 'gpu'];

const state = {csv: '', rows: [], config: null, yamlText: '', exported: '',
               saved: null, ticks: 0};

/* mulberry32: the same sequence on every load. */
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

function pick(rand, list) { return list[Math.floor(rand() * list.length)]; }

function makeCsv(count) {
  const rand = seededRandom(3303);
  const lines = ['service,env,region,replicas,cpu,memory_mb,port,enabled,tags,owner,notes'];
  for (let i = 0; i < count; i++) {
    const service = SERVICES[i % SERVICES.length] + '-' + Math.floor(i / 45);
    lines.push([service, pick(rand, ENVS), pick(rand, REGIONS), 1 + Math.floor(rand() * 12),
                (0.25 * (1 + Math.floor(rand() * 16))).toFixed(2), 128 * (1 + Math.floor(rand() * 32)),
                8000 + Math.floor(rand() * 1000), rand() < 0.8 ? 'true' : 'false',
                pick(rand, TAGS) + ';' + pick(rand, TAGS), pick(rand, OWNERS),
                '"rolled out, ' + (1 + Math.floor(rand() * 9)) + ' days ago"'].join(','));
  }
  return lines.join('\n') + '\n';
}

/* ---- CSV to configuration ---- */

function trimValue(value) { return typeof value === 'string' ? value.trim() : value; }

function parseCsv(text) {
  const result = Papa.parse(text, {header: true, dynamicTyping: true, skipEmptyLines: true,
                                   transform: trimValue});
  if (result.errors.length) throw new Error('CSV: ' + result.errors[0].message);
  return result.data;
}

function deploymentOf(row) {
  return {replicas: row.replicas, resources: {cpu: row.cpu, memory_mb: row.memory_mb},
          port: row.port, enabled: row.enabled, tags: String(row.tags).split(';'),
          owner: row.owner, notes: row.notes};
}

function buildConfig(rows) {
  const services = {};
  for (const row of rows) {
    const service = services[row.service] || (services[row.service] = {});
    const env = service[row.env] || (service[row.env] = {});
    env[row.region] = deploymentOf(row);
  }
  return {version: 3, generated: '2024-06-01', services: services};
}

/* ---- configuration to YAML and back ---- */

function dumpYaml(config) {
  return jsyaml.dump(config, {sortKeys: true, lineWidth: 100, noRefs: true});
}

function loadYaml(text) {
  return jsyaml.load(text);
}

/* Compares two trees; returns the paths that differ. */
function compareTrees(a, b, path, out) {
  if (a === b) return out;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    out.push(path);
    return out;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) compareTrees(a[key], b[key], path + '/' + key, out);
  return out;
}

/* ---- configuration to CSV ---- */

function flattenConfig(config) {
  const rows = [];
  for (const [service, envs] of Object.entries(config.services))
    for (const [env, regions] of Object.entries(envs))
      for (const [region, d] of Object.entries(regions))
        rows.push({service, env, region, replicas: d.replicas, cpu: d.resources.cpu,
                   memory_mb: d.resources.memory_mb, port: d.port, enabled: d.enabled,
                   tags: d.tags.join(';'), owner: d.owner, notes: d.notes});
  return rows;
}

function exportCsv(config) {
  return Papa.unparse(flattenConfig(config), {quotes: false, newline: '\n'});
}

/* ---- rendering ---- */

function renderServices(config) {
  const items = Object.keys(config.services).sort().slice(0, 30).map(function serviceItem(name) {
    const envs = config.services[name];
    return '<li>' + name + ': ' + Object.keys(envs).sort().join(', ') + '</li>';
  });
  document.getElementById('services').innerHTML = items.join('');
}

function firstLines(text, count) {
  let end = 0;
  for (let i = 0; i < count && end >= 0; i++) end = text.indexOf('\n', end + 1);
  return end < 0 ? text : text.slice(0, end) + '\n...';
}

function setStatus(text, step) {
  const status = document.getElementById('status');
  status.textContent = text;
  status.dataset.step = step;
}

/* ---- event handlers ---- */

function onParseClick() {
  state.rows = parseCsv(state.csv);
  state.config = buildConfig(state.rows);
  renderServices(state.config);
  setStatus(state.rows.length + ' rows parsed', 'parsed');
  saveStep('parsed');
}

function onToYamlClick() {
  state.yamlText = dumpYaml(state.config);
  document.getElementById('yaml').textContent = firstLines(state.yamlText, 150);
  setStatus(Math.round(state.yamlText.length / 1024) + ' KB of YAML', 'yaml');
  saveStep('yaml');
}

function onValidateClick() {
  const loaded = loadYaml(state.yamlText);
  const differences = compareTrees(state.config, loaded, '', []);
  document.getElementById('check').textContent =
      differences.length ? differences.length + ' differences, first ' + differences[0] : 'round trip OK';
  setStatus('validated', 'validated');
  saveStep('validated');
}

function onExportClick() {
  state.exported = exportCsv(state.config);
  setStatus(state.exported.split('\n').length + ' CSV lines exported', 'exported');
  saveStep('exported');
}

/* ---- noise: a size tick and a fake asynchronous save ---- */

function sizeTick() {
  state.ticks++;
  let lines = 0;
  for (let i = 0; i < state.yamlText.length; i += 64) if (state.yamlText[i] === '\n') lines++;
  document.body.dataset.size = String(lines);
}

function storeStep(step) { state.saved = step; }

function saveStep(step) {
  Promise.resolve(step).then(storeStep);
  new Promise(function waitForServer(resolve) {
    setTimeout(resolve, Date.now() % 5, step);
  }).then(function onStepSaved(s) { document.body.dataset.saved = s; });
}

/* ---- start ---- */

function startApp() {
  state.csv = makeCsv(ROW_COUNT);
  document.getElementById('csv').value = state.csv;
  document.getElementById('parse-csv').addEventListener('click', onParseClick);
  document.getElementById('to-yaml').addEventListener('click', onToYamlClick);
  document.getElementById('validate').addEventListener('click', onValidateClick);
  document.getElementById('export-csv').addEventListener('click', onExportClick);
  setInterval(sizeTick, 600);
}

startApp();
