/* report.html from report.json: the verdict, the critical graph, the
 * flame graph, the regression-causes, the end-to-end figures, the
 * allocation (with its flame graph in KB), the bottom-up table and the run
 * details, in one file that makes no request and runs one script of ours
 * (the flame graphs', under a nonce).
 *
 * Safety rests on three things. Every string that came from report.json
 * goes through html_esc (text and attribute values alike). The critical
 * graph's SVG is not pasted into the page but embedded as an <img> with a
 * data: URL: an SVG shown as an image runs no script and fetches nothing,
 * whatever it holds, so the SVG (which carries names from the page) needs
 * no sanitizer of ours to be right. And the page's Content-Security-Policy
 * allows no script, no request and only data: images, a second wall should
 * an escape ever be missed. Links go only to the relative paths zamcap
 * writes into its output folder (html_rel_ok). */
#include "html-int.h"
#include "report.h"
#include "zc-out.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

enum {
  HTML_STR_MAX = 1000,     /* characters shown of one string */
  HTML_CAUSES_MAX = 100,   /* rows of the regression-cause table */
  HTML_BOTTOMUP_MAX = 100, /* rows of the bottom-up table */
  HTML_ROWS_MAX = 500,     /* rows of the other tables */
  HTML_TREE_NODES = 1000,  /* nodes of the graph drawn as a tree */
  HTML_TREE_DEPTH = 100,
};
#define HTML_SVG_MAX    ((size_t)4 << 20)   /* larger is not embedded */
#define HTML_REPORT_MAX ((size_t)512 << 20) /* report.json read by _from */

struct html {
  FILE *f;
  const cJSON *r;  /* the report */
  unsigned npairs; /* pairs compared; 0 when unknown */
  double mu;       /* options.mu_ms; NAN when unknown */
  int has_runs;    /* a capture's report: pairs' traces are in traces/ */
  unsigned nodes;  /* tree nodes written so far */
  char nonce[40];  /* the flame graphs' script's, or "" */
  unsigned flames; /* flame graphs written, which the script draws */
  int alloc_only;  /* a comparison of heap profiles alone: no time */
};

/* ---- report.json, where any field may be missing or of another type ---- */

static const cJSON *jget(const cJSON *o, const char *k) {
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsString(v) && v->valuestring ? v->valuestring : NULL;
}

static int jnum_of(const cJSON *v, double *out) {
  if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) return 0;
  *out = v->valuedouble;
  return 1;
}

static int jnum(const cJSON *o, const char *k, double *out) {
  return jnum_of(jget(o, k), out);
}

static const cJSON *jarr(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsArray(v) ? v : NULL;
}

static const cJSON *jobj(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsObject(v) ? v : NULL;
}

/* 1 true, 0 false, -1 missing. */
static int jbool(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsBool(v) ? cJSON_IsTrue(v) != 0 : -1;
}

/* A count (pairs, rows): a whole number in range, else 0. */
static unsigned jcount(const cJSON *o, const char *k) {
  double v;
  if (!jnum(o, k, &v) || v < 0 || v > 1e9) return 0;
  return (unsigned)v;
}

/* ---- output ---- */

static void put(struct html *h, const char *s) {
  fputs(s, h->f);
}

static void putf(struct html *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void putf(struct html *h, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(h->f, fmt, ap);
  va_end(ap);
}

/* Length of the well-formed UTF-8 sequence at p, or 0 (RFC 3629: no
 * overlong forms, surrogates or code points past U+10FFFF). */
static size_t html_utf8(const unsigned char *p) {
  unsigned c = p[0];
  if (c >= 0xc2 && c <= 0xdf) return (p[1] & 0xc0) == 0x80 ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    return p[1] >= lo && p[1] <= hi && (p[2] & 0xc0) == 0x80 ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    return p[1] >= lo && p[1] <= hi && (p[2] & 0xc0) == 0x80 &&
                   (p[3] & 0xc0) == 0x80
               ? 4
               : 0;
  }
  return 0;
}

static void html_esc(struct html *h, const char *s);

void ana_html_text(FILE *f, const char *s) {
  struct html h = {.f = f};
  html_esc(&h, s);
}

/* s as HTML text or as a quoted attribute value: & < > " ' become
 * references, control characters and bytes that are not UTF-8 become
 * U+FFFD, and past HTML_STR_MAX characters the rest is "…". */
static void html_esc(struct html *h, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t chars = 0; *p; chars++) {
    if (chars == HTML_STR_MAX) {
      put(h, "…");
      return;
    }
    size_t n;
    switch (*p) {
    case '&': put(h, "&amp;"); break;
    case '<': put(h, "&lt;"); break;
    case '>': put(h, "&gt;"); break;
    case '"': put(h, "&quot;"); break;
    case '\'': put(h, "&#39;"); break;
    case '\t':
    case '\n': fputc(*p, h->f); break;
    default:
      if (*p >= 0x20 && *p < 0x7f) {
        fputc(*p, h->f);
      } else if (*p >= 0x80 && (n = html_utf8(p)) != 0) {
        fwrite(p, 1, n, h->f);
        p += n;
        continue;
      } else {
        put(h, "\xef\xbf\xbd");
      }
    }
    p++;
  }
}

/* How a number reads: milliseconds with one decimal, a Δ signed too, a
 * count (or an option) without decimals when it is whole. */
enum html_fmt { HTML_MS, HTML_DELTA, HTML_COUNT };

static void html_num(struct html *h, double v, enum html_fmt f) {
  if (fabs(v) >= 1e12)
    putf(h, f == HTML_DELTA ? "%+.4g" : "%.4g", v);
  else if (f == HTML_DELTA)
    putf(h, "%+.1f", v);
  else if (f == HTML_COUNT && v == floor(v))
    putf(h, "%.0f", v);
  else
    putf(h, "%.1f", v);
}

static void html_dash(struct html *h) {
  put(h, "<span class=\"dim\">–</span>");
}

/* A number field, "–" when missing; a Δ is coloured. */
static void html_jnum(struct html *h, const cJSON *v, enum html_fmt f) {
  double d;
  if (!jnum_of(v, &d)) {
    html_dash(h);
    return;
  }
  int hue = f == HTML_DELTA && d != 0;
  if (hue) putf(h, "<span class=\"%s\">", d > 0 ? "up" : "down");
  html_num(h, d, f);
  if (hue) put(h, "</span>");
}

/* The same as plain text, for attribute values. */
static void html_attr_num(struct html *h, const cJSON *v, enum html_fmt f) {
  double d;
  if (jnum_of(v, &d))
    html_num(h, d, f);
  else
    put(h, "–");
}

static void html_td_num(struct html *h, const cJSON *o, const char *k,
                        enum html_fmt f) {
  put(h, "<td class=\"n\">");
  html_jnum(h, jget(o, k), f);
  put(h, "</td>");
}

/* Any JSON value, for the key/value tables. */
static void html_value(struct html *h, const cJSON *v) {
  double d;
  if (cJSON_IsString(v) && v->valuestring) {
    html_esc(h, v->valuestring);
  } else if (jnum_of(v, &d)) {
    putf(h, "%.10g", d);
  } else if (cJSON_IsBool(v)) {
    put(h, cJSON_IsTrue(v) ? "yes" : "no");
  } else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
    char *s = cJSON_PrintUnformatted(v);
    put(h, "<code>");
    html_esc(h, s ? s : "");
    put(h, "</code>");
    cJSON_free(s);
  } else {
    html_dash(h);
  }
}

/* A function's name; the root and threads say what they are. */
static void html_name(struct html *h, const cJSON *o) {
  const char *kind = jstr(o, "kind"), *name = jstr(o, "name");
  if (kind && !strcmp(kind, "root")) {
    put(h, "<i>all threads</i>");
    return;
  }
  if (!name || !*name) {
    put(h, "<i>(anonymous)</i>");
  } else {
    put(h, "<code>");
    html_esc(h, name);
    put(h, "</code>");
  }
  if (kind && !strcmp(kind, "thread"))
    put(h, " <span class=\"dim\">(thread)</span>");
}

/* file:line:column, the script's full URL as its tooltip. */
static void html_where(struct html *h, const cJSON *o, int column) {
  const char *file = jstr(o, "file"), *url = jstr(o, "url");
  if (!file || !*file) file = url;
  if (!file || !*file) {
    html_dash(h);
    return;
  }
  put(h, "<span class=\"loc\"");
  if (url && *url) {
    put(h, " title=\"");
    html_esc(h, url);
    put(h, "\"");
  }
  put(h, ">");
  html_esc(h, file);
  double line, col;
  if (jnum(o, "line", &line) && line >= 0 && line < 1e9) {
    putf(h, ":%.0f", line);
    if (column && jnum(o, "column", &col) && col >= 0 && col < 1e9)
      putf(h, ":%.0f", col);
  }
  put(h, "</span>");
  /* Renamed by a source map: what V8 ran, as secondary text. */
  const cJSON *m = cJSON_GetObjectItem(o, "minified");
  const char *mn = jstr(m, "name"), *mu = jstr(m, "url");
  if (mu && *mu) {
    size_t un = strcspn(mu, "?#");
    const char *b = mu + un;
    while (b > mu && b[-1] != '/')
      b--;
    put(h, " <span class=\"dim\" title=\"");
    html_esc(h, mu);
    put(h, "\">(");
    if (mn && *mn) {
      html_esc(h, mn);
      put(h, " at ");
    }
    char *base = zc_xstrndup(b, (size_t)(mu + un - b));
    html_esc(h, base);
    free(base);
    if (jnum(m, "line", &line) && line >= 0 && line < 1e9 &&
        jnum(m, "column", &col) && col >= 0 && col < 1e9)
      putf(h, ":%.0f:%.0f", line, col);
    put(h, ")</span>");
  }
}

