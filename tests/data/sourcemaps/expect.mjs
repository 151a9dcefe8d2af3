// Writes NAME.expect beside each map here and in ../../agent/bundles: the
// positions the npm "source-map" package (Mozilla's decoder) gives for
// every segment's generated position and the column after it. Run by hand
// when a map changes (needs node and `npm install source-map@0.7`):
//   node tests/data/sourcemaps/expect.mjs
// CI compares zamcap's decoder with the stored files and needs no node.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/");
const { SourceMapConsumer } = require("source-map");
const here = path.dirname(new URL(import.meta.url).pathname);
const bundles = path.join(here, "../../agent/bundles");
const maps = fs.readdirSync(here).filter((f) => /\.map$/.test(f))
  .map((f) => path.join(here, f));
for (const b of ["esbuild", "terser", "webpack", "rollup"])
  for (const v of ["old", "new"])
    for (const d of ["assets", "js", "static/js"]) {
      const dir = path.join(bundles, b, v, d);
      if (fs.existsSync(dir))
        for (const f of fs.readdirSync(dir))
          if (f.endsWith(".map")) maps.push(path.join(dir, f));
    }
for (const m of maps.sort()) {
  const raw = JSON.parse(fs.readFileSync(m, "utf8"));
  const c = await new SourceMapConsumer(raw);
  const q = [];
  c.eachMapping((e) => {
    q.push([e.generatedLine, e.generatedColumn]);
    q.push([e.generatedLine, e.generatedColumn + 1]);
  }, null, SourceMapConsumer.GENERATED_ORDER);
  const out = [];
  const stride = Math.ceil(q.length / 3000); // keep the files small
  for (const [l, col] of q.filter((_, i) => i % stride === 0)) {
    const p = c.originalPositionFor({ line: l, column: col,
      bias: SourceMapConsumer.GREATEST_LOWER_BOUND });
    // gline gcol (0-based) source oline(0-based) name; "-" for none
    out.push([l - 1, col, p.source ?? "-", p.line == null ? -1 : p.line - 1,
              p.name ?? "-"].join("\t"));
  }
  c.destroy();
  fs.writeFileSync(m.replace(/\.map$/, ".expect"), out.join("\n") + "\n");
  console.log(path.relative(here, m), q.length, "positions");
}
