/* Tests of the critical graph (Algorithms 2-3) and aggregation details
 * that the golden cases do not pin down: values per pair, matcher counts,
 * threads, (idle), quorum bounds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ana.h"
#include "report/report.h"
#include "test.h"
#include "timeline.h"
#include "treefile.h"
#include "zam/zam.h"

static struct ana_graph *compare(struct ana_ctx *c, const char *old,
                                 const char *new_, double mu,
                                 struct ana_stats *st) {
  struct ana_timeline *o = zt_tree_parse(c, "old", old);
  struct ana_timeline *n = zt_tree_parse(c, "new", new_);
  struct ana_graph *g = NULL;
  if (ZT_TRUE(o && n)) {
    ana_prune(o, ANA_PRUNE_NAMES);
    ana_prune(n, ANA_PRUNE_NAMES);
    struct ana_opts opts;
    ana_opts_default(&opts);
    opts.mu = mu;
    ZT_INT(ana_critical(o, n, &opts, st, &g), ZC_OK);
  }
  ana_timeline_free(o);
  ana_timeline_free(n);
  return g;
}

static void test_thresholds(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  /* Exactly μ counts (>=), just under does not. */
  struct ana_graph *g = compare(c, "top@a.js 10\n  x1@a.js 10\n",
                                "top@a.js 60\n  x1@a.js 59.999\n", 50, &st);
  char *t = zt_graph_text(g);
  ZT_STR(t, "root\n  CrRendererMain\n    top 10.0 -> 60.0 *\n");
  free(t);
  ZT_INT(ana_graph_causes(g), 1);
  ana_graph_free(g);
  /* A new top-level function under μ is nothing; at μ it is a cause. */
  g = compare(c, "top@a.js 10\n", "top@a.js 10\nfresh@a.js 49\n", 50, &st);
  ZT_INT(ana_graph_causes(g), 0);
  ZT_INT(g->nodes[0].nkids, 0); /* the thread left with nothing */
  ana_graph_free(g);
  g = compare(c, "top@a.js 10\n", "top@a.js 10\nfresh@a.js 50\n", 50, &st);
  ZT_INT(ana_graph_causes(g), 1);
  ana_graph_free(g);
  /* A new node is descended against nothing: its children of μ or more
   * are new too, and the lowest are the causes (the paper stops at the
   * new node). Under μ, a child is left out and the new node stays the
   * cause. */
  g = compare(c, "top@a.js 100\n",
              "top@a.js 400\n  fresh@a.js 300\n    deep@a.js 250\n"
              "    small@a.js 40\n",
              50, &st);
  t = zt_graph_text(g);
  ZT_STR(t, "root\n  CrRendererMain\n    top 100.0 -> 400.0\n"
            "      fresh new 300.0\n        deep new 250.0 *\n");
  free(t);
  ZT_INT(ana_graph_causes(g), 1);
  ana_graph_free(g);
  ana_ctx_free(c);
}

static void test_values_and_stats(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g =
      compare(c, "top@a.js 100\n  mid@a.js 80\n    leaf@a.js 50\n",
              "top@a.js 300\n  mid@a.js 270\n    leaf@a.js 240\n"
              "    newer@b.js 20\n",
              50, &st);
  struct ana_cause *cs;
  uint32_t n = ana_causes(g, &cs);
  if (ZT_INT(n, 1)) {
    const struct ana_gnode *leaf = &g->nodes[cs[0].node];
    ZT_STR(ana_str(c, leaf->name), "leaf");
    ZT_STR(ana_str(c, leaf->component), "/a.js");
    ZT_NEAR(cs[0].old_ms, 50, 1e-9);
    ZT_NEAR(cs[0].new_ms, 240, 1e-9);
    ZT_NEAR(cs[0].delta_ms, 190, 1e-9);
    ZT_INT(g->old_w[cs[0].node], 50000);
    ZT_INT(g->new_w[cs[0].node], 240000);
    ZT_INT(leaf->isnew, 0);
    char where[128];
    ana_gnode_where(g, cs[0].node, where, sizeof where);
    ZT_STR(where, "leaf (/a.js:0:1)");
  }
  free(cs);
  /* root/thread, thread/top: alternate; top/mid, mid/leaf: LCS; leaf has
   * no old children, so no matcher runs for its (empty) level... except
   * that leaf's level is visited: one LCS-less pass counts nothing. */
  ZT_INT(st.alternate, 2);
  ZT_INT(st.lcs, 2);
  ZT_INT(st.lcs_timeouts, 0);
  ana_graph_free(g);
  ana_ctx_free(c);
}

/* A timeline by hand: a thread with (idle), (program), (garbage
 * collector) and one function, each with its own self time (ms). */
static struct ana_timeline *native_tl(struct ana_ctx *c, const char *src,
                                      int64_t idle, int64_t prog, int64_t gc,
                                      int64_t work) {
  struct ana_timeline *tl = ana_tl_new(c, src);
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", "", -1, -1);
  const struct {
    enum ana_kind kind;
    const char *name;
    int64_t ms;
  } kids[] = {{ANA_IDLE, "(idle)", idle},
              {ANA_PROGRAM, "(program)", prog},
              {ANA_GC, "(garbage collector)", gc},
              {ANA_FUNC, "work", work}};
  for (int k = 0; k < 4; k++) {
    uint32_t n =
        ana_tl_child(tl, th, kids[k].kind, kids[k].name,
                     kids[k].kind == ANA_FUNC ? "http://h/a.js" : "", -1, -1);
    ana_tl_sample(tl, n, k + 1, kids[k].ms * 1000);
  }
  ana_tl_finish(tl);
  return tl;
}

static void test_idle_never(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_timeline *ot = native_tl(c, "old", 100, 10, 5, 10);
  struct ana_timeline *nt = native_tl(c, "new", 900, 200, 300, 70);
  struct ana_graph *g = NULL;
  ZT_INT(ana_critical(ot, nt, &o, &st, &g), ZC_OK);
  char *t = zt_graph_text(g);
  /* (idle) is not work; (program) and (garbage collector) are native
   * time, reported beside the causes (end-to-end rows), never as causes:
   * only the page's function is named. */
  ZT_STR(t, "root\n  CrRendererMain\n    work 10.0 -> 70.0 *\n");
  free(t);
  ana_graph_free(g);
  ana_timeline_free(ot);
  ana_timeline_free(nt);
  ana_ctx_free(c);
}

