/* zamcap dashboard end to end: histories made here through the history's
 * API, the site made by the zamcap under test, its pages opened from disk
 * in real headless Chromium (over CDP, as test_html does).
 *
 *  - site: 30 scripted nights of "checkout" (a regression starts on night
 *    6, recovers on night 13, returns on night 18), each with its run
 *    folder and report.html, a bisection that blamed a commit, an issue
 *    filed; beside it a flow of hostile names (markup, bidi controls, a
 *    10 KB title, a javascript: issue, a run folder named with ?, #, %
 *    and quotes). The series have 30 points, the regression marks sit on
 *    the regression nights' points, the memory series only the nights
 *    that carry it; hovering a point shows its run, and its link, and
 *    every report link, opens that night's report; names render as text,
 *    nothing runs, nothing is fetched; the index's sparkline has 30
 *    points and 20 red ones; screenshots of the index and the page, and
 *    their charts' pixels are not blank.
 *  - empty: an empty history gives an index that says so.
 *  - newer: a history of a newer zamcap is refused as zamcap history
 *    refuses it, and no site is written.
 *  - read_only: a history the user may not write (another account's).
 *  - sampled: 1000 runs: no circle per point, the lines through 600
 *    slices, the hover data whole.
 *  - postgres: the 30 nights in a throwaway PostgreSQL (pgserver.sh).
 *  - strings, page_names (no browser): the writer's cleaning, links,
 *    numbers and times; two names of one page name get two pages. */
#define _GNU_SOURCE /* realpath */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cjson/cJSON.h>

#include "cdp.h"
#include "dashboard-int.h"
#include "histdb.h"
#include "history.h"
#include "test.h"
#include "zc.h"

/* The hostile flow's title: markup, a right-to-left override, 10 KB (the
 * history keeps 511 bytes of a title); its function's name, 10 KB. */
static char hostile[10400], hostile_fn[10400];
static const char H_FN[] = "</script><script>window.__pwned=2</script>";
static const char H_FILE[] = "\"><svg onload=window.__pwned=3>.js";
static const char H_LABEL[] = "x\" onmouseover=\"window.__pwned=4";
static const char H_CHROME[] = "'><img src=x onerror=window.__pwned=5>";
static const char H_DIR[] = "nights/evil ?#%\"<b>";
static const char ISSUE[] = "https://tracker.example/acme/shop/issues/7";

static void make_hostile(void) {
  snprintf(hostile, sizeof hostile,
           "<img src=x onerror=window.__pwned=1>\xe2\x80\xae"
           "gnp.exe</title></script>");
  size_t n = strlen(hostile);
  memset(hostile + n, 'A', 10240);
  hostile[n + 10240] = '\0';
  n = (size_t)snprintf(hostile_fn, sizeof hostile_fn, "%s", H_FN);
  memset(hostile_fn + n, 'B', 10240);
  hostile_fn[n + 10240] = '\0';
}

