/* Tests of trace ingest: both JSON forms, gzip, .cpuprofile, the
 * scanner's corner cases, values across buffer refills, broken files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cjson/cJSON.h>

#include "test.h"
#include "timeline.h"
#include "trace/jread.h"
#include "zam/zam.h"

/* A small trace: main > render > slowThing, main > a > helper, (idle),
 * with one sample every 1 ms. Events can be wrapped or bare. */
static const char *const nodes_json =
    "[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\","
    "\"lineNumber\":-1,\"columnNumber\":-1}},"
    "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"(idle)\","
    "\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1}},"
    "{\"id\":3,\"parent\":1,\"callFrame\":{\"functionName\":\"main\","
    "\"url\":\"http://127.0.0.1:8000/app.3f9a1c2e.js\",\"lineNumber\":1,"
    "\"columnNumber\":0}},"
    "{\"id\":4,\"parent\":3,\"callFrame\":{\"functionName\":\"render\","
    "\"url\":\"http://127.0.0.1:8000/app.3f9a1c2e.js\",\"lineNumber\":10,"
    "\"columnNumber\":2}},"
    "{\"id\":5,\"parent\":4,\"callFrame\":{\"functionName\":\"slowThing\","
    "\"url\":\"http://127.0.0.1:8000/app.3f9a1c2e.js\",\"lineNumber\":20,"
    "\"columnNumber\":2}}]";

static char *trace_text(int wrapped, const char *filler) {
  struct zc_buf b;
  zc_buf_init(&b, 1 << 28);
  ZT_INT(zc_buf_printf(&b, "%s[",
                       wrapped ? "{\"metadata\":{\"a\":[1,{\"b\":\"}\"}]},"
                                 "\"traceEvents\":"
                               : ""),
         ZC_OK);
  ZT_INT(zc_buf_printf(
             &b,
             "{\"args\":{\"name\":\"CrRendererMain\"},\"cat\":\"__metadata\","
             "\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
             "\"ts\":0},\n"),
         ZC_OK);
  if (filler) ZT_INT(zc_buf_printf(&b, "%s,\n", filler), ZC_OK);
  ZT_INT(zc_buf_printf(
             &b, "{\"args\":{\"data\":{\"startTime\":1000}},\"cat\":\"v8\","
                 "\"id\":\"0x1\",\"name\":\"Profile\",\"ph\":\"P\","
                 "\"pid\":1,\"tid\":1,\"ts\":1000},\n"),
         ZC_OK);
  /* 10 main, 20 render, 100 slowThing, 30 idle: in one chunk */
  ZT_INT(zc_buf_printf(&b,
                       "{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":%s,"
                       "\"samples\":[",
                       nodes_json),
         ZC_OK);
  for (int i = 0; i < 160; i++)
    ZT_INT(zc_buf_printf(&b, "%s%d", i ? "," : "",
                         i < 10    ? 3
                         : i < 30  ? 4
                         : i < 130 ? 5
                                   : 2),
           ZC_OK);
  ZT_INT(zc_buf_printf(&b, "]},\"timeDeltas\":["), ZC_OK);
  for (int i = 0; i < 160; i++)
    ZT_INT(zc_buf_printf(&b, "%s1000", i ? "," : ""), ZC_OK);
  ZT_INT(zc_buf_printf(&b, "]}},\"cat\":\"v8\",\"id\":\"0x1\",\"name\":"
                           "\"ProfileChunk\",\"ph\":\"P\",\"pid\":1,\"tid\":9,"
                           "\"ts\":2000}"),
         ZC_OK);
  ZT_INT(zc_buf_printf(&b, "]%s\n", wrapped ? ",\"x\":true}" : ""), ZC_OK);
  return zc_buf_take(&b);
}

static const struct ana_node *find(const struct ana_timeline *tl,
                                   const char *name) {
  for (uint32_t i = 0; i < tl->nnodes; i++)
    if (strcmp(ana_str(tl->ctx, tl->nodes[i].name), name) == 0)
      return &tl->nodes[i];
  return NULL;
}

static void check_small(const struct ana_timeline *tl) {
  const struct ana_node *root = &tl->nodes[0];
  ZT_INT(root->nkids, 1);
  const struct ana_node *th = &tl->nodes[tl->kids[root->kid0]];
  ZT_STR(ana_str(tl->ctx, th->name), "CrRendererMain");
  ZT_INT(th->kind, ANA_THREAD);
  const struct ana_node *m = find(tl, "main"), *s = find(tl, "slowThing");
  if (!ZT_TRUE(m && s)) return;
  /* The last sample, an (idle) one, has no successor: it lasts the mean
   * interval (1 ms), as in DevTools' trace engine. */
  ZT_INT(m->total, 130000);
  ZT_INT(m->self, 10000);
  ZT_INT(s->total, 100000);
  ZT_STR(ana_str(tl->ctx, s->component), "/app.js");
  ZT_INT(s->line, 20);
  ZT_INT(find(tl, "(idle)")->kind, ANA_IDLE);
  ZT_INT(find(tl, "(idle)")->total, 30000);
  ZT_INT(tl->samples, 160);
  ZT_INT(tl->profiles, 1);
}

static struct ana_timeline *load_text(struct ana_ctx *c, const char *name,
                                      const char *text, enum zc_err *e) {
  const char *path = zt_tmp(name);
  zt_write_str(path, text);
  struct ana_timeline *tl = NULL;
  *e = ana_load(c, path, &tl);
  return tl;
}

static void test_forms(void) {
  struct ana_ctx *c = ana_ctx_new();
  for (int wrapped = 0; wrapped < 2; wrapped++) {
    char *t = trace_text(wrapped, NULL);
    enum zc_err e;
    struct ana_timeline *tl = load_text(c, "form.json", t, &e);
    if (ZT_INT(e, ZC_OK)) check_small(tl);
    ZT_INT(tl ? tl->events : 0, 3);
    ana_timeline_free(tl);
    free(t);
  }
  ana_ctx_free(c);
}

static void test_gzip(void) {
  struct ana_ctx *c = ana_ctx_new();
  char *t = trace_text(1, NULL);
  const char *path = zt_tmp("trace.json.gz");
  gzFile gz = gzopen(path, "wb");
  gzwrite(gz, t, (unsigned)strlen(t));
  gzclose(gz);
  struct ana_timeline *tl = NULL;
  if (ZT_INT(ana_load(c, path, &tl), ZC_OK)) check_small(tl);
  ana_timeline_free(tl);
  /* The same file cut short: an error naming the file, not a crash. */
  char *all = zt_read(path);
  FILE *f = fopen(path, "rb");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fclose(f);
  zt_write(zt_tmp("cut.json.gz"), all, (size_t)n / 2);
  ZT_INT(ana_load(c, zt_tmp("cut.json.gz"), &tl), ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "cut.json.gz");
  /* Garbled inside the deflate data: broken input (exit 2), not an I/O
   * failure of the disk (which would say capture failed). */
  for (long i = 12; i < n - 8; i += 7)
    all[i] = (char)(all[i] ^ 0x5a);
  zt_write(zt_tmp("garbled.json.gz"), all, (size_t)n);
  ZT_INT(ana_load(c, zt_tmp("garbled.json.gz"), &tl), ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "garbled.json.gz: gzip data broken");
  free(all);
  free(t);
  ana_ctx_free(c);
}