static void test_lcs_fallback(void) {
  /* A zero budget makes every LCS give up; the alternate matcher takes
   * over. It ignores order, so the reordered aa still matches its twin. */
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *o = zt_tree_parse(c, "o",
                                         "top@a.js 10\n  aa@a.js 5\n"
                                         "  bb@a.js 5\n");
  struct ana_timeline *n = zt_tree_parse(c, "n",
                                         "top@a.js 200\n  bb@a.js 5\n"
                                         "  aa@a.js 195\n");
  struct ana_opts opts;
  ana_opts_default(&opts);
  opts.lcs_budget_ms = 0;
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g = NULL;
  ZT_INT(ana_critical(o, n, &opts, &st, &g), ZC_OK);
  ZT_INT(st.lcs_timeouts, 1);
  ZT_INT(st.lcs, 0);
  char *t = zt_graph_text(g);
  ZT_STR(t, "root\n  CrRendererMain\n    top 10.0 -> 200.0\n"
            "      aa 5.0 -> 195.0 *\n");
  free(t);
  ana_graph_free(g);
  ana_timeline_free(o);
  ana_timeline_free(n);
  ana_ctx_free(c);
}

static void test_aggregate_values(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *gs[2];
  gs[0] = compare(c, "top@a.js 10\n", "top@a.js 110\n", 50, &st);
  gs[1] = compare(c, "top@a.js 20\n", "top@a.js 90\n", 50, &st);
  struct ana_graph *a = ana_aggregate(gs, 2, 0, 0);
  struct ana_cause *cs;
  if (ZT_INT(ana_causes(a, &cs), 1)) {
    uint32_t i = cs[0].node;
    ZT_NEAR(cs[0].delta_ms, 85, 1e-9);
    ZT_INT(a->old_w[i * 2], 10000);
    ZT_INT(a->new_w[i * 2 + 1], 90000);
    ZT_INT(a->nodes[i].present, 2);
  }
  free(cs);
  ana_graph_free(a);
  /* A quorum above the pair count means all pairs. */
  a = ana_aggregate(gs, 2, 7, 0);
  ZT_INT(ana_graph_causes(a), 1);
  ana_graph_free(a);
  ZT_TRUE(ana_aggregate(gs, 0, 0, 0) == NULL);
  ana_graph_free(gs[0]);
  ana_graph_free(gs[1]);
  ana_ctx_free(c);
}

/* A call path 300 levels deep: the cause is the bottom function, not one
 * 256 levels down (the walk's level counter once wrapped there). */
static void test_deep_path(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  struct zc_buf o, n;
  zc_buf_init(&o, 1 << 22);
  zc_buf_init(&n, 1 << 22);
  for (int d = 0; d < 300; d++) {
    ZT_INT(zc_buf_printf(&o, "%*sf%d@a.js %d\n", 2 * d, "", d, 1000 - d),
           ZC_OK);
    ZT_INT(zc_buf_printf(&n, "%*sf%d@a.js %d\n", 2 * d, "", d, 1500 - d),
           ZC_OK);
  }
  struct ana_graph *g = compare(c, o.ptr, n.ptr, 50, &st);
  struct ana_cause *cs;
  if (ZT_INT(ana_causes(g, &cs), 1)) {
    const char *name = ana_str(c, g->nodes[cs[0].node].name);
    ZT_STR(name, "f299");
  }
  free(cs);
  ana_graph_free(g);
  zc_buf_free(&o);
  zc_buf_free(&n);
  ana_ctx_free(c);
}

/* Seed 001's rule, with 3 pairs: a node whose Δs swing so widely over the
 * pairs that their 95 % interval reaches 0 is left out, with its subtree;
 * its parent, slower steadily, becomes the cause. Under 3 pairs nothing
 * is tested. */
static void test_aggregate_significance(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *gs[3];
  static const char *const old = "top@a.js 200\n  noisy@a.js 50\n"
                                 "  other@a.js 50\n";
  /* top: +305 in each pair; noisy: +60, +300, +55 (interval -13..+257);
   * other: +245, +5, +250, so not in every pair. */
  static const char *const news[3] = {
      "top@a.js 505\n  noisy@a.js 110\n  other@a.js 295\n",
      "top@a.js 505\n  noisy@a.js 350\n  other@a.js 55\n",
      "top@a.js 505\n  noisy@a.js 105\n  other@a.js 300\n"};
  for (int p = 0; p < 3; p++)
    gs[p] = compare(c, old, news[p], 50, &st);
  struct ana_graph *a = ana_aggregate(gs, 3, 0, 1);
  char *t = zt_graph_text(a);
  ZT_HAS(t, "top");
  ZT_TRUE(t && !strstr(t, "noisy"));
  ZT_INT(ana_graph_causes(a), 1);
  ZT_INT(a->noisy, 1);
  free(t);
  ana_graph_free(a);
  /* Without the test, ZAM's rule alone: noisy is slower by 50 ms in every
   * pair, so it is the cause. */
  a = ana_aggregate(gs, 3, 0, 0);
  t = zt_graph_text(a);
  ZT_HAS(t, "noisy");
  ZT_INT(a->noisy, 0);
  free(t);
  ana_graph_free(a);
  /* Two pairs: not tested. */
  a = ana_aggregate(gs, 2, 0, 1);
  t = zt_graph_text(a);
  ZT_HAS(t, "noisy");
  free(t);
  ana_graph_free(a);
  for (int p = 0; p < 3; p++)
    ana_graph_free(gs[p]);
  ana_ctx_free(c);
}

/* Siblings ordered by first sample swap places between runs. LCS keeps
 * order: here it keeps paint and style and leaves layout out; zamcap matches
 * such leftovers by key, so a reordered function is slower or unchanged, never
 * "new". */
static void test_reordered_siblings(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g =
      compare(c,
              "top@a.js 100\n  paint@a.js 20\n  style@a.js 10\n"
              "  layout@a.js 60\n",
              "top@a.js 300\n  layout@a.js 255\n  paint@a.js 21\n"
              "  style@a.js 10\n",
              50, &st);
  char *t = zt_graph_text(g);
  ZT_STR(t, "root\n  CrRendererMain\n    top 100.0 -> 300.0\n"
            "      layout 60.0 -> 255.0 *\n");
  free(t);
  ZT_INT(st.lcs, 1);
  ana_graph_free(g);
  /* A/A with the order flipped: nothing at all. */
  g = compare(c,
              "top@a.js 100\n  paint@a.js 20\n  style@a.js 10\n"
              "  layout@a.js 60\n",
              "top@a.js 100\n  layout@a.js 60\n  paint@a.js 20\n"
              "  style@a.js 10\n",
              50, &st);
  ZT_INT(ana_graph_causes(g), 0);
  ana_graph_free(g);
  ana_ctx_free(c);
}