static const cJSON *field(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

static const char *sfield(const cJSON *o, const char *k) {
  const char *s = cJSON_GetStringValue(field(o, k));
  return s ? s : "";
}

static double nfield(const cJSON *o, const char *k) {
  const cJSON *v = field(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* ---- the histories ---- */

/* A night's end-to-end metric or vital row. */
static cJSON *row(const char *key, const char *name, const char *unit,
                  double old, double delta, double half) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, key, name);
  cJSON_AddStringToObject(m, "unit", unit);
  if (!strcmp(key, "metric")) { /* a vital's shape */
    cJSON_AddNullToObject(m, "step");
    cJSON_AddNumberToObject(m, "old", old);
    cJSON_AddNumberToObject(m, "new", old + delta);
    cJSON_AddNumberToObject(m, "delta", delta);
    double ci[2] = {delta - half, delta + half};
    cJSON_AddItemToObject(m, "ci95", cJSON_CreateDoubleArray(ci, 2));
    cJSON_AddBoolToObject(m, "significant", delta - half > 0);
    return m;
  }
  cJSON_AddNumberToObject(cJSON_AddObjectToObject(m, "old"), "mean", old);
  cJSON_AddNumberToObject(cJSON_AddObjectToObject(m, "new"), "mean",
                          old + delta);
  cJSON *d = cJSON_AddObjectToObject(m, "delta");
  cJSON_AddNumberToObject(d, "mean", delta);
  double ci[2] = {delta - half, delta + half};
  cJSON_AddItemToObject(d, "ci95", cJSON_CreateDoubleArray(ci, 2));
  cJSON_AddBoolToObject(m, "significant", delta - half > 0);
  return m;
}

/* A night's report.json: title, day, the cause's Δ (0: none), its
 * function and file (NULL: /js/app.<a hash of the night>.js, a bundle
 * rehashed every night). */
static cJSON *night_doc(const char *title, int day, double delta,
                        const char *fn, const char *file, const char *host,
                        const char *chrome) {
  cJSON *r = cJSON_CreateObject(), *in, *v, *e2e, *ms, *vit;
  cJSON_AddStringToObject(r, "zamcap_version", "0.1.0");
  cJSON_AddItemToObject(r, "options", cJSON_CreateObject());
  in = cJSON_AddObjectToObject(r, "inputs");
  cJSON_AddStringToObject(in, "title", title);
  cJSON *causes = cJSON_AddArrayToObject(r, "regression_causes");
  if (delta > 0) {
    cJSON *c = cJSON_CreateObject();
    char f[256];
    if (file)
      snprintf(f, sizeof f, "%s", file);
    else
      snprintf(f, sizeof f, "/js/app.%08x.js", (unsigned)day * 2654435761u);
    cJSON_AddNumberToObject(c, "rank", 1);
    cJSON_AddStringToObject(c, "name", fn);
    cJSON_AddStringToObject(c, "file", f);
    cJSON_AddNumberToObject(c, "line", 42);
    cJSON_AddNumberToObject(c, "delta_ms", delta);
    const char *path[] = {"CrRendererMain", "main", "renderList", fn};
    cJSON_AddItemToObject(c, "path", cJSON_CreateStringArray(path, 4));
    cJSON_AddItemToArray(causes, c);
  }
  cJSON_AddArrayToObject(r, "spread_causes");
  v = cJSON_AddObjectToObject(r, "verdict");
  cJSON_AddStringToObject(v, "state",
                          delta > 0 ? "regression" : "no regression");
  cJSON_AddNumberToObject(v, "exit_code", delta > 0);
  e2e = cJSON_AddObjectToObject(r, "end_to_end");
  ms = cJSON_AddArrayToObject(e2e, "metrics");
  cJSON_AddItemToArray(ms, row("name", "scenario_ms", "ms", 500, delta, 6));
  cJSON_AddItemToArray(ms,
                       row("name", "scripting_ms", "ms", 200, delta * 0.9, 5));
  if (day >= 20) /* memory pairs from night 20 on */
    cJSON_AddItemToArray(
        ms, row("name", "js_heap_used_kb", "KB", 4096, (double)day, 30));
  vit = cJSON_AddArrayToObject(r, "vitals");
  cJSON_AddItemToArray(vit, row("metric", "LCP", "ms", 800, delta / 4, 20));
  cJSON_AddItemToArray(vit, row("metric", "CLS", "", 0.02, 0, 0.01));
  cJSON *env = cJSON_AddObjectToObject(r, "environment");
  cJSON_AddStringToObject(env, "chrome", chrome);
  cJSON_AddStringToObject(cJSON_AddObjectToObject(env, "machine"), "host",
                          host);
  return r;
}

/* A run folder with a report.html that says which it is. */
static const char *run_dir(const char *rel, const char *title) {
  const char *dir = zt_tmp(rel);
  char p[4300];
  zt_sh(NULL, "mkdir -p '%s'", dir);
  snprintf(p, sizeof p, "%s/report.html", dir);
  char html[256];
  snprintf(html, sizeof html,
           "<!DOCTYPE html><meta charset=utf-8><title>%s</title><p>%s</p>",
           title, title);
  zt_write_str(p, html);
  return dir;
}

static int regressed(int day) {
  return (day >= 6 && day <= 12) || day >= 18;
}

/* The 30 nights of checkout into h, each with its run folder. */
static void checkout_nights(struct agent_history *h) {
  for (int day = 1; day <= 30; day++) {
    char rel[64], title[32], at[32], nl[32];
    snprintf(rel, sizeof rel, "nights/run-%02d", day);
    snprintf(title, sizeof title, "night %d", day);
    snprintf(at, sizeof at, "2026-11-%02dT02:30:00Z", day);
    snprintf(nl, sizeof nl, "build-%d", day);
    char *dir = realpath(run_dir(rel, title), NULL);
    cJSON *doc = night_doc("checkout", day, regressed(day) ? 100 + day : 0,
                           "slowChecksum", NULL, "ci-1", "156.0.7000.1");
    struct agent_history_meta m = {.command = "run",
                                   .recorded_at = at,
                                   .old_label = "v1.0",
                                   .new_label = nl,
                                   .report_dir = dir};
    ZT_INT(agent_history_add(h, doc, &m, NULL), ZC_OK);
    cJSON_Delete(doc);
    free(dir);
  }
}

/* checkout's bisection: slowChecksum's culprit at a commit. */
static const char bisect_doc[] =
    "{\"schema\": \"zamcap-bisect/1\", \"scenario\": \"flows/checkout.json\", "
    "\"builds\": [{\"build\": \"0a1b2c3d4e5f\"}, {\"build\": "
    "\"1111aaaa2222\"}, {\"build\": \"c0ffee123456\"}], \"culprits\": "
    "[{\"index\": 2, \"build\": \"c0ffee123456\", \"commit\": "
    "\"c0ffee1234560000000000000000000000000000\", \"previous\": 1, "
    "\"pairs\": 4, \"changed_functions\": [{\"name\": \"slowChecksum\"}], "
    "\"causes\": [{\"kind\": \"path\", \"label\": \"CrRendererMain > main > "
    "renderList > slowChecksum\", \"name\": \"slowChecksum\", \"url\": "
    "\"/js/app.js\", \"path\": [\"CrRendererMain\", \"main\", "
    "\"renderList\", \"slowChecksum\"], \"delta_ms\": 104.5, \"ci95\": [98, "
    "111]}]}], \"undecided\": [], \"verdict\": {\"exit_code\": 1, "
    "\"text\": \"build 2 (c0ffee123456) made slowChecksum slower\"}}";

/* The issue of the regression whose function starts with fn, filed as
 * the tracker files it. */
static void file_issue(struct agent_history *h, const char *fn,
                       const char *url) {
  cJSON *q = NULL;
  ZT_INT(agent_history_query(h, NULL, 0, 3, &q), ZC_OK);
  const cJSON *g;
  const char *fp = "";
  cJSON_ArrayForEach(g, field(q, "regressions")) {
    if (!strncmp(sfield(g, "function"), fn, strlen(fn)))
      fp = sfield(g, "fingerprint");
  }
  char claim[128];
  ZT_INT(agent_history_claim(h, fp, "github:acme/shop", 600, claim), 1);
  ZT_INT(agent_history_filed(h, fp, url, "7"), 1);
  cJSON_Delete(q);
}

/* The hostile flow: 3 nights, hostile everything, a javascript: issue. */
static void hostile_nights(struct agent_history *h) {
  char *dir = realpath(run_dir(H_DIR, "evil report"), NULL);
  for (int day = 1; day <= 3; day++) {
    char at[32];
    snprintf(at, sizeof at, "2026-11-%02dT03:00:00Z", day);
    cJSON *doc = night_doc(hostile, day, 80, hostile_fn, H_FILE, "<b>host</b>",
                           H_CHROME);
    struct agent_history_meta m = {.command = "run",
                                   .recorded_at = at,
                                   .old_label = H_LABEL,
                                   .new_label = "\xe2\x80\xae"
                                                "evil",
                                   .report_dir = dir};
    ZT_INT(agent_history_add(h, doc, &m, NULL), ZC_OK);
    cJSON_Delete(doc);
  }
  free(dir);
  file_issue(h, "</script>", "javascript:alert(1)");
}

/* The site's history: checkout, its bisection and issue, the hostile
 * flow. */
static void make_history(const char *db) {
  unlink(db);
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(db, &h), ZC_OK)) return;
  checkout_nights(h);
  cJSON *b = cJSON_Parse(bisect_doc), *in = cJSON_CreateObject();
  cJSON_AddStringToObject(in, "title", "checkout");
  struct agent_history_meta m = {.command = "bisect",
                                 .recorded_at = "2026-11-20T09:00:00Z",
                                 .report_dir = run_dir("bisect", "bisection"),
                                 .inputs = in};
  ZT_INT(agent_history_add_bisect(h, b, &m, NULL), ZC_OK);
  cJSON_Delete(b);
  cJSON_Delete(in);
  file_issue(h, "slowChecksum", ISSUE);
  hostile_nights(h);
  agent_history_close(h);
}

/* ---- the browser ---- */

static struct cdp_browser *browser;
static int browser_failed;

static struct cdp_conn *conn(void) {
  if (!browser && !browser_failed) {
    struct cdp_opts o;
    cdp_opts_default(&o);
    o.log_path = zt_tmp("chrome.log");
    o.timeout_ms = 20000;
    if (cdp_browser_start(&o, &browser)) {
      fprintf(stderr, "  cannot start Chromium: %s\n", zc_errmsg());
      browser_failed = 1;
    }
  }
  return browser ? cdp_browser_conn(browser) : NULL;
}

/* What a page did: requests beyond its own file, exceptions, errors. */
struct seen {
  const char *session, *url;
  int own, other, exceptions, errors;
  char what[1024];
};

