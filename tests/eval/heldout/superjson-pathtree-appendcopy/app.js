/* Activity export: each button builds a seeded activity log for one team
 * (projects, each with ten tasks that carry four Date fields), sends it
 * through superjson.stringify (the "export"), reads it back with
 * superjson.parse (the "import") and checks that every Date came back.
 * The page prints the number of records and dates, a checksum of the
 * restored timestamps and the first tasks. A real regression for zamcap's
 * accuracy experiment (NOTE.md). */
import superjson from './lib/superjson.esm.js';

const TEAMS = ['North', 'South', 'West'];
const PROJECTS = [26, 30, 34];   /* projects per team; 40 dates per project */
const TASKS = 10;                /* tasks per project */
const BASE = Date.UTC(2021, 0, 4, 9, 0, 0);

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

function makeTask(rand, p, j) {
  const created = BASE + Math.floor(rand() * 90 * 86400) * 1000;
  const updated = created + Math.floor(rand() * 5 * 86400) * 1000;
  return {
    title: 'Task ' + (p + 1) + '.' + (j + 1),
    points: 1 + Math.floor(rand() * 8),
    createdAt: new Date(created),
    updatedAt: new Date(updated),
    review: {
      createdAt: new Date(updated + 3600000),
      updatedAt: new Date(updated + 3600000 + Math.floor(rand() * 86400) * 1000),
    },
  };
}

function makeTeamLog(index) {
  const rand = seededRandom(4200 + index * 97);
  const projects = [];
  for (let p = 0; p < PROJECTS[index]; p++) {
    const tasks = [];
    for (let j = 0; j < TASKS; j++) tasks.push(makeTask(rand, p, j));
    projects.push({id: 'P' + (p + 1), team: TEAMS[index], tasks});
  }
  return projects;
}

function exportLog(log) {
  return superjson.stringify(log);
}

function importLog(text) {
  return superjson.parse(text);
}

function checkRestored(original, restored) {
  let dates = 0;
  let sum = 0;
  let bad = 0;
  for (let p = 0; p < original.length; p++) {
    const a = original[p].tasks;
    const b = restored[p].tasks;
    for (let j = 0; j < a.length; j++) {
      const pairs = [
        [a[j].createdAt, b[j].createdAt], [a[j].updatedAt, b[j].updatedAt],
        [a[j].review.createdAt, b[j].review.createdAt], [a[j].review.updatedAt, b[j].review.updatedAt],
      ];
      for (const [x, y] of pairs) {
        if (!(y instanceof Date) || y.getTime() !== x.getTime()) { bad++; continue; }
        dates++;
        sum = (sum * 31 + (y.getTime() / 1000) % 1000003) % 2147483647;
      }
    }
  }
  return {dates, sum, bad};
}

function showTeam(index) {
  const t0 = performance.now();
  const log = makeTeamLog(index);
  const text = exportLog(log);
  const restored = importLog(text);
  const check = checkRestored(log, restored);
  const lines = [];
  for (let j = 0; j < 8; j++) {
    const task = restored[0].tasks[j];
    lines.push(task.title.padEnd(10) + ' ' + task.createdAt.toISOString() + '  ' +
      task.updatedAt.toISOString() + '  review ' + task.review.updatedAt.toISOString());
  }
  state.shown++;
  document.getElementById('out').textContent = lines.join('\n');
  document.getElementById('status').textContent =
    'Team ' + TEAMS[index] + ': ' + log.length + ' projects, ' + check.dates + ' dates restored, ' +
    check.bad + ' mismatches, checksum ' + check.sum + ', ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < TEAMS.length; i++) {
    document.getElementById('export' + i).addEventListener('click', function onExport() { showTeam(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
