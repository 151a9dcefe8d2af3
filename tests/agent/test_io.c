/* I/O per call path in headless Chromium (issue 36), on tests/agent/ioapp:
 * its new build makes 48 requests where the old made one (loadPage), gets
 * a report ten times larger from the same endpoint (fetchReport), writes
 * the store to localStorage on every keystroke (onDraftInput now calls
 * saveDraft), puts each of 48 items to IndexedDB on its own
 * (storeItems), and makes its six statistics requests from statsB where
 * the old made them from statsA (moved: no cause). Both builds make a
 * request a service worker answers (cached) and two that fail. Each
 * regression is asserted by construction (k times the requests, the
 * function that asks), never by a measured time or size against a
 * constant. An A/A names nothing; the timed runs never carry the
 * wrapper; hostile pages (ioapp/hostile) run to the end with their caps
 * reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "test.h"
#include "zc.h"

enum { ITEMS = 48, KEYS = 31 /* "a draft typed one key at a time" */ };

static const char *app(const char *f) {
  return zt_agent_app("ioapp", f);
}

/* One build of the app in ZC_TMP, with the data test_io writes: the
 * items (one file for the page, one per item), the statistics, the
 * report (report_kb KB) and the background image. */
static const char *build(const char *name, const char *src, int report_kb) {
  static char dirs[4][4200];
  static int k;
  char *dir = dirs[k++ % 4];
  snprintf(dir, sizeof dirs[0], "%s", zt_tmp(name));
  int rc = zt_sh(NULL,
                 "rm -rf '%s' && cp -R '%s' '%s' && mkdir -p '%s/api/item' "
                 "'%s/img'",
                 dir, app(src), dir, dir, dir);
  ZT_INT(rc, 0);
  char path[4400], body[256];
  struct zc_buf all;
  zc_buf_init(&all, 1 << 20);
  ZT_INT(zc_buf_add(&all, "[", 1), 0);
  for (int i = 1; i <= ITEMS; i++) {
    int n = snprintf(body, sizeof body, "{\"id\": %d, \"name\": \"item %d\"}",
                     i, i);
    snprintf(path, sizeof path, "%s/api/item/%d", dir, i);
    zt_write(path, body, (size_t)n);
    ZT_INT(zc_buf_add(&all, body, (size_t)n), 0);
    ZT_INT(zc_buf_add(&all, i < ITEMS ? "," : "]", 1), 0);
  }
  snprintf(path, sizeof path, "%s/api/items", dir);
  zt_write(path, all.ptr, all.len);
  zc_buf_free(&all);
  snprintf(path, sizeof path, "%s/api/stats", dir);
  zt_write_str(path, "{\"n\": 1}");
  size_t rn = (size_t)report_kb * 1024;
  char *rep = malloc(rn);
  memset(rep, 'r', rn);
  snprintf(path, sizeof path, "%s/api/report", dir);
  zt_write(path, rep, rn);
  free(rep);
  snprintf(path, sizeof path, "%s/img/bg.png", dir);
  zt_write(path, "\x89PNG\r\n\x1a\n", 8);
  return dir;
}

/* zamcap on the app; the parsed report.json (the program is skipped when
 * there is no Chrome), and the log in *log when asked. */
static cJSON *run(const char *flow, const char *oldb, const char *newb,
                  const char *out, const char *more, int *rc, char **log) {
  char *l = NULL;
  *rc = zt_run_zamcap(&l,
                      "'%s' --old '%s' --new '%s' --io --pairs 3 --warmup 0 "
                      "--counts 0 --no-history --format json,html,md --out "
                      "'%s' %s 2>&1",
                      flow, oldb, newb, out, more ? more : "");
  if (!ZT_TRUE(*rc == 0 || *rc == 1 || *rc == 5))
    fprintf(stderr, "%s", l ? l : "");
  cJSON *doc = zt_json("%s/report.json", out);
  if (log)
    *log = l;
  else
    free(l);
  return doc;
}

/* The old-vs-new report, made once for every case that reads it. */
static cJSON *the_doc;
static int the_rc;
static const char *the_out;

