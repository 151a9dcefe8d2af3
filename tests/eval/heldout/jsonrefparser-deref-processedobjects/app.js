/* API schema inspector: each button builds a seeded OpenAPI-style JSON
 * schema (the same on every load) for one service: a few shared type
 * definitions and a long list of fields, most of them inline objects and
 * every fiftieth a $ref to a shared definition. It hands the schema to
 * $RefParser.dereference (no external files) and shows how many fields,
 * nested objects and resolved references the result holds, with a checksum
 * of its JSON text.
 *
 * json-schema-ref-parser 9.x has no browser build, so the page loads the
 * package's unminified CommonJS files (lib/*.js) and those of its three
 * dependencies with a small CommonJS shim: it fetches every file of the
 * lists below and runs each one, when it is first required, as a function
 * of (exports, require, module), named by a sourceURL that is the file's
 * own address (the module's `global` is window). Node built-ins the package names (url, util, fs, http,
 * https) are small stand-ins written here; only url.resolve is used on
 * this path. Both versions give the same result.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const PACKAGES = {
  '@apidevtools/json-schema-ref-parser': {
    base: 'lib/json-schema-ref-parser/', main: 'index.js',
    files: ['bundle.js', 'dereference.js', 'index.js', 'normalize-args.js', 'options.js', 'parse.js', 'parsers/binary.js', 'parsers/json.js', 'parsers/text.js', 'parsers/yaml.js', 'pointer.js', 'ref.js', 'refs.js', 'resolve-external.js', 'resolvers/file.js', 'resolvers/http.js', 'util/errors.js', 'util/plugins.js', 'util/url.js']
  },
  '@jsdevtools/ono': {
    base: 'lib/ono/', main: 'index.js',
    files: ['constructor.js', 'extend-error.js', 'index.js', 'isomorphic.browser.js', 'isomorphic.node.js', 'normalize.js', 'singleton.js', 'stack.js', 'to-json.js', 'types.js'],
    browser: {'isomorphic.node.js': 'isomorphic.browser.js'}
  },
  'call-me-maybe': {base: 'lib/call-me-maybe/', main: 'index.js', files: ['index.js']},
  'js-yaml': {base: 'lib/js-yaml/', main: 'js-yaml.js', files: ['js-yaml.js']}
};

const SERVICES = [
  {name: 'billing', fields: 3800, seed: 1103},
  {name: 'inventory', fields: 4000, seed: 2207},
  {name: 'shipping', fields: 3600, seed: 3301}
];

/* Stand-ins for the Node built-ins the package requires. */
window.process = window.process || {browser: true, platform: 'browser', env: {}};
window.Buffer = window.Buffer || {isBuffer: () => false};
const BUILTINS = {
  url: {
    resolve(from, to) { return new URL(to, from).href; },
    parse(href) { return new URL(href, location.href); }
  },
  util: {inspect: {custom: Symbol.for('nodejs.util.inspect.custom')}, format: String},
  fs: {}, http: {}, https: {}
};

const sources = {};   // 'pkg|file' -> text
const modules = {};
const state = {RefParser: null, shown: 0};

function normalize(parts) {
  const out = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop(); else out.push(p);
  }
  return out.join('/');
}

function resolveIn(pkg, from, request) {
  const dir = from.split('/').slice(0, -1);
  let path = normalize(dir.concat(request.split('/')));
  const cands = [path + '.js', path + '/index.js', path];
  for (let c of cands) {
    const map = PACKAGES[pkg].browser;
    if (map && map[c]) c = map[c];
    if (sources[pkg + '|' + c] !== undefined) return c;
  }
  throw new Error('module not loaded: ' + request + ' from ' + pkg + '/' + from);
}

function load(pkg, file) {
  const key = pkg + '|' + file;
  if (modules[key]) return modules[key].exports;
  const module = {exports: {}};
  modules[key] = module;
  const url = new URL(PACKAGES[pkg].base + file, location.href).href;
  const fn = (0, eval)('(function (exports, require, module, global) {' + sources[key] +
    '\n})\n//# sourceURL=' + url);
  const req = (request) => {
    if (request.startsWith('.')) return load(pkg, resolveIn(pkg, file, request));
    if (BUILTINS[request]) return BUILTINS[request];
    if (PACKAGES[request]) return load(request, PACKAGES[request].main);
    throw new Error('unknown module ' + request);
  };
  fn.call(module.exports, module.exports, req, module, window);
  return module.exports;
}

async function fetchAll() {
  const jobs = [];
  for (const pkg of Object.keys(PACKAGES)) {
    for (const f of PACKAGES[pkg].files) {
      jobs.push(fetch(PACKAGES[pkg].base + f).then((r) => r.ok ? r.text() : null)
        .then((t) => { if (t !== null) sources[pkg + '|' + f] = t; }));
    }
  }
  await Promise.all(jobs);
}

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) / 16777216; };
}

const TYPES = ['string', 'integer', 'number', 'boolean'];

function buildSchema(svc) {
  const rnd = rng(svc.seed);
  const definitions = {};
  for (let i = 0; i < 20; i++) {
    definitions['Type' + i] = {
      type: 'object',
      required: ['id'],
      properties: {
        id: {type: 'string', format: 'uuid'},
        amount: {type: 'integer', minimum: i, maximum: 1000 + i}
      }
    };
  }
  const properties = {};
  for (let i = 0; i < svc.fields; i++) {
    if (i % 50 === 0) {
      properties['f' + i] = {$ref: '#/definitions/Type' + ((i / 50) % 20)};
    } else {
      properties['f' + i] = {
        type: 'object',
        description: svc.name + ' field ' + i,
        properties: {
          value: {type: TYPES[Math.floor(rnd() * 4)], maxLength: Math.floor(rnd() * 200)},
          unit: {type: 'string', enum: ['a', 'b', 'c'].slice(0, 1 + Math.floor(rnd() * 3))}
        }
      };
    }
  }
  return {title: svc.name, type: 'object', definitions, properties};
}

function summarize(schema) {
  let objects = 0, refsLeft = 0;
  const seen = new Set();
  const walk = (v) => {
    if (!v || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v); objects++;
    if (v.$ref) refsLeft++;
    for (const k of Object.keys(v)) walk(v[k]);
  };
  walk(schema);
  const text = JSON.stringify(schema);
  let h = 0;
  for (let i = 0; i < text.length; i += 7) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return {fields: Object.keys(schema.properties).length, objects, refsLeft, bytes: text.length, checksum: (h >>> 0).toString(16)};
}

async function onInspect(idx) {
  const svc = SERVICES[idx];
  const schema = buildSchema(svc);
  const out = await state.RefParser.dereference(schema, {resolve: {external: false}});
  const s = summarize(out);
  const row = document.createElement('tr');
  for (const v of [svc.name, s.fields, s.objects, s.refsLeft, s.bytes, s.checksum]) {
    const td = document.createElement('td');
    td.textContent = String(v);
    row.appendChild(td);
  }
  document.querySelector('#summary tbody').appendChild(row);
  state.shown++;
  document.getElementById('status').textContent = 'Inspected ' + state.shown;
  document.body.dataset.shown = String(state.shown);
}

async function main() {
  await fetchAll();
  state.RefParser = load('@apidevtools/json-schema-ref-parser', 'index.js');
  SERVICES.forEach((svc, i) => {
    document.getElementById('inspect' + i).addEventListener('click', () => { onInspect(i); });
  });
  document.getElementById('status').textContent = 'Ready';
  document.body.dataset.ready = '1';
}

main().catch((e) => { document.getElementById('status').textContent = 'Error: ' + e.message; });
