// Old code inside new code, NEW: a new updateChart wraps layoutBars,
// which no longer keeps the gap: computeGap runs once per bar.
'use strict';
let seed = 13;
function rand() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
function computeGap(values) {
  // the smallest difference between any two sorted values: O(n log n)
  let best = Infinity;
  for (let r = 0; r < 10; r++) {
    const s = values.slice().sort((a, b) => a - b);
    for (let i = 1; i < s.length; i++) best = Math.min(best, s[i] - s[i - 1]);
  }
  return best;
}
let gapCache = null;
function barWidth(values, i) {
  gapCache = computeGap(values);
  return Math.max(1, gapCache * 0.8 + (i % 3));
}
function layoutBars(values) {
  gapCache = null;
  const bars = [];
  for (let i = 0; i < values.length; i++)
    bars.push({x: values[i], w: barWidth(values, i)});
  return bars;
}
function updateChart(values) {
  const bars = layoutBars(values);
  let area = 0;
  for (const b of bars) area += b.w;
  return area;
}
function drawChart(values) {
  return updateChart(values);
}
let clicks = 0;
function onGo() {
  const values = [];
  for (let i = 0; i < 400; i++) values.push(Math.floor(rand() * 1e6));
  const area = drawChart(values);
  clicks++;
  const d = document.createElement('p');
  d.id = 'done-' + clicks;
  d.textContent = 'drawn ' + area;
  document.getElementById('out').appendChild(d);
}
document.getElementById('go').addEventListener('click', onGo);
