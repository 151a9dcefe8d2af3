/* Help centre: a site map whose sections are opened one at a time. "Next
 * section" lists the next section's articles (generated from a fixed seed,
 * the same on every load) as a jQuery UI menu, in a new column next to the
 * ones already open. A real regression for zamcap's accuracy experiment
 * (NOTE.md): jQuery UI 1.13.0 binds the widget's "remove" listener to each
 * item that gets a class separately, where 1.12.1 bound it once for the
 * whole set. */
'use strict';

const SECTIONS = ['Billing', 'Accounts', 'Shipping', 'Returns'];
const ARTICLES = 400;
const VERBS = ['How to change', 'Why can I not see', 'Setting up', 'Troubleshooting', 'Understanding',
               'Moving', 'Cancelling', 'Exporting'];
const NOUNS = ['an invoice', 'a payment method', 'the delivery address', 'a refund', 'two-factor sign-in',
               'a parcel label', 'the order history', 'a gift card', 'team members', 'a subscription'];

const state = {section: 0, articles: {}};

/* 32-bit xorshift-multiply generator with a fixed seed */
function makeXsm(seed) {
  let s = seed >>> 0;
  return function next() {
    s ^= s >>> 12; s ^= s << 25; s ^= s >>> 27;
    s >>>= 0;
    return (Math.imul(s, 0x2545F491) >>> 0) / 4294967296;
  };
}

function makeArticles(section, seed) {
  const rnd = makeXsm(seed);
  const list = [];
  for (let i = 0; i < ARTICLES; i++) {
    list.push(VERBS[Math.floor(rnd() * VERBS.length)] + ' ' + NOUNS[Math.floor(rnd() * NOUNS.length)] +
              ' (' + section + ' ' + (1000 + Math.floor(rnd() * 9000)) + ')');
  }
  return list;
}

function articlesFor(section, index) {
  if (!state.articles[section]) state.articles[section] = makeArticles(section, 7919 * (index + 3));
  return state.articles[section];
}

function sectionMarkup(section, titles) {
  let html = '<section><h3>' + section + '</h3><ul>';
  for (let i = 0; i < titles.length; i++) html += '<li><div>' + titles[i] + '</div></li>';
  return html + '</ul></section>';
}

function openSection(index) {
  const section = SECTIONS[index % SECTIONS.length];
  const column = $(sectionMarkup(section, articlesFor(section, index))).appendTo('#sections');
  column.find('ul').menu();
  return section;
}

function onNextClick() {
  const section = openSection(state.section);
  state.section++;
  document.getElementById('status').textContent = section + ': ' + ARTICLES + ' articles';
  document.body.dataset.section = String(state.section);
}

function main() {
  document.getElementById('next').addEventListener('click', onNextClick);
  document.body.dataset.ready = '1';
}

main();