static void test_cpuprofile(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  /* .cpuprofile nodes give children, not parents. */
  ZT_INT(
      zc_buf_printf(
          &b,
          "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\","
          "\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"children\":[2]"
          "},"
          "{\"id\":2,\"callFrame\":{\"functionName\":\"work\",\"url\":"
          "\"file:///x/app.js\",\"lineNumber\":3,\"columnNumber\":1},"
          "\"children\":[3]},{\"id\":3,\"callFrame\":{\"functionName\":"
          "\"inner\","
          "\"url\":\"file:///x/app.js\",\"lineNumber\":9,\"columnNumber\":1}}],"
          "\"startTime\":100,\"endTime\":5100,\"samples\":[2,3,3,3,2],"
          "\"timeDeltas\":[0,1000,1000,1000,1000]}"),
      ZC_OK);
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "p.cpuprofile", b.ptr, &e);
  if (ZT_INT(e, ZC_OK)) {
    const struct ana_node *w = find(tl, "work"), *in = find(tl, "inner");
    ZT_TRUE(w && in);
    /* The last sample lasts until endTime. */
    if (w) ZT_INT(w->total, 5000);
    if (in) ZT_INT(in->total, 3000);
    if (w) ZT_STR(ana_str(c, w->component), "/x/app.js");
    ZT_STR(ana_str(c, tl->nodes[tl->kids[0]].name), "main");
  }
  ana_timeline_free(tl);
  zc_buf_free(&b);
  ana_ctx_free(c);
}

/* Issue 26.9: names are cut at ANA_NAME_MAX bytes when interned; two long
 * names that share their first kilobytes stay two functions. */
static void test_long_names(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  size_t big = 200000;
  char *a = zc_xmalloc(big + 2);
  memset(a, 'x', big);
  a[big + 1] = '\0';
  ZT_INT(zc_buf_printf(&b,
                       "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":"
                       "\"(root)\"},\"children\":[2,3]}"),
         ZC_OK);
  for (int i = 2; i <= 3; i++) {
    a[big] = (char)('a' + i);
    ZT_INT(zc_buf_printf(
               &b,
               ",{\"id\":%d,\"callFrame\":{\"functionName\":\"\xc3\xa9%s\","
               "\"url\":\"file:///x/app.js\",\"lineNumber\":%d,"
               "\"columnNumber\":1}}",
               i, a, i),
           ZC_OK);
  }
  ZT_INT(zc_buf_printf(&b, "],\"startTime\":0,\"endTime\":3000,"
                           "\"samples\":[2,3,2],\"timeDeltas\":[0,1000,1000]}"),
         ZC_OK);
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "long.cpuprofile", b.ptr, &e);
  if (ZT_INT(e, ZC_OK)) {
    const struct ana_node *f[2] = {NULL, NULL};
    int nf = 0;
    for (uint32_t i = 0; i < tl->nnodes && nf < 2; i++) {
      const char *nm = ana_str(c, tl->nodes[i].name);
      if (!strncmp(nm, "\xc3\xa9xxx", 5)) f[nf++] = &tl->nodes[i];
    }
    ZT_INT(nf, 2);
    if (nf == 2) {
      const char *n0 = ana_str(c, f[0]->name), *n1 = ana_str(c, f[1]->name);
      ZT_TRUE(strlen(n0) <= ANA_NAME_MAX);
      ZT_TRUE(strlen(n1) <= ANA_NAME_MAX);
      ZT_TRUE(strlen(n0) > ANA_NAME_MAX - 32);
      ZT_TRUE(strcmp(n0, n1) != 0);
      ZT_TRUE(f[0]->key != f[1]->key);
      ZT_TRUE(strstr(n0, "\xe2\x80\xa6") != NULL);
      ZT_INT(f[0]->total + f[1]->total, 3000);
    }
  }
  /* The same long name interned twice is one id; a short one is whole. */
  a[big] = 'q';
  ZT_INT(ana_intern_name(c, a, big + 1), ana_intern_name(c, a, big + 1));
  ZT_STR(ana_str(c, ana_intern_name(c, "short", 5)), "short");
  free(a);
  ana_timeline_free(tl);
  zc_buf_free(&b);
  ana_ctx_free(c);
}

/* Strings full of brackets, escaped quotes and backslashes, in events
 * that are skipped, must not confuse the scanner. */
static void test_scanner_strings(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *filler =
      "{\"args\":{\"s\":\"]}{[ \\\" "
      "\\\\\",\"t\":\"\\\\\",\"u\":\"x\\\\\\\"}\"},"
      "\"name\":\"X\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},"
      "{\"ph\":\"I\",\"name\":\"p\\\"h\",\"args\":[[],{},\"\",-1.5e3,true,null]"
      "}";
  char *t = trace_text(0, filler);
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "strings.json", t, &e);
  if (ZT_INT(e, ZC_OK)) {
    check_small(tl);
    ZT_INT(tl->events, 5);
    ZT_INT(tl->parsed, 3); /* metadata, Profile, ProfileChunk */
  }
  ana_timeline_free(tl);
  free(t);
  ana_ctx_free(c);
}

/* Values longer than the 1 MiB read size, and the ProfileChunk itself
 * straddling refills. */
static void test_refills(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct zc_buf f;
  zc_buf_init(&f, 1 << 28);
  for (int i = 0; i < 3; i++) {
    ZT_INT(zc_buf_printf(&f,
                         "%s{\"ph\":\"X\",\"name\":\"big\",\"args\":{\"s\":\"",
                         i ? "," : ""),
           ZC_OK);
    for (int k = 0; k < 700000; k++)
      ZT_INT(zc_buf_add(&f, k % 97 ? "ab" : "\\\"", 2), ZC_OK);
    ZT_INT(zc_buf_printf(&f, "\",\"n\":["), ZC_OK);
    for (int k = 0; k < 100000; k++)
      ZT_INT(zc_buf_printf(&f, "%s{}", k ? "," : ""), ZC_OK);
    ZT_INT(zc_buf_printf(&f, "]}}"), ZC_OK);
  }
  char *t = trace_text(1, f.ptr);
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "big.json", t, &e);
  if (ZT_INT(e, ZC_OK)) {
    check_small(tl);
    ZT_INT(tl->events, 6);
    ZT_INT(tl->bytes, strlen(t)); /* read whole */
  }
  ana_timeline_free(tl);
  free(t);
  zc_buf_free(&f);
  ana_ctx_free(c);
}

static void expect_error(struct ana_ctx *c, const char *name, const char *text,
                         const char *msg) {
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, name, text, &e);
  ZT_TRUE(e != ZC_OK);
  ZT_TRUE(tl == NULL);
  ZT_HAS(zc_errmsg(), name);
  ZT_HAS(zc_errmsg(), msg);
  ana_timeline_free(tl);
}