/* Paths zamcap writes into its output folder: "dir/name" with dir one of
 * dirs ("" allows a bare name), name of [A-Za-z0-9._-] not starting with
 * a dot. Nothing else becomes a link: no scheme, no "..", no absolute
 * path. */
static int html_rel_ok(const char *s, const char *const *dirs, size_t ndirs) {
  if (!s || strlen(s) > 200) return 0;
  for (size_t i = 0; i < ndirs; i++) {
    size_t n = strlen(dirs[i]);
    if (strncmp(s, dirs[i], n) || (n && s[n] != '/')) continue;
    const char *name = s + n + (n ? 1 : 0);
    if (!*name || *name == '.') continue;
    if (strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                     "0123456789._-") == strlen(name))
      return 1;
  }
  return 0;
}

static void html_link(struct html *h, const char *href, const char *text) {
  put(h, "<a href=\"");
  html_esc(h, href);
  put(h, "\">");
  html_esc(h, text);
  put(h, "</a>");
}

/* A path as a link when it is one of ours in dir, else as text. */
static void html_file(struct html *h, const char *s, const char *dir) {
  const char *dirs[] = {dir};
  if (!s || !*s)
    html_dash(h);
  else if (html_rel_ok(s, dirs, 1))
    html_link(h, s, s);
  else {
    put(h, "<span class=\"loc\">");
    html_esc(h, s);
    put(h, "</span>");
  }
}

/* ---- the page ----
 * Its style sheet is report.css, embedded at build time. */

/* The headline every report shows (ana_headline), from report.json. */
static void html_headline(struct html *h, long causes) {
  const char *ah = jstr(jobj(h->r, "allocation"), "headline");
  if (h->alloc_only && ah) {
    html_esc(h, ah);
    return;
  }
  char head[256];
  double und = 0;
  if (!jnum(jobj(h->r, "verdict"), "undecided", &und) || und < 0 || und > 1e9)
    und = 0;
  ana_headline(head, sizeof head, causes, (long)und, h->mu, h->npairs,
               jcount(jobj(h->r, "options"), "quorum"));
  html_esc(h, head);
}

static long html_ncauses(struct html *h) {
  const cJSON *rc = jarr(h->r, "regression_causes");
  double d;
  if (h->alloc_only) rc = jarr(jobj(h->r, "allocation"), "regression_causes");
  if (rc)
    return cJSON_GetArraySize(rc) +
           cJSON_GetArraySize(jarr(h->r, "spread_causes"));
  if (jnum(jobj(h->r, "aggregate"), "causes", &d) && d >= 0 && d < 1e9)
    return (long)d;
  return -1;
}

static const cJSON *html_metric(const cJSON *e2e, const char *name) {
  const cJSON *m;
  cJSON_ArrayForEach(m, jarr(e2e, "metrics")) {
    const char *n = jstr(m, "name");
    if (n && !strcmp(n, name)) return m;
  }
  return NULL;
}

/* "[lo, hi]" from a ci95 pair, nothing when absent. */
static void html_ci(struct html *h, const cJSON *o, enum html_fmt f) {
  const cJSON *ci = jarr(o, "ci95");
  double lo, hi;
  if (!ci || cJSON_GetArraySize(ci) != 2 ||
      !jnum_of(cJSON_GetArrayItem(ci, 0), &lo) ||
      !jnum_of(cJSON_GetArrayItem(ci, 1), &hi))
    return;
  put(h, " <span class=\"ci\">[");
  html_num(h, lo, f);
  put(h, ", ");
  html_num(h, hi, f);
  put(h, "]</span>");
}

static void html_verdict(struct html *h) {
  long n = html_ncauses(h);
  const cJSON *v = jobj(h->r, "verdict");
  put(h, "<section id=\"verdict\">\n<h2>Verdict</h2>\n");
  const char *state = jstr(v, "state");
  putf(h, "<p class=\"verdict%s\"><strong>",
       n == 0 && !(state && !strcmp(state, "inconclusive")) ? " none" : "");
  html_headline(h, n);
  put(h, "</strong></p>\n");
  const char *text = jstr(v, "text");
  if (text && *text) {
    put(h, "<p>");
    html_esc(h, text);
    put(h, "</p>\n");
  }
  /* how many pairs, and why that many */
  const cJSON *smp = jobj(h->r, "sampling");
  double np;
  if (jnum(smp, "pairs", &np) && np >= 0 && np < 1e6) {
    const char *mode = jstr(smp, "mode"), *why = jstr(smp, "stopped");
    putf(h, "<p class=\"dim\">%.0f pair%s", np, np == 1 ? "" : "s");
    if (mode && *mode) {
      put(h, " (");
      html_esc(h, mode);
      if (why && *why) {
        put(h, ": ");
        html_esc(h, why);
      }
      put(h, ")");
    }
    put(h, ".</p>\n");
  }
  const cJSON *top = cJSON_GetArrayItem(jarr(h->r, "regression_causes"), 0);
  if (cJSON_IsObject(top)) {
    put(h, "<p>Top cause: ");
    html_name(h, top);
    put(h, " at ");
    html_where(h, top, 1);
    put(h, ", <strong>");
    html_jnum(h, jget(top, "delta_ms"), HTML_DELTA);
    put(h, " ms</strong> (");
    html_jnum(h, jget(top, "old_ms"), HTML_MS);
    put(h, " → ");
    html_jnum(h, jget(top, "new_ms"), HTML_MS);
    put(h, " ms");
    const char *st = jstr(top, "status");
    if (st && *st) {
      put(h, ", ");
      html_esc(h, st);
    }
    put(h, ").</p>\n");
  }
  const cJSON *m = html_metric(jobj(h->r, "end_to_end"), "scenario_ms");
  const cJSON *d = jobj(m, "delta");
  double dm;
  if (jnum(d, "mean", &dm)) {
    const char *label = jstr(m, "label");
    put(h, "<p>End to end: ");
    html_esc(h, label && *label ? label : "scenario time");
    put(h, " ");
    html_jnum(h, jget(jobj(m, "old"), "mean"), HTML_MS);
    put(h, " → ");
    html_jnum(h, jget(jobj(m, "new"), "mean"), HTML_MS);
    put(h, " ms, <strong>");
    html_jnum(h, jget(d, "mean"), HTML_DELTA);
    put(h, " ms</strong>");
    double pct;
    if (jnum(d, "pct", &pct)) {
      put(h, " (");
      html_num(h, pct, HTML_DELTA);
      put(h, " %)");
    }
    html_ci(h, d, HTML_DELTA);
    int sig = jbool(m, "significant");
    if (sig >= 0) put(h, sig ? ", significant" : ", not significant");
    put(h, ".</p>\n");
  }
  const cJSON *dropped = jarr(h->r, "dropped_pairs"), *p;
  if (cJSON_GetArraySize(dropped) > 0) {
    put(h, "<p class=\"warn\">Capture incomplete: pair");
    if (cJSON_GetArraySize(dropped) > 1) put(h, "s");
    int first = 1;
    cJSON_ArrayForEach(p, dropped) {
      put(h, first ? " " : ", ");
      html_value(h, p);
      first = 0;
    }
    put(h, " dropped (every attempt failed; see the run details). The "
           "analysis covers the other pairs.</p>\n");
  }
  put(h, "</section>\n");
}

/* One node of the critical graph as a line: name, place, old → new (Δ),
 * and what it is. */
static void html_node_label(struct html *h, const cJSON *n, int cause) {
  put(h, "<span class=\"node\"");
  const cJSON *pp = jarr(n, "pairs"), *e;
  if (cJSON_GetArraySize(pp) > 0) {
    put(h, " title=\"Δ per pair:");
    cJSON_ArrayForEach(e, pp) {
      put(h, " ");
      html_attr_num(h, jget(e, "delta_ms"), HTML_DELTA);
    }
    put(h, " ms\"");
  }
  put(h, ">");
  html_name(h, n);
  put(h, "</span> ");
  const char *kind = jstr(n, "kind");
  if (!kind || (strcmp(kind, "root") && strcmp(kind, "thread"))) {
    html_where(h, n, 0);
    put(h, " ");
  }
  html_jnum(h, jget(n, "old_ms"), HTML_MS);
  put(h, " → ");
  html_jnum(h, jget(n, "new_ms"), HTML_MS);
  put(h, " (");
  html_jnum(h, jget(n, "delta_ms"), HTML_DELTA);
  put(h, ") ms");
  if (cause) put(h, "<span class=\"badge\">regression-cause</span>");
  const char *st = jstr(n, "status");
  if (st && !strcmp(st, "new")) put(h, "<span class=\"badge\">new</span>");
  double present;
  if (h->npairs && jnum(n, "present", &present) && present >= 0 &&
      present < h->npairs)
    putf(h, "<span class=\"badge\">in %.0f of %u pairs</span>", present,
         h->npairs);
}

