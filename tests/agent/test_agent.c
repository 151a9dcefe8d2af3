/* The one command, end to end in headless Chromium: each demo app's
 * documented regression is found, with its end-to-end figures and the
 * reports; an A/A run finds nothing; a build the scenario cannot drive
 * fails at warm-up; a pair whose new run fails is dropped and the rest
 * reported; a run whose renderer is killed is retried; usage errors. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "test.h"
#include "zc.h"

/* report.json's end-to-end metric by name. */
static const cJSON *metric(const cJSON *rep, const char *name) {
  const cJSON *m;
  cJSON_ArrayForEach(
      m, zt_jget(rep, "end_to_end.metrics")) if (!strcmp(zt_jstr(m, "name"),
                                                         name)) return m;
  return NULL;
}

/* The first regression-cause of a report, or NULL. */
static const cJSON *first_cause(const cJSON *rep) {
  return cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "regression_causes"), 0);
}

/* Whether an end-to-end metric's new value is above its old one in every
 * pair: what a page whose new build does more of the same work
 * guarantees on any machine, however fast. */
static int more_in_every_pair(const cJSON *m) {
  const cJSON *o = zt_jget(m, "old.values"), *n = zt_jget(m, "new.values");
  int k = cJSON_GetArraySize(o);
  if (!k || k != cJSON_GetArraySize(n)) return 0;
  for (int i = 0; i < k; i++)
    if (!(cJSON_GetArrayItem(n, i)->valuedouble >
          cJSON_GetArrayItem(o, i)->valuedouble))
      return 0;
  return 1;
}

/* Whether a cause grew by the report's mu or more in each of its pairs:
 * the rule that names it, read back from report.json. */
static int over_mu_in_every_pair(const cJSON *rep, const cJSON *cause) {
  double mu = zt_jnum(rep, "options.mu_ms");
  const cJSON *d;
  int k = 0;
  cJSON_ArrayForEach(d, zt_jget(cause, "delta_ms_per_pair")) {
    if (!(cJSON_IsNumber(d) && d->valuedouble >= mu)) return 0;
    k++;
  }
  return mu > 0 && k == (int)zt_jnum(rep, "inputs.pairs");
}

/* Runs whose status is st. */
static int count_runs(const cJSON *rep, const char *st) {
  int n = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, cJSON_GetObjectItem(rep, "runs")) n +=
      !strcmp(zt_jstr(r, "status"), st);
  return n;
}

/* Whether text names one of names as a cause: "NAME (/app.js:" in
 * output, or "name": "NAME" in report.json. */
static int has_cause(const char *text, const char *const *names, int json) {
  for (; text && *names; names++) {
    char fn[160];
    if (json)
      snprintf(fn, sizeof fn, "\"name\":\t\"%s\"", *names);
    else
      snprintf(fn, sizeof fn, "%s (/app.js:", *names);
    if (strstr(text, fn)) return 1;
  }
  return 0;
}

/* The cause is one of names (NULL-terminated), on path. */
/* The report folder's critical-graph.svg was drawn (setup.sh installs
 * Graphviz) and report.html, opened in headless Chromium, shows it: the
 * picture decodes to a non-empty image. zamcap's own replay opens the page
 * (the folder served on 127.0.0.1) and waits for that. */
static void shows_graph(const char *app) {
  char path[4200];
  snprintf(path, sizeof path, "%s/critical-graph.svg", zt_tmp(app));
  char *svg = zt_read(path);
  ZT_HAS(svg, "<svg");
  free(svg);
  char scn[4200], out[4200];
  snprintf(scn, sizeof scn, "%s-shows-graph.json", zt_tmp(app));
  zt_write_str(
      scn, "{\"title\": \"report.html shows the drawn graph\", \"steps\": ["
           "{\"type\": \"navigate\", \"url\": \"http://x.test/report.html\"},"
           "{\"type\": \"waitForExpression\", \"timeout\": 10000, "
           "\"expression\": \"[...document.images].some(i => "
           "i.src.startsWith('data:image/svg+xml') && i.complete && "
           "i.naturalWidth > 100 && i.naturalHeight > 20)\"}]}");
  snprintf(out, sizeof out, "%s-shows-graph", zt_tmp(app));
  char *log = NULL;
  int rc = zt_run_zamcap(&log, "record '%s' --url '%s' --out '%s'", scn,
                         zt_tmp(app), out);
  ZT_INT(rc, 0);
  if (rc) fprintf(stderr, "%s\n", log);
  free(log);
}