/* summary.md carries names from the page: each is a code span, in which
 * nothing is markup; the verdict's prose escapes only what Markdown would
 * misread, so that it reads well as plain text too. */
static void test_summary_md_escapes(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g = compare(c, "top@a.js 10\n",
                                "top@a.js 10\n<img|onerror=*x*>@a.js 90\n"
                                "`**x**`@a.js 80\n",
                                50, &st);
  FILE *f = fopen(zt_tmp("s.md"), "w");
  ana_write_summary_md(g, NULL, 50,
                       "2 regression-causes (slower by 50 ms); the "
                       "largest: <b>x</b> (a.js:1:2), +90.0 ms.",
                       NULL, f);
  fclose(f);
  char *md = zt_read(zt_tmp("s.md"));
  ZT_HAS(md, "### zamcap: 2 regression-causes (slower by ≥ 50 ms in the one "
             "pair)");
  ZT_HAS(md, "2 regression-causes (slower by 50 ms); the largest: "
             "\\<b\\>x\\</b\\> (a.js:1:2), +90.0 ms.");
  ZT_TRUE(md && !strstr(md, "\\-") && !strstr(md, "\\(") && !strstr(md, "\\."));
  ZT_HAS(md, "| `<img\\|onerror=*x*>` (new) |");
  ZT_HAS(md, "| `` `**x**` `` (new) |"); /* a longer fence, padded */
  ZT_TRUE(md && !strstr(md, "<img|"));
  free(md);
  ana_graph_free(g);
  /* A 200-byte name (the tree format's longest; the cap is 120) and a call path
   * 300 deep: the file stays small. */
  struct zc_buf o, n;
  zc_buf_init(&o, 1 << 24);
  zc_buf_init(&n, 1 << 24);
  char big[201];
  memset(big, 'x', 200);
  big[200] = '\0';
  for (int d = 0; d < 300; d++) {
    for (int k = 0; k < d; k++) {
      ZT_INT(zc_buf_add(&o, "  ", 2), ZC_OK);
      ZT_INT(zc_buf_add(&n, "  ", 2), ZC_OK);
    }
    ZT_INT(zc_buf_printf(&o, "f%d@a.js 10\n", d), ZC_OK);
    ZT_INT(zc_buf_printf(&n, "%s%d@a.js %d\n", d == 299 ? big : "f", d,
                         d == 299 ? 300 : 400),
           ZC_OK);
  }
  g = compare(c, o.ptr, n.ptr, 50, &st);
  if (!ZT_TRUE(g)) return;
  f = fopen(zt_tmp("deep.md"), "w");
  ana_write_summary_md(g, NULL, 50, NULL, NULL, f);
  fclose(f);
  md = zt_read(zt_tmp("deep.md"));
  ZT_TRUE(md && strlen(md) < 4000);
  ZT_HAS(md, "`f2` › … 289 more › `f292`"); /* 301 calls, 12 shown */
  ZT_HAS(md, "xxx…`");
  free(md);
  ana_graph_free(g);
  zc_buf_free(&o);
  zc_buf_free(&n);
  ana_ctx_free(c);
}

/* A timeline of bytes: one thread, a top-level function and under it one
 * that allocates kb KiB in the pair's run. */
static struct ana_timeline *bytes_tl(struct ana_ctx *c, const char *src,
                                     int64_t kb) {
  struct ana_timeline *tl = ana_tl_new(c, src);
  tl->unit = ANA_UNIT_BYTES;
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", "", -1, -1);
  uint32_t top =
      ana_tl_child(tl, th, ANA_FUNC, "render", "http://h/a.js", 1, 0);
  uint32_t f =
      ana_tl_child(tl, top, ANA_FUNC, "cloneRows", "http://h/a.js", 9, 2);
  ana_tl_sample(tl, top, 1, 4096);
  ana_tl_sample(tl, f, 2, kb * 1024);
  ana_tl_finish(tl);
  return tl;
}

/* The weight has a unit: bytes go through the matching, the critical
 * graph and the aggregation as time does, μ in KB, and the reports say
 * KB; time and bytes are not compared. */
static void test_unit_bytes(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_opts o;
  ana_opts_default(&o);
  o.mu = 100; /* KB */
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g[3] = {NULL, NULL, NULL};
  for (int p = 0; p < 3; p++) {
    struct ana_timeline *ot = bytes_tl(c, "old", 100);
    struct ana_timeline *nt = bytes_tl(c, "new", 300 + 10 * p);
    ZT_INT(ana_critical(ot, nt, &o, &st, &g[p]), ZC_OK);
    ana_timeline_free(ot);
    ana_timeline_free(nt);
  }
  ZT_INT(g[0]->unit, ANA_UNIT_BYTES);
  ZT_INT(ana_graph_causes(g[0]), 1);
  struct ana_graph *agg = ana_aggregate(g, 3, 0, 1);
  ZT_INT(agg->unit, ANA_UNIT_BYTES);
  struct ana_cause *cs = NULL;
  ZT_INT(ana_causes(agg, &cs), 1);
  ZT_STR(ana_str(c, agg->nodes[cs[0].node].name), "cloneRows");
  ZT_NEAR(cs[0].delta_ms, 210.0, 1e-9); /* KB: (200 + 210 + 220) / 3 */
  free(cs);
  char *dot = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&dot, &n);
  ZT_INT(ana_write_dot(agg, "bytes", f), ZC_OK);
  fclose(f);
  ZT_HAS(dot, "100.0 \xe2\x86\x92 310.0 (+210.0) KB");
  free(dot);
  /* Under μ in KB nothing is named: 90 KB more is no cause at μ 100. */
  struct ana_timeline *ot = bytes_tl(c, "old", 100);
  struct ana_timeline *nt = bytes_tl(c, "new", 190);
  struct ana_graph *small = NULL;
  ZT_INT(ana_critical(ot, nt, &o, &st, &small), ZC_OK);
  ZT_INT(ana_graph_causes(small), 0);
  ana_graph_free(small);
  /* Bytes against time: refused, saying what each weighs. */
  nt->unit = ANA_UNIT_TIME;
  struct ana_graph *mixed = NULL;
  ZT_INT(ana_critical(ot, nt, &o, &st, &mixed), ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "old weighs bytes and new weighs time");
  ZT_TRUE(mixed == NULL);
  ana_timeline_free(ot);
  ana_timeline_free(nt);
  ana_graph_free(agg);
  for (int p = 0; p < 3; p++)
    ana_graph_free(g[p]);
  ana_ctx_free(c);
}

/* The aggregated graph of 3 identical pairs of trees (mu 50 ms, the
 * significance test on), the timelines added to bu as compare adds them. */