static void on_event(void *arg, const char *session, const char *method,
                     const cJSON *params) {
  struct seen *s = arg;
  if (!session || strcmp(session, s->session)) return;
  const char *what = NULL;
  if (!strcmp(method, "Network.requestWillBeSent")) {
    const char *url = sfield(field(params, "request"), "url");
    if (!strcmp(url, s->url))
      s->own++;
    else
      s->other++, what = url;
  } else if (!strcmp(method, "Runtime.exceptionThrown")) {
    s->exceptions++;
    what = sfield(field(params, "exceptionDetails"), "text");
  } else if (!strcmp(method, "Runtime.consoleAPICalled") ||
             !strcmp(method, "Log.entryAdded")) {
    const char *lv = !strcmp(method, "Log.entryAdded")
                         ? sfield(field(params, "entry"), "level")
                         : sfield(params, "type");
    if (!strcmp(lv, "error") || !strcmp(lv, "warning"))
      s->errors++, what = method;
  }
  if (what && !s->what[0]) snprintf(s->what, sizeof s->what, "%s", what);
}

struct tab {
  struct cdp_conn *c;
  struct cdp_page *p;
  const char *sess;
  struct seen s;
  char url[PATH_MAX + 16];
};

/* Opens file (a path) in a fresh page, 1200 CSS pixels wide. */
static int tab_open(struct tab *t, const char *file) {
  memset(t, 0, sizeof *t);
  t->c = conn();
  if (!ZT_TRUE(t->c != NULL) || !ZT_INT(cdp_page_open(t->c, &t->p), ZC_OK))
    return 0;
  char *real = realpath(file, NULL);
  snprintf(t->url, sizeof t->url, "file://%s", real ? real : file);
  free(real);
  t->sess = t->s.session = cdp_page_session(t->p);
  t->s.url = t->url;
  cdp_on_event(t->c, on_event, &t->s);
  cdp_call(t->c, t->sess, "Runtime.enable", NULL, 0, NULL);
  cdp_call(t->c, t->sess, "Log.enable", NULL, 0, NULL);
  cdp_call(t->c, t->sess, "Emulation.setDeviceMetricsOverride",
           cJSON_Parse("{\"width\":1200,\"height\":900,"
                       "\"deviceScaleFactor\":1,\"mobile\":false}"),
           0, NULL);
  if (!ZT_INT(cdp_page_navigate(t->p, t->url, 15000), ZC_OK)) return 0;
  cdp_wait(t->c, NULL, NULL, 200, "late events");
  return 1;
}

static void tab_close(struct tab *t) {
  if (t->c) cdp_off_event(t->c, on_event, &t->s);
  if (t->p) cdp_page_close(t->p);
}

/* js (an expression whose value is a JSON string) in the page. */
static cJSON *eval(struct tab *t, const char *js) {
  cJSON *a = cJSON_CreateObject(), *r = NULL, *out = NULL;
  cJSON_AddStringToObject(a, "expression", js);
  cJSON_AddBoolToObject(a, "returnByValue", 1);
  if (ZT_INT(cdp_call(t->c, t->sess, "Runtime.evaluate", a, 10000, &r),
             ZC_OK)) {
    const char *v = cJSON_GetStringValue(field(field(r, "result"), "value"));
    out = v ? cJSON_Parse(v) : NULL;
    if (!ZT_TRUE(out != NULL))
      fprintf(stderr, "  evaluate: %s\n", cJSON_PrintUnformatted(r));
  }
  cJSON_Delete(r);
  return out;
}

/* A mouse event at (x, y), viewport CSS pixels. */
static void mouse(struct tab *t, const char *type, double x, double y) {
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "type", type);
  cJSON_AddNumberToObject(a, "x", x);
  cJSON_AddNumberToObject(a, "y", y);
  if (strcmp(type, "mouseMoved")) {
    cJSON_AddStringToObject(a, "button", "left");
    cJSON_AddNumberToObject(a, "clickCount", 1);
  }
  ZT_INT(cdp_call(t->c, t->sess, "Input.dispatchMouseEvent", a, 0, NULL),
         ZC_OK);
}

static void click(struct tab *t, double x, double y) {
  mouse(t, "mouseMoved", x, y);
  mouse(t, "mousePressed", x, y);
  mouse(t, "mouseReleased", x, y);
}

/* A page's policy: nothing from anywhere, styles and script by nonce
 * (script, 1) or none at all (0). */
static void expect_csp(const cJSON *f, int script) {
  const char *csp = cJSON_GetStringValue(cJSON_GetObjectItem(f, "csp"));
  ZT_HAS(csp ? csp : "", "default-src 'none'; style-src 'nonce-");
  ZT_HAS(csp ? csp : "", script ? "script-src 'nonce-" : "script-src 'none'");
  ZT_TRUE(csp && !strstr(csp, "unsafe") && !strstr(csp, "data:"));
}

/* Nothing ran but the page's own script, nothing was fetched. */
static void expect_inert(struct tab *t) {
  cJSON *f = eval(t, "JSON.stringify({pwned: typeof window.__pwned})");
  ZT_STR(sfield(f, "pwned"), "undefined");
  cJSON_Delete(f);
  ZT_INT(t->s.exceptions, 0);
  ZT_INT(t->s.errors, 0);
  ZT_INT(t->s.other, 0);
  ZT_INT(t->s.own, 1);
  if (t->s.what[0]) fprintf(stderr, "  page: %s\n", t->s.what);
}

/* ---- screenshots, and their pixels ---- */

/* A PNG as Chrome writes it (8 bits, RGB or RGBA, not interlaced) into
 * rgb (3 bytes a pixel; caller frees); 0 when it is not one. */
static int png_rgb(const unsigned char *d, size_t n, unsigned *w, unsigned *h,
                   unsigned char **rgb) {
  if (n < 8 || memcmp(d, "\x89PNG\r\n\x1a\n", 8)) return 0;
  unsigned char *z = NULL;
  size_t nz = 0, at = 8;
  unsigned bpp = 0;
  while (at + 12 <= n) {
    size_t len = (size_t)d[at] << 24 | (size_t)d[at + 1] << 16 |
                 (size_t)d[at + 2] << 8 | d[at + 3];
    const unsigned char *type = d + at + 4, *data = d + at + 8;
    if (at + 12 + len > n) break;
    if (!memcmp(type, "IHDR", 4) && len >= 13) {
      *w = (unsigned)(data[0] << 24 | data[1] << 16 | data[2] << 8 | data[3]);
      *h = (unsigned)(data[4] << 24 | data[5] << 16 | data[6] << 8 | data[7]);
      bpp = data[8] == 8 && data[9] == 6   ? 4
            : data[8] == 8 && data[9] == 2 ? 3
                                           : 0;
      if (data[12]) bpp = 0; /* interlaced */
    } else if (!memcmp(type, "IDAT", 4)) {
      z = zc_xrealloc(z, nz + len + 1);
      memcpy(z + nz, data, len);
      nz += len;
    }
    at += 12 + len;
  }
  size_t stride = (size_t)*w * bpp, raw_n = (stride + 1) * *h;
  unsigned char *raw = zc_xmalloc(raw_n + 1);
  uLongf got = (uLongf)raw_n;
  int ok =
      bpp && z && uncompress(raw, &got, z, (uLong)nz) == Z_OK && got == raw_n;
  free(z);
  *rgb = ok ? zc_xmalloc((size_t)*w * *h * 3 + 1) : NULL;
  for (unsigned y = 0; ok && y < *h; y++) {
    unsigned char *r = raw + y * (stride + 1) + 1, *up = r - stride - 1;
    int f = r[-1];
    for (size_t i = 0; i < stride; i++) {
      int a = i >= bpp ? r[i - bpp] : 0, b = y ? up[i] : 0,
          c = y && i >= bpp ? up[i - bpp] : 0, p = a + b - c;
      int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
      int pred = f == 1   ? a
                 : f == 2 ? b
                 : f == 3 ? (a + b) / 2
                 : f == 4 ? (pa <= pb && pa <= pc ? a
                             : pb <= pc           ? b
                                                  : c)
                          : 0;
      r[i] = (unsigned char)(r[i] + pred);
    }
    for (unsigned x = 0; x < *w; x++)
      memcpy(*rgb + ((size_t)y * *w + x) * 3, r + (size_t)x * bpp, 3);
  }
  free(raw);
  return ok;
}

