/* The trace checks of fuzz_ingest and fuzz_cpuprofile. See fuzz.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "report/report.h"
#include "timeline.h"
#include "zam/zam.h"

static FILE *devnull;

/* The shape ana_tl_finish promises: parents before children, each child
 * listed once under its parent, times that add up. */
static void check_tree(const struct ana_timeline *tl) {
  const struct ana_node *nd = tl->nodes;
  FUZZ_CHECK(tl->nnodes >= 1 && nd[0].kind == ANA_ROOT);
  for (uint32_t i = 0; i < tl->nnodes; i++) {
    const struct ana_node *n = &nd[i];
    FUZZ_CHECK(i == 0 || n->parent < i);
    FUZZ_CHECK(i == 0 || n->kind != ANA_ROOT);
    FUZZ_CHECK(n->self >= 0 && n->total >= n->self);
    FUZZ_CHECK((uint64_t)n->kid0 + n->nkids <= tl->nnodes);
    int64_t sum = n->self;
    for (uint32_t k = 0; k < n->nkids; k++) {
      uint32_t c = tl->kids[n->kid0 + k];
      FUZZ_CHECK(c < tl->nnodes && nd[c].parent == i);
      FUZZ_CHECK(k == 0 ||
                 nd[tl->kids[n->kid0 + k - 1]].first_us <= nd[c].first_us);
      sum += nd[c].total;
    }
    FUZZ_CHECK(sum == n->total);
  }
  FUZZ_CHECK(ana_tl_reachable(tl) == tl->nnodes);
}

/* After ana_prune: no pruned node is listed, and none twice. */
static void check_pruned(const struct ana_timeline *tl) {
  const struct ana_node *nd = tl->nodes;
  uint32_t live = 0;
  FUZZ_CHECK(!nd[0].pruned);
  for (uint32_t i = 0; i < tl->nnodes; i++) {
    const struct ana_node *n = &nd[i];
    FUZZ_CHECK((uint64_t)n->kid0 + n->nkids <= tl->nnodes);
    if (n->pruned) {
      FUZZ_CHECK(n->nkids == 0);
      continue;
    }
    live++;
    for (uint32_t k = 0; k < n->nkids; k++) {
      uint32_t c = tl->kids[n->kid0 + k];
      FUZZ_CHECK(c < tl->nnodes && !nd[c].pruned && nd[c].parent == i);
    }
  }
  FUZZ_CHECK(live + tl->pruned_nodes == tl->nnodes);
  FUZZ_CHECK(ana_tl_reachable(tl) <= live);
}

static int same_ms(double a, double b) {
  return a == b || (isnan(a) && isnan(b));
}

/* The end-to-end figures: never negative (NAN where unknown). */
static void check_figures(const struct ana_figures *f) {
  FUZZ_CHECK(f->marks >= 0 && (uint32_t)f->marks == f->nsteps);
  FUZZ_CHECK(!(f->scenario_ms < 0) && !(f->scripting_ms < 0));
  FUZZ_CHECK(!(f->gc_ms < 0) && !(f->style_layout_ms < 0));
  FUZZ_CHECK(!(f->long_tasks < 0) && !(f->blocking_ms < 0));
  for (uint32_t i = 0; i < f->nsteps; i++)
    FUZZ_CHECK(f->steps[i].step >= 1 && !(f->steps[i].ms < 0) &&
               memchr(f->steps[i].type, 0, sizeof f->steps[i].type));
  /* The vitals: never negative (an LCP candidate before its navigation
   * is none: issue 38), a shift's score at most 1 each, CLS and TBT
   * missing only for a reason. */
  FUZZ_CHECK(!(f->vit.lcp_ms < 0) && !(f->vit.cls < 0));
  FUZZ_CHECK(!(f->vit.inp_ms < 0));
  FUZZ_CHECK(!(f->vit.tbt_ms < 0));
  FUZZ_CHECK(!isnan(f->vit.cls) || f->vit_why & ANA_VW_NO_LOADING);
  FUZZ_CHECK(!isnan(f->vit.tbt_ms) || f->vit_why & ANA_VW_NO_TASKS);
  for (uint32_t i = 0; i < f->nsteps; i++)
    FUZZ_CHECK(!(f->steps[i].vit.cls < 0) && !(f->steps[i].vit.tbt_ms < 0) &&
               !(f->steps[i].vit.inp_ms < 0) && !(f->steps[i].vit.lcp_ms < 0));
}

static int same_vitals(const struct ana_vitals *a, const struct ana_vitals *b) {
  return same_ms(a->lcp_ms, b->lcp_ms) && same_ms(a->cls, b->cls) &&
         same_ms(a->inp_ms, b->inp_ms) && same_ms(a->tbt_ms, b->tbt_ms);
}

