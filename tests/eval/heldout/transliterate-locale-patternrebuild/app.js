/* Shop slug builder: each button generates a seeded list of German product
 * titles for one branch, transliterates every title with
 * @sindresorhus/transliterate (locale 'de': ä -> ae, ß -> ss, ...) and turns it
 * into a URL slug. The page prints the number of slugs, a checksum and the
 * first slugs. A real regression for zamcap's accuracy experiment (NOTE.md). */
import transliterate from './lib/transliterate/index.js';

const BRANCHES = [
  {name: 'Berlin', locale: 'de', count: 64, seed: 11},
  {name: 'Wien', locale: 'de-AT', count: 80, seed: 23},
  {name: 'Zürich', locale: 'de-CH', count: 96, seed: 37},
];

const ADJECTIVES = ['Große', 'Kleine', 'Schöne', 'Grüne', 'Süße', 'Frische',
  'Würzige', 'Knusprige', 'Härtere', 'Weiße', 'Blaue', 'Müde'];
const NOUNS = ['Brötchen', 'Käsetorte', 'Bücherregal', 'Gießkanne', 'Füllfederhalter',
  'Schlüsselanhänger', 'Türklinke', 'Fußmatte', 'Straßenkarte', 'Kühlschrank',
  'Löffel', 'Mütze', 'Äpfel', 'Öllampe', 'Übertopf'];
const MAKERS = ['Müller & Söhne', 'Bäckerei Größl', 'Weiß GmbH', 'Jürgen Köhler',
  'Ærø Design', 'Crème Brûlée Co.', 'Señor Núñez', 'Łódź Werk'];

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

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function makeTitles(branch) {
  const rand = seededRandom(branch.seed);
  const titles = [];
  for (let i = 0; i < branch.count; i++) {
    const size = 10 + Math.floor(rand() * 90);
    titles.push(`${pick(rand, ADJECTIVES)} ${pick(rand, NOUNS)} – ${pick(rand, MAKERS)}, ${size} cm`);
  }
  return titles;
}

function slugify(title, locale) {
  const ascii = transliterate(title, {locale});
  return ascii.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

function checksum(strings) {
  let h = 2166136261 >>> 0;
  for (const s of strings) {
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 16777619) >>> 0;
    }
  }
  return h.toString(16);
}

function buildSlugs(index) {
  const branch = BRANCHES[index];
  const titles = makeTitles(branch);
  const slugs = titles.map(title => slugify(title, branch.locale));
  return {branch, titles, slugs};
}

function showSlugs(result) {
  const lines = [`${result.branch.name}: ${result.slugs.length} slugs, checksum ${checksum(result.slugs)}`];
  for (let i = 0; i < 6; i++) lines.push(`${result.titles[i]}  ->  /${result.slugs[i]}`);
  document.getElementById('out').textContent = lines.join('\n');
  document.getElementById('status').textContent = `${result.branch.name} done`;
}

function onBuildClick(index) {
  showSlugs(buildSlugs(index));
  state.shown += 1;
  document.body.dataset.shown = String(state.shown);
}

function init() {
  BRANCHES.forEach((branch, index) => {
    document.getElementById(`slugs${index}`).addEventListener('click', () => onBuildClick(index));
  });
  document.body.dataset.ready = '1';
}

init();
