/* The dashboard's site (dashboard.h): a folder with index.html and one
 * page per scenario beside it, each written atomically; each page's head
 * (its Content-Security-Policy: nothing may be fetched, styles and the
 * one script by the site's nonce) and foot; the index, a row per
 * scenario with its sparkline. */
#define _GNU_SOURCE /* realpath */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "dashboard-int.h"

/* Runs a sparkline shows: the last. */
enum { SPARK = 30, OPEN_SHOWN = 5 };

/* A scenario as the index shows it. */
struct row {
  char *name, page[80];
  size_t runs;
  cJSON *last;         /* the last run, as agent_history_series has it */
  double spark[SPARK]; /* its end-to-end time, NAN where missing */
  int sregr[SPARK];
  size_t nspark;
  cJSON *open; /* its open regressions: [{f, issue}] */
};

struct agent_dash {
  struct agent_dash_opts o;
  char *out;      /* the folder, as a real path: links start there */
  char nonce[40]; /* the script's and the styles' */
  struct row *rows;
  size_t nrows;
};

enum zc_err agent_dash_new(const struct agent_dash_opts *o,
                           struct agent_dash **out) {
  *out = NULL;
  enum zc_err e = zc_mkdirs(o->out);
  if (e) return e;
  char *real = realpath(o->out, NULL);
  if (!real) return zc_fail(ZC_E_IO, "%s: cannot be resolved", o->out);
  unsigned char b[16];
  FILE *f = fopen("/dev/urandom", "rb");
  int ok = f && fread(b, 1, sizeof b, f) == sizeof b;
  if (f) fclose(f);
  if (!ok) {
    free(real);
    return zc_fail(ZC_E_IO, "/dev/urandom: cannot be read (the pages' nonce)");
  }
  struct agent_dash *d = zc_xcalloc(1, sizeof *d);
  d->o = *o;
  d->out = real;
  for (size_t i = 0; i < sizeof b; i++)
    snprintf(d->nonce + 2 * i, 3, "%02x", b[i]);
  *out = d;
  return ZC_OK;
}

void agent_dash_free(struct agent_dash *d) {
  if (!d) return;
  for (size_t i = 0; i < d->nrows; i++) {
    free(d->rows[i].name);
    cJSON_Delete(d->rows[i].last);
    cJSON_Delete(d->rows[i].open);
  }
  free(d->rows);
  free(d->out);
  free(d);
}

unsigned agent_dash_recover_after(const struct agent_dash *d) {
  return d->o.recover_after;
}

/* ---- what every page has ---- */

void agent_dash_head(FILE *f, const struct agent_dash *d, const char *title,
                     int script) {
  fprintf(f,
          "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
          "charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" "
          "content=\"default-src 'none'; style-src 'nonce-%s'; script-src "
          "%s%s%s; base-uri 'none'; form-action 'none'\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, "
          "initial-scale=1\">\n<meta name=\"referrer\" "
          "content=\"no-referrer\">\n<title>zamcap dashboard: ",
          d->nonce, script ? "'nonce-" : "'none'", script ? d->nonce : "",
          script ? "'" : "");
  agent_dash_text(f, title, AGENT_DASH_NAME_MAX);
  fprintf(f, "</title>\n<style nonce=\"%s\">\n", d->nonce);
  fwrite(agent__dash_css, 1, agent__dash_css_len, f);
  fputs("</style>\n</head>\n<body>\n", f);
}

void agent_dash_foot(FILE *f, const struct agent_dash *d, int script) {
  if (script) {
    fprintf(f, "<script nonce=\"%s\">\n", d->nonce);
    fwrite(agent__dash_js, 1, agent__dash_js_len, f);
    fputs("\n</script>\n", f);
  }
  fputs("</body>\n</html>\n", f);
}

char *agent_dash_report_link(const struct agent_dash *d,
                             const char *report_dir) {
  if (!report_dir || !*report_dir) return NULL;
  char cwd[4096] = "", *path;
  if (report_dir[0] != '/' && !getcwd(cwd, sizeof cwd)) return NULL;
  size_t n = strlen(cwd) + strlen(report_dir) + sizeof "//report.html";
  path = zc_xmalloc(n);
  snprintf(path, n, "%s%s%s/report.html", cwd, cwd[0] ? "/" : "", report_dir);
  char *rel = agent_dash_relpath(d->out, path);
  free(path);
  return rel;
}