/* Pixels of a screenshot by colour: the charts' blue line, their red
 * marks, the band's light blue, anything not near white. */
struct pixels {
  long blue, red, band, ink;
};

/* A screenshot of the page, or of the element sel's box (NULL: the whole
 * page, saved to path); its pixels counted. */
static int shot(struct tab *t, const char *sel, const char *path,
                struct pixels *px) {
  memset(px, 0, sizeof *px);
  char js[512];
  snprintf(js, sizeof js,
           "(() => { const e = %s%s%s; e.scrollIntoView({block: 'center'}); "
           "const r = e.getBoundingClientRect(); return JSON.stringify({x: "
           "r.x + scrollX, y: r.y + scrollY, w: %s, h: "
           "Math.min(r.height, 12000)}); })()",
           sel ? "document.querySelector('" : "document.documentElement",
           sel ? sel : "", sel ? "')" : "",
           /* the whole page as wide as the window: its scroll bar goes
            * when Chrome captures beyond the viewport */
           sel ? "r.width" : "innerWidth");
  cJSON *box = eval(t, js), *a = cJSON_CreateObject(), *r = NULL;
  cJSON_AddStringToObject(a, "format", "png");
  cJSON_AddBoolToObject(a, "captureBeyondViewport", 1);
  cJSON *clip = cJSON_AddObjectToObject(a, "clip");
  cJSON_AddNumberToObject(clip, "x", nfield(box, "x"));
  cJSON_AddNumberToObject(clip, "y", nfield(box, "y"));
  cJSON_AddNumberToObject(clip, "width", nfield(box, "w"));
  cJSON_AddNumberToObject(clip, "height", nfield(box, "h"));
  cJSON_AddNumberToObject(clip, "scale", 1);
  cJSON_Delete(box);
  int ok = 0;
  if (ZT_INT(cdp_call(t->c, t->sess, "Page.captureScreenshot", a, 20000, &r),
             ZC_OK)) {
    char *b64 = zc_xstrdup(sfield(r, "data"));
    long n = zc_b64_decode(b64, strlen(b64));
    unsigned w = 0, h = 0;
    unsigned char *rgb = NULL;
    if (n > 0 && path) zt_write(path, b64, (size_t)n);
    ok = n > 0 && png_rgb((unsigned char *)b64, (size_t)n, &w, &h, &rgb);
    for (size_t i = 0; ok && i < (size_t)w * h; i++) {
      int R = rgb[3 * i], G = rgb[3 * i + 1], B = rgb[3 * i + 2];
      px->blue += B > 120 && R < 80 && G < 130;
      px->red += R > 150 && G < 90 && B < 90;
      px->band += B > 235 && R > 150 && R < 215 && G > 200 && G < 240;
      px->ink += R < 200 || G < 200 || B < 200;
    }
    free(rgb);
    free(b64);
  }
  cJSON_Delete(r);
  ZT_TRUE(ok);
  return ok;
}

/* ---- the site ---- */

/* The vertices of an SVG path's d (its M and L commands). */
static int vertices(const char *d) {
  int n = 0;
  for (; *d; d++)
    n += *d == 'M' || *d == 'L';
  return n;
}

static const char index_js[] =
    "(() => { const q = (s, e) => [...(e || document).querySelectorAll(s)];"
    "const at = (e, s, a) => { const x = e.querySelector(s);"
    "  return x ? x.getAttribute(a) : ''; };"
    "return JSON.stringify({text: document.body.innerText,"
    " csp: document.querySelector('meta[http-equiv]').content,"
    " scripts: q('script').length, hrefs: q('[href]').map(a =>"
    "  a.getAttribute('href')).join('\\n'),"
    " handlers: q('*').filter(e => [...e.attributes].some(a =>"
    "  a.name.startsWith('on'))).length,"
    " rows: q('table.scns tbody tr').map(r => ({"
    "  name: r.querySelector('a.scn').textContent,"
    "  href: at(r, 'a.scn', 'href'), spark: at(r, 'svg.spark path.sl', 'd'),"
    "  red: q('svg.spark .sr', r).length, last: q('svg.spark .se', r).length,"
    "  issues: q('a.issue', r).map(a => a.getAttribute('href')).join(' '),"
    "  open: r.querySelector('.nopen').textContent}))}); })()";

/* The index: a row per flow, the hostile one as text; checkout's
 * sparkline of 30 runs, 20 of them red; issue links only to http(s). */
static void check_index(const char *site, char *hostile_page, size_t cap) {
  char p[4300];
  snprintf(p, sizeof p, "%s/index.html", site);
  struct tab t;
  cJSON *f = tab_open(&t, p) ? eval(&t, index_js) : NULL;
  if (f) {
    expect_inert(&t);
    expect_csp(f, 0);
    ZT_INT(nfield(f, "scripts"), 0);
    ZT_INT(nfield(f, "handlers"), 0);
    ZT_TRUE(!strstr(sfield(f, "hrefs"), "javascript"));
    const cJSON *rows = field(f, "rows");
    ZT_INT(cJSON_GetArraySize(rows), 2);
    /* strcmp order: '<' before 'c' */
    const cJSON *h = cJSON_GetArrayItem(rows, 0),
                *c = cJSON_GetArrayItem(rows, 1);
    ZT_TRUE(!strncmp(sfield(h, "name"),
                     "<img src=x onerror=window.__pwned=1>"
                     "\\u202Egnp.exe</title></script>AAAA",
                     60));
    snprintf(hostile_page, cap, "%s", sfield(h, "href"));
    ZT_STR(sfield(h, "issues"), ""); /* javascript: is no link */
    ZT_HAS(sfield(f, "text"), "javascript:alert(1)");
    ZT_STR(sfield(c, "name"), "checkout");
    ZT_INT(vertices(sfield(c, "spark")), 30);
    ZT_INT(nfield(c, "red"), 20);
    ZT_INT(nfield(c, "last"), 1);
    ZT_STR(sfield(c, "issues"), ISSUE);
    ZT_STR(sfield(c, "open"), "1");
    struct pixels px;
    shot(&t, NULL, zt_tmp("index.png"), &px);
    ZT_TRUE(px.ink > 0);
    if (shot(&t, "svg.spark", NULL, &px)) {
      ZT_TRUE(px.ink > 0); /* the sparkline is drawn */
      ZT_TRUE(px.red > 0); /* and its regression dots */
    }
  }
  cJSON_Delete(f);
  tab_close(&t);
}