/* A critical_graph's flat node list, linked: each node's first child and
 * next sibling, by index. A parent must come before its children (as
 * zamcap writes them), so that no file can make the walk loop. */
struct html_graph {
  const cJSON **node;
  int *kid, *sib, n;
};

static void html_graph_link(struct html_graph *t, const cJSON *g) {
  const cJSON *arr = jarr(g, "nodes"), *o;
  int n = cJSON_GetArraySize(arr);
  t->n = 0;
  t->node = zc_xmalloc(((size_t)n + 1) * sizeof *t->node);
  t->kid = zc_xmalloc(((size_t)n + 1) * sizeof *t->kid);
  t->sib = zc_xmalloc(((size_t)n + 1) * sizeof *t->sib);
  int *last = zc_xmalloc(((size_t)n + 1) * sizeof *last);
  cJSON_ArrayForEach(o, arr) {
    if (!cJSON_IsObject(o) || t->n >= n) continue;
    int i = t->n++;
    t->node[i] = o;
    t->kid[i] = t->sib[i] = last[i] = -1;
    double p;
    if (!jnum(o, "parent", &p) || p < 0 || p >= i || p != (int)p) continue;
    int pi = (int)p;
    if (last[pi] < 0)
      t->kid[pi] = i;
    else
      t->sib[last[pi]] = i;
    last[pi] = i;
  }
  free(last);
}

static void html_graph_free(struct html_graph *t) {
  free(t->node);
  free(t->kid);
  free(t->sib);
}

static void html_tree_node(struct html *h, const struct html_graph *t, int i,
                           unsigned depth) {
  if (h->nodes >= HTML_TREE_NODES) return;
  h->nodes++;
  const cJSON *n = t->node[i];
  int cause = jbool(n, "cause") == 1;
  put(h, cause ? "<li class=\"cause\">" : "<li>");
  if (t->kid[i] >= 0 && depth < HTML_TREE_DEPTH) {
    put(h, "<details open><summary>");
    html_node_label(h, n, cause);
    put(h, "</summary>\n<ul>\n");
    for (int k = t->kid[i]; k >= 0; k = t->sib[k])
      html_tree_node(h, t, k, depth + 1);
    put(h, "</ul></details>");
  } else {
    put(h, "<div class=\"leaf\">");
    html_node_label(h, n, cause);
    if (t->kid[i] >= 0)
      put(h,
          " <span class=\"dim\">(deeper levels in " ZC_OUT_REPORT ")</span>");
    put(h, "</div>");
  }
  put(h, "</li>\n");
}

static void html_tree(struct html *h, const cJSON *g) {
  struct html_graph t;
  html_graph_link(&t, g);
  h->nodes = 0;
  put(h, "<ul class=\"tree\">\n");
  if (t.n) html_tree_node(h, &t, 0, 0);
  put(h, "</ul>\n");
  if (h->nodes >= HTML_TREE_NODES)
    putf(h,
         "<p class=\"dim\">The first %u nodes; the whole graph is "
         "in " ZC_OUT_REPORT ".</p>\n",
         HTML_TREE_NODES);
  html_graph_free(&t);
}

/* The SVG as an image, base64 in a data: URL. */
static void html_svg(struct html *h, const unsigned char *s, size_t n) {
  static const char b64[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  put(h, "<p><img class=\"graph\" alt=\"the critical graph\" "
         "src=\"data:image/svg+xml;base64,");
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)s[i] << 16;
    if (i + 1 < n) v |= (uint32_t)s[i + 1] << 8;
    if (i + 2 < n) v |= s[i + 2];
    char q[4] = {b64[v >> 18], b64[(v >> 12) & 63],
                 i + 1 < n ? b64[(v >> 6) & 63] : '=',
                 i + 2 < n ? b64[v & 63] : '='};
    fwrite(q, 1, 4, h->f);
  }
  put(h, "\"></p>\n");
}

static void html_graph(struct html *h, const unsigned char *svg, size_t n,
                       const char *svg_note) {
  const cJSON *g = jobj(jobj(h->r, "aggregate"), "critical_graph");
  put(h, "<section id=\"graph\">\n<h2>Critical graph</h2>\n"
         "<p class=\"dim\">The call paths down to the functions that got "
         "slower by at least μ in the pairs; the grey ones are the "
         "regression-causes. Each node: old → new (Δ) ms, means over the "
         "pairs.</p>\n");
  if (svg_note) {
    put(h, "<p class=\"dim\">");
    html_esc(h, svg_note);
    put(h, "</p>\n");
  }
  if (svg) {
    html_svg(h, svg, n);
    if (g) {
      put(h, "<details><summary>The same graph as text</summary>\n");
      html_tree(h, g);
      put(h, "</details>\n");
    }
  } else if (g) {
    html_tree(h, g);
  } else {
    put(h, "<p>No critical graph in the report.</p>\n");
  }
  put(h, "</section>\n");
}

/* A call path of names, each as code. */
static void html_path(struct html *h, const cJSON *path) {
  const cJSON *e;
  int first = 1;
  cJSON_ArrayForEach(e, path) {
    if (!first) put(h, " <span class=\"dim\">›</span> ");
    if (cJSON_IsString(e) && *e->valuestring) {
      put(h, "<code>");
      html_esc(h, e->valuestring);
      put(h, "</code>");
    } else {
      put(h, "<i>(anonymous)</i>");
    }
    first = 0;
  }
  if (first) html_dash(h);
}

/* A report table: the header cells cols, then a row (written by row) for
 * each object among the first max entries of rows; i counts the entries
 * from 1. The rest stay in report.json, as the caller may say. */
static void html_table(struct html *h, const char *cols, const cJSON *rows,
                       int max,
                       void (*row)(struct html *, const cJSON *, int i)) {
  const cJSON *o;
  int i = 0;
  put(h, "<div class=\"scroll\"><table>\n<thead><tr>");
  put(h, cols);
  put(h, "</tr></thead>\n<tbody>\n");
  cJSON_ArrayForEach(o, rows) {
    if (i++ == max) break;
    if (cJSON_IsObject(o)) row(h, o, i);
  }
  put(h, "</tbody></table></div>\n");
}

/* A cause's Δ in each pair (key: "delta_ms_per_pair", "delta_kb_..."). */
static void html_td_pairs(struct html *h, const cJSON *c, const char *key) {
  const cJSON *e;
  int first = 1;
  put(h, "<td class=\"n\">");
  cJSON_ArrayForEach(e, jarr(c, key)) {
    if (!first) put(h, ", ");
    html_jnum(h, e, HTML_DELTA);
    first = 0;
  }
  if (first) html_dash(h);
  put(h, "</td>");
}

/* Under a cause the history saw on earlier runs: "seen on N nights since
 * DATE", and its Δ over its scenario's last runs (report.json's
 * history.recent, at most 30) as bars; a run it was not a cause in is a
 * dot. Drawn inline, so the page still makes no request. */
static void html_seen(struct html *h, const cJSON *c) {
  const cJSON *hist = jobj(c, "history"), *e;
  double nights, d, top = 0;
  const char *since = jstr(hist, "first_seen");
  if (!jnum(hist, "nights", &nights) || nights < 2 || !since) return;
  put(h, "<br><span class=\"dim\">seen on ");
  html_num(h, nights, HTML_COUNT);
  put(h, " nights since ");
  html_esc(h, since);
  put(h, "</span>");
  const cJSON *recent = jarr(hist, "recent");
  int n = cJSON_GetArraySize(recent), k = 0;
  if (n <= 0 || n > 30) return;
  cJSON_ArrayForEach(e, recent) {
    if (jnum(e, "delta", &d) && d > top) top = d;
  }
  putf(h,
       "<br><svg width=\"%d\" height=\"20\" role=\"img\" "
       "aria-label=\"its Δ over the last %d runs\">",
       n * 4, n);
  cJSON_ArrayForEach(e, recent) {
    if (jnum(e, "delta", &d) && top > 0) {
      double bh = d > 0 ? 1 + 19 * d / top : 1;
      putf(h,
           "<rect x=\"%d\" y=\"%.1f\" width=\"3\" height=\"%.1f\" "
           "fill=\"#c0392b\"><title>",
           k * 4, 20 - bh, bh);
      html_esc(h, jstr(e, "at") ? jstr(e, "at") : "");
      putf(h, ": %+.1f</title></rect>", d);
    } else {
      putf(h,
           "<rect x=\"%d\" y=\"18\" width=\"3\" height=\"2\" "
           "fill=\"#bbb\"/>",
           k * 4);
    }
    k++;
  }
  put(h, "</svg>");
}

static void html_td_per_pair(struct html *h, const cJSON *c) {
  html_td_pairs(h, c, "delta_ms_per_pair");
}

