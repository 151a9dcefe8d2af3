/* Draws each flame graph of the page (an element of class "flame": its
 * JSON data block, canvas, tooltip, search box and reset button, found by
 * class). A graph weighs what its data's unit says: "ms" (the default) or
 * "KB", read from the columns old_<unit> and new_<unit>. */
(function () {
  'use strict';
  function flame(sec) {
    var el = function (c) { return sec.querySelector('.' + c); };
    var d = JSON.parse(el('fl-data').textContent);
    var unit = d.unit || 'ms', key = unit.toLowerCase();
    d.old = d['old_' + key]; d.new = d['new_' + key];
    if (!d.old || !d.new) return null;
    var n = d.parent.length, kids = [], roots = [], i, k;
    for (i = 0; i < n; i++) kids.push([]);
    for (i = 0; i < n; i++) {
      if (d.parent[i] < 0) roots.push(i); else kids[d.parent[i]].push(i);
    }
    var x0 = new Float64Array(n), depth = new Int32Array(n);
    var total = 0, deep = 0;
    var stack = [];
    for (k = 0; k < roots.length; k++) {
      x0[roots[k]] = total; total += d.new[roots[k]]; stack.push(roots[k]);
    }
    while (stack.length) {
      i = stack.pop();
      var pos = x0[i];
      for (k = 0; k < kids[i].length; k++) {
        var j = kids[i][k];
        x0[j] = pos; depth[j] = depth[i] + 1; pos += d.new[j]; stack.push(j);
        if (depth[j] > deep) deep = depth[j];
      }
    }
    var maxd = 0;
    for (i = 0; i < n; i++) {
      var dl = Math.abs(d.new[i] - d.old[i]);
      if (dl > maxd) maxd = dl;
    }
    var name = function (i) { return d.names[d.name[i]] || '(anonymous)'; };
    var canvas = el('fl-c'), tip = el('fl-tip'), ctx = canvas.getContext('2d');
    var ROW = 18, ROWS = Math.min(40, deep + 2);
    canvas.style.height = ROWS * ROW + 'px';
    var st = { zoom: -1, query: '', matches: 0, drawn: [] };
    function color(i) {
      var dl = d.new[i] - d.old[i];
      var r = maxd > 0 ? Math.min(1, Math.abs(dl) / maxd) : 0;
      if (r < 0.02) return 'hsl(0,0%,86%)';
      return 'hsl(' + (dl > 0 ? 0 : 215) + ',' + Math.round(35 + 55 * r) +
        '%,' + Math.round(84 - 34 * r) + '%)';
    }
    function view() {
      var z = st.zoom;
      if (z < 0) return { a: 0, b: total || 1, top: 0 };
      return { a: x0[z], b: x0[z] + (d.new[z] || 1e-9),
               top: Math.max(0, depth[z] - 3) };
    }
    function draw() {
      var w = canvas.clientWidth || 900, dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(ROWS * ROW * dpr);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, w, ROWS * ROW);
      ctx.font = '11px sans-serif';
      ctx.textBaseline = 'middle';
      var v = view(), scale = w / (v.b - v.a), q = st.query, hits = 0;
      st.drawn = [];
      var todo = roots.slice();
      while (todo.length) {
        var i = todo.pop();
        var x = (x0[i] - v.a) * scale, wd = d.new[i] * scale;
        if (x + wd < 0 || x > w || wd < 0.4) continue;
        var row = depth[i] - v.top;
        for (var k = 0; k < kids[i].length; k++) todo.push(kids[i][k]);
        var hit = q && name(i).toLowerCase().indexOf(q) >= 0;
        if (hit) hits++;
        if (row < 0 || row >= ROWS) continue;
        var y = row * ROW, xs = Math.max(0, x), ws = Math.min(w, x + wd) - xs;
        ctx.fillStyle = hit ? '#f5d800' : color(i);
        ctx.fillRect(xs, y, Math.max(ws - 0.5, 0.4), ROW - 1);
        if (d.flag[i]) {
          ctx.strokeStyle = d.flag[i] & 2 ? '#000' : '#555';
          ctx.lineWidth = d.flag[i] & 2 ? 2 : 1;
          ctx.strokeRect(xs + 0.5, y + 0.5, Math.max(ws - 1.5, 0.4), ROW - 2);
        }
        if (ws > 28) {
          ctx.fillStyle = '#111';
          ctx.save();
          ctx.beginPath(); ctx.rect(xs, y, ws - 2, ROW); ctx.clip();
          ctx.fillText(name(i), xs + 3, y + ROW / 2);
          ctx.restore();
        }
        st.drawn.push([i, xs, y, ws]);
      }
      st.matches = hits;
      el('fl-n').textContent =
        q ? hits + ' match' + (hits === 1 ? '' : 'es') : '';
    }
    function at(ev) {
      var r = canvas.getBoundingClientRect(), x = ev.clientX - r.left,
        y = ev.clientY - r.top;
      for (var k = st.drawn.length - 1; k >= 0; k--) {
        var e = st.drawn[k];
        if (x >= e[1] && x < e[1] + e[3] && y >= e[2] && y < e[2] + ROW)
          return e[0];
      }
      return -1;
    }
    function num(v) { return (Math.round(v * 10) / 10).toFixed(1); }
    canvas.addEventListener('click', function (ev) {
      st.zoom = at(ev); draw();
    });
    canvas.addEventListener('mousemove', function (ev) {
      var i = at(ev);
      if (i < 0) { tip.hidden = true; return; }
      var f = d.names[d.file[i]], dl = d.new[i] - d.old[i];
      tip.textContent = name(i) + (f ? '\n' + f + ':' + d.line[i] : '') +
        '\nold ' + num(d.old[i]) + ' ' + unit + ' \u2192 new ' + num(d.new[i]) +
        ' ' + unit + ' (' + (dl >= 0 ? '+' : '') + num(dl) + ' ' + unit +
        '), per run' +
        (d.flag[i] & 2 ? '\nregression-cause'
         : d.flag[i] ? '\non a critical path' : '');
      tip.style.left = (ev.pageX + 12) + 'px';
      tip.style.top = (ev.pageY + 12) + 'px';
      tip.hidden = false;
    });
    canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
    el('fl-q').addEventListener('input', function () {
      st.query = this.value.trim().toLowerCase(); draw();
    });
    el('fl-reset').addEventListener('click', function () {
      st.zoom = -1; draw();
    });
    window.addEventListener('resize', draw);
    draw();
    /* for tests and the console (window.zamcapFlames[section id]): the
     * state, and where a frame is drawn */
    return {
      state: st, nodes: n, unit: unit,
      find: function (s) {
        for (var k = 0; k < st.drawn.length; k++)
          if (name(st.drawn[k][0]) === s) {
            var r = canvas.getBoundingClientRect(), e = st.drawn[k];
            return { x: r.left + e[1] + e[3] / 2, y: r.top + e[2] + ROW / 2,
                     node: e[0] };
          }
        return null;
      },
      name: name, draw: draw
    };
  }

  window.zamcapFlames = {};
  var secs = document.querySelectorAll('.flame');
  for (var s = 0; s < secs.length; s++) {
    var api = flame(secs[s]);
    if (!api) continue;
    window.zamcapFlames[secs[s].id] = api;
    /* the first (the time's, when there is one) */
    if (!window.zamcapFlame) window.zamcapFlame = api;
  }
})();
