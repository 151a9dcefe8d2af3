/* Call counts in headless Chromium (issue 35), on tests/agent/shapes/:
 * five regressions whose slowest function is not where the change is.
 * In each, the root is named first with the counts' evidence, and where
 * the time landed (or the consequence) after it; an A/A names nothing.
 * Every page's new build does k times the work by construction (calls
 * per row, per item, per bar; an identity short cut lost), so what is
 * asserted is names, roles and counts, never a measured time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "test.h"

/* zamcap on one shape page; its report.json, or NULL. */
static cJSON *shape(const char *page, const char *oldb, const char *newb,
                    const char *out) {
  char *log = NULL;
  int rc = zt_run_zamcap(
      &log,
      "'%s' --old '%s/%s' --new '%s/%s' --pairs 3 --counts 1 --no-history "
      "--format json,md,dot --out '%s'",
      zt_tests("agent/shapes/shapes.json"), zt_tests("agent/shapes/%s", page),
      oldb, zt_tests("agent/shapes/%s", page), newb, out);
  ZT_TRUE(rc == 0 || rc == 1 || rc == 5);
  free(log);
  return zt_json("%s/report.json", out);
}

/* The first cause: its name, how the counts named it, and where its time
 * landed (NULL: no landing place asked). */
static const cJSON *first_cause(const cJSON *doc, const char *name,
                                const char *named_by, const char *landed) {
  const cJSON *rc = zt_jget(doc, "regression_causes");
  const cJSON *c = cJSON_GetArrayItem(rc, 0);
  if (!ZT_TRUE(c != NULL)) return NULL;
  ZT_STR(zt_jstr(c, "name"), name);
  ZT_STR(zt_jstr(c, "role"), "root");
  ZT_STR(zt_jstr(c, "named_by"), named_by);
  ZT_TRUE(zt_jstr(c, "evidence")[0] != '\0');
  if (landed) ZT_STR(zt_jstr(c, "landed.name"), landed);
  ZT_INT((int)zt_jnum(doc, "verdict.exit_code"), 1);
  return c;
}

/* The hash of app.js's whole text in a count run's file (out/traces/
 * SIDE-calls-1.calls.json), or "" where there is none. */
static void app_hash(const char *out, const char *side, char h[16]) {
  h[0] = '\0';
  cJSON *doc = zt_json("%s/traces/%s-calls-1.calls.json", out, side);
  const cJSON *s;
  cJSON_ArrayForEach(s, zt_jget(doc, "scripts")) {
    const char *url = zt_jstr(s, "url");
    size_t n = strlen(url);
    if (n >= 7 && !strcmp(url + n - 7, "/app.js"))
      snprintf(h, 16, "%s", zt_jstr(s, "hash"));
  }
  cJSON_Delete(doc);
}

/* A lost cache: renderRow compiles its template for every row; tokenize
 * (under compileTemplate) is where the time lands, 900 rows a run. */
static void test_lost_cache(void) {
  cJSON *doc = shape("cache", "old", "new", zt_tmp("cache"));
  if (!doc) return;
  const cJSON *c = first_cause(doc, "renderRow", "loop_owner", NULL);
  if (c) {
    const char *l = zt_jstr(c, "landed.name");
    ZT_TRUE(!strcmp(l, "tokenize") || !strcmp(l, "compileTemplate"));
    /* renderRow's own calls are the same; what it calls is not */
    ZT_TRUE(zt_jnum(c, "landed.calls_new") >
            100 * zt_jnum(c, "landed.calls_old"));
    const cJSON *calls = zt_jget(c, "calls"), *x, *row = NULL;
    cJSON_ArrayForEach(
        x, calls) if (!strcmp(zt_jstr(x, "function"), "renderRow")) row = x;
    ZT_TRUE(row && zt_jnum(row, "old") == zt_jnum(row, "new"));
  }
  /* the DOT labels carry the counts; summary.md the words */
  char *dot = zt_read(zt_tmp("cache/critical-graph.dot"));
  ZT_HAS(dot, "calls 900 \xe2\x86\x92 900 a run");
  free(dot);
  char *md = zt_read(zt_tmp("cache/summary.md"));
  ZT_HAS(md, "What V8's call counts say");
  free(md);
  cJSON_Delete(doc);
  /* the two builds' app.js differ, and so do their whole texts' hashes */
  char ho[16], hn[16];
  app_hash(zt_tmp("cache"), "old", ho);
  app_hash(zt_tmp("cache"), "new", hn);
  ZT_TRUE(ho[0] != '\0' && hn[0] != '\0' && strcmp(ho, hn) != 0);
}

/* Per-element calls: layoutList measures the text for every item. */
static void test_per_element(void) {
  cJSON *doc = shape("perelem", "old", "new", zt_tmp("perelem"));
  if (!doc) return;
  first_cause(doc, "layoutList", "loop_owner", "measureText");
  cJSON_Delete(doc);
}

/* Old code inside new code: the new updateChart wraps layoutBars, whose
 * barWidth computes the gap once per bar; barWidth, not the new
 * function's whole time, is named. */