static void html_cause_row(struct html *h, const cJSON *c, int i) {
  (void)i;
  put(h, "<tr>");
  html_td_num(h, c, "rank", HTML_COUNT);
  put(h, "<td>");
  html_name(h, c);
  html_seen(h, c);
  put(h, "</td><td>");
  html_where(h, c, 1);
  put(h, "</td><td>");
  const char *st = jstr(c, "status");
  if (st)
    html_esc(h, st);
  else
    html_dash(h);
  const char *role = jstr(c, "role");
  if (role && !strcmp(role, "consequence"))
    put(h, "<br><span class=\"dim\" title=\"Its callees all grew in "
           "proportion: more of the same work, as when it is called more "
           "often or given more to do by a change elsewhere. Ranked after "
           "the roots.\">consequence</span>");
  put(h, "</td>");
  html_td_num(h, c, "old_ms", HTML_MS);
  html_td_num(h, c, "new_ms", HTML_MS);
  html_td_num(h, c, "delta_ms", HTML_DELTA);
  html_td_per_pair(h, c);
  put(h, "<td>");
  html_path(h, jarr(c, "path"));
  const char *ev = jstr(c, "evidence");
  if (ev) { /* what V8's call counts say (issue 35) */
    put(h, "<br><span class=\"calls\">calls: ");
    html_esc(h, ev);
    put(h, "</span>");
  }
  put(h, "</td></tr>\n");
}

/* The minor causes (report.json's minor_causes): slower by μ in every
 * pair, under the share of the largest cause, listed in one line. */
static void html_minor(struct html *h) {
  const cJSON *mc = jarr(h->r, "minor_causes"), *e;
  if (cJSON_GetArraySize(mc) <= 0) return;
  double share = 0;
  jnum(jobj(h->r, "options"), "minor_share", &share);
  putf(h,
       "<p class=\"dim\" id=\"minor\">Also slower, each under %.0f %% of "
       "the largest cause, so not named: ",
       share * 100);
  int k = 0;
  cJSON_ArrayForEach(e, mc) {
    if (k++) put(h, ", ");
    put(h, "<code>");
    html_esc(h, jstr(e, "name") ? jstr(e, "name") : "");
    put(h, "</code> (");
    html_jnum(h, jget(e, "delta_ms"), HTML_DELTA);
    put(h, " ms)");
  }
  put(h, ".</p>\n");
}

static void html_causes(struct html *h) {
  const cJSON *rc = jarr(h->r, "regression_causes");
  put(h, "<section id=\"causes\">\n<h2>Regression-causes</h2>\n");
  int n = cJSON_GetArraySize(rc);
  if (n <= 0) {
    put(h, rc ? "<p>None.</p>\n" : "<p>Not in the report.</p>\n");
    put(h, "</section>\n");
    return;
  }
  put(h, "<p class=\"dim\">Roots ranked by Δ, then their consequences: "
         "times are means over the pairs a function is in.</p>\n");
  html_table(h,
             "<th class=\"n\">#</th><th>function</th><th>source</th>"
             "<th>status</th><th class=\"n\">old ms</th>"
             "<th class=\"n\">new ms</th><th class=\"n\">Δ ms</th>"
             "<th class=\"n\">Δ per pair</th><th>call path</th>",
             rc, HTML_CAUSES_MAX, html_cause_row);
  if (n > HTML_CAUSES_MAX)
    putf(h,
         "<p class=\"dim\">The first %d of %d; all are in " ZC_OUT_REPORT
         ".</p>\n",
         HTML_CAUSES_MAX, n);
  html_minor(h);
  put(h, "</section>\n");
}

static void html_spread_row(struct html *h, const cJSON *c, int i) {
  const cJSON *e;
  (void)i;
  put(h, "<tr>");
  html_td_num(h, c, "rank", HTML_COUNT);
  put(h, "<td>");
  html_name(h, c);
  html_seen(h, c);
  put(h, "</td><td>");
  html_where(h, c, 1);
  put(h, "</td>");
  html_td_num(h, c, "old_self_ms", HTML_MS);
  html_td_num(h, c, "new_self_ms", HTML_MS);
  html_td_num(h, c, "delta_ms", HTML_DELTA);
  html_td_per_pair(h, c);
  html_td_num(h, c, "call_paths", HTML_COUNT);
  put(h, "<td>");
  int first = 1;
  cJSON_ArrayForEach(e, jarr(c, "costliest_paths")) {
    if (!cJSON_IsObject(e)) continue;
    put(h, first ? "" : "<br>");
    html_jnum(h, jget(e, "delta_ms"), HTML_DELTA);
    put(h, " ");
    html_path(h, jarr(e, "path"));
    first = 0;
  }
  if (first) html_dash(h);
  put(h, "</td></tr>\n");
}

/* The spread-out causes, when there are any: functions slower by μ over
 * all their call paths together, with the costliest paths. */
static void html_spread(struct html *h) {
  const cJSON *rc = jarr(h->r, "spread_causes");
  if (cJSON_GetArraySize(rc) <= 0) return;
  put(h, "<section id=\"spread\">\n<h2>Spread-out regression-causes</h2>\n"
         "<p class=\"dim\">Functions whose self time, summed over all their "
         "call paths, got slower by at least μ, though no path alone did. "
         "Δ is the mean of the per-pair changes.</p>\n");
  html_table(h,
             "<th class=\"n\">#</th><th>function</th><th>source</th>"
             "<th class=\"n\">old ms</th><th class=\"n\">new ms</th>"
             "<th class=\"n\">Δ ms</th><th class=\"n\">Δ per pair</th>"
             "<th class=\"n\">call paths</th>"
             "<th>costliest paths (Δ ms)</th>",
             rc, HTML_CAUSES_MAX, html_spread_row);
  put(h, "</section>\n");
}

/* One change of a release (report.json's changes[]): its function (or
 * the hunks outside functions), file and lines, what became of it, its
 * impact set's Δ with its interval, the set's size, its commits. */
static void html_change_row(struct html *h, const cJSON *c, int i) {
  const char *fn = jstr(c, "function"), *st = jstr(c, "status");
  const cJSON *e;
  double line;
  putf(h, "<tr><td class=\"n\">%d</td><td>", i);
  if (fn) {
    put(h, "<code>");
    html_esc(h, fn);
    put(h, "</code>");
  } else {
    put(h, "<span class=\"dim\">outside functions</span>");
  }
  put(h, "</td><td><span class=\"loc\">");
  html_esc(h, jstr(c, "file") ? jstr(c, "file") : "");
  if (jnum(c, "line", &line)) putf(h, ":%.0f", line);
  put(h, "</span></td><td>");
  html_esc(h, st ? st : "");
  put(h, "</td><td class=\"n\">");
  html_jnum(h, jget(c, "delta_ms"), HTML_DELTA);
  html_ci(h, c, HTML_DELTA);
  if (jbool(c, "significant")) put(h, " ✱");
  put(h, "</td>");
  html_td_num(h, c, "delta_with_nested_ms", HTML_DELTA);
  html_td_num(h, c, "impact_set", HTML_COUNT);
  put(h, "<td><span class=\"loc\">");
  int k = 0;
  cJSON_ArrayForEach(e, jarr(c, "commits")) {
    if (!cJSON_IsString(e)) continue;
    if (k++) put(h, " ");
    putf(h, "%.10s", e->valuestring);
  }
  put(h, "</span></td></tr>\n");
}

/* The changes of a release ranked by their impact sets (--changes). */
static void html_changes(struct html *h) {
  const cJSON *rc = jarr(h->r, "changes");
  if (!rc) return;
  put(h, "<section id=\"changes\">\n<h2>Changes ");
  html_esc(h, jstr(h->r, "changes_range") ? jstr(h->r, "changes_range") : "");
  put(h, ", ranked by their impact set</h2>\n<p class=\"dim\">Each changed "
         "function's impact set is the function and everything under it on "
         "the call paths through it, in both builds, but what runs under "
         "another changed function; Δ is its time's change, the mean of the "
         "per-pair changes with its 95 % interval (✱: above 0). A function "
         "that never ran is not reached; lines in no function are not "
         "ranked.</p>\n");
  html_table(h,
             "<th class=\"n\">#</th><th>function</th><th>source</th>"
             "<th>status</th><th class=\"n\">Δ ms</th>"
             "<th class=\"n\">with nested changes</th>"
             "<th class=\"n\">impact set</th><th>commits</th>",
             rc, 200, html_change_row);
  put(h, "</section>\n");
}

/* mean [ci] of one side of an end-to-end figure; values as tooltip. */
static void html_e2e_side(struct html *h, const cJSON *o, enum html_fmt f) {
  const cJSON *vals = jarr(o, "values"), *v;
  put(h, "<td class=\"n\"");
  if (cJSON_GetArraySize(vals) > 0) {
    put(h, " title=\"runs:");
    int i = 0;
    cJSON_ArrayForEach(v, vals) {
      if (i++ == 100) break;
      put(h, " ");
      html_attr_num(h, v, HTML_MS);
    }
    put(h, "\"");
  }
  put(h, ">");
  html_jnum(h, jget(o, "mean"), f);
  html_ci(h, o, f);
  put(h, "</td>");
}

/* An end-to-end row's figures, after its name cells. */
static void html_e2e_figures(struct html *h, const cJSON *m) {
  const cJSON *d = jobj(m, "delta");
  html_e2e_side(h, jobj(m, "old"), HTML_MS);
  html_e2e_side(h, jobj(m, "new"), HTML_MS);
  html_e2e_side(h, d, HTML_DELTA);
  put(h, "<td class=\"n\">");
  double pct;
  if (jnum(d, "pct", &pct)) {
    html_num(h, pct, HTML_DELTA);
    put(h, " %");
  } else {
    html_dash(h);
  }
  int sig = jbool(m, "significant");
  put(h, "</td><td>");
  if (sig < 0)
    html_dash(h);
  else
    put(h, sig ? "<strong>yes</strong>" : "no");
  put(h, "</td></tr>\n");
}

