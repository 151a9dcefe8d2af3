/* report.html end to end: written by agent_write_html from report.json
 * fixtures (tests/agent/html/) full of hostile names, then opened from
 * disk in real headless Chromium. No script may run, nothing may be
 * fetched, every hostile string must show as text, the sections come in
 * order with the verdict first, links stay relative; the page also copes
 * with a compare report and with fields of the wrong type. Screenshots go
 * to the test's tmp folder. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ana.h"
#include "cdp.h"
#include "report/report.h"
#include "test.h"
#include "zc.h"

static const char H1[] = "<img src=x onerror=\"window.__pwned=1\">";
static const char H2[] = "</script><script>window.__pwned=2</script>";
static const char H3[] = "\"><svg onload=window.__pwned=3>";
static const char H4[] = "x\" onmouseover=\"window.__pwned=4";
static const char UNI[] = "ñandú_日本語_🚀";
static const char TITLE[] =
    "Checkout <b>flow</b> & \"quotes\" 'single' ñandú_日本語_🚀";

static const cJSON *jget(const cJSON *o, const char *k) {
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double jnum(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* Writes the report into tmp/<dir>/report.html; returns the HTML. */
static char *write_html(const cJSON *r, const char *svg, const char *dir) {
  char path[4200];
  zt_sh(NULL, "mkdir -p '%s'", zt_tmp(dir));
  snprintf(path, sizeof path, "%s/report.html", zt_tmp(dir));
  if (!ZT_INT(ana_write_html(r, svg, path), ZC_OK))
    fprintf(stderr, "  %s\n", zc_errmsg());
  char part[4300];
  snprintf(part, sizeof part, "%s.part", path);
  struct stat st;
  ZT_TRUE(stat(part, &st) != 0);
  return zt_read(path);
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

/* What the page did while loading. */
struct seen {
  const char *session, *url;
  int file_requests, data_requests, other_requests;
  int exceptions, errors;
  char what[2048]; /* the first surprise */
};

static void note(struct seen *s, const char *kind, const char *text) {
  if (!s->what[0])
    snprintf(s->what, sizeof s->what, "%s: %s", kind, text ? text : "?");
}

static void on_event(void *arg, const char *session, const char *method,
                     const cJSON *params) {
  struct seen *s = arg;
  if (!session || strcmp(session, s->session)) return;
  if (!strcmp(method, "Network.requestWillBeSent")) {
    const char *url = jstr(jget(params, "request"), "url");
    if (url && !strncmp(url, "data:", 5)) {
      s->data_requests++;
    } else if (url && !strcmp(url, s->url)) {
      s->file_requests++;
    } else {
      s->other_requests++;
      note(s, "request", url);
    }
  } else if (!strcmp(method, "Runtime.exceptionThrown")) {
    s->exceptions++;
    const cJSON *ex = jget(params, "exceptionDetails");
    const char *desc = jstr(jget(ex, "exception"), "description");
    note(s, "exception", desc ? desc : jstr(ex, "text"));
  } else if (!strcmp(method, "Runtime.consoleAPICalled")) {
    const char *t = jstr(params, "type");
    if (t && (!strcmp(t, "error") || !strcmp(t, "warning") ||
              !strcmp(t, "assert"))) {
      s->errors++;
      note(s, "console", t);
    }
  } else if (!strcmp(method, "Log.entryAdded")) {
    const cJSON *e = jget(params, "entry");
    const char *lv = jstr(e, "level");
    if (lv && (!strcmp(lv, "error") || !strcmp(lv, "warning"))) {
      s->errors++;
      note(s, "log", jstr(e, "text"));
    }
  }
}

static const char facts_js[] =
    "(() => {"
    "const q = s => [...document.querySelectorAll(s)];"
    "const img = document.querySelector('img.graph');"
    "const tree = document.querySelector('#graph > ul.tree');"
    "return JSON.stringify({"
    " pwned: typeof window.__pwned,"
    " text: document.body.innerText,"
    " title: document.title,"
    " sections: q('body > section').map(s => s.id).join(','),"
    " hrefs: q('[href]').map(a => a.getAttribute('href')).join('\\n'),"
    " srcs: q('[src]').map(e => e.getAttribute('src').slice(0, 26))"
    "   .join('\\n'),"
    " titles: q('[title]').map(e => e.title).join('\\n'),"
    " img: img ? 1 : 0,"
    " imgw: img ? img.naturalWidth : 0,"
    " tree: tree ? 1 : 0,"
    " treeShown: tree && tree.getClientRects().length ? 1 : 0,"
    " details: q('ul.tree details').length,"
    " hiddenTree: q('#graph > details:not([open]) ul.tree').length,"
    " causes: q('#causes tbody tr').length,"
    " bottom: q('#bottom-up tbody tr').length,"
    " runs: q('#details a[href^=\"traces/\"]').length,"
    " active: q('script,iframe,object,embed,svg,link,base,form,meta[http-equiv"
    "=refresh]').length,"
    " handlers: q('*').filter(e => [...e.attributes].some(a => "
    "   a.name.startsWith('on'))).length"
    "});})()";

/* Opens file in a fresh page, collects what happened while it loaded,
 * and returns the page's facts (facts_js) as JSON; shot, when not NULL,
 * gets a full-page screenshot. */
static cJSON *open_page_js(const char *file, struct seen *s, const char *shot,
                           const char *js);
static cJSON *open_page(const char *file, struct seen *s, const char *shot) {
  return open_page_js(file, s, shot, NULL);
}

/* The same, and js (an expression giving a JSON string, awaited) run
 * after the facts, its value in facts.extra. */
static cJSON *open_page_js(const char *file, struct seen *s, const char *shot,
                           const char *js) {
  struct cdp_conn *c = conn();
  if (!ZT_TRUE(c != NULL)) return NULL;
  char cwd[PATH_MAX] = "", url[2 * PATH_MAX + 16];
  if (file[0] != '/' && !ZT_TRUE(getcwd(cwd, sizeof cwd) != NULL)) return NULL;
  snprintf(url, sizeof url, "file://%s%s%s", cwd, cwd[0] ? "/" : "", file);
  struct cdp_page *p = NULL;
  cJSON *facts = NULL, *r = NULL;
  if (!ZT_INT(cdp_page_open(c, &p), ZC_OK)) return NULL;
  memset(s, 0, sizeof *s);
  s->session = cdp_page_session(p);
  s->url = url;
  cdp_on_event(c, on_event, s);
  const char *sess = s->session;
  ZT_INT(cdp_call(c, sess, "Runtime.enable", NULL, 0, NULL), ZC_OK);
  ZT_INT(cdp_call(c, sess, "Log.enable", NULL, 0, NULL), ZC_OK);
  ZT_INT(cdp_call(c, sess, "Emulation.setDeviceMetricsOverride",
                  cJSON_Parse("{\"width\":1100,\"height\":900,"
                              "\"deviceScaleFactor\":1,\"mobile\":false}"),
                  0, NULL),
         ZC_OK);
  if (!ZT_INT(cdp_page_navigate(p, url, 15000), ZC_OK)) {
    fprintf(stderr, "  %s\n", zc_errmsg());
    goto out;
  }
  cdp_wait(c, NULL, NULL, 300, "late events"); /* anything after load */
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "expression", facts_js);
  cJSON_AddBoolToObject(a, "returnByValue", 1);
  if (ZT_INT(cdp_call(c, sess, "Runtime.evaluate", a, 10000, &r), ZC_OK)) {
    const char *v = jstr(jget(r, "result"), "value");
    facts = v ? cJSON_Parse(v) : NULL;
    ZT_TRUE(facts != NULL);
  }
  cJSON_Delete(r);
  r = NULL;
  if (js && facts) {
    a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "expression", js);
    cJSON_AddBoolToObject(a, "returnByValue", 1);
    cJSON_AddBoolToObject(a, "awaitPromise", 1);
    if (ZT_INT(cdp_call(c, sess, "Runtime.evaluate", a, 10000, &r), ZC_OK)) {
      const char *v = jstr(jget(r, "result"), "value");
      cJSON *x = v ? cJSON_Parse(v) : NULL;
      if (ZT_TRUE(x != NULL)) cJSON_AddItemToObject(facts, "extra", x);
    }
    cJSON_Delete(r);
    r = NULL;
  }
  if (shot) {
    double h = 900;
    if (!cdp_call(c, sess, "Page.getLayoutMetrics", NULL, 0, &r)) {
      double ch = jnum(jget(r, "cssContentSize"), "height");
      if (ch > 0) h = ch < 12000 ? ch : 12000;
    }
    cJSON_Delete(r);
    r = NULL;
    a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "format", "png");
    cJSON_AddBoolToObject(a, "captureBeyondViewport", 1);
    cJSON *clip = cJSON_AddObjectToObject(a, "clip");
    cJSON_AddNumberToObject(clip, "x", 0);
    cJSON_AddNumberToObject(clip, "y", 0);
    cJSON_AddNumberToObject(clip, "width", 1100);
    cJSON_AddNumberToObject(clip, "height", h);
    cJSON_AddNumberToObject(clip, "scale", 1);
    if (ZT_INT(cdp_call(c, sess, "Page.captureScreenshot", a, 20000, &r),
               ZC_OK)) {
      const cJSON *d = jget(r, "data");
      long n = cJSON_IsString(d)
                   ? zc_b64_decode(d->valuestring, strlen(d->valuestring))
                   : -1;
      ZT_TRUE(n > 20000); /* a page of text and tables, not a blank */
      if (n > 8 && ZT_TRUE(!memcmp(d->valuestring, "\x89PNG\r\n\x1a\n", 8)))
        zt_write(shot, d->valuestring, (size_t)n);
      fprintf(stderr, "  screenshot %s (%ld bytes)\n", shot, n);
    }
    cJSON_Delete(r);
  }
