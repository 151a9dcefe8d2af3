/* I/O per call path without a browser (issue 36): traces and .io.json
 * files written here, read (trace/io-read.c) and compared (zam/io.c): the
 * requests' steps, patterns, caches and failures; the .io.json's stacks
 * merged by request id, its writes and what passed its caps; a broken one
 * named; an N+1 named at its function, a request moved to another caller
 * not named, an A/A naming nothing; a page's key and function with
 * markup and escapes are data in every report. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "report/report.h"
#include "test.h"
#include "timeline.h"
#include "zam/io.h"
#include "zc.h"

/* A trace: marks for steps 1 and 2, and for each request (id, URL,
 * method, stack function or NULL, its encoded bytes, cached, failed) its
 * events in step 2. */
struct req {
  const char *id, *url, *fn;
  double bytes;
  int cached, failed;
};

static void put_trace(const char *path, const struct req *r, size_t n) {
  struct zc_buf b;
  zc_buf_init(&b, 1 << 24);
  long long ts = 1000;
  ZT_INT(zc_buf_printf(&b,
                       "{\"traceEvents\":[{\"name\":\"zamcap:step:1:navigate\","
                       "\"ph\":\"I\",\"pid\":1,\"tid\":1,\"ts\":%lld,"
                       "\"cat\":\"blink.user_timing\",\"args\":{}}",
                       ts),
         0);
  ZT_INT(zc_buf_printf(&b,
                       ",{\"name\":\"ResourceSendRequest\",\"ph\":\"I\","
                       "\"pid\":1,\"tid\":1,\"ts\":%lld,\"args\":{\"data\":{"
                       "\"requestId\":\"doc\",\"url\":\"http://127.0.0.1:"
                       "8080/index.html\",\"requestMethod\":\"GET\","
                       "\"resourceType\":\"Document\"}}}",
                       ts + 1),
         0);
  ZT_INT(zc_buf_printf(&b,
                       ",{\"name\":\"zamcap:step:2:click\",\"ph\":\"I\","
                       "\"pid\":1,\"tid\":1,\"ts\":%lld,\"args\":{}}",
                       ts + 100),
         0);
  ts += 200;
  for (size_t i = 0; i < n; i++, ts += 10) {
    char st[300] = "";
    if (r[i].fn)
      snprintf(st, sizeof st,
               ",\"stackTrace\":[{\"functionName\":\"%s\",\"url\":"
               "\"http://127.0.0.1:8080/app.js\",\"lineNumber\":5,"
               "\"columnNumber\":3}]",
               r[i].fn);
    ZT_INT(zc_buf_printf(
               &b,
               ",{\"name\":\"ResourceSendRequest\",\"ph\":\"I\",\"pid\":1,"
               "\"tid\":1,\"ts\":%lld,\"args\":{\"data\":{\"requestId\":"
               "\"%s\",\"url\":\"%s\",\"requestMethod\":\"GET\","
               "\"initiator\":{\"type\":\"%s\"}%s}}}",
               ts, r[i].id, r[i].url, r[i].fn ? "script" : "parser", st),
           0);
    ZT_INT(zc_buf_printf(&b,
                         ",{\"name\":\"ResourceReceiveResponse\",\"ph\":\"I\","
                         "\"pid\":1,\"tid\":1,\"ts\":%lld,\"args\":{\"data\":{"
                         "\"requestId\":\"%s\",\"fromCache\":%s,"
                         "\"statusCode\":%d}}}",
                         ts + 1, r[i].id, r[i].cached ? "true" : "false",
                         r[i].failed ? 404 : 200),
           0);
    ZT_INT(zc_buf_printf(&b,
                         ",{\"name\":\"ResourceFinish\",\"ph\":\"I\",\"pid\":"
                         "1,\"tid\":1,\"ts\":%lld,\"args\":{\"data\":{"
                         "\"requestId\":\"%s\",\"encodedDataLength\":%.0f,"
                         "\"decodedBodyLength\":%.0f,\"didFail\":false}}}",
                         ts + 5, r[i].id, r[i].bytes, r[i].bytes),
           0);
  }
  ZT_INT(zc_buf_printf(&b, "]}\n"), 0);
  zt_write(path, b.ptr, b.len);
  zc_buf_free(&b);
}

static const char *tmp(const char *name) {
  return zt_tmp(name);
}

/* The trace's requests: steps, patterns (ids folded, no query), a
 * cache's and a failure's marks, the one-frame stacks and who asked. */
