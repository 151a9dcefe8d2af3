/* Fills a SQLite history with N recorded runs (default 10000) for
 * tests/bench/history.sh: 20 scenarios, each night 0 to 3 causes drawn from
 * 40 functions in bundles rehashed every night, with per-pair deltas and
 * end-to-end rows, as zamcap records them from report.json. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "history.h"

static cJSON *cause(int fn, unsigned night, double d) {
  char name[32], file[64], url[96];
  snprintf(name, sizeof name, "fn%02d", fn);
  snprintf(file, sizeof file, "/js/chunk%d.%08x.js", fn % 7, night * 40503u);
  snprintf(url, sizeof url, "http://127.0.0.1:%u%s", 30000 + night % 999, file);
  cJSON *c = cJSON_CreateObject();
  cJSON_AddNumberToObject(c, "rank", 1);
  cJSON_AddStringToObject(c, "name", name);
  cJSON_AddStringToObject(c, "file", file);
  cJSON_AddStringToObject(c, "url", url);
  cJSON_AddNumberToObject(c, "line", fn * 10);
  cJSON_AddNumberToObject(c, "old_ms", 10);
  cJSON_AddNumberToObject(c, "new_ms", 10 + d);
  cJSON_AddNumberToObject(c, "delta_ms", d);
  double pp[3] = {d - 2, d, d + 2};
  cJSON_AddItemToObject(c, "delta_ms_per_pair", cJSON_CreateDoubleArray(pp, 3));
  const char *path[] = {"CrRendererMain", fn % 2 ? "main" : "onClick", name};
  cJSON_AddItemToObject(c, "path", cJSON_CreateStringArray(path, 3));
  return c;
}

static cJSON *report(unsigned night) {
  cJSON *r = cJSON_CreateObject(), *inp, *causes, *v, *e2e, *m;
  char title[32];
  snprintf(title, sizeof title, "flow-%02u", night % 20);
  cJSON_AddStringToObject(r, "zamcap_version", "0.1.0");
  cJSON_AddItemToObject(r, "options", cJSON_CreateObject());
  inp = cJSON_AddObjectToObject(r, "inputs");
  cJSON_AddStringToObject(inp, "title", title);
  causes = cJSON_AddArrayToObject(r, "regression_causes");
  unsigned n = (night * 7u) % 4;
  for (unsigned k = 0; k < n; k++) {
    cJSON *c = cause((int)((night / 20 + k * 13) % 40), night, 60 + k);
    cJSON_SetNumberValue(cJSON_GetObjectItem(c, "rank"), k + 1);
    cJSON_AddItemToArray(causes, c);
  }
  cJSON_AddArrayToObject(r, "spread_causes");
  v = cJSON_AddObjectToObject(r, "verdict");
  cJSON_AddStringToObject(v, "state", n ? "regression" : "no regression");
  cJSON_AddNumberToObject(v, "exit_code", n ? 1 : 0);
  cJSON_AddNumberToObject(v, "pairs", 3);
  e2e = cJSON_AddObjectToObject(r, "end_to_end");
  m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "name", "scenario_ms");
  cJSON_AddItemToArray(cJSON_AddArrayToObject(e2e, "metrics"), m);
  return r;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: zc_bench_history DB [RUNS]\n");
    return 2;
  }
  unsigned runs = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 10000;
  unlink(argv[1]);
  struct agent_history *h = NULL;
  if (agent_history_open(argv[1], &h)) {
    fprintf(stderr, "%s\n", zc_errmsg());
    return 1;
  }
  for (unsigned i = 0; i < runs; i++) {
    cJSON *doc = report(i);
    char at[32];
    snprintf(at, sizeof at, "2026-%02u-%02uT%02u:30:00Z", 1 + i / 1000 % 12,
             1 + i / 40 % 28, i % 24);
    struct agent_history_meta meta = {.command = "run", .recorded_at = at};
    if (agent_history_add(h, doc, &meta, NULL)) {
      fprintf(stderr, "%s\n", zc_errmsg());
      return 1;
    }
    cJSON_Delete(doc);
  }
  agent_history_close(h);
  return 0;
}
