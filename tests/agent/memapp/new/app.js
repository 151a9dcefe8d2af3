// The memory test app (new build). buildRows allocates the same rows in
// both builds; cloneRecords copies each record 12 time(s) (the new
// build's regression: many times the allocation, about the same time).
'use strict';
var kept = [];
function buildRows(n) {
  var rows = [];
  for (var i = 0; i < n; i++) rows.push({id: i, label: 'row ' + i});
  return rows;
}
function cloneRecords(rows, copies) {
  var total = 0;
  for (var c = 0; c < copies; c++) {
    var out = new Array(rows.length);
    for (var i = 0; i < rows.length; i++)
      out[i] = {id: rows[i].id, label: rows[i].label + '/' + c,
                data: new Array(16).fill(i)};
    total += out.length;
  }
  return total;
}
function render(rows) {
  var ul = document.createElement('ul');
  for (var i = 0; i < 200; i++) {
    var li = document.createElement('li');
    li.textContent = rows[i].label;
    ul.appendChild(li);
  }
  document.body.appendChild(ul);
}
document.getElementById('run').addEventListener('click', function onRun() {
  var rows = buildRows(20000);
  var n = cloneRecords(rows, 12);
  render(rows);
  kept.push(rows.slice(0, 100));
  var out = document.getElementById('out');
  out.textContent = n + ' records';
  out.className = 'done';
});
