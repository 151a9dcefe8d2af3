globalThis.__built = "zamcap";
function t(t, n) {
  const e = function(t, n) {
    let e = 0 | t;
    for (let t = 0; t < n; t++)
      e = Math.imul(e ^ e >>> 15, 2246822507) + t, e ^= e >>> 13;
    return e >>> 0
  }(31 * t + n, 2e4);
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
  const t = performance.now(), e = function(t) {
    const e = n(1, 0), o = n(t, 1);
    return "<table>" + e.join("") + o.join("") + "</table>"
  }(300);
  document.getElementById("out").innerHTML = e;
  const o = document.createElement("p");
  o.id = "done",
  o.textContent = "built in " + Math.round(performance.now() - t) + " ms",
  document.body.appendChild(o)
});
//# sourceMappingURL=index-605s09jw.js.map