static void test_inside_new(void) {
  cJSON *doc = shape("wrapper", "old", "new", zt_tmp("wrapper"));
  if (!doc) return;
  first_cause(doc, "barWidth", "inside_new_code", "computeGap");
  cJSON_Delete(doc);
}

/* A consequence of a copy: the new cloneRows (its calls only in the new
 * build) is the root where it was sampled before sameRow; where it is too
 * short for that, renderView, whose code changed to call it. sameRow, run
 * by patchRows once its identity short cut fails, comes after cloneRows
 * as a consequence; under renderView it is where renderView's time
 * landed (an ASan CI pass named renderView alone). */
static void test_consequence(void) {
  cJSON *doc = shape("clone", "old", "new", zt_tmp("clone"));
  if (!doc) return;
  const cJSON *rc = zt_jget(doc, "regression_causes"), *c;
  const char *root = zt_jstr(cJSON_GetArrayItem(rc, 0), "name");
  ZT_TRUE(!strcmp(root, "cloneRows") || !strcmp(root, "renderView"));
  c = first_cause(doc, !strcmp(root, "renderView") ? "renderView" : "cloneRows",
                  "upstream", NULL);
  /* where its time landed: the copy's consequence, either level */
  const char *l = c ? zt_jstr(c, "landed.name") : "";
  ZT_TRUE(!strcmp(l, "sameRow") || !strcmp(l, "patchRows"));
  int effect = 0;
  cJSON_ArrayForEach(c, rc) if (!strcmp(zt_jstr(c, "role"), "consequence"))
      effect += !strcmp(zt_jstr(c, "name"), "sameRow") ||
                !strcmp(zt_jstr(c, "name"), "patchRows");
  /* cloneRows runs beside the path to sameRow: the consequence is named
   * after it. renderView is up sameRow's own path: its landed names the
   * consequence, which is no cause of its own (docs/calls.md). */
  ZT_INT(effect, !strcmp(root, "renderView") ? 0 : 1);
  cJSON_Delete(doc);
}

/* Counts that cannot be taken: the page's work runs in a dedicated
 * worker, which the page's precise coverage does not reach. The cause is
 * today's (the one --counts 0 names), its counts unknown rather than
 * none, with a warning; and the worker's script, a request whose end only
 * the worker's session hears, does not keep the page from going quiet. */
static void test_worker(void) {
  char *log = NULL;
  cJSON *doc[2] = {NULL, NULL};
  for (int counts = 0; counts < 2; counts++) {
    int rc = zt_run_zamcap(&log,
                           "'%s' --old '%s' --new '%s' --pairs 3 --counts %d "
                           "--no-history --format json --out '%s'",
                           zt_tests("agent/shapes/shapes.json"),
                           zt_tests("agent/shapes/worker/old"),
                           zt_tests("agent/shapes/worker/new"), counts,
                           zt_tmp(counts ? "worker1" : "worker0"));
    ZT_TRUE(rc == 1);
    ZT_TRUE(log && !strstr(log, "did not go quiet"));
    if (counts) ZT_HAS(log, "warning: no call counts for /work.js");
    free(log);
    log = NULL;
    doc[counts] =
        zt_json("%s/report.json", zt_tmp(counts ? "worker1" : "worker0"));
  }
  if (!doc[0] || !doc[1]) goto out;
  const cJSON *c0 = cJSON_GetArrayItem(zt_jget(doc[0], "regression_causes"), 0),
              *c1 = cJSON_GetArrayItem(zt_jget(doc[1], "regression_causes"), 0);
  if (!ZT_TRUE(c0 && c1)) goto out;
  ZT_STR(zt_jstr(c0, "name"), "measureText");
  ZT_STR(zt_jstr(c1, "name"), zt_jstr(c0, "name"));
  ZT_TRUE(cJSON_GetObjectItem(c1, "named_by") == NULL);
  ZT_HAS(zt_jstr(c1, "evidence"), "no call counts");
  const cJSON *x;
  cJSON_ArrayForEach(x, zt_jget(c1, "calls")) {
    ZT_TRUE(cJSON_IsNull(cJSON_GetObjectItem(x, "old")));
    ZT_TRUE(cJSON_IsNull(cJSON_GetObjectItem(x, "new")));
  }
  ZT_STR(cJSON_GetStringValue(
             cJSON_GetArrayItem(zt_jget(doc[1], "counts.uncounted"), 0)),
         "/work.js");
out:
  cJSON_Delete(doc[0]);
  cJSON_Delete(doc[1]);
}

/* Counts refused: zamcap drives a real Chromium through covproxy.py,
 * which answers Profiler.startPreciseCoverage with a CDP error. The
 * count pair is dropped with the error said, and the causes are today's,
 * the time's landing place, not the loop's owner the counts would name. */
