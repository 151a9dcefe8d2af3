/* Password vaults: three KeePass (kdbx 3) databases are built and saved in
 * memory on load (seeded text, the same on every load). Each Open button
 * opens one of them again with kdbxweb, as a vault app does when the user
 * unlocks a file, and lists its entries. The entries' notes mix ASCII with
 * accented and Cyrillic text, so the inner XML is multi-byte UTF-8.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const VAULTS = ['Personal', 'Team', 'Archive'];
const GROUPS = 6;          /* groups per vault */
const ENTRIES = 200;       /* entries per group */
const NOTE_WORDS = 260;    /* words in each entry's notes */
const ROUNDS = 500;        /* AES-KDF rounds (kept low: the page times opening) */
const SHOWN_ROWS = 60;     /* rows listed after opening */

const VOCAB = ['server', 'backup', 'router', 'mailbox', 'the', 'a', 'of', 'key',
  'token', 'recovery', 'код', 'пароль', 'доступ', 'résumé', 'café', 'naïve',
  'über', 'straße', 'and', 'to', 'rotate', 'vpn', 'in', 'for', 'сервер',
  'ключ', 'with', 'année', 'is', 'on', 'account', 'owner', 'expires', 'pin'];
const SITES = ['mail', 'bank', 'git', 'wiki', 'shop', 'cloud', 'forum', 'news'];

const state = {files: [], shown: 0, busy: false};

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

function pick(rand, list) { return list[Math.floor(rand() * list.length)]; }

function makeNotes(rand) {
  const words = [];
  for (let i = 0; i < NOTE_WORDS; i++) words.push(pick(rand, VOCAB));
  return words.join(' ') + '.';
}

/* kdbxweb 0.4.x takes a callback, 1.x returns a promise: accept both. */
function settle(fn, ctx, args) {
  return new Promise(function (resolve, reject) {
    let r;
    try { r = fn.apply(ctx, args.concat([resolve])); } catch (e) { reject(e); return; }
    if (r && typeof r.then === 'function') r.then(resolve, reject);
  });
}

function credentialsFor(index) {
  return new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString('unlock-' + VAULTS[index]));
}

function buildVault(index) {
  const rand = seededRandom(7100 + index * 31);
  const db = kdbxweb.Kdbx.create(credentialsFor(index), VAULTS[index] + ' vault');
  db.header.keyEncryptionRounds = ROUNDS;
  const root = db.getDefaultGroup();
  for (let g = 0; g < GROUPS; g++) {
    const group = db.createGroup(root, VAULTS[index] + ' group ' + (g + 1));
    for (let e = 0; e < ENTRIES; e++) {
      const entry = db.createEntry(group);
      const site = pick(rand, SITES);
      entry.fields.Title = site + ' ' + (g * ENTRIES + e + 1);
      entry.fields.UserName = 'user' + Math.floor(rand() * 100000);
      entry.fields.URL = 'https://' + site + '.example.org/' + e;
      entry.fields.Notes = makeNotes(rand);
      entry.fields.Password = kdbxweb.ProtectedValue.fromString('pw-' + Math.floor(rand() * 1e9));
    }
  }
  return settle(db.save, db, []);
}

function collect(db) {
  const rows = [];
  let entries = 0, noteChars = 0;
  db.getDefaultGroup().forEach(function (entry, group) {
    if (!entry) return;
    entries++;
    noteChars += String(entry.fields.Notes || '').length;
    if (rows.length < SHOWN_ROWS) {
      rows.push([entry.parentGroup ? entry.parentGroup.name : '', entry.fields.Title,
        entry.fields.UserName, entry.fields.URL]);
    }
  });
  return {rows: rows, entries: entries, noteChars: noteChars};
}

function render(rows) {
  const body = document.querySelector('#entries tbody');
  body.textContent = '';
  for (let i = 0; i < rows.length; i++) {
    const tr = document.createElement('tr');
    for (let c = 0; c < rows[i].length; c++) {
      const td = document.createElement('td');
      td.textContent = String(rows[i][c]);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function openVault(index) {
  if (state.busy) return;
  state.busy = true;
  const t0 = performance.now();
  settle(kdbxweb.Kdbx.load, kdbxweb.Kdbx, [state.files[index], credentialsFor(index)])
    .then(function (db) {
      const info = collect(db);
      render(info.rows);
      state.shown++;
      document.getElementById('status').textContent =
        VAULTS[index] + ' vault: ' + info.entries + ' entries, ' + info.noteChars +
        ' note characters, ' + Math.round(performance.now() - t0) + ' ms';
      state.busy = false;
      document.body.setAttribute('data-shown', String(state.shown));
    })
    .catch(function (err) {
      state.busy = false;
      document.getElementById('status').textContent = 'error: ' + (err && err.message || err);
    });
}

function init() {
  for (let i = 0; i < VAULTS.length; i++) {
    document.getElementById('open' + i).addEventListener('click', function () { openVault(i); });
  }
  let chain = Promise.resolve();
  VAULTS.forEach(function (name, i) {
    chain = chain.then(function () { return buildVault(i); })
      .then(function (buf) { state.files[i] = buf; });
  });
  chain.then(function () {
    document.getElementById('status').textContent = 'Vaults ready: ' +
      state.files.map(function (b) { return b.byteLength; }).join(', ') + ' bytes';
    document.body.dataset.ready = '1';
  }).catch(function (err) {
    document.getElementById('status').textContent = 'error: ' + (err && err.message || err);
  });
}

init();