static const cJSON *io_of(void) {
  if (!the_doc && !the_out) {
    the_out = zt_tmp("io");
    const char *oldb = build("app-old", "old", 20);
    const char *newb = build("app-new", "new", 200);
    the_doc = run(app("ioapp.json"), oldb, newb, the_out, NULL, &the_rc, NULL);
  }
  return the_doc ? cJSON_GetObjectItem(the_doc, "io") : NULL;
}

static const char *jstr(const cJSON *o, const char *k) {
  return cJSON_GetStringValue(cJSON_GetObjectItem(o, k));
}

static double jnum(const cJSON *o, const char *k) {
  return cJSON_GetNumberValue(cJSON_GetObjectItem(o, k));
}

/* The cause of measure m whose request or write is what; NULL if none. */
static const cJSON *cause(const cJSON *io, const char *m, const char *what) {
  const cJSON *c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(io, "regression_causes")) {
    const char *cm = jstr(c, "measure"), *cw = jstr(c, "what");
    if (cm && cw && !strcmp(cm, m) && !strcmp(cw, what)) return c;
  }
  return NULL;
}

/* A cause significant over the pairs: its interval above 0. */
static int significant(const cJSON *c) {
  const cJSON *ci = cJSON_GetObjectItem(c, "ci95");
  return cJSON_GetArraySize(ci) == 2 &&
         cJSON_GetNumberValue(cJSON_GetArrayItem(ci, 0)) > 0;
}

/* What was asked, summed over the steps of io.steps: side 0 old, 1 new,
 * a run; key "old"/"new", "old_cached", ... */
static double asked(const cJSON *io, const char *what, const char *key) {
  const cJSON *st, *r;
  double n = 0;
  cJSON_ArrayForEach(st, cJSON_GetObjectItem(io, "steps")) {
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(st, "rows")) {
      const char *w = jstr(r, "what");
      if (w && !strcmp(w, what)) n += jnum(r, key);
    }
  }
  return n;
}

/* N+1: loadPage asks for each item where it asked for the page. */
static void test_n_plus_one(void) {
  const cJSON *io = io_of();
  if (!io) return;
  ZT_INT(the_rc, 1); /* an I/O regression is a regression */
  const cJSON *c = cause(io, "requests", "GET /api/item/:id");
  if (!ZT_TRUE(c != NULL)) return;
  ZT_STR(jstr(c, "name"), "loadPage");
  ZT_TRUE(significant(c));
  ZT_TRUE(jnum(c, "new") > jnum(c, "old"));
  /* by construction: ITEMS requests a run where there was one */
  ZT_NEAR(asked(io, "GET /api/item/:id", "new"), ITEMS, 1e-9);
  ZT_NEAR(asked(io, "GET /api/items", "old"), 1, 1e-9);
  ZT_NEAR(asked(io, "GET /api/item/:id", "old"), 0, 1e-9);
  ZT_INT(jnum(c, "runs_seen"), 3);
  ZT_HAS(jstr(c, "text"), "loadPage (GET /api/item/:id)");
}

/* Ten times the payload from one endpoint, as many requests. */
static void test_payload(void) {
  const cJSON *io = io_of();
  if (!io) return;
  const cJSON *c = cause(io, "received_kb", "GET /api/report");
  if (!ZT_TRUE(c != NULL)) return;
  ZT_STR(jstr(c, "name"), "fetchReport");
  ZT_TRUE(significant(c));
  const cJSON *calls = cJSON_GetObjectItem(c, "calls");
  const cJSON *pc = cJSON_GetObjectItem(c, "per_call");
  ZT_NEAR(jnum(calls, "old"), jnum(calls, "new"), 1e-9); /* one a run */
  /* the body is ten times larger; headers (the same) come on top */
  double o = jnum(pc, "old_kb"), n = jnum(pc, "new_kb");
  ZT_TRUE(n > 9 * o && n < 10 * o);
  ZT_TRUE(cause(io, "requests", "GET /api/report") == NULL);
}

/* localStorage written on every keystroke: onDraftInput, new code that
 * calls saveDraft (old code, which wrote once before) on each key, is
 * named, and saveDraft as the way. */
