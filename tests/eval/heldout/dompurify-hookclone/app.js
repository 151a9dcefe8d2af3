/* Comment moderation: three discussion threads of user-written HTML
 * comments (seeded, the same on every load). Opening a thread sanitizes
 * every comment with DOMPurify before showing it; a hook keeps the site's
 * own mention attribute (data-mention) that the default allow-list drops.
 * A held-out real regression for zamcap's accuracy experiment
 * (tests/eval/heldout/dompurify-hookclone/NOTE.md): DOMPurify 3.4.7 clones
 * the default tag and attribute allow-lists in its config parsing on every
 * sanitize() call once such a hook is registered. */
'use strict';

const THREADS = ['Release notes', 'Bug bash', 'Roadmap'];
const COMMENTS = 600;
const SHOWN = 40;
const USERS = ['ana', 'bo', 'cy', 'dee', 'eli', 'fay', 'gus', 'hal'];
const WORDS = ['ship', 'it', 'looks', 'good', 'needs', 'tests', 'great', 'work', 'see', 'above',
               'typo', 'here', 'thanks', 'agree', 'later'];

const state = {threads: {}, opened: 0};

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

function makeComment(rand, i) {
  const words = [];
  for (let w = 0; w < 6; w++) words.push(pick(rand, WORDS));
  const user = pick(rand, USERS);
  let html = '<p>' + words.slice(0, 3).join(' ') + ' <b>' + words[3] + '</b> ' +
             '<span data-mention="' + user + '">@' + user + '</span> ' + words.slice(4).join(' ') + '</p>';
  if (i % 5 === 0) html += '<img src="x" onerror="steal()">';
  if (i % 7 === 0) html += '<a href="javascript:alert(1)" title="t">bad link</a>';
  return html;
}

function makeThread(index) {
  const rand = seededRandom(900 + index);
  const comments = [];
  for (let i = 0; i < COMMENTS; i++) comments.push(makeComment(rand, i));
  return comments;
}

function keepMentions(node, data) {
  if (data.attrName === 'data-mention') data.forceKeepAttr = true;
}

function cleanComment(html) {
  return DOMPurify.sanitize(html);
}

function renderThread(cleaned) {
  document.getElementById('comments').innerHTML = cleaned.slice(0, SHOWN).map(function commentHtml(c) {
    return '<div>' + c + '</div>';
  }).join('');
}

function onThreadClick(event) {
  const name = event.target.dataset.thread;
  if (!name) return;
  const cleaned = state.threads[name].map(cleanComment);
  renderThread(cleaned);
  let chars = 0;
  for (const c of cleaned) chars += c.length;
  document.getElementById('status').textContent = name + ': ' + cleaned.length + ' comments, ' + chars +
                                                  ' characters kept';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  DOMPurify.addHook('uponSanitizeAttribute', keepMentions);
  const nav = document.getElementById('threads');
  THREADS.forEach(function addThread(name, index) {
    state.threads[name] = makeThread(index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.thread = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onThreadClick);
  document.body.dataset.ready = '1';
}

main();
