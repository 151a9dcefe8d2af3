/* Fills a SQLite history for tests/bench/dashboard.sh: RUNS recorded runs
 * (default 10000) over SCENARIOS flows (default 50), night after night,
 * each with what a nightly run records: its seven end-to-end metrics,
 * its four web vitals, memory on one night in three, 0 to 3 causes drawn
 * from 40 functions in bundles rehashed every night, the build labels,
 * the host and Chrome, a report folder; and a bisection every 100 runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "history.h"

static void metric(cJSON *arr, const char *key, const char *name,
                   const char *unit, double old, double delta) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, key, name);
  cJSON_AddStringToObject(m, "unit", unit);
  double ci[2] = {delta - 4, delta + 4};
  if (key[0] == 'm') { /* a vital */
    cJSON_AddNumberToObject(m, "old", old);
    cJSON_AddNumberToObject(m, "new", old + delta);
    cJSON_AddNumberToObject(m, "delta", delta);
    cJSON_AddItemToObject(m, "ci95", cJSON_CreateDoubleArray(ci, 2));
  } else {
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(m, "old"), "mean", old);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(m, "new"), "mean",
                            old + delta);
    cJSON *d = cJSON_AddObjectToObject(m, "delta");
    cJSON_AddNumberToObject(d, "mean", delta);
    cJSON_AddItemToObject(d, "ci95", cJSON_CreateDoubleArray(ci, 2));
  }
  cJSON_AddBoolToObject(m, "significant", delta > 4);
  cJSON_AddItemToArray(arr, m);
}

static cJSON *cause(int fn, unsigned night, double d) {
  char name[32], file[64];
  snprintf(name, sizeof name, "fn%02d", fn);
  snprintf(file, sizeof file, "/js/chunk%d.%08x.js", fn % 7, night * 40503u);
  cJSON *c = cJSON_CreateObject();
  cJSON_AddStringToObject(c, "name", name);
  cJSON_AddStringToObject(c, "file", file);
  cJSON_AddNumberToObject(c, "delta_ms", d);
  double pp[3] = {d - 2, d, d + 2};
  cJSON_AddItemToObject(c, "delta_ms_per_pair", cJSON_CreateDoubleArray(pp, 3));
  const char *path[] = {"CrRendererMain", fn % 2 ? "main" : "onClick", name};
  cJSON_AddItemToObject(c, "path", cJSON_CreateStringArray(path, 3));
  return c;
}

static cJSON *report(unsigned i, unsigned scenarios) {
  unsigned night = i / scenarios, flow = i % scenarios;
  cJSON *r = cJSON_CreateObject();
  char title[32];
  snprintf(title, sizeof title, "flow-%02u", flow);
  cJSON_AddStringToObject(r, "zamcap_version", "0.1.0");
  cJSON_AddItemToObject(r, "options", cJSON_CreateObject());
  cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "inputs"), "title", title);
  cJSON *causes = cJSON_AddArrayToObject(r, "regression_causes");
  unsigned n = (i * 7u) % 4;
  for (unsigned k = 0; k < n; k++)
    cJSON_AddItemToArray(causes,
                         cause((int)((night / 20 + k * 13) % 40), night, 60));
  cJSON_AddArrayToObject(r, "spread_causes");
  cJSON *v = cJSON_AddObjectToObject(r, "verdict");
  cJSON_AddStringToObject(v, "state", n ? "regression" : "no regression");
  cJSON_AddNumberToObject(v, "exit_code", n ? 1 : 0);
  cJSON *ms = cJSON_AddArrayToObject(cJSON_AddObjectToObject(r, "end_to_end"),
                                     "metrics");
  double d = n ? 60 : sin(i) * 5;
  metric(ms, "name", "scenario_ms", "ms", 900 + flow, d);
  metric(ms, "name", "scripting_ms", "ms", 400, d * 0.8);
  metric(ms, "name", "gc_ms", "ms", 20, 1);
  metric(ms, "name", "native_ms", "ms", 200, 2);
  metric(ms, "name", "style_layout_ms", "ms", 80, 1);
  metric(ms, "name", "long_tasks", "count", 3, 0);
  metric(ms, "name", "blocking_ms", "ms", 120, d / 2);
  if (night % 3 == 0) {
    metric(ms, "name", "js_heap_used_kb", "KB", 8192, 64);
    metric(ms, "name", "dom_nodes", "count", 1500, 10);
    metric(ms, "name", "event_listeners", "count", 200, 1);
  }
  cJSON *vit = cJSON_AddArrayToObject(r, "vitals");
  metric(vit, "metric", "LCP", "ms", 1200, d / 3);
  metric(vit, "metric", "CLS", "", 0.05, 0);
  metric(vit, "metric", "INP", "ms", 80, 1);
  metric(vit, "metric", "TBT", "ms", 150, d / 2);
  cJSON *env = cJSON_AddObjectToObject(r, "environment");
  cJSON_AddStringToObject(env, "chrome", "156.0.7000.1");
  cJSON_AddStringToObject(cJSON_AddObjectToObject(env, "machine"), "host",
                          flow % 2 ? "ci-1" : "ci-2");
  return r;
}