static void test_trace(void) {
  const struct req r[] = {
      {"1.1", "http://127.0.0.1:8080/api/item/7?token=secret", "load", 2048, 0,
       0},
      {"1.2", "http://127.0.0.1:8080/img/a.png", NULL, 100, 1, 0},
      {"1.3", "http://cdn.example/x/9", "load", 10, 0, 1},
  };
  const char *p = tmp("t1.json");
  put_trace(p, r, 3);
  struct ana_ctx *c = ana_ctx_new();
  struct ana_io_run *run = NULL;
  if (!ZT_INT(ana__io_read(c, p, &run), ZC_OK)) {
    ana_ctx_free(c);
    return;
  }
  ZT_INT(run->nitems, 4);
  ZT_INT(run->nsteps, 2);
  ZT_INT(run->sidecar, 0);
  const struct io_item *it = run->items;
  ZT_STR(ana_str(c, it[0].what), "GET /index.html");
  ZT_INT(it[0].step, 1);
  ZT_STR(ana_str(c, it[0].synth), "(navigation)");
  ZT_STR(ana_str(c, it[1].what), "GET /api/item/:id");
  ZT_INT(it[1].step, 2);
  ZT_INT(it[1].nframes, 1);
  ZT_STR(ana_str(c, run->frames[it[1].frame0].name), "load");
  ZT_INT(run->frames[it[1].frame0].line, 4); /* the trace's are 1-based */
  ZT_NEAR(it[1].received, 2048, 0);
  ZT_TRUE(it[2].flags & IO_F_CACHED);
  ZT_STR(ana_str(c, it[2].synth), "(parser)");
  ZT_STR(ana_str(c, it[3].what), "GET cdn.example/x/:id");
  ZT_TRUE(it[3].flags & IO_F_ERROR);
  ana__io_run_free(run);
  ana_ctx_free(c);
}

/* The .io.json: the whole stack by request id, the body sent, a request
 * the trace has not, the writes, the caps. */
static void test_sidecar(void) {
  const struct req r[] = {
      {"1.1", "http://127.0.0.1:8080/api/save", "post", 100, 0, 0},
  };
  const char *p = tmp("t2.json");
  put_trace(p, r, 1);
  zt_write_str(tmp("t2.io.json"),
               "{\"schema\":\"zamcap-io/1\",\"stacks\":["
               "[[\"post\",\"http://127.0.0.1:8080/app.js\",4,2],"
               "[\"save\",\"http://127.0.0.1:8080/app.js\",9,2]],"
               "[[\"keep\",\"http://127.0.0.1:8080/app.js\",20,2]]],"
               "\"requests\":[{\"id\":\"1.1\",\"step\":2,\"stack\":0,"
               "\"sent\":512},{\"id\":\"1.9\",\"step\":2,\"stack\":0,"
               "\"method\":\"GET\",\"url\":\"http://127.0.0.1:8080/mem\","
               "\"cache\":\"memory\",\"initiator\":\"script\"}],"
               "\"writes\":[{\"step\":2,\"kind\":\"localStorage.setItem\","
               "\"key\":\"draft\",\"stack\":1,\"n\":30,\"bytes\":3000}],"
               "\"wrapper\":{\"frames\":2,\"frames_failed\":0},"
               "\"totals\":{\"writes\":40,\"write_bytes\":4000},"
               "\"caps\":{\"dropped_stacks\":0,\"dropped_requests\":0,"
               "\"dropped_writes\":10}}");
  struct ana_ctx *c = ana_ctx_new();
  struct ana_io_run *run = NULL;
  if (!ZT_INT(ana__io_read(c, p, &run), ZC_OK)) {
    ana_ctx_free(c);
    return;
  }
  ZT_INT(run->sidecar, 1);
  ZT_INT(run->wrapped, 2);
  const struct io_item *save = &run->items[1];
  ZT_INT(save->nframes, 2);
  ZT_STR(ana_str(c, run->frames[save->frame0].name), "save"); /* outermost */
  ZT_NEAR(save->sent, 512, 0);
  int mem = 0, writes = 0, over = 0;
  for (size_t i = 0; i < run->nitems; i++) {
    const struct io_item *it = &run->items[i];
    mem += !it->storage && it->cache == 'm';
    if (it->storage && !strcmp(ana_str(c, it->what), "localStorage.setItem "
                                                     "draft"))
      writes += (int)it->n;
    if (it->storage && it->synth &&
        !strcmp(ana_str(c, it->synth), "(past the cap)"))
      over += (int)it->n;
  }
  ZT_INT(mem, 1);
  ZT_INT(writes, 30);
  ZT_INT(over, 10); /* counted, never dropped */
  ZT_NEAR(run->cap_writes, 10, 0);
  ana__io_run_free(run);
  /* broken: named */
  zt_write_str(tmp("t2.io.json"), "{\"schema\":\"zamcap-io/1\",\"stacks\":[");
  ZT_INT(ana__io_read(c, p, &run), ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "t2.io.json: byte ");
  zt_write_str(tmp("t2.io.json"), "{\"schema\":\"other/9\"}");
  ZT_INT(ana__io_read(c, p, &run), ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "not an I/O file");
  ana_ctx_free(c);
}

