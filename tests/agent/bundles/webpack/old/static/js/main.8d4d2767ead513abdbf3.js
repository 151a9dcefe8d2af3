(() => {
  "use strict";
  function t(t, n) {
    const e = function(t) {
      let n = 0 | t;
      for (let t = 0; t < 2e4; t++)
        n = Math.imul(n ^ n >>> 15, 2246822507) + t, n ^= n >>> 13;
      return n >>> 0
    }(31 * t + n);
    return 0 === n ? "#" + t : e.toString(16)
  }
  function n(n, e) {
    const o = [];
    for (let r = 0; r < n; r++) {
      const n = [];
      for (let o = 0; o < 4; o++)
        n.push(t(e + r, o));
      o.push("<tr><td>" + n.join("</td><td>") + "</td></tr>")
    }
    return o
  }
  document.getElementById("build").addEventListener("click", function() {
    const t = performance.now(), e = function() {
      const t = n(1, 0), e = n(300, 1);
      return "<table>" + t.join("") + e.join("") + "</table>"
    }();
    document.getElementById("out").innerHTML = e;
    const o = document.createElement("p");
    o.id = "done",
    o.textContent = "built in " + Math.round(performance.now() - t) + " ms",
    document.body.appendChild(o)
  })
})();
//# sourceMappingURL=main.8d4d2767ead513abdbf3.js.map