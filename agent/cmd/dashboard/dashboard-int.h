/* Private to agent/cmd/dashboard/: what the site writer's files share.
 * esc.c: strings, links, numbers, times; chart.c: the SVG charts;
 * site.c: the site, each page's head and foot; page.c: a scenario's page
 * and its charts; tables.c: its tables. The style sheet and the script
 * are dashboard.css and dashboard.js byte for byte, embedded at build
 * time (analysis/report/embed.cmake). Ownership as in dashboard.h. */
#ifndef AGENT_DASHBOARD_INT_H
#define AGENT_DASHBOARD_INT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "dashboard.h"

extern const unsigned char agent__dash_css[];
extern const size_t agent__dash_css_len;
extern const unsigned char agent__dash_js[];
extern const size_t agent__dash_js_len;

/* ---- strings (esc.c) ---- */

/* Characters of a string shown, at most: names in tables and headings. */
enum { AGENT_DASH_NAME_MAX = 300 };

/* s cleaned for showing: control characters (C0 but tab and newline,
 * which become spaces, DEL, C1), the bidirectional controls (U+061C,
 * U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and
 * paragraph separators become visible escapes ("\u202E"), bytes that are
 * not UTF-8 U+FFFD; past max characters the rest is "…". NULL gives "". */
char *agent_dash_clean(const char *s, size_t max);
/* s (clean) as HTML text, or as an attribute value in double quotes, or
 * as SVG text: & < > " ' as references. */
void agent_dash_html(FILE *f, const char *s);
/* agent_dash_clean, then agent_dash_html. */
void agent_dash_text(FILE *f, const char *s, size_t max);
/* v as JSON inside a <script type="application/json">: < > & as \u
 * escapes, so that no "</script" or "<!--" can appear. */
void agent_dash_json(FILE *f, const struct cJSON *v);
/* The same of JSON text already made (s). */
void agent_dash_json_text(FILE *f, const char *s);
/* v with d decimals (0 to 3) into out (32 bytes), as printf's "%.*f"
 * writes it but at a fraction of its cost (a page writes thousands);
 * "null" when v is not finite. Returns the length. */
size_t agent_dash_num(char *out, double v, int d);
/* v to a thousandth as a JSON number ("607", "0.052"), or null. */
size_t agent_dash_jnum(char *out, double v);
/* The relative, percent-encoded URL of path to from the folder from (both
 * absolute; ".." resolved by name); NULL when either is not absolute. */
char *agent_dash_relpath(const char *from, const char *to);
/* Whether url may be a link to a tracker: http:// or https://, with no
 * character that needs quoting. */
int agent_dash_http_ok(const char *url);
/* A file name for scenario name: its letters and digits (at most 40,
 * lower case, others as '-'), '-', 8 hex digits of its hash, ".html". */
void agent_dash_page_name(const char *name, char out[64]);

/* A value in its unit as the pages show it ("812 ms", "0.052", "1 204
 * KB"); with sign, "+12.5 ms". */
void agent_dash_fmt(char *out, size_t cap, double v, const char *unit,
                    int sign);
/* Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ" (the history's
 * times); 0 when s is not one. */
double agent_dash_time(const char *s);

/* ---- charts (chart.c): SVG written into the page ---- */

/* A series' points as the chart takes them: run (an index into the
 * page's runs), its time, and the values (NAN where missing). */
struct agent_dash_pt {
  int run;
  double t;
  double old, new_, delta, lo, hi;
  int sig;  /* the change was significant */
  int regr; /* the run found a regression */
};
struct agent_dash_chart {
  const char *id;    /* the element's id, and the hover data's key */
  const char *title; /* shown above, and the SVG's label */
  const char *unit;
  const struct agent_dash_pt *p;
  size_t n;
  double t0, t1; /* the page's time range (all its charts alike) */
};
/* The chart: the band of the 95 % interval, the old build's dashed line,
 * the new build's line, a circle per point (class "pt", data-i its run)
 * while there are AGENT_DASH_MARKS_MAX or fewer, a mark per regression
 * run (class "reg", data-i), axes. Over AGENT_DASH_SAMPLE points the
 * lines and the band are drawn through each of that many slices' lowest
 * and highest value. *xy (2n, caller frees) gets each point's x and y in
 * the viewBox (y NAN without a value), for the hover data. */
enum { AGENT_DASH_MARKS_MAX = 400, AGENT_DASH_SAMPLE = 600 };
void agent_dash_chart(FILE *f, const struct agent_dash_chart *c, double **xy);
/* A sparkline of v (n values, NAN where missing; regr[i]: the run found
 * a regression): a line, a dot on the last value, a red dot on each
 * regression. */
void agent_dash_spark(FILE *f, const double *v, const int *regr, size_t n,
                      const char *label);
/* A row of bars, one per run (n; NAN: not a cause that run), their
 * height by the largest. */
void agent_dash_bars(FILE *f, const double *v, size_t n, const char *label);

/* ---- the site (site.c) and a scenario's page (page.c, tables.c) ---- */

/* Runs charted on a page, at most: the last ones. */
enum { AGENT_DASH_RUNS_MAX = 5000 };
/* Runs a regression's bars show, and the runs table lists: the last. */
enum { AGENT_DASH_BARS = 60, AGENT_DASH_RUN_ROWS = 50 };

/* The groups of a page's charts, in order. */
enum { G_E2E, G_VITALS, G_MEMORY, G_IO, G_OTHER, G_COUNT };

/* A scenario's page being written. */
struct page {
  FILE *f;
  const struct agent_dash *site;
  const struct cJSON *runs; /* agent_history_series' runs */
  const struct cJSON **run; /* each of them, by index */
  size_t n, first;          /* runs; the first charted */
  double *t, t0, t1;        /* each run's time; the charts' range */
  int *regr;                /* each run found a regression */
  unsigned charts;
  struct zc_buf hover; /* JSON: "chart id": its points for the card, ... */
};

/* The page's head: the CSP (script only with script, by the site's
 * nonce), the title (clean and escaped), the style sheet. */
void agent_dash_head(FILE *f, const struct agent_dash *d, const char *title,
                     int script);
/* The page's end: the script (with script), the closing tags. */
void agent_dash_foot(FILE *f, const struct agent_dash *d, int script);
/* The link from the site to a run's report.html (report_dir as the
 * history has it), or NULL. */
char *agent_dash_report_link(const struct agent_dash *d,
                             const char *report_dir);
/* --recover-after, as the site was told. */
unsigned agent_dash_recover_after(const struct agent_dash *d);
/* A run's verdict as a badge: its state and exit code. */
void agent_dash_verdict(FILE *f, const struct cJSON *run);

/* The page (page.c): everything, in order. */
enum zc_err agent_dash_page(struct page *pg, const struct cJSON *series,
                            const struct cJSON *regs,
                            const struct cJSON *bisects);
/* Its tables (tables.c): the regressions (with the bisections' culprits
 * of their fingerprints), the bisections, the last runs. */
void agent_dash_regressions(struct page *pg, const struct cJSON *regs,
                            const struct cJSON *bisects);
void agent_dash_bisections(struct page *pg, const struct cJSON *bisects);
void agent_dash_runs(struct page *pg);

/* cJSON's lookups of any document: NULL where absent or of another
 * type. */
static inline const cJSON *jget(const cJSON *o, const char *k) {
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}
static inline const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = jget(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

#endif