out:
  cdp_off_event(c, on_event, s);
  cdp_page_close(p);
  return facts;
}

/* The page ran nothing and fetched nothing but itself. */
static void expect_inert(const struct seen *s, const cJSON *f) {
  ZT_STR(jstr(f, "pwned"), "undefined");
  ZT_INT(s->exceptions, 0);
  ZT_INT(s->errors, 0);
  ZT_INT(s->other_requests, 0);
  ZT_INT(s->file_requests, 1);
  if (s->what[0]) fprintf(stderr, "  page: %s\n", s->what);
  ZT_INT(jnum(f, "active"), 0);
  ZT_INT(jnum(f, "handlers"), 0);
}

/* Every href is one of the relative paths zamcap writes. */
static void expect_safe_links(const char *hrefs) {
  char *copy = zc_xstrdup(hrefs ? hrefs : "");
  for (char *save = NULL, *h = strtok_r(copy, "\n", &save); h;
       h = strtok_r(NULL, "\n", &save)) {
    int ok = (!strncmp(h, "traces/", 7) || !strncmp(h, "failures/", 9) ||
              !strncmp(h, "pairs/", 6) || !strcmp(h, "critical-graph.dot")) &&
             !strchr(h, ':') && !strstr(h, "..");
    if (!ok) fprintf(stderr, "  unexpected href %s\n", h);
    ZT_TRUE(ok);
  }
  free(copy);
}

