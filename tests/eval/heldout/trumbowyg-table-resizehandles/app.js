/* Price table editor: a Trumbowyg editor (table plugin loaded) holding one
 * seeded price table. Each "Type ... prices" button types a fixed, seeded run
 * of digits into the table cells, one keystroke at a time: the digit is added
 * to a cell's text and a keyup is dispatched on the editor, which is how
 * Trumbowyg learns of typing (its keyup handler tidies the markup and fires
 * "tbwchange"). The same text ends up in the table with either build.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const ROWS = 4;          /* table rows */
const COLS = 4;          /* table columns */
const KEYS = 12;         /* keystrokes per click */
const SEASONS = ['spring', 'summer', 'autumn'];

const state = {t: null, shown: 0};

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

function tableHtml() {
  const rand = seededRandom(4242);
  let html = '<table><tbody>';
  for (let r = 0; r < ROWS; r++) {
    html += '<tr>';
    for (let c = 0; c < COLS; c++) {
      html += '<td>' + (c === 0 ? 'item ' + (r + 1) : String(10 + Math.floor(rand() * 90))) + '</td>';
    }
    html += '</tr>';
  }
  return html + '</tbody></table><p>Prices in euros.</p>';
}

function putCaretAtEnd(cell) {
  const range = document.createRange();
  range.selectNodeContents(cell);
  range.collapse(false);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
}

function typeKey(cell, digit) {
  cell.appendChild(document.createTextNode(String(digit)));
  cell.normalize();
  putCaretAtEnd(cell);
  const ev = jQuery.Event('keyup', {which: 48 + digit, keyCode: 48 + digit});
  state.t.$ed.trigger(ev);
}

function checksum(text) {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

function typeSeason(index) {
  const rand = seededRandom(9100 + index * 31);
  const cells = state.t.$ed[0].querySelectorAll('td');
  for (let k = 0; k < KEYS; k++) {
    const row = Math.floor(rand() * ROWS);
    const col = 1 + Math.floor(rand() * (COLS - 1));
    typeKey(cells[row * COLS + col], Math.floor(rand() * 10));
  }
  const text = state.t.$ed[0].textContent;
  state.shown += 1;
  document.getElementById('status').textContent =
    SEASONS[index] + ': ' + cells.length + ' cells, ' + text.length + ' chars, #' + checksum(text);
  document.body.dataset.shown = String(state.shown);
}

function init() {
  jQuery.trumbowyg.svgPath = false;
  jQuery('#editor').trumbowyg({
    svgPath: false,
    btns: [['table']],
    plugins: {table: {}}
  });
  state.t = jQuery('#editor').data('trumbowyg');
  jQuery('#editor').trumbowyg('html', tableHtml());
  SEASONS.forEach(function (name, i) {
    document.getElementById('type' + i).addEventListener('click', function () { typeSeason(i); });
  });
  /* the table plugin binds its change handler in a setTimeout after init */
  setTimeout(function () {
    state.t.$c.trigger('tbwchange');
    document.body.dataset.ready = '1';
  }, 200);
}

init();
