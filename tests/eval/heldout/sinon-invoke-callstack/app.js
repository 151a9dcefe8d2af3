/* Event bus tester: a small event bus whose 40 subscribers are all wrapped in
 * sinon spies once, on load. Each Replay button replays one seeded trace of
 * 20000 events through the bus (each event goes through a few dispatch layers,
 * as in a real app), so every event calls one subscriber spy. After every 50
 * events the tester checks each subscriber's callCount against its own tally
 * and resets the spies. The output (events, mismatches and a checksum of the
 * subscribers' return values) is the same in every sinon version.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const TRACES = ['Login', 'Checkout', 'Search'];
const SUBSCRIBERS = 40;
const EVENTS = 20000;  /* events per trace */
const BATCH = 50;      /* events between checks */

const state = {bus: null, shown: 0};

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

function makeBus() {
  const bus = {handlers: {}, tally: []};
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const k = i + 3;
    bus.handlers['topic' + i] = function (payload) { return (payload * k) % 1009; };
    sinon.spy(bus.handlers, 'topic' + i);
    bus.tally.push(0);
  }
  return bus;
}

function deliver(bus, topic, payload) { return bus.handlers[topic](payload); }
function route(bus, index, payload) { bus.tally[index]++; return deliver(bus, 'topic' + index, payload); }
function middleware(bus, index, payload) { return route(bus, index, payload + 1); }
function publish(bus, index, payload) { return middleware(bus, index, payload); }

function check(bus) {
  let mismatches = 0;
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const spy = bus.handlers['topic' + i];
    if (spy.callCount !== bus.tally[i]) mismatches++;
    spy.reset();
    bus.tally[i] = 0;
  }
  return mismatches;
}

function replay(index) {
  const bus = state.bus;
  const rand = seededRandom(9100 + index * 37);
  let mismatches = 0, checksum = 0;
  for (let e = 0; e < EVENTS; e++) {
    const sub = Math.floor(rand() * SUBSCRIBERS);
    const payload = Math.floor(rand() * 1000);
    checksum = (checksum * 31 + publish(bus, sub, payload)) >>> 0;
    if ((e + 1) % BATCH === 0) mismatches += check(bus);
  }
  state.shown++;
  const line = TRACES[index] + ' trace: ' + EVENTS + ' events, ' + mismatches +
    ' mismatches, checksum ' + checksum;
  document.getElementById('log').textContent += line + '\n';
  document.getElementById('status').textContent = line;
  document.body.dataset.shown = String(state.shown);
}

state.bus = makeBus();
for (let i = 0; i < TRACES.length; i++) {
  document.getElementById('replay' + i).addEventListener('click', function () { replay(i); });
}
document.body.dataset.ready = '1';