static void expect_cause(const char *app, const char *const *names,
                         const char *path) {
  char *out = NULL;
  int rc =
      zt_run_zamcap(&out, "'%s' --old '%s' --new '%s' --pairs 2 --out '%s'",
                    zt_demo("%s.json", app), zt_demo("%s/old", app),
                    zt_demo("%s/new", app), zt_tmp(app));
  ZT_INT(rc, 1);
  if (!ZT_TRUE(has_cause(out, names, 0))) fprintf(stderr, "%s\n", out);
  ZT_HAS(out, path);
  /* Interleaved and counterbalanced: pair 2 runs the new build first. */
  const char *n2 = out ? strstr(out, "pair 2/2, new build") : NULL;
  const char *o2 = out ? strstr(out, "pair 2/2, old build") : NULL;
  ZT_TRUE(n2 && o2 && n2 < o2);
  ZT_HAS(out, "warm-up 1/1, old build");
  if (rc != 1) fprintf(stderr, "%s\n", out);
  free(out);
  char trace[4200];
  snprintf(trace, sizeof trace, "%s/traces/new-2.json.gz", zt_tmp(app));
  char *t = zt_read(trace);
  ZT_TRUE(t != NULL);
  free(t);
  snprintf(trace, sizeof trace, "%s/report.json", zt_tmp(app));
  t = zt_read(trace);
  ZT_TRUE(has_cause(t, names, 1));
  free(t);
  /* The end-to-end figures: the scenario got significantly slower, with
   * the wall time of each step; every run is listed with its trace. */
  cJSON *rep = zt_json("%s/report.json", zt_tmp(app));
  const cJSON *sc = metric(rep, "scenario_ms");
  ZT_TRUE(sc != NULL);
  /* Two pairs give a wide interval (t = 12.7 with one degree of freedom):
   * only that the field is there is checked here; test_figures checks the
   * arithmetic. */
  ZT_TRUE(cJSON_IsBool(cJSON_GetObjectItem(sc, "significant")));
  ZT_TRUE(zt_jnum(sc, "old.mean") > 0);
  /* Wall time carries waits and the machine's load; the CPU time in
   * JavaScript is the steadier witness of the regression. The new build
   * does several times the old one's work there, so it takes longer in
   * every pair on any machine; how many ms longer depends on the CPU. */
  ZT_TRUE(more_in_every_pair(metric(rep, "scripting_ms")));
  ZT_TRUE(over_mu_in_every_pair(rep, first_cause(rep)));
  ZT_INT(cJSON_GetArraySize(
             cJSON_GetObjectItem(cJSON_GetObjectItem(sc, "old"), "values")),
         2);
  ZT_TRUE(metric(rep, "long_tasks") != NULL);
  ZT_TRUE(cJSON_GetArraySize(cJSON_GetObjectItem(
              cJSON_GetObjectItem(rep, "end_to_end"), "steps")) >= 5);
  ZT_INT(count_runs(rep, "ok"), 4);
  const cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "runs"), 0);
  ZT_STR(zt_jstr(r0, "trace"), "traces/old-1.json.gz");
  ZT_INT((int)zt_jnum(rep, "verdict.exit_code"), 1);
  ZT_TRUE(has_cause(zt_jstr(rep, "verdict.text"), names, 0));
  ZT_TRUE(strstr(zt_jstr(rep, "environment.chrome"), "Chrome/") != NULL);
  const cJSON *fl = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "environment"),
                                        "chrome_flags");
  ZT_TRUE(cJSON_IsString(cJSON_GetArrayItem(fl, 0)) &&
          !strcmp(cJSON_GetArrayItem(fl, 0)->valuestring, "--headless"));
  ZT_TRUE(zt_jnum(rep, "inputs.pairs") == 2);
  cJSON_Delete(rep);
  snprintf(trace, sizeof trace, "%s/summary.md", zt_tmp(app));
  t = zt_read(trace);
  ZT_HAS(t, "End to end, old → new:");
  ZT_HAS(t, "- scenario wall time: ");
  free(t);
  snprintf(trace, sizeof trace, "%s/report.html", zt_tmp(app));
  t = zt_read(trace);
  ZT_TRUE(t && strstr(t, "<html") != NULL);
  free(t);
  /* zamcap html writes it again from report.json. */
  ZT_INT(zt_sh(NULL, "rm '%s' && '%s' html '%s' >/dev/null && test -s '%s'",
               trace, zt_zamcap(), zt_tmp(app), trace),
         0);
  shows_graph(app);
}

static void test_todo(void) {
  /* dedupeTitles is new; zamcap descends into it, to titleKey when V8
   * left that call standing in every pair, else it stops there. */
  static const char *const names[] = {"dedupeTitles", "titleKey", NULL};
  expect_cause("todo", names,
               "onFilterClick > applyFilter > renderList > dedupeTitles");
}

static void test_search(void) {
  static const char *const names[] = {"buildHighlightPattern", NULL};
  expect_cause("search", names, "highlightMatches > buildHighlightPattern");
}

static void aa_verdict(const cJSON *rep, int rc);

/* --pairs auto, the default: a clear regression is decided in the first
 * 3 pairs; an A/A run goes on until the end-to-end time is decided too,
 * and finds nothing: "no regression", or, where --max-pairs came first
 * (a loaded machine's wall time varies more), inconclusive, saying why. */
static void test_auto(void) {
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "'%s' --old '%s' --new '%s' --out '%s'",
                         zt_demo("todo.json"), zt_demo("todo/old"),
                         zt_demo("todo/new"), zt_tmp("auto-ab"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "3 to 12 pairs (auto)");
  /* The cause is decided at 3 pairs; the end-to-end time too on a quiet
   * machine, a pair or two later on a loaded one. */
  ZT_HAS(out, "after 3 pairs: regression (regression-causes found), 0 "
              "undecided, end-to-end ");
  ZT_HAS(out, " pairs (decided)");
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp("auto-ab"));
  unsigned ab = (unsigned)zt_jnum(rep, "sampling.pairs");
  ZT_TRUE(ab >= 3 && ab <= 12);
  ZT_STR(zt_jstr(rep, "sampling.stopped"), "decided");
  ZT_STR(zt_jstr(rep, "verdict.state"), "regression");
  ZT_STR(zt_jstr(rep, "verdict.end_to_end.state"), "regressed");
  /* the count pair, run after the verdict was asked for, is in the
   * verdict's graph: dedupeTitles, new code by construction, calls the
   * new titleKey thousands of times per call of its own (its loop), or
   * V8 inlined titleKey into it; either way it is named with the counts'
   * evidence that it never ran before */
  ZT_STR(zt_jstr(rep, "regression_causes.0.name"), "dedupeTitles");
  ZT_HAS(zt_jstr(rep, "regression_causes.0.evidence"), "never");
  cJSON_Delete(rep);
  rc = zt_run_zamcap(&out,
                     "'%s' --old '%s' --new '%s' --max-pairs 8 --out "
                     "'%s'",
                     zt_demo("todo.json"), zt_demo("todo/old"),
                     zt_demo("todo/old"), zt_tmp("auto-aa"));
  if (rc != 0 && rc != 5) fprintf(stderr, "%s\n", out);
  free(out);
  rep = zt_json("%s/report.json", zt_tmp("auto-aa"));
  unsigned n = (unsigned)zt_jnum(rep, "sampling.pairs");
  ZT_TRUE(n >= 3 && n <= 8);
  aa_verdict(rep, rc);
  ZT_STR(zt_jstr(rep, "verdict.state"), rc ? "inconclusive" : "no regression");
  /* it stops undecided only at the most pairs it may run, or starved */
  if (rc == 5 &&
      strcmp(zt_jstr(rep, "sampling.stopped"), "--max-pairs reached"))
    ZT_HAS(zt_jstr(rep, "verdict.text"), "too busy to measure on");
  cJSON_Delete(rep);
}