void agent_dash_verdict(FILE *f, const cJSON *run) {
  const char *v = jstr(run, "verdict");
  const char *cls = !v                            ? "unk"
                    : !strcmp(v, "regression")    ? "reg"
                    : !strcmp(v, "no regression") ? "ok"
                    : !strcmp(v, "inconclusive")  ? "inc"
                                                  : "unk";
  const cJSON *ec = jget(run, "exit_code");
  fprintf(f, "<span class=\"v v-%s\"", cls);
  if (cJSON_IsNumber(ec))
    fprintf(f, " title=\"exit code %.0f\"", ec->valuedouble);
  fputs(">", f);
  agent_dash_text(f, v ? v : "unknown", 40);
  fputs("</span>", f);
}

/* ---- a scenario ---- */

struct page_arg {
  struct page *pg;
  const cJSON *series, *regs, *bisects;
};

static enum zc_err page_fn(void *arg, FILE *f) {
  struct page_arg *a = arg;
  a->pg->f = f;
  return agent_dash_page(a->pg, a->series, a->regs, a->bisects);
}

/* The index's row of a scenario whose page pg wrote. */
static void index_row(struct agent_dash *d, const struct page *pg,
                      const char *name, const char *page, const cJSON *series,
                      const cJSON *regs) {
  d->rows = zc_xreallocarray(d->rows, d->nrows + 1, sizeof *d->rows);
  struct row *r = &d->rows[d->nrows++];
  memset(r, 0, sizeof *r);
  r->name = zc_xstrdup(name);
  snprintf(r->page, sizeof r->page, "%s", page);
  r->runs = pg->n;
  r->last = pg->n ? cJSON_Duplicate(pg->run[pg->n - 1], 1) : NULL;
  /* the sparkline: the scenario's wall time, else its scripting */
  const cJSON *s, *pick = NULL;
  const char *want[] = {"scenario_ms", "scripting_ms"};
  for (size_t w = 0; w < 2 && !pick; w++)
    cJSON_ArrayForEach(s, jget(series, "series")) {
      const char *m = jstr(s, "metric"), *src = jstr(s, "source");
      if (m && src && !strcmp(m, want[w]) && !strcmp(src, "end_to_end"))
        pick = s;
    }
  size_t from = pg->n > SPARK ? pg->n - SPARK : 0;
  r->nspark = pg->n - from;
  for (size_t i = 0; i < r->nspark; i++) {
    r->spark[i] = NAN;
    r->sregr[i] = pg->regr[from + i];
  }
  const cJSON *p;
  cJSON_ArrayForEach(p, jget(pick, "points")) {
    const cJSON *k = cJSON_GetArrayItem(p, 0), *v = cJSON_GetArrayItem(p, 2);
    if (cJSON_IsNumber(k) && k->valuedouble >= (double)from &&
        k->valuedouble < (double)pg->n && cJSON_IsNumber(v))
      r->spark[(size_t)k->valuedouble - from] = v->valuedouble;
  }
  r->open = cJSON_CreateArray();
  const cJSON *g;
  cJSON_ArrayForEach(g, regs) {
    const char *st = jstr(g, "state");
    if (!st || strcmp(st, "open")) continue;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "f",
                            jstr(g, "function") ? jstr(g, "function") : "?");
    if (jstr(g, "issue")) cJSON_AddStringToObject(o, "issue", jstr(g, "issue"));
    cJSON_AddItemToArray(r->open, o);
  }
}

static int page_taken(const struct agent_dash *d, const char *page) {
  for (size_t i = 0; i < d->nrows; i++)
    if (!strcmp(d->rows[i].page, page)) return 1;
  return 0;
}

enum zc_err agent_dash_scenario(struct agent_dash *d, const cJSON *series,
                                const cJSON *regs, const cJSON *bisects) {
  const char *name = jstr(series, "scenario");
  if (!name) return zc_fail(ZC_E_INTERNAL, "a series without its scenario");
  char page[80], path[4200];
  agent_dash_page_name(name, page);
  /* two names of one page name (their hashes met): the later one's gets
   * a number, so that neither page replaces the other */
  for (unsigned k = 2; page_taken(d, page); k++) {
    char base[64];
    agent_dash_page_name(name, base);
    snprintf(page, sizeof page, "%.*s-%u.html", (int)strlen(base) - 5, base, k);
  }
  snprintf(path, sizeof path, "%s/%s", d->o.out, page);
  struct page pg = {.site = d};
  struct page_arg a = {&pg, series, regs, bisects};
  enum zc_err e = zc_write_atomic(path, page_fn, &a);
  if (!e) index_row(d, &pg, name, page, series, regs);
  free(pg.run);
  free(pg.t);
  free(pg.regr);
  zc_buf_free(&pg.hover);
  return e;
}

/* ---- the index ---- */