static const char sections[] =
    "verdict,graph,causes,end-to-end,bottom-up,details";

/* The raw file: hostile strings only ever escaped. */
static void expect_escaped(const char *html) {
  if (!ZT_TRUE(html != NULL)) return;
  ZT_TRUE(!strstr(html, H1));
  ZT_TRUE(!strstr(html, H2));
  ZT_TRUE(!strstr(html, H3));
  ZT_TRUE(!strstr(html, H4));
  ZT_TRUE(!strstr(html, "<script"));
  ZT_TRUE(!strstr(html, "href=\"javascript"));
  ZT_HAS(html, "&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;");
  ZT_HAS(html, "x&quot; onmouseover=&quot;window.__pwned=4");
  ZT_HAS(html, UNI);
}

static void test_full_tree(void) {
  cJSON *r = zt_json("%s", zt_tests("analysis/html/report.json"));
  char *html = write_html(r, NULL, "tree");
  expect_escaped(html);
  ZT_TRUE(html && !strstr(html, "data:image"));
  fprintf(stderr,
          "  report.html: %zu bytes (report.json fixture, no "
          "SVG)\n",
          html ? strlen(html) : 0);
  free(html);
  struct seen s;
  cJSON *f = open_page(zt_tmp("tree/report.html"), &s, zt_tmp("tree.png"));
  if (f) {
    expect_inert(&s, f);
    const char *text = jstr(f, "text");
    ZT_HAS(text, H1);
    ZT_HAS(text, H2);
    ZT_HAS(text, H3);
    ZT_HAS(text, UNI);
    ZT_HAS(text, TITLE);
    ZT_HAS(jstr(f, "title"), TITLE);
    ZT_HAS(jstr(f, "titles"), H4); /* a URL, shown as a tooltip */
    ZT_STR(jstr(f, "sections"), sections);
    /* The verdict first, then its details. */
    const char *v = text ? strstr(text, "3 regression-causes (slower by ≥ "
                                        "50 ms in all 3 pairs)")
                         : NULL;
    const char *g = text ? strstr(text, "Critical graph") : NULL;
    ZT_TRUE(v && g && v < g);
    ZT_HAS(text, "Top cause: </script><script>window.__pwned=2</script> at "
                 "/js/app.js:106:22, +465.7 ms (0.0 → 465.7 ms, new).");
    ZT_HAS(text, "End to end: scenario wall time 812.3 → 1224.3 ms, +412.0 "
                 "ms (+50.7 %) [+380.2, +443.8], significant.");
    ZT_HAS(text, "Capture incomplete: pair 4 dropped");
    ZT_HAS(text, "the scenario got slower by 412 ms (95% CI 380–444)");
    /* The tree, open, with the causes marked. */
    ZT_INT(jnum(f, "tree"), 1);
    ZT_INT(jnum(f, "treeShown"), 1);
    ZT_TRUE(jnum(f, "details") >= 4);
    ZT_INT(jnum(f, "img"), 0);
    ZT_HAS(text, "regression-cause");
    ZT_HAS(text, "in 2 of 3 pairs");
    ZT_INT(jnum(f, "causes"), 3);
    ZT_INT(jnum(f, "bottom"), 100); /* capped */
    ZT_TRUE(text && !strstr(text, "last-row-not-shown"));
    ZT_HAS(text, "The first 100 of 1044 functions");
    ZT_HAS(text, "+70.1, –, +63.9"); /* Δ per pair, absent in one */
    ZT_HAS(text, "long tasks");
    ZT_HAS(text, "style & layout <b>");
    /* Links: the traces and screenshot zamcap wrote, nothing else. */
    const char *hrefs = jstr(f, "hrefs");
    expect_safe_links(hrefs);
    ZT_HAS(hrefs, "traces/old-1.json.gz");
    ZT_HAS(hrefs, "traces/new-3.json.gz");
    ZT_HAS(hrefs, "failures/old-4-try-1-step-6.png");
    ZT_HAS(hrefs, "pairs/pair-2.dot");
    ZT_INT(jnum(f, "runs"), 6 + 6);      /* the runs' and the pairs' traces */
    ZT_HAS(text, "javascript:alert(1)"); /* shown as text */
    ZT_HAS(text, "../../etc/passwd");
    ZT_HAS(text, "HeadlessChrome/131.0.6778.85");
  }
  cJSON_Delete(f);
  cJSON_Delete(r);
}

