/* In-browser spec runner: a small seeded "store" service whose collaborators
 * (250 methods on 25 fake services) are all wrapped in sinon spies once, on
 * load. Each Run button runs one suite of 400 generated specs. A spec calls
 * one or two collaborators through the service, checks callCount and
 * calledWith, and an afterEach hook resets the history of every spy (as a
 * test suite's shared fixture does). The output (passed/failed counts and a
 * checksum of the call counts seen) is the same in every sinon version.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SUITES = ['Cart', 'Billing', 'Shipping'];
const SERVICES = 25;   /* fake collaborator objects */
const METHODS = 10;    /* spied methods per service */
const SPECS = 400;     /* specs per suite */

const state = {spies: [], services: [], shown: 0};

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

function makeService(index) {
  const service = {name: 'svc' + index};
  for (let m = 0; m < METHODS; m++) {
    const factor = index * METHODS + m + 1;
    service['op' + m] = function (amount) { return amount * factor; };
  }
  return service;
}

function setUp() {
  for (let i = 0; i < SERVICES; i++) {
    const service = makeService(i);
    state.services.push(service);
    for (let m = 0; m < METHODS; m++) {
      state.spies.push(sinon.spy(service, 'op' + m));
    }
  }
}

function afterEach() {
  const spies = state.spies;
  for (let i = 0; i < spies.length; i++) spies[i].resetHistory();
}

function runSpec(rand) {
  const a = Math.floor(rand() * SERVICES);
  const b = Math.floor(rand() * METHODS);
  const amount = 1 + Math.floor(rand() * 90);
  const service = state.services[a];
  const spy = service['op' + b];
  const result = spy(amount);
  let ok = spy.callCount === 1 && spy.calledWith(amount) && result === amount * (a * METHODS + b + 1);
  if (rand() < 0.5) {
    const other = service['op' + ((b + 1) % METHODS)];
    other(amount + 1);
    ok = ok && other.calledOnce;
  }
  return {ok: ok, seen: spy.callCount + amount};
}

function runSuite(index) {
  const rand = seededRandom(7100 + index * 31);
  let passed = 0, failed = 0, checksum = 0;
  for (let s = 0; s < SPECS; s++) {
    const r = runSpec(rand);
    if (r.ok) passed++; else failed++;
    checksum = (checksum * 31 + r.seen) >>> 0;
    afterEach();
  }
  state.shown++;
  const line = SUITES[index] + ' specs: ' + passed + ' passed, ' + failed +
    ' failed, checksum ' + checksum;
  document.getElementById('log').textContent += line + '\n';
  document.getElementById('status').textContent = line;
  document.body.dataset.shown = String(state.shown);
}

setUp();
for (let i = 0; i < SUITES.length; i++) {
  document.getElementById('run' + i).addEventListener('click', function () { runSuite(i); });
}
document.body.dataset.ready = '1';