/* Two loads of the same bytes into one ctx give the same timeline. */
static void check_same(const struct ana_timeline *a,
                       const struct ana_timeline *b) {
  FUZZ_CHECK(a->nnodes == b->nnodes && a->samples == b->samples);
  FUZZ_CHECK(a->events == b->events && a->parsed == b->parsed);
  FUZZ_CHECK(a->bytes == b->bytes && a->profiles == b->profiles);
  for (uint32_t i = 0; i < a->nnodes; i++) {
    const struct ana_node *x = &a->nodes[i], *y = &b->nodes[i];
    FUZZ_CHECK(x->name == y->name && x->url == y->url && x->key == y->key);
    FUZZ_CHECK(x->line == y->line && x->col == y->col && x->kind == y->kind);
    FUZZ_CHECK(x->parent == y->parent && x->total == y->total);
    FUZZ_CHECK(x->self == y->self && x->first_us == y->first_us);
  }
  const struct ana_figures *f = &a->fig, *h = &b->fig;
  FUZZ_CHECK(f->marks == h->marks && f->nsteps == h->nsteps);
  FUZZ_CHECK(same_ms(f->scenario_ms, h->scenario_ms));
  FUZZ_CHECK(same_ms(f->scripting_ms, h->scripting_ms));
  FUZZ_CHECK(same_ms(f->gc_ms, h->gc_ms));
  FUZZ_CHECK(same_ms(f->style_layout_ms, h->style_layout_ms));
  FUZZ_CHECK(same_ms(f->long_tasks, h->long_tasks));
  FUZZ_CHECK(same_ms(f->blocking_ms, h->blocking_ms));
  for (uint32_t i = 0; i < f->nsteps; i++)
    FUZZ_CHECK(f->steps[i].step == h->steps[i].step &&
               same_ms(f->steps[i].ms, h->steps[i].ms) &&
               !strcmp(f->steps[i].type, h->steps[i].type) &&
               same_vitals(&f->steps[i].vit, &h->steps[i].vit));
  FUZZ_CHECK(same_vitals(&f->vit, &h->vit) && f->vit_why == h->vit_why);
}

void fuzz_trace(const char *path, size_t size) {
  if (!devnull) devnull = fopen("/dev/null", "w");
  zc_verbosity = 0;
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *a = NULL, *b = NULL;
  struct ana_graph *g = NULL, *agg = NULL;
  struct ana_bottomup *bu = NULL;
  struct ana_e2e *e2e = NULL, *vit = NULL;
  /* Reads of 8 KiB hold most inputs whole, as 1 MiB reads hold most
   * traces' events, without the cost of 4 MiB buffers per input. */
  ana__ing_read = 1u << 13;
  enum zc_err ea = ana_load(c, path, &a);
  /* Values cut across many buffer refills must read the same. */
  ana__ing_read = 1 + (unsigned)(size % 61);
  enum zc_err eb = ana_load(c, path, &b);
  ana__ing_read = 1u << 20;
  FUZZ_CHECK(ea == eb);
  FUZZ_CHECK(!ea == (a != NULL) && !eb == (b != NULL));
  if (ea) {
    FUZZ_CHECK(zc_errmsg()[0] != '\0');
    goto out;
  }
  check_same(a, b);
  check_tree(a);
  check_figures(&a->fig);
  ana_tl_print(a, 0, devnull);

  unsigned what = ANA_PRUNE_NAMES | (size & 1 ? ANA_PRUNE_MARKERS : 0);
  ana_prune(a, what);
  ana_prune(b, what);
  check_pruned(a);

  /* A timeline compared with its twin has no regression-cause, and the
   * bottom-up view no difference. */
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_stats st = {0, 0, 0};
  FUZZ_CHECK(ana_critical(a, b, &o, &st, &g) == ZC_OK);
  FUZZ_CHECK(ana_graph_causes(g) == 0);
  agg = ana_aggregate(&g, 1, 0, 1);
  FUZZ_CHECK(ana_graph_causes(agg) == 0);
  ana_write_dot(agg, "fuzz", devnull);
  ana_write_summary(agg, NULL, o.mu, devnull);
  bu = ana_bu_new(c, 1);
  ana_bu_add(bu, a, 0);
  ana_bu_add(bu, b, 1);
  const struct ana_bu_row *rows;
  uint32_t n = ana_bu_rows(bu, &rows);
  for (uint32_t i = 0; i < n; i++)
    FUZZ_CHECK(rows[i].delta_ms == 0);
  /* nor is anything spread out */
  struct ana_spread *spv = NULL;
  unsigned und, need;
  FUZZ_CHECK(ana_bu_spread(bu, o.mu, 0, 1, agg, &spv, &und, &need) == 0);
  free(spv);
  struct ana_spreads sp = {.bu = bu};
  /* Nor do the end-to-end figures of two pairs of twins differ. */
  struct ana_figures olds[2] = {a->fig, b->fig}, news[2] = {b->fig, a->fig};
  e2e = ana_e2e_new(olds, news, 2);
  for (unsigned i = 0; i < e2e->n; i++) {
    const struct ana_e2e_row *r = &e2e->rows[i];
    FUZZ_CHECK(!r->significant && !(r->delta.mean != 0 && r->delta.n));
  }
  ana_write_summary_md(agg, &sp, o.mu, NULL, e2e, devnull);
  /* nor their vitals */
  vit = ana_vitals_new(olds, news, 2, NULL, NULL);
  for (unsigned i = 0; i < vit->n; i++) {
    const struct ana_e2e_row *r = &vit->rows[i];
    FUZZ_CHECK(!r->significant && !(r->delta.mean != 0 && r->delta.n));
  }
  cJSON_Delete(ana_vitals_json(vit));
out:
  ana_e2e_free(vit);
  ana_e2e_free(e2e);
  ana_bu_free(bu);
  ana_graph_free(agg);
  ana_graph_free(g);
  ana_timeline_free(a);
  ana_timeline_free(b);
  ana_ctx_free(c);
}
