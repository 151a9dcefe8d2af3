/* The dashboard's tables on a scenario's page (dashboard-int.h): its
 * regressions, one per fingerprint with a bar per recent run and the
 * commit a bisection blamed; its bisections with their culprits; its
 * last runs with their reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "dashboard-int.h"

static double numv(const cJSON *v) {
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A cell of text (cleaned, escaped, cut), or a dash. */
static void td(FILE *f, const char *cls, const char *s) {
  fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
          cls ? "\"" : "");
  if (s && *s)
    agent_dash_text(f, s, AGENT_DASH_NAME_MAX);
  else
    fputs("–", f);
  fputs("</td>", f);
}

/* A relative link to report.html in a run's or a bisection's folder. */
static void report_cell(FILE *f, const struct agent_dash *d, const char *dir) {
  char *href = agent_dash_report_link(d, dir);
  fputs("<td>", f);
  if (href)
    fprintf(f, "<a class=\"rep\" href=\"%s\">report</a>", href);
  else
    fputs("–", f);
  fputs("</td>", f);
  free(href);
}

/* ---- regressions ---- */

/* The Δs of regression g in the page's last AGENT_DASH_BARS runs (NAN:
 * not a cause that run) into v; returns how many runs. */
static size_t recent_deltas(const struct page *pg, const cJSON *g, double *v) {
  size_t from = pg->n > AGENT_DASH_BARS ? pg->n - AGENT_DASH_BARS : 0, n = 0;
  const cJSON *ds = jget(g, "deltas");
  const cJSON *d = cJSON_IsArray(ds) ? ds->child : NULL;
  for (size_t i = from; i < pg->n; i++, n++) {
    double id = numv(jget(pg->run[i], "id"));
    v[n] = NAN;
    /* both in the order of the runs: one pass */
    while (d && numv(jget(d, "run")) < id)
      d = d->next;
    if (d && numv(jget(d, "run")) == id) v[n] = numv(jget(d, "delta"));
  }
  return n;
}

/* The newest bisection's culprit of fingerprint fp, or NULL; *b gets its
 * bisection. */
static const cJSON *culprit_of(const cJSON *bisects, const char *fp,
                               const cJSON **b) {
  for (int i = cJSON_GetArraySize(bisects); fp && i-- > 0;) {
    const cJSON *c;
    *b = cJSON_GetArrayItem(bisects, i);
    cJSON_ArrayForEach(c, jget(*b, "causes")) {
      const char *st = jstr(c, "state"), *f = jstr(c, "fingerprint");
      if (st && !strcmp(st, "culprit") && f && !strcmp(f, fp)) return c;
    }
  }
  return NULL;
}

static void culprit_cell(struct page *pg, const cJSON *bisects,
                         const char *fp) {
  const cJSON *b = NULL, *c = culprit_of(bisects, fp, &b);
  fputs("<td>", pg->f);
  if (!c) {
    fputs("–</td>", pg->f);
    return;
  }
  agent_dash_text(pg->f, jstr(c, "build"), 80);
  const char *sha = jstr(c, "commit");
  if (sha) {
    fputs(" <code class=\"sha\" title=\"", pg->f);
    agent_dash_text(pg->f, sha, 80);
    fputs("\">", pg->f);
    agent_dash_text(pg->f, sha, 12);
    fputs("</code>", pg->f);
  }
  char *href = agent_dash_report_link(pg->site, jstr(b, "report_dir"));
  if (href) fprintf(pg->f, " <a class=\"bis\" href=\"%s\">bisection</a>", href);
  free(href);
  fputs("</td>", pg->f);
}

/* The issue's address as a link when it is an http(s) one, else text. */
static void issue_cell(FILE *f, const char *issue) {
  fputs("<td>", f);
  if (agent_dash_http_ok(issue)) {
    fputs("<a class=\"issue\" rel=\"noopener noreferrer\" href=\"", f);
    agent_dash_html(f, issue);
    fputs("\">", f);
    agent_dash_text(f, issue, 80);
    fputs("</a>", f);
  } else if (issue) {
    agent_dash_text(f, issue, 80);
  } else {
    fputs("–", f);
  }
  fputs("</td>", f);
}

