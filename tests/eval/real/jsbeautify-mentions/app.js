/* Thread source view: a discussion board's threads (seeded: the same on
 * every load); clicking a thread builds its HTML, the way the board
 * renders it, and shows that HTML indented by js-beautify's
 * html_beautify. Comments mention people as @name. A real regression for
 * zamcap's accuracy experiment (tests/eval/real/jsbeautify-mentions/NOTE.md):
 * js-beautify 1.15.0's HTML tokenizer tries an Angular control-flow pattern
 * at every '@', and that pattern scans the rest of the document when no
 * '(' or '{' follows; 1.14.11 has no such pattern. */
'use strict';

const THREADS = ['Release checklist', 'Flaky build', 'Design review'];
const COMMENTS = 1600;
const PEOPLE = ['alice', 'bruno', 'chen', 'dana', 'emeka', 'farah', 'gustav', 'hana'];
const PHRASES = ['thanks for the quick review', 'can you take another look',
                 'I pushed the change to the branch', 'this is ready to merge',
                 'the numbers look right to me', 'please check the last step',
                 'I will update the notes tonight', 'agreed, let us keep it'];

const state = {threads: {}, shown: 0};

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

function makeThread(title, seed) {
  const rand = seededRandom(seed);
  const comments = [];
  for (let i = 0; i < COMMENTS; i++) {
    comments.push({id: i + 1, author: pick(rand, PEOPLE),
                   text: '@' + pick(rand, PEOPLE) + ' ' + pick(rand, PHRASES) + ', cc @' +
                         pick(rand, PEOPLE) + ' and ' + pick(rand, PHRASES)});
  }
  return {title: title, comments: comments};
}

function threadHtml(thread) {
  const items = thread.comments.map(function commentHtml(c) {
    return '<li class="comment" data-id="' + c.id + '"><b>' + c.author + '</b> <span>' +
      c.text + '</span></li>';
  });
  return '<section class="thread"><h2>' + thread.title + '</h2><ol>' + items.join('') +
    '</ol></section>';
}

function formatSource(html) {
  return html_beautify(html, {indent_size: 2, wrap_line_length: 0});
}

function onThreadClick(event) {
  const title = event.target.dataset.thread;
  if (!title) return;
  const source = formatSource(threadHtml(state.threads[title]));
  document.getElementById('source').textContent = source;
  document.getElementById('status').textContent = title + ': ' + source.length + ' characters';
  state.shown++;
  document.body.dataset.shown = String(state.shown);
}

function main() {
  const nav = document.getElementById('threads');
  THREADS.forEach(function addThread(title, i) {
    state.threads[title] = makeThread(title, 300 + i);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = title;
    b.dataset.thread = title;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onThreadClick);
  document.body.dataset.ready = '1';
}

main();
