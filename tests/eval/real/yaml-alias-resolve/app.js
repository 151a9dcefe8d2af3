/* Deployment config: each environment's config is a YAML file of
 * services; shared settings (resource limits, environment variables,
 * health checks) are written once with an anchor and reused by every
 * service through aliases, as docker-compose and CI files do. "Load next
 * environment" parses the next file with YAML.parse and summarises it.
 * The files are generated from a fixed seed, the same on every load.
 * A real regression for zamcap's accuracy experiment
 * (tests/eval/real/yaml-alias-resolve/NOTE.md): yaml 2.0.0-5 resolves an
 * alias by walking the document from its start up to the alias, for every
 * alias; 2.0.0-4's alias node held the anchored node itself. */
import * as YAML from './lib/yaml/index.js';

const ENVIRONMENTS = ['staging', 'canary', 'production'];
const SERVICES = 85;
const SIZES = ['small', 'medium', 'large'];

const state = {files: [], loaded: 0};

/* a multiply-with-carry generator with a fixed seed */
function makeMwc(seed) {
  let z = seed >>> 0, w = 521288629;
  return function next() {
    z = (36969 * (z & 65535) + (z >>> 16)) >>> 0;
    w = (18000 * (w & 65535) + (w >>> 16)) >>> 0;
    return (((z << 16) + w) >>> 0) / 4294967296;
  };
}

function sharedBlock(env) {
  const lines = ['shared:'];
  for (const size of SIZES) {
    const cpu = size === 'small' ? 0.5 : size === 'medium' ? 1 : 2;
    lines.push('  limits_' + size + ': &' + size,
               '    cpu: ' + cpu, '    memory: ' + (cpu * 1024) + 'Mi', '    replicas: ' + (cpu * 2));
  }
  lines.push('  env: &env', '    REGION: eu-west-1', '    STAGE: ' + env, '    LOG_LEVEL: info',
             '    TRACING: "on"', '  health: &health', '    path: /healthz', '    interval: 10s',
             '    timeout: 2s', '    retries: 3');
  return lines;
}

function serviceBlock(rnd, i) {
  const size = SIZES[Math.floor(rnd() * SIZES.length)];
  return ['  svc-' + i + ':', '    image: registry.example.com/team' + (i % 17) + '/svc-' + i + ':' +
          (1 + Math.floor(rnd() * 9)) + '.' + Math.floor(rnd() * 20),
          '    port: ' + (8000 + i), '    limits: *' + size, '    env: *env', '    health: *health',
          '    owners: [team' + (i % 17) + ', oncall]'];
}

function makeFile(env, seed) {
  const rnd = makeMwc(seed);
  let lines = ['# ' + env + ' services', 'version: 3'].concat(sharedBlock(env), ['services:']);
  for (let i = 0; i < SERVICES; i++) lines = lines.concat(serviceBlock(rnd, i));
  return lines.join('\n') + '\n';
}

function summarise(config) {
  const names = Object.keys(config.services);
  let cpu = 0, replicas = 0;
  for (const name of names) {
    cpu += config.services[name].limits.cpu * config.services[name].limits.replicas;
    replicas += config.services[name].limits.replicas;
  }
  return names.length + ' services, ' + replicas + ' replicas, ' + cpu + ' CPUs, stage ' +
         config.shared.env.STAGE;
}

/* Every service reuses the shared blocks, far beyond yaml's default
 * alias budget (meant for untrusted input): a trusted config lifts it. */
function parseConfig(text) {
  return YAML.parse(text, {maxAliasCount: -1});
}

function onLoadClick() {
  const file = state.files[state.loaded % state.files.length];
  const config = parseConfig(file.text);
  document.getElementById('summary').textContent = file.env + ': ' + summarise(config);
  state.loaded++;
  document.getElementById('status').textContent = 'loaded ' + state.loaded;
  document.body.dataset.loaded = String(state.loaded);
}

function main() {
  state.files = ENVIRONMENTS.map(function makeEnv(env, k) {
    return {env: env, text: makeFile(env, 7001 + k)};
  });
  document.getElementById('load').addEventListener('click', onLoadClick);
  document.body.dataset.ready = '1';
}

main();