static void html_e2e_metric(struct html *h, const cJSON *m, int i) {
  const char *label = jstr(m, "label"), *name = jstr(m, "name");
  const char *unit = jstr(m, "unit");
  (void)i;
  put(h, "<tr><td>");
  if (label || name)
    html_esc(h, label ? label : name);
  else
    html_dash(h);
  put(h, "</td><td>");
  if (unit) html_esc(h, unit);
  put(h, "</td>");
  html_e2e_figures(h, m);
}

static void html_e2e_step(struct html *h, const cJSON *m, int i) {
  const char *type = jstr(m, "type");
  (void)i;
  put(h, "<tr>");
  html_td_num(h, m, "step", HTML_COUNT);
  put(h, "<td>");
  if (type)
    html_esc(h, type);
  else
    html_dash(h);
  put(h, "</td>");
  html_e2e_figures(h, m);
}

/* The figures' header cells, after the name columns. */
#define HTML_E2E_COLS                                                          \
  "<th class=\"n\">old: mean [95% CI]</th>"                                    \
  "<th class=\"n\">new: mean [95% CI]</th>"                                    \
  "<th class=\"n\">Δ [95% CI]</th><th class=\"n\">Δ %</th>"                  \
  "<th>significant</th>"

static void html_e2e(struct html *h) {
  const cJSON *e = jobj(h->r, "end_to_end");
  const cJSON *metrics = jarr(e, "metrics"), *steps = jarr(e, "steps");
  put(h, "<section id=\"end-to-end\">\n<h2>End to end</h2>\n");
  if (cJSON_GetArraySize(metrics) <= 0 && cJSON_GetArraySize(steps) <= 0) {
    const char *cmd = jstr(h->r, "command");
    put(h, cmd && !strcmp(cmd, "compare")
               ? "<p class=\"dim\">Not measured: zamcap compare reads saved "
                 "traces, which hold no end-to-end figures.</p>\n"
               : "<p class=\"dim\">Not in the report.</p>\n");
    put(h, "</section>\n");
    return;
  }
  unsigned pairs = jcount(e, "pairs");
  if (pairs) putf(h, "<p class=\"dim\">Over %u pairs.</p>\n", pairs);
  if (cJSON_GetArraySize(metrics) > 0)
    html_table(h, "<th>metric</th><th>unit</th>" HTML_E2E_COLS, metrics,
               HTML_ROWS_MAX, html_e2e_metric);
  if (cJSON_GetArraySize(steps) > 0) {
    put(h, "<h3>Per step (ms)</h3>\n");
    html_table(h, "<th class=\"n\">step</th><th>type</th>" HTML_E2E_COLS, steps,
               HTML_ROWS_MAX, html_e2e_step);
  }
  put(h, "</section>\n");
}

/* A vital's number: CLS (no unit) with 4 places, times with 1. */
static void html_vital_num(struct html *h, const cJSON *v, int cls, int d) {
  double x;
  if (!jnum_of(v, &x)) {
    put(h, "<span class=\"dim\">missing</span>");
    return;
  }
  if (d && x != 0) putf(h, "<span class=\"%s\">", x > 0 ? "up" : "down");
  putf(h, d ? "%+.*f" : "%.*f", cls ? 4 : 1, x);
  if (d && x != 0) put(h, "</span>");
}

static void html_vital_row(struct html *h, const cJSON *r, int i) {
  const char *unit = jstr(r, "unit"), *metric = jstr(r, "metric");
  const char *type = jstr(r, "type");
  const cJSON *ci = jarr(r, "ci95");
  int cls = !unit || !*unit;
  (void)i;
  put(h, "<tr><td>");
  html_esc(h, metric ? metric : "?");
  if (unit && *unit) {
    put(h, " <span class=\"dim\">");
    html_esc(h, unit);
    put(h, "</span>");
  }
  put(h, "</td><td>");
  if (cJSON_IsNumber(jget(r, "step"))) {
    html_num(h, cJSON_GetNumberValue(jget(r, "step")), HTML_COUNT);
    put(h, " ");
    if (type) html_esc(h, type);
  } else {
    put(h, "whole run");
  }
  put(h, "</td><td class=\"n\">");
  html_vital_num(h, jget(r, "old"), cls, 0);
  put(h, "</td><td class=\"n\">");
  html_vital_num(h, jget(r, "new"), cls, 0);
  put(h, "</td><td class=\"n\">");
  html_vital_num(h, jget(r, "delta"), cls, 1);
  if (cJSON_GetArraySize(ci) == 2) {
    put(h, " <span class=\"ci\">[");
    html_vital_num(h, cJSON_GetArrayItem(ci, 0), cls, 0);
    put(h, ", ");
    html_vital_num(h, cJSON_GetArrayItem(ci, 1), cls, 0);
    put(h, "]</span>");
  }
  put(h, "</td><td>");
  put(h, jbool(r, "significant") > 0 ? "<strong>yes</strong>" : "no");
  put(h, "</td></tr>\n");
}

/* Web vitals, beside the end-to-end step table: the whole run's, then
 * each step's; the warnings of what is missing. */
static void html_vitals(struct html *h) {
  const cJSON *rows = jarr(h->r, "vitals"), *w;
  if (cJSON_GetArraySize(rows) <= 0) return;
  put(h, "<section id=\"vitals\">\n<h2>Web vitals</h2>\n");
  html_table(h,
             "<th>vital</th><th>step</th><th class=\"n\">old: mean</th>"
             "<th class=\"n\">new: mean</th>"
             "<th class=\"n\">Δ [95% CI]</th><th>significant</th>",
             rows, HTML_ROWS_MAX, html_vital_row);
  const cJSON *warn = jarr(h->r, "vitals_warnings");
  if (cJSON_GetArraySize(warn) > 0) {
    put(h, "<ul class=\"dim\">\n");
    cJSON_ArrayForEach(w, warn) {
      if (!cJSON_IsString(w)) continue;
      put(h, "<li>");
      html_esc(h, w->valuestring);
      put(h, "</li>\n");
    }
    put(h, "</ul>\n");
  }
  put(h, "</section>\n");
}

static void html_alloc_row(struct html *h, const cJSON *c, int i) {
  (void)i;
  put(h, "<tr>");
  html_td_num(h, c, "rank", HTML_COUNT);
  put(h, "<td>");
  html_name(h, c);
  put(h, "</td><td>");
  html_where(h, c, 1);
  put(h, "</td>");
  html_td_num(h, c, "old_kb", HTML_MS);
  html_td_num(h, c, "new_kb", HTML_MS);
  html_td_num(h, c, "delta_kb", HTML_DELTA);
  html_td_pairs(h, c, "delta_kb_per_pair");
  put(h, "<td>");
  html_path(h, jarr(c, "path"));
  put(h, "</td></tr>\n");
}

/* What a flame graph weighs, in the words of its section. */
struct html_flame_kind {
  const char *id;    /* the section's */
  const char *title; /* its heading, an <h2> or (within a section) <h3> */
  int h3;
  const char *text; /* what a frame's width and colour are */
  const char *all;  /* where the paths left out are */
};
static void html_flame(struct html *h, const cJSON *fl,
                       const struct html_flame_kind *k);

static const struct html_flame_kind html_flame_alloc = {
    .id = "alloc-flame",
    .title = "Where the bytes were allocated",
    .h3 = 1,
    .text = "The new build's allocations by call path, merged over its "
            "memory runs: a frame's width is the KB allocated in it and its "
            "callees per run in the new build, its colour the change against "
            "the old one (red more, blue less, grey about the same); "
            "outlined: the allocation critical graph's paths, in black its "
            "regression-causes. Click a frame to zoom into it; hover for the "
            "figures (means per run).",
    .all = "old.heapprofile and new.heapprofile hold them all",
};

/* Allocation per call path (--memory), when the report has it: the
 * headline, the allocation regression-causes, in KB per run, and the
 * flame graph in KB. */
static void html_allocation(struct html *h) {
  const cJSON *a = jobj(h->r, "allocation");
  if (!a) return;
  const char *head = jstr(a, "headline");
  const cJSON *rc = jarr(a, "regression_causes");
  put(h, "<section id=\"allocation\">\n<h2>Allocation</h2>\n<p>");
  if (head)
    html_esc(h, head);
  else
    html_dash(h);
  put(h, "</p>\n<p class=\"dim\">Bytes allocated per run, in KB, from "
         "sampling heap profiles (zamcap records them in memory pairs of "
         "their own, objects the GC took included); the retained memory is "
         "in the end-to-end table. Each build's merged profile: ");
  html_link(h, "old.heapprofile", "old.heapprofile");
  put(h, ", ");
  html_link(h, "new.heapprofile", "new.heapprofile");
  put(h, " (DevTools' Memory panel opens them).</p>\n");
  if (cJSON_GetArraySize(rc) > 0)
    html_table(h,
               "<th class=\"n\">#</th><th>function</th><th>source</th>"
               "<th class=\"n\">old KB</th><th class=\"n\">new KB</th>"
               "<th class=\"n\">Δ KB</th><th class=\"n\">Δ per pair</th>"
               "<th>call path</th>",
               rc, HTML_CAUSES_MAX, html_alloc_row);
  html_flame(h, jobj(a, "flame"), &html_flame_alloc);
  put(h, "</section>\n");
}