static const char page_js[] =
    "(() => { const q = (s, e) => [...(e || document).querySelectorAll(s)];"
    "const x = d => parseFloat(d.slice(1));"
    "return JSON.stringify({text: document.body.innerText,"
    " csp: document.querySelector('meta[http-equiv]').content,"
    " h1: document.querySelector('h1').innerText, title: document.title,"
    " sections: q('body > section').map(s => s.id).join(','),"
    " scripts: q('script:not([type])').length,"
    " handlers: q('*').filter(e => [...e.attributes].some(a =>"
    "  a.name.startsWith('on'))).length,"
    " jslinks: q('[href^=\"javascript\"]').length,"
    " charts: q('svg.chart').map(s => ({id: s.id,"
    "  cap: s.closest('figure').querySelector('figcaption').textContent,"
    "  pts: q('circle.pt', s).map(c => [+c.dataset.i,"
    "   parseFloat(c.getAttribute('cx'))]),"
    "  regs: q('path.reg', s).map(r => [+r.dataset.i,"
    "   x(r.getAttribute('d'))]),"
    "  band: (s.querySelector('path.band') || {getAttribute: () => ''})"
    "   .getAttribute('d')})),"
    " reps: q('#runs a.rep').map(a => [+a.closest('tr').dataset.i,"
    "  a.getAttribute('href')]),"
    " regs: q('#regressions tbody tr').map(r => r.innerText),"
    " issues: q('#regressions a.issue').map(a => a.getAttribute('href'))"
    "  .join(' ')}); })()";

/* The chart of caption cap in a page's facts, or NULL. */
static const cJSON *chart_of(const cJSON *f, const char *cap) {
  const cJSON *c;
  cJSON_ArrayForEach(c, field(f, "charts")) {
    if (!strcmp(sfield(c, "cap"), cap)) return c;
  }
  return NULL;
}

static int always(int day) {
  return day > 0;
}

/* A chart's circles: n of them, run i at index i from first; each
 * regression mark on the circle of its run, at the runs (day = run + 1)
 * regr says. */
static void expect_marks(const cJSON *c, int n, int first,
                         int (*regr)(int day)) {
  const cJSON *pts = field(c, "pts"), *regs = field(c, "regs"), *m;
  if (!ZT_TRUE(c != NULL)) return;
  ZT_INT(cJSON_GetArraySize(pts), n);
  int want = 0;
  for (int i = first; i < first + n; i++)
    want += regr(i + 1);
  ZT_INT(cJSON_GetArraySize(regs), want);
  cJSON_ArrayForEach(m, regs) {
    int run = (int)cJSON_GetArrayItem(m, 0)->valuedouble;
    ZT_TRUE(regr(run + 1));
    const cJSON *pt = cJSON_GetArrayItem(pts, run - first);
    ZT_INT((int)cJSON_GetArrayItem(pt, 0)->valuedouble, run);
    /* the mark points down at its run's circle */
    ZT_NEAR(cJSON_GetArrayItem(m, 1)->valuedouble,
            cJSON_GetArrayItem(pt, 1)->valuedouble, 0.05);
  }
}

/* Hovers run `run`'s point of chart c0: the card, its text and link;
 * then clicks the point (the card stays) and the link: the page that
 * opens is the run's report, whose title is want. */
static void hover_and_follow(struct tab *t, int run, const char *card_has,
                             const char *href, const char *want) {
  char js[512];
  snprintf(js, sizeof js,
           "(() => { const c = document.querySelector('#c0 "
           "circle.pt[data-i=\"%d\"]'); c.scrollIntoView({block: 'center'}); "
           "const r = c.getBoundingClientRect(); return JSON.stringify({x: "
           "r.x + r.width / 2, y: r.y + r.height / 2}); })()",
           run);
  cJSON *pt = eval(t, js), *card = NULL, *a = NULL, *dest = NULL;
  if (!pt) return;
  mouse(t, "mouseMoved", nfield(pt, "x"), nfield(pt, "y"));
  cdp_wait(t->c, NULL, NULL, 150, "the card");
  static const char card_js[] =
      "(() => { const c = document.getElementById('card'), a = "
      "c.querySelector('a'); return JSON.stringify({hidden: c.hidden, text: "
      "c.innerText, href: a ? a.getAttribute('href') : '', ring: "
      "!!document.querySelector('#c0 circle.focus')}); })()";
  card = eval(t, card_js);
  ZT_TRUE(card && cJSON_IsFalse(field(card, "hidden")));
  ZT_TRUE(card && cJSON_IsTrue(field(card, "ring")));
  ZT_HAS(sfield(card, "text"), card_has);
  ZT_STR(sfield(card, "href"), href);
  struct pixels px; /* the card over its chart, for whoever looks */
  char name[64];
  snprintf(name, sizeof name, "card-%d.png", run);
  shot(t, "section", zt_tmp(name), &px);
  click(t, nfield(pt, "x"), nfield(pt, "y")); /* keeps the card */
  a = eval(t, "(() => { const r = document.querySelector('#card a')"
              ".getBoundingClientRect(); return JSON.stringify({x: r.x + "
              "r.width / 2, y: r.y + r.height / 2}); })()");
  if (a) {
    cdp_page_expect_load(t->p);
    click(t, nfield(a, "x"), nfield(a, "y"));
    ZT_INT(cdp_page_wait_load(t->p, 10000), ZC_OK);
    dest = eval(t, "JSON.stringify({title: document.title})");
    ZT_STR(sfield(dest, "title"), want);
  }
  cJSON_Delete(pt);
  cJSON_Delete(card);
  cJSON_Delete(a);
  cJSON_Delete(dest);
}