static void test_local_storage(void) {
  const cJSON *io = io_of();
  if (!io) return;
  const cJSON *c = cause(io, "storage_writes", "localStorage.setItem draft");
  if (!ZT_TRUE(c != NULL)) return;
  ZT_STR(jstr(c, "name"), "onDraftInput");
  const cJSON *via = cJSON_GetObjectItem(c, "via");
  ZT_STR(cJSON_GetStringValue(cJSON_GetArrayItem(via, 0)), "saveDraft");
  ZT_TRUE(significant(c));
  /* by construction: a write per key typed, one more on save */
  ZT_NEAR(asked(io, "localStorage.setItem draft", "new"), KEYS + 1, 1e-9);
  ZT_NEAR(asked(io, "localStorage.setItem draft", "old"), 1, 1e-9);
}

/* An IndexedDB put per item instead of one. */
static void test_indexeddb(void) {
  const cJSON *io = io_of();
  if (!io) return;
  const cJSON *c = cause(io, "storage_writes", "indexedDB.put items");
  if (!ZT_TRUE(c != NULL)) return;
  ZT_STR(jstr(c, "name"), "storeItems");
  ZT_TRUE(significant(c));
  const cJSON *calls = cJSON_GetObjectItem(c, "calls");
  ZT_NEAR(jnum(calls, "new"), ITEMS * jnum(calls, "old"), 1e-9);
  ZT_STR(jstr(c, "status"), "more");
}

/* The statistics' requests moved from statsA to statsB: the same six,
 * no cause. */
static void test_moved_not_cause(void) {
  const cJSON *io = io_of();
  if (!io) return;
  const cJSON *c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(io, "regression_causes")) {
    const char *w = jstr(c, "what"), *n = jstr(c, "name");
    ZT_TRUE(!w || strcmp(w, "GET /api/stats"));
    ZT_TRUE(!n || (strcmp(n, "statsA") && strcmp(n, "statsB")));
  }
  ZT_NEAR(asked(io, "GET /api/stats", "old"),
          asked(io, "GET /api/stats", "new"), 1e-9);
  ZT_TRUE(asked(io, "GET /api/stats", "new") > 0);
  /* the four causes, and nothing else */
  ZT_INT(cJSON_GetArraySize(cJSON_GetObjectItem(io, "regression_causes")), 4);
}

/* A request a cache (the service worker) answers and requests that fail
 * are counted, and marked; alike in both builds, no cause. */
static void test_cached_failed(void) {
  const cJSON *io = io_of();
  if (!io) return;
  ZT_TRUE(asked(io, "GET /api/cached", "new") > 0);
  ZT_NEAR(asked(io, "GET /api/cached", "new_cached"),
          asked(io, "GET /api/cached", "new"), 1e-9);
  ZT_TRUE(asked(io, "GET /api/missing", "new_failed") > 0);
  ZT_TRUE(asked(io, "GET 127.0.0.1:9/nothing", "new_failed") > 0);
  const cJSON *r;
  int cached = 0, failed = 0;
  cJSON_ArrayForEach(r, cJSON_GetObjectItem(io, "rows")) {
    const char *m = jstr(r, "metric");
    if (!m || cJSON_IsNumber(cJSON_GetObjectItem(r, "step"))) continue;
    if (!strcmp(m, "cached_requests"))
      cached = jnum(r, "new") > 0 && jnum(r, "old") == jnum(r, "new");
    if (!strcmp(m, "failed_requests"))
      failed = jnum(r, "new") >= 2 && jnum(r, "old") == jnum(r, "new");
  }
  ZT_TRUE(cached);
  ZT_TRUE(failed);
}

/* The rows: per run and per step, with intervals; each I/O run's own
 * figures in runs[].io. */
