/* Coffee module compiler: three CoffeeScript modules (seeded, the same on
 * every load), each a few dozen small classes, saved with Windows line
 * endings (CRLF), as an editor on Windows would hand them over. Each Compile
 * button compiles one module with CoffeeScript.compile and shows the start
 * of the JavaScript. A real regression for zamcap's accuracy experiment
 * (NOTE.md). */
'use strict';

const MODULES = ['Widgets', 'Models', 'Views'];
const CLASSES = 28;    /* classes per module */

const NOUNS = ['Panel', 'Badge', 'Chart', 'Table', 'Slider', 'Toggle', 'Card',
  'Menu', 'Tooltip', 'Avatar', 'Banner', 'Stepper', 'Picker', 'Gauge'];
const FIELDS = ['width', 'height', 'label', 'color', 'count', 'limit', 'offset',
  'title', 'value', 'margin'];

const state = {shown: 0};

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

function makeClass(rand, name, i) {
  const a = pick(rand, FIELDS), b = pick(rand, FIELDS);
  const k = 1 + Math.floor(rand() * 9);
  return [
    '# ' + name + ' ' + i + ': generated component',
    'class ' + name + i + ' extends Base',
    '  constructor: (@' + a + ', @' + b + 'Value = ' + k + ') ->',
    '    super()',
    '    @items = []',
    '  render: (ctx) ->',
    '    total = (x * ' + k + ' for x in [1..@' + b + 'Value] when x % 2 is 0)',
    '    ctx.draw "' + name.toLowerCase() + '-' + i + '", total, {w: @' + a + ', h: total.length}',
    '  update: (data) =>',
    '    @items.push item for item in data when item?.' + b,
    '    @emit "changed", @items.length',
    ''
  ].join('\r\n');
}

function makeModule(index) {
  const rand = seededRandom(7100 + index * 31);
  const parts = ['# Module ' + MODULES[index], 'Base = require "./base"', ''];
  for (let i = 0; i < CLASSES; i++) parts.push(makeClass(rand, pick(rand, NOUNS), i));
  return parts.join('\r\n');
}

function compileModule(index) {
  const t0 = performance.now();
  const source = makeModule(index);
  const js = CoffeeScript.compile(source, {bare: true});
  state.shown++;
  const lines = js.split('\n').length;
  document.getElementById('out').textContent = js.slice(0, 4000);
  document.getElementById('status').textContent =
    MODULES[index] + ': ' + source.length + ' chars of CoffeeScript -> ' + lines +
    ' lines, ' + js.length + ' chars of JavaScript, ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < MODULES.length; i++) {
    document.getElementById('compile' + i).addEventListener('click', function onCompile() { compileModule(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
