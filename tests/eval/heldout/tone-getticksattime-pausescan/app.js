/* Rehearsal looper: a practice tool that replays a recorded editing session
 * on Tone.Transport. A session is a seeded list of takes; each take is a
 * play (Transport.start) and a pause (Transport.pause) at explicit times, the
 * way a user seeks and toggles playback while editing. After every take the
 * page polls the transport position (Transport.ticks), as a position readout
 * would. Each Replay button stops the transport and replays one session.
 * The output lists the number of takes, how many were longer than the median
 * length and the transport state; the polled tick values are not shown (they
 * are computed differently by the two builds). All event times lie between
 * 0.002 s and 0.065 s, so they are in the past whether or not the audio
 * context runs. A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const SESSIONS = ['A', 'B', 'C'];
const TAKES = 800;         /* takes per session */
const STEP = 2e-6;         /* seconds: time unit of the replayed session */

const state = {shown: 0, cursor: 0.002, readout: 0};

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

/* take lengths in STEP units, 1..3 */
function makeSession(index) {
  const rand = seededRandom(9001 + index * 7919);
  const takes = [];
  for (let i = 0; i < TAKES; i++) takes.push(1 + Math.floor(rand() * 3));
  return takes;
}

function pollPosition() {
  /* a position readout polls the transport after each edit */
  state.readout = Tone.Transport.ticks;
}

function replayTake(length) {
  const t = state.cursor;
  Tone.Transport.start(t);
  Tone.Transport.pause(t + length * STEP);
  state.cursor = t + (length + 1) * STEP;
  pollPosition();
}

function replaySession(index) {
  const takes = makeSession(index);
  Tone.Transport.stop(state.cursor);
  state.cursor += STEP;
  let long = 0;
  for (const length of takes) {
    replayTake(length);
    if (length > 2) long++;
  }
  return {takes: takes.length, long: long, transport: Tone.Transport.state};
}

function show(index) {
  const r = replaySession(index);
  const line = 'Session ' + SESSIONS[index] + ': ' + r.takes + ' takes replayed, ' +
    r.long + ' long takes, transport ' + r.transport;
  const out = document.getElementById('out');
  out.textContent += line + '\n';
  state.shown++;
  document.getElementById('status').textContent = 'Replayed ' + state.shown + ' of ' + SESSIONS.length;
  document.body.dataset.shown = String(state.shown);
}

function init() {
  for (let i = 0; i < SESSIONS.length; i++) {
    document.getElementById('replay' + i).addEventListener('click', function onReplay() { show(i); });
  }
  document.body.dataset.ready = '1';
}

init();
