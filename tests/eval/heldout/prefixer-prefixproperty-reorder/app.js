/* Theme stylesheet builder: each Build button makes a seeded set of component
 * style objects (layout, columns, animation, transform, grid and mask
 * properties mixed with plain ones), runs every object through
 * inline-style-prefixer's prefixAll, and shows a checksum and a few rules.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const THEMES = ['Light', 'Dark', 'Print'];
const COMPONENTS = 1500;   /* style objects per theme */
const PROPS = 44;          /* properties per style object */

/* Properties that the prefix map lists (they get vendor copies). */
const PREFIXED = ['flex', 'flexBasis', 'flexDirection', 'flexGrow', 'flexShrink',
  'flexWrap', 'alignContent', 'alignItems', 'alignSelf', 'justifyContent', 'order',
  'transformOrigin', 'backfaceVisibility', 'perspective', 'transformStyle',
  'animationDelay', 'animationDirection', 'animationFillMode', 'animationDuration',
  'animationIterationCount', 'animationName', 'animationPlayState',
  'animationTimingFunction', 'columnCount', 'columnGap', 'columnRule',
  'columnRuleColor', 'columnRuleStyle', 'columnRuleWidth', 'columnSpan',
  'columnWidth', 'userSelect', 'appearance', 'hyphens', 'textSizeAdjust',
  'fontKerning', 'maskSize', 'maskRepeat', 'maskOrigin', 'maskClip',
  'gridRowGap', 'gridColumnGap', 'gridAutoRows', 'gridAutoColumns',
  'transitionDelay', 'transitionDuration', 'breakInside', 'tabSize'];
/* Plain properties (no vendor copies). */
const PLAIN = ['color', 'background', 'margin', 'padding', 'border', 'width',
  'height', 'fontSize', 'lineHeight', 'letterSpacing', 'opacity', 'outline',
  'top', 'left', 'right', 'bottom', 'zIndex', 'overflow', 'textAlign', 'visibility'];
const WORDS = ['auto', '1', '2', 'none', 'normal', '10px', '4px', 'solid',
  'center', 'wrap', 'row', 'column', 'ease', '200ms', '0.5s', 'hidden', 'red',
  'inherit', 'initial', 'space-between', 'stretch', '3', 'manual', '1em'];

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

function makeStyle(rand) {
  const style = {};
  let n = 0;
  while (n < PROPS) {
    const fromPrefixed = rand() < 0.7;
    const list = fromPrefixed ? PREFIXED : PLAIN;
    const key = list[Math.floor(rand() * list.length)];
    if (style.hasOwnProperty(key)) continue;
    style[key] = WORDS[Math.floor(rand() * WORDS.length)];
    n++;
  }
  return style;
}

function makeTheme(index) {
  const rand = seededRandom(9100 + index * 31);
  const styles = [];
  for (let i = 0; i < COMPONENTS; i++) styles.push(makeStyle(rand));
  return styles;
}

/* Order-independent digest of a prefixed style object. */
function digest(style) {
  const keys = Object.keys(style).sort();
  let h = 0;
  for (let i = 0; i < keys.length; i++) {
    const s = keys[i] + ':' + style[keys[i]];
    for (let j = 0; j < s.length; j++) h = (Math.imul(h, 31) + s.charCodeAt(j)) | 0;
  }
  return {keys: keys.length, hash: h};
}

function toCss(name, style) {
  const keys = Object.keys(style).sort();
  return '.' + name + ' {\n' + keys.map(function line(k) {
    return '  ' + k.replace(/[A-Z]/g, function dash(c) { return '-' + c.toLowerCase(); }) +
      ': ' + style[k] + ';';
  }).join('\n') + '\n}';
}

function buildTheme(index) {
  const t0 = performance.now();
  const styles = makeTheme(index);
  let declarations = 0;
  let checksum = 0;
  const sample = [];
  for (let i = 0; i < styles.length; i++) {
    const prefixed = InlineStylePrefixAll(styles[i]);
    const d = digest(prefixed);
    declarations += d.keys;
    checksum = (checksum + d.hash) | 0;
    if (i < 3) sample.push(toCss(THEMES[index].toLowerCase() + '-c' + i, prefixed));
  }
  state.shown++;
  document.getElementById('sample').textContent = sample.join('\n\n');
  document.getElementById('status').textContent =
    THEMES[index] + ': ' + styles.length + ' rules, ' + declarations +
    ' declarations, checksum ' + checksum + ', ' + Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  for (let i = 0; i < THEMES.length; i++) {
    document.getElementById('build' + i).addEventListener('click', function onBuild() { buildTheme(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
