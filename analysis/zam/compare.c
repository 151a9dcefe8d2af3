/* A comparison, one pair at a time: each pair's traces are read once, as
 * they come, into a critical graph, end-to-end figures and bottom-up
 * times; the timelines are then let go. The verdict over the pairs so far
 * can be asked for at any point (--pairs auto asks after each pair), and
 * the report writers (report/write.c) read the same object. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "zam.h"
#include "zam/io.h"

struct ana_cmp *ana_cmp_new(const struct ana_opts *o, int drop,
                            struct ana_maps *maps, unsigned expect, int say) {
  struct ana_cmp *c = zc_xcalloc(1, sizeof *c);
  c->ctx = ana_ctx_new();
  /* Load on the machine stretches wall time, not CPU time (issue 25). */
  ana_ctx_set_cpu_time(c->ctx, 1);
  c->o = *o;
  c->drop = drop;
  c->expect = expect;
  c->say = say;
  c->bu = ana_bu_new(c->ctx, expect);
  /* Maps the traces carry (a DevTools export's metadata.sourceMaps) need
   * somewhere to go even when the caller gave none. */
  c->own = maps ? NULL : ana_maps_new(NULL, NULL);
  c->maps = maps ? maps : c->own;
  c->sp.bu = c->bu;
  return c;
}

static void cmp_undecide(struct ana_cmp *c) {
  ana_graph_free(c->agg);
  c->agg = NULL;
  free((void *)c->sp.v);
  c->sp.v = NULL;
  c->sp.n = 0;
  c->sp.nminor = 0;
  ana_e2e_free(c->e2e);
  c->e2e = NULL;
  ana_e2e_free(c->vit);
  c->vit = NULL;
  for (unsigned i = 0; i < c->nvwarn; i++)
    free(c->vwarn[i]);
  free(c->vwarn);
  c->vwarn = NULL;
  c->nvwarn = 0;
  c->decided = 0;
}

void ana_cmp_free(struct ana_cmp *c) {
  if (!c) return;
  cmp_undecide(c);
  for (unsigned p = 0; p < c->n; p++) {
    free(c->old_files[p]);
    free(c->new_files[p]);
    ana_graph_free(c->graphs[p]);
    ana_figures_clear(&c->ofig[p]);
    ana_figures_clear(&c->nfig[p]);
  }
  free(c->old_files);
  free(c->new_files);
  free(c->old_nodes);
  free(c->new_nodes);
  free(c->graphs);
  free(c->ofig);
  free(c->nfig);
  ana_bu_free(c->bu);
  ana__cmp_unwatch(c);
  ana__calls_free(c->calls);
  ana__changes_free(c->changes);
  ana_maps_free(c->own);
  ana_ctx_free(c->ctx);
  free(c);
}

unsigned ana_cmp_pairs(const struct ana_cmp *c) {
  return c->n;
}

/* Source maps: those the trace carries, then the caller's. */
static void cmp_symbolize(struct ana_cmp *c, struct ana_timeline *tl) {
  for (uint32_t i = 0; i < tl->nembedded; i++) {
    const struct ana_embedded_map *em = &tl->embedded[i];
    ana_maps_add(c->maps, em->url, em->map, em->mapn, em->map_url, NULL, 0);
  }
  struct ana_sym_stats st;
  ana_symbolize(tl, c->maps, &st);
  c->sym.frames += st.frames;
  c->sym.renamed += st.renamed;
  c->sym.sourced += st.sourced;
  c->sym.scripts = st.scripts;
  c->sym.mapped = st.mapped;
}

/* Loads one trace under its original names; a trace without CPU samples
 * is an input error, since there is nothing to compare. Its figures are
 * copied out. */