static struct ana_graph *three_pairs(struct ana_ctx *c, const char *old,
                                     const char *new_,
                                     struct ana_bottomup *bu) {
  struct ana_graph *g[3] = {NULL, NULL, NULL};
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_stats st = {0, 0, 0};
  for (int p = 0; p < 3; p++) {
    struct ana_timeline *ot = zt_tree_parse(c, "old", old);
    struct ana_timeline *nt = zt_tree_parse(c, "new", new_);
    ana_bu_add(bu, ot, 0);
    ana_bu_add(bu, nt, 1);
    ana_prune(ot, ANA_PRUNE_NAMES);
    ana_prune(nt, ANA_PRUNE_NAMES);
    ZT_INT(ana_critical(ot, nt, &o, &st, &g[p]), ZC_OK);
    ana_timeline_free(ot);
    ana_timeline_free(nt);
  }
  struct ana_graph *agg = ana_aggregate(g, 3, 0, 1);
  for (int p = 0; p < 3; p++)
    ana_graph_free(g[p]);
  return agg;
}

/* The same, with moved calls dropped by the bottom-up table of the same
 * timelines and consequences marked. */
static struct ana_graph *moved_agg(struct ana_ctx *c, const char *old,
                                   const char *new_) {
  struct ana_bottomup *bu = ana_bu_new(c, 3);
  struct ana_graph *agg = three_pairs(c, old, new_, bu);
  ana_graph_drop_moved(agg, bu, 50);
  ana_graph_mark_effects(agg);
  ana_bu_free(bu);
  return agg;
}

/* Issue 25.3: the clone step's own code got slower (+60 ms in itself);
 * because of it, patch re-patches more, so each of its five callees grew
 * by about the same factor (+160 ms in all, none by mu). Both are causes;
 * clone is the root and ranks first, patch is marked a consequence. With
 * no root beside it, patch alone is a cause like any other. */
static const char cons_old[] = "update@a.js 200\n  clone@a.js 50\n"
                               "    copy@a.js 20\n    fill@a.js 20\n"
                               "  patch@a.js 150\n    diffKids@a.js 28\n"
                               "    setAttr@a.js 28\n    insert@a.js 28\n"
                               "    remove@a.js 28\n    style@a.js 28\n";
static const char cons_new[] = "update@a.js 420\n  clone@a.js 110\n"
                               "    copy@a.js 20\n    fill@a.js 20\n"
                               "  patch@a.js 310\n    diffKids@a.js 58\n"
                               "    setAttr@a.js 58\n    insert@a.js 58\n"
                               "    remove@a.js 58\n    style@a.js 58\n";

static void test_consequence(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_graph *g = moved_agg(c, cons_old, cons_new);
  struct ana_cause *cs = NULL;
  ZT_INT(ana_causes(g, &cs), 2);
  ZT_STR(ana_str(c, g->nodes[cs[0].node].name), "clone");
  ZT_INT(cs[0].effect, 0);
  ZT_STR(ana_str(c, g->nodes[cs[1].node].name), "patch");
  ZT_INT(cs[1].effect, 1);
  ZT_TRUE(g->nodes[cs[1].node].same > 0.95);
  free(cs);
  ana_graph_free(g);
  /* patch alone: no root to be a consequence of */
  g = moved_agg(c,
                "update@a.js 150\n  patch@a.js 150\n    diffKids@a.js 28\n"
                "    setAttr@a.js 28\n    insert@a.js 28\n"
                "    remove@a.js 28\n    style@a.js 28\n",
                "update@a.js 310\n  patch@a.js 310\n    diffKids@a.js 58\n"
                "    setAttr@a.js 58\n    insert@a.js 58\n"
                "    remove@a.js 58\n    style@a.js 58\n");
  ZT_INT(ana_causes(g, &cs), 1);
  ZT_INT(cs[0].effect, 0);
  free(cs);
  ana_graph_free(g);
  ana_ctx_free(c);
}

/* The spread-out causes of 3 identical pairs of trees. */
static uint32_t spread_of(struct ana_ctx *c, const char *old, const char *new_,
                          struct ana_spread **v) {
  struct ana_bottomup *bu = ana_bu_new(c, 3);
  struct ana_graph *agg = three_pairs(c, old, new_, bu);
  unsigned und, need;
  uint32_t n = ana_bu_spread(bu, 50, 0, 0, agg, v, &und, &need);
  ana_graph_free(agg);
  ana_bu_free(bu);
  return n;
}

/* Issue 25: newKeyPath got slower by 60 ms, 30 under each of two handlers
 * and half of it in a callee: no call path passes mu, nor its self time,
 * nor any callee's. Its time with its callees did, and none below it: it
 * is named, measured inclusive; its callers, whose growth it explains,
 * are not. The same trees on both sides name nothing. */
static void test_spread_inclusive(void) {
  static const char old[] = "onRecalc@a.js 60\n  get@a.js 60\n"
                            "    newKeyPath@a.js 20\n      concat@a.js 10\n"
                            "onScale@a.js 60\n  cursor@a.js 60\n"
                            "    newKeyPath@a.js 20\n      concat@a.js 10\n";
  static const char new_[] = "onRecalc@a.js 90\n  get@a.js 90\n"
                             "    newKeyPath@a.js 50\n      concat@a.js 25\n"
                             "onScale@a.js 90\n  cursor@a.js 90\n"
                             "    newKeyPath@a.js 50\n      concat@a.js 25\n";
  struct ana_ctx *c = ana_ctx_new();
  struct ana_spread *v = NULL;
  ZT_INT(spread_of(c, old, new_, &v), 1);
  ZT_STR(ana_str(c, v[0].fn.name), "newKeyPath");
  ZT_INT(v[0].inclusive, 1);
  ZT_NEAR(v[0].delta_ms, 60, 0.01);
  free(v);
  ZT_INT(spread_of(c, old, old, &v), 0);
  free(v);
  ana_ctx_free(c);
}

/* Issue 25: one bottom-up row holds all of a file's anonymous functions.
 * Slowed under a cause the graph names (an injected callback under its
 * function), the row is that cause again, not a second name; spread over
 * two callers that no cause names, it is the only sign and is named. */
static void test_spread_anonymous(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_spread *v = NULL;
  ZT_INT(spread_of(c, "alpha@a.js 20\n  (anonymous)@a.js 10\n",
                   "alpha@a.js 100\n  (anonymous)@a.js 90\n", &v),
         0);
  free(v);
  ZT_INT(spread_of(c,
                   "alpha@a.js 20\n  (anonymous)@a.js 10\n"
                   "beta@a.js 20\n  (anonymous)@a.js 10\n",
                   "alpha@a.js 50\n  (anonymous)@a.js 40\n"
                   "beta@a.js 50\n  (anonymous)@a.js 40\n",
                   &v),
         1);
  free(v);
  ana_ctx_free(c);
}