/* A page that polls every 5 ms forever, whose new build's handler costs
 * 3 times the old one's: the new build never goes quiet, and that is the
 * regression, reported as such (not exit 3, no report). */
static void test_never_quiet(void) {
  char *out = NULL;
  const char *scn = zt_agent_app("pollapp", "poll.json");
  const char *oldb = zt_agent_app("pollapp", "old");
  const char *newb = zt_agent_app("pollapp", "new");
  int rc = zt_run_zamcap(&out,
                         "'%s' --old '%s' --new '%s' --pairs 2 --warmup 0 "
                         "--settle-max 2000 --out '%s'",
                         scn, oldb, newb, zt_tmp("never-quiet"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "the page did not go quiet in ");
  ZT_HAS(out, "checkForUpdates (/index.html:");
  if (rc != 1) fprintf(stderr, "%s\n", out);
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp("never-quiet"));
  int unsettled = 0;
  const cJSON *r;
  cJSON_ArrayForEach(
      r,
      cJSON_GetObjectItem(
          rep, "runs")) if (cJSON_IsFalse(cJSON_GetObjectItem(r, "settled")) &&
                            !strcmp(zt_jstr(r, "build"), "new") &&
                            zt_jnum(r, "busy_pct") > 0) unsettled++;
  ZT_INT(unsettled, 2);
  cJSON_Delete(rep);
}

/* Production bundles (tests/agent/bundles, built by build.sh with four
 * real bundlers): the new build's formatCell asks checksum for 4 times the
 * rounds; the minifier names them differently in each build. Through the
 * source maps, the causes have their original names and lines, and the
 * paths their original callers. */
static int path_has(const cJSON *cause, const char *name) {
  const cJSON *x;
  cJSON_ArrayForEach(
      x, cJSON_GetObjectItem(cause, "path")) if (cJSON_IsString(x) &&
                                                 !strcmp(x->valuestring,
                                                         name)) return 1;
  return 0;
}

/* V8's call counts, taken at the minified functions' places, reach the
 * original names through the map (issue 35): cause c, fn at the end of
 * its path, is called as often in both builds (the same rows and
 * columns), and slower per call (4 times the rounds). */
static void same_calls_slower(const cJSON *c, const char *fn) {
  const cJSON *calls = zt_jget(c, "calls");
  const cJSON *last = cJSON_GetArrayItem(calls, cJSON_GetArraySize(calls) - 1);
  ZT_STR(zt_jstr(last, "function"), fn);
  ZT_TRUE(zt_jnum(last, "old") > 0);
  ZT_TRUE(zt_jnum(last, "old") == zt_jnum(last, "new"));
  ZT_TRUE(zt_jnum(c, "split.per_call_ms") > zt_jnum(c, "split.calls_ms"));
}

/* root: the cause whose code changed, first; deep: a caller on its
 * path; conseq: where the bundle keeps checksum apart from its changed
 * caller, checksum, the same code given more rounds, is where the root's
 * time landed, no cause of its own; the root is the only cause. */
static void check_bundle(const char *b, const char *root, const char *deep,
                         const char *conseq) {
  char *out = NULL, o[64];
  snprintf(o, sizeof o, "bundle-%s", b);
  int rc = zt_run_zamcap(&out,
                         "'%s' --old '%s' --new '%s' --pairs 2 --warmup 0 "
                         "--out '%s'",
                         zt_tests("agent/bundles/app.json"),
                         zt_tests("agent/bundles/%s/old", b),
                         zt_tests("agent/bundles/%s/new", b), zt_tmp(o));
  ZT_INT(rc, 1);
  ZT_HAS(out, "source maps: 2 of 2 scripts mapped");
  if (rc != 1) fprintf(stderr, "%s\n", out);
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp(o));
  const cJSON *c = first_cause(rep);
  ZT_STR(zt_jstr(c, "name"), root);
  ZT_STR(zt_jstr(c, "role"), "root");
  ZT_HAS(zt_jstr(c, "file"), "src/cells.js");
  ZT_TRUE(zt_jnum(c, "line") > 0);
  ZT_STR(zt_jstr(c, "status"), "slower"); /* matched across builds */
  /* V8's name: the minifier's, or none for a function it inlined */
  const char *mn = zt_jstr(c, "minified.name");
  ZT_TRUE(strcmp(mn, root) != 0);
  ZT_TRUE(*mn || !strcmp(root, "checksum"));
  ZT_TRUE(path_has(c, "buildRows"));
  ZT_TRUE(path_has(c, deep));
  ZT_TRUE(zt_jnum(rep, "source_maps.renamed") >= 4);
  same_calls_slower(c, root);
  if (conseq) { /* called as often, below the root on its path */
    ZT_STR(zt_jstr(c, "landed.name"), conseq);
    ZT_HAS(zt_jstr(c, "landed.file"), "src/cells.js");
    ZT_TRUE(zt_jnum(c, "landed.calls_old") > 0);
    ZT_TRUE(zt_jnum(c, "landed.calls_old") == zt_jnum(c, "landed.calls_new"));
  }
  ZT_INT(cJSON_GetArraySize(zt_jget(rep, "regression_causes")), 1);
  cJSON_Delete(rep);
}