static void test_full_svg(void) {
  cJSON *r = zt_json("%s", zt_tests("analysis/html/report.json"));
  char *html = write_html(r, zt_tests("analysis/html/graph.svg"), "svg");
  expect_escaped(html);
  ZT_HAS(html, "<img class=\"graph\" alt=\"the critical graph\" "
               "src=\"data:image/svg+xml;base64,PD94bWwg");
  fprintf(stderr,
          "  report.html: %zu bytes (report.json fixture, with "
          "SVG)\n",
          html ? strlen(html) : 0);
  free(html);
  struct seen s;
  cJSON *f = open_page(zt_tmp("svg/report.html"), &s, zt_tmp("svg.png"));
  if (f) {
    /* The SVG's script, onload and external images did nothing. */
    expect_inert(&s, f);
    ZT_INT(jnum(f, "img"), 1);
    ZT_TRUE(jnum(f, "imgw") > 100); /* decoded and drawn */
    ZT_HAS(jstr(f, "srcs"), "data:image/svg+xml;base64");
    ZT_INT(jnum(f, "tree"), 0);
    ZT_INT(jnum(f, "hiddenTree"), 1); /* the same graph as text, closed */
    ZT_STR(jstr(f, "sections"), sections);
    ZT_HAS(jstr(f, "text"), H1);
  }
  cJSON_Delete(f);
  cJSON_Delete(r);
}

/* zamcap compare's report: no runs, inputs, end-to-end or verdict. */
static void test_compare(void) {
  cJSON *r = zt_json("%s", zt_tests("analysis/html/compare.json"));
  char *html = write_html(r, NULL, "compare");
  free(html);
  struct seen s;
  cJSON *f =
      open_page(zt_tmp("compare/report.html"), &s, zt_tmp("compare.png"));
  if (f) {
    expect_inert(&s, f);
    const char *text = jstr(f, "text");
    ZT_STR(jstr(f, "sections"), sections);
    ZT_HAS(text, "No regression-cause (no function got slower by ≥ 50 ms "
                 "in all 3 pairs)");
    ZT_HAS(text, "Not measured");
    ZT_HAS(text, "old/run-1.json");
    ZT_INT(jnum(f, "tree"), 1);
    ZT_INT(jnum(f, "causes"), 0);
    ZT_INT(jnum(f, "bottom"), 2);
    /* Its traces are the user's, not in the output folder: no links. */
    const char *hrefs = jstr(f, "hrefs");
    expect_safe_links(hrefs);
    ZT_TRUE(hrefs && !strstr(hrefs, "traces/"));
    ZT_HAS(hrefs, "pairs/pair-1.dot");
  }
  cJSON_Delete(f);
  cJSON_Delete(r);
}