static void html_bottomup_row(struct html *h, const cJSON *r, int i) {
  const char *kind = jstr(r, "kind");
  putf(h, "<tr><td class=\"n\">%d</td><td>", i);
  html_name(h, r);
  put(h, "</td><td>");
  html_where(h, r, 1);
  put(h, "</td><td>");
  if (kind) html_esc(h, kind);
  put(h, "</td>");
  html_td_num(h, r, "old_self_ms", HTML_MS);
  html_td_num(h, r, "new_self_ms", HTML_MS);
  html_td_num(h, r, "delta_ms", HTML_DELTA);
  put(h, "</tr>\n");
}

static void html_bottomup(struct html *h) {
  const cJSON *bu = jobj(h->r, "bottom_up"), *rows = jarr(bu, "rows");
  put(h, "<section id=\"bottom-up\">\n<h2>Bottom-up: self time by "
         "function</h2>\n");
  int n = cJSON_GetArraySize(rows);
  if (n <= 0) {
    put(h, "<p>Not in the report.</p>\n</section>\n");
    return;
  }
  unsigned total = jcount(bu, "functions");
  int shown = n < HTML_BOTTOMUP_MAX ? n : HTML_BOTTOMUP_MAX;
  putf(h,
       "<p class=\"dim\">Self time summed over each whole timeline, "
       "old vs new, largest Δ first: what finds a slowdown spread over "
       "many functions. The first %d",
       shown);
  if (total) putf(h, " of %u functions", total);
  put(h, ".</p>\n");
  html_table(h,
             "<th class=\"n\">#</th><th>function</th><th>source</th>"
             "<th>kind</th><th class=\"n\">old self ms</th>"
             "<th class=\"n\">new self ms</th><th class=\"n\">Δ ms</th>",
             rows, HTML_BOTTOMUP_MAX, html_bottomup_row);
  put(h, "</section>\n");
}

/* A two-column table of an object's fields, in their order. */
static void html_kv(struct html *h, const char *title, const cJSON *o) {
  const cJSON *v;
  if (!cJSON_IsObject(o) || !o->child) return;
  putf(h, "<h3>%s</h3>\n<table>\n", title);
  cJSON_ArrayForEach(v, o) {
    put(h, "<tr><th>");
    html_esc(h, v->string ? v->string : "");
    put(h, "</th><td>");
    html_value(h, v);
    put(h, "</td></tr>\n");
  }
  put(h, "</table>\n");
}

static void html_kv_row(struct html *h, const char *k, const cJSON *v) {
  if (!v) return;
  putf(h, "<tr><th>%s</th><td>", k);
  html_value(h, v);
  put(h, "</td></tr>\n");
}

static void html_run_row(struct html *h, const cJSON *r, int i) {
  const char *st = jstr(r, "status"), *b = jstr(r, "build");
  const char *err = jstr(r, "error"), *fail = jstr(r, "failure");
  (void)i;
  put(h, "<tr>");
  html_td_num(h, r, "pair", HTML_COUNT);
  put(h, "<td>");
  if (b) html_esc(h, b);
  put(h, "</td>");
  html_td_num(h, r, "attempt", HTML_COUNT);
  putf(h, "<td%s>", st && strcmp(st, "ok") ? " class=\"up\"" : "");
  if (st)
    html_esc(h, st);
  else
    html_dash(h);
  put(h, "</td>");
  html_td_num(h, r, "ms", HTML_MS);
  put(h, "<td>");
  html_file(h, jstr(r, "trace"), ZC_OUT_TRACES);
  put(h, "</td><td>");
  if (err) html_esc(h, err);
  if (fail) {
    put(h, err ? " <span class=\"dim\">screenshot:</span> " : "");
    html_file(h, fail, ZC_OUT_FAILURES);
  }
  if (!err && !fail) html_dash(h);
  put(h, "</td></tr>\n");
}

static void html_runs(struct html *h) {
  const cJSON *runs = jarr(h->r, "runs");
  if (cJSON_GetArraySize(runs) <= 0) return;
  put(h, "<h3>Runs</h3>\n");
  html_table(h,
             "<th class=\"n\">pair</th><th>build</th>"
             "<th class=\"n\">attempt</th><th>status</th>"
             "<th class=\"n\">ms</th><th>trace</th><th>error</th>",
             runs, HTML_ROWS_MAX, html_run_row);
}

/* A pair's trace: in a capture's report, a link to traces/<name>. */
static void html_pair_trace(struct html *h, const char *s) {
  const char *dirs[] = {ZC_OUT_TRACES};
  const ptrdiff_t tn = (ptrdiff_t)strlen(ZC_OUT_TRACES);
  const char *base = s ? strrchr(s, '/') : NULL;
  char rel[256];
  if (h->has_runs && base && base - s >= tn &&
      !strncmp(base - tn, ZC_OUT_TRACES, (size_t)tn) &&
      (base - s == tn || base[-tn - 1] == '/') &&
      snprintf(rel, sizeof rel, ZC_OUT_TRACES "%s", base) < (int)sizeof rel &&
      html_rel_ok(rel, dirs, 1)) {
    html_link(h, rel, rel);
    return;
  }
  if (!s || !*s) {
    html_dash(h);
    return;
  }
  put(h, "<span class=\"loc\">");
  html_esc(h, s);
  put(h, "</span>");
}

static void html_pair_row(struct html *h, const cJSON *p, int i) {
  (void)i;
  put(h, "<tr>");
  html_td_num(h, p, "pair", HTML_COUNT);
  put(h, "<td>");
  html_pair_trace(h, jstr(p, "old_trace"));
  put(h, "</td><td>");
  html_pair_trace(h, jstr(p, "new_trace"));
  put(h, "</td>");
  html_td_num(h, p, "old_nodes", HTML_COUNT);
  html_td_num(h, p, "new_nodes", HTML_COUNT);
  html_td_num(h, p, "graph_nodes", HTML_COUNT);
  html_td_num(h, p, "causes", HTML_COUNT);
  put(h, "<td>");
  html_file(h, jstr(p, "dot"), ZC_OUT_PAIRS);
  put(h, "</td></tr>\n");
}

static void html_pairs(struct html *h) {
  const cJSON *pairs = jarr(h->r, "pairs");
  if (cJSON_GetArraySize(pairs) <= 0) return;
  put(h, "<h3>Pairs compared</h3>\n");
  html_table(h,
             "<th class=\"n\">pair</th><th>old trace</th><th>new trace</th>"
             "<th class=\"n\">old nodes</th><th class=\"n\">new nodes</th>"
             "<th class=\"n\">graph nodes</th><th class=\"n\">causes</th>"
             "<th>graph</th>",
             pairs, HTML_ROWS_MAX, html_pair_row);
}

static void html_details(struct html *h) {
  const cJSON *r = h->r, *env = jobj(r, "environment"), *flag;
  put(h, "<section id=\"details\">\n<h2>Run details</h2>\n<h3>Report</h3>\n"
         "<table>\n");
  html_kv_row(h, "zamcap", jget(r, "zamcap_version"));
  html_kv_row(h, "built from", jget(r, "zamcap_commit"));
  html_kv_row(h, "command", jget(r, "command"));
  html_kv_row(h, "schema", jget(r, "schema"));
  html_kv_row(h, "exit code", jget(jobj(r, "verdict"), "exit_code"));
  html_kv_row(h, "comparison ms", jget(r, "elapsed_ms"));
  const char *dot = jstr(jobj(r, "aggregate"), "dot");
  if (dot) {
    const char *dirs[] = {""};
    put(h, "<tr><th>graph (DOT)</th><td>");
    if (html_rel_ok(dot, dirs, 1))
      html_link(h, dot, dot);
    else
      html_esc(h, dot);
    put(h, "</td></tr>\n");
  }
  put(h, "</table>\n");
  html_kv(h, "Options", jobj(r, "options"));
  html_kv(h, "Inputs", jobj(r, "inputs"));
  if (env) {
    put(h, "<h3>Environment</h3>\n<table>\n");
    html_kv_row(h, "browser", jget(env, "chrome"));
    const cJSON *flags = jarr(env, "chrome_flags");
    if (flags) {
      put(h, "<tr><th>browser flags</th><td>");
      int i = 0;
      cJSON_ArrayForEach(flag, flags) {
        if (i++ == HTML_ROWS_MAX) break;
        if (!cJSON_IsString(flag)) continue;
        put(h, "<code>");
        html_esc(h, flag->valuestring);
        put(h, "</code> ");
      }
      put(h, "</td></tr>\n");
    }
    const cJSON *mach = jobj(env, "machine"), *v;
    cJSON_ArrayForEach(v, mach) {
      put(h, "<tr><th>");
      html_esc(h, v->string ? v->string : "");
      put(h, "</th><td>");
      html_value(h, v);
      put(h, "</td></tr>\n");
    }
    put(h, "</table>\n");
  }
  html_runs(h);
  const cJSON *dropped = jarr(r, "dropped_pairs");
  if (cJSON_GetArraySize(dropped) > 0) {
    put(h, "<p>Dropped pairs: ");
    html_value(h, dropped);
    put(h, "</p>\n");
  }
  html_pairs(h);
  html_kv(h, "Matcher", jobj(r, "matcher"));
  put(h, "<p class=\"dim\">Levels matched by LCS and by the alternate "
         "(hash) matcher; lcs_timeouts counts the LCS runs that ran out of "
         "budget.</p>\n</section>\n");
}

