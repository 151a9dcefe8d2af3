function u(e, n) {
  let t = e | 0;
  for (let o = 0; o < n; o++)
    t = Math.imul(t ^ t >>> 15, 2246822507) + o, t ^= t >>> 13;
  return t >>> 0
}
function m(e, n) {
  let t = e.toString(16);
  for (; t.length < n;)
    t = "0" + t;
  return t
}
function c(e, n) {
  let t = u(e * 31 + n, 8e4);
  return n === 0 ? "#" + e : m(t, 8)
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
function l(e) {
  let n = i(1, 0), t = i(e, 1);
  return "<table>" + n.join("") + t.join("") + "</table>"
}
function s() {
  let e = performance.now(), n = l(300);
  document.getElementById("out").innerHTML = n;
  let t = document.createElement("p");
  t.id = "done",
  t.textContent = "built in " + Math.round(performance.now() - e) + " ms",
  document.body.appendChild(t)
}
document.getElementById("build").addEventListener("click", s);
//# sourceMappingURL=main-QWVESZII.js.map