static void test_bundles(void) {
  /* esbuild keeps every function: formatCell passes checksum 4 times
   * the rounds; checksum, 5 calls deep, is where its time landed */
  check_bundle("esbuild", "formatCell", "renderReport", "checksum");
  /* report.html shows what V8 ran beside the original name */
  char p[4200];
  snprintf(p, sizeof p, "%s/report.html", zt_tmp("bundle-esbuild"));
  char *html = zt_read(p);
  ZT_HAS(html ? html : "", "(u at main-QWVESZII.js:1:11)</span>");
  free(html);
  /* terser and rollup (an index map) inline checksum into formatCell as
   * an anonymous function (V8: "e"), the rounds passed to it. rollup's
   * map carries the sources' texts, where it is "function checksum(":
   * checksum is named, under formatCell, as DevTools names it (issue
   * 26.11). terser's map has no texts and inlines renderReport too:
   * formatCell alone. webpack folds the rounds into checksum's own code
   * ("8e4" for "2e4"): there checksum's code changed, and it is the
   * root, under formatCell. */
  check_bundle("terser", "formatCell", "buildRows", NULL);
  check_bundle("rollup", "formatCell", "renderReport", "checksum");
  check_bundle("webpack", "checksum", "formatCell", NULL);
}

/* tests/agent/faultserve.py serving dir on 127.0.0.1 (with args, faults
 * on cue; without, a plain static server); returns its port (0 on
 * failure), its pid in *pid. name: its port file in the test's folder. */
static int static_server(const char *dir, const char *name, const char *args,
                         int *pid, FILE **log) {
  const char *pf = zt_tmp(name);
  unlink(pf);
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "exec python3 '%s' '%s' '%s' %s",
           zt_tests("agent/faultserve.py"), dir, pf, args);
  *pid = zt_spawn(cmd, log);
  for (int i = 0; i < 100; i++) {
    char *t = zt_read(pf);
    if (t) {
      int port = atoi(t);
      free(t);
      return port;
    }
    zc_sleep_ms(50);
  }
  return 0;
}

/* A URL build: the maps are fetched after the runs and kept in
 * OUT/sourcemaps/, and `zamcap compare RUN_DIR` names the same functions
 * without the servers. */
static void test_bundle_url(void) {
  int pid[2];
  FILE *log[2];
  int po = static_server(zt_tests("agent/bundles/esbuild/old"), "url-old.port",
                         "", &pid[0], &log[0]);
  int pn = static_server(zt_tests("agent/bundles/esbuild/new"), "url-new.port",
                         "", &pid[1], &log[1]);
  char *out = NULL;
  const char *o = zt_tmp("bundle-url");
  int rc = -1;
  if (ZT_TRUE(po > 0 && pn > 0))
    rc = zt_run_zamcap(&out,
                       "'%s' --old http://127.0.0.1:%d/ --new "
                       "http://127.0.0.1:%d/ --pairs 2 --warmup 0 --out '%s'",
                       zt_tests("agent/bundles/app.json"), po, pn, o);
  for (int i = 0; i < 2; i++) {
    zt_stop(pid[i]);
    if (log[i]) fclose(log[i]);
  }
  ZT_INT(rc, 1);
  ZT_HAS(out, "source maps: 2 of 2 scripts mapped");
  if (rc != 1) fprintf(stderr, "%s\n", out);
  free(out);
  char p[4200];
  snprintf(p, sizeof p, "%s/sourcemaps/index.json", o);
  char *idx = zt_read(p);
  ZT_HAS(idx ? idx : "", "main-QWVESZII.js");
  ZT_HAS(idx ? idx : "", "main-6YZMCLM4.js");
  free(idx);
  rc = zt_run_zamcap(&out, "compare '%s' --out '%s'", o,
                     zt_tmp("bundle-url-cmp"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "formatCell (/src/cells.js:18) [c at main-QWVESZII.js:1:186]");
  ZT_HAS(out, "under it, checksum does more");
  if (rc != 1) fprintf(stderr, "%s\n", out);
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp("bundle-url-cmp"));
  ZT_STR(zt_jstr(first_cause(rep), "name"), "formatCell");
  ZT_STR(zt_jstr(first_cause(rep), "landed.name"), "checksum");
  cJSON_Delete(rep);
  /* --no-source-maps: the minified names, as before */
  rc = zt_run_zamcap(&out, "compare '%s' --no-source-maps --out '%s'", o,
                     zt_tmp("bundle-url-raw"));
  ZT_TRUE(out && !strstr(out, "checksum"));
  free(out);
}

/* A click that leaves for another host (the same server as localhost
 * instead of 127.0.0.1): the run is measured as it is, and says so, on
 * stderr and in report.json's runs (issue 26). */
static void test_navigated_away(void) {
  char *out = NULL;
  const char *dir = zt_agent_app("navaway", ""),
             *scn = zt_agent_app("navaway", "navaway.json");
  int rc = zt_run_zamcap(&out,
                         "'%s' --old '%s' --new '%s' --pairs 1 --warmup 0 "
                         "--retries 0 --out '%s'",
                         scn, dir, dir, zt_tmp("navaway"));
  ZT_TRUE(rc == 0 || rc == 5); /* an A/A; 5 on a starved machine */
  ZT_HAS(out, "another host than the build's");
  ZT_HAS(out, "http://localhost:");
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp("navaway"));
  const cJSON *r;
  int away = 0;
  cJSON_ArrayForEach(r, cJSON_GetObjectItem(rep, "runs")) away +=
      !strncmp(zt_jstr(r, "navigated_away"), "http://localhost:", 17);
  ZT_INT(away, 2);
  cJSON_Delete(rep);
}