/* ---- the flame graph ----
 * The one script of the page (report.js, embedded at build time), allowed
 * by a nonce drawn for this file: it reads report.json's "flame" columns
 * from a JSON data block (in which every '<', '>' and '&' is a \\u escape,
 * so no string can close it) and draws on a canvas: page text is never
 * markup here either (names go to fillText and textContent). */

/* A nonce for the script: 128 bits from the kernel; 0 when there is none
 * to be had (then no script, no flame graph). */
static int html_nonce(char *out, size_t cap) {
  unsigned char b[16];
  FILE *f = fopen("/dev/urandom", "rb");
  int ok = f && fread(b, 1, sizeof b, f) == sizeof b;
  if (f) fclose(f);
  if (!ok || cap < 2 * sizeof b + 1) return 0;
  for (size_t i = 0; i < sizeof b; i++)
    snprintf(out + 2 * i, 3, "%02x", b[i]);
  return 1;
}

/* A JSON value inside <script type="application/json">: '<', '>' and '&'
 * as \\u escapes (they occur only inside strings). */
static void html_json_data(struct html *h, const cJSON *v) {
  char *s = cJSON_PrintUnformatted(v);
  if (!s) return;
  for (const char *p = s; *p; p++) {
    if (*p == '<')
      put(h, "\\u003c");
    else if (*p == '>')
      put(h, "\\u003e");
    else if (*p == '&')
      put(h, "\\u0026");
    else
      fputc(*p, h->f);
  }
  free(s);
}

/* A flame graph's data whole: its unit (none is ms, else "KB") and its
 * columns, all of a length, of numbers. */
static int html_flame_ok(const cJSON *fl) {
  const cJSON *u = jget(fl, "unit");
  const char *key = !u                                    ? "ms"
                    : !cJSON_IsString(u)                  ? NULL
                    : !strcmp(u->valuestring, "ms")       ? "ms"
                    : !strcmp(u->valuestring, "KB")       ? "kb"
                    : !strcmp(u->valuestring, "requests") ? "requests"
                                                          : NULL;
  if (!key) return 0;
  char oldc[16], newc[16];
  snprintf(oldc, sizeof oldc, "old_%s", key);
  snprintf(newc, sizeof newc, "new_%s", key);
  const char *const cols[] = {"parent", "name", "file", "line",
                              oldc,     newc,   "flag"};
  int n = cJSON_GetArraySize(jarr(fl, "parent"));
  if (n <= 0 || !jarr(fl, "names")) return 0;
  for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
    const cJSON *a = jarr(fl, cols[c]), *e;
    if (cJSON_GetArraySize(a) != n) return 0;
    int k = 0;
    cJSON_ArrayForEach(e, a) {
      if (!cJSON_IsNumber(e)) return 0;
      /* parents come first: an index below its own, or -1 */
      if (c == 0 && !(e->valuedouble >= -1 && e->valuedouble < k)) return 0;
      k++;
    }
  }
  return 1;
}

static const struct html_flame_kind html_flame_time = {
    .id = "flame",
    .title = "Where the time went",
    .text = "The new build's call tree, merged over its runs: a frame's "
            "width is its time in the new build, its colour the change "
            "against the old one (red slower, blue faster, grey about the "
            "same); outlined: the critical graph's paths, in black its "
            "regression-causes. Click a frame to zoom into it; hover for the "
            "figures (means per run).",
    .all = ZC_OUT_REPORT "'s folded exports hold them all",
};

/* A flame graph's section, for the script (html_flame_script) to draw:
 * its elements are found by class within it. */
static void html_flame(struct html *h, const cJSON *fl,
                       const struct html_flame_kind *k) {
  if (!html_flame_ok(fl) || !h->nonce[0]) return;
  putf(h, "<%s id=\"%s\" class=\"flame\">\n<%s>%s</%s>\n",
       k->h3 ? "div" : "section", k->id, k->h3 ? "h3" : "h2", k->title,
       k->h3 ? "h3" : "h2");
  putf(h,
       "<p class=\"dim\">%s</p>\n<div class=\"flbar\">"
       "<input class=\"fl-q\" type=\"search\" placeholder=\"search "
       "functions\" aria-label=\"search functions\"> <span "
       "class=\"fl-n\"></span> <button class=\"fl-reset\" "
       "type=\"button\">reset zoom</button></div>\n<canvas class=\"fl-c\" "
       "aria-label=\"flame graph\"></canvas>\n<div class=\"fl-tip\" "
       "hidden></div>\n",
       k->text);
  double left;
  if (jnum(fl, "left_out", &left) && left > 0)
    putf(h,
         "<p class=\"dim\">The %.0f smallest call paths are left out "
         "(%s).</p>\n",
         left, k->all);
  put(h, "<script type=\"application/json\" class=\"fl-data\">");
  html_json_data(h, fl);
  putf(h, "</script>\n</%s>\n", k->h3 ? "div" : "section");
  h->flames++;
}

/* The script that draws every flame graph, once, after them all. */
static void html_flame_script(struct html *h) {
  if (!h->flames) return;
  putf(h, "<script nonce=\"%s\">\n", h->nonce);
  fwrite(ana__html_js, 1, ana__html_js_len, h->f);
  put(h, "\n</script>\n");
}

/* ---- I/O per call path (report.json's io, issue 36) ---- */

static const struct html_flame_kind html_flame_io = {
    .id = "io-flame",
    .title = "Where the requests came from",
    .h3 = 1,
    .text = "The new build's requests by call path, merged over its I/O "
            "runs: a frame's width is the requests made in it and its "
            "callees per run in the new build, its colour the change "
            "against the old one (red more, blue fewer, grey about the "
            "same); outlined: the requests' critical graph's paths, in "
            "black its regression-causes. Click a frame to zoom into it; "
            "hover for the figures (means per run).",
    .all = ZC_OUT_REPORT "'s io.steps hold every URL pattern",
};

/* "a → b" of two fields. */
static void html_td_arrow(struct html *h, const cJSON *o, const char *a,
                          const char *b) {
  put(h, "<td class=\"n\">");
  html_jnum(h, jget(o, a), HTML_COUNT);
  put(h, " → ");
  html_jnum(h, jget(o, b), HTML_COUNT);
  put(h, "</td>");
}

static void html_io_cause_row(struct html *h, const cJSON *c, int i) {
  (void)i;
  const cJSON *calls = jobj(c, "calls"), *pc = jobj(c, "per_call");
  put(h, "<tr>");
  html_td_num(h, c, "rank", HTML_COUNT);
  put(h, "<td>");
  html_esc(h, jstr(c, "measure") ? jstr(c, "measure") : "");
  put(h, "</td>");
  html_td_num(h, c, "delta", HTML_DELTA);
  put(h, "<td>");
  html_name(h, c);
  put(h, "<br><span class=\"dim\">");
  html_esc(h, jstr(c, "what") ? jstr(c, "what") : "");
  put(h, "</span></td>");
  html_td_arrow(h, calls, "old", "new");
  html_td_arrow(h, pc, "old_kb", "new_kb");
  put(h, "<td class=\"n\">");
  html_jnum(h, jget(c, "runs_seen"), HTML_COUNT);
  put(h, "/");
  html_jnum(h, jget(c, "runs"), HTML_COUNT);
  put(h, "</td>");
  html_td_num(h, c, "similarity", HTML_MS);
  html_td_pairs(h, c, "delta_per_pair");
  put(h, "<td>");
  html_path(h, jarr(c, "path"));
  html_seen(h, c);
  put(h, "</td></tr>\n");
}

static void html_io_row(struct html *h, const cJSON *r, int i) {
  (void)i;
  double step;
  put(h, "<tr><td>");
  if (jnum(r, "step", &step))
    putf(h, "%.0f ", step);
  else
    put(h, "run ");
  html_esc(h, jstr(r, "type") ? jstr(r, "type") : "");
  put(h, "</td><td>");
  html_esc(h, jstr(r, "metric") ? jstr(r, "metric") : "");
  put(h, "</td>");
  html_td_num(h, r, "old", HTML_MS);
  html_td_num(h, r, "new", HTML_MS);
  html_td_num(h, r, "delta", HTML_DELTA);
  put(h, "<td class=\"n\">");
  const cJSON *ci = jarr(r, "ci95");
  if (cJSON_GetArraySize(ci) == 2) {
    html_jnum(h, cJSON_GetArrayItem(ci, 0), HTML_DELTA);
    put(h, " to ");
    html_jnum(h, cJSON_GetArrayItem(ci, 1), HTML_DELTA);
  } else {
    html_dash(h);
  }
  put(h, jbool(r, "significant") ? "</td><td><strong>yes</strong></td></tr>\n"
                                 : "</td><td>no</td></tr>\n");
}

/* One row of a step's requests: what was asked, old → new a run. */
static void html_io_req(struct html *h, const cJSON *r, int i) {
  (void)i;
  put(h, "<tr><td><code>");
  html_esc(h, jstr(r, "what") ? jstr(r, "what") : "");
  put(h, "</code></td>");
  html_td_arrow(h, r, "old", "new");
  html_td_num(h, r, "delta", HTML_DELTA);
  html_td_arrow(h, r, "old_kb", "new_kb");
  html_td_arrow(h, r, "old_cached", "new_cached");
  html_td_arrow(h, r, "old_failed", "new_failed");
  html_td_arrow(h, r, "old_ms", "new_ms");
  put(h, "</tr>\n");
}