/* checkout's page: its charts, marks, tables and links. */
static void check_checkout(const char *site) {
  char p[4300];
  snprintf(p, sizeof p, "%s/checkout-%s", site, "");
  char *page = NULL;
  zt_sh(&page, "cd '%s' && ls checkout-*.html", site);
  if (!ZT_TRUE(page && *page)) return;
  page[strcspn(page, "\n")] = '\0';
  snprintf(p, sizeof p, "%s/%s", site, page);
  free(page);
  struct tab t;
  cJSON *f = tab_open(&t, p) ? eval(&t, page_js) : NULL;
  if (f) {
    expect_inert(&t);
    expect_csp(f, 1);
    ZT_INT(nfield(f, "scripts"), 1);
    ZT_INT(nfield(f, "handlers"), 0);
    ZT_STR(sfield(f, "sections"),
           "end-to-end,vitals,memory,regressions,bisections,runs");
    expect_marks(chart_of(f, "scenario wall time (ms)"), 30, 0, regressed);
    expect_marks(chart_of(f, "largest contentful paint (LCP) (ms)"), 30, 0,
                 regressed);
    /* memory only where the runs carry it: nights 20 to 30 */
    expect_marks(chart_of(f, "JS heap used after a forced GC (KB)"), 11, 19,
                 regressed);
    ZT_TRUE(strlen(sfield(chart_of(f, "scenario wall time (ms)"), "band")) > 0);
    /* every run's report link, by its row */
    const cJSON *r;
    int reps = 0;
    cJSON_ArrayForEach(r, field(f, "reps")) {
      char want[64];
      snprintf(want, sizeof want, "../nights/run-%02d/report.html",
               (int)cJSON_GetArrayItem(r, 0)->valuedouble + 1);
      ZT_STR(cJSON_GetStringValue(cJSON_GetArrayItem(r, 1)), want);
      reps++;
    }
    ZT_INT(reps, 30);
    ZT_INT(cJSON_GetArraySize(field(f, "regs")), 1);
    const char *rg =
        cJSON_GetStringValue(cJSON_GetArrayItem(field(f, "regs"), 0));
    ZT_HAS(rg, "slowChecksum");
    ZT_HAS(rg, "open");
    ZT_HAS(rg, "c0ffee123456"); /* the bisection's culprit */
    ZT_STR(sfield(f, "issues"), ISSUE);
    ZT_HAS(sfield(f, "text"), "made slowChecksum slower");
    struct pixels px;
    shot(&t, NULL, zt_tmp("checkout.png"), &px);
    if (shot(&t, "#c0", NULL, &px)) {
      ZT_TRUE(px.blue > 0); /* the line and its points are drawn */
      ZT_TRUE(px.red > 0);  /* the marks */
      ZT_TRUE(px.band > 0); /* the interval's band */
    }
    hover_and_follow(&t, 16, "builds: v1.0 → build-17",
                     "../nights/run-17/report.html", "night 17");
  }
  cJSON_Delete(f);
  tab_close(&t);
}

/* The hostile flow's page: every name as text, cut, its bidi control
 * shown; nothing ran; its card's link (a folder named with ?, #, % and
 * quotes) opens that folder's report. */
static void check_hostile(const char *site, const char *page) {
  char p[4300];
  snprintf(p, sizeof p, "%s/%s", site, page);
  ZT_TRUE(strlen(page) < 64 && !strchr(page, '/'));
  struct tab t;
  cJSON *f = tab_open(&t, p) ? eval(&t, page_js) : NULL;
  if (f) {
    expect_inert(&t);
    ZT_INT(nfield(f, "handlers"), 0);
    ZT_INT(nfield(f, "jslinks"), 0);
    const char *h1 = sfield(f, "h1"), *text = sfield(f, "text");
    ZT_TRUE(
        !strncmp(h1, "<img src=x onerror=window.__pwned=1>\\u202Egnp.exe", 48));
    ZT_TRUE(strlen(h1) < 400); /* 300 characters, then … */
    ZT_HAS(h1, "AAA…");
    ZT_TRUE(!strstr(text, "\xe2\x80\xae")); /* no live override */
    ZT_HAS(text, H_FN);
    ZT_HAS(text, "<b>host</b>");
    ZT_HAS(text, H_CHROME);
    ZT_HAS(text, H_LABEL);
    ZT_HAS(text, "javascript:alert(1)");
    ZT_HAS(sfield(f, "title"), "<img src=x onerror=");
    expect_marks(chart_of(f, "scenario wall time (ms)"), 3, 0, always);
    hover_and_follow(&t, 0, "\\u202Eevil",
                     "../nights/evil%20%3F%23%25%22%3Cb%3E/report.html",
                     "evil report");
  }
  cJSON_Delete(f);
  tab_close(&t);
  /* the files themselves: hostile strings only ever escaped */
  char *html = zt_read(p);
  ZT_TRUE(html != NULL);
  ZT_TRUE(html && !strstr(html, "<img src=x"));
  ZT_TRUE(html && !strstr(html, "<script>window"));
  ZT_TRUE(html && !strstr(html, "<svg onload"));
  ZT_TRUE(html && !strstr(html, "onmouseover=\"window"));
  ZT_TRUE(html && !strstr(html, "\xe2\x80\xae"));
  ZT_HAS(html, "&lt;img src=x onerror=window.__pwned=1&gt;");
  free(html);
}

/* The dashboard of db into site; its exit code, stdout and stderr in
 * *out. */
static int dashboard(char **out, const char *db, const char *site,
                     const char *more) {
  return zt_sh(out, "'%s' dashboard --history '%s' --out '%s' %s 2>&1",
               zt_zamcap(), db, site, more ? more : "");
}

static void test_site(void) {
  make_hostile();
  char db[4200], site[4200], one[4200], *out = NULL, page[128] = "";
  snprintf(db, sizeof db, "%s", zt_tmp("site.db"));
  snprintf(site, sizeof site, "%s", zt_tmp("site"));
  snprintf(one, sizeof one, "%s", zt_tmp("one"));
  make_history(db);
  ZT_INT(dashboard(&out, db, site, NULL), 0);
  ZT_HAS(out, "dashboard: 2 scenarios, 33 runs");
  ZT_HAS(out, "/index.html");
  free(out);
  check_index(site, page, sizeof page);
  check_checkout(site);
  if (ZT_TRUE(page[0])) check_hostile(site, page);
  /* --since: every scripted night lies within 10^5 days */
  ZT_INT(dashboard(&out, db, one, "--since 100000"), 0);
  ZT_HAS(out, "dashboard: 2 scenarios, 33 runs");
  free(out);
  /* one flow by name: its page, an index of one */
  ZT_INT(dashboard(&out, db, one, "checkout nosuch"), 0);
  ZT_HAS(out, "dashboard: 1 scenario, 30 runs");
  ZT_HAS(out, "scenario 'nosuch' has no run");
  free(out);
}

/* An empty history: an index that says so, no page. */
static void test_empty(void) {
  const char *db = zt_tmp("empty.db"), *site = zt_tmp("empty");
  unlink(db);
  struct agent_history *h = NULL;
  ZT_INT(agent_history_open(db, &h), ZC_OK);
  agent_history_close(h);
  char *out = NULL, p[4300];
  ZT_INT(dashboard(&out, db, site, NULL), 0);
  ZT_HAS(out, "dashboard: 0 scenarios, 0 runs");
  free(out);
  snprintf(p, sizeof p, "%s/index.html", site);
  struct tab t;
  cJSON *f = tab_open(&t, p) ? eval(&t, index_js) : NULL;
  if (f) {
    expect_inert(&t);
    ZT_HAS(sfield(f, "text"), "No run is recorded in this history yet");
    ZT_INT(cJSON_GetArraySize(field(f, "rows")), 0);
  }
  cJSON_Delete(f);
  tab_close(&t);
  ZT_INT(zt_sh(&out, "ls '%s' | wc -l", site), 0);
  ZT_STR(out, "1\n");
  free(out);
}

/* A history a newer zamcap wrote: refused with zamcap history's words and
 * exit code, and no site. */