/* --preset mobile: the page sees the Moto G Power's screen, pixel ratio
 * and user agent in every run of both builds (a step waits for them, and
 * would time out without), and report.json says which preset ran
 * (issue 23.3); an unknown preset is a usage error. */
static void test_preset(void) {
  char *out = NULL;
  const char *dir = zt_agent_app("navaway", ""), *scn = zt_tmp("preset.json");
  zt_write_str(scn, "{\"title\": \"the preset's device\", \"steps\": ["
                    "{\"type\": \"navigate\", \"url\": "
                    "\"http://localhost:8080/index.html\"},"
                    "{\"type\": \"waitForExpression\", \"timeout\": 5000, "
                    "\"expression\": \"screen.width === 412 && "
                    "devicePixelRatio === 1.75 && "
                    "navigator.userAgent.includes('moto g power')\"}]}");
  int rc = zt_run_zamcap(&out,
                         "'%s' --old '%s' --new '%s' --pairs 1 --warmup 0 "
                         "--retries 0 --preset mobile --out '%s'",
                         scn, dir, dir, zt_tmp("preset"));
  /* one pair of one build at 4 times less CPU: 0, or 5 when the machine
   * is too busy (the report saying so); never 1 */
  ZT_TRUE(rc == 0 || rc == 5);
  if (rc == 5) zt_verdict_ok(rc, zt_tmp("preset"));
  if (rc) fprintf(stderr, "%s\n", out);
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp("preset"));
  const cJSON *inp = cJSON_GetObjectItem(rep, "inputs");
  ZT_STR(zt_jstr(inp, "preset.name"), "mobile");
  ZT_INT((int)zt_jnum(inp, "cpu_throttle"), 4);
  cJSON_Delete(rep);
  rc = zt_run_zamcap(&out, "'%s' --old '%s' --new '%s' --preset tablet", scn,
                     dir, dir);
  ZT_INT(rc, 2);
  ZT_HAS(out, "--preset tablet: give mobile or desktop");
  free(out);
}

/* The verdict of an A/A: 0, or 5 when the pairs could not rule out a
 * small change (or the machine was too busy), which the report then says
 * (issue 34: exit 0 means "not slower"). Never 1, and no name. */
static void aa_verdict(const cJSON *rep, int rc) {
  ZT_TRUE(rc == 0 || rc == 5);
  ZT_INT((int)zt_jnum(rep, "verdict.exit_code"), rc);
  if (rc == 5)
    ZT_TRUE(cJSON_GetArraySize(zt_jget(rep, "verdict.inconclusive_because")) >
            0);
  ZT_INT((int)zt_jnum(rep, "aggregate.causes"), 0);
  ZT_INT(cJSON_GetArraySize(zt_jget(rep, "regression_causes")), 0);
  ZT_INT(cJSON_GetArraySize(zt_jget(rep, "spread_causes")), 0);
  ZT_INT(cJSON_GetArraySize(zt_jget(rep, "unexplained_causes")), 0);
}

static void test_aa(void) {
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "'%s' --old '%s' --new '%s' --out '%s'",
                         zt_demo("todo.json"), zt_demo("todo/old"),
                         zt_demo("todo/old"), zt_tmp("aa"));
  ZT_HAS(out, "No regression-cause (no function got slower by");
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp("aa"));
  aa_verdict(rep, rc);
  cJSON_Delete(rep);
}

/* A process that keeps one core busy until killed (or its parent dies). */
static pid_t burn(void) {
  pid_t p = fork();
  if (p == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    for (volatile unsigned long i = 0;; i++) {
    }
  }
  return p;
}

/* Issue 25: an A/A run with both cores kept busy by other processes (the
 * load moves native and wall time most) names no function, and (program)
 * or garbage collection never are causes. */
static void test_aa_loaded(void) {
  pid_t b[2] = {burn(), burn()};
  char *out = NULL;
  int rc =
      zt_run_zamcap(&out, "'%s' --old '%s' --new '%s' --pairs 3 --out '%s'",
                    zt_demo("todo.json"), zt_demo("todo/old"),
                    zt_demo("todo/old"), zt_tmp("aa-loaded"));
  for (int i = 0; i < 2; i++)
    if (b[i] > 0) kill(b[i], SIGKILL), waitpid(b[i], NULL, 0);
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp("aa-loaded"));
  aa_verdict(rep, rc);
  cJSON_Delete(rep);
}

/* A build served by tests/scenarios/faultserve.py, which fails on cue. */
static int fault_pid;
static FILE *fault_out;
static void fault_stop(void) {
  zt_stop(fault_pid);
  if (fault_out) fclose(fault_out);
  fault_out = NULL;
}
static int faultserve(const char *dir, const char *args) {
  return static_server(dir, "fault.port", args, &fault_pid, &fault_out);
}

/* A URL's user:password and token reach no file of the output folder
 * (reports, traces) and no message. */