/* I/O per call path (--io), when the report has it: the headline, the
 * causes with SPECTRAPERF's columns, the rows, each step's requests and
 * writes old → new, and the flame graph in requests. */
static void html_io(struct html *h) {
  const cJSON *io = jobj(h->r, "io"), *st;
  if (!io) return;
  put(h, "<section id=\"io\">\n<h2>I/O</h2>\n<p>");
  html_esc(h, jstr(io, "headline") ? jstr(io, "headline") : "");
  put(h, "</p>\n<p class=\"dim\">Requests (from the traces, with the "
         "stacks DevTools gives) and storage writes (localStorage, "
         "IndexedDB, Cache Storage, cookies, beacons, WebSockets: from "
         "zamcap's wrapper) per call path, in I/O pairs of their own; "
         "values are means a run. Calls and KB a call are SPECTRAPERF's "
         "columns; runs: the new runs the path did it in; similarity: how "
         "many of them stayed in the old runs' range of KB a call (1 all, "
         "0 none).</p>\n");
  const cJSON *rc = jarr(io, "regression_causes");
  if (cJSON_GetArraySize(rc) > 0)
    html_table(h,
               "<th class=\"n\">#</th><th>measure</th><th class=\"n\">Δ a "
               "run</th><th>function, what it asked</th><th class=\"n\">"
               "calls old → new</th><th class=\"n\">KB a call old → "
               "new</th><th class=\"n\">runs</th><th class=\"n\">"
               "similarity</th><th class=\"n\">Δ per pair</th><th>call "
               "path</th>",
               rc, HTML_CAUSES_MAX, html_io_cause_row);
  html_table(h,
             "<th>step</th><th>metric</th><th class=\"n\">old</th><th "
             "class=\"n\">new</th><th class=\"n\">Δ</th><th class=\"n\">95% "
             "CI</th><th>significant</th>",
             jarr(io, "rows"), HTML_ROWS_MAX, html_io_row);
  cJSON_ArrayForEach(st, jarr(io, "steps")) {
    double k;
    if (!jnum(st, "step", &k)) continue;
    putf(h, "<h3>Step %.0f ", k);
    html_esc(h, jstr(st, "type") ? jstr(st, "type") : "");
    put(h, ": requests and writes, old → new a run</h3>\n");
    html_table(h,
               "<th>what</th><th class=\"n\">count</th><th class=\"n\">Δ"
               "</th><th class=\"n\">KB</th><th class=\"n\">cached</th><th "
               "class=\"n\">failed</th><th class=\"n\">ms each</th>",
               jarr(st, "rows"), HTML_ROWS_MAX, html_io_req);
  }
  html_flame(h, jobj(io, "flame"), &html_flame_io);
  put(h, "</section>\n");
}

static void html_page(struct html *h, const unsigned char *svg, size_t n,
                      const char *svg_note) {
  const cJSON *in = jobj(h->r, "inputs");
  const char *title = jstr(in, "title");
  put(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
         "\n<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
         "'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
         "form-action 'none'");
  if (h->nonce[0]) putf(h, "; script-src 'nonce-%s'", h->nonce);
  put(h, "\">\n<meta name=\"viewport\" content=\"width="
         "device-width, initial-scale=1\">\n<meta name=\"referrer\" content="
         "\"no-referrer\">\n<title>zamcap: ");
  html_headline(h, html_ncauses(h));
  if (title && *title) {
    put(h, " — ");
    html_esc(h, title);
  }
  put(h, "</title>\n<style>\n");
  fwrite(ana__html_css, 1, ana__html_css_len, h->f);
  put(h, "</style>\n</head>\n<body>\n<header>\n<h1>zamcap: old vs new");
  if (title && *title) {
    put(h, " — ");
    html_esc(h, title);
  }
  put(h, "</h1>\n");
  const char *scn = jstr(in, "scenario"), *cmd = jstr(h->r, "command");
  if (scn || cmd) {
    put(h, "<p class=\"dim\">");
    if (scn) {
      put(h, "scenario <span class=\"loc\">");
      html_esc(h, scn);
      put(h, "</span>");
    } else {
      put(h, "zamcap ");
      html_esc(h, cmd);
    }
    if (h->npairs) putf(h, ", %u pair%s", h->npairs, h->npairs == 1 ? "" : "s");
    if (!isnan(h->mu)) {
      put(h, ", μ = ");
      html_num(h, h->mu, HTML_COUNT);
      put(h, " ms");
    }
    put(h, "</p>\n");
  }
  put(h, "</header>\n");
  html_verdict(h);
  if (!h->alloc_only) {
    html_graph(h, svg, n, svg_note);
    html_flame(h, jobj(h->r, "flame"), &html_flame_time);
    html_causes(h);
    html_spread(h);
    html_changes(h);
  }
  html_e2e(h);
  html_vitals(h);
  html_allocation(h);
  html_io(h);
  if (!h->alloc_only) html_bottomup(h);
  html_details(h);
  html_flame_script(h);
  put(h, "</body>\n</html>\n");
}

struct page_arg {
  struct html *h;
  const unsigned char *svg;
  size_t svglen;
  const char *note;
};

static enum zc_err html_page_fn(void *arg, FILE *f) {
  struct page_arg *a = arg;
  a->h->f = f;
  html_page(a->h, a->svg, a->svglen, a->note);
  return ZC_OK; /* a failed write shows in ferror, which the caller checks */
}

enum zc_err ana_write_html(const cJSON *report, const char *svg_path,
                           const char *path) {
  if (!path) return zc_fail(ZC_E_USAGE, ZC_OUT_HTML ": no path given");
  if (!cJSON_IsObject(report))
    return zc_fail(ZC_E_PARSE, "%s: the report is not a JSON object", path);
  char *svg = NULL, note[512] = "";
  size_t svglen = 0;
  struct zc_errsave saved;
  zc_err_save(&saved);
  if (svg_path && zc_read_file(svg_path, HTML_SVG_MAX, &svg, &svglen)) {
    /* The page is still worth having: the graph becomes the tree, and
     * this is no error of the call's. */
    snprintf(note, sizeof note, "Not embedded: %s.", zc_errmsg());
    zc_log(1, "%s: the graph is drawn as a tree instead", zc_errmsg());
    zc_err_restore(&saved);
  }
  struct html h = {.r = report, .mu = NAN};
  const cJSON *p;
  cJSON_ArrayForEach(p, jarr(report, "pairs")) h.npairs += !!cJSON_IsObject(p);
  if (!h.npairs) h.npairs = jcount(jobj(report, "end_to_end"), "pairs");
  if (!h.npairs) h.npairs = jcount(jobj(report, "inputs"), "pairs");
  jnum(jobj(report, "options"), "mu_ms", &h.mu);
  h.has_runs = cJSON_GetArraySize(jarr(report, "runs")) > 0;
  /* heap profiles compared alone: the allocation is the whole report */
  h.alloc_only = jobj(report, "allocation") && !jget(report, "aggregate") &&
                 !jget(report, "regression_causes") && !jget(report, "flame");
  /* a script only for a flame graph, under a nonce of its own */
  if ((html_flame_ok(jobj(report, "flame")) ||
       html_flame_ok(jobj(jobj(report, "allocation"), "flame"))) &&
      !html_nonce(h.nonce, sizeof h.nonce))
    h.nonce[0] = '\0';

  struct page_arg pa = {.h = &h,
                        .svg = (const unsigned char *)svg,
                        .svglen = svglen,
                        .note = note[0] ? note : NULL};
  enum zc_err e = zc_write_atomic(path, html_page_fn, &pa);
  free(svg);
  return e;
}

enum zc_err ana_write_html_from(const char *outdir) {
  if (!outdir) return zc_fail(ZC_E_USAGE, "no output folder given");
  /* room for "/" and any of the three names (their sum is plenty) */
  size_t n =
      strlen(outdir) + sizeof "/" ZC_OUT_REPORT ZC_OUT_GRAPH_SVG ZC_OUT_HTML;
  char *json = zc_xmalloc(n), *svg = zc_xmalloc(n), *html = zc_xmalloc(n);
  snprintf(json, n, "%s/" ZC_OUT_REPORT, outdir);
  snprintf(svg, n, "%s/" ZC_OUT_GRAPH_SVG, outdir);
  snprintf(html, n, "%s/" ZC_OUT_HTML, outdir);
  char *text = NULL;
  size_t len = 0;
  cJSON *r = NULL;
  enum zc_err e = zc_read_file(json, HTML_REPORT_MAX, &text, &len);
  if (e) goto out;
  r = cJSON_ParseWithLength(text, len);
  if (!r) {
    const char *at = cJSON_GetErrorPtr();
    long off = at && at >= text && at <= text + len ? (long)(at - text) : -1;
    e = zc_fail(ZC_E_PARSE, "%s: not JSON (at byte %ld)", json, off);
    goto out;
  }
  struct stat st;
  int have_svg = stat(svg, &st) == 0 && S_ISREG(st.st_mode);
  e = ana_write_html(r, have_svg ? svg : NULL, html);
out:
  cJSON_Delete(r);
  free(text);
  free(json);
  free(svg);
  free(html);
  return e;
}
