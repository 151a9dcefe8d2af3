/* Ticket thread: a support ticket's comments (generated from a fixed seed,
 * the same on every load), shown a batch at a time. Each comment's text
 * goes through Autolinker.link(), the one-call API, which builds an
 * Autolinker (and its matchers) for every comment. A real regression for
 * zamcap's accuracy experiment (tests/eval/real/autolinker-matchers/NOTE.md):
 * Autolinker 2.0 builds each matcher's regular expressions in the matcher's
 * constructor, for every instance; 1.8 built them once, on the prototype. */
'use strict';

const BATCH = 700;
const HOSTS = ['status.example.com', 'docs.example.org', 'cdn.example.net', 'example.io'];
const PEOPLE = ['ines', 'tomasz', 'amara', 'li.wei', 'rui', 'noor', 'kofi', 'hanna'];
const PHRASES = ['the upload stalls at 80%', 'I cleared the cache and retried',
  'see the attached log', 'same result on the staging box', 'it works after a reload',
  'the export is missing two columns', 'we rolled back the config', 'still seeing 502s'];

const state = {comments: [], shown: 0, loads: 0};

/* xorshift32, seeded: the thread is the same on every load */
function makeRandom(seed) {
  let x = seed | 0 || 1;
  return function next() {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function choose(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function makeComment(rand, n) {
  const who = choose(rand, PEOPLE);
  const parts = [choose(rand, PHRASES) + '.'];
  parts.push('Details: https://' + choose(rand, HOSTS) + '/tickets/' + (4000 + n) + '?tab=log');
  if (rand() < 0.6) parts.push('cc ' + choose(rand, PEOPLE) + '@example.com');
  parts.push(choose(rand, PHRASES) + ', see www.' + choose(rand, HOSTS) + '/faq#' + n);
  return {n: n, who: who, text: parts.join(' ')};
}

function makeThread(count) {
  const rand = makeRandom(90210);
  const list = [];
  for (let i = 0; i < count; i++) list.push(makeComment(rand, i + 1));
  return list;
}

function linkifyComment(c) {
  return Autolinker.link(c.text, {newWindow: false, stripPrefix: false, className: 'lnk'});
}

function renderBatch(batch) {
  const list = document.getElementById('comments');
  const html = batch.map(function commentItem(c) {
    return '<li><b>' + c.who + '</b>: ' + linkifyComment(c) + '</li>';
  }).join('');
  list.insertAdjacentHTML('beforeend', html);
}

function onMoreClick() {
  const batch = state.comments.slice(state.shown, state.shown + BATCH);
  renderBatch(batch);
  state.shown += batch.length;
  state.loads++;
  document.getElementById('status').textContent = state.shown + ' comments';
  document.body.dataset.loads = String(state.loads);
}

function main() {
  state.comments = makeThread(BATCH * 4);
  document.getElementById('more').addEventListener('click', onMoreClick);
  document.body.dataset.ready = '1';
}

main();
