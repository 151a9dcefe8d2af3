function l(e, n) {
  let t = e | 0;
  for (let o = 0; o < n; o++)
    t = Math.imul(t ^ t >>> 15, 2246822507) + o, t ^= t >>> 13;
  return t >>> 0
}
function c(e, n) {
  let t = l(e * 31 + n, 2e4);
  return n === 0 ? "#" + e : t.toString(16)
}
function i(e, n) {
  let t = [];
  for (let o = 0; o < e; o++) {
    let d = [];
    for (let r = 0; r < 4; r++)
      d.push(c(n + o, r));
    t.push("<tr><td>" + d.join("</td><td>") + "</td></tr>")
  }
  return t
}
function u(e) {
  let n = i(1, 0), t = i(e, 1);
  return "<table>" + n.join("") + t.join("") + "</table>"
}
function m() {
  let e = performance.now(), n = u(300);
  document.getElementById("out").innerHTML = n;
  let t = document.createElement("p");
  t.id = "done",
  t.textContent = "built in " + Math.round(performance.now() - e) + " ms",
  document.body.appendChild(t)
}
document.getElementById("build").addEventListener("click", m);
//# sourceMappingURL=main-6YZMCLM4.js.map
