/* API schema explorer: each product area publishes its gRPC API as a set
 * of .proto files (seeded: the same on every load), one file per module,
 * each importing the area's common types and the module before it. The
 * page keeps the sources in memory, as a bundler would, and hands them to
 * protobuf.js through Root#fetch, the documented hook for custom loading.
 * Opening an area creates a Root, loads the area's files one by one in
 * the order of its manifest (Root#load per file), then looks up each
 * module's request and reply messages, encodes a sample of each and
 * decodes it back, and lists the modules.
 * A real regression for zamcap's accuracy experiment (NOTE.md): protobuf.js
 * 7.5.0's Root#load resolves the whole root after every file, and its
 * fields no longer remember that they are resolved, so every load looks
 * up every field's type again. */
'use strict';

const AREAS = ['Orders', 'Billing', 'Shipping'];
const MODULES = 10;      /* .proto files per area (besides common.proto) */
const MESSAGES = 10;     /* messages per module */
const WORDS = ['cart', 'line', 'quote', 'refund', 'parcel', 'route', 'slot', 'tariff', 'voucher',
               'ledger', 'credit', 'batch', 'pickup', 'return', 'label', 'zone'];
const SCALARS = ['string', 'int32', 'int64', 'bool', 'double', 'uint32', 'bytes'];

const state = {bundles: {}, opened: 0};

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

function commonProto(pkg) {
  return 'syntax = "proto3";\npackage ' + pkg + '.common;\n' +
    'message Money { string currency = 1; int64 units = 2; int32 nanos = 3; }\n' +
    'message Stamp { int64 seconds = 1; int32 nanos = 2; }\n' +
    'message Address { string street = 1; string city = 2; string zip = 3; string country = 4; }\n' +
    'enum Status { STATUS_UNKNOWN = 0; STATUS_OPEN = 1; STATUS_DONE = 2; STATUS_FAILED = 3; }\n';
}

function messageProto(rand, pkg, m, k) {
  const word = pick(rand, WORDS);
  let s = 'message ' + word.charAt(0).toUpperCase() + word.slice(1) + m + ' {\n' +
          '  string id = 1;\n  ' + pkg + '.common.Money amount = 2;\n' +
          '  ' + pkg + '.common.Stamp created = 3;\n  ' + pkg + '.common.Status status = 4;\n';
  let tag = 5;
  const extra = 2 + Math.floor(rand() * 3);
  for (let i = 0; i < extra; i++) s += '  ' + pick(rand, SCALARS) + ' f' + tag + ' = ' + tag++ + ';\n';
  if (m > 0) s += '  repeated ' + 'M' + (m - 1) + ' children = ' + tag++ + ';\n';
  if (k > 0) s += '  ' + pkg + '.m' + (k - 1) + '.M' + m + ' previous = ' + tag++ + ';\n';
  s += '  ' + pkg + '.common.Address ship_to = ' + tag++ + ';\n';
  s += '  map<string, string> labels = ' + tag++ + ';\n}\n';
  s += 'message M' + m + ' { ' + word.charAt(0).toUpperCase() + word.slice(1) + m + ' body = 1; }\n';
  return s;
}

function moduleProto(rand, pkg, area, k) {
  let s = 'syntax = "proto3";\npackage ' + pkg + '.m' + k + ';\nimport "' + area + '/common.proto";\n';
  if (k > 0) s += 'import "' + area + '/m' + (k - 1) + '.proto";\n';
  for (let m = 0; m < MESSAGES; m++) s += messageProto(rand, pkg, m, k);
  s += 'service Module' + k + ' {\n  rpc Get (M0) returns (M' + (MESSAGES - 1) + ');\n' +
       '  rpc List (M1) returns (stream M' + (MESSAGES - 1) + ');\n}\n';
  return s;
}

function makeBundle(index) {
  const area = AREAS[index].toLowerCase();
  const pkg = 'acme.' + area;
  const rand = seededRandom(7300 + index);
  const files = {};
  const manifest = [];
  files[area + '/common.proto'] = commonProto(pkg);
  manifest.push(area + '/common.proto');
  for (let k = 0; k < MODULES; k++) {
    const name = area + '/m' + k + '.proto';
    files[name] = moduleProto(rand, pkg, area, k);
    manifest.push(name);
  }
  return {area: area, pkg: pkg, files: files, manifest: manifest};
}

function fetchFromBundle(bundle) {
  return function fetchSource(path, options, callback) {
    if (typeof options === 'function') callback = options;
    const source = bundle.files[path];
    if (source === undefined) callback(Error('no such file: ' + path));
    else callback(null, source);
  };
}

function loadArea(bundle) {
  const root = new protobuf.Root();
  root.fetch = fetchFromBundle(bundle);
  root.resolvePath = function bundlePath(origin, target) { return target; };
  let loaded = 0;
  bundle.manifest.forEach(function loadFile(name) {
    root.load(name, {keepCase: true}, function onLoaded(err) {
      if (err) throw err;
      loaded++;
    });
  });
  return {root: root, loaded: loaded};
}

function sampleMessage(type, k) {
  const obj = {id: type.name + '-' + k, amount: {currency: 'EUR', units: 10 + k, nanos: 500000000},
               created: {seconds: 1700000000 + k * 3600}, status: 1 + (k % 3),
               ship_to: {street: 'Quay ' + k, city: 'Porto', zip: '4000', country: 'PT'},
               labels: {team: 'api', tier: String(k % 4)}};
  return type.fromObject({body: obj});
}

function exerciseModule(bundle, root, k) {
  const service = root.lookupService(bundle.pkg + '.m' + k + '.Module' + k);
  let bytes = 0;
  let fields = 0;
  service.methodsArray.forEach(function roundTrip(method) {
    const type = root.lookupType(bundle.pkg + '.m' + k + '.' + method.requestType);
    const buf = type.encode(sampleMessage(type, k)).finish();
    const back = type.decode(buf);
    bytes += buf.length + (back.body ? 0 : 1);
    fields += type.fieldsArray.length;
  });
  const ns = root.lookup(bundle.pkg + '.m' + k);
  return {module: 'm' + k, messages: ns.nestedArray.length - 1, methods: service.methodsArray.length,
          fields: fields, bytes: bytes};
}

function renderArea(name, modules) {
  document.getElementById('rows').innerHTML = modules.map(function moduleRow(r) {
    return '<tr><td>' + name + '</td><td>' + r.module + '</td><td>' + r.messages + '</td><td>' +
           r.methods + '</td><td>' + r.fields + '</td><td>' + r.bytes + '</td></tr>';
  }).join('');
}

function onAreaClick(event) {
  const name = event.target.dataset.area;
  if (!name) return;
  const bundle = state.bundles[name];
  const result = loadArea(bundle);
  const modules = [];
  for (let k = 0; k < MODULES; k++) modules.push(exerciseModule(bundle, result.root, k));
  renderArea(name, modules);
  const bytes = modules.reduce(function sumBytes(a, r) { return a + r.bytes; }, 0);
  document.getElementById('status').textContent = name + ': ' + result.loaded + ' files loaded, ' +
                                                  modules.length + ' modules, ' + bytes + ' sample bytes';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  const nav = document.getElementById('areas');
  AREAS.forEach(function addArea(name, index) {
    state.bundles[name] = makeBundle(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.area = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onAreaClick);
  document.body.dataset.ready = '1';
}

main();