static void regression_row(struct page *pg, const cJSON *g,
                           const cJSON *bisects) {
  FILE *f = pg->f;
  const char *state = jstr(g, "state"), *fp = jstr(g, "fingerprint");
  const char *unit = jstr(g, "unit");
  fprintf(f, "<tr class=\"%s\">",
          state && !strcmp(state, "open") ? "open" : "rec");
  td(f, "fp", fp);
  fputs("<td><bdi class=\"fn\">", f);
  agent_dash_text(f, jstr(g, "function"), AGENT_DASH_NAME_MAX);
  fputs("</bdi>", f);
  if (jstr(g, "file")) {
    fputs("<div class=\"dim loc\">", f);
    agent_dash_text(f, jstr(g, "file"), AGENT_DASH_NAME_MAX);
    fputs("</div>", f);
  }
  fputs("</td>", f);
  td(f, NULL, jstr(g, "kind"));
  td(f, "t", jstr(g, "first_seen"));
  td(f, "t", jstr(g, "last_seen"));
  fprintf(f, "<td class=\"n\">%.0f</td>", numv(jget(g, "nights")));
  td(f, "state", state);
  double v[AGENT_DASH_BARS];
  size_t n = recent_deltas(pg, g, v);
  const cJSON *ds = jget(g, "deltas");
  char last[64], label[96];
  agent_dash_fmt(
      last, sizeof last,
      numv(jget(cJSON_GetArrayItem(ds, cJSON_GetArraySize(ds) - 1), "delta")),
      unit ? unit : "ms", 1);
  snprintf(label, sizeof label, "its change in each of the last %zu runs", n);
  fputs("<td class=\"dn\">", f);
  agent_dash_bars(f, v, n, label);
  fputs(" <span class=\"n\">", f);
  agent_dash_html(f, last);
  fputs("</span></td>", f);
  issue_cell(f, jstr(g, "issue"));
  culprit_cell(pg, bisects, fp);
  fputs("</tr>\n", f);
}

void agent_dash_regressions(struct page *pg, const cJSON *regs,
                            const cJSON *bisects) {
  FILE *f = pg->f;
  fputs("<section id=\"regressions\">\n<h2>Regressions</h2>\n", f);
  if (!cJSON_GetArraySize(regs)) {
    fputs("<p class=\"empty\">No regression-cause was recorded for this "
          "scenario.</p>\n</section>\n",
          f);
    return;
  }
  fprintf(f,
          "<p class=\"dim\">One row per fingerprint (a cause known across "
          "nights), open ones first; one has recovered after %u runs of "
          "its scenario without it. The bars: its change in each of the "
          "last runs (at most %d), none where it was no cause; then its "
          "last change. The culprit: the build a bisection blamed.</p>\n",
          agent_dash_recover_after(pg->site), AGENT_DASH_BARS);
  fputs("<div class=\"scroll\"><table class=\"regs\"><thead><tr>"
        "<th>fingerprint</th><th>function</th><th>kind</th><th>first "
        "seen</th><th>last seen</th><th>nights</th><th>state</th><th>Δ per "
        "night</th><th>issue</th><th>culprit</th></tr></thead><tbody>\n",
        f);
  const cJSON *g;
  cJSON_ArrayForEach(g, regs) {
    regression_row(pg, g, bisects);
  }
  fputs("</tbody></table></div>\n</section>\n", f);
}

/* ---- bisections ---- */

static void changed_cell(FILE *f, const cJSON *changed) {
  fputs("<td>", f);
  int k = 0;
  const cJSON *c;
  cJSON_ArrayForEach(c, changed) {
    if (k == 3) break;
    if (k++) fputs(", ", f);
    fputs("<bdi>", f);
    agent_dash_text(f, jstr(c, "name"), 80);
    fputs("</bdi>", f);
  }
  if (!k) fputs("–", f);
  fputs("</td>", f);
}

static void bisect_cause_row(FILE *f, const cJSON *c) {
  const char *st = jstr(c, "state");
  int culprit = st && !strcmp(st, "culprit");
  fprintf(f, "<tr class=\"%s\">", culprit ? "culprit" : "undecided");
  fputs("<td><bdi class=\"fn\">", f);
  agent_dash_text(f, jstr(c, "label"), AGENT_DASH_NAME_MAX);
  fputs("</bdi></td>", f);
  td(f, NULL, st);
  td(f, NULL, jstr(c, "previous"));
  td(f, culprit ? "bad" : NULL, jstr(c, "build"));
  fputs("<td>", f);
  if (jstr(c, "commit")) {
    fputs("<code class=\"sha\" title=\"", f);
    agent_dash_text(f, jstr(c, "commit"), 80);
    fputs("\">", f);
    agent_dash_text(f, jstr(c, "commit"), 12);
    fputs("</code>", f);
  } else {
    fputs("–", f);
  }
  fputs("</td>", f);
  char d[64];
  agent_dash_fmt(d, sizeof d, numv(jget(c, "delta_ms")), "ms", 1);
  fprintf(f, "<td class=\"n\">%s</td>", d);
  if (isfinite(numv(jget(c, "ci_lo"))))
    fprintf(f, "<td class=\"n ci\">[%.1f, %.1f]</td>", numv(jget(c, "ci_lo")),
            numv(jget(c, "ci_hi")));
  else
    fputs("<td class=\"n ci\">–</td>", f);
  if (culprit)
    changed_cell(f, jget(c, "changed"));
  else
    td(f, "dim", jstr(c, "why"));
  fputs("</tr>\n", f);
}