static void test_url_secrets(void) {
  int port = faultserve(zt_demo("todo/old"), "");
  if (!ZT_TRUE(port > 0)) return;
  char *out = NULL;
  const char *o = zt_tmp("secrets");
  int rc = zt_run_zamcap(
      &out,
      "'%s' --old 'http://zuser:s3cretpw@127.0.0.1:%d/"
      "?x=1&access_token=t0k3nval#id_token=1dt0k' --new "
      "'http://zuser:s3cretpw@127.0.0.1:%d/?access_token=t0k3nval' "
      "--warmup 0 --pairs 1 --out '%s' -v",
      zt_demo("todo.json"), port, port, o);
  fault_stop();
  /* one pair of one build: its verdict is noise (a slow sanitizer build
   * can pass μ, a loaded machine give 5); what is tested is that the run
   * completes */
  zt_verdict_ok(rc, o);
  ZT_HAS(out, "--old: its user:password is masked");
  ZT_TRUE(out && !strstr(out, "s3cretpw") && !strstr(out, "t0k3nval") &&
          !strstr(out, "1dt0k"));
  free(out);
  cJSON *rep = zt_json("%s/report.json", o);
  ZT_HAS(zt_jstr(rep, "inputs.old"), "http://**************@127.0.0.1:");
  ZT_HAS(zt_jstr(rep, "inputs.old"), "?x=1&access_token=********#id_token=*");
  cJSON_Delete(rep);
  /* every file, the traces unpacked; and they are still traces */
  ZT_INT(zt_sh(&out,
               "cd '%s' && for f in $(find . -type f); do case $f in "
               "*.gz) zcat $f;; *) cat $f;; esac; done | grep -a -c "
               "'s3cretpw\\|t0k3nval\\|1dt0k\\|zuser'",
               o),
         1);
  ZT_HAS(out, "0");
  free(out);
  ZT_INT(zt_sh(NULL,
               "zcat '%s'/traces/old-1.json.gz | grep -c "
               "'http://\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*@127.0.0.1'",
               o),
         0);
  ZT_INT(zt_run_zamcap(NULL, "tree '%s'/traces/new-1.json.gz >/dev/null", o),
         0);
}

/* An --attach-header value the page shows too (here in the build URL's
 * query, under a name that does not look secret) reaches no output: the
 * terminal, report.json, report.html, summary.md, the traces, the
 * history. Before the value went through the one masking, report.json's
 * inputs and the traces carried it. */
static void test_header_secrets(void) {
  int port = faultserve(zt_demo("todo/old"), "");
  if (!ZT_TRUE(port > 0)) return;
  char *out = NULL;
  const char *o = zt_tmp("hdr/run");
  int rc =
      zt_run_zamcap(&out,
                    "'%s' --old 'http://127.0.0.1:%d/?q=Hdr7okenValue99' "
                    "--new 'http://127.0.0.1:%d/?q=Hdr7okenValue99' --warmup 0 "
                    "--pairs 1 --out '%s' -v --attach http://127.0.0.1:9/up "
                    "--attach-header 'X-Api-Key: Hdr7okenValue99'",
                    zt_demo("todo.json"), port, port, o);
  fault_stop();
  ZT_TRUE(rc != 2 && rc != 4);
  ZT_TRUE(out && !strstr(out, "Hdr7okenValue99"));
  if (out && strstr(out, "Hdr7okenValue99")) fprintf(stderr, "%s\n", out);
  free(out);
  cJSON *rep = zt_json("%s/report.json", o);
  ZT_HAS(zt_jstr(rep, "inputs.old"), "?q=***************");
  cJSON_Delete(rep);
  /* every file beside and in the run folder (history.db included), the
   * traces unpacked */
  ZT_INT(zt_sh(&out,
               "cd '%s' && ls report.html summary.md traces/old-1.json.gz "
               ">/dev/null && cd .. && for f in $(find . -type f); do case "
               "$f in *.gz) zcat $f;; *) cat $f;; esac; done | grep -a -c "
               "Hdr7okenValue99",
               o),
         1);
  ZT_HAS(out, "0");
  free(out);
}

/* The new build breaks from its second page load on: pair 2 (new build
 * first) fails and is dropped; pair 1 is still analysed and reported,
 * the exit code says capture was incomplete, and the traces stay. */
static void test_dropped_pair(void) {
  int port = faultserve(zt_demo("todo/new"), "--break-from 2");
  if (!ZT_TRUE(port > 0)) return;
  char *out = NULL;
  const char *o = zt_tmp("dropped");
  int rc = zt_run_zamcap(&out,
                         "'%s' --old '%s' --new http://127.0.0.1:%d/ "
                         "--warmup 0 --pairs 2 --retries 0 --step-timeout 2000 "
                         "--out '%s'",
                         zt_demo("todo.json"), zt_demo("todo/old"), port, o);
  fault_stop();
  ZT_INT(rc, 3);
  ZT_HAS(out, "pair 2/2, new build failed (try 1 of 1)");
  ZT_HAS(out, "capture incomplete: 1 of 2 pairs dropped");
  ZT_HAS(out, "dedupeTitles"); /* pair 1's finding */
  free(out);
  ZT_INT(zt_sh(NULL,
               "test -s '%s/traces/old-1.json.gz' && test -s "
               "'%s/traces/new-1.json.gz'",
               o, o),
         0);
  cJSON *rep = zt_json("%s/report.json", o);
  ZT_INT(cJSON_GetArraySize(cJSON_GetObjectItem(rep, "dropped_pairs")), 1);
  ZT_INT((int)zt_jnum(rep, "verdict.exit_code"), 3);
  ZT_HAS(zt_jstr(rep, "verdict.text"), "Capture incomplete: 1 of 2 pairs");
  ZT_INT(count_runs(rep, "failed"), 1);
  const cJSON *r;
  cJSON_ArrayForEach(
      r, cJSON_GetObjectItem(rep, "runs")) if (!strcmp(zt_jstr(r, "status"),
                                                       "failed")) {
    ZT_HAS(zt_jstr(r, "error"), "no element matched");
    ZT_HAS(zt_jstr(r, "failure"), "failures/new-2-try-1-step-");
  }
  cJSON_Delete(rep);
}