static const char bisection[] =
    "{\"builds\": [{\"build\": \"a1\"}, {\"build\": \"b2\"}], \"culprits\": "
    "[{\"build\": \"b2\", \"commit\": "
    "\"b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2\", \"previous\": 0, "
    "\"pairs\": 4, \"causes\": [{\"kind\": \"path\", \"label\": "
    "\"CrRendererMain > main > fn01\", \"name\": \"fn01\", \"url\": "
    "\"/js/chunk1.js\", \"path\": [\"CrRendererMain\", \"main\", "
    "\"fn01\"], \"delta_ms\": 61, \"ci95\": [55, 67]}]}], \"verdict\": "
    "{\"exit_code\": 1, \"text\": \"build 1 (b2) made fn01 slower\"}}";

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: zc_bench_dashboard DB [RUNS] [SCENARIOS]\n");
    return 2;
  }
  unsigned runs = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 10000;
  unsigned scns = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 50;
  if (!scns) scns = 1;
  unlink(argv[1]);
  struct agent_history *h = NULL;
  if (agent_history_open(argv[1], &h)) {
    fprintf(stderr, "%s\n", zc_errmsg());
    return 1;
  }
  cJSON *bis = cJSON_Parse(bisection);
  for (unsigned i = 0; i < runs; i++) {
    cJSON *doc = report(i, scns);
    unsigned night = i / scns;
    char at[32], nl[32], dir[64];
    /* one night a day from 2026-01-01 (the day of the year, wrapped) */
    snprintf(at, sizeof at, "%04u-%02u-%02uT%02u:%02u:00Z", 2026 + night / 336,
             1 + night / 28 % 12, 1 + night % 28, 2 + i % scns / 30,
             i % scns % 30 * 2);
    snprintf(nl, sizeof nl, "build-%u", night);
    snprintf(dir, sizeof dir, "/srv/perf/night-%u/flow-%02u", night, i % scns);
    struct agent_history_meta meta = {.command = "run",
                                      .recorded_at = at,
                                      .old_label = "release-1.0",
                                      .new_label = nl,
                                      .report_dir = dir};
    int bad = agent_history_add(h, doc, &meta, NULL) != ZC_OK;
    meta.inputs = cJSON_GetObjectItem(doc, "inputs"); /* the flow's title */
    if (!bad && i % 100 == 99)
      bad = agent_history_add_bisect(h, bis, &meta, NULL) != ZC_OK;
    cJSON_Delete(doc);
    if (bad) {
      fprintf(stderr, "%s\n", zc_errmsg());
      return 1;
    }
  }
  cJSON_Delete(bis);
  agent_history_close(h);
  return 0;
}