static void test_broken(void) {
  struct ana_ctx *c = ana_ctx_new();
  char *t = trace_text(1, NULL);
  size_t n = strlen(t);
  /* Cut at every tenth byte: always an error, never a crash. */
  for (size_t cut = 0; cut < n - 2; cut += n / 10) {
    char *p = zc_xstrndup(t, cut);
    enum zc_err e;
    struct ana_timeline *tl = load_text(c, "cut.json", p, &e);
    ZT_TRUE(e != ZC_OK);
    ana_timeline_free(tl);
    free(p);
  }
  free(t);
  expect_error(c, "trunc.json",
               "{\"traceEvents\":[{\"ph\":\"X\",\"a\":", "truncated");
  expect_error(c, "trunc2.json", "{\"traceEvents\":[{\"ph\":\"X\"}",
               "the data ends at byte 26");
  expect_error(c, "garbage.json", "hello", "byte 0");
  expect_error(c, "empty.json", "", "empty");
  expect_error(c, "notevent.json", "[{\"ph\":\"X\"}, 42]",
               "byte 13: expected a trace event");
  expect_error(c, "sep.json", "[{\"ph\":\"X\"} {\"ph\":\"X\"}]",
               "byte 12: expected ',' or ']'");
  expect_error(c, "bad-event.json",
               "[{\"ph\":\"X\"},{\"ph\":\"P\",\"name\":\"Profile\",\"id\":}]",
               "byte 12: malformed event");
  expect_error(c, "trailing.json", "[] x", "data after the end");
  expect_error(c, "badsample.json",
               "[{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\","
               "\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[],"
               "\"samples\":[\"x\"]},\"timeDeltas\":[1]}}}]",
               "unexpected value at byte 96");
  /* A bare array may lack its ']' (the JSON Array Format allows it). */
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "open.json", "[{\"ph\":\"X\"},\n", &e);
  ZT_INT(e, ZC_OK);
  ana_timeline_free(tl);
  tl = load_text(c, "open2.json", "\xEF\xBB\xBF[{\"ph\":\"X\"}", &e);
  ZT_INT(e, ZC_OK);
  ZT_INT(tl ? tl->events : 0, 1);
  ana_timeline_free(tl);
  ZT_INT(ana_load(c, zt_tmp("does-not-exist.json"), &tl), ZC_E_IO);
  ZT_HAS(zc_errmsg(), "does-not-exist.json");
  ana_ctx_free(c);
}

/* Out-of-order samples are sorted; a worker is named by its script. */
static void test_order_and_workers(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *t =
      "[{\"args\":{\"name\":\"DedicatedWorker thread\"},\"name\":"
      "\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":7},"
      "{\"args\":{\"data\":{\"startTime\":0}},\"id\":\"0x2\",\"name\":"
      "\"Profile\",\"ph\":\"P\",\"pid\":1,\"tid\":7},"
      "{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":["
      "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"}},"
      "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":\"onmessage\","
      "\"url\":\"http://h:1/w/worker.abcdef12.js\",\"lineNumber\":0,"
      "\"columnNumber\":0}},"
      "{\"id\":3,\"parent\":2,\"callFrame\":{\"functionName\":\"crunch\","
      "\"url\":\"http://h:1/w/worker.abcdef12.js\",\"lineNumber\":5,"
      "\"columnNumber\":0}}],"
      "\"samples\":[2,3,3,2,3]},\"timeDeltas\":[100,100,-50,150,100]}},"
      "\"id\":\"0x2\",\"name\":\"ProfileChunk\",\"ph\":\"P\",\"pid\":1,"
      "\"tid\":8}]";
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "worker.json", t, &e);
  if (ZT_INT(e, ZC_OK)) {
    const struct ana_node *th = &tl->nodes[tl->kids[tl->nodes[0].kid0]];
    ZT_STR(ana_str(c, th->name), "DedicatedWorker thread /w/worker.js");
    /* ts: 100 200 150 300 400 -> sorted 100(2) 150(3) 200(3) 300(2) 400(3)
     * durations 50 50 100 100 and the mean interval, 75 */
    const struct ana_node *on = find(tl, "onmessage"), *cr = find(tl, "crunch");
    if (ZT_TRUE(on && cr)) {
      ZT_INT(on->total, 375);
      ZT_INT(on->self, 150);
      ZT_INT(cr->total, 225);
      ZT_INT(cr->first_us, 150);
    }
  }
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

static void test_component(void) {
  static const char *const cases[][2] = {
      {"http://127.0.0.1:8080/js/app.3f9a1c2e.js?v=2#x", "/js/app.js"},
      {"https://cdn.example.com/assets/index-BfK3x9Qa.js", "/assets/index.js"},
      {"http://h/vendor.8d2f1a3b9c0e.chunk.js", "/vendor.chunk.js"},
      {"http://h/es2015polyfills.js", "/es2015polyfills.js"},
      {"http://h/3f9a1c2e.js", "/3f9a1c2e.js"},
      {"http://h/a-b-c.min.js", "/a-b-c.min.js"},
      {"file:///home/u/app.js", "/home/u/app.js"},
      {"blob:http://h:9/9b1c", "/9b1c"},
      {"", ""},
      {"extensions::SafeBuiltins", "extensions::SafeBuiltins"},
      {"http://h", ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char out[256];
    ana_component(cases[i][0], strlen(cases[i][0]), out, sizeof out);
    ZT_STR(out, cases[i][1]);
  }
  char tiny[4];
  ZT_INT(ana_component("http://h/abcdef", 15, tiny, sizeof tiny), 3);
  ZT_STR(tiny, "/ab");
}

static void test_jread(void) {
  const char *in =
      "{\"a\\u0062\": [1, -2.5e1, 30, true, null, \"x\\\"y\\\\z\\n\"],"
      " \"s\": \"\\u00e9\\ud83d\\ude00\\/\", \"o\": {\"deep\": [[{}]]}}";
  struct jr r;
  jr_init(&r, in, strlen(in));
  const char *k, *s;
  size_t kn, sn;
  double d;
  int keys = 0;
  ZT_TRUE(jr_obj(&r));
  while (jr_more(&r, &k, &kn)) {
    keys++;
    if (jr_is(k, kn, "ab")) {
      ZT_TRUE(jr_arr(&r));
      ZT_TRUE(jr_more(&r, NULL, NULL) && jr_num(&r, &d));
      ZT_NEAR(d, 1, 0);
      ZT_TRUE(jr_more(&r, NULL, NULL) && jr_num(&r, &d));
      ZT_NEAR(d, -25, 0);
      ZT_TRUE(jr_more(&r, NULL, NULL) && jr_num(&r, &d));
      ZT_NEAR(d, 30, 0);
      ZT_TRUE(jr_more(&r, NULL, NULL) && jr_skip(&r)); /* true */
      ZT_TRUE(jr_more(&r, NULL, NULL) && jr_skip(&r)); /* null */
      ZT_TRUE(jr_more(&r, NULL, NULL) && jr_str(&r, &s, &sn));
      ZT_INT(sn, 6);
      ZT_TRUE(memcmp(s, "x\"y\\z\n", 6) == 0);
      ZT_TRUE(!jr_more(&r, NULL, NULL));
    } else if (jr_is(k, kn, "s")) {
      ZT_TRUE(jr_str(&r, &s, &sn));
      /* é, U+1F600 from a surrogate pair, and an escaped slash */
      ZT_INT(sn, 7);
      ZT_TRUE(memcmp(s, "\xc3\xa9\xf0\x9f\x98\x80/", 7) == 0);
    } else {
      ZT_TRUE(jr_skip(&r));
    }
  }
  ZT_TRUE(r.err == NULL);
  ZT_INT(keys, 3);
  jr_done(&r);
  /* Errors stop the reader and say where. */
  static const char *const bad[] = {"[1 2]", "{\"a\" 1}", "[\"\\q\"]", "[-]",
                                    "[tru]", "[\"open",   "{\"a\":1]"};
  /* the offending byte; a string never closed fails where the data ends */
  static const int at[] = {3, 5, 2, 1, 1, 6, 6};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    jr_init(&r, bad[i], strlen(bad[i]));
    int c = jr_peek(&r);
    if (c == '[') {
      jr_arr(&r);
      while (jr_more(&r, NULL, NULL) && jr_skip(&r)) {
      }
    } else {
      jr_obj(&r);
      while (jr_more(&r, &k, &kn) && jr_skip(&r)) {
      }
    }
    if (ZT_TRUE(r.err != NULL)) ZT_INT(r.err - bad[i], at[i]);
    jr_done(&r);
  }
}