/* Every renderer of zamcap's Chrome is killed when the new build's page
 * is first asked for: the comparison still completes with no pair
 * dropped. Which page dies depends on timing: the new build's, made ready
 * early while the old run's trace is flushed (then it is simply made
 * again), or the old run's too (then that run fails and is retried). */
static void test_retry_after_crash(void) {
  const char *o = zt_tmp("crashed");
  char args[4400], killed[4400];
  snprintf(args, sizeof args, "--crash-at 1 --out '%s'", o);
  snprintf(killed, sizeof killed, "%s.killed", o);
  unlink(killed);
  int port = faultserve(zt_demo("todo/new"), args);
  if (!ZT_TRUE(port > 0)) return;
  char *out = NULL;
  int rc = zt_run_zamcap(&out,
                         "'%s' --old '%s' --new http://127.0.0.1:%d/ "
                         "--warmup 0 --pairs 1 --retries 1 --out '%s'",
                         zt_demo("todo.json"), zt_demo("todo/old"), port, o);
  fault_stop();
  ZT_INT(rc, 1);
  ZT_HAS(out, "dedupeTitles");
  char *k = zt_read(killed);
  ZT_TRUE(k && atoi(k) >= 1);
  free(k);
  cJSON *rep = zt_json("%s/report.json", o);
  int failed = count_runs(rep, "failed");
  ZT_TRUE(failed <= 1);
  if (failed) {
    ZT_HAS(out, "build failed (try 1 of 2)");
    ZT_HAS(out, "crashed");
  }
  free(out);
  ZT_INT(count_runs(rep, "ok"), 2);
  ZT_INT(cJSON_GetArraySize(cJSON_GetObjectItem(rep, "dropped_pairs")), 0);
  cJSON_Delete(rep);
}

/* A build the scenario cannot drive (the filter buttons are gone) stops
 * at warm-up with the step that failed, and its screenshot. */
static void test_broken_build(void) {
  zt_sh(NULL,
        "rm -rf '%s' && cp -r '%s' '%s' && sed -i "
        "'s/id=\"filter-active\"/id=\"gone\"/; s/>Active</>Gone</' "
        "'%s/index.html'",
        zt_tmp("broken"), zt_demo("todo/new"), zt_tmp("broken"),
        zt_tmp("broken"));
  char *out = NULL;
  int rc = zt_run_zamcap(&out,
                         "'%s' --old '%s' --new '%s' --pairs 1 "
                         "--step-timeout 2000 --out '%s'",
                         zt_demo("todo.json"), zt_demo("todo/old"),
                         zt_tmp("broken"), zt_tmp("brokenout"));
  ZT_INT(rc, 3);
  ZT_HAS(out, "warm-up on the new build: step ");
  ZT_HAS(out, "no element matched in 2 s");
  free(out);
  ZT_INT(zt_sh(NULL, "ls '%s'/failures/warmup-1-new-step-*.png",
               zt_tmp("brokenout")),
         0);
  ZT_INT(zt_sh(NULL, "ls '%s'/failures/warmup-1-old-*", zt_tmp("brokenout")),
         2); /* the old build's warm-up passed */
}

/* On a terminal the status line is rewritten in place; in a log (every
 * other test here) each event is a line of its own. */
static void test_tty_progress(void) {
  char *out = NULL;
  int rc = zt_sh(&out,
                 "script -qec \"'%s' '%s' --old '%s' --new '%s' "
                 "--pairs 1 --warmup 0 --format json --out '%s'\" /dev/null",
                 zt_zamcap(), zt_demo("todo.json"), zt_demo("todo/old"),
                 zt_demo("todo/old"), zt_tmp("tty"));
  /* one A/A pair: noise may pass for a cause, a loaded machine give 5 */
  zt_verdict_ok(rc, zt_tmp("tty"));
  ZT_HAS(out, "\r\033[Kzamcap: [");
  ZT_HAS(out, "pair 1/1, new build ...");
  free(out);
  /* --format json: report.json only. */
  ZT_INT(zt_sh(NULL,
               "test -s '%s/report.json' && ! test -e '%s/report.html' "
               "&& ! test -e '%s/summary.md' && ! test -e "
               "'%s/critical-graph.dot'",
               zt_tmp("tty"), zt_tmp("tty"), zt_tmp("tty"), zt_tmp("tty")),
         0);
}

/* A disk that fills up in pair 2 (the test fills it once pair 1 is
 * done): one line naming the file and the error, exit 3, pair 1's traces
 * kept, no .part or empty file left, no Chrome left. The small disk is a
 * tmpfs: mounted as root, or else inside a user and mount namespace of
 * our own (unshare -rm), where the whole check runs. */
