/* Chat archive viewer: three channel archives (seeded, the same on every
 * load) arrive as MessagePack bytes, as they would from a server. They are
 * packed once on load. Each Open button unpacks one archive with
 * MessagePack.decode, counts its messages and characters, and lists the
 * first few messages. The message bodies are long (well over 200 bytes of
 * UTF-8 each), so the decoder's string path dominates each click.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const CHANNELS = ['general', 'support', 'releases'];
const MESSAGES = 6000;   /* messages per archive */
const WORDS = 300;       /* words per message body */
const SHOWN = 25;        /* messages listed after a click */

const VOCAB = ['the', 'build', 'release', 'deploy', 'a', 'of', 'café', 'team',
  'customer', 'latency', 'roadmap', 'and', 'to', 'sprint', 'naïve', 'draft',
  'in', 'for', 'Zürich', 'rollback', 'notes', 'with', 'feedback', 'déjà',
  'migration', 'is', 'on', 'backlog', 'façade', 'deadline', 'señor', 'plan',
  'queue', 'server', 'cache', 'index', 'schema', 'ticket', 'patch', 'review',
  'сервер', 'релиз', 'очередь', 'κώδικας', 'έκδοση', '修正', 'テスト', '部署'];
const AUTHORS = ['ana', 'björn', 'chen', 'dara', 'émile', 'farah', 'goran', 'hana'];

const state = {archives: [], shown: 0};

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

function makeBody(rand) {
  const words = [];
  for (let i = 0; i < WORDS; i++) {
    words.push(VOCAB[Math.floor(rand() * VOCAB.length)]);
    if (rand() < 0.01) words.push('🚀');
  }
  return words.join(' ') + '.';
}

function makeArchive(index) {
  const rand = seededRandom(8100 + index * 31);
  const messages = [];
  for (let i = 0; i < MESSAGES; i++) {
    messages.push({
      id: index * 100000 + i,
      author: AUTHORS[Math.floor(rand() * AUTHORS.length)],
      ts: 1700000000 + i * 37,
      body: makeBody(rand)
    });
  }
  return MessagePack.encode({channel: CHANNELS[index], messages: messages});
}

function openChannel(index) {
  const t0 = performance.now();
  const archive = MessagePack.decode(state.archives[index]);
  let chars = 0, wide = 0;
  for (let i = 0; i < archive.messages.length; i++) {
    const body = archive.messages[i].body;
    chars += body.length;
    for (let j = 0; j < body.length; j += 16) if (body.charCodeAt(j) > 127) wide++;
  }
  const list = document.getElementById('list');
  list.textContent = '';
  for (let i = 0; i < SHOWN; i++) {
    const m = archive.messages[i];
    const li = document.createElement('li');
    const who = document.createElement('b');
    who.textContent = m.author + ': ';
    li.appendChild(who);
    li.appendChild(document.createTextNode(m.body.slice(0, 160) + '…'));
    list.appendChild(li);
  }
  state.shown++;
  document.getElementById('status').textContent =
    '#' + archive.channel + ': ' + archive.messages.length + ' messages, ' + chars +
    ' characters, ' + wide + ' sampled non-ASCII, ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < CHANNELS.length; i++) {
    state.archives.push(makeArchive(i));
    document.getElementById('open' + i).addEventListener('click', function onOpen() { openChannel(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