static void test_refused(void) {
  char cmd[2048], path[256];
  FILE *cf = NULL, *pf = NULL;
  int cport, proxy = -1, port = 0;
  int chrome = zt_chrome_devtools(zt_tmp("refused-profile"), 15000, &cport,
                                  path, sizeof path, &cf);
  if (!ZT_TRUE(chrome > 0 && cport > 0)) goto out;
  snprintf(cmd, sizeof cmd,
           "exec python3 '%s' ws://127.0.0.1:%d%s "
           "Profiler.startPreciseCoverage",
           zt_tests("agent/covproxy.py"), cport, path);
  proxy = zt_spawn(cmd, &pf);
  if (!ZT_TRUE(proxy > 0 && fscanf(pf, "%d", &port) == 1)) goto out;
  char *log = NULL;
  int rc = zt_run_zamcap(
      &log,
      "'%s' --old '%s' --new '%s' --pairs 3 --counts 1 --no-history "
      "--format json --browser-url ws://127.0.0.1:%d/devtools/browser/x "
      "--out '%s'",
      zt_tests("agent/shapes/shapes.json"), zt_tests("agent/shapes/cache/old"),
      zt_tests("agent/shapes/cache/new"), port, zt_tmp("refused"));
  ZT_INT(rc, 1);
  ZT_HAS(log, "warning: no call counts");
  ZT_HAS(log, "Profiler.startPreciseCoverage is refused here");
  free(log);
  cJSON *doc = zt_json("%s/report.json", zt_tmp("refused"));
  if (doc) {
    ZT_TRUE(cJSON_GetObjectItem(doc, "counts") == NULL);
    ZT_INT((int)zt_jnum(doc, "inputs.counts.pairs"), 0);
    const cJSON *c = cJSON_GetArrayItem(zt_jget(doc, "regression_causes"), 0);
    const char *n = c ? zt_jstr(c, "name") : "";
    ZT_TRUE(!strcmp(n, "tokenize") || !strcmp(n, "compileTemplate"));
    ZT_TRUE(c && cJSON_GetObjectItem(c, "named_by") == NULL);
    cJSON_Delete(doc);
  }
out:
  if (proxy > 0) zt_stop(proxy);
  if (pf) fclose(pf);
  if (chrome > 0) zt_stop(chrome);
  if (cf) fclose(cf);
}

/* Old code newly called: the new refresh re-renders every row on every
 * call, where the old one did so only when the height changed, which it
 * never does here. rerenderRows and what it calls were in the old script,
 * uncalled, with the same text: refresh, which calls them where it did
 * not, is named first, the time landing under it. */
static void test_uncalled(void) {
  cJSON *doc = shape("recheck", "old", "new", zt_tmp("recheck"));
  if (!doc) return;
  const cJSON *c = first_cause(doc, "refresh", "loop_owner", NULL);
  if (c) {
    const char *l = zt_jstr(c, "landed.name");
    ZT_TRUE(!strcmp(l, "cellText") || !strcmp(l, "renderRow") ||
            !strcmp(l, "rerenderRows"));
    ZT_TRUE(zt_jnum(c, "landed.calls_old") == 0);
    ZT_TRUE(zt_jnum(c, "landed.calls_new") > 0);
    ZT_HAS(zt_jstr(c, "evidence"), "the old build had the same code");
  }
  /* the old build's count file lists rerenderRows, never called */
  cJSON *cf = zt_json("%s/traces/old-calls-1.calls.json", zt_tmp("recheck"));
  const cJSON *sc, *f;
  int uncalled = 0;
  cJSON_ArrayForEach(sc, zt_jget(cf, "scripts"))
      cJSON_ArrayForEach(f, zt_jget(sc, "functions")) uncalled +=
      !strcmp(zt_jstr(f, "name"), "rerenderRows") && zt_jnum(f, "calls") == 0;
  ZT_INT(uncalled, 1);
  cJSON_Delete(cf);
  cJSON_Delete(doc);
}

/* An A/A of a shape names nothing, counts or not. */
static void test_aa(void) {
  cJSON *doc = shape("cache", "old", "old", zt_tmp("aa"));
  if (!doc) return;
  ZT_INT(cJSON_GetArraySize(zt_jget(doc, "regression_causes")), 0);
  ZT_INT(cJSON_GetArraySize(zt_jget(doc, "spread_causes")), 0);
  ZT_TRUE(zt_jnum(doc, "verdict.exit_code") != 1);
  cJSON_Delete(doc);
  /* the same script in both builds reads the same, whole */
  char ho[16], hn[16];
  app_hash(zt_tmp("aa"), "old", ho);
  app_hash(zt_tmp("aa"), "new", hn);
  ZT_TRUE(ho[0] != '\0');
  ZT_STR(hn, ho);
}

int main(int argc, char **argv) {
  zt_need_chrome();
  static const struct zt_case cases[] = {
      {"lost_cache", test_lost_cache}, {"per_element", test_per_element},
      {"inside_new", test_inside_new}, {"consequence", test_consequence},
      {"uncalled", test_uncalled},     {"worker", test_worker},
      {"refused", test_refused},       {"aa", test_aa},
  };
  return ZT_RUN(cases, argc, argv);
}
