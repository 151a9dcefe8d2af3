// Writes engine.json: the web vitals of every trace in tests/data/vitals/
// and tests/data/real-traces/ as DevTools' own trace engine
// (@paulirish/trace_engine 0.0.65, the Performance panel's model) computes
// them, for test_vitals to compare with zamcap's (within 1 %); CI needs no
// node. Run by hand (needs node and `npm install
// @paulirish/trace_engine@0.0.65`):
//   node tests/data/vitals/engine.mjs
// What is the engine's, and what this script adds:
// - lcp_ms: PageLoadMetricsHandler's LCP of the main frame's first
//   navigation (from zamcap's first step mark on, when the trace has them);
// - cls: LayoutShiftsHandler's sessionMaxScore, or null when the trace
//   holds no event of the "loading" category alone (then it was not
//   recorded, and the engine says 0);
// - inp_ms: UserInteractionsHandler's longestInteractionEvent, or null;
// - tbt_ms: Lighthouse's TBTUtils.calculateSumOfBlockingTime over the
//   RunTask events of the marks' thread (else the busiest CrRendererMain's)
//   from the first mark to the end: the engine computes TBT only within
//   its Lantern simulation or from Lighthouse's InteractiveTime event, so
//   the window and the tasks are this script's.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/");
const base = path.dirname(require.resolve("@paulirish/trace_engine/package.json"));
const Trace = await import(path.join(base, "models/trace/trace.js"));
const TBT = await import(path.join(base, "models/trace/lantern/metrics/TBTUtils.js"));
globalThis.DOMRect = class { constructor(x = 0, y = 0, w = 0, h = 0) {
  Object.assign(this, { x, y, width: w, height: h, top: y, left: x,
    right: x + w, bottom: y + h }); } };
const here = path.dirname(new URL(import.meta.url).pathname);
const real = path.join(here, "../real-traces");
const files = [
  ...fs.readdirSync(here).filter((f) => f.endsWith(".json.gz")).sort()
    .map((f) => [f, path.join(here, f)]),
  ...fs.readdirSync(real).filter((f) => f.endsWith(".json.gz")).sort()
    .map((f) => ["real-traces/" + f, path.join(real, f)]),
];
const round = (v, k) => v == null ? null : Math.round(v * k) / k;
const out = {};
for (const [name, file] of files) {
  const json = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)));
  const events = Array.isArray(json) ? json : json.traceEvents;
  let parsed;
  try {
    const model = Trace.TraceModel.Model.createWithAllHandlers();
    await model.parse(events);
    parsed = model.parsedTrace(0);
    parsed = parsed.data ?? parsed;
  } catch (e) {
    out[name] = { skipped: "engine: " + String(e.message).split("\n")[0] };
    continue;
  }
  const marks = events.filter((e) => /^zamcap:step:/.test(e.name ?? ""))
    .sort((a, b) => a.ts - b.ts);
  const t0 = marks.length ? marks[0].ts : -Infinity;
  // LCP: the main frame's first navigation from t0 on.
  const meta = parsed.Meta, plm = parsed.PageLoadMetrics;
  const navs = (meta.navigationsByFrameId.get(meta.mainFrameId) ?? [])
    .filter((n) => n.ts >= t0);
  let lcp = null;
  if (navs.length) {
    const byNav = plm.metricScoresByFrameId.get(meta.mainFrameId)?.get(navs[0]);
    const m = byNav?.get("LCP");
    if (m) lcp = m.timing / 1000;
  }
  const loading = events.some((e) => e.cat === "loading");
  const cls = loading ? parsed.LayoutShifts.sessionMaxScore : null;
  const li = parsed.UserInteractions.longestInteractionEvent;
  const inp = li ? li.dur / 1000 : null;
  // TBT: the main thread's RunTask events.
  let thread = marks.length ? [marks[0].pid, marks[0].tid] : null;
  const tasks = events.filter((e) => e.name === "RunTask" && e.ph === "X");
  if (!thread) {
    const names = new Map(events.filter((e) => e.ph === "M" && e.name === "thread_name")
      .map((e) => [e.pid + "/" + e.tid, e.args?.name]));
    const busy = new Map();
    for (const t of tasks) {
      const k = t.pid + "/" + t.tid;
      if (names.get(k) === "CrRendererMain") busy.set(k, (busy.get(k) ?? 0) + t.dur);
    }
    const best = [...busy.entries()].sort((a, b) => b[1] - a[1])[0];
    if (best) thread = best[0].split("/").map(Number);
  }
  let tbt = null;
  if (thread && tasks.length) {
    const mine = tasks.filter((t) => t.pid === thread[0] && t.tid === thread[1])
      .map((t) => ({ start: t.ts / 1000, end: (t.ts + t.dur) / 1000, duration: t.dur / 1000 }));
    tbt = TBT.calculateSumOfBlockingTime(mine, t0 / 1000, Infinity);
  }
  out[name] = { lcp_ms: round(lcp, 1000), cls: round(cls, 1e6),
    inp_ms: round(inp, 1000), tbt_ms: round(tbt, 1000) };
  console.log(name, JSON.stringify(out[name]));
}
fs.writeFileSync(path.join(here, "engine.json"), JSON.stringify(out, null, 1) + "\n");
