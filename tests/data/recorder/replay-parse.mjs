// Writes replay-parse.txt: what @puppeteer/replay's own parse() says of
// each flow here ("ok FILE" or "refused FILE: why"). Run by hand when the
// corpus changes (needs node and `npm install @puppeteer/replay`):
//   node tests/data/recorder/replay-parse.mjs
// test_cli checks that zamcap check accepts every flow replay accepts.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/");
const { parse } = require("@puppeteer/replay");
const here = path.dirname(new URL(import.meta.url).pathname);
const out = [];
for (const f of fs.readdirSync(here).filter((f) => f.endsWith(".json")).sort()) {
  try {
    parse(JSON.parse(fs.readFileSync(path.join(here, f), "utf8")));
    out.push(`ok ${f}`);
  } catch (e) {
    out.push(`refused ${f}: ${String(e.message).split("\n")[0]}`);
  }
}
fs.writeFileSync(path.join(here, "replay-parse.txt"), out.join("\n") + "\n");
console.log(out.filter((l) => l.startsWith("ok")).length, "accepted of", out.length);