/* Every field of the wrong type: treated as missing. */
static void test_wrong_types(void) {
  cJSON *r = zt_json("%s", zt_tests("analysis/html/wrongtypes.json"));
  char *html = write_html(r, NULL, "wrong");
  free(html);
  struct seen s;
  cJSON *f = open_page(zt_tmp("wrong/report.html"), &s, NULL);
  if (f) {
    expect_inert(&s, f);
    ZT_STR(jstr(f, "sections"), sections);
    ZT_HAS(jstr(f, "text"), "No critical graph in the report.");
    ZT_INT(jnum(f, "causes"), 1);
    expect_safe_links(jstr(f, "hrefs"));
  }
  cJSON_Delete(f);
  cJSON_Delete(r);
  /* An empty object is a page too. */
  r = cJSON_CreateObject();
  html = write_html(r, NULL, "empty");
  ZT_HAS(html, "Regression-causes unknown");
  free(html);
  cJSON_Delete(r);
}

/* Web vitals rows whose step type, metric and warnings are hostile, and
 * whose fields are of the wrong type: escaped, missing shown as such. */
static void test_vitals(void) {
  cJSON *r = cJSON_Parse(
      "{\"vitals\":[{\"step\":null,\"metric\":\"LCP\",\"unit\":\"ms\","
      "\"old\":null,\"new\":512.44,\"delta\":null,\"ci95\":null,"
      "\"significant\":false},"
      "{\"step\":3,\"type\":\"<img src=x onerror=alert(1)>\","
      "\"metric\":\"<b>CLS</b>\",\"unit\":\"\",\"old\":0,\"new\":0.1366,"
      "\"delta\":0.1366,\"ci95\":[0.1,0.2],\"significant\":true},"
      "{\"step\":\"x\",\"metric\":7,\"old\":\"a\",\"ci95\":[1]}],"
      "\"vitals_warnings\":[\"<script>alert(1)</script>\",3]}");
  char *html = write_html(r, NULL, "vitals");
  ZT_HAS(html, "<section id=\"vitals\">");
  ZT_HAS(html, "&lt;img src=x onerror=alert(1)&gt;");
  ZT_HAS(html, "&lt;b&gt;CLS&lt;/b&gt;");
  ZT_HAS(html, "&lt;script&gt;alert(1)&lt;/script&gt;");
  ZT_TRUE(html && !strstr(html, "<img src=x"));
  ZT_TRUE(html && !strstr(html, "<script>alert"));
  ZT_HAS(html, "<span class=\"dim\">missing</span>");
  ZT_HAS(html, "512.4");
  ZT_HAS(html, "<span class=\"up\">+0.1366</span> <span class=\"ci\">"
               "[0.1000, 0.2000]</span>");
  free(html);
  cJSON_Delete(r);
}

/* The checks above can fail: a page that does run script, throw, log an
 * error and fetch is seen doing all of it. */
static void test_detector(void) {
  zt_sh(NULL, "mkdir -p '%s'", zt_tmp("evil"));
  zt_write_str(zt_tmp("evil/report.html"),
               "<!DOCTYPE html><title>evil</title><section id=\"verdict\">"
               "</section><img src=\"http://127.0.0.1:9/x.png\">"
               "<script>window.__pwned = 1; console.error('e');</script>"
               "<script>throw new Error('thrown');</script>");
  struct seen s;
  cJSON *f = open_page(zt_tmp("evil/report.html"), &s, NULL);
  if (f) {
    ZT_STR(jstr(f, "pwned"), "number");
    ZT_TRUE(s.other_requests >= 1);
    ZT_TRUE(s.exceptions >= 1);
    ZT_TRUE(s.errors >= 1);
    ZT_INT(s.file_requests, 1);
    ZT_TRUE(jnum(f, "active") >= 2);
  }
  cJSON_Delete(f);
}

/* Without a browser: errors, the _from form, deep and wide graphs,
 * bytes that are not UTF-8, long strings. */