static void test_newer(void) {
  const char *db = zt_tmp("newer.db"), *site = zt_tmp("newer");
  unlink(db);
  struct agent_history *h = NULL;
  ZT_INT(agent_history_open(db, &h), ZC_OK);
  agent_history_close(h);
  struct agent_db *d = NULL;
  ZT_INT(agent_db_open(db, &d), ZC_OK);
  ZT_INT(agent_db_run(d,
                      "INSERT INTO zamcap_schema (version, zamcap, "
                      "applied_at) VALUES (7, '9.0.0', 'then')",
                      0, NULL, NULL),
         ZC_OK);
  agent_db_close(d);
  char *dash = NULL, *hist = NULL, p[4300];
  ZT_INT(zt_sh(&dash,
               "'%s' dashboard --history '%s' --out '%s' 2>&1 >/dev/null",
               zt_zamcap(), db, site),
         2);
  ZT_INT(zt_sh(&hist, "'%s' history --history '%s' 2>&1 >/dev/null",
               zt_zamcap(), db),
         2);
  ZT_HAS(dash, "written by a newer zamcap (9.0.0)");
  ZT_STR(dash, hist);
  free(dash);
  free(hist);
  snprintf(p, sizeof p, "%s/index.html", site);
  ZT_TRUE(access(p, F_OK) != 0);
}

/* The part of a page's file that is chart id's SVG (caller frees). */
static char *svg_of(const char *html, const char *id) {
  char open[64];
  snprintf(open, sizeof open, "<svg class=\"chart\" id=\"%s\"", id);
  const char *a = html ? strstr(html, open) : NULL;
  const char *b = a ? strstr(a, "</svg>") : NULL;
  return b ? zc_xstrndup(a, (size_t)(b - a)) : zc_xstrdup("");
}

static int count(const char *s, const char *what) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
    n++;
  return n;
}

/* The one page of site (its file's text; caller frees). */
static char *only_page(const char *site, char *path, size_t cap) {
  char *name = NULL;
  zt_sh(&name, "cd '%s' && ls | grep -v '^index.html$' | head -n 1", site);
  snprintf(path, cap, "%s/%s", site, name ? name : "");
  path[strcspn(path, "\n")] = '\0';
  free(name);
  return zt_read(path);
}

/* checkout's 30 nights into a fresh history at spec. */
static void fill(const char *spec) {
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(spec, &h), ZC_OK)) {
    fprintf(stderr, "  %s\n", zc_errmsg());
    return;
  }
  checkout_nights(h);
  agent_history_close(h);
}

/* Another account's history, in a folder this user cannot write: read
 * as it is, nothing made beside it. */
static void test_read_only(void) {
  char dir[4200], site[4200], db[4300], *out = NULL;
  snprintf(dir, sizeof dir, "%s", zt_tmp("ro"));
  snprintf(site, sizeof site, "%s", zt_tmp("ro-site"));
  snprintf(db, sizeof db, "%s/history.db", dir);
  zt_sh(NULL, "rm -rf '%s' '%s' && mkdir -p '%s' '%s' && chmod 777 '%s'", dir,
        site, dir, site, site);
  fill(db);
  int root = geteuid() == 0;
  /* as root, whom permissions do not stop: as nobody, the file root's */
  zt_sh(NULL, "chmod 644 '%s' && chmod 555 '%s'", db, dir);
  int rc = zt_sh(&out, "%s'%s' dashboard --history '%s' --out '%s' 2>&1",
                 root ? "setpriv --reuid=nobody --regid=nogroup "
                        "--clear-groups -- "
                      : "",
                 zt_zamcap(), db, site);
  ZT_INT(rc, 0);
  ZT_HAS(out, "dashboard: 1 scenario, 30 runs");
  if (rc) fprintf(stderr, "%s", out ? out : "");
  free(out);
  ZT_INT(zt_sh(&out, "ls -A '%s'", dir), 0);
  ZT_STR(out, "history.db\n"); /* no -wal, no -shm, no journal */
  free(out);
  char p[4300];
  snprintf(p, sizeof p, "%s/index.html", site);
  char *html = zt_read(p);
  ZT_HAS(html ? html : "", "checkout");
  free(html);
  zt_sh(NULL, "chmod 755 '%s'", dir);
}

/* 1000 runs: no circle per point, the lines through 600 slices, at most
 * one regression mark per slice; the hover data has every run, and
 * hovering the chart still shows a card. */
static void test_sampled(void) {
  char db[4200], site[4200];
  snprintf(db, sizeof db, "%s", zt_tmp("big.db"));
  snprintf(site, sizeof site, "%s", zt_tmp("big"));
  unlink(db);
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(db, &h), ZC_OK)) return;
  for (int i = 0; i < 1000; i++) {
    char at[32];
    snprintf(at, sizeof at, "2026-%02d-%02dT%02d:%02d:00Z", 1 + i / 100,
             1 + i / 4 % 25, i % 4 * 6, i % 60);
    cJSON *doc =
        night_doc("big", 1, i % 7 == 0 ? 90 : 0, "fn", NULL, "ci-2", "156");
    struct agent_history_meta m = {.command = "run", .recorded_at = at};
    ZT_INT(agent_history_add(h, doc, &m, NULL), ZC_OK);
    cJSON_Delete(doc);
  }
  agent_history_close(h);
  char *out = NULL, p[4300];
  ZT_INT(dashboard(&out, db, site, NULL), 0);
  free(out);
  char *html = only_page(site, p, sizeof p), *svg = svg_of(html, "c0");
  ZT_INT(count(html ? html : "", "<circle class=\"pt"), 0);
  int regs = count(svg, "class=\"reg\"");
  ZT_TRUE(regs > 0 && regs <= 600);
  const char *line = strstr(svg, "class=\"line\" d=\"");
  ZT_TRUE(line != NULL);
  char *d = line ? zc_xstrndup(line + 16, strcspn(line + 16, "\"")) : NULL;
  ZT_TRUE(d && vertices(d) <= 1200 && vertices(d) >= 600);
  free(d);
  free(svg);
  free(html);
  struct tab t;
  cJSON *f = tab_open(&t, p)
                 ? eval(&t, "(() => { const d = JSON.parse(document."
                            "getElementById('dash-data').textContent); const "
                            "s = document.getElementById('c0'); "
                            "s.scrollIntoView({block: 'center'}); const r = "
                            "s.getBoundingClientRect(); return "
                            "JSON.stringify({n: d.charts.c0.p.length, x: r.x "
                            "+ r.width / 2, y: r.y + r.height / 2}); })()")
                 : NULL;
  if (f) {
    expect_inert(&t);
    ZT_INT(nfield(f, "n"), 1000);
    mouse(&t, "mouseMoved", nfield(f, "x"), nfield(f, "y"));
    cdp_wait(t.c, NULL, NULL, 150, "the card");
    cJSON *c = eval(&t, "JSON.stringify({hidden: document.getElementById("
                        "'card').hidden, text: document.getElementById("
                        "'card').innerText})");
    ZT_TRUE(c && cJSON_IsFalse(field(c, "hidden")));
    ZT_HAS(sfield(c, "text"), "host ci-2");
    cJSON_Delete(c);
  }
  cJSON_Delete(f);
  tab_close(&t);
}

