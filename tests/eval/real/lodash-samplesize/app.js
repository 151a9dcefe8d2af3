/* Quiz dealer: a bank of BANK_SIZE questions (seeded, the same on every
 * load); each click on Deal draws a hand of HAND_SIZE questions for each of
 * PLAYERS players with lodash's _.sampleSize. A real regression for zamcap's
 * accuracy experiment (tests/eval/real/lodash-samplesize/NOTE.md): lodash
 * 4.16.1 shuffles the whole bank for every hand, 4.15.0 only HAND_SIZE
 * positions of it. */
'use strict';

const BANK_SIZE = 10000;
const HAND_SIZE = 10;
const PLAYERS = 960;
const SHOWN = 48; /* hands shown; the rest are dealt and scored */
const TOPICS = ['rivers', 'capitals', 'birds', 'chemistry', 'poetry', 'planets', 'bridges'];

const state = {bank: [], round: 0};

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

function makeBank(count) {
  const rand = seededRandom(4711);
  const bank = new Array(count);
  for (let i = 0; i < count; i++) {
    bank[i] = {id: i + 1, topic: TOPICS[Math.floor(rand() * TOPICS.length)],
               points: 1 + Math.floor(rand() * 5)};
  }
  return bank;
}

function drawHand() {
  return _.sampleSize(state.bank, HAND_SIZE);
}

function scoreHand(hand) {
  let points = 0;
  for (const q of hand) points += q.points;
  return points;
}

function renderHands(hands) {
  const box = document.getElementById('hands');
  box.textContent = '';
  hands.slice(0, SHOWN).forEach(function renderHand(hand, i) {
    const div = document.createElement('div');
    div.textContent = 'P' + (i + 1) + ': ' + scoreHand(hand) + ' pts (' +
      hand.map(function questionId(q) { return q.id; }).join(' ') + ')';
    box.appendChild(div);
  });
}

function dealRound() {
  const hands = [];
  for (let p = 0; p < PLAYERS; p++) hands.push(drawHand());
  return hands;
}

function onDealClick() {
  state.round++;
  renderHands(dealRound());
  document.getElementById('status').textContent = 'round ' + state.round;
  document.body.dataset.round = String(state.round);
}

function main() {
  state.bank = makeBank(BANK_SIZE);
  document.getElementById('deal').addEventListener('click', onDealClick);
  document.body.dataset.ready = '1';
}

main();