static void test_files(void) {
  cJSON *arr = cJSON_CreateArray();
  ZT_INT(ana_write_html(arr, NULL, zt_tmp("x.html")), ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "not a JSON object");
  cJSON_Delete(arr);
  cJSON *r = zt_json("%s", zt_tests("analysis/html/compare.json"));
  ZT_INT(ana_write_html(r, NULL, zt_tmp("nowhere/report.html")), ZC_E_IO);
  ZT_HAS(zc_errmsg(), "nowhere/report.html.part");
  /* An SVG that cannot be read: the tree instead, and a note. */
  char *html = write_html(r, zt_tmp("missing.svg"), "nosvg");
  ZT_HAS(html, "Not embedded: ");
  ZT_HAS(html, "<ul class=\"tree\">");
  free(html);
  cJSON_Delete(r);

  ZT_INT(ana_write_html_from(zt_tmp("absent")), ZC_E_IO);
  ZT_HAS(zc_errmsg(), "absent/report.json");
  zt_sh(NULL,
        "mkdir -p '%s' && cp '%s' '%s/report.json' && cp '%s' "
        "'%s/critical-graph.svg'",
        zt_tmp("from"), zt_tests("analysis/html/report.json"), zt_tmp("from"),
        zt_tests("analysis/html/graph.svg"), zt_tmp("from"));
  ZT_INT(ana_write_html_from(zt_tmp("from")), ZC_OK);
  html = zt_read(zt_tmp("from/report.html"));
  ZT_HAS(html, "data:image/svg+xml;base64,");
  free(html);
  zt_sh(NULL, "mkdir -p '%s' && printf '{\"schema\": ' > '%s/report.json'",
        zt_tmp("broken"), zt_tmp("broken"));
  ZT_INT(ana_write_html_from(zt_tmp("broken")), ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "broken/report.json: not JSON");

  /* A graph 300 deep and 3000 wide: drawn to a bound, not to the end. */
  r = cJSON_CreateObject();
  cJSON *agg = cJSON_AddObjectToObject(r, "aggregate");
  cJSON *g = cJSON_AddObjectToObject(agg, "critical_graph");
  cJSON *nodes = cJSON_AddArrayToObject(g, "nodes");
  /* a root, a chain 300 deep, 3000 of the root's children, and parents
   * that would make a loop (itself, one further on) or are not numbers */
  for (int i = 0; i < 3304; i++) {
    cJSON *n = cJSON_CreateObject();
    cJSON_AddNumberToObject(n, "id", i);
    if (!i)
      cJSON_AddNullToObject(n, "parent");
    else if (i <= 300)
      cJSON_AddNumberToObject(n, "parent", i - 1);
    else if (i < 3301)
      cJSON_AddNumberToObject(n, "parent", 0);
    else if (i == 3301)
      cJSON_AddNumberToObject(n, "parent", i);
    else if (i == 3302)
      cJSON_AddNumberToObject(n, "parent", i + 1);
    else
      cJSON_AddStringToObject(n, "parent", "0");
    cJSON_AddStringToObject(n, "kind", i ? "function" : "root");
    cJSON_AddStringToObject(n, "name",
                            i == 301   ? "bad\xff\xfe\xc0\x80 utf-8"
                            : i <= 300 ? "deep"
                            : i > 3300 ? "loop"
                                       : "wide");
    cJSON_AddItemToArray(nodes, n);
  }
  char big[3000];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  cJSON *in = cJSON_AddObjectToObject(r, "inputs");
  cJSON_AddStringToObject(in, "title", big);
  html = write_html(r, NULL, "big");
  ZT_TRUE(html && strlen(html) < 400000);
  int items = 0;
  for (const char *p = html; p && (p = strstr(p, "<li")); p++)
    items++;
  ZT_TRUE(items > 0 && items <= 1000);
  ZT_HAS(html, "The first 1000 nodes");
  ZT_HAS(html, "bad\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd utf-8");
  ZT_HAS(html, "aaaa…");
  ZT_TRUE(html && !strstr(html, "\xff"));
  ZT_TRUE(html && !strstr(html, ">loop<"));
  free(html);
  cJSON_Delete(r);
}

/* The flame graph: its one script, analysis/report/report.js as the build
 * embedded it, runs under the page's nonce and throws nothing; hovering a
 * frame shows a function named with markup as text, clicking zooms into
 * it, the search counts matches; nothing is fetched. The script is
 * flame_js with the section's id, the frame to find and the search. */
