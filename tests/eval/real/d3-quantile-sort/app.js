/* District atlas: survey indicators for a few thousand districts
 * (generated from a fixed seed, the same on every load). Each "Next survey
 * year" shows that year's indicators, every one as a small grid map
 * coloured in quantile classes: a d3.scaleQuantile per indicator, its
 * domain the year's values and its range a nine-colour palette. A real
 * regression for zamcap's accuracy experiment
 * (tests/eval/real/d3-quantile-sort/NOTE.md): with d3-array 2.3.0,
 * d3.quantile copies and sorts its input on every call, and
 * scaleQuantile calls it once per class boundary; 2.2.0's quantile read
 * the sorted domain directly. */
'use strict';

const DISTRICTS = 3000;
const INDICATORS = ['income', 'rent', 'commute', 'age', 'households', 'broadband',
                    'turnout', 'green space', 'noise', 'clinics', 'schools', 'transit'];
const YEARS = [2019, 2020, 2021];
const PALETTE = ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6',
                 '#2171b5', '#08519c', '#08306b'];
const SHOWN = 400;

const state = {year: 0, data: null};

/* SplitMix-style 32-bit generator, fixed seed */
function makeSplit(seed) {
  let x = seed >>> 0;
  return function next() {
    x = (x + 0x7F4A7C15) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 15), 0x2C1B3C6D) >>> 0;
    z = Math.imul(z ^ (z >>> 12), 0x297A2D39) >>> 0;
    return ((z ^ (z >>> 15)) >>> 0) / 4294967296;
  };
}

function makeSurvey() {
  const rnd = makeSplit(8675309);
  const data = {};
  for (const year of YEARS) {
    data[year] = {};
    for (const name of INDICATORS) {
      const values = new Array(DISTRICTS);
      for (let i = 0; i < DISTRICTS; i++) values[i] = Math.round(Math.exp(rnd() * 6) * 10) / 10;
      data[year][name] = values;
    }
  }
  return data;
}

function classScale(values) {
  return d3.scaleQuantile().domain(values).range(PALETTE);
}

function renderIndicator(name, values) {
  const scale = classScale(values);
  let cells = '';
  for (let i = 0; i < SHOWN; i++) cells += '<span style="background:' + scale(values[i]) + '"></span>';
  const q = scale.quantiles();
  return '<h3>' + name + ' (median class from ' + q[3].toFixed(1) + ' to ' + q[4].toFixed(1) +
         ')</h3><div class="grid">' + cells + '</div>';
}

function onNextClick() {
  const year = YEARS[state.year % YEARS.length];
  const maps = INDICATORS.map(function indicatorMap(name) {
    return renderIndicator(name, state.data[year][name]);
  });
  document.getElementById('maps').innerHTML = maps.join('');
  state.year++;
  document.getElementById('status').textContent = 'survey ' + year;
  document.body.dataset.year = String(state.year);
}

function main() {
  state.data = makeSurvey();
  document.getElementById('next').addEventListener('click', onNextClick);
  document.body.dataset.ready = '1';
}

main();
