/* A scenario page's cards. The charts are SVG that zamcap drew; this adds
 * what hovering one shows: the nearest run's figures, its builds' labels,
 * host, Chrome version, verdict and a link to its report.html. A click
 * (or Enter) keeps the card; with a chart focused the arrow keys step
 * from run to run; Escape closes it. The data is the page's
 * #dash-data block. Text goes into the page as textContent only, and a
 * link only when it is one of the relative paths zamcap writes. */
(function () {
  'use strict';
  var block = document.getElementById('dash-data');
  var card = document.getElementById('card');
  if (!block || !card) return;
  var data = JSON.parse(block.textContent);
  var NS = 'http://www.w3.org/2000/svg';
  var cur = null, pinned = false, hideTimer = 0;

  /* As the pages write numbers (esc.c's agent_dash_fmt). */
  function fmt(v, u, sign) {
    if (typeof v !== 'number' || !isFinite(v)) return '–';
    var a = Math.abs(v), p;
    if (!u) p = 3;
    else if (u === 'KB') p = 0;
    else p = a >= 100 ? 0 : (a >= 10 || u === 'count') ? 1 : 2;
    var s = v.toFixed(p);
    if (sign && v >= 0) s = '+' + s;
    return s + (u && u !== 'count' ? ' ' + u : '');
  }
  function okLink(r) {
    return typeof r === 'string' && /^[A-Za-z0-9._~%\/-]+$/.test(r) &&
      r.charAt(0) !== '/';
  }
  function line(cls, text) {
    var d = document.createElement('div');
    if (cls) d.className = cls;
    d.textContent = text;
    card.appendChild(d);
    return d;
  }
  function fill(d, p) {
    var run = data.runs[p[0]] || {};
    card.textContent = '';
    line('ct', (run.at || '?') + ' · run ' + (run.id === undefined ? '?' : run.id));
    var v = 'new ' + fmt(p[3], d.u) + ' · old ' + fmt(p[4], d.u) + ' · Δ ' +
      fmt(p[5], d.u, 1);
    if (typeof p[6] === 'number' && typeof p[7] === 'number')
      v += ' [' + fmt(p[6], d.u, 1) + ', ' + fmt(p[7], d.u, 1) + ']';
    line('cv', v);
    if (run.ol || run.nl)
      line('cb', 'builds: ' + (run.ol || '?') + ' → ' + (run.nl || '?'));
    line('ch', 'host ' + (run.host || '?') + ' · Chrome ' + (run.chrome || '?'));
    line('cr', 'verdict: ' + (run.v || '?'));
    var last = line('cl', '');
    if (okLink(run.r)) {
      var a = document.createElement('a');
      a.href = run.r;
      a.textContent = 'this run\'s report';
      last.appendChild(a);
    } else {
      last.textContent = 'no report folder recorded';
    }
  }
  function focusRing(svg, p) {
    var c = svg.querySelector('circle.focus');
    if (!c) {
      c = document.createElementNS(NS, 'circle');
      c.setAttribute('class', 'focus');
      c.setAttribute('r', '6');
      svg.appendChild(c);
    }
    c.setAttribute('cx', p[1]);
    c.setAttribute('cy', typeof p[2] === 'number' ? p[2] : 182);
  }
  function place(svg, p) {
    var m = svg.getScreenCTM();
    if (!m) return;
    var y = typeof p[2] === 'number' ? p[2] : 182;
    var cx = m.a * p[1] + m.c * y + m.e, cy = m.b * p[1] + m.d * y + m.f;
    card.hidden = false;
    var w = card.offsetWidth, left = cx + 14;
    if (left + w > document.documentElement.clientWidth - 8) left = cx - 14 - w;
    card.style.left = Math.max(4, left + window.scrollX) + 'px';
    card.style.top = (cy + 14 + window.scrollY) + 'px';
  }
  function show(svg, k) {
    var d = data.charts[svg.id];
    if (!d || !d.p[k]) return;
    clearTimeout(hideTimer);
    if (cur && cur.svg !== svg) {
      var old = cur.svg.querySelector('circle.focus');
      if (old) old.remove();
    }
    cur = { svg: svg, k: k };
    fill(d, d.p[k]);
    focusRing(svg, d.p[k]);
    place(svg, d.p[k]);
  }
  function hide() {
    card.hidden = true;
    pinned = false;
    if (cur) {
      var c = cur.svg.querySelector('circle.focus');
      if (c) c.remove();
    }
    cur = null;
  }
  function nearest(pts, x) {
    var best = -1, bd = Infinity;
    for (var i = 0; i < pts.length; i++) {
      var dx = Math.abs(pts[i][1] - x);
      if (dx < bd) { bd = dx; best = i; }
    }
    return best;
  }
  function at(svg, e) {
    var m = svg.getScreenCTM();
    if (!m) return -1;
    var q = svg.createSVGPoint();
    q.x = e.clientX;
    q.y = e.clientY;
    return nearest(data.charts[svg.id].p, q.matrixTransform(m.inverse()).x);
  }
  Array.prototype.forEach.call(document.querySelectorAll('svg.chart'),
    function (svg) {
      var d = data.charts[svg.id];
      if (!d || !d.p.length) return;
      svg.addEventListener('pointermove', function (e) {
        if (pinned) return;
        var k = at(svg, e);
        if (k >= 0) show(svg, k);
      });
      svg.addEventListener('pointerleave', function () {
        if (!pinned) hideTimer = setTimeout(hide, 400);
      });
      svg.addEventListener('click', function (e) {
        var k = at(svg, e);
        if (k < 0) return;
        show(svg, k);
        pinned = true;
      });
      svg.addEventListener('keydown', function (e) {
        var k = cur && cur.svg === svg ? cur.k : d.p.length - 1;
        if (e.key === 'ArrowLeft') k = Math.max(0, k - 1);
        else if (e.key === 'ArrowRight') k = Math.min(d.p.length - 1, k + 1);
        else if (e.key === 'Enter') pinned = true;
        else if (e.key === 'Escape') { hide(); return; }
        else return;
        e.preventDefault();
        show(svg, k);
      });
    });
  card.addEventListener('pointerenter', function () { clearTimeout(hideTimer); });
  card.addEventListener('pointerleave', function () {
    if (!pinned) hideTimer = setTimeout(hide, 400);
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && !card.hidden) hide();
  });
  document.addEventListener('click', function (e) {
    if (pinned && !card.contains(e.target) &&
        !(cur && cur.svg.contains(e.target))) hide();
  });
})();