static char *flame_js(const char *id, const char *frame, const char *query) {
  static const char fmt[] =
      "(async () => {"
      "const F = (window.zamcapFlames || {})['%s'];"
      "if (!F) return JSON.stringify({none: 1});"
      "const sec = document.getElementById('%s');"
      "const c = sec.querySelector('.fl-c');"
      "const at = F.find('%s');"
      "let zoomed = 0, tip = '';"
      "if (at) {"
      " c.dispatchEvent(new MouseEvent('mousemove', {clientX: at.x,"
      "  clientY: at.y, bubbles: true}));"
      " tip = sec.querySelector('.fl-tip').textContent;"
      " c.dispatchEvent(new MouseEvent('click', {clientX: at.x,"
      "  clientY: at.y, bubbles: true}));"
      " zoomed = F.state.zoom === at.node ? 1 : 0;"
      "}"
      "const q = sec.querySelector('.fl-q');"
      "q.value = '%s'; q.dispatchEvent(new Event('input'));"
      "return JSON.stringify({nodes: F.nodes, found: at ? 1 : 0, tip: tip,"
      " zoomed: zoomed, matches: F.state.matches, unit: F.unit,"
      " flames: Object.keys(window.zamcapFlames).length,"
      " first: window.zamcapFlame === window.zamcapFlames.flame ? 1 : 0,"
      " count: sec.querySelector('.fl-n').textContent,"
      " imgs: document.querySelectorAll('.flame img').length,"
      " pwned: typeof window.__pwned});"
      "})()";
  size_t n = sizeof fmt + 2 * strlen(id) + strlen(frame) + strlen(query);
  char *s = malloc(n);
  if (s) snprintf(s, n, fmt, id, id, frame, query);
  return s;
}

/* report.js byte for byte in the page, and nothing in it can close its
 * <script> element early. */
static void check_script(const char *html) {
  char path[4096];
  snprintf(path, sizeof path, "%s", zt_tests("../analysis/report/report.js"));
  char *js = zt_read(path);
  ZT_TRUE(js && *js);
  ZT_HAS(html, js);
  for (char *p = js; p && *p; p++)
    *p = (char)tolower((unsigned char)*p);
  ZT_TRUE(js && !strstr(js, "</script"));
  free(js);
}

static void test_flame(void) {
  const char *d = zt_tmp("flame");
  zt_sh(NULL,
        "mkdir -p '%s/old' '%s/new' && for s in old new; do ms=100; "
        "[ $s = new ] && ms=300; python3 '%s' 4 $ms "
        "'%s'/$s/run-1.cpuprofile; sed -i 's/\"leafWork\"/\"<img src=x "
        "onerror=window.__pwned=3>\"/' '%s'/$s/run-1.cpuprofile; done",
        d, d, zt_tests("agent/deepprof.py"), d, d);
  ZT_INT(zt_run_zamcap(NULL,
                       "compare -q '%s/old' '%s/new' --format json,html "
                       "--out '%s/out'",
                       d, d, d),
         1);
  char *html = zt_read(zt_tmp("flame/out/report.html"));
  ZT_HAS(html, "<section id=\"flame\" class=\"flame\">");
  ZT_HAS(html, "<script type=\"application/json\" class=\"fl-data\">");
  ZT_HAS(html, "\\u003cimg src=x onerror=window.__pwned=3\\u003e");
  ZT_TRUE(html && !strstr(html, "<img src=x"));
  ZT_HAS(html, "script-src 'nonce-");
  check_script(html);
  free(html);
  struct seen s;
  char *js = flame_js("flame", "<img src=x onerror=window.__pwned=3>", "walk");
  cJSON *f = open_page_js(zt_tmp("flame/out/report.html"), &s,
                          zt_tmp("flame.png"), js);
  free(js);
  if (!f) return;
  ZT_INT(s.exceptions, 0);
  ZT_INT(s.errors, 0);
  ZT_INT(s.other_requests, 0);
  if (s.what[0]) fprintf(stderr, "  page: %s\n", s.what);
  const cJSON *x = jget(f, "extra");
  ZT_TRUE(jnum(x, "nodes") >= 6);
  ZT_INT(jnum(x, "found"), 1);
  ZT_STR(jstr(x, "unit"), "ms");
  ZT_INT(jnum(x, "flames"), 1);
  ZT_HAS(jstr(x, "tip"), "<img src=x onerror=window.__pwned=3>\n/app.js:10\n"
                         "old 100.0 ms → new 300.0 ms (+200.0 ms), per run\n"
                         "regression-cause");
  ZT_INT(jnum(x, "zoomed"), 1);
  ZT_TRUE(jnum(x, "matches") >= 1);
  ZT_HAS(jstr(x, "count"), " match");
  ZT_INT(jnum(x, "imgs"), 0);
  ZT_STR(jstr(x, "pwned"), "undefined");
  cJSON_Delete(f);
}

