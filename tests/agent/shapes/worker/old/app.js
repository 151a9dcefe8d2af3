// Counts that cannot be taken: the page's work runs in a dedicated worker,
// which the page's precise coverage does not count. Same in both builds.
'use strict';
const worker = new Worker('work.js');
let clicks = 0;
worker.onmessage = (ev) => {
  clicks++;
  const d = document.createElement('p');
  d.id = 'done-' + clicks;
  d.textContent = 'laid out ' + ev.data;
  document.getElementById('out').appendChild(d);
};
document.getElementById('go').addEventListener('click',
                                               () => worker.postMessage(200));
