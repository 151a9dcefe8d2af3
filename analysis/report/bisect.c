/* A bisection's reports, from the document the bisect command made:
 * report.json as it is, summary.md for a bug comment, report.html for a
 * browser. The culprit first, then the evidence. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"
#include "zc-out.h"

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A string member, "" when there is none. */
static const char *js(const cJSON *o, const char *k) {
  const char *s = jstr(o, k);
  return s ? s : "";
}

/* The i-th number of an array, -1 when there is none. */
static int jidx(const cJSON *a, int i) {
  const cJSON *v = cJSON_GetArrayItem(a, i);
  return cJSON_IsNumber(v) ? v->valueint : -1;
}

static double jnum(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const cJSON *jget(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* "+212.0 ms (95 % CI +180.3 to +243.1)" */
static void delta_text(const cJSON *o, char *out, size_t cap) {
  const cJSON *ci = jget(o, "ci95");
  double d = jnum(o, "delta_ms");
  if (cJSON_GetArraySize(ci) == 2)
    snprintf(out, cap, "%+.1f ms (95 %% CI %+.1f to %+.1f)", d,
             cJSON_GetArrayItem(ci, 0)->valuedouble,
             cJSON_GetArrayItem(ci, 1)->valuedouble);
  else if (!isnan(d))
    snprintf(out, cap, "%+.1f ms", d);
  else
    snprintf(out, cap, "n/a");
}

/* One row of the steps table: a step (kind, its two builds, pairs) and
 * one cause's Δ text and verdict there. */
struct step_row {
  const char *kind, *verdict;
  int from, to, pairs, cause;
  char delta[160];
};

/* Calls row for each (step, cause) of the document, in order. */
static void each_step_row(const cJSON *doc, FILE *f,
                          void (*row)(FILE *f, const struct step_row *r)) {
  const cJSON *e, *c;
  cJSON_ArrayForEach(e, jget(doc, "steps")) {
    const cJSON *b = jget(e, "builds");
    cJSON_ArrayForEach(c, jget(e, "causes")) {
      struct step_row r = {.kind = js(e, "kind"),
                           .verdict = js(c, "verdict"),
                           .from = jidx(b, 0),
                           .to = jidx(b, 1),
                           .pairs = (int)jnum(e, "pairs"),
                           .cause = (int)jnum(c, "cause")};
      delta_text(c, r.delta, sizeof r.delta);
      row(f, &r);
    }
  }
}

/* ---- summary.md ---- */

static void md_culprit(const cJSON *c, FILE *f) {
  char d[160];
  const cJSON *cause = jget(c, "cause"), *e;
  delta_text(c, d, sizeof d);
  fprintf(f, "- **Build %d** (", (int)jnum(c, "index"));
  ana_md_code(f, jstr(c, "build") ? jstr(c, "build") : "?");
  fprintf(f, ", after build %d): ", (int)jnum(c, "previous"));
  ana_md_code(f, jstr(cause, "label") ? jstr(cause, "label") : "?");
  fprintf(f, " %s\n", d);
  cJSON_ArrayForEach(e, jget(c, "causes")) {
    if (e == cJSON_GetArrayItem(jget(c, "causes"), 0)) continue;
    delta_text(e, d, sizeof d);
    fputs("  - also ", f);
    ana_md_code(f, jstr(e, "label") ? jstr(e, "label") : "?");
    fprintf(f, " %s\n", d);
  }
  int k = 0;
  cJSON_ArrayForEach(e, jget(c, "changed_functions")) {
    if (k++ == 0) fputs("  - changed functions, by self-time change:\n", f);
    if (k > 10) break;
    delta_text(e, d, sizeof d);
    fputs("    - ", f);
    ana_md_code(f, jstr(e, "name") ? jstr(e, "name") : "?");
    fputs(" (", f);
    ana_md_code(f, jstr(e, "file") ? jstr(e, "file") : "?");
    fprintf(f, ":%d) %s\n", (int)jnum(e, "line"), d);
  }
}

static void md_step_row(FILE *f, const struct step_row *r) {
  fprintf(f, "| %s | %d → %d | %d | %d | %s | %s |\n", r->kind, r->from, r->to,
          r->pairs, r->cause, r->delta, r->verdict);
}

static enum zc_err md_fn(void *arg, FILE *f) {
  const cJSON *doc = arg, *e;
  fputs("## zamcap bisect\n\n", f);
  ana_md_text(f, js(jget(doc, "verdict"), "text"));
  fputs("\n\n", f);
  cJSON_ArrayForEach(e, jget(doc, "culprits")) md_culprit(e, f);
  fputs("\n| step | builds | pairs | cause | Δ ms | verdict |\n"
        "|---|---|---|---|---|---|\n",
        f);
  each_step_row(doc, f, md_step_row);
  fprintf(f, "\n%d traced runs; the ends' own report: `%s`.\n",
          (int)jnum(jget(doc, "verdict"), "traced_runs"),
          "confirm/" ZC_OUT_SUMMARY);
  return ZC_OK;
}

/* ---- report.html ---- */

static void h(FILE *f, const char *s) {
  ana_html_text(f, s ? s : "");
}

static void html_culprit(const cJSON *c, FILE *f) {
  char d[160];
  const cJSON *cause = jget(c, "cause"), *e;
  delta_text(c, d, sizeof d);
  fprintf(f, "<section class=culprit><h2>Build %d: ", (int)jnum(c, "index"));
  h(f, jstr(c, "build"));
  fprintf(f, "</h2>\n<p>after build %d: <code>", (int)jnum(c, "previous"));
  h(f, jstr(cause, "label"));
  fputs("</code> ", f);
  h(f, d);
  fputs("</p>\n<ol class=path>", f);
  cJSON_ArrayForEach(e, jget(cause, "path")) {
    fputs("<li>", f);
    h(f, cJSON_IsString(e) ? e->valuestring : "");
    fputs("</li>", f);
  }
  fputs("</ol>\n", f);
  if (cJSON_GetArraySize(jget(c, "changed_functions"))) {
    fputs("<table><tr><th>changed function</th><th>file:line</th>"
          "<th>self-time change</th></tr>\n",
          f);
    cJSON_ArrayForEach(e, jget(c, "changed_functions")) {
      delta_text(e, d, sizeof d);
      fputs("<tr><td><code>", f);
      h(f, jstr(e, "name"));
      fputs("</code></td><td>", f);
      h(f, jstr(e, "file"));
      fprintf(f, ":%d</td><td>", (int)jnum(e, "line"));
      h(f, d);
      fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  fputs("</section>\n", f);
}

static void html_step_row(FILE *f, const struct step_row *r) {
  fputs("<tr><td>", f);
  h(f, r->kind);
  fprintf(f, "</td><td>%d → %d</td><td>%d</td><td>%d</td><td>", r->from, r->to,
          r->pairs, r->cause);
  h(f, r->delta);
  fputs("</td><td>", f);
  h(f, r->verdict);
  fputs("</td></tr>\n", f);
}

static enum zc_err html_fn(void *arg, FILE *f) {
  const cJSON *doc = arg, *e;
  fputs("<!DOCTYPE html>\n<html><head><meta charset=utf-8>"
        "<meta http-equiv=Content-Security-Policy content=\"default-src "
        "'none'; style-src 'unsafe-inline'\">"
        "<title>zamcap bisect</title><style>body{font:14px sans-serif;"
        "margin:2em}code{font-family:monospace}table{border-collapse:"
        "collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
        ".culprit{border-left:4px solid #c33;padding-left:1em}</style>"
        "</head><body>\n<h1>zamcap bisect</h1>\n<p>",
        f);
  h(f, jstr(jget(doc, "verdict"), "text"));
  fputs("</p>\n", f);
  cJSON_ArrayForEach(e, jget(doc, "culprits")) html_culprit(e, f);
  fputs("<h2>Evidence</h2>\n<table><tr><th>step</th><th>builds</th>"
        "<th>pairs</th><th>cause</th><th>Δ</th><th>verdict</th></tr>\n",
        f);
  each_step_row(doc, f, html_step_row);
  fprintf(f,
          "</table>\n<p>%d traced runs; the ends' own report: <a "
          "href=\"confirm/" ZC_OUT_HTML "\">confirm/" ZC_OUT_HTML
          "</a>.</p>\n</body></html>\n",
          (int)jnum(jget(doc, "verdict"), "traced_runs"));
  return ZC_OK;
}

enum zc_err ana_write_bisect(const struct cJSON *doc, const char *out) {
  char path[4200];
  snprintf(path, sizeof path, "%s/" ZC_OUT_REPORT, out);
  enum zc_err e = ana_write_json(doc, path);
  if (!e) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_SUMMARY, out);
    e = zc_write_atomic(path, md_fn, (void *)doc);
  }
  if (!e) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_HTML, out);
    e = zc_write_atomic(path, html_fn, (void *)doc);
  }
  return e;
}