/* Issue 35, @babel/runtime 7.5.2 (the twentieth held-out half): ownKeys
 * grew by 15 ms of its own and 15 ms in an anonymous callback (V8's name
 * "", DevTools' "(anonymous)") under each of four callers, no call path
 * by mu. The matching prunes the callback into ownKeys: so does the
 * spread-out search, which names ownKeys once, by +120 ms, and not the
 * anonymous row beside it (+60 ms, all of it under ownKeys). A file's
 * anonymous row that no named cause holds is still named, as
 * "(anonymous)". */
static void test_spread_pruned_self(void) {
  static const char old[] = "a@a.js 20\n  ownKeys@o.js 10\n    @o.js:14 5\n"
                            "b@a.js 20\n  ownKeys@o.js 10\n    @o.js:14 5\n"
                            "c@a.js 20\n  ownKeys@o.js 10\n    @o.js:14 5\n"
                            "d@a.js 20\n  ownKeys@o.js 10\n    @o.js:14 5\n";
  static const char new_[] = "a@a.js 50\n  ownKeys@o.js 40\n    @o.js:14 20\n"
                             "b@a.js 50\n  ownKeys@o.js 40\n    @o.js:14 20\n"
                             "c@a.js 50\n  ownKeys@o.js 40\n    @o.js:14 20\n"
                             "d@a.js 50\n  ownKeys@o.js 40\n    @o.js:14 20\n";
  struct ana_ctx *c = ana_ctx_new();
  struct ana_spread *v = NULL;
  ZT_INT(spread_of(c, old, new_, &v), 1);
  ZT_STR(ana_str(c, v[0].fn.name), "ownKeys");
  ZT_INT(v[0].inclusive, 0);
  ZT_NEAR(v[0].delta_ms, 120, 0.01);
  free(v);
  /* the callback's time with no named caller: its own row, named */
  ZT_INT(spread_of(c, "t@a.js 10\n@o.js:14 20\n@o.js:14 20\n",
                   "t@a.js 10\n@o.js:14 60\n@o.js:14 60\n", &v),
         1);
  ZT_STR(ana_str(c, v[0].fn.name), "(anonymous)");
  free(v);
  ana_ctx_free(c);
}

/* Issue 25: Immutable 3.6's new newKeyPath, called under two cursor
 * methods of one row, runs old code (concat, its helpers) that the old
 * build ran elsewhere. No call path under row passes mu, so the graph's
 * cause is row, a caller (+70 ms, its own time unchanged); concat's time
 * grew by 60 ms, all of it under newKeyPath. The new code explains
 * concat's growth, so newKeyPath, where the new code is entered, is the
 * lowest by inclusive time and is named; row and sheet only carried its
 * time to one call path and leave the graph. */
static void test_spread_new_code(void) {
  static const char old[] = "sheet@a.js 100\n  row@a.js 90\n"
                            "    get@i.js 40\n      getIn@i.js 30\n"
                            "    cursor@i.js 40\n      sub@i.js 30\n"
                            "other@a.js 20\n  concat@i.js 15\n"
                            "    ha@i.js 4\n    hb@i.js 4\n    hc@i.js 4\n";
  static const char new_[] =
      "sheet@a.js 170\n  row@a.js 160\n"
      "    get@i.js 75\n      getIn@i.js 65\n        newKeyPath@c.js 35\n"
      "          concat@i.js 30\n"
      "            ha@i.js 9\n            hb@i.js 9\n            hc@i.js 9\n"
      "    cursor@i.js 75\n      sub@i.js 65\n        newKeyPath@c.js 35\n"
      "          concat@i.js 30\n"
      "            ha@i.js 9\n            hb@i.js 9\n            hc@i.js 9\n"
      "other@a.js 20\n  concat@i.js 15\n"
      "    ha@i.js 4\n    hb@i.js 4\n    hc@i.js 4\n";
  struct ana_ctx *c = ana_ctx_new();
  struct ana_bottomup *bu = ana_bu_new(c, 3);
  struct ana_graph *agg = three_pairs(c, old, new_, bu);
  ana_graph_drop_moved(agg, bu, 50);
  char *t = zt_graph_text(agg);
  ZT_STR(t, "root\n  CrRendererMain\n    sheet 100.0 -> 170.0\n"
            "      row 90.0 -> 160.0 *\n");
  free(t);
  struct ana_spread *v = NULL;
  unsigned und, need;
  uint32_t n = ana_bu_spread(bu, 50, 0, 0, agg, &v, &und, &need);
  ZT_INT(n, 1);
  if (n) {
    ZT_STR(ana_str(c, v[0].fn.name), "newKeyPath");
    ZT_INT(v[0].inclusive, 1);
  }
  ZT_INT(ana_graph_drop_callers(agg, bu, v, n, 50), 1);
  ZT_INT(ana_graph_causes(agg), 0);
  free(v);
  ana_graph_free(agg);
  ana_bu_free(bu);
  ana_ctx_free(c);
}

/* The three pairs' graphs of old against nw[0..2] (mu 50 ms). */
static void graphs3(struct ana_ctx *c, const char *old, const char *const *nw,
                    struct ana_graph **g) {
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_stats st = {0, 0, 0};
  for (int p = 0; p < 3; p++) {
    struct ana_timeline *ot = zt_tree_parse(c, "old", old);
    struct ana_timeline *nt = zt_tree_parse(c, "new", nw[p]);
    ZT_INT(ana_critical(ot, nt, &o, &st, &g[p]), ZC_OK);
    ana_timeline_free(ot);
    ana_timeline_free(nt);
  }
}

/* Issue 25.2: a cause whose child crosses mu in some pairs only is named
 * at the lowest node every pair agrees on: the tokenizer (+100, +110,
 * +120 ms), not its RegExp child (+48, +60, +80: under mu in pair 1). */