/* Function names with escapes reach the tree decoded. */
static void test_escaped_names(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *t = "[{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":1,\"pid\":1,"
                  "\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":["
                  "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
                  "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":"
                  "\"caf\\u00e9 \\\"q\\\"\",\"url\":\"http:\\/\\/h\\/a.js\"}}],"
                  "\"samples\":[2,2]},\"timeDeltas\":[5,5]}}}]";
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "esc.json", t, &e);
  if (ZT_INT(e, ZC_OK)) {
    const struct ana_node *n = find(tl, "caf\xc3\xa9 \"q\"");
    if (ZT_TRUE(n)) ZT_STR(ana_str(c, n->component), "/a.js");
    /* No thread_name: the profile's thread is named by its tid. */
    ZT_STR(ana_str(c, tl->nodes[tl->kids[0]].name), "main");
  }
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

/* Bytes that are not UTF-8 in a name (raw, or with escapes) become
 * U+FFFD, as browsers decode them, so every report stays valid. */
static void test_not_utf8(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *t = "[{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":1,\"pid\":1,"
                  "\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":["
                  "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
                  "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":"
                  "\"a\xff\xc0\xaf\xe2\x82z\xc3\xa9\"}},"
                  "{\"id\":3,\"parent\":1,\"callFrame\":{\"functionName\":"
                  "\"\\\"b\xed\xa0\x80\\ud800c\"}}],"
                  "\"samples\":[2,3]},\"timeDeltas\":[5,5]}}}]";
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "bytes.json", t, &e);
  if (ZT_INT(e, ZC_OK)) {
    ZT_TRUE(find(tl, "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                     "\xef\xbf\xbdz\xc3\xa9") != NULL);
    ZT_TRUE(find(tl, "\"b\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                     "c") != NULL);
  }
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

/* The end-to-end figures: step marks, long tasks and style/layout on the
 * marks' thread from the first mark on; scripting from the CPU samples in
 * that window. Events elsewhere or before the window do not count. */
#define EV(ph, name, tid, ts, dur)                                             \
  "{\"cat\":\"x\",\"dur\":" #dur ",\"name\":\"" name "\",\"ph\":\"" ph         \
  "\",\"pid\":1,\"tid\":" #tid ",\"ts\":" #ts "}"
static void test_figures(void) {
  const char *filler = EV("I", "zamcap:step:1:click", 1, 31000, 0) "," EV(
      "I", "zamcap:step:2:waitForElement", 1, 61000,
      0) "," EV("I", "zamcap:end", 1, 111000,
                0) "," EV("I", "zamcap:step:9:click", 2, 1000,
                          0) "," EV("X", "RunTask", 1, 40000,
                                    120000) "," /* long: 70 ms blocking */
      EV("X", "RunTask", 1, 200000, 30000) ","  /* short */
      EV("X", "RunTask", 2, 40000, 90000) ","   /* another thread */
      EV("X", "RunTask", 1, -100000, 60000) "," /* before the window */
      EV("X", "UpdateLayoutTree", 1, 50000, 10000) "," EV(
          "X", "Layout", 1, 52000, 3000) "," /* nested: counted once */
      EV("X", "Layout", 1, 70000, 5000) "," EV(
          "X", "Layout", 2, 70000,
          5000) "," EV("X", "Layoutish", 1, 80000,
                       5000) "," EV("R", "zamcap:nonsense", 1, 90000, 0);
  struct ana_ctx *c = ana_ctx_new();
  char *t = trace_text(0, filler);
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "fig.json", t, &e);
  free(t);
  if (!ZT_TRUE(tl != NULL)) return;
  const struct ana_figures *f = &tl->fig;
  ZT_INT(f->marks, 2);
  ZT_NEAR(f->scenario_ms, 80, 1e-9);
  ZT_NEAR(f->scripting_ms, 101, 1e-9); /* samples 29..129, 1 ms each */
  ZT_NEAR(f->gc_ms, 0, 1e-9);
  ZT_NEAR(f->style_layout_ms, 15, 1e-9);
  ZT_NEAR(f->long_tasks, 1, 1e-9);
  ZT_NEAR(f->blocking_ms, 70, 1e-9);
  ZT_NEAR(f->profile_lost_ms, 0, 1e-9); /* the samples run to 161 ms */
  if (ZT_INT(f->nsteps, 2)) {
    ZT_INT(f->steps[0].step, 1);
    ZT_STR(f->steps[0].type, "click");
    ZT_NEAR(f->steps[0].ms, 30, 1e-9);
    ZT_STR(f->steps[1].type, "waitForElement");
    ZT_NEAR(f->steps[1].ms, 50, 1e-9);
  }
  ana_timeline_free(tl);
  /* A long task that runs on for 189 ms after the profile's last sample
   * (161 ms): V8 lost those samples. */
  t = trace_text(0, EV("I", "zamcap:step:1:click", 1, 31000,
                       0) "," EV("X", "RunTask", 1, 150000, 200000));
  tl = load_text(c, "lost.json", t, &e);
  free(t);
  if (ZT_TRUE(tl != NULL)) ZT_NEAR(tl->fig.profile_lost_ms, 189, 1e-9);
  ana_timeline_free(tl);
  /* Without marks (a trace saved from DevTools): the busiest
   * CrRendererMain over the whole trace, and no wall times. */
  t = trace_text(1, EV("X", "RunTask", 1, 40000, 120000));
  tl = load_text(c, "nomarks.json", t, &e);
  free(t);
  if (ZT_TRUE(tl != NULL)) {
    ZT_INT(tl->fig.marks, 0);
    ZT_TRUE(tl->fig.scenario_ms != tl->fig.scenario_ms); /* NAN */
    ZT_NEAR(tl->fig.scripting_ms, 130, 1e-9);
    ZT_NEAR(tl->fig.long_tasks, 1, 1e-9);
  }
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

/* A value too large to hold (a hostile or broken trace with one giant
 * string) is ZC_E_TOOBIG naming the file and the byte, not an
 * allocation without end. The cap is lowered to 4 MiB for the test. */
static void test_too_big(void) {
  struct zc_buf b;
  zc_buf_init(&b, 1 << 26);
  ZT_INT(zc_buf_printf(&b, "[{\"ph\":\"M\",\"name\":\"x\"},{\"s\":\""), ZC_OK);
  for (int i = 0; i < (8 << 20) / 64; i++)
    ZT_INT(zc_buf_printf(&b, "%s",
                         "0123456789abcdef0123456789abcdef"
                         "0123456789abcdef0123456789abcdef"),
           ZC_OK);
  ZT_INT(zc_buf_printf(&b, "\"}]"), ZC_OK);
  unsigned keep = ana__ing_maxval;
  ana__ing_maxval = 4u << 20;
  struct ana_ctx *c = ana_ctx_new();
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "big.json", b.ptr, &e);
  ana__ing_maxval = keep;
  ZT_INT(e, ZC_E_TOOBIG);
  ZT_TRUE(tl == NULL);
  ZT_HAS(zc_errmsg(), "big.json: a single JSON value starting at byte");
  ZT_HAS(zc_errmsg(), "is over 4 MiB");
  /* A string with escapes decodes into a buffer of its own: past that
   * one's ceiling it is an error naming the file and byte, not a name cut
   * short. */
  zc_buf_reset(&b);
  ZT_INT(zc_buf_printf(&b, "[{\"ph\":\"M\",\"name\":\"thread_name\","
                           "\"pid\":1,\"tid\":1,\"args\":{\"name\":\"\\n"),
         ZC_OK);
  for (int i = 0; i < (2 << 20) / 64; i++)
    ZT_INT(zc_buf_printf(&b, "%s",
                         "0123456789abcdef0123456789abcdef"
                         "0123456789abcdef0123456789abcdef"),
           ZC_OK);
  ZT_INT(zc_buf_printf(&b, "\"}}]"), ZC_OK);
  size_t keep_str = ana__jr_strmax;
  ana__jr_strmax = 1u << 20;
  tl = load_text(c, "long.json", b.ptr, &e);
  ana__jr_strmax = keep_str;
  ZT_INT(e, ZC_E_TOOBIG);
  ZT_TRUE(tl == NULL);
  ZT_HAS(zc_errmsg(), "long.json: byte ");
  ZT_HAS(zc_errmsg(), "a string over 1 MiB in one event");
  ana_timeline_free(tl);
  ana_ctx_free(c);
  zc_buf_free(&b);
}

/* The threads of a timeline, in order: their labels joined by '|'. */
static void thread_labels(const struct ana_timeline *tl, char *out,
                          size_t cap) {
  const struct ana_node *root = &tl->nodes[0];
  size_t n = 0;
  out[0] = '\0';
  for (uint32_t k = 0; k < root->nkids && n < cap; k++)
    n += (size_t)snprintf(
        out + n, cap - n, "%s%s", k ? "|" : "",
        ana_str(tl->ctx, tl->nodes[tl->kids[root->kid0 + k]].name));
}

static const struct ana_node *thread(const struct ana_timeline *tl,
                                     const char *label) {
  const struct ana_node *root = &tl->nodes[0];
  for (uint32_t k = 0; k < root->nkids; k++) {
    const struct ana_node *t = &tl->nodes[tl->kids[root->kid0 + k]];
    if (!strcmp(ana_str(tl->ctx, t->name), label)) return t;
  }
  return NULL;
}

/* One thread's profile: a Profile event and one chunk of n samples of
 * node 2 ("work") every 1 ms. extra goes into the Profile's data. */
static void add_profile(struct zc_buf *b, int pid, int tid, const char *id,
                        const char *fn, int n, long long ts, const char *extra,
                        const char *chunk_extra) {
  ZT_INT(zc_buf_printf(b,
                       "{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"%s\","
                       "\"pid\":%d,\"tid\":%d,\"ts\":%lld,\"args\":{\"data\""
                       ":{%s}}},\n",
                       id, pid, tid, ts, extra),
         ZC_OK);
  ZT_INT(zc_buf_printf(b,
                       "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":"
                       "\"%s\",\"pid\":%d,\"tid\":99,\"ts\":%lld,\"args\":{"
                       "\"data\":{\"cpuProfile\":{\"nodes\":[{\"id\":1,"
                       "\"callFrame\":{\"functionName\":\"(root)\"}},{\"id\":"
                       "2,\"parent\":1,\"callFrame\":{\"functionName\":\"%s\","
                       "\"url\":\"http://h/app.js\"}}],\"samples\":[",
                       id, pid, ts, fn),
         ZC_OK);
  for (int i = 0; i < n; i++)
    ZT_INT(zc_buf_printf(b, "%s2", i ? "," : ""), ZC_OK);
  ZT_INT(zc_buf_printf(b, "]%s},\"timeDeltas\":[", chunk_extra), ZC_OK);
  for (int i = 0; i < n; i++)
    ZT_INT(zc_buf_printf(b, "%s1000", i ? "," : ""), ZC_OK);
  ZT_INT(zc_buf_printf(b, "]}}}"), ZC_OK);
}

/* Issue 15.1: a profile's end time in a clock of its own (a Node process's
 * chunk with an absolute cpuProfile.endTime against a relative startTime)
 * gave the last sample 470 030 s. endTime is not read any more: the last
 * sample lasts the mean interval, as in DevTools' engine (15.5); the
 * trace's ts is the base, so a trace shifted in time compares as A/A. */
static void test_end_time(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  const char *cases[][2] = {
      /* startTime relative, endTime absolute: ignored */
      {"\"startTime\":5000", ",\"endTime\":470030000000"},
      /* endTime in startTime's clock, event ts in another */
      {"\"startTime\":5000", ",\"endTime\":16000"},
      /* an end before the last sample: ignored */
      {"\"startTime\":5000", ",\"endTime\":6000"},
  };
  const int64_t want[] = {10000, 10000, 10000}; /* 10 samples, 1 ms each */
  struct ana_timeline *tl[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 3; i++) {
    zc_buf_reset(&b);
    ZT_INT(zc_buf_printf(&b, "["), ZC_OK);
    add_profile(&b, 1, 1, "0x1", "work", 10, 777000000, cases[i][0],
                cases[i][1]);
    ZT_INT(zc_buf_printf(&b, "]"), ZC_OK);
    enum zc_err e;
    char name[32];
    snprintf(name, sizeof name, "end-%d.json", i);
    tl[i] = load_text(c, name, b.ptr, &e);
    if (!ZT_INT(e, ZC_OK)) continue;
    const struct ana_node *w = find(tl[i], "work");
    if (ZT_TRUE(w)) ZT_INT(w->total, want[i]);
    /* Samples are placed in the trace's clock (the Profile's ts). */
    if (w) ZT_INT(w->first_us, 777001000);
  }
  /* Shifted by a constant (ts, startTime and endTime): A/A. */
  zc_buf_reset(&b);
  ZT_INT(zc_buf_printf(&b, "["), ZC_OK);
  add_profile(&b, 1, 1, "0x1", "work", 10, 777000000 + 300000000000LL,
              "\"startTime\":300000005000", ",\"endTime\":470030000000");
  ZT_INT(zc_buf_printf(&b, "]"), ZC_OK);
  enum zc_err e;
  struct ana_timeline *sh = load_text(c, "shifted.json", b.ptr, &e);
  if (ZT_INT(e, ZC_OK) && tl[0]) {
    struct ana_opts o;
    ana_opts_default(&o);
    o.mu = 0.001;
    struct ana_stats st = {0, 0, 0};
    struct ana_graph *g = NULL;
    ZT_INT(ana_critical(tl[0], sh, &o, &st, &g), ZC_OK);
    if (g) ZT_INT(ana_graph_causes(g), 0);
    ana_graph_free(g);
    ZT_INT(sh->nodes[0].total, tl[0]->nodes[0].total);
  }
  ana_timeline_free(sh);
  for (int i = 0; i < 3; i++)
    ana_timeline_free(tl[i]);
  zc_buf_free(&b);
  ana_ctx_free(c);
}

/* Issue 15.2: threads are (process, thread); where two share a name, the
 * page's (the busiest) keeps it and the others say what they are: their
 * frame's origin (without the port), else their process, else their
 * thread id. Labels by origin do not depend on pids or ports, so old and
 * new threads match; a thread known by its pid alone cannot. */
static void test_thread_labels(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  struct ana_timeline *tl[2] = {NULL, NULL};
  for (int run = 0; run < 2; run++) {
    int p = run ? 500 : 100; /* other pids, other ports, other order */
    zc_buf_reset(&b);
    ZT_INT(zc_buf_printf(
               &b,
               "{\"traceEvents\":[{\"ph\":\"I\",\"name\":"
               "\"TracingStartedInBrowser\",\"pid\":9,\"tid\":9,\"ts\":1,"
               "\"args\":{\"data\":{\"frames\":[{\"frame\":\"F1\","
               "\"processId\":%d,\"url\":\"http://a.test:%d/\"},"
               "{\"frame\":\"F2\",\"parent\":\"F1\",\"processId\":%d,"
               "\"url\":\"https://user:pw@b.test:%d/x?q\"}]}}},\n",
               p + 1, 8000 + run, p + 2, 9000 + run),
           ZC_OK);
    for (int k = 1; k <= 3; k++)
      ZT_INT(zc_buf_printf(&b,
                           "{\"ph\":\"M\",\"name\":\"thread_name\","
                           "\"pid\":%d,\"tid\":%d,\"args\":{\"name\":"
                           "\"CrRendererMain\"}},\n",
                           p + k, p + k),
             ZC_OK);
    for (int k = 7; k <= 8; k++)
      ZT_INT(zc_buf_printf(&b,
                           "{\"ph\":\"M\",\"name\":\"thread_name\","
                           "\"pid\":%d,\"tid\":%d,\"args\":{\"name\":"
                           "\"DedicatedWorker thread\"}},\n",
                           p + 1, p + k),
             ZC_OK);
    /* renderer 1 busiest; 2 an iframe's; 3 unknown; two workers of one
     * script in renderer 1 */
    int order[] = {3, 2, 1};
    for (int k = 0; k < 3; k++) {
      int r = run ? order[k] : k + 1;
      add_profile(&b, p + r, p + r, "0x1", r == 1 ? "main" : "sub",
                  r == 1 ? 50 : 20, 1000, "", "");
      ZT_INT(zc_buf_printf(&b, ",\n"), ZC_OK);
    }
    add_profile(&b, p + 1, p + 7, "0x2", "onmessage", 30, 1000, "", "");
    ZT_INT(zc_buf_printf(&b, ",\n"), ZC_OK);
    add_profile(&b, p + 1, p + 8, "0x3", "onmessage", 10, 1000, "", "");
    ZT_INT(zc_buf_printf(&b, "]}"), ZC_OK);
    enum zc_err e;
    tl[run] = load_text(c, run ? "labels-b.json" : "labels-a.json", b.ptr, &e);
    if (!ZT_INT(e, ZC_OK)) continue;
    ZT_INT(tl[run]->nodes[0].nkids, 5);
    const struct ana_node *t = thread(tl[run], "CrRendererMain");
    if (ZT_TRUE(t)) ZT_INT(t->total, 50000);
    ZT_TRUE(thread(tl[run], "CrRendererMain (https://b.test)") != NULL);
    char want[64];
    snprintf(want, sizeof want, "CrRendererMain (pid %d)", p + 3);
    ZT_TRUE(thread(tl[run], want) != NULL);
    t = thread(tl[run], "DedicatedWorker thread /app.js");
    if (ZT_TRUE(t)) ZT_INT(t->total, 30000);
    t = thread(tl[run], "DedicatedWorker thread /app.js (http://a.test)");
    if (ZT_TRUE(t)) ZT_INT(t->total, 10000);
  }
  if (tl[0] && tl[1]) {
    /* Matched by label: the same work is no regression. */
    struct ana_opts o;
    ana_opts_default(&o);
    o.mu = 0.001;
    struct ana_stats st = {0, 0, 0};
    struct ana_graph *g = NULL;
    ana_prune(tl[0], ANA_PRUNE_NAMES);
    ana_prune(tl[1], ANA_PRUNE_NAMES);
    ZT_INT(ana_critical(tl[0], tl[1], &o, &st, &g), ZC_OK);
    /* Only the renderer known by its pid alone is new: pids differ from
     * run to run. */
    struct ana_cause *cs = NULL;
    uint32_t n = g ? ana_causes(g, &cs) : 0;
    ZT_TRUE(n > 0);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t at = cs[i].node;
      while (g->nodes[at].parent != 0)
        at = g->nodes[at].parent;
      ZT_STR(ana_str(c, g->nodes[at].name), "CrRendererMain (pid 503)");
    }
    free(cs);
    ana_graph_free(g);
  }
  ana_timeline_free(tl[0]);
  ana_timeline_free(tl[1]);
  zc_buf_free(&b);
  ana_ctx_free(c);
}

/* Issue 15.3: console.profile() during a recording starts a second
 * profile on the thread; DevTools keeps one (the recording's, "Internal";
 * else the inspector's; else the first) and so does zamcap. */
static void test_two_profiles(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  const char *src[][2] = {
      {"\"source\":\"Inspector\"", "\"source\":\"Internal\""},
      {"", ""},
  };
  for (int i = 0; i < 2; i++) {
    zc_buf_reset(&b);
    ZT_INT(zc_buf_printf(&b, "["), ZC_OK);
    add_profile(&b, 1, 1, "0x2", "profiled", 40, 1000, src[i][0], "");
    ZT_INT(zc_buf_printf(&b, ",\n"), ZC_OK);
    add_profile(&b, 1, 1, "0x1", "recorded", 100, 1000, src[i][1], "");
    ZT_INT(zc_buf_printf(&b, "]"), ZC_OK);
    enum zc_err e;
    struct ana_timeline *tl = load_text(c, "two.json", b.ptr, &e);
    if (ZT_INT(e, ZC_OK)) {
      ZT_INT(tl->profiles, 2);
      ZT_INT(tl->nodes[0].nkids, 1);
      /* with sources the recording's; without, the first in the file */
      const struct ana_node *kept = find(tl, i ? "profiled" : "recorded");
      const struct ana_node *gone = find(tl, i ? "recorded" : "profiled");
      ZT_TRUE(kept != NULL);
      ZT_TRUE(gone == NULL);
      ZT_INT(tl->samples, i ? 40 : 100);
    }
    ana_timeline_free(tl);
  }
  zc_buf_free(&b);
  ana_ctx_free(c);
}

/* Issue 15.4: Node <= 10's .cpuprofile (head tree, 1-based lines, times
 * in seconds, absolute timestamps) and Chrome <= 66's CpuProfile event
 * are read; a file with no samples is told what it holds. */
static void test_old_formats(void) {
  struct ana_ctx *c = ana_ctx_new();
  enum zc_err e;
  const char *head =
      "{\"head\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":0,"
      "\"id\":1,\"children\":[{\"functionName\":\"work\",\"url\":"
      "\"file:///x/app.js\",\"lineNumber\":4,\"columnNumber\":2,\"id\":2,"
      "\"children\":[{\"children\":[],\"id\":3,\"functionName\":\"inner\","
      "\"url\":\"file:///x/app.js\",\"lineNumber\":10}]}]},"
      "\"startTime\":100.5,\"endTime\":100.6,\"samples\":[2,3,3,2],"
      "\"timestamps\":[100500000,100501000,100502000,100503000,"
      "100504000]}";
  struct ana_timeline *tl = load_text(c, "old.cpuprofile", head, &e);
  if (ZT_INT(e, ZC_OK)) {
    const struct ana_node *w = find(tl, "work"), *in = find(tl, "inner");
    if (ZT_TRUE(w && in)) {
      ZT_INT(w->total, 4000); /* the fifth time ends the last sample */
      ZT_INT(in->total, 2000);
      ZT_INT(w->line, 3);
      ZT_INT(w->col, 1);
      ZT_INT(in->parent, (uint32_t)(w - tl->nodes));
    }
    ZT_INT(tl->samples, 4);
  }
  ana_timeline_free(tl);
  const char *ev =
      "[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":3,\"tid\":4,\"args\":"
      "{\"name\":\"CrRendererMain\"}},{\"ph\":\"I\",\"name\":\"CpuProfile\","
      "\"pid\":3,\"tid\":4,\"ts\":9000,\"args\":{\"data\":{\"cpuProfile\":"
      "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},"
      "\"children\":[2]},{\"id\":2,\"callFrame\":{\"functionName\":\"work\","
      "\"url\":\"http://h/a.js\"}}],\"startTime\":1000,\"endTime\":4000,"
      "\"samples\":[2,2,2],\"timeDeltas\":[0,1000,1000]}}}}]";
  tl = load_text(c, "cpuprofile-event.json", ev, &e);
  if (ZT_INT(e, ZC_OK)) {
    ZT_STR(ana_str(c, tl->nodes[tl->kids[0]].name), "CrRendererMain");
    const struct ana_node *w = find(tl, "work");
    if (ZT_TRUE(w)) ZT_INT(w->total, 3000);
    ZT_TRUE(tl->what == NULL);
  }
  ana_timeline_free(tl);
  /* No samples: the message says what the file holds. */
  static const char *const none[][2] = {
      {"[{\"ph\":\"X\",\"name\":\"RunTask\"},{\"ph\":\"X\"}]",
       "2 trace events and no CPU profile"},
      {"{\"head\":{\"callFrame\":{\"functionName\":\"(root)\"},\"selfSize\":0,"
       "\"id\":1,\"children\":[]},\"samples\":[{\"size\":32,\"nodeId\":1,"
       "\"ordinal\":1}]}",
       "'samples' that are objects"},
      {"{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}],"
       "\"samples\":[],\"timeDeltas\":[]}",
       "a CPU profile with 1 node and no samples"},
      {"[]", "no trace events"},
  };
  for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
    tl = load_text(c, "none.json", none[i][0], &e);
    if (ZT_INT(e, ZC_OK)) {
      ZT_INT(tl->samples, 0);
      if (ZT_TRUE(tl->what != NULL)) ZT_HAS(tl->what, none[i][1]);
    }
    ana_timeline_free(tl);
  }
  ana_ctx_free(c);
}

/* Real files from public repositories (tests/data/real-traces/SOURCES.md):
 * each loads, with the threads and samples it holds. */
static void test_real_traces(void) {
  static const struct {
    const char *file, *threads;
    uint64_t samples;
    const char *fn;
  } cases[] = {
      {"chrome65-cpuprofile-event.json.gz", "CrRendererMain", 4081, "c"},
      {"chrome65-devtools.cpuprofile.gz", "main", 0, "d"},
      {"chrome66-worker.json.gz",
       "CrRendererMain|DedicatedWorker thread /worker.js", 8239, NULL},
      {"chrome69-simple.json.gz", "CrRendererMain", 0, "gamma"},
      {"chrome70-worker.json.gz",
       "CrRendererMain|DedicatedWorker thread /worker.js", 0, NULL},
      {"chrome85-webpack.json.gz", "CrRendererMain", 0, NULL},
      {"chrome116-trace.json.gz", "CrRendererMain", 0, "gamma"},
      /* 16 of its 416 samples name nodes whose parent is not in the file:
       * dropped, as the engine drops them */
      {"chrome141-two-profiles.json.gz", "CrRendererMain", 400, NULL},
      {"node10-head.cpuprofile.gz", "main", 29, "d"},
      {"node-worker.cpuprofile.gz", "main", 0, NULL},
      {"node-main.cpuprofile.gz", "main", 0, NULL},
  };
  struct ana_ctx *c = ana_ctx_new();
  char path[256], labels[512];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(path, sizeof path, "real-traces/%s", cases[i].file);
    struct ana_timeline *tl = NULL;
    if (!ZT_INT(ana_load(c, zt_data(path), &tl), ZC_OK)) {
      fprintf(stderr, "  (%s: %s)\n", cases[i].file, zc_errmsg());
      continue;
    }
    thread_labels(tl, labels, sizeof labels);
    ZT_STR(labels, cases[i].threads);
    ZT_TRUE(tl->samples > 0);
    if (cases[i].samples) ZT_INT(tl->samples, cases[i].samples);
    if (cases[i].fn) ZT_TRUE(find(tl, cases[i].fn) != NULL);
    ZT_TRUE(tl->what == NULL);
    ana_timeline_free(tl);
  }
  /* Node 10's head format: the extra timestamp ends the last sample, so
   * the thread spans the first to the last timestamp (45.92 ms). */
  struct ana_timeline *tl = NULL;
  if (ZT_INT(ana_load(c, zt_data("real-traces/node10-head.cpuprofile.gz"), &tl),
             ZC_OK))
    ZT_INT(tl->nodes[0].total, 45920);
  ana_timeline_free(tl);
  /* Issue 26.12: Chrome <= 66's CpuProfile event, 20 samples, endTime 6 s
   * past the last one. DevTools' engine (its CPUProfileDataModel, given
   * the event as the complete event it makes of a .cpuprofile) reads the
   * intervals and the end as zamcap does: each sample lasts until the
   * next, the last the mean interval, endTime unread (7.26 s if it were):
   * 269.25 ms over the 20. Two samples are on nodes 40 and 46, which no
   * node lists as a child (the fixture's node list is cut): the engine
   * does not reach them from the root and drops their samples, 230.76 ms
   * left; so does zamcap now. Its 157 ms is forEachFrame's (the CPU
   * profile's flame chart), which stops at the first such sample and
   * drops the 8 after it too: a DevTools artefact, not matched. */
  tl = NULL;
  if (ZT_INT(ana_load(c,
                      zt_data("real-traces/"
                              "chrome-unchunked-cpuprofile-event.json.gz"),
                      &tl),
             ZC_OK)) {
    ZT_INT(tl->nodes[0].total, 230760);
    ZT_TRUE(find(tl, "updateMatrixWorld") == NULL); /* node 40's subtree */
    ZT_TRUE(find(tl, "emitChange") != NULL);        /* after node 40, kept */
  }
  ana_timeline_free(tl);
  /* Hermes' own trace-event samples: no V8 profile, and it says so. */
  tl = NULL;
  if (ZT_INT(ana_load(c, zt_data("real-traces/hermes-samples.json.gz"), &tl),
             ZC_OK)) {
    ZT_INT(tl->samples, 0);
    if (ZT_TRUE(tl->what)) ZT_HAS(tl->what, "'samples' that are objects");
  }
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

/* Issue 15.5, as DevTools' engine: a lone (program) sample between two
 * samples under the same top-level function is theirs (fixMissingSamples);
 * a node whose parent is not in the file is dropped with its samples; the
 * last sample lasts the mean interval. */
static void test_engine_rules(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *t =
      "[{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\",\"pid\":1,"
      "\"tid\":1,\"ts\":1000,\"args\":{\"data\":{\"startTime\":1000}}},"
      "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x1\",\"pid\":1,"
      "\"tid\":2,\"ts\":2000,\"args\":{\"data\":{\"cpuProfile\":{"
      "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}},"
      "{\"id\":2,\"parent\":1,\"callFrame\":{\"functionName\":"
      "\"(program)\"}},"
      "{\"id\":3,\"parent\":1,\"callFrame\":{\"functionName\":\"main\","
      "\"url\":\"http://h/a.js\"}},"
      "{\"id\":4,\"parent\":3,\"callFrame\":{\"functionName\":\"leaf\","
      "\"url\":\"http://h/a.js\"}},"
      "{\"id\":5,\"parent\":1,\"callFrame\":{\"functionName\":\"other\","
      "\"url\":\"http://h/a.js\"}},"
      "{\"id\":6,\"parent\":99,\"callFrame\":{\"functionName\":"
      "\"orphan\",\"url\":\"http://h/a.js\"}}],"
      "\"samples\":[4,2,4,2,5,6,3]},"
      "\"timeDeltas\":[1000,1000,1000,1000,1000,1000,1000]}}}]";
  enum zc_err e;
  struct ana_timeline *tl = load_text(c, "engine-rules.json", t, &e);
  if (ZT_INT(e, ZC_OK)) {
    const struct ana_node *leaf = find(tl, "leaf"), *m = find(tl, "main");
    const struct ana_node *pr = find(tl, "(program)"), *o = find(tl, "other");
    if (ZT_TRUE(leaf && m && pr && o)) {
      ZT_INT(leaf->self, 3000); /* the first (program) is leaf's */
      ZT_INT(pr->self, 1000);   /* the second lies between two tops */
      ZT_INT(o->self, 1000);
      ZT_INT(m->self, 1000); /* the last sample: the mean interval */
      ZT_INT(m->total, 4000);
    }
    ZT_TRUE(find(tl, "orphan") == NULL);
    ZT_INT((int)tl->samples, 6);
    ana_timeline_free(tl);
  }
  /* Chunks whose nodes are all unknown make no (empty) thread. */
  const char *u =
      "[{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":\"0x7\",\"pid\":1,"
      "\"tid\":2,\"ts\":2000,\"args\":{\"data\":{\"cpuProfile\":{"
      "\"samples\":[7,7]},\"timeDeltas\":[1000,1000]}}}]";
  tl = load_text(c, "unknown-nodes.json", u, &e);
  if (ZT_INT(e, ZC_OK)) {
    ZT_INT((int)tl->nodes[0].nkids, 0);
    ana_timeline_free(tl);
  }
  ana_ctx_free(c);
}

/* Self time of every function of one thread's subtree, by V8's frame
 * (name, url, line, column), in µs: the n-th row of out. */
struct fn_self {
  const char *name, *url;
  int32_t line, col;
  int64_t us;
};
static size_t thread_selfs(const struct ana_timeline *tl, uint32_t th,
                           struct fn_self **out) {
  size_t n = 0, cap = 64;
  struct fn_self *v = zc_xmalloc(cap * sizeof *v);
  uint32_t *stack = zc_xmalloc(((size_t)tl->nnodes + 1) * sizeof *stack);
  size_t sp = 0;
  stack[sp++] = th;
  while (sp) {
    const struct ana_node *nd = &tl->nodes[stack[--sp]];
    for (uint32_t k = 0; k < nd->nkids; k++)
      stack[sp++] = tl->kids[nd->kid0 + k];
    if (nd->kind != ANA_FUNC || !nd->self) continue;
    const char *name = ana_str(tl->ctx, nd->name);
    const char *url = ana_str(tl->ctx, nd->url);
    size_t i = 0;
    while (i < n && !(v[i].line == nd->line && v[i].col == nd->col &&
                      !strcmp(v[i].name, name) && !strcmp(v[i].url, url)))
      i++;
    if (i == n) {
      if (n == cap) v = zc_xrealloc(v, (cap *= 2) * sizeof *v);
      v[n++] = (struct fn_self){name, url, nd->line, nd->col, 0};
    }
    v[i].us += nd->self;
  }
  free(stack);
  *out = v;
  return n;
}

static int64_t self_of(const struct fn_self *v, size_t n, const cJSON *f) {
  const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(f, "name"));
  const char *url = cJSON_GetStringValue(cJSON_GetObjectItem(f, "url"));
  int line = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(f, "line"));
  int col = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(f, "col"));
  for (size_t i = 0; i < n; i++)
    if (v[i].line == line && v[i].col == col && !strcmp(v[i].name, name) &&
        !strcmp(v[i].url, url ? url : ""))
      return v[i].us;
  return 0;
}

