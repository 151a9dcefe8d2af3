// In a worker: per-element calls, NEW: layoutList measures the sample text for every
// item.
'use strict';
let seed = 11;
function rand() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
const GLYPHS = Array.from({length: 4000}, (_, i) => 5 + (i * 7919) % 11);
const SAMPLE = 'The quick brown fox jumps over the lazy dog. '.repeat(60);
function measureText(text) {
  let w = 0;
  for (let r = 0; r < 80; r++)
    for (let i = 0; i < text.length; i++)
      w += GLYPHS[(text.charCodeAt(i) * 31 + r) % GLYPHS.length];
  return w / 80;
}
function placeItem(item, em) {
  return {name: item, x: 0, width: item.length * em};
}
function layoutList(items) {
  const out = [];
  for (const it of items)
    out.push(placeItem(it, measureText(SAMPLE) / SAMPLE.length));
  return out;
}
self.onmessage = (ev) => {
  const items = [];
  for (let i = 0; i < ev.data; i++) items.push('entry ' + Math.floor(rand() * 1e6));
  self.postMessage(layoutList(items).length);
};