/* n requests to url from fn, ids from base. */
static size_t reqs(struct req *r, size_t at, size_t n, const char *fn,
                   const char *url, size_t base) {
  static char ids[4096][16];
  for (size_t i = 0; i < n; i++) {
    snprintf(ids[base + i], sizeof ids[0], "1.%zu", base + i);
    r[at + i] = (struct req){ids[base + i], url, fn, 300, 0, 0};
  }
  return at + n;
}

/* Old: page() asks once for the list, stats() four times from a; new:
 * item() asks twelve times, the same four stats from b. Three pairs. */
static struct ana_io *compared(int same) {
  struct req o[64], n[64];
  size_t no = reqs(o, 0, 1, "page", "http://127.0.0.1:8080/api/items", 100);
  no = reqs(o, no, 6, "statsA", "http://127.0.0.1:8080/api/stats", 200);
  size_t nn =
      same ? reqs(n, 0, 1, "page", "http://127.0.0.1:8080/api/items", 300)
           : reqs(n, 0, 12, "item", "http://127.0.0.1:8080/api/item/5", 300);
  nn = reqs(n, nn, 6, same ? "statsA" : "statsB",
            "http://127.0.0.1:8080/api/stats", 400);
  struct ana_opts opt;
  ana_opts_default(&opt);
  struct ana_io *io = ana_io_new(&opt, 5, 100, NULL, 3);
  for (int p = 0; p < 3; p++) {
    char op[64], np[64];
    snprintf(op, sizeof op, "cmp-old-%d-%d.json", same, p);
    snprintf(np, sizeof np, "cmp-new-%d-%d.json", same, p);
    char opath[4200], npath[4200];
    snprintf(opath, sizeof opath, "%s", tmp(op));
    snprintf(npath, sizeof npath, "%s", tmp(np));
    put_trace(opath, o, no);
    put_trace(npath, n, nn);
    ZT_INT(ana_io_add(io, opath, npath), ZC_OK);
  }
  return io;
}

static void test_compare(void) {
  struct ana_io *io = compared(0);
  unsigned n;
  struct io_cause *c = ana__io_causes(io, &n);
  int item = 0;
  for (unsigned k = 0; k < n; k++) {
    ZT_TRUE(strcmp(c[k].what ? c[k].what : "", "GET /api/stats") != 0);
    ZT_TRUE(strcmp(c[k].name, "statsB") != 0);
    if (c[k].measure == IO_REQUESTS && c[k].what &&
        !strcmp(c[k].what, "GET /api/item/:id")) {
      item = 1;
      ZT_STR(c[k].name, "item");
      ZT_NEAR(c[k].delta, 12, 1e-9);
      ZT_NEAR(c[k].calls_new, 12, 1e-9);
      ZT_INT(c[k].seen, 3);
      char words[1024];
      ana__io_cause_words(c, n, k, words, sizeof words);
      ZT_HAS(words, "+12 requests");
      ZT_HAS(words, "item (GET /api/item/:id)");
    }
  }
  ZT_TRUE(item);
  ana__io_causes_free(c, n);
  unsigned causes, undecided, needed;
  ana__io_outcome(io, &causes, &undecided, &needed);
  ZT_TRUE(causes >= 1);
  /* the rows: 1 + 1 + 6 requests old, 1 + 12 + 6 new, every pair */
  const struct ana_e2e *e = ana__io_rows(io);
  ZT_STR(e->rows[0].name, "requests");
  ZT_NEAR(e->rows[0].old.mean, 8, 1e-9);
  ZT_NEAR(e->rows[0].new_.mean, 19, 1e-9);
  ZT_TRUE(e->rows[0].significant);
  ana_io_free(io);
}

static void test_aa(void) {
  struct ana_io *io = compared(1);
  unsigned causes, undecided, needed;
  ana__io_outcome(io, &causes, &undecided, &needed);
  ZT_INT(causes, 0);
  ZT_INT(undecided, 0);
  ana_io_free(io);
}

/* A page's text is data (storage keys and function names are the
 * page's): a cause whose function and key hold HTML, a table's pipe,
 * Markdown emphasis and a terminal escape is the same text in
 * report.json, escaped in report.html, a code span in one table cell of
 * summary.md, and on the terminal without its escape byte. */