/* The 30 nights in a throwaway PostgreSQL: the same series. */
static void test_postgres(void) {
  char tmpl[] = "/tmp/zc-pg-XXXXXX", *uri = NULL, script[4200];
  const char *dir = mkdtemp(tmpl);
  if (!ZT_TRUE(dir != NULL)) return;
  snprintf(script, sizeof script, "%s/../agent/pgserver.sh", getenv("ZC_DATA"));
  int rc = zt_sh(&uri, "sh '%s' start '%s'", script, dir);
  if (rc == 77) {
    zt_skip("no PostgreSQL server installed");
  } else if (ZT_INT(rc, 0)) {
    uri[strcspn(uri, "\n")] = '\0';
    fill(uri);
    char site[4200], *out = NULL, p[4300];
    snprintf(site, sizeof site, "%s", zt_tmp("pg"));
    ZT_INT(dashboard(&out, uri, site, NULL), 0);
    ZT_HAS(out, "dashboard: 1 scenario, 30 runs");
    free(out);
    char *html = only_page(site, p, sizeof p), *svg = svg_of(html, "c0");
    ZT_INT(count(svg, "<circle class=\"pt"), 30);
    ZT_INT(count(svg, "class=\"reg\""), 20);
    free(svg);
    free(html);
  }
  zt_sh(NULL, "sh '%s' stop '%s'; rm -rf '%s'", script, dir, dir);
  free(uri);
}

/* The writer's strings, without a browser: cleaning, links, page names,
 * numbers, times. */
static void test_strings(void) {
  char *c = agent_dash_clean("a\xe2\x80\xae"
                             "b\x01\tc\xff\xe2\x81\xa6",
                             100);
  ZT_STR(c, "a\\u202Eb\\u0001 c\xef\xbf\xbd\\u2066");
  free(c);
  c = agent_dash_clean("\xc3\xa9t\xc3\xa9 \xf0\x9f\x9a\x80!", 3);
  ZT_STR(c, "\xc3\xa9t\xc3\xa9…");
  free(c);
  c = agent_dash_relpath("/srv/perf/site",
                         "/srv/perf/2026-11-07/a b?#%/report.html");
  ZT_STR(c, "../2026-11-07/a%20b%3F%23%25/report.html");
  free(c);
  c = agent_dash_relpath("/srv/site/./x/..", "/srv/site/r/report.html");
  ZT_STR(c, "r/report.html");
  free(c);
  c = agent_dash_relpath("/a/b", "/c:d/javascript:x");
  ZT_STR(c, "../../c%3Ad/javascript%3Ax");
  free(c);
  ZT_TRUE(agent_dash_relpath("site", "/x") == NULL);
  ZT_TRUE(agent_dash_http_ok("https://t.example/i/7"));
  ZT_TRUE(!agent_dash_http_ok("javascript:alert(1)"));
  ZT_TRUE(!agent_dash_http_ok("https://t.example/\"onmouseover=x"));
  ZT_TRUE(!agent_dash_http_ok("HTTPS://x y"));
  char page[64], n[40];
  agent_dash_page_name("Checkout: the cart (v2)!", page);
  ZT_TRUE(!strncmp(page, "checkout-the-cart-v2-", 21));
  ZT_INT((long long)strlen(page), 21 + 8 + 5);
  agent_dash_page_name("", page);
  ZT_TRUE(!strncmp(page, "scenario-", 9));
  agent_dash_num(n, 607.25, 1);
  ZT_STR(n, "607.3");
  agent_dash_num(n, -0.04, 1);
  ZT_STR(n, "0.0");
  agent_dash_num(n, -12.5, 2);
  ZT_STR(n, "-12.50");
  agent_dash_jnum(n, 810.7);
  ZT_STR(n, "810.7");
  agent_dash_jnum(n, 500);
  ZT_STR(n, "500");
  agent_dash_jnum(n, NAN);
  ZT_STR(n, "null");
  ZT_NEAR(agent_dash_time("2026-11-07T02:30:00Z"), 1794018600, 0);
  ZT_NEAR(agent_dash_time("2026-11-07 02:30:00"), 0, 0);
  ZT_NEAR(agent_dash_time("2026-13-07T02:30:00Z"), 0, 0);
}

/* "x", punctuation that spells i in base 3, "y": one letter part, many
 * names. */
static void punct_name(unsigned i, char out[64]) {
  int k = snprintf(out, 64, "x");
  for (unsigned v = i + 1; v; v /= 3)
    out[k++] = " .-"[v % 3];
  snprintf(out + k, 64 - (size_t)k, "y");
}

struct hashed {
  unsigned h, i;
};
static int hashed_cmp(const void *x, const void *y) {
  const struct hashed *a = x, *b = y;
  return (a->h > b->h) - (a->h < b->h);
}

/* Two flows whose names make one page name (their letters alike, their
 * hashes met): two pages, neither replacing the other. */
static void test_page_names(void) {
  char a[64] = "", b[64] = "", pa[64], pb[64];
  /* the hash's 32 bits meet among some 10^5 names (the birthday bound) */
  enum { N = 300000 };
  struct hashed *v = zc_xcalloc(N, sizeof *v);
  for (unsigned i = 0; i < N; i++) {
    punct_name(i, a);
    agent_dash_page_name(a, pa);
    v[i] = (struct hashed){(unsigned)strtoul(pa + 4, NULL, 16), i};
  }
  qsort(v, N, sizeof *v, hashed_cmp);
  a[0] = '\0';
  for (unsigned k = 1; k < N && !a[0]; k++)
    if (v[k].h == v[k - 1].h) {
      punct_name(v[k - 1].i, a);
      punct_name(v[k].i, b);
    }
  free(v);
  if (!ZT_TRUE(a[0])) return;
  agent_dash_page_name(a, pa);
  agent_dash_page_name(b, pb);
  ZT_STR(pa, pb);
  char db[4200], site[4200], *out = NULL;
  snprintf(db, sizeof db, "%s", zt_tmp("names.db"));
  snprintf(site, sizeof site, "%s", zt_tmp("names"));
  unlink(db);
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(db, &h), ZC_OK)) return;
  const char *names[] = {a, b};
  for (int i = 0; i < 2; i++) {
    cJSON *doc = night_doc(names[i], 1, 0, "f", NULL, "ci-1", "156");
    struct agent_history_meta m = {.command = "run"};
    ZT_INT(agent_history_add(h, doc, &m, NULL), ZC_OK);
    cJSON_Delete(doc);
  }
  agent_history_close(h);
  ZT_INT(dashboard(&out, db, site, NULL), 0);
  free(out);
  ZT_INT(zt_sh(&out, "ls '%s' | wc -l", site), 0);
  ZT_STR(out, "3\n");
  free(out);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"strings", test_strings}, {"page_names", test_page_names},
      {"site", test_site},       {"empty", test_empty},
      {"newer", test_newer},     {"read_only", test_read_only},
      {"sampled", test_sampled}, {"postgres", test_postgres},
  };
  int rc = ZT_RUN(cases, argc, argv);
  cdp_browser_free(browser);
  return rc;
}
