/* Allocation per call path: the reports of a comparison of sampling heap
 * profiles (a timeline of bytes, shown in KB), written beside the time
 * comparison's: report.json's allocation, summary.md's and the terminal's
 * lines, and each build's merged profile for DevTools' Memory panel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"
#include "timeline.h"
#include "zc-out.h"

enum { ALLOC_TOP_FUNCTIONS = 20, ALLOC_SHOWN = 5, ALLOC_FLAME_NODES = 50000 };

/* "2 allocation regression-causes (≥ 256 KB more in all 3 pairs)". */
static void alloc_headline(const struct ana_cmp *m, char *out, size_t cap) {
  const struct ana_graph *g = m->agg;
  uint32_t n = ana_graph_causes(g);
  char in[64];
  if (g->npairs == 1)
    snprintf(in, sizeof in, "in the one pair");
  else if (g->quorum && g->quorum < g->npairs)
    snprintf(in, sizeof in, "in at least %u of %u pairs", g->quorum, g->npairs);
  else
    snprintf(in, sizeof in, "in all %u pairs", g->npairs);
  if (n)
    snprintf(out, cap,
             "%u allocation regression-cause%s (≥ %g KB more allocated %s)", n,
             n == 1 ? "" : "s", m->o.mu, in);
  else if (g->noisy_causes)
    snprintf(out, cap,
             "Allocation inconclusive (%u candidate%s undecided after %u "
             "pair%s)",
             g->noisy_causes, g->noisy_causes == 1 ? "" : "s", g->npairs,
             g->npairs == 1 ? "" : "s");
  else
    snprintf(out, cap,
             "No allocation regression-cause (no function allocated ≥ %g KB "
             "more %s)",
             m->o.mu, in);
}

static cJSON *alloc_num(double v) {
  return isnan(v) || isinf(v) ? cJSON_CreateNull()
                              : cJSON_CreateNumber(round(v * 1000) / 1000);
}

/* The functions that allocate most more, by self KB per run. */
static cJSON *alloc_functions(struct ana_cmp *m) {
  const struct ana_bu_row *rows;
  uint32_t n = ana_bu_rows(m->bu, &rows);
  cJSON *a = cJSON_CreateArray();
  for (uint32_t i = 0; i < n && i < ALLOC_TOP_FUNCTIONS; i++) {
    const struct ana_bu_row *r = &rows[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", ana_str(m->ctx, r->name));
    cJSON_AddStringToObject(o, "file", ana_str(m->ctx, r->component));
    cJSON_AddStringToObject(o, "url", ana_str(m->ctx, r->url));
    if (r->line >= 0)
      cJSON_AddNumberToObject(o, "line", r->line + 1);
    else
      cJSON_AddNullToObject(o, "line");
    cJSON_AddItemToObject(o, "old_self_kb", alloc_num(r->old_ms));
    cJSON_AddItemToObject(o, "new_self_kb", alloc_num(r->new_ms));
    cJSON_AddItemToObject(o, "delta_kb", alloc_num(r->delta_ms));
    cJSON_AddItemToArray(a, o);
  }
  return a;
}

/* report.html's flame graph in KB: the time flame graph's data
 * (ana_bu_flame_json) with its unit, and its columns named for it. */
static cJSON *alloc_flame(struct ana_cmp *m) {
  cJSON *fl = ana_bu_flame_json(m->bu, m->agg, ALLOC_FLAME_NODES);
  const struct ana_unit_desc *u = ana_unit_desc(ANA_UNIT_BYTES);
  static const char *const side[2] = {"old", "new"};
  for (int s = 0; s < 2; s++) {
    char from[16], to[16];
    snprintf(from, sizeof from, "%s_ms", side[s]);
    snprintf(to, sizeof to, "%s_%s", side[s], u->key);
    cJSON *col = cJSON_DetachItemFromObjectCaseSensitive(fl, from);
    if (col) cJSON_AddItemToObject(fl, to, col);
  }
  cJSON_AddStringToObject(fl, "unit", u->shown);
  return fl;
}

cJSON *ana__alloc_json(struct ana_cmp *m) {
  ana__cmp_aggregate(m);
  cJSON *o = cJSON_CreateObject();
  char head[256];
  alloc_headline(m, head, sizeof head);
  cJSON_AddStringToObject(o, "unit", ana_unit_desc(ANA_UNIT_BYTES)->shown);
  cJSON_AddNumberToObject(o, "pairs", m->n);
  cJSON_AddNumberToObject(o, "mu_kb", m->o.mu);
  cJSON_AddStringToObject(o, "headline", head);
  cJSON *pr = cJSON_AddArrayToObject(o, "profiles");
  for (unsigned p = 0; p < m->n; p++) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "pair", p + 1);
    cJSON_AddStringToObject(e, "old", m->old_files[p]);
    cJSON_AddStringToObject(e, "new", m->new_files[p]);
    cJSON_AddItemToArray(pr, e);
  }
  cJSON_AddNumberToObject(o, "causes", ana_graph_causes(m->agg));
  cJSON_AddNumberToObject(o, "not_significant", m->agg->noisy);
  cJSON_AddItemToObject(o, "regression_causes", ana_causes_json(m->agg));
  cJSON_AddItemToObject(o, "minor_causes", ana_minor_json(m->agg, &m->sp));
  cJSON_AddItemToObject(o, "functions", alloc_functions(m));
  cJSON_AddItemToObject(o, "flame", alloc_flame(m));
  cJSON_AddStringToObject(o, "old_profile", "old.heapprofile");
  cJSON_AddStringToObject(o, "new_profile", "new.heapprofile");
  return o;
}