/* zamcap's self time per (thread, function) against DevTools' trace
 * engine's (tests/data/real-traces/engine.json, written by engine.mjs):
 * the top 20 functions of every thread agree to 1 % or 0.5 ms. An engine
 * thread is held against the zamcap thread that shares most of its time
 * (threads are labelled differently, by design). */
static void test_engine(void) {
  cJSON *doc = zt_json("%s", zt_data("real-traces/engine.json"));
  if (!doc) return;
  struct ana_ctx *c = ana_ctx_new();
  unsigned files = 0, funcs = 0, bad = 0;
  const cJSON *file;
  cJSON_ArrayForEach(file, doc) {
    const cJSON *threads = cJSON_GetObjectItem(file, "threads");
    char path[512];
    snprintf(path, sizeof path, "real-traces/%s", file->string);
    struct ana_timeline *tl = NULL;
    if (!ZT_INT(ana_load(c, zt_data(path), &tl), ZC_OK)) {
      fprintf(stderr, "  %s: %s\n", file->string, zc_errmsg());
      continue;
    }
    /* Every file of the corpus is read, with its samples (Hermes' trace
     * has none of V8's, and says so), also where the engine could not. */
    if (strstr(file->string, "hermes"))
      ZT_TRUE(tl->what != NULL);
    else if (!ZT_TRUE(tl->samples > 0))
      fprintf(stderr, "  %s: no samples\n", file->string);
    if (!cJSON_GetArraySize(threads)) {
      ana_timeline_free(tl);
      continue;
    }
    files++;
    const struct ana_node *root = &tl->nodes[0];
    const cJSON *et;
    cJSON_ArrayForEach(et, threads) {
      const cJSON *top = cJSON_GetObjectItem(et, "top");
      struct fn_self *best = NULL;
      size_t bestn = 0;
      int64_t bestov = -1;
      for (uint32_t k = 0; k < root->nkids; k++) {
        struct fn_self *v;
        size_t n = thread_selfs(tl, tl->kids[root->kid0 + k], &v);
        int64_t ov = 0;
        const cJSON *f;
        cJSON_ArrayForEach(f, top) {
          int64_t z = self_of(v, n, f);
          int64_t e = (int64_t)(cJSON_GetNumberValue(
                                    cJSON_GetObjectItem(f, "self_ms")) *
                                1000);
          ov += z < e ? z : e;
        }
        if (ov > bestov) {
          free(best);
          best = v, bestn = n, bestov = ov;
        } else {
          free(v);
        }
      }
      int shown = 0;
      for (int i = 0; i < 20; i++) {
        const cJSON *f = cJSON_GetArrayItem(top, i);
        if (!f) break;
        double e = cJSON_GetNumberValue(cJSON_GetObjectItem(f, "self_ms"));
        double z = (double)self_of(best, bestn, f) / 1000;
        double tol = e * 0.01 > 0.5 ? e * 0.01 : 0.5;
        funcs++;
        if (z < e - tol || z > e + tol) {
          bad++;
          if (shown++ < 3)
            fprintf(stderr, "  %s: %s (%s:%d): engine %.3f ms, zamcap %.3f\n",
                    file->string,
                    cJSON_GetStringValue(cJSON_GetObjectItem(f, "name")),
                    cJSON_GetStringValue(cJSON_GetObjectItem(f, "url")),
                    (int)cJSON_GetNumberValue(cJSON_GetObjectItem(f, "line")),
                    e, z);
        }
      }
      free(best);
    }
    ana_timeline_free(tl);
  }
  fprintf(stderr, "engine: %u files, %u functions, %u differ\n", files, funcs,
          bad);
  ZT_TRUE(files >= 20);
  ZT_TRUE(funcs >= 200);
  ZT_INT(bad, 0);
  cJSON_Delete(doc);
  ana_ctx_free(c);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"engine", test_engine},
      {"engine_rules", test_engine_rules},
      {"forms", test_forms},
      {"figures", test_figures},
      {"too_big", test_too_big},
      {"not_utf8", test_not_utf8},
      {"gzip", test_gzip},
      {"cpuprofile", test_cpuprofile},
      {"long_names", test_long_names},
      {"scanner_strings", test_scanner_strings},
      {"refills", test_refills},
      {"broken", test_broken},
      {"order_and_workers", test_order_and_workers},
      {"component", test_component},
      {"jread", test_jread},
      {"escaped_names", test_escaped_names},
      {"end_time", test_end_time},
      {"thread_labels", test_thread_labels},
      {"two_profiles", test_two_profiles},
      {"old_formats", test_old_formats},
      {"real_traces", test_real_traces},
  };
  return ZT_RUN(cases, argc, argv);
}