static void test_rows(void) {
  const cJSON *io = io_of();
  if (!io) return;
  const cJSON *r;
  int whole = 0, steps = 0;
  cJSON_ArrayForEach(r, cJSON_GetObjectItem(io, "rows")) {
    const char *m = jstr(r, "metric");
    int step = cJSON_IsNumber(cJSON_GetObjectItem(r, "step"));
    if (m && !strcmp(m, "requests") && !step) {
      whole = 1;
      ZT_TRUE(jnum(r, "new") > jnum(r, "old"));
      ZT_INT(cJSON_GetArraySize(cJSON_GetObjectItem(r, "ci95")), 2);
      ZT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(r, "significant")));
    }
    steps += step;
  }
  ZT_TRUE(whole);
  ZT_TRUE(steps > 0);
  int ios = 0;
  cJSON_ArrayForEach(r, cJSON_GetObjectItem(the_doc, "runs")) {
    const cJSON *x = cJSON_GetObjectItem(r, "io");
    if (!x) continue;
    ios++;
    ZT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(x, "stacks")));
    ZT_TRUE(jnum(x, "requests") > 0);
  }
  ZT_INT(ios, 6);
  char p[4200];
  snprintf(p, sizeof p, "%s/report.html", the_out);
  char *html = zt_read(p);
  ZT_HAS(html, "<section id=\"io\">");
  ZT_HAS(html, "id=\"io-flame\"");
  ZT_HAS(html, "GET /api/item/:id");
  free(html);
  snprintf(p, sizeof p, "%s/summary.md", the_out);
  char *md = zt_read(p);
  ZT_HAS(md, "#### I/O: 4 I/O regression-causes");
  free(md);
}

/* The page's token in a URL is in no file zamcap wrote (the traces are
 * Chrome's). */
static void test_secrets(void) {
  if (!io_of()) return;
  char *out = NULL;
  int rc = zt_sh(&out, "grep -rl s3cr3tT0k3nV4lue9 '%s' --exclude='*.json.gz'",
                 the_out);
  ZT_INT(rc, 1); /* grep: nothing found */
  if (rc != 1) fprintf(stderr, "%s", out ? out : "");
  free(out);
}

/* The timed runs never carry the wrapper: only the I/O runs' traces
 * hold its script. */
static void test_timed_untouched(void) {
  if (!io_of()) return;
  int rc = zt_sh(NULL,
                 "zcat '%s'/traces/old-1.json.gz '%s'/traces/new-3.json.gz"
                 " | grep -q zamcap-io.js",
                 the_out, the_out);
  ZT_INT(rc, 1);
  rc = zt_sh(NULL, "zcat '%s'/traces/old-io-1.json.gz | grep -q zamcap-io.js",
             the_out);
  ZT_INT(rc, 0);
}

/* A/A: nothing named, of I/O or of time; exit 0, or 5 when the pairs
 * could not rule out a small change (which the report then says), never
 * 1. */
static void test_aa(void) {
  const char *oldb = build("aa-old", "old", 20);
  int rc;
  cJSON *doc =
      run(app("ioapp.json"), oldb, oldb, zt_tmp("io-aa"), NULL, &rc, NULL);
  if (!doc) return;
  ZT_TRUE(rc == 0 || rc == 5);
  ZT_INT((int)zt_jnum(doc, "verdict.exit_code"), rc);
  if (rc == 5)
    ZT_TRUE(cJSON_GetArraySize(zt_jget(doc, "verdict.inconclusive_because")) >
            0);
  ZT_INT(cJSON_GetArraySize(zt_jget(doc, "io.regression_causes")), 0);
  ZT_INT((int)zt_jnum(doc, "io.causes"), 0);
  ZT_INT(cJSON_GetArraySize(zt_jget(doc, "regression_causes")), 0);
  ZT_INT(cJSON_GetArraySize(zt_jget(doc, "spread_causes")), 0);
  ZT_INT(cJSON_GetArraySize(zt_jget(doc, "unexplained_causes")), 0);
  cJSON_Delete(doc);
}

/* What was asked in the new runs whose pattern starts with prefix. */
static double asked_like(const cJSON *io, const char *prefix) {
  const cJSON *st, *r;
  double n = 0;
  cJSON_ArrayForEach(st, cJSON_GetObjectItem(io, "steps")) {
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(st, "rows")) {
      const char *w = jstr(r, "what");
      if (w && !strncmp(w, prefix, strlen(prefix))) n += jnum(r, "new");
    }
  }
  return n;
}