/* The retained-memory rows (after the flow, forced GC) as text lines. */
static void alloc_e2e_text(const struct ana_e2e *e, FILE *f, int md) {
  for (unsigned i = 0; e && i < e->nmetrics; i++) {
    const struct ana_e2e_row *r = &e->rows[i];
    if (!r->delta.n) continue;
    char d[160];
    ana_e2e_delta_text(r, d, sizeof d);
    if (md)
      fprintf(f, "- %s: %.1f → %.1f %s, %s%s\n", r->label, r->old.mean,
              r->new_.mean, r->unit, d,
              r->significant ? "" : ", not significant");
    else
      fprintf(f, "  %-40s %9.1f -> %9.1f  %s%s\n", r->label, r->old.mean,
              r->new_.mean, d, r->significant ? "  *" : "");
  }
}

void ana__alloc_text(struct ana_cmp *m, FILE *f) {
  ana__cmp_aggregate(m);
  char head[256], where[512];
  alloc_headline(m, head, sizeof head);
  struct ana_cause *cs;
  uint32_t n = ana_causes(m->agg, &cs);
  fprintf(f, "allocation: %s%s\n", head, n ? ":" : "");
  for (uint32_t k = 0; k < n && k < ALLOC_SHOWN; k++) {
    ana_gnode_where(m->agg, cs[k].node, where, sizeof where);
    fputs("  ", f);
    zc_term_put(f, where, SIZE_MAX);
    fprintf(f, "  %+.0f KB (%.0f -> %.0f KB a run)\n", cs[k].delta_ms,
            cs[k].old_ms, cs[k].new_ms);
  }
  if (n > ALLOC_SHOWN) fprintf(f, "  ... and %u more\n", n - ALLOC_SHOWN);
  free(cs);
  if (m->e2e && m->e2e->nmetrics) {
    fprintf(f, "retained after the flow, old -> new (mean of %u pair%s):\n",
            m->e2e->npairs, m->e2e->npairs == 1 ? "" : "s");
    alloc_e2e_text(m->e2e, f, 0);
  }
}

void ana__alloc_md(struct ana_cmp *m, FILE *f) {
  ana__cmp_aggregate(m);
  char head[256];
  alloc_headline(m, head, sizeof head);
  struct ana_cause *cs;
  uint32_t n = ana_causes(m->agg, &cs);
  fputs("\n#### Allocation: ", f);
  ana_md_text(f, head);
  fputs("\n", f);
  if (n) fputs("\n| Δ mean | function | where |\n|---:|---|---|\n", f);
  for (uint32_t k = 0; k < n && k < ALLOC_SHOWN; k++) {
    const struct ana_gnode *nd = &m->agg->nodes[cs[k].node];
    fprintf(f, "| %+.0f KB | ", cs[k].delta_ms);
    ana_md_code(f, ana_str(m->ctx, nd->name));
    fprintf(f, "%s | ", nd->isnew == nd->present ? " (new)" : "");
    ana_md_code(f, ana_str(m->ctx, nd->component));
    fprintf(f, ":%d |\n", nd->line + 1);
  }
  free(cs);
  if (m->e2e && m->e2e->nmetrics) {
    fputs("\nRetained after the flow (forced GC), old → new:\n", f);
    alloc_e2e_text(m->e2e, f, 1);
  }
}

struct heap_arg {
  const struct ana_bottomup *bu;
  int side;
};

static enum zc_err heap_fn(void *arg, FILE *f) {
  const struct heap_arg *h = arg;
  return ana_bu_write_heapprofile(h->bu, h->side, f);
}

enum zc_err ana__alloc_trees(struct ana_cmp *m, const char *out) {
  static const char *const side[2] = {"old", "new"};
  enum zc_err e = ZC_OK;
  for (int s = 0; !e && s < 2; s++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.heapprofile", out, side[s]);
    struct heap_arg h = {.bu = m->bu, .side = s};
    e = zc_write_atomic(path, heap_fn, &h);
  }
  return e;
}

void ana__alloc_outcome(struct ana_cmp *m, struct ana_outcome *oc) {
  memset(oc, 0, sizeof *oc);
  oc->threshold_ms = NAN;
  if (!m->n) return;
  ana__cmp_aggregate(m);
  oc->causes = ana_graph_causes(m->agg);
  oc->undecided = m->agg->noisy_causes;
  oc->pairs_needed = m->agg->pairs_needed;
  oc->state = oc->causes      ? ANA_REGRESSION
              : oc->undecided ? ANA_INCONCLUSIVE
                              : ANA_NO_REGRESSION;
}

/* "1 allocation regression-cause (...); the largest: f (file:line),
 * +35012 KB a run.", or the headline alone, with the pairs it would take
 * when undecided. */
void ana__alloc_verdict(struct ana_cmp *m, const struct ana_outcome *oc,
                        char *out, size_t cap) {
  ana__cmp_aggregate(m);
  char head[256], where[512];
  alloc_headline(m, head, sizeof head);
  struct ana_cause *cs;
  uint32_t n = ana_causes(m->agg, &cs);
  if (n) {
    ana_gnode_where(m->agg, cs[0].node, where, sizeof where);
    snprintf(out, cap, "%s; the largest: %s, %+.0f KB a run.", head, where,
             cs[0].delta_ms);
  } else if (oc->undecided && oc->pairs_needed > m->n) {
    snprintf(out, cap, "%s; about %u pairs in all would likely settle it.",
             head, oc->pairs_needed);
  } else {
    snprintf(out, cap, "%s.", head);
  }
  free(cs);
}