static void test_lowest_agreed(void) {
  struct ana_ctx *c = ana_ctx_new();
  static const char *const nw[3] = {
      "parse@a.js 210\n  tokenize@a.js 200\n    regexExec@a.js 68\n",
      "parse@a.js 220\n  tokenize@a.js 210\n    regexExec@a.js 80\n",
      "parse@a.js 230\n  tokenize@a.js 220\n    regexExec@a.js 100\n"};
  struct ana_graph *g[3] = {NULL, NULL, NULL};
  graphs3(c, "parse@a.js 110\n  tokenize@a.js 100\n    regexExec@a.js 20\n", nw,
          g);
  ZT_INT(ana_graph_causes(g[0]), 1); /* tokenize, a leaf in pair 1 */
  struct ana_graph *agg = ana_aggregate(g, 3, 0, 1);
  char *t = zt_graph_text(agg);
  ZT_STR(t, "root\n  CrRendererMain\n    parse 110.0 -> 220.0\n"
            "      tokenize 100.0 -> 210.0 *\n");
  free(t);
  ZT_INT(agg->noisy, 0);
  ana_graph_free(agg);
  for (int p = 0; p < 3; p++)
    ana_graph_free(g[p]);
  ana_ctx_free(c);
}

/* Moved calls and old code called from new code (issues 25.1 and 25.3):
 * each row is 3 identical pairs of trees (old, new), the aggregated graph
 * with moved calls dropped and consequences marked (moved_agg), its text,
 * and how many causes only moved (g->moved) and how many old functions
 * were named through the new code above them (g->via_new). */
struct moved_case {
  const char *why, *old, *new_, *graph;
  uint32_t moved, via_new;
};

#define SAMPLE_OLD "sampleSize@l.js 60\n  baseRandom@l.js 20\n"

static const struct moved_case moved_cases[] = {
    {.why = "tokenize moved from parseA to parseB, 80 ms either way: "
            "neither it nor the caller its time moved under is a cause",
     .old = "parseA@a.js 100\n  tokenize@a.js 80\nparseB@a.js 10\n",
     .new_ = "parseA@a.js 20\nparseB@a.js 90\n  tokenize@a.js 80\n",
     .graph = "root\n",
     .moved = 2},
    {.why = "the lexer calls tokenize itself now, not through a wrapper, "
            "and its own work grew by 60 ms: the lexer is the cause",
     .old = "lexer@a.js 100\n  wrapper@a.js 80\n    tokenize@a.js 80\n",
     .new_ = "lexer@a.js 160\n  tokenize@a.js 80\n",
     .graph = "root\n  CrRendererMain\n    lexer 100.0 -> 160.0 *\n",
     .moved = 1},
    {.why = "a function that is new and costs 80 ms is a cause",
     .old = "render@a.js 20\n",
     .new_ = "render@a.js 100\n  fresh@a.js 80\n",
     .graph = "root\n  CrRendererMain\n    render 20.0 -> 100.0\n"
              "      fresh new 80.0 *\n"},
    {.why = "helper is new under outside, and its own self time did not "
            "grow: the extra 75 ms are in an anonymous callee, which the "
            "matching prunes and the bottom-up table keys apart. What "
            "helper costs with its callees grew, so it did not just move: "
            "it stays the cause",
     .old = "other@a.js 10\n  helper@a.js 5\noutside@a.js 20\n",
     .new_ = "other@a.js 10\n  helper@a.js 5\noutside@a.js 100\n"
             "  helper@a.js 80\n    (anonymous)@a.js 75\n",
     .graph = "root\n  CrRendererMain\n    outside 20.0 -> 100.0\n"
              "      helper new 80.0 *\n"},
    /* lodash's sampleSize now shuffles the whole array: shuffle, new,
     * loops over every element and calls baseRandom each time.
     * baseRandom costs what it did per call; the cause is the new loop. */
    {.why = "shuffle's own time is 65 ms: its loop runs more",
     .old = SAMPLE_OLD,
     .new_ = "sampleSize@l.js 200\n  shuffle@l.js 195\n"
             "    baseRandom@l.js 130\n",
     .graph = "root\n  CrRendererMain\n    sampleSize 60.0 -> 200.0\n"
              "      shuffle new 195.0 *\n",
     .via_new = 1},
    {.why = "shuffle's own time is under mu, but shuffle is new to the "
            "build and baseRandom ran in the old build",
     .old = SAMPLE_OLD,
     .new_ = "sampleSize@l.js 200\n  shuffle@l.js 160\n"
             "    baseRandom@l.js 130\n",
     .graph = "root\n  CrRendererMain\n    sampleSize 60.0 -> 200.0\n"
              "      shuffle new 160.0 *\n",
     .via_new = 1},
    {.why = "the old runs never saw baseRandom (inlined there): nothing "
            "tells it from new code, and it stays the cause",
     .old = "sampleSize@l.js 60\n",
     .new_ = "sampleSize@l.js 200\n  shuffle@l.js 160\n"
             "    baseRandom@l.js 130\n",
     .graph = "root\n  CrRendererMain\n    sampleSize 60.0 -> 200.0\n"
              "      shuffle new 160.0\n        baseRandom new 130.0 *\n"},
    {.why = "a new function's pattern runs through old scanner code: the "
            "compiled RegExp (no file, no code of its own) and the old "
            "helpers it runs under are the new function's time "
            "(js-beautify 1.15's _read_control_flows)",
     .old = "tokenize@b.js 100\n  read@b.js 20\n    match@b.js 15\n",
     .new_ = "tokenize@b.js 300\n  flows@b.js 200\n    read@b.js 190\n"
             "      match@b.js 185\n        RegExp:[({] 180\n",
     .graph = "root\n  CrRendererMain\n    tokenize 100.0 -> 300.0\n"
              "      flows new 200.0 *\n",
     .via_new = 3},
    {.why = "the old runs never sampled read (1.14's subclasses override "
            "the base class's Pattern.read), but it only passes the call on "
            "to the old scanner, its own time under one sample (1 ms "
            "here): a conduit, named through the new function above it",
     .old = "tokenize@b.js 100\n  match@b.js 15\n",
     .new_ = "tokenize@b.js 300\n  flows@b.js 200\n    read@b.js 190\n"
             "      match@b.js 189.5\n        RegExp:[({] 180\n",
     .graph = "root\n  CrRendererMain\n    tokenize 100.0 -> 300.0\n"
              "      flows new 200.0 *\n",
     .via_new = 3},
    {.why = "the same, but read did work of its own (2 ms): it is the cause",
     .old = "tokenize@b.js 100\n  match@b.js 15\n",
     .new_ = "tokenize@b.js 300\n  flows@b.js 200\n    read@b.js 190\n"
             "      match@b.js 188\n        RegExp:[({] 180\n",
     .graph = "root\n  CrRendererMain\n    tokenize 100.0 -> 300.0\n"
              "      flows new 200.0\n        read new 190.0 *\n",
     .via_new = 2},
    {.why = "lodash 4.16: the new arraySampleSize calls the new "
            "shuffleSelf, whose loop (40 ms of its own) calls the old "
            "baseRandom: no conduit",
     .old = SAMPLE_OLD,
     .new_ = "sampleSize@l.js 200\n  arraySample@l.js 195\n"
             "    shuffle@l.js 193\n      baseRandom@l.js 153\n",
     .graph = "root\n  CrRendererMain\n    sampleSize 60.0 -> 200.0\n"
              "      arraySample new 195.0\n        shuffle new 193.0 *\n",
     .via_new = 1},
    {.why = "new code that only passes the call on to more new code: the "
            "new callee, where the time is, stays the cause",
     .old = "render@a.js 20\n",
     .new_ = "render@a.js 110\n  wrap@a.js 85\n    fresh@a.js 80\n",
     .graph = "root\n  CrRendererMain\n    render 20.0 -> 110.0\n"
              "      wrap new 85.0\n        fresh new 80.0 *\n"},
};