static void bisection(struct page *pg, const cJSON *b) {
  FILE *f = pg->f;
  fputs("<div class=\"bisect\"><h3>", f);
  agent_dash_text(f, jstr(b, "at"), 64);
  fputs(": <bdi>", f);
  agent_dash_text(f, jstr(b, "good"), 80);
  fputs("</bdi> (good) … <bdi>", f);
  agent_dash_text(f, jstr(b, "bad"), 80);
  fprintf(f, "</bdi> (bad), %.0f builds", numv(jget(b, "builds")));
  char *href = agent_dash_report_link(pg->site, jstr(b, "report_dir"));
  if (href) fprintf(f, " <a class=\"rep\" href=\"%s\">report</a>", href);
  free(href);
  fputs("</h3>\n<p class=\"dim\">", f);
  agent_dash_text(f, jstr(b, "verdict"), 2000);
  fputs("</p>\n<div class=\"scroll\"><table><thead><tr><th>cause</th>"
        "<th>state</th><th>last good</th><th>culprit</th><th>commit</th>"
        "<th>Δ</th><th>95 % CI</th><th>changed functions, or why "
        "not</th></tr></thead><tbody>\n",
        f);
  const cJSON *c;
  cJSON_ArrayForEach(c, jget(b, "causes")) {
    bisect_cause_row(f, c);
  }
  fputs("</tbody></table></div></div>\n", f);
}

void agent_dash_bisections(struct page *pg, const cJSON *bisects) {
  int n = cJSON_GetArraySize(bisects);
  if (!n) return; /* a scenario never bisected: no section */
  fputs("<section id=\"bisections\">\n<h2>Bisections</h2>\n", pg->f);
  if (n > 20)
    fprintf(pg->f, "<p class=\"dim\">The last 20 of %d, newest first.</p>\n",
            n);
  for (int i = n, k = 0; i-- > 0 && k < 20; k++)
    bisection(pg, cJSON_GetArrayItem(bisects, i));
  fputs("</section>\n", pg->f);
}

/* ---- runs ---- */

void agent_dash_runs(struct page *pg) {
  FILE *f = pg->f;
  if (!pg->n) return;
  fputs("<section id=\"runs\">\n<h2>Runs</h2>\n", f);
  fprintf(f,
          "<p class=\"dim\">The last %d, newest first; each links its "
          "report.</p>\n",
          AGENT_DASH_RUN_ROWS);
  fputs("<div class=\"scroll\"><table class=\"runs\"><thead><tr><th>run</th>"
        "<th>time</th><th>old build</th><th>new build</th><th>host</th>"
        "<th>Chrome</th><th>verdict</th><th>causes</th><th>report</th></tr>"
        "</thead><tbody>\n",
        f);
  for (size_t i = pg->n, k = 0; i-- > 0 && k < AGENT_DASH_RUN_ROWS; k++) {
    const cJSON *r = pg->run[i];
    fprintf(f, "<tr data-i=\"%zu\"><td class=\"n\">%.0f</td>", i,
            numv(jget(r, "id")));
    td(f, "t", jstr(r, "at"));
    td(f, NULL, jstr(r, "old_label"));
    td(f, NULL, jstr(r, "new_label"));
    td(f, NULL, jstr(r, "host"));
    td(f, NULL, jstr(r, "chrome"));
    fputs("<td>", f);
    agent_dash_verdict(f, r);
    fprintf(f, "</td><td class=\"n\">%.0f</td>", numv(jget(r, "causes")));
    report_cell(f, pg->site, jstr(r, "report_dir"));
    fputs("</tr>\n", f);
  }
  fputs("</tbody></table></div>\n</section>\n", f);
}
