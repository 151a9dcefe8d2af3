/* The dashboard's scenario page (dashboard.h): its series as charts,
 * grouped (end to end, web vitals, memory, I/O, others), its regressions
 * with a bar per recent run, its bisections with their culprits, its
 * latest runs; and the hover data that dashboard.js shows in a card. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "dashboard-int.h"

/* What the pages know of each metric: its words and its group. The
 * history keeps names only; a name not here is shown as it is, among
 * the others. I/O's are issue 36's measures, for when runs carry them. */
static const struct metric {
  const char *name, *label;
  int group;
} catalog[] = {
    {"scenario_ms", "scenario wall time", G_E2E},
    {"scripting_ms", "scripting (CPU samples in JavaScript)", G_E2E},
    {"gc_ms", "garbage collection", G_E2E},
    {"native_ms", "browser work outside JavaScript", G_E2E},
    {"style_layout_ms", "style and layout", G_E2E},
    {"long_tasks", "long tasks (over 50 ms)", G_E2E},
    {"blocking_ms", "blocking time (long tasks beyond 50 ms)", G_E2E},
    {"LCP", "largest contentful paint (LCP)", G_VITALS},
    {"CLS", "cumulative layout shift (CLS)", G_VITALS},
    {"INP", "interaction to next paint (INP)", G_VITALS},
    {"TBT", "total blocking time (TBT)", G_VITALS},
    {"js_heap_used_kb", "JS heap used after a forced GC", G_MEMORY},
    {"dom_nodes", "DOM nodes after the flow", G_MEMORY},
    {"event_listeners", "event listeners after the flow", G_MEMORY},
    {"requests", "requests", G_IO},
    {"received_kb", "received", G_IO},
    {"sent_kb", "sent", G_IO},
    {"storage_writes", "storage writes", G_IO},
    {"storage_kb", "written to storage", G_IO},
};

static const struct {
  const char *id, *title;
} groups[G_COUNT] = {
    {"end-to-end", "End to end"}, {"vitals", "Web vitals"},
    {"memory", "Memory"},         {"io", "I/O"},
    {"other", "Other figures"},
};

/* Series s's place: its catalog row (or -1) and group. */
static int metric_of(const cJSON *s, int *group) {
  const char *m = jstr(s, "metric"), *src = jstr(s, "source");
  for (size_t i = 0; m && i < ZC_ARRAY_LEN(catalog); i++)
    if (!strcmp(m, catalog[i].name)) {
      *group = catalog[i].group;
      return (int)i;
    }
  *group = src && !strcmp(src, "vitals") ? G_VITALS : G_OTHER;
  return -1;
}

/* ---- the page's runs ---- */

/* The runs of series, their times (by index where a time is missing),
 * from the first shown (the last AGENT_DASH_RUNS_MAX). */
static void runs_load(struct page *pg, const cJSON *series) {
  pg->runs = jget(series, "runs");
  pg->n = (size_t)cJSON_GetArraySize(pg->runs);
  pg->first = pg->n > AGENT_DASH_RUNS_MAX ? pg->n - AGENT_DASH_RUNS_MAX : 0;
  pg->run = zc_xcalloc(pg->n + 1, sizeof *pg->run);
  pg->t = zc_xcalloc(pg->n + 1, sizeof *pg->t);
  pg->regr = zc_xcalloc(pg->n + 1, sizeof *pg->regr);
  int bytime = 1;
  size_t i = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, pg->runs) {
    pg->run[i] = r;
    pg->t[i] = agent_dash_time(jstr(r, "at"));
    bytime &= pg->t[i] > 0;
    const char *v = jstr(r, "verdict");
    pg->regr[i] = v && !strcmp(v, "regression");
    i++;
  }
  for (i = 0; !bytime && i < pg->n; i++)
    pg->t[i] = (double)i;
  pg->t0 = pg->n ? pg->t[pg->first] : 0;
  pg->t1 = pg->t0;
  for (i = pg->first; i < pg->n; i++) {
    if (pg->t[i] < pg->t0) pg->t0 = pg->t[i];
    if (pg->t[i] > pg->t1) pg->t1 = pg->t[i];
  }
}

