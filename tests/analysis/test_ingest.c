/* Tests of trace ingest: both JSON forms, gzip, .cpuprofile, the
 * scanner's corner cases, values across buffer refills, broken files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ana-int.h"
#include "test.h"

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
  /* The last sample has no successor and no end time: it lasts 0 ms. */
  ZT_INT(m->total_us, 130000);
  ZT_INT(m->self_us, 10000);
  ZT_INT(s->total_us, 100000);
  ZT_STR(ana_str(tl->ctx, s->component), "/app.js");
  ZT_INT(s->line, 20);
  ZT_INT(find(tl, "(idle)")->kind, ANA_IDLE);
  ZT_INT(find(tl, "(idle)")->total_us, 29000);
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
  for (long i = 12; i < n - 8; i += 7) all[i] = (char)(all[i] ^ 0x5a);
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
    if (w) ZT_INT(w->total_us, 5000);
    if (in) ZT_INT(in->total_us, 3000);
    if (w) ZT_STR(ana_str(c, w->component), "/x/app.js");
    ZT_STR(ana_str(c, tl->nodes[tl->kids[0]].name), "main");
  }
  ana_timeline_free(tl);
  zc_buf_free(&b);
  ana_ctx_free(c);
}

/* Strings full of brackets, escaped quotes and backslashes, in events
 * that are skipped, must not confuse the scanner. */
static void test_scanner_strings(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *filler =
      "{\"args\":{\"s\":\"]}{[ \\\" \\\\\",\"t\":\"\\\\\",\"u\":\"x\\\\\\\"}\"},"
      "\"name\":\"X\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},"
      "{\"ph\":\"I\",\"name\":\"p\\\"h\",\"args\":[[],{},\"\",-1.5e3,true,null]}";
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
    ZT_TRUE(tl->bytes > 4000000);
  }
  ana_timeline_free(tl);
  free(t);
  zc_buf_free(&f);
  ana_ctx_free(c);
}

static void expect_error(struct ana_ctx *c, const char *name,
                         const char *text, const char *msg) {
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
  expect_error(c, "trunc.json", "{\"traceEvents\":[{\"ph\":\"X\",\"a\":",
               "truncated");
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
     * durations 50 50 100 100 0 */
    const struct ana_node *on = find(tl, "onmessage"), *cr = find(tl, "crunch");
    if (ZT_TRUE(on && cr)) {
      ZT_INT(on->total_us, 300);
      ZT_INT(on->self_us, 150);
      ZT_INT(cr->total_us, 150);
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
  static const char *const bad[] = {"[1 2]", "{\"a\" 1}", "[\"\\q\"]",
                                    "[-]", "[tru]", "[\"open", "{\"a\":1]"};
  /* the offending byte; a string never closed fails where the data ends */
  static const int at[] = {3, 5, 2, 1, 1, 6, 6};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    jr_init(&r, bad[i], strlen(bad[i]));
    int c = jr_peek(&r);
    if (c == '[') {
      jr_arr(&r);
      while (jr_more(&r, NULL, NULL) && jr_skip(&r)) {}
    } else {
      jr_obj(&r);
      while (jr_more(&r, &k, &kn) && jr_skip(&r)) {}
    }
    if (ZT_TRUE(r.err != NULL)) ZT_INT(r.err - bad[i], at[i]);
    jr_done(&r);
  }
}

/* Function names with escapes reach the tree decoded. */
static void test_escaped_names(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *t =
      "[{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":1,\"pid\":1,"
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
  const char *t =
      "[{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"id\":1,\"pid\":1,"
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
#define EV(ph, name, tid, ts, dur)                                           \
  "{\"cat\":\"x\",\"dur\":" #dur ",\"name\":\"" name "\",\"ph\":\"" ph  \
  "\",\"pid\":1,\"tid\":" #tid ",\"ts\":" #ts "}"
static void test_figures(void) {
  const char *filler =
      EV("I", "zamcap:step:1:click", 1, 31000, 0) ","
      EV("I", "zamcap:step:2:waitForElement", 1, 61000, 0) ","
      EV("I", "zamcap:end", 1, 111000, 0) ","
      EV("I", "zamcap:step:9:click", 2, 1000, 0) ","
      EV("X", "RunTask", 1, 40000, 120000) ","  /* long: 70 ms blocking */
      EV("X", "RunTask", 1, 200000, 30000) ","  /* short */
      EV("X", "RunTask", 2, 40000, 90000) ","   /* another thread */
      EV("X", "RunTask", 1, -100000, 60000) "," /* before the window */
      EV("X", "UpdateLayoutTree", 1, 50000, 10000) ","
      EV("X", "Layout", 1, 52000, 3000) ","     /* nested: counted once */
      EV("X", "Layout", 1, 70000, 5000) ","
      EV("X", "Layout", 2, 70000, 5000) ","
      EV("X", "Layoutish", 1, 80000, 5000) ","
      EV("R", "zamcap:nonsense", 1, 90000, 0);
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
  if (ZT_INT(f->nsteps, 2)) {
    ZT_INT(f->steps[0].step, 1);
    ZT_STR(f->steps[0].type, "click");
    ZT_NEAR(f->steps[0].ms, 30, 1e-9);
    ZT_STR(f->steps[1].type, "waitForElement");
    ZT_NEAR(f->steps[1].ms, 50, 1e-9);
  }
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
    ZT_INT(zc_buf_printf(&b, "%s", "0123456789abcdef0123456789abcdef"
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

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"forms", test_forms},
      {"figures", test_figures},
      {"too_big", test_too_big},
      {"not_utf8", test_not_utf8},
      {"gzip", test_gzip},
      {"cpuprofile", test_cpuprofile},
      {"scanner_strings", test_scanner_strings},
      {"refills", test_refills},
      {"broken", test_broken},
      {"order_and_workers", test_order_and_workers},
      {"component", test_component},
      {"jread", test_jread},
      {"escaped_names", test_escaped_names},
  };
  return ZT_RUN(cases, argc, argv);
}