static void open_cell(FILE *f, const cJSON *open) {
  int n = cJSON_GetArraySize(open), k = 0;
  fprintf(f, "<td class=\"open\"><span class=\"nopen%s\">%d</span>",
          n ? " some" : "", n);
  const cJSON *o;
  cJSON_ArrayForEach(o, open) {
    if (k++ == OPEN_SHOWN) {
      fprintf(f, "<div class=\"dim\">and %d more</div>", n - OPEN_SHOWN);
      break;
    }
    fputs("<div><bdi class=\"fn\">", f);
    agent_dash_text(f, jstr(o, "f"), 80);
    fputs("</bdi>", f);
    const char *issue = jstr(o, "issue");
    if (agent_dash_http_ok(issue)) {
      fputs(" <a class=\"issue\" rel=\"noopener noreferrer\" href=\"", f);
      agent_dash_html(f, issue);
      fputs("\">issue</a>", f);
    } else if (issue) { /* no http(s) address: shown, not linked */
      fputs(" <span class=\"dim\">issue ", f);
      agent_dash_text(f, issue, 80);
      fputs("</span>", f);
    }
    fputs("</div>", f);
  }
  fputs("</td>", f);
}

static void index_tr(FILE *f, const struct row *r) {
  fprintf(f, "<tr><td><a class=\"scn\" href=\"%s\"><bdi>", r->page);
  agent_dash_text(f, r->name[0] ? r->name : "(no scenario)",
                  AGENT_DASH_NAME_MAX);
  fprintf(f, "</bdi></a></td><td class=\"n\">%zu</td><td class=\"t\">",
          r->runs);
  agent_dash_text(f, jstr(r->last, "at"), 64);
  fputs("</td><td>", f);
  agent_dash_verdict(f, r->last);
  fputs("</td>", f);
  open_cell(f, r->open);
  char label[256], a[64] = "–", b[64] = "–";
  size_t first = r->nspark, last = r->nspark;
  for (size_t i = 0; i < r->nspark; i++)
    if (isfinite(r->spark[i])) {
      if (first == r->nspark) first = i;
      last = i;
    }
  if (first < r->nspark) {
    agent_dash_fmt(a, sizeof a, r->spark[first], "ms", 0);
    agent_dash_fmt(b, sizeof b, r->spark[last], "ms", 0);
  }
  snprintf(label, sizeof label,
           "end-to-end time of the last %zu runs: %s to %s", r->nspark, a, b);
  fputs("<td class=\"sp\">", f);
  agent_dash_spark(f, r->spark, r->sregr, r->nspark, label);
  fputs(" <span class=\"n\">", f);
  agent_dash_html(f, b);
  fputs("</span></td></tr>\n", f);
}

static enum zc_err index_fn(void *arg, FILE *f) {
  const struct agent_dash *d = arg;
  size_t runs = 0;
  for (size_t i = 0; i < d->nrows; i++)
    runs += d->rows[i].runs;
  char now[32], since[64] = "";
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (d->o.since_days > 0)
    snprintf(since, sizeof since, " in the last %g days", d->o.since_days);
  agent_dash_head(f, d, "the nights", 0);
  fprintf(f,
          "<header><h1>zamcap: the nights</h1>\n<p class=\"dim\">%zu "
          "scenario%s, %zu run%s recorded%s; made %s.</p>\n</header>\n",
          d->nrows, d->nrows == 1 ? "" : "s", runs, runs == 1 ? "" : "s", since,
          now);
  if (!d->nrows) {
    fprintf(f, "<p class=\"empty\">%s</p>\n",
            since[0] ? "No run was recorded in these days: the history holds "
                       "none of them."
                     : "No run is recorded in this history yet: once zamcap "
                       "run or compare records one, it shows here.");
  } else {
    fputs("<div class=\"scroll\"><table class=\"scns\"><thead><tr>"
          "<th>scenario</th><th>runs</th><th>last run</th><th>last "
          "verdict</th><th>open regressions</th><th>end-to-end time, last "
          "30 runs</th></tr></thead><tbody>\n",
          f);
    for (size_t i = 0; i < d->nrows; i++)
      index_tr(f, &d->rows[i]);
    fputs("</tbody></table></div>\n", f);
  }
  agent_dash_foot(f, d, 0);
  return ferror(f) ? zc_fail(ZC_E_IO, "writing the index failed") : ZC_OK;
}

enum zc_err agent_dash_finish(struct agent_dash *d, char **path) {
  if (path) *path = NULL;
  char p[4200];
  snprintf(p, sizeof p, "%s/index.html", d->o.out);
  enum zc_err e = zc_write_atomic(p, index_fn, d);
  if (!e && path) *path = zc_xstrdup(p);
  return e;
}
