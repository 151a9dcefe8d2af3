/* Glossary review: a CodeMirror editor holding a bilingual (Hebrew/English)
 * glossary, one long line per entry group (seeded, the same on every load).
 * Each Place button loads one subject's glossary into the editor, takes a
 * reviewer's pins for it (seeded x/y points on the text) and maps every pin
 * to a text position with cm.coordsChar, then reports how many pins landed
 * on each line. A real regression for zamcap's accuracy experiment
 * (NOTE.md). */
'use strict';

const SETS = ['Legal', 'Medical', 'Travel'];
const LINES = 24;        /* glossary lines */
const WORDS = 520;       /* words per line */
const PINS = 90;         /* pins per set */

const HEBREW = ['שלום', 'חוזה', 'רופא', 'נסיעה', 'מילון', 'תרגום', 'עורך', 'דין',
  'בית', 'משפט', 'תרופה', 'מלון', 'כרטיס', 'דרכון', 'ספר', 'מונח'];
const ENGLISH = ['contract', 'clause', 'doctor', 'dosage', 'ticket', 'hotel',
  'passport', 'term', 'court', 'appeal', 'witness', 'fever', 'route', 'gate'];

const state = {cm: null, shown: 0};

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

function makeGlossary(index) {
  const rand = seededRandom(4691 + index * 7);
  const lines = [];
  for (let l = 0; l < LINES; l++) {
    const words = [];
    for (let w = 0; w < WORDS; w++) {
      /* runs of two or three Hebrew words, then an English term */
      const pick = w % 3 === 2 ? ENGLISH : HEBREW;
      words.push(pick[Math.floor(rand() * pick.length)]);
    }
    lines.push((l + 1) + '. ' + words.join(' '));
  }
  return lines.join('\n');
}

function makePins(index) {
  const rand = seededRandom(900 + index * 31);
  const lineHeight = state.cm.defaultTextHeight();
  const pins = [];
  for (let i = 0; i < PINS; i++) {
    const line = Math.floor(rand() * LINES);
    pins.push({
      left: 40 + Math.floor(rand() * 18000),
      top: Math.floor((line + 0.5) * lineHeight)
    });
  }
  return pins;
}

function placePins(index) {
  const t0 = performance.now();
  state.cm.setValue(makeGlossary(index));
  const pins = makePins(index);
  const perLine = new Array(LINES).fill(0);
  let placed = 0;
  for (let i = 0; i < pins.length; i++) {
    const pos = state.cm.coordsChar(pins[i], 'local');
    if (pos.line >= 0 && pos.line < LINES) { perLine[pos.line]++; placed++; }
  }
  state.shown++;
  let busiest = 0;
  for (let l = 1; l < LINES; l++) if (perLine[l] > perLine[busiest]) busiest = l;
  document.getElementById('status').textContent =
    SETS[index] + ': ' + placed + ' pins placed, busiest line ' + (busiest + 1) +
    ' (' + perLine[busiest] + '), ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  state.cm = CodeMirror(document.getElementById('editor'), {
    value: '',
    lineNumbers: true,
    lineWrapping: false,
    viewportMargin: Infinity
  });
  for (let i = 0; i < SETS.length; i++) {
    document.getElementById('pins' + i).addEventListener('click', function onPlace() { placePins(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
