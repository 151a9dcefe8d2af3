/* Code viewer: a syntax-highlighting file viewer built on highlight.js (npm,
 * its unminified CommonJS core in lib/hljs-core.js and ES-module language
 * definitions in lib/languages/). An eval subject for zamcap's accuracy
 * experiment (tests/eval/README.md).
 *
 * The file list holds generated sources (a seeded generator: every load is
 * the same). Opening a file highlights it with its language, splits the
 * highlighted HTML into numbered lines (re-opening spans cut by a line
 * break) and lists its symbols; "Detect language" runs highlight.js's
 * auto-detection over every registered language on a snippet with no
 * extension; "Wrap lines" re-renders the open file.
 *
 * Background work, the same in every build: a status tick every 700 ms and
 * a fake asynchronous "recently opened" save after each file opened. */
import javascript from './lib/languages/javascript.js';
import python from './lib/languages/python.js';
import css from './lib/languages/css.js';
import sql from './lib/languages/sql.js';
import go from './lib/languages/go.js';
import xml from './lib/languages/xml.js';
import bash from './lib/languages/bash.js';
import json from './lib/languages/json.js';
import java from './lib/languages/java.js';
import rust from './lib/languages/rust.js';
import yaml from './lib/languages/yaml.js';

const hljs = window.module.exports;
const REPEAT = 7; /* template copies per file */
const WORDS = ['order', 'invoice', 'customer', 'ledger', 'parcel', 'route',
               'ticket', 'budget', 'report', 'session', 'account', 'batch'];

const TEMPLATES = {
  js: `// NAME service: loads, validates and caches NAME records
import { fetchJson } from './http.js';

const NAME_CACHE = new Map();
export class NAMEStore {
  constructor(endpoint, { ttl = 60_000 } = {}) {
    this.endpoint = endpoint;
    this.ttl = ttl; /* milliseconds */
  }
  async load(id) {
    const hit = NAME_CACHE.get(id);
    if (hit && Date.now() - hit.at < this.ttl) return hit.value;
    const value = await fetchJson(\`\${this.endpoint}/NAME/\${id}\`);
    NAME_CACHE.set(id, { at: Date.now(), value });
    return value;
  }
  validate(record) {
    const errors = [];
    if (!/^[A-Z]{2}-\\d{4}$/.test(record.code)) errors.push('bad code');
    for (const [key, amount] of Object.entries(record.lines ?? {}))
      if (amount < 0 || Number.isNaN(amount)) errors.push(\`line \${key}: \${amount}\`);
    return errors.length ? { ok: false, errors } : { ok: true };
  }
}
export function summarizeNAME(list) {
  return list.reduce((acc, r) => ({ count: acc.count + 1, total: acc.total + r.total }),
                     { count: 0, total: 0.0 });
}
`,
  py: `# NAME report: reads NAME rows and writes a summary
import csv
from dataclasses import dataclass, field
from typing import Iterable

@dataclass
class NAMERow:
    code: str
    amount: float = 0.0
    tags: list[str] = field(default_factory=list)

def read_NAME(path: str) -> Iterable[NAMERow]:
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if not row.get("code"):
                continue  # skip blank lines
            yield NAMERow(row["code"], float(row["amount"] or 0), row["tags"].split(";"))

def summarize_NAME(rows, *, limit=10):
    totals = {}
    for row in rows:
        totals[row.code] = totals.get(row.code, 0.0) + row.amount
    best = sorted(totals.items(), key=lambda kv: -kv[1])[:limit]
    return [f"{code}: {amount:.2f}" for code, amount in best]
`,
  sql: `-- NAME reporting views
CREATE TABLE IF NOT EXISTS NAME (
  id        BIGINT PRIMARY KEY,
  code      VARCHAR(16) NOT NULL UNIQUE,
  amount    NUMERIC(12, 2) DEFAULT 0,
  created   TIMESTAMP WITH TIME ZONE DEFAULT now()
);
CREATE INDEX NAME_created_idx ON NAME (created DESC);
SELECT n.code, SUM(n.amount) AS total, COUNT(*) AS lines
  FROM NAME n
  LEFT JOIN customer c ON c.id = n.id
 WHERE n.created > now() - INTERVAL '30 days' AND n.amount <> 0
 GROUP BY n.code
HAVING SUM(n.amount) > 100
 ORDER BY total DESC
 LIMIT 25;
`,
  go: `// Package NAME serves NAME records over HTTP.
package NAME

import (
	"encoding/json"
	"net/http"
	"strconv"
)

type NAMERecord struct {
	ID     int64   \`json:"id"\`
	Code   string  \`json:"code"\`
	Amount float64 \`json:"amount"\`
}

func HandleNAME(store map[int64]NAMERecord) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
		if err != nil {
			http.Error(w, "bad id", http.StatusBadRequest)
			return
		}
		rec, ok := store[id]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(rec)
	}
}
`,
  css: `/* NAME panel */
.NAME-panel { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); }
.NAME-panel > header h2::before { content: "\\2022"; color: var(--accent, #c33); }
@media (max-width: 640px) {
  .NAME-panel { grid-template-columns: 1fr; padding: 0.5em 1em !important; }
}
.NAME-panel a:hover, .NAME-panel a:focus-visible { text-decoration: underline dotted; }
`,
};

const UNKNOWN_SNIPPET = `fn parse_NAME(input: &str) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for (i, part) in input.split(',').enumerate() {
        match part.trim().parse::<u32>() {
            Ok(n) if n > 0 => out.push(n),
            Ok(_) => return Err(format!("zero at {}", i)),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(out)
}
`;