static void test_moved(void) {
  struct ana_ctx *c = ana_ctx_new();
  for (size_t i = 0; i < ZC_ARRAY_LEN(moved_cases); i++) {
    const struct moved_case *k = &moved_cases[i];
    struct ana_graph *g = moved_agg(c, k->old, k->new_);
    char *t = zt_graph_text(g);
    int ok = ZT_STR(t, k->graph);
    ok &= ZT_INT(g->moved, k->moved);
    ok &= ZT_INT(g->via_new, k->via_new);
    if (!ok) fprintf(stderr, "  in row %zu: %s\n", i, k->why);
    free(t);
    ana_graph_free(g);
  }
  ana_ctx_free(c);
}

/* Issue 25: a recursion (clone > each > clone ...) whose levels fall
 * under mu at a different depth in each pair (clone at depth 5, each at
 * 2, clone at 3) is named at the top of its recursion, by the function
 * most pairs end at: clone, not each, where the shallowest pair
 * stopped. Pairs that end at one depth keep it; a function under the
 * recursion that is not one of its own stays. */
static void test_recursion(void) {
  struct ana_ctx *c = ana_ctx_new();
  static const char old[] =
      "merge@l.js 110\n  clone@l.js 100\n    each@l.js 90\n"
      "      clone@l.js 80\n        each@l.js 70\n          clone@l.js 60\n";
  static const char *const nw[3] = {
      "merge@l.js 220\n  clone@l.js 210\n    each@l.js 190\n"
      "      clone@l.js 170\n        each@l.js 130\n          clone@l.js "
      "115\n",
      "merge@l.js 215\n  clone@l.js 205\n    each@l.js 160\n"
      "      clone@l.js 110\n        each@l.js 90\n          clone@l.js "
      "70\n",
      "merge@l.js 215\n  clone@l.js 205\n    each@l.js 180\n"
      "      clone@l.js 140\n        each@l.js 110\n          clone@l.js "
      "100\n"};
  struct ana_graph *g[3] = {NULL, NULL, NULL};
  graphs3(c, old, nw, g);
  struct ana_graph *agg = ana_aggregate(g, 3, 0, 1);
  char *t = zt_graph_text(agg); /* unfolded: the shallowest pair's level */
  ZT_TRUE(strstr(t, "each 90.0 -> 176.7 *\n") != NULL);
  free(t);
  ana_graph_free(agg);
  ZT_INT(ana_graphs_fold_recursion(g, 3, NULL), 2);
  agg = ana_aggregate(g, 3, 0, 1);
  t = zt_graph_text(agg);
  ZT_STR(t, "root\n  CrRendererMain\n    merge 110.0 -> 216.7\n"
            "      clone 100.0 -> 206.7 *\n");
  free(t);
  ana_graph_free(agg);
  for (int p = 0; p < 3; p++)
    ana_graph_free(g[p]);
  /* all three pairs end at the same level: nothing is cut */
  const char *const same[3] = {nw[0], nw[0], nw[0]};
  graphs3(c, old, same, g);
  ZT_INT(ana_graphs_fold_recursion(g, 3, NULL), 0);
  for (int p = 0; p < 3; p++)
    ana_graph_free(g[p]);
  /* a callee of the recursion's own that is no part of it stays */
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *h = compare(
      c,
      "clone@l.js 100\n  each@l.js 90\n    clone@l.js 80\n      hash@l.js 5\n",
      "clone@l.js 200\n  each@l.js 190\n    clone@l.js 180\n      hash@l.js "
      "100\n",
      50, &st);
  ZT_INT(ana_graphs_fold_recursion(&h, 1, NULL), 0);
  t = zt_graph_text(h);
  ZT_TRUE(strstr(t, "hash 5.0 -> 100.0 *") != NULL);
  free(t);
  ana_graph_free(h);
  ana_ctx_free(c);
}

/* Issue 25: a caller named only for the time of a function the graph
 * names elsewhere leaves. A recursion (compile > compile > ...) calls
 * expand at each level, 30 ms more each, under mu; the second level sums
 * two of them and crosses mu, so it was a leaf beside detect's expand,
 * which grew by 80 ms in one call. */
static void test_carries_cause(void) {
  struct ana_ctx *c = ana_ctx_new();
  static const char old[] =
      "run@h.js 30\n  compile@h.js 25\n    expand@h.js 5\n"
      "    compile@h.js 15\n      expand@h.js 5\n      compile@h.js 5\n"
      "        expand@h.js 5\ndetect@h.js 20\n  expand@h.js 10\n";
  static const char nw[] =
      "run@h.js 120\n  compile@h.js 115\n    expand@h.js 35\n"
      "    compile@h.js 75\n      expand@h.js 35\n      compile@h.js 35\n"
      "        expand@h.js 35\ndetect@h.js 100\n  expand@h.js 90\n";
  struct ana_bottomup *bu = ana_bu_new(c, 3);
  struct ana_graph *g = three_pairs(c, old, nw, bu);
  char *t = zt_graph_text(g);
  ZT_TRUE(strstr(t, "compile 15.0 -> 75.0 *") != NULL);
  free(t);
  ZT_INT(ana_graph_drop_callers(g, bu, NULL, 0, 50), 1);
  t = zt_graph_text(g);
  ZT_STR(t, "root\n  CrRendererMain\n    detect 20.0 -> 100.0\n"
            "      expand 10.0 -> 90.0 *\n");
  free(t);
  ana_graph_free(g);
  ana_bu_free(bu);
  /* compile's own loop grew too (60 ms outside expand): it stays */
  bu = ana_bu_new(c, 3);
  g = three_pairs(c, old,
                  "run@h.js 180\n  compile@h.js 175\n    expand@h.js 35\n"
                  "    compile@h.js 135\n      expand@h.js 35\n"
                  "      compile@h.js 35\n        expand@h.js 35\n"
                  "detect@h.js 100\n  expand@h.js 90\n",
                  bu);
  ZT_INT(ana_graph_drop_callers(g, bu, NULL, 0, 50), 0);
  t = zt_graph_text(g);
  ZT_TRUE(strstr(t, "compile 15.0 -> 135.0 *") != NULL);
  free(t);
  ana_graph_free(g);
  ana_bu_free(bu);
  ana_ctx_free(c);
}

