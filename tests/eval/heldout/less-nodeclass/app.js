/* Theme builder: a component library's stylesheet written in Less (seeded
 * component list, the same on every load); choosing a theme compiles the
 * whole stylesheet with that theme's variables in the browser
 * (less.render) and shows the start of the CSS. A held-out real
 * regression for zamcap's accuracy experiment
 * (tests/eval/heldout/less-nodeclass/NOTE.md): in Less 3.10 every node
 * class (Dimension, Keyword, Selector, ...) became an ES2015 class whose
 * constructor runs the base Node constructor, which defines two accessor
 * properties on every new node; 3.9's node constructors did not call it. */
'use strict';

const THEMES = {
  Ocean: {accent: '#3a7bd5', base: '4px', radius: '3px'},
  Forest: {accent: '#2e8b57', base: '5px', radius: '6px'},
  Ember: {accent: '#d5573a', base: '3px', radius: '2px'}
};
const COMPONENTS = 260;
const SHOWN = 3000;
const KINDS = ['card', 'panel', 'badge', 'toast', 'chip', 'tile'];

const state = {source: '', opened: 0};

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

function componentRules(rand, i) {
  const kind = KINDS[Math.floor(rand() * KINDS.length)];
  const step = 1 + Math.floor(rand() * 5);
  const shade = Math.floor(rand() * 25);
  return ['.' + kind + '-' + i + ' { .pad(' + step + '); border-radius: @radius;',
          '  color: darken(@accent, ' + shade + '%); border: 1px solid lighten(@accent, ' +
          (shade + 5) + '%);',
          '  .title { font-size: (12px + ' + (i % 7) + '); &:hover { color: fade(@accent, 50%); } }',
          '  .body > p + p { line-height: 1.4; width: percentage(0.' + (i % 10) + '); } }'].join('\n');
}

function makeSource() {
  const rand = seededRandom(1337);
  const lines = ['.pad(@n) { padding: (@base * @n) (@base * @n / 2); margin: 0 (@base * 2); }'];
  for (let i = 0; i < COMPONENTS; i++) lines.push(componentRules(rand, i));
  return lines.join('\n');
}

function themeHeader(theme) {
  return '@accent: ' + theme.accent + ';\n@base: ' + theme.base + ';\n@radius: ' + theme.radius + ';\n';
}

function showCss(name, css) {
  document.getElementById('css').textContent = css.slice(0, SHOWN);
  document.getElementById('status').textContent = name + ': ' + css.length + ' characters of CSS';
  state.opened++;
  document.body.dataset.opened = String(state.opened);
}

function compileTheme(name) {
  less.render(themeHeader(THEMES[name]) + state.source, {}, function onCompiled(err, out) {
    showCss(name, err ? 'error: ' + err.message : out.css);
  });
}

function onThemeClick(event) {
  const name = event.target.dataset.theme;
  if (name) compileTheme(name);
}

function main() {
  state.source = makeSource();
  const nav = document.getElementById('themes');
  Object.keys(THEMES).forEach(function addTheme(name) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.theme = name;
    nav.appendChild(b);
  });
  nav.addEventListener('click', onThemeClick);
  document.body.dataset.ready = '1';
}

main();