static enum zc_err cmp_load(struct ana_cmp *c, const char *path,
                            struct ana_figures *fig,
                            struct ana_timeline **out) {
  double t0 = zc_now_ms();
  enum zc_err e = ana_load(c->ctx, path, out);
  if (e) return e;
  struct ana_timeline *tl = *out;
  if (!tl->samples && tl->unit == ANA_UNIT_BYTES) {
    zc_fail(ZC_E_PARSE, "%s: no allocation sampled in this heap profile", path);
    ana_timeline_free(tl);
    *out = NULL;
    return ZC_E_PARSE;
  }
  if (!tl->samples) {
    zc_fail(ZC_E_PARSE,
            "%s: no CPU profile samples in this trace: it holds "
            "%s",
            path, tl->what ? tl->what : "nothing zamcap reads");
    ana_timeline_free(tl);
    *out = NULL;
    return ZC_E_PARSE;
  }
  ana_figures_copy(fig, &tl->fig);
  /* Original names before anything else reads them: the bottom-up table,
   * the pruning of one-letter names, the matching. */
  cmp_symbolize(c, tl);
  if (zc_interrupted) { /* during the maps' fetching, say */
    ana_figures_clear(fig);
    ana_timeline_free(tl);
    *out = NULL;
    return zc_fail(ZC_E_INTERRUPTED, "%s: interrupted", path);
  }
  zc_log(2, "%s: %.1f MB, %llu events, %llu samples, %u nodes, %.0f ms", path,
         (double)tl->bytes / 1e6, (unsigned long long)tl->events,
         (unsigned long long)tl->samples, tl->nnodes, zc_now_ms() - t0);
  return ZC_OK;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static void cmp_grow(struct ana_cmp *c) {
  if (c->n < c->cap) return;
  unsigned cap = c->cap ? 2 * c->cap : 4;
  c->old_files = zc_xrealloc(c->old_files, cap * sizeof *c->old_files);
  c->new_files = zc_xrealloc(c->new_files, cap * sizeof *c->new_files);
  c->old_nodes = zc_xrealloc(c->old_nodes, cap * sizeof *c->old_nodes);
  c->new_nodes = zc_xrealloc(c->new_nodes, cap * sizeof *c->new_nodes);
  c->graphs = zc_xrealloc(c->graphs, cap * sizeof *c->graphs);
  c->ofig = zc_xrealloc(c->ofig, cap * sizeof *c->ofig);
  c->nfig = zc_xrealloc(c->nfig, cap * sizeof *c->nfig);
  c->cap = cap;
}

enum zc_err ana_cmp_add(struct ana_cmp *c, const char *old_path,
                        const char *new_path) {
  double t0 = zc_now_ms();
  struct ana_timeline *ot = NULL, *nt = NULL;
  struct ana_figures unused;
  memset(&unused, 0, sizeof unused);
  enum zc_err e = cmp_load(c, old_path, &unused, &ot);
  ana_figures_clear(&unused);
  if (!e) e = cmp_load(c, new_path, &unused, &nt);
  ana_figures_clear(&unused);
  if (e) {
    c->work_ms += zc_now_ms() - t0;
    ana_timeline_free(ot);
    return e;
  }
  return ana__cmp_add_tl(c, ot, nt, t0);
}

enum zc_err ana__cmp_add_tl(struct ana_cmp *c, struct ana_timeline *ot,
                            struct ana_timeline *nt, double t0) {
  struct ana_figures of, nf;
  ana_figures_copy(&of, &ot->fig);
  ana_figures_copy(&nf, &nt->fig);
  struct ana_graph *g = NULL;
  /* The bottom-up table sees every node; the matching, the pruned tree.
   * Only a pair whose two traces were read counts. */
  unsigned what = ANA_PRUNE_NAMES | (c->drop ? ANA_PRUNE_MARKERS : 0u);
  ana_bu_add(c->bu, ot, 0);
  ana_bu_add(c->bu, nt, 1);
  ana__calls_learn(c, ot, 0);
  ana__calls_learn(c, nt, 1);
  ana__changes_measure(c, c->n, 0, ot);
  ana__changes_measure(c, c->n, 1, nt);
  ana_prune(ot, what);
  ana_prune(nt, what);
  enum zc_err e = ana_critical(ot, nt, &c->o, &c->stats, &g);
  if (e) {
    c->work_ms += zc_now_ms() - t0;
    ana_figures_clear(&of);
    ana_figures_clear(&nf);
    ana_timeline_free(ot);
    ana_timeline_free(nt);
    return e;
  }
  cmp_grow(c);
  ana__cmp_measure(c, c->n, 0, ot, &of);
  ana__cmp_measure(c, c->n, 1, nt, &nf);
  unsigned p = c->n++;
  c->old_files[p] = zc_xstrdup(ot->source);
  c->new_files[p] = zc_xstrdup(nt->source);
  c->old_nodes[p] = ana_tl_reachable(ot);
  c->new_nodes[p] = ana_tl_reachable(nt);
  c->graphs[p] = g;
  c->ofig[p] = of;
  c->nfig[p] = nf;
  char of_n[16] = "";
  if (c->expect) snprintf(of_n, sizeof of_n, "/%u", c->expect);
  uint32_t nc = ana_graph_causes(g);
  c->work_ms += zc_now_ms() - t0;
  zc_log(c->say, "pair %u%s: %s vs %s: %u regression-cause%s (%.1f s)", p + 1,
         of_n, base_name(ot->source), base_name(nt->source), nc,
         nc == 1 ? "" : "s", (zc_now_ms() - t0) / 1e3);
  ana_timeline_free(ot);
  ana_timeline_free(nt);
  return ZC_OK;
}

/* A spread-out cause whose function the call counts named in the graph
 * (a loop's owner, say) is named once, there. */
static void spread_not_named(struct ana_cmp *c) {
  struct ana_spread *v = (struct ana_spread *)c->sp.v;
  uint32_t k = 0;
  for (uint32_t i = 0; i < c->sp.n; i++) {
    int named = 0;
    for (uint32_t j = 0; j < c->agg->n && !named; j++)
      named = c->agg->nodes[j].cause && c->agg->nodes[j].key == v[i].fn.key;
    if (!named) v[k++] = v[i];
  }
  c->sp.n = k;
}

/* Spread-out causes under the minor share of the largest cause (the
 * graph's or theirs) are minor as the graph's are: kept after the named
 * ones (sp.nminor), in their order. */
static void spread_minor(struct ana_cmp *c) {
  struct ana_spread *v = (struct ana_spread *)c->sp.v;
  double share = c->o.minor_share, top = c->agg ? c->agg->minor_top : 0;
  c->sp.nminor = 0;
  if (!(share > 0) || !c->sp.n) return;
  for (uint32_t i = 0; i < c->sp.n; i++)
    if (v[i].delta_ms > top) top = v[i].delta_ms;
  struct ana_spread *minor = zc_xmalloc(c->sp.n * sizeof *minor);
  uint32_t k = 0, m = 0;
  for (uint32_t i = 0; i < c->sp.n; i++) {
    if (v[i].delta_ms < share * top)
      minor[m++] = v[i];
    else
      v[k++] = v[i];
  }
  memcpy(v + k, minor, m * sizeof *minor);
  free(minor);
  c->sp.n = k;
  c->sp.nminor = m;
}

void ana__cmp_aggregate(struct ana_cmp *c) {
  if (c->decided == c->n && c->agg) return;
  cmp_undecide(c);
  unsigned quorum = c->o.quorum > c->n ? c->n : c->o.quorum;
  ana_graphs_fold_recursion(c->graphs, c->n, c->bu);
  c->agg = ana_aggregate(c->graphs, c->n, quorum, c->o.significance);
  for (unsigned p = 0; c->agg && p < c->n; p++)
    c->agg->recursive += c->graphs[p]->recursive;
  ana_graph_drop_moved_by(c->agg, c->bu, c->o.mu, ana__calls_per_call, c);
  struct ana_spread *v = NULL;
  c->sp.n = ana_bu_spread(c->bu, c->o.mu, quorum, c->o.significance, c->agg, &v,
                          &c->sp_undecided, &c->sp_needed);
  c->sp.v = v;
  ana_graph_drop_callers(c->agg, c->bu, v, c->sp.n, c->o.mu);
  ana_graph_mark_effects(c->agg);
  if (ana__calls_explain(c)) spread_not_named(c);
  ana_graph_mark_minor(c->agg, c->bu, c->o.minor_share);
  spread_minor(c);
  c->e2e = ana_e2e_new(c->ofig, c->nfig, c->n);
  c->vit = ana_vitals_new(c->ofig, c->nfig, c->n, &c->vwarn, &c->nvwarn);
  c->decided = c->n;
}

const char *ana_state_name(enum ana_state s) {
  switch (s) {
  case ANA_REGRESSION: return "regression";
  case ANA_INCONCLUSIVE: return "inconclusive";
  default: return "no regression";
  }
}

int ana_exit_code(const struct ana_outcome *oc) {
  return oc->state == ANA_REGRESSION     ? ZC_EXIT_FOUND
         : oc->state == ANA_INCONCLUSIVE ? ZC_EXIT_INCONCLUSIVE
                                         : ZC_EXIT_NONE;
}

const char *ana_e2e_state_name(enum ana_e2e_state s) {
  switch (s) {
  case ANA_E2E_UNDECIDED: return "undecided";
  case ANA_E2E_REGRESSED: return "regressed";
  case ANA_E2E_NOT: return "not regressed";
  default: return "unknown";
  }
}

/* The threshold of the end-to-end figure r: threshold_ms when >= 0, else
 * threshold_pct % of the old mean (0: 5 %); NAN when there is no mean. */
static double e2e_threshold(const struct ana_e2e_row *r, double threshold_ms,
                            double threshold_pct) {
  return threshold_ms >= 0
             ? threshold_ms
             : (threshold_pct > 0 ? threshold_pct : 5) / 100 * r->old.mean;
}

/* The end-to-end part of the outcome: the main figure against the
 * threshold. */
static void e2e_outcome(const struct ana_e2e *e2e, double threshold_ms,
                        double threshold_pct, struct ana_outcome *oc) {
  const struct ana_e2e_row *r = ana_e2e_main(e2e);
  if (!r || r->delta.n < 2 || isnan(r->delta.lo)) return;
  double thr = e2e_threshold(r, threshold_ms, threshold_pct);
  if (isnan(thr)) return;
  oc->threshold_ms = thr;
  oc->e2e = r->delta.lo > thr   ? ANA_E2E_REGRESSED
            : r->delta.hi < thr ? ANA_E2E_NOT
                                : ANA_E2E_UNDECIDED;
  if (oc->e2e == ANA_E2E_UNDECIDED) {
    double *d = zc_xmalloc((r->nv ? r->nv : 1) * sizeof *d);
    for (unsigned i = 0; i < r->nv; i++)
      d[i] = r->new_v[i] - r->old_v[i];
    unsigned k = ana_pairs_needed(d, r->nv, thr);
    free(d);
    if (k > oc->pairs_needed) oc->pairs_needed = k;
  }
}

/* Whether row r regressed beyond its threshold: the main figure by the
 * end-to-end threshold; a step's wall time and a web vital in ms by that
 * threshold of their own old mean, and never under mu (a change smaller
 * than the smallest regression reported is not one); CLS by it, and never
 * under 0.05. *thr gets the threshold. */
static int row_regressed(const struct ana_e2e_row *r, int main_row, double mu,
                         double threshold_ms, double threshold_pct,
                         double *thr) {
  if (r->delta.n < 2 || isnan(r->delta.lo)) return 0;
  double t = e2e_threshold(r, threshold_ms, threshold_pct);
  if (isnan(t)) t = 0;
  if (!main_row) {
    double floor = !strcmp(r->unit, "ms") ? mu : 0.05;
    if (t < floor) t = floor;
  }
  *thr = t;
  return r->delta.lo > t;
}

/* The runs' median main-thread CPU share; NAN when no run said. */
static double median_share(const struct ana_cmp *c) {
  double *v = zc_xmalloc(2 * (c->n + 1) * sizeof *v);
  unsigned k = 0;
  for (unsigned p = 0; p < c->n; p++) {
    if (!isnan(c->ofig[p].cpu_share)) v[k++] = c->ofig[p].cpu_share;
    if (!isnan(c->nfig[p].cpu_share)) v[k++] = c->nfig[p].cpu_share;
  }
  double m = NAN;
  if (k) {
    for (unsigned i = 1; i < k; i++) /* insertion sort: a few dozen runs */
      for (unsigned j = i; j && v[j - 1] > v[j]; j--) {
        double t = v[j];
        v[j] = v[j - 1];
        v[j - 1] = t;
      }
    m = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
  }
  free(v);
  return m;
}

unsigned ana_cmp_unexplained(struct ana_cmp *c, double threshold_ms,
                             double threshold_pct,
                             const struct ana_e2e_row **rows, double *thr,
                             unsigned cap) {
  if (!c->n) return 0;
  ana__cmp_aggregate(c);
  if (ana_graph_causes(c->agg) + c->sp.n) return 0;
  /* On runs starved of CPU, wall time measures the machine: an A/A beside
   * 8 busy processes had its main thread at 6 % of a core and +1.7 s of
   * wall time. Then nothing is a regression for want of a function;
   * the verdict says the machine was too busy (ana_cmp_outcome). */
  if (median_share(c) < ANA_STARVED_SHARE) return 0;
  unsigned n = 0;
  const struct ana_e2e_row *m = ana_e2e_main(c->e2e);
  double t;
  int whole = 0;
  if (m && row_regressed(m, 1, c->o.mu, threshold_ms, threshold_pct, &t) &&
      n < cap)
    rows[n] = m, thr[n++] = t, whole = 1;
  /* each step's wall time (parts of the whole: only when the whole did
   * not regress), then the web vitals */
  for (unsigned i = c->e2e ? c->e2e->nmetrics : 0;
       c->e2e && !whole && i < c->e2e->n; i++)
    if (row_regressed(&c->e2e->rows[i], 0, c->o.mu, threshold_ms, threshold_pct,
                      &t) &&
        n < cap)
      rows[n] = &c->e2e->rows[i], thr[n++] = t;
  for (unsigned i = 0; c->vit && i < c->vit->n; i++)
    if (row_regressed(&c->vit->rows[i], 0, c->o.mu, threshold_ms, threshold_pct,
                      &t) &&
        n < cap)
      rows[n] = &c->vit->rows[i], thr[n++] = t;
  return n;
}

void ana_cmp_outcome(struct ana_cmp *c, double threshold_ms,
                     double threshold_pct, struct ana_outcome *oc) {
  memset(oc, 0, sizeof *oc);
  oc->threshold_ms = NAN;
  if (!c->n) return;
  ana__cmp_aggregate(c);
  const struct ana_graph *agg = c->agg;
  oc->causes = ana_graph_causes(agg) + c->sp.n;
  oc->undecided = agg->noisy_causes + c->sp_undecided;
  oc->pairs_needed =
      agg->pairs_needed > c->sp_needed ? agg->pairs_needed : c->sp_needed;
  e2e_outcome(c->e2e, threshold_ms, threshold_pct, oc);
  const struct ana_e2e_row *rows[64];
  double thr[64];
  oc->unexplained =
      ana_cmp_unexplained(c, threshold_ms, threshold_pct, rows, thr, 64);
  oc->cpu_share = median_share(c);
  /* Exit 0 means "we looked and it is not slower" (issue 34): what the
   * pairs cannot decide, or runs too starved to measure, is no such
   * answer. */
  oc->doubt = (oc->undecided ? ANA_DOUBT_CAUSES : 0u) |
              (oc->e2e == ANA_E2E_UNDECIDED ? ANA_DOUBT_E2E : 0u) |
              (oc->cpu_share < ANA_STARVED_SHARE ? ANA_DOUBT_STARVED : 0u);
  /* More I/O on a call path is a regression of its own (issue 36). */
  unsigned io_undecided = 0, io_needed = 0;
  ana__io_outcome(c->io, &oc->io_causes, &io_undecided, &io_needed);
  if (io_undecided) oc->doubt |= ANA_DOUBT_IO;
  if (io_needed > oc->pairs_needed) oc->pairs_needed = io_needed;
  oc->state = oc->causes || oc->unexplained || oc->io_causes ? ANA_REGRESSION
              : oc->doubt                                    ? ANA_INCONCLUSIVE
                          : ANA_NO_REGRESSION;
  if (oc->state != ANA_INCONCLUSIVE) oc->doubt = 0;
}