/* Issue 35: a slowdown under the share of the largest cause is minor:
 * listed, not named. walk's loop over ten helpers each calling visit got
 * 400 ms slower (each helper by 40 ms, under mu, so walk is the leaf);
 * layout, elsewhere, 60 ms. visit's own leaf under other is 60 ms too, but
 * walk's growth lies under visit: the bottom of the large slowdown, it
 * stays named. With share 0 every cause is named. */
static void test_minor(void) {
  struct ana_ctx *c = ana_ctx_new();
  static const char *const h = "abcdefghij";
  char old[1024] = "walk@m.js 100\n", nw[1024] = "walk@m.js 500\n";
  for (const char *x = h; *x; x++) {
    size_t o = strlen(old), n = strlen(nw);
    snprintf(old + o, sizeof old - o, "  %c@m.js 10\n    visit@m.js 10\n", *x);
    snprintf(nw + n, sizeof nw - n, "  %c@m.js 50\n    visit@m.js 50\n", *x);
  }
  strcat(old, "other@m.js 20\n  visit@m.js 20\nlayout@m.js 100\n");
  strcat(nw, "other@m.js 80\n  visit@m.js 80\nlayout@m.js 160\n");
  for (int share = 0; share <= 1; share++) {
    struct ana_bottomup *bu = ana_bu_new(c, 3);
    struct ana_graph *g = three_pairs(c, old, nw, bu);
    ZT_INT(ana_graph_causes(g), 3);
    ZT_INT(ana_graph_mark_minor(g, bu, share ? 0.2 : 0), (uint32_t)share);
    struct ana_cause *cs = NULL;
    ZT_INT(ana_causes(g, &cs), 3 - (uint32_t)share);
    ZT_STR(ana_str(c, g->nodes[cs[0].node].name), "walk");
    ZT_STR(ana_str(c, g->nodes[cs[1].node].name), share ? "visit" : "layout");
    free(cs);
    ZT_INT(ana_minor_causes(g, &cs), (uint32_t)share);
    if (share) ZT_STR(ana_str(c, g->nodes[cs[0].node].name), "layout");
    free(cs);
    /* the report lists it, not among the causes */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ana_write_summary(g, NULL, 50, f);
    fclose(f);
    ZT_TRUE((strstr(buf, "not named: layout (+60.0 ms)") != NULL) == share);
    free(buf);
    ana_graph_free(g);
    ana_bu_free(bu);
  }
  ana_ctx_free(c);
}

/* Spread-out causes under the minor share are minor too, kept after the
 * named ones: hash, called from ten places 40 ms slower each, is a
 * spread-out cause of +400 ms beside big's +600 ms; fmt, from eight
 * places 10 ms slower each, one of +80 ms, under 20 % of 600. */
static void test_minor_spread(void) {
  for (int share = 0; share <= 1; share++) {
    struct ana_opts o;
    ana_opts_default(&o);
    o.minor_share = share ? 0.2 : 0;
    struct ana_cmp *c = ana_cmp_new(&o, 0, NULL, 0, 9);
    for (int p = 0; p < 3; p++) {
      double k = 1 + 0.02 * p;
      char old[4096], nw[4096];
      int lo = snprintf(old, sizeof old, "big@s.js 100\n");
      int ln = snprintf(nw, sizeof nw, "big@s.js %g\n", 700 * k);
      for (int i = 0; i < 10; i++) {
        lo += snprintf(old + lo, sizeof old - (size_t)lo,
                       "q%d@s.js 50\n  hash@s.js 10\n", i);
        ln += snprintf(nw + ln, sizeof nw - (size_t)ln,
                       "q%d@s.js %g\n  hash@s.js %g\n", i, 50 + 40 * k,
                       10 + 40 * k);
      }
      for (int i = 0; i < 8; i++) {
        lo += snprintf(old + lo, sizeof old - (size_t)lo,
                       "f%d@s.js 20\n  fmt@s.js 10\n", i);
        ln += snprintf(nw + ln, sizeof nw - (size_t)ln,
                       "f%d@s.js %g\n  fmt@s.js %g\n", i, 20 + 10 * k,
                       10 + 10 * k);
      }
      struct ana_timeline *a = zt_tree_parse(c->ctx, "old", old),
                          *b = zt_tree_parse(c->ctx, "new", nw);
      if (!ZT_TRUE(a && b)) return;
      ZT_INT(ana__cmp_add_tl(c, a, b, 0), ZC_OK);
    }
    ana__cmp_aggregate(c);
    ZT_INT(ana_graph_causes(c->agg), 1);
    ZT_INT(c->sp.n, share ? 1u : 2u);
    ZT_INT(c->sp.nminor, share ? 1u : 0u);
    ZT_STR(ana_str(c->ctx, c->sp.v[0].fn.name), "hash");
    if (share) ZT_STR(ana_str(c->ctx, c->sp.v[1].fn.name), "fmt");
    cJSON *j = ana_minor_json(c->agg, &c->sp);
    ZT_INT(cJSON_GetArraySize(j), share);
    cJSON_Delete(j);
    ana_cmp_free(c);
  }
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"thresholds", test_thresholds},
      {"values_and_stats", test_values_and_stats},
      {"idle_never", test_idle_never},
      {"lcs_fallback", test_lcs_fallback},
      {"aggregate_values", test_aggregate_values},
      {"aggregate_significance", test_aggregate_significance},
      {"deep_path", test_deep_path},
      {"reordered_siblings", test_reordered_siblings},
      {"summary_md_escapes", test_summary_md_escapes},
      {"unit_bytes", test_unit_bytes},
      {"moved", test_moved},
      {"consequence", test_consequence},
      {"spread_inclusive", test_spread_inclusive},
      {"lowest_agreed", test_lowest_agreed},
      {"recursion", test_recursion},
      {"carries_cause", test_carries_cause},
      {"minor", test_minor},
      {"minor_spread", test_minor_spread},
      {"spread_new_code", test_spread_new_code},
      {"spread_anonymous", test_spread_anonymous},
      {"spread_pruned_self", test_spread_pruned_self},
  };
  return ZT_RUN(cases, argc, argv);
}