static double numv(const cJSON *v) {
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The points of series s that fall on shown runs; returns how many. */
static size_t points(const struct page *pg, const cJSON *s,
                     struct agent_dash_pt **out) {
  const cJSON *pts = jget(s, "points"), *p;
  *out = zc_xcalloc((size_t)cJSON_GetArraySize(pts) + 1, sizeof **out);
  size_t n = 0;
  cJSON_ArrayForEach(p, pts) {
    double k = numv(cJSON_GetArrayItem(p, 0));
    if (!(k >= (double)pg->first && k < (double)pg->n)) continue;
    size_t run = (size_t)k;
    (*out)[n++] = (struct agent_dash_pt){
        .run = (int)run,
        .t = pg->t[run],
        .old = numv(cJSON_GetArrayItem(p, 1)),
        .new_ = numv(cJSON_GetArrayItem(p, 2)),
        .delta = numv(cJSON_GetArrayItem(p, 3)),
        .lo = numv(cJSON_GetArrayItem(p, 4)),
        .hi = numv(cJSON_GetArrayItem(p, 5)),
        .sig = numv(cJSON_GetArrayItem(p, 6)) > 0,
        .regr = pg->regr[run],
    };
  }
  return n;
}

/* A number for the hover data, to a thousandth; null when missing. */
static enum zc_err hnum(struct zc_buf *b, double v, int comma) {
  char n[40];
  n[0] = ',';
  size_t k = agent_dash_jnum(n + 1, v);
  return zc_buf_add(b, comma ? n : n + 1, k + (comma != 0));
}

/* A chart's hover data onto pg->hover: "id":{"u":unit,"p":[[run, x, y,
 * new, old, delta, lo, hi], ...]}, written by hand (a page has thousands
 * of numbers, and cJSON prints each at a cost). */
static void hover_chart(struct page *pg, const char *id, const char *unit,
                        const struct agent_dash_pt *p, size_t n,
                        const double *xy) {
  cJSON *u = cJSON_CreateString(unit ? unit : "");
  char *uj = cJSON_PrintUnformatted(u);
  cJSON_Delete(u);
  struct zc_buf *b = &pg->hover;
  enum zc_err e = zc_buf_printf(b, "%s\"%s\":{\"u\":%s,\"p\":[",
                                b->len ? "," : "", id, uj ? uj : "\"\"");
  free(uj);
  for (size_t i = 0; !e && i < n; i++) {
    e = zc_buf_printf(b, "%s[%d", i ? "," : "", p[i].run);
    double v[] = {round(xy[2 * i] * 10) / 10,
                  round(xy[2 * i + 1] * 10) / 10,
                  p[i].new_,
                  p[i].old,
                  p[i].delta,
                  p[i].lo,
                  p[i].hi};
    for (size_t k = 0; !e && k < ZC_ARRAY_LEN(v); k++)
      e = hnum(b, v[k], 1);
    if (!e) e = zc_buf_addc(b, ']');
  }
  if (!e) e = zc_buf_add(b, "]}", 2);
  /* past the buffer's ceiling the cards lack this chart: its SVG stays */
  if (e) zc_log(1, "warning: %s: chart %s has no cards", zc_errmsg(), id);
}

/* Series s as one chart, and its hover data under its id. */
static void chart(struct page *pg, const cJSON *s, int row) {
  struct agent_dash_pt *p = NULL;
  size_t n = points(pg, s, &p);
  const char *unit = jstr(s, "unit");
  char id[32], title[AGENT_DASH_NAME_MAX + 64];
  snprintf(id, sizeof id, "c%u", pg->charts++);
  const char *label = row >= 0 ? catalog[row].label : jstr(s, "metric");
  /* counts are said without a unit */
  const char *shown = unit && *unit && strcmp(unit, "count") ? unit : NULL;
  snprintf(title, sizeof title, "%.*s%s%s%s", AGENT_DASH_NAME_MAX,
           label ? label : "?", shown ? " (" : "", shown ? shown : "",
           shown ? ")" : "");
  struct agent_dash_chart c = {.id = id,
                               .title = title,
                               .unit = unit,
                               .p = p,
                               .n = n,
                               .t0 = pg->t0,
                               .t1 = pg->t1};
  fputs("<figure><figcaption>", pg->f);
  agent_dash_text(pg->f, title, AGENT_DASH_NAME_MAX);
  fputs("</figcaption>", pg->f);
  double *xy = NULL;
  agent_dash_chart(pg->f, &c, &xy);
  fputs("</figure>\n", pg->f);
  hover_chart(pg, id, unit, p, n, xy);
  free(xy);
  free(p);
}

/* Whether series s is in group g, at catalog row k (-1: any row not in
 * the catalog). */
static int in_group(const cJSON *s, int g, int k) {
  int sg, row = metric_of(s, &sg);
  return sg == g && (k < 0 ? row < 0 : row == k);
}

/* The series of group g: the catalog's in its order, then the others in
 * the history's. */
static void group(struct page *pg, const cJSON *series, int g) {
  const cJSON *s;
  int any = 0;
  for (int k = 0; k <= (int)ZC_ARRAY_LEN(catalog); k++) {
    int row = k < (int)ZC_ARRAY_LEN(catalog) ? k : -1;
    cJSON_ArrayForEach(s, series) {
      if (!in_group(s, g, row)) continue;
      if (!any++)
        fprintf(pg->f,
                "<section id=\"%s\">\n<h2>%s</h2>\n<div class=\"charts\">\n",
                groups[g].id, groups[g].title);
      chart(pg, s, row);
    }
  }
  if (any) fputs("</div>\n</section>\n", pg->f);
}

static const char legend[] =
    "<p class=\"dim legend\"><span class=\"k-line\"></span> the new build's "
    "mean, <span class=\"k-old\"></span> the old build's, <span "
    "class=\"k-band\"></span> the 95 % interval of the change placed on the "
    "old build's mean (clear of the dashed line: significant, a filled "
    "point), <span class=\"k-reg\">▼</span> a run that found a regression. "
    "Hover a point, or focus a chart and use the arrow keys, for its run; "
    "click to keep the card.</p>\n";

/* Every chart, by group. */
static void charts(struct page *pg, const cJSON *doc) {
  const cJSON *series = jget(doc, "series");
  if (!cJSON_GetArraySize(series)) {
    fputs("<p class=\"empty\">These runs recorded no end-to-end figure.</p>\n",
          pg->f);
    return;
  }
  fputs(legend, pg->f);
  for (int g = 0; g < G_COUNT; g++)
    group(pg, series, g);
}

/* ---- the hover data ---- */

/* A run as the card shows it: cleaned strings, its report's link. */
static cJSON *hover_run(const struct page *pg, const cJSON *r) {
  static const struct {
    const char *key, *as;
  } keys[] = {{"at", "at"},      {"old_label", "ol"},  {"new_label", "nl"},
              {"host", "host"},  {"chrome", "chrome"}, {"verdict", "v"},
              {"command", "cmd"}};
  cJSON *o = cJSON_CreateObject();
  for (size_t k = 0; k < ZC_ARRAY_LEN(keys); k++) {
    const char *v = jstr(r, keys[k].key);
    if (!v) continue;
    char *c = agent_dash_clean(v, AGENT_DASH_NAME_MAX);
    cJSON_AddStringToObject(o, keys[k].as, c);
    free(c);
  }
  cJSON_AddNumberToObject(o, "id", numv(jget(r, "id")));
  char *href = agent_dash_report_link(pg->site, jstr(r, "report_dir"));
  if (href) cJSON_AddStringToObject(o, "r", href);
  free(href);
  return o;
}

static void hover_data(struct page *pg) {
  cJSON *runs = cJSON_CreateArray();
  for (size_t i = 0; i < pg->n; i++)
    cJSON_AddItemToArray(runs, i < pg->first ? cJSON_CreateNull()
                                             : hover_run(pg, pg->run[i]));
  fputs("<script type=\"application/json\" id=\"dash-data\">{\"runs\":", pg->f);
  agent_dash_json(pg->f, runs);
  fputs(",\"charts\":{", pg->f);
  agent_dash_json_text(pg->f, pg->hover.ptr ? pg->hover.ptr : "");
  fputs("}}</script>\n", pg->f);
  cJSON_Delete(runs);
}

/* ---- the page ---- */

/* The heading: the name, the span of runs, the last verdict. */
static void heading(struct page *pg, const char *name) {
  fputs("<nav><a href=\"index.html\">← all scenarios</a></nav>\n<header><h1>"
        "<bdi>",
        pg->f);
  agent_dash_text(pg->f, name[0] ? name : "(no scenario)", AGENT_DASH_NAME_MAX);
  fputs("</bdi></h1>\n<p class=\"dim\">", pg->f);
  const cJSON *last = pg->n ? pg->run[pg->n - 1] : NULL;
  fprintf(pg->f, "%zu run%s", pg->n, pg->n == 1 ? "" : "s");
  if (pg->n) {
    fputs(" from ", pg->f);
    agent_dash_text(pg->f, jstr(pg->run[0], "at"), 64);
    fputs(" to ", pg->f);
    agent_dash_text(pg->f, jstr(last, "at"), 64);
    fputs("; the last: ", pg->f);
    agent_dash_verdict(pg->f, last);
  }
  if (pg->first)
    fprintf(pg->f, ". The charts show the last %d (--since DAYS chooses)",
            AGENT_DASH_RUNS_MAX);
  fputs(".</p>\n</header>\n", pg->f);
}

enum zc_err agent_dash_page(struct page *pg, const cJSON *series,
                            const cJSON *regs, const cJSON *bisects) {
  const char *name = jstr(series, "scenario");
  runs_load(pg, series);
  zc_buf_init(&pg->hover, (size_t)256 << 20);
  agent_dash_head(pg->f, pg->site, name && name[0] ? name : "(no scenario)", 1);
  heading(pg, name ? name : "");
  charts(pg, series);
  agent_dash_regressions(pg, regs, bisects);
  agent_dash_bisections(pg, bisects);
  agent_dash_runs(pg);
  fputs("<div id=\"card\" class=\"card\" role=\"dialog\" hidden></div>\n",
        pg->f);
  hover_data(pg);
  agent_dash_foot(pg->f, pg->site, 1);
  return ferror(pg->f) ? zc_fail(ZC_E_IO, "writing a page failed") : ZC_OK;
}
