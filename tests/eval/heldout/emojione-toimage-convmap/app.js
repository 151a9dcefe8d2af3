/* Team chat: three channels of seeded chat messages (the same on every
 * load), each message a line of text with a few emoji characters and a
 * :shortname:. Opening a channel renders its messages with emojione's
 * toImage() into the thread, one call per message (emoji as sprite spans). A
 * held-out real regression for zamcap's accuracy experiment (NOTE.md):
 * emojione 4.0.0's toImage goes through toShort, whose replacement builds
 * the whole unicode -> shortname table again for every emoji it finds. */
'use strict';

const CHANNELS = ['general', 'deploys', 'random'];
const MESSAGES = 30;
const EMOJI_PER_MESSAGE = 3;
const EMOJI = ['\u{1F600}', '\u{1F44D}', '\u{1F389}', '\u{1F680}', '\u{1F525}',
               '\u{1F64F}', '\u{1F440}', '\u2705', '\u{1F914}', '\u{1F622}'];
const WORDS = ['build', 'green', 'shipped', 'review', 'thanks', 'lunch', 'done',
               'rollback', 'merged', 'nice', 'flaky', 'test', 'later', 'ok'];
const SHORTNAMES = [':smile:', ':tada:', ':thumbsup:', ':coffee:'];

const state = {messages: {}, opened: 0};

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

function makeMessage(rand, channel, index) {
  const parts = ['[' + channel + ' #' + (index + 1) + ']'];
  for (let e = 0; e < EMOJI_PER_MESSAGE; e++) {
    parts.push(pick(rand, WORDS), pick(rand, WORDS), pick(rand, EMOJI));
  }
  parts.push(pick(rand, SHORTNAMES), pick(rand, WORDS));
  return parts.join(' ');
}

function makeChannel(name, index) {
  const rand = seededRandom(97 + index);
  const list = [];
  for (let i = 0; i < MESSAGES; i++) list.push(makeMessage(rand, name, i));
  return list;
}

function renderMessage(text) {
  return '<p>' + emojione.toImage(text) + '</p>';
}

function renderThread(messages) {
  const out = [];
  for (let i = 0; i < messages.length; i++) out.push(renderMessage(messages[i]));
  return out.join('');
}

function onChannelClick(event) {
  const name = event.target.dataset.channel;
  if (!name) return;
  const html = renderThread(state.messages[name]);
  document.getElementById('thread').innerHTML = html;
  document.getElementById('status').textContent = name + ': ' + html.length + ' characters of HTML';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function main() {
  // Sprite markup (<span class="emojione ...">) instead of <img> from the
  // CDN, so rendering a thread fetches nothing.
  emojione.sprites = true;
  const nav = document.getElementById('channels');
  CHANNELS.forEach(function addChannel(name, index) {
    state.messages[name] = makeChannel(name, index);
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.channel = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onChannelClick);
  document.body.dataset.ready = '1';
}

main();