static void test_full_disk(void) {
  const char *mnt = zt_tmp("smalldisk");
  char script[4200];
  snprintf(script, sizeof script, "%s.sh", mnt);
  FILE *f = fopen(script, "w");
  if (!ZT_TRUE(f)) return;
  fprintf(f,
          "mount -t tmpfs -o size=8m tmpfs '%s' || exit 99\n"
          "'%s' '%s' --old '%s' --new '%s' --pairs 2 --warmup 0 --retries 0 "
          "--out '%s/out' -vv 2>'%s.log' &\n"
          "zp=$!; i=0; until grep -q 'pair 1/2, new build:' '%s.log' "
          "|| [ $i -gt 600 ]; do sleep 0.05; i=$((i+1)); done\n"
          "dd if=/dev/zero of='%s/fill' bs=64k 2>/dev/null\n"
          "wait $zp; echo rc=$?; cat '%s.log'\n"
          "test -s '%s/out/traces/old-1.json.gz' && "
          "test -s '%s/out/traces/new-1.json.gz' && echo pair-1-kept\n"
          "find '%s' -name '*.part' -o -type f -empty | grep . && "
          "echo left-behind\n"
          "umount '%s'\n",
          mnt, zt_zamcap(), zt_demo("todo.json"), zt_demo("todo/old"),
          zt_demo("todo/new"), mnt, mnt, mnt, mnt, mnt, mnt, mnt, mnt, mnt);
  fclose(f);
  zt_sh(NULL, "mkdir -p '%s'", mnt);
  char *out = NULL;
  int rc = zt_sh(&out,
                 "if [ \"$(id -u)\" = 0 ]; then sh '%s'; else "
                 "unshare -rm sh '%s'; fi",
                 script, script);
  if (rc == 99 || (rc && out && strstr(out, "unshare:"))) {
    zt_skip("cannot mount a tmpfs here (not root, no user namespaces)");
    free(out);
    return;
  }
  ZT_INT(rc, 0);
  ZT_HAS(out, "rc=3");
  ZT_HAS(out, "write failed: No space left on device");
  ZT_HAS(out, "pair-1-kept");
  ZT_TRUE(out && !strstr(out, "left-behind"));
  zt_no_orphan(out);
  free(out);
}

/* An output folder that cannot be made: a usage error naming it, before
 * any browser starts. */
static void test_unwritable_out(void) {
  char *out = NULL;
  ZT_INT(zt_run_zamcap(&out, "'%s' --old '%s' --new '%s' --out /etc/passwd/x",
                       zt_demo("todo.json"), zt_demo("todo/old"),
                       zt_demo("todo/new")),
         2);
  ZT_HAS(out, "/etc/passwd/x");
  ZT_TRUE(out && !strstr(out, "Chrome/"));
  free(out);
}

/* SIGINT in the middle of a pair: exit 130, what was recorded stays,
 * Chrome's whole group goes. */
static void test_sigint_mid_pair(void) {
  const char *o = zt_tmp("sigint");
  char *out = NULL;
  int rc = zt_sh(&out,
                 "rm -rf '%s'; mkdir -p '%s'; '%s' '%s' --old '%s' "
                 "--new '%s' --pairs 2 --warmup 0 --out '%s' -vv "
                 "2>'%s/log' & zp=$!; i=0; until grep -q 'pair 1/2, old "
                 "build:' '%s/log' || [ $i -gt 600 ]; do sleep 0.1; "
                 "i=$((i+1)); done; kill -INT $zp; wait $zp; echo rc=$?; "
                 "cat '%s/log'",
                 o, o, zt_zamcap(), zt_demo("todo.json"), zt_demo("todo/old"),
                 zt_demo("todo/new"), o, o, o, o);
  ZT_INT(rc, 0);
  ZT_HAS(out, "rc=130");
  ZT_HAS(out, "interrupted");
  zt_no_orphan(out);
  free(out);
  ZT_INT(zt_sh(NULL,
               "test -s '%s/traces/old-1.json.gz' && ! ls '%s'/traces/"
               "*.part",
               o, o),
         0);
}

static void test_usage(void) {
  char *out = NULL;
  ZT_INT(zt_run_zamcap(&out, "'%s' --old '%s'", zt_demo("todo.json"),
                       zt_demo("todo/old")),
         2);
  ZT_HAS(out, "give both --old URL|DIR and --new URL|DIR");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "run --help"), 0);
  ZT_HAS(out, "interleaved pairs");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "'%s' --old nowhere --new '%s' --chrome /none",
                       zt_demo("todo.json"), zt_demo("todo/new")),
         3);
  ZT_HAS(out, "--chrome /none: no executable there");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "'%s' --old a --new b --format pdf",
                       zt_demo("todo.json")),
         2);
  ZT_HAS(out, "--format wants a list of text, json, md, html, dot, folded, "
              "cpuprofile or all");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "'%s' --old a --new b --pairs some",
                       zt_demo("todo.json")),
         2);
  ZT_HAS(out, "--pairs wants auto or 1 to 100, not 'some'");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "'%s' --old a --new b --threshold 5x",
                       zt_demo("todo.json")),
         2);
  ZT_HAS(out, "--threshold wants a change in % or ms (5%, 20ms), not '5x'");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "'%s' --old a --new b --attach-header 'X: 1'",
                       zt_demo("todo.json")),
         2);
  ZT_HAS(out, "--attach-header without --attach URL");
  free(out);
  ZT_INT(zt_sh(&out,
               "env -u ZC_NO_SUCH '%s' '%s' --old a --new b --attach "
               "http://127.0.0.1:9/ --attach-header 'A: Bearer $ZC_NO_SUCH'",
               zt_zamcap(), zt_demo("todo.json")),
         2);
  ZT_HAS(out, "ZC_NO_SUCH");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "html /nonexistent"), 2);
  free(out);
}

int main(int argc, char **argv) {
  zt_need_chrome();
  static const struct zt_case cases[] = {
      {"todo", test_todo},
      {"search", test_search},
      {"aa", test_aa},
      {"aa_loaded", test_aa_loaded},
      {"navigated_away", test_navigated_away},
      {"preset", test_preset},
      {"bundles", test_bundles},
      {"bundle_url", test_bundle_url},
      {"auto", test_auto},
      {"never_quiet", test_never_quiet},
      {"broken_build", test_broken_build},
      {"dropped_pair", test_dropped_pair},
      {"url_secrets", test_url_secrets},
      {"header_secrets", test_header_secrets},
      {"retry_after_crash", test_retry_after_crash},
      {"tty_progress", test_tty_progress},
      {"full_disk", test_full_disk},
      {"unwritable_out", test_unwritable_out},
      {"sigint_mid_pair", test_sigint_mid_pair},
      {"usage", test_usage},
  };
  return ZT_RUN(cases, argc, argv);
}
