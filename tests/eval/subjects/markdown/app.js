/* Notes: a Markdown editor with a live preview, built on marked (npm,
 * loaded unminified from lib/marked.js). An eval subject for zamcap's
 * accuracy experiment (tests/eval/README.md).
 *
 * Nothing is rendered on load. "Load the handbook" fills the editor with a
 * generated handbook (a seeded generator: every load is the same) and
 * renders it; "Insert release table" appends a GFM table; typing in the
 * title field retitles the document and re-renders it on every keystroke;
 * "Line breaks" switches marked's `breaks` option. Each render runs marked's
 * lexer and parser with a custom renderer (heading ids, link titles, code
 * block labels), then the app builds an outline and statistics.
 *
 * Background work, the same in every build: an autosave tick every 600 ms
 * (a checksum of the text) and a fake asynchronous save after each render. */
'use strict';

const SECTION_COUNT = 8;
const TOPICS = ['onboarding', 'deployments', 'code review', 'incidents',
                'on-call', 'releases', 'testing', 'documentation', 'security',
                'performance', 'accessibility', 'observability'];
const VERBS = ['configure', 'review', 'measure', 'document', 'rotate',
               'archive', 'escalate', 'verify', 'automate', 'schedule'];
const NOUNS = ['the staging cluster', 'the release notes', 'the alert rules',
               'the dashboards', 'the test fixtures', 'the access tokens',
               'the feature flags', 'the runbooks', 'the error budget',
               'the build cache', 'the dependency list', 'the style guide'];
const LANGS = ['js', 'python', 'bash', 'yaml', 'sql'];

const state = {source: '', title: 'Team handbook', breaks: false,
               headings: [], renders: 0, saved: '', ticks: 0};
let markdown = null;

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

function pick(rand, list) { return list[Math.floor(rand() * list.length)]; }

/* ---- the generated handbook ---- */

function makeSentence(rand) {
  const verb = pick(rand, VERBS), noun = pick(rand, NOUNS);
  const style = Math.floor(rand() * 5);
  if (style === 0) return 'Always **' + verb + '** ' + noun + ' before a release.';
  if (style === 1) return 'Ask the owner to ' + verb + ' `' + noun.split(' ').pop() +
                          '` and link it from [the tracker](https://example.org/' +
                          noun.split(' ').pop() + ').';
  if (style === 2) return 'We _rarely_ ' + verb + ' ' + noun + ', but when we do it is logged.';
  if (style === 3) return 'See ~~the old page~~ the wiki on how to ' + verb + ' ' + noun + '.';
  return 'Teams ' + verb + ' ' + noun + ' every sprint, see <https://example.org/faq>.';
}

function makeParagraph(rand, sentences) {
  const out = [];
  for (let i = 0; i < sentences; i++) out.push(makeSentence(rand));
  return out.join(' ');
}

function makeChecklist(rand, items) {
  const lines = [];
  for (let i = 0; i < items; i++) {
    lines.push((i % 2 ? '- [x] ' : '- [ ] ') + pick(rand, VERBS) + ' ' + pick(rand, NOUNS));
    if (i % 3 === 0) lines.push('  1. then ' + pick(rand, VERBS) + ' ' + pick(rand, NOUNS),
                                '  2. and *note* the result');
  }
  return lines.join('\n');
}

function makeCodeBlock(rand, index) {
  const lang = LANGS[index % LANGS.length];
  const lines = ['```' + lang];
  for (let i = 0; i < 6; i++)
    lines.push('step_' + i + ' = ' + pick(rand, VERBS) + '("' + pick(rand, NOUNS) + '", ' + i + ')');
  lines.push('```');
  return lines.join('\n');
}

function makeSection(rand, index) {
  const topic = TOPICS[index % TOPICS.length];
  const parts = ['## ' + (index + 1) + '. ' + topic[0].toUpperCase() + topic.slice(1),
                 makeParagraph(rand, 4), '### Checklist', makeChecklist(rand, 6),
                 makeParagraph(rand, 3), makeCodeBlock(rand, index)];
  if (index % 3 === 0)
    parts.push('> **Note:** ' + makeParagraph(rand, 2) + '\n> \n> ' + makeSentence(rand));
  parts.push('### Questions', makeParagraph(rand, 3));
  return parts.join('\n\n');
}

function generateHandbook() {
  const rand = seededRandom(7031);
  const sections = ['# ' + state.title, makeParagraph(rand, 3)];
  for (let i = 0; i < SECTION_COUNT; i++) sections.push(makeSection(rand, i));
  return sections.join('\n\n') + '\n';
}

function buildReleaseTable(rows) {
  const rand = seededRandom(99);
  const lines = ['## Releases', '', '| Version | Date | Owner | Notes |',
                 '|:--------|-----:|:-----:|-------|'];
  for (let i = 0; i < rows; i++)
    lines.push('| v1.' + i + '.0 | 2024-' + String(1 + (i % 12)).padStart(2, '0') +
               '-' + String(1 + (i % 28)).padStart(2, '0') + ' | @' +
               pick(rand, ['ana', 'bo', 'chen', 'dee', 'eli']) + ' | ' +
               pick(rand, VERBS) + ' *' + pick(rand, NOUNS) + '* |');
  return lines.join('\n');
}