#define MARK_FN  "<img src=x onerror=alert(1)>"
#define MARK_KEY "<b>k</b>|*x*\\u001b[2J"

/* One run's trace (a request from page) and its .io.json: the new build
 * writes MARK_KEY 30 times from MARK_FN, the old build never. */
static void marked_run(const char *trace, int side) {
  struct req r[1] = {
      {"1.1", "http://127.0.0.1:8080/api/items", "page", 300, 0, 0}};
  put_trace(trace, r, 1);
  char *sc = ana__io_sidecar_path(trace), doc[1024];
  snprintf(
      doc, sizeof doc,
      "{\"schema\":\"zamcap-io/1\",\"stacks\":[[[\"" MARK_FN
      "\",\"http://127.0.0.1:8080/app.js\",4,2]]],\"requests\":[],"
      "\"writes\":[%s],\"wrapper\":{\"frames\":1,\"frames_failed\":0},"
      "\"totals\":{\"writes\":%d,\"write_bytes\":%d},\"caps\":{"
      "\"dropped_stacks\":0,\"dropped_requests\":0,\"dropped_writes\":"
      "0}}",
      side ? "{\"step\":2,\"kind\":\"localStorage.setItem\",\"key\":\"" MARK_KEY
             "\",\"stack\":0,\"n\":30,\"bytes\":3000}"
           : "",
      side ? 30 : 0, side ? 3000 : 0);
  zt_write_str(sc, doc);
  free(sc);
}

static void test_markup(void) {
  struct ana_opts opt;
  ana_opts_default(&opt);
  struct ana_io *io = ana_io_new(&opt, 5, 100, NULL, 3);
  for (int p = 0; p < 3; p++) {
    char name[64], op[4200], np[4200];
    snprintf(name, sizeof name, "mark-old-%d.json", p);
    snprintf(op, sizeof op, "%s", tmp(name));
    snprintf(name, sizeof name, "mark-new-%d.json", p);
    snprintf(np, sizeof np, "%s", tmp(name));
    marked_run(op, 0);
    marked_run(np, 1);
    ZT_INT(ana_io_add(io, op, np), ZC_OK);
  }
  const char *key = "localStorage.setItem <b>k</b>|*x*\x1b[2J";
  /* report.json: the text as the page gave it */
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddItemToObject(doc, "io", ana__io_json(io));
  const cJSON *c = cJSON_GetArrayItem(
      cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "io"), "regression_causes"),
      0);
  if (!ZT_TRUE(c != NULL)) {
    cJSON_Delete(doc);
    ana_io_free(io);
    return;
  }
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(c, "name")), MARK_FN);
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(c, "what")), key);
  /* report.html: escaped */
  ZT_INT(ana_write_html(doc, NULL, tmp("mark.html")), ZC_OK);
  char *html = zt_read(tmp("mark.html"));
  ZT_HAS(html, "&lt;img src=x onerror=alert(1)&gt;");
  ZT_HAS(html, "&lt;b&gt;k&lt;/b&gt;");
  ZT_TRUE(html && !strstr(html, "<img src=x"));
  ZT_TRUE(html && !strstr(html, "<b>k"));
  ZT_TRUE(html && !strchr(html, '\x1b'));
  free(html);
  cJSON_Delete(doc);
  /* summary.md: the key a code span, its pipe escaped, in one row of six
   * cells */
  FILE *f = fopen(tmp("mark.md"), "w");
  if (ZT_TRUE(f != NULL)) {
    ana__io_md(io, f);
    fclose(f);
  }
  char *md = zt_read(tmp("mark.md"));
  ZT_HAS(md, "`localStorage.setItem <b>k</b>\\|*x* [2J`");
  ZT_HAS(md, "| `" MARK_FN "` |");
  ZT_TRUE(md && !strchr(md, '\x1b'));
  ZT_HAS(md, "| 0.0 → 30.0 | – → 0.1 |"); /* no KB a call where none */
  free(md);
  /* the terminal: no escape byte */
  f = fopen(tmp("mark.txt"), "w");
  if (ZT_TRUE(f != NULL)) {
    ana__io_text(io, f);
    fclose(f);
  }
  char *txt = zt_read(tmp("mark.txt"));
  ZT_HAS(txt, MARK_FN);
  ZT_TRUE(txt && !strchr(txt, '\x1b'));
  free(txt);
  ana_io_free(io);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"trace", test_trace},     {"sidecar", test_sidecar},
      {"compare", test_compare}, {"aa", test_aa},
      {"markup", test_markup},
  };
  return ZT_RUN(cases, argc, argv);
}