/* The whole run's row of a metric, new side. */
static double row_new(const cJSON *io, const char *metric) {
  const cJSON *r;
  cJSON_ArrayForEach(r, cJSON_GetObjectItem(io, "rows")) {
    const char *m = jstr(r, "metric");
    if (m && !strcmp(m, metric) &&
        !cJSON_IsNumber(cJSON_GetObjectItem(r, "step")))
      return jnum(r, "new");
  }
  return -1;
}

/* A hostile page (ioapp/hostile, old and new alike, one pair): the
 * wrapper passes its checks, its own fetch, send and setItem over the
 * wrapper change nothing, the frame's writes count, and its flood
 * (100 000 requests, 100 MB written, 60 000 keys) runs to the report
 * with the caps reached said, every write counted. The flood's trace takes
 * Chrome more than the default 30 s to hand over on a loaded machine:
 * --timeout gives it 5 minutes, as a user with such a page would. */
static void test_hostile(void) {
  const char *b = zt_tmp("hostile");
  ZT_INT(zt_sh(NULL, "rm -rf '%s' && cp -R '%s' '%s'", b, app("hostile"), b),
         0);
  int rc;
  char *log = NULL;
  cJSON *doc = run(app("hostile.json"), b, b, zt_tmp("io-hostile"),
                   "--pairs 1 --timeout 300000", &rc, &log);
  if (!doc) return;
  const cJSON *io = cJSON_GetObjectItem(doc, "io");
  /* the same build on both sides: an I/O A/A names nothing (time, in
   * one pair, is not asked) */
  ZT_INT(cJSON_GetArraySize(cJSON_GetObjectItem(io, "regression_causes")), 0);
  ZT_NEAR(asked(io, "GET /verdict/ok", "new"), 1, 1e-9);
  ZT_NEAR(asked_like(io, "GET /verdict/fail"), 0, 1e-9);
  ZT_NEAR(asked(io, "GET /verdict/xhr", "new"), 1, 1e-9);
  ZT_NEAR(asked(io, "localStorage.setItem through-page", "new"), 3, 1e-9);
  ZT_NEAR(asked(io, "localStorage.setItem after-freeze", "new"), 1, 1e-9);
  ZT_NEAR(asked(io, "localStorage.setItem from-frame", "new"), 4, 1e-9);
  /* the flood, by construction */
  ZT_NEAR(asked(io, "GET 127.0.0.1:9/flood", "new"), 100000, 1e-9);
  ZT_NEAR(asked(io, "GET 127.0.0.1:9/flood", "new_failed"), 100000, 1e-9);
  /* 100 writes of 2^19 characters, 2 bytes each */
  ZT_TRUE(asked(io, "localStorage.setItem big", "new_kb") >= 100 * 1024);
  double writes = row_new(io, "storage_writes");
  ZT_TRUE(writes >= 3 + 1 + 4 + 100 + 60000 &&
          writes <= 3 + 1 + 4 + 100 + 60000 + 1);
  const cJSON *caps = cJSON_GetObjectItem(io, "caps");
  ZT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(caps, "reached")));
  ZT_TRUE(jnum(caps, "writes_past_the_cap") > 0);
  ZT_HAS(log, "warning: I/O: caps reached");
  free(log);
  cJSON_Delete(doc);
}

int main(int argc, char **argv) {
  zt_need_chrome();
  static const struct zt_case cases[] = {
      {"n_plus_one", test_n_plus_one},
      {"payload", test_payload},
      {"local_storage", test_local_storage},
      {"indexeddb", test_indexeddb},
      {"moved_not_cause", test_moved_not_cause},
      {"cached_failed", test_cached_failed},
      {"rows", test_rows},
      {"secrets", test_secrets},
      {"timed_untouched", test_timed_untouched},
      {"aa", test_aa},
      {"hostile", test_hostile},
  };
  /* Without names, every case but the hostile flood, a stress test run
   * by name (ctest -L stress: test_io_hostile) */
  int n = (int)(sizeof cases / sizeof cases[0]);
  char *all[sizeof cases / sizeof cases[0] + 1];
  if (argc < 2) {
    all[0] = argv[0];
    for (int i = 0; i < n - 1; i++)
      all[i + 1] = (char *)cases[i].name;
    argc = n, argv = all;
  }
  int rc = ZT_RUN(cases, argc, argv);
  cJSON_Delete(the_doc);
  return rc;
}