/* ---- marked, with the app's renderer ---- */

function slugify(text) {
  return text.toLowerCase().replace(/<[^>]+>/g, '').replace(/[^a-z0-9]+/g, '-')
             .replace(/^-|-$/g, '');
}

function collectHeading(token) {
  if (token.type === 'heading')
    state.headings.push({depth: token.depth, text: token.text, id: slugify(token.text)});
}

function createMarkdown() {
  const instance = new marked.Marked({gfm: true, breaks: state.breaks});
  instance.use({
    walkTokens: collectHeading,
    renderer: {
      heading(token) {
        const inner = this.parser.parseInline(token.tokens);
        const extra = token.depth === 1 ? ' data-title="' + token.text + '"' : '';
        return '<h' + token.depth + ' id="' + slugify(token.text) + '"' + extra + '>' +
               inner + '</h' + token.depth + '>\n';
      },
      link(token) {
        const inner = this.parser.parseInline(token.tokens);
        const host = token.href.replace(/^https?:\/\//, '').split('/')[0];
        return '<a href="' + token.href + '" title="' + host + '">' + inner + '</a>';
      },
      code(token) {
        return '<pre class="code" data-lang="' + (token.lang || 'text') + '"><code>' +
               escapeHtml(token.text) + '</code></pre>\n';
      },
      table(token) {
        const head = token.header.map(cell => '<th>' + this.parser.parseInline(cell.tokens) + '</th>');
        const body = token.rows.map(row => '<tr>' + row.map(
            cell => '<td>' + this.parser.parseInline(cell.tokens) + '</td>').join('') + '</tr>');
        return '<table class="releases"><thead><tr>' + head.join('') + '</tr></thead><tbody>' +
               body.join('\n') + '</tbody></table>\n';
      },
    },
  });
  return instance;
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function convertMarkdown(source) {
  state.headings = [];
  return markdown.parse(source);
}

/* ---- rendering ---- */

function buildOutline() {
  const nav = document.getElementById('outline');
  const links = [];
  for (const heading of state.headings) {
    const a = document.createElement('a');
    a.href = '#' + heading.id;
    a.textContent = heading.text;
    a.style.paddingLeft = (heading.depth - 1) * 10 + 'px';
    links.push(a);
  }
  nav.replaceChildren(...links);
}

function countWords(source) {
  let words = 0;
  for (const line of source.split('\n'))
    if (!line.startsWith('```')) words += line.split(/\s+/).filter(Boolean).length;
  return words;
}

function updateStats(source) {
  const words = countWords(source);
  document.getElementById('stats').textContent =
      words + ' words, ' + state.headings.length + ' headings, about ' +
      Math.max(1, Math.round(words / 230)) + ' min to read, render #' + state.renders;
}

function applyPreview(html) {
  const preview = document.getElementById('preview');
  preview.innerHTML = html;
  preview.dataset.breaks = state.breaks ? 'on' : 'off';
}

function renderPreview(reason) {
  state.renders++;
  const html = convertMarkdown(state.source);
  applyPreview(html);
  buildOutline();
  updateStats(state.source);
  document.getElementById('status').textContent = reason;
  saveDraft(reason);
}

function setSource(text) {
  state.source = text;
  document.getElementById('source').value = text;
}

/* ---- event handlers ---- */

function onLoadGuideClick() {
  setSource(generateHandbook());
  renderPreview('handbook loaded');
}

function onInsertTableClick() {
  setSource(state.source + '\n' + buildReleaseTable(80) + '\n');
  renderPreview('table inserted');
}

function retitle(text, title) {
  const newline = text.indexOf('\n');
  return '# ' + title + (newline < 0 ? '' : text.slice(newline));
}

function onTitleInput(event) {
  state.title = event.target.value || 'Untitled';
  setSource(retitle(state.source, state.title));
  renderPreview('retitled');
}

function onBreaksChange(event) {
  state.breaks = event.target.checked;
  markdown = createMarkdown();
  renderPreview('line breaks ' + (state.breaks ? 'on' : 'off'));
}

function onSourceInput(event) {
  state.source = event.target.value;
  renderPreview('edited');
}

/* ---- noise: autosave tick and a fake asynchronous save ---- */

function checksum(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 7) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16);
}

function autosaveTick() {
  state.ticks++;
  document.getElementById('status').title = 'checksum ' + checksum(state.source);
}

function storeDraft(text) { state.saved = text; }

function onDraftStored(reason) {
  document.body.dataset.saved = reason + ' (' + Math.round(state.saved.length / 1024) + ' KB)';
}

function saveDraft(reason) {
  Promise.resolve(state.source).then(storeDraft);
  new Promise(function waitForServer(resolve) {
    setTimeout(resolve, Date.now() % 5, reason);
  }).then(onDraftStored);
}

/* ---- start ---- */

function startApp() {
  markdown = createMarkdown();
  document.getElementById('load-guide').addEventListener('click', onLoadGuideClick);
  document.getElementById('insert-table').addEventListener('click', onInsertTableClick);
  document.getElementById('doc-title').addEventListener('input', onTitleInput);
  document.getElementById('opt-breaks').addEventListener('change', onBreaksChange);
  document.getElementById('source').addEventListener('input', onSourceInput);
  setInterval(autosaveTick, 600);
}

startApp();
