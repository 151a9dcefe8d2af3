// A report page: pressing "Build" renders a table of rows. Sources of the
// bundles in ../../<bundler>/old; see ../../build.sh.
import { renderReport } from "./table.js";

function onBuild() {
  const started = performance.now();
  const html = renderReport(300);
  document.getElementById("out").innerHTML = html;
  const done = document.createElement("p");
  done.id = "done";
  done.textContent = "built in " + Math.round(performance.now() - started) + " ms";
  document.body.appendChild(done);
}

document.getElementById("build").addEventListener("click", onBuild);
