// Writes engine.json: for every trace here, the self time per function of
// each thread as DevTools' own trace engine (@paulirish/trace_engine, the
// Performance panel's model) computes it from the samples: its
// SamplesIntegrator turns each CPU profile into calls (ProfileCall, with ts
// and dur); a call's self time is its duration less its children's. The top 25 functions of each thread
// are kept. Run by hand (needs node and `npm install
// @paulirish/trace_engine`):
//   node tests/data/real-traces/engine.mjs
// test_ingest (case engine) compares zamcap with the stored numbers; CI
// needs no node.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/");
const base = path.dirname(require.resolve("@paulirish/trace_engine/package.json"));
const Trace = await import(path.join(base, "models/trace/trace.js"));
globalThis.DOMRect = class { constructor(x = 0, y = 0, w = 0, h = 0) {
  Object.assign(this, { x, y, width: w, height: h, top: y, left: x,
    right: x + w, bottom: y + h }); } };
const here = path.dirname(new URL(import.meta.url).pathname);
const out = {};
for (const f of fs.readdirSync(here).filter((f) => f.endsWith(".gz")).sort()) {
  let json = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(here, f))));
  let events;
  if (json.nodes || json.head) {
    if (!json.nodes) { out[f] = { skipped: "old head format" }; continue; }
    events = Trace.Helpers.SamplesIntegrator.SamplesIntegrator
      .createFakeTraceFromCpuProfile(json, 1).traceEvents;
  } else {
    events = Array.isArray(json) ? json : json.traceEvents;
    // Chrome <= 66's CpuProfile event (ph I, the whole profile at once):
    // the engine reads it only as the complete event it makes of a
    // .cpuprofile (createFakeTraceFromCpuProfile), so it is given as one.
    for (const e of events)
      if (e.name === "CpuProfile" && e.ph !== "X") {
        const p = e.args?.data?.cpuProfile ?? {};
        Object.assign(e, { ph: "X", id: e.id ?? "0x1", ts: p.startTime ?? e.ts,
          dur: (p.endTime ?? 0) - (p.startTime ?? 0) });
      }
  }
  let parsed;
  try {
    const model = Trace.TraceModel.Model.createWithAllHandlers();
    await model.parse(events);
    parsed = model.parsedTrace(0);
    parsed = parsed.data ?? parsed;
  } catch (e) {
    out[f] = { skipped: "engine: " + String(e.message).split("\n")[0] };
    continue;
  }
  const threads = [];
  // The engine's parsed samples (its CPUProfileDataModel: sorted,
  // normalised, after its fixMissingSamples): each lasts until the next,
  // the last one the mean interval. Not its calls: SamplesIntegrator
  // merges calls by (script, name, line) and stretches them over their
  // children's gaps, so a call's "duration less its children's" exceeds
  // the time the function was on top of the stack (by up to 13 % here;
  // the samples are the engine's own ground truth for both).
  for (const [pid, byTid] of parsed.Samples.profilesInProcess)
    for (const [tid, pd] of byTid) {
      const m = pd.parsedProfile, n = m.samples.length;
      const mean = n > 1 ? (m.timestamps[n - 1] - m.timestamps[0]) / (n - 1) : 0;
      const self = new Map();
      for (let k = 0; k < n; k++) {
        const node = m.nodeById(m.samples[k]);
        if (!node) continue;
        const cf = node.callFrame;
        const key = [cf.functionName, cf.url, cf.lineNumber, cf.columnNumber].join("\u0001");
        const ms = k + 1 < n ? m.timestamps[k + 1] - m.timestamps[k] : mean;
        self.set(key, (self.get(key) ?? 0) + ms * 1000);
      }
      const top = [...self.entries()].filter(([k]) => !k.startsWith("("))
        .sort((a, b) => b[1] - a[1]).slice(0, 25)
        .map(([k, us]) => { const [name, url, line, col] = k.split("\u0001");
          return { name, url, line: +line, col: +col, self_ms: Math.round(us) / 1000 }; });
      threads.push({ pid, tid, samples: n, top });
    }
  out[f] = { threads };
  console.log(f, threads.length, "threads");
}
fs.writeFileSync(path.join(here, "engine.json"), JSON.stringify(out, null, 1) + "\n");
