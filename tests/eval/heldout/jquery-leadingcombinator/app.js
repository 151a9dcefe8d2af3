/* Shift planner: one week of shifts as list items (seeded, the same on
 * every load), some marked as clashing. Checking a week walks the list with
 * jQuery and, for every shift, counts the clashing shifts after it
 * ($(row).find('~ .clash')) and looks at the next shift
 * ($(row).find('+ .shift')), as a planner's validation pass does.
 * A held-out real regression for zamcap's accuracy experiment
 * (tests/eval/heldout/jquery-leadingcombinator/NOTE.md): jQuery 3.4 (Sizzle
 * 2.3.4) stopped rewriting selectors that start with a sibling combinator
 * before handing them to querySelectorAll, which rejects them, so every
 * such find falls back to Sizzle's own, slower matcher. */
'use strict';

const WEEKS = ['Week 1', 'Week 2', 'Week 3'];
const SHIFTS = 600;
const PASSES = 10;
const PEOPLE = ['Ada', 'Ben', 'Cleo', 'Dan', 'Eva', 'Finn', 'Gia', 'Hank'];

const state = {weeks: [], checked: 0};

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

function makeWeek(index) {
  const rand = seededRandom(70 + index);
  const shifts = [];
  for (let i = 0; i < SHIFTS; i++) {
    shifts.push({who: PEOPLE[Math.floor(rand() * PEOPLE.length)], start: 6 + Math.floor(rand() * 14),
                 clash: rand() < 0.15});
  }
  return shifts;
}

function renderWeek(shifts) {
  const list = document.getElementById('shifts');
  list.innerHTML = shifts.map(function shiftHtml(s, i) {
    return '<li class="shift' + (s.clash ? ' clash' : '') + '" data-i="' + i + '">' + s.who + ' ' +
           s.start + ':00</li>';
  }).join('');
  return list;
}

function checkRow(row) {
  const later = $(row).find('~ .clash').length;
  const next = $(row).find('+ .shift');
  return later + (next.length && next.hasClass('clash') ? 1 : 0);
}

function checkWeek(list) {
  let score = 0;
  for (let p = 0; p < PASSES; p++) {
    $(list).children().each(function checkEach() { score += checkRow(this); });
  }
  return score;
}

function onWeekClick(event) {
  const index = WEEKS.indexOf(event.target.dataset.week);
  if (index < 0) return;
  const list = renderWeek(state.weeks[index]);
  const score = checkWeek(list);
  document.getElementById('status').textContent = WEEKS[index] + ': clash score ' + score;
  state.checked++;
  document.body.dataset.checked = String(state.checked);
}

function main() {
  const nav = document.getElementById('weeks');
  WEEKS.forEach(function addWeek(name, index) {
    state.weeks.push(makeWeek(index));
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.week = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onWeekClick);
  document.body.dataset.ready = '1';
}

main();
