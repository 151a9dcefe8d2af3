/* Delivery town picker: one Select2 single select whose towns depend on the
 * region. Each Load button swaps the town list the way a form library does
 * when it refreshes a dependent field: it removes the old <option>s with
 * jQuery, appends the region's towns one by one, then picks a town and
 * triggers 'change' so Select2 shows it. The towns are seeded, the same on
 * every load; the home region's towns are in the list when the page opens.
 * A real regression for zamcap's accuracy experiment (NOTE.md). */
'use strict';

const REGIONS = ['Home', 'North', 'Coast', 'Valley']; /* Home is loaded at start */
const TOWNS = Number(new URLSearchParams(location.search).get('towns')) || 360; /* towns per region */

const START = ['Ash', 'Brook', 'Cold', 'Dun', 'East', 'Fair', 'Glen', 'High',
  'Kings', 'Long', 'Mill', 'New', 'Oak', 'Red', 'Stone', 'West'];
const END = ['ford', 'ton', 'by', 'ham', 'wick', 'field', 'bridge', 'stead',
  'mouth', 'ley', 'well', 'worth'];

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

function makeTowns(index) {
  const rand = seededRandom(7100 + index * 31);
  const towns = [];
  for (let i = 0; i < TOWNS; i++) {
    const name = START[Math.floor(rand() * START.length)] +
      END[Math.floor(rand() * END.length)];
    towns.push({id: REGIONS[index].charAt(0) + '-' + i, text: name + ' ' + (i + 1)});
  }
  return towns;
}

function fillTowns(index) {
  const towns = makeTowns(index);
  const $town = $('#town');
  const select = $town[0];
  $town.find('option').remove();
  for (let i = 0; i < towns.length; i++) {
    select.appendChild(new Option(towns[i].text, towns[i].id));
  }
  const pick = towns[Math.floor(towns.length * (0.3 + 0.2 * index))];
  $town.val(pick.id).trigger('change');
  return select.options.length;
}

function loadRegion(index) {
  const t0 = performance.now();
  const count = fillTowns(index);
  const $town = $('#town');
  state.shown++;
  const shown = $town.next('.select2').find('.select2-selection__rendered').text();
  document.getElementById('status').textContent =
    REGIONS[index] + ': ' + count + ' towns, showing "' + shown + '", ' +
    Math.round(performance.now() - t0) + ' ms';
  document.body.setAttribute('data-shown', String(state.shown));
}

function setup() {
  $('#town').select2({width: '320px'});
  fillTowns(0);
  for (let i = 1; i < REGIONS.length; i++) {
    document.getElementById('region' + (i - 1)).addEventListener('click', function onLoad() { loadRegion(i); });
  }
  document.body.setAttribute('data-ready', '1');
}

setup();