/* The allocation's flame graph, in KB (issue 23): a run's folder with
 * traces and the stored heap profiles (tests/data/memapp-*-mem-1), the
 * function above cloneRecords renamed with markup in both builds, given
 * to compare. The page draws both graphs with the one script; in the
 * allocation's, cloneRecords is the cause, its tooltip in KB with the
 * figures of report.json, and the hostile name is text. */
static void test_alloc_flame(void) {
  const char *d = zt_tmp("aflame");
  static const char hostile[] = "<img src=x onerror=window.__pwned=5>";
  zt_sh(NULL,
        "rm -rf '%s' && mkdir -p '%s/traces' && cd '%s/traces' && "
        "python3 '%s' 4 100 old-1.cpuprofile && "
        "python3 '%s' 4 300 new-1.cpuprofile && "
        "zcat '%s' | sed 's/\"onRun\"/\"%s\"/' > old-mem-1.heapprofile && "
        "zcat '%s' | sed 's/\"onRun\"/\"%s\"/' > new-mem-1.heapprofile",
        d, d, d, zt_tests("agent/deepprof.py"), zt_tests("agent/deepprof.py"),
        zt_data("memapp-old-mem-1.heapprofile.gz"), hostile,
        zt_data("memapp-new-mem-1.heapprofile.gz"), hostile);
  ZT_INT(zt_run_zamcap(NULL,
                       "compare -q '%s' --memory-mu 1024 --format json,html "
                       "--out '%s/out'",
                       d, d),
         1);
  cJSON *doc = zt_json("%s/out/report.json", d);
  const cJSON *c =
      cJSON_GetArrayItem(jget(jget(doc, "allocation"), "regression_causes"), 0);
  ZT_STR(jstr(c, "name"), "cloneRecords");
  char want[512];
  snprintf(want, sizeof want,
           "cloneRecords\n/app.js:11\nold %.1f KB → new %.1f KB (%+.1f KB), "
           "per run\nregression-cause",
           jnum(c, "old_kb"), jnum(c, "new_kb"),
           jnum(c, "new_kb") - jnum(c, "old_kb"));
  cJSON_Delete(doc);
  char p[4200];
  snprintf(p, sizeof p, "%s/out/report.html", d);
  char *html = zt_read(p);
  ZT_HAS(html, "<div id=\"alloc-flame\" class=\"flame\">");
  ZT_HAS(html, "<h3>Where the bytes were allocated</h3>");
  ZT_HAS(html, "\\u003cimg src=x onerror=window.__pwned=5\\u003e");
  ZT_HAS(html, "&lt;img src=x onerror=window.__pwned=5&gt;"); /* the path */
  ZT_TRUE(html && !strstr(html, "<img src=x"));
  check_script(html);
  free(html);
  struct seen s;
  char *js = flame_js("alloc-flame", "cloneRecords", "pwned");
  cJSON *f = open_page_js(p, &s, zt_tmp("aflame.png"), js);
  free(js);
  if (!f) return;
  ZT_INT(s.exceptions, 0);
  ZT_INT(s.errors, 0);
  ZT_INT(s.other_requests, 0);
  if (s.what[0]) fprintf(stderr, "  page: %s\n", s.what);
  const cJSON *x = jget(f, "extra");
  ZT_STR(jstr(x, "unit"), "KB");
  ZT_INT(jnum(x, "flames"), 2);
  ZT_INT(jnum(x, "first"), 1); /* zamcapFlame stays the time's */
  ZT_INT(jnum(x, "found"), 1);
  ZT_HAS(jstr(x, "tip"), want);
  ZT_INT(jnum(x, "zoomed"), 1);
  ZT_INT(jnum(x, "matches"), 1); /* the hostile frame, found as text */
  ZT_INT(jnum(x, "imgs"), 0);
  ZT_STR(jstr(x, "pwned"), "undefined");
  cJSON_Delete(f);
}

int main(int argc, char **argv) {
  zt_need_chrome();
  static const struct zt_case cases[] = {
      {"vitals", test_vitals},           {"files", test_files},
      {"full_tree", test_full_tree},     {"full_svg", test_full_svg},
      {"compare", test_compare},         {"wrong_types", test_wrong_types},
      {"detector", test_detector},       {"flame", test_flame},
      {"alloc_flame", test_alloc_flame},
  };
  int rc = ZT_RUN(cases, argc, argv);
  cdp_browser_free(browser);
  return rc;
}
