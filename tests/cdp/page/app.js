// A page with a known slow function, for zamcap's record tests. Each
// function busy-waits on performance.now(), so its time is known:
// onLoad > renderReport > slowPrimeSieve (150 ms), > formatTable (30 ms).
function spin(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}
function slowPrimeSieve() { spin(150); }
function formatTable() { spin(30); }
function renderReport() {
  slowPrimeSieve();
  formatTable();
  document.getElementById("out").textContent = "done";
}
function onLoad() { renderReport(); }
window.addEventListener("load", onLoad);