const FILES = [
  {name: 'src/orders.js', template: 'js', language: 'javascript'},
  {name: 'tools/report.py', template: 'py', language: 'python'},
  {name: 'db/views.sql', template: 'sql', language: 'sql'},
  {name: 'cmd/serve.go', template: 'go', language: 'go'},
  {name: 'web/panels.css', template: 'css', language: 'css'},
];

const state = {open: null, files: new Map(), recent: [], ticks: 0, lines: []};

/* mulberry32: the same sequence on every load. */
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

function expandTemplate(template, rand) {
  const parts = [];
  for (let i = 0; i < REPEAT; i++) {
    const word = WORDS[Math.floor(rand() * WORDS.length)] + i;
    parts.push(template.split('NAME').join(word));
  }
  return parts.join('\n');
}

function generateSources() {
  const rand = seededRandom(4242);
  for (const file of FILES)
    state.files.set(file.name, {...file, code: expandTemplate(TEMPLATES[file.template], rand)});
  state.files.set('snippet', {name: 'snippet', language: null,
                              code: expandTemplate(UNKNOWN_SNIPPET, rand)});
}

/* ---- highlighting ---- */

function highlightCode(code, language) {
  return hljs.highlight(code, {language: language, ignoreIllegals: true});
}

/* Splits highlighted HTML at line breaks; a span open across a break is
 * closed at the end of the line and opened again on the next one. */
function splitHighlightedLines(html) {
  const lines = [];
  const open = [];
  let current = '';
  const tagPattern = /<span class="[^"]*">|<\/span>|\n/g;
  let last = 0, match;
  while ((match = tagPattern.exec(html)) !== null) {
    current += html.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else if (match[0] === '</span>') {
      open.pop();
      current += match[0];
    } else {
      open.push(match[0]);
      current += match[0];
    }
  }
  lines.push(current + html.slice(last));
  return lines;
}

function renderLines(lines) {
  const rows = [];
  for (let i = 0; i < lines.length; i++)
    rows.push('<tr><td class="n">' + (i + 1) + '</td><td class="l">' + lines[i] + '</td></tr>');
  document.getElementById('code').innerHTML = rows.join('');
}

function collectSymbols(html) {
  const symbols = new Set();
  const titlePattern = /<span class="hljs-title[^"]*">([^<]+)<\/span>/g;
  let match;
  while ((match = titlePattern.exec(html)) !== null) symbols.add(match[1]);
  return [...symbols].sort();
}

function renderSymbols(symbols) {
  const items = symbols.slice(0, 40).map(function symbolItem(name) {
    const li = document.createElement('li');
    li.textContent = name;
    return li;
  });
  document.getElementById('symbols').replaceChildren(...items);
}

function showFile(file) {
  const result = highlightCode(file.code, file.language);
  state.lines = splitHighlightedLines(result.value);
  renderLines(state.lines);
  renderSymbols(collectSymbols(result.value));
  document.getElementById('file-name').textContent = file.name + ' (' + file.language + ')';
  document.getElementById('file-name').dataset.file = file.name;
}

function markOpenItem(name) {
  for (const li of document.querySelectorAll('#files li'))
    li.classList.toggle('open', li.dataset.file === name);
}

/* ---- auto-detection ---- */

function describeGuess(result) {
  const parts = [result.language + ' (relevance ' + result.relevance + ')'];
  if (result.secondBest)
    parts.push('then ' + result.secondBest.language + ' (' + result.secondBest.relevance + ')');
  return parts.join(', ');
}

function detectLanguage(code) {
  return hljs.highlightAuto(code);
}

function onDetectClick() {
  const file = state.files.get('snippet');
  const result = detectLanguage(file.code);
  file.language = result.language;
  const guess = document.getElementById('guess');
  guess.textContent = describeGuess(result);
  guess.dataset.language = result.language || 'none';
  showFile(file);
  markOpenItem('snippet');
}

/* ---- event handlers ---- */

function onFileClick(event) {
  const li = event.target.closest('li');
  if (!li) return;
  const file = state.files.get(li.dataset.file);
  if (!file.language) return onDetectClick();
  state.open = file.name;
  showFile(file);
  markOpenItem(file.name);
  rememberRecent(file.name);
}

function onWrapChange(event) {
  document.body.classList.toggle('wrap', event.target.checked);
  if (state.open) showFile(state.files.get(state.open));
  document.getElementById('status').dataset.wrap = event.target.checked ? 'on' : 'off';
}

/* ---- noise: status tick and a fake asynchronous save ---- */

function statusTick() {
  state.ticks++;
  let chars = 0;
  for (const line of state.lines) chars += line.length;
  document.getElementById('status').textContent = state.lines.length + ' lines, ' + chars + ' chars';
}

function storeRecent(list) { state.recent = list; }

function rememberRecent(name) {
  Promise.resolve([name, ...state.recent].slice(0, 5)).then(storeRecent);
  new Promise(function waitForServer(resolve) {
    setTimeout(resolve, Date.now() % 5, name);
  }).then(function onRecentSaved(saved) { document.body.dataset.recent = saved; });
}

/* ---- start ---- */

function renderFileList() {
  const items = [];
  for (const name of state.files.keys()) {
    const li = document.createElement('li');
    li.dataset.file = name;
    li.textContent = name;
    items.push(li);
  }
  document.getElementById('files').replaceChildren(...items);
}

function startApp() {
  for (const [name, definition] of Object.entries({javascript, python, css, sql, go, xml,
                                                     bash, json, java, rust, yaml}))
    hljs.registerLanguage(name, definition);
  generateSources();
  renderFileList();
  document.getElementById('files').addEventListener('click', onFileClick);
  document.getElementById('detect').addEventListener('click', onDetectClick);
  document.getElementById('opt-wrap').addEventListener('change', onWrapChange);
  document.getElementById('status').textContent = 'ready';
  setInterval(statusTick, 700);
}

startApp();
