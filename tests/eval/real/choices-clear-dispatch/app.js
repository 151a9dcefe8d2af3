/* Delivery points: a shipping form whose pick-up point list (a <select>
 * enhanced with Choices.js) is reloaded when the region changes, with
 * setChoices(list, 'value', 'label', true): the new list replaces the old
 * one. The regions' points are generated from a fixed seed, the same on
 * every load. A real regression for zamcap's accuracy experiment
 * (tests/eval/real/choices-clear-dispatch/NOTE.md): Choices 11.0.2 clears
 * the old list by dispatching one removeChoice action per choice, and the
 * choices reducer filters the whole list for each; 11.0.1 reset the store
 * once. */
'use strict';

const REGIONS = ['north', 'coast', 'valley', 'north'];
const POINTS = 2600;
const KINDS = ['locker', 'kiosk', 'post office', 'pharmacy', 'fuel station', 'grocery'];

const state = {picker: null, region: 0, lists: {}};

/* 32-bit xorshift-multiply generator with a fixed seed */
function makeXsm(seed) {
  let s = seed >>> 0;
  return function next() {
    s ^= s >>> 12; s ^= s << 25; s ^= s >>> 27;
    s >>>= 0;
    return (Math.imul(s, 0x2545F491) >>> 0) / 4294967296;
  };
}

function makePoints(region, seed) {
  const rnd = makeXsm(seed);
  const list = [];
  for (let i = 0; i < POINTS; i++) {
    const kind = KINDS[Math.floor(rnd() * KINDS.length)];
    list.push({value: region + '-' + i, label: kind + ' ' + region + ' ' + (100 + Math.floor(rnd() * 900)) +
               ', ' + (1 + Math.floor(rnd() * 240)) + ' Main St'});
  }
  return list;
}

function pointsFor(region) {
  if (!state.lists[region]) state.lists[region] = makePoints(region, region.length * 7919);
  return state.lists[region];
}

function onRegionClick() {
  const region = REGIONS[state.region % REGIONS.length];
  state.picker.setChoices(pointsFor(region), 'value', 'label', true);
  state.region++;
  document.getElementById('status').textContent = region + ': ' + POINTS + ' points';
  document.body.dataset.region = String(state.region);
}

function main() {
  state.picker = new Choices('#point', {searchEnabled: true, shouldSort: false, itemSelectText: '',
                                          renderChoiceLimit: 60});
  document.getElementById('region').addEventListener('click', onRegionClick);
  document.body.dataset.ready = '1';
}

main();
