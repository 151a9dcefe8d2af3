/* Golden tests. Data cases (tests/golden/cases/NAME/): old-<i>.tree and
 * new-<i>.tree timelines, a "runs" file of "MU QUORUM EXPECTED" lines, and
 * the expected aggregated critical graphs as text. Then real traces
 * recorded from headless Chromium (tests/data/real, see its README). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "test.h"
#include "timeline.h"
#include "treefile.h"
#include "zam/zam.h"

static void run_case(const char *dir) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *old[16], *new_[16];
  unsigned n = 0;
  char path[4608]; /* dir is at most 4096 */
  for (; n < 16; n++) {
    snprintf(path, sizeof path, "%s/old-%u.tree", dir, n + 1);
    char *t = zt_read(path);
    if (!t) break;
    free(t);
    old[n] = zt_tree_load(c, path);
    snprintf(path, sizeof path, "%s/new-%u.tree", dir, n + 1);
    new_[n] = zt_tree_load(c, path);
    if (!ZT_TRUE(old[n] && new_[n])) return;
    ana_prune(old[n], ANA_PRUNE_NAMES);
    ana_prune(new_[n], ANA_PRUNE_NAMES);
  }
  if (!ZT_TRUE(n > 0)) return;
  snprintf(path, sizeof path, "%s/runs", dir);
  char *runs = zt_read(path);
  if (!ZT_TRUE(runs)) return;
  int ran = 0;
  for (char *line = strtok(runs, "\n"); line; line = strtok(NULL, "\n")) {
    double mu;
    unsigned quorum;
    char exp[256];
    if (line[0] == '#' || sscanf(line, "%lf %u %255s", &mu, &quorum, exp) != 3)
      continue;
    struct ana_opts o;
    ana_opts_default(&o);
    o.mu = mu;
    struct ana_stats st = {0, 0, 0};
    struct ana_graph *g[16];
    for (unsigned p = 0; p < n; p++)
      ZT_INT(ana_critical(old[p], new_[p], &o, &st, &g[p]), ZC_OK);
    struct ana_graph *agg = ana_aggregate(g, n, quorum, 0);
    char *got = zt_graph_text(agg);
    snprintf(path, sizeof path, "%s/%s", dir, exp);
    char *want = zt_read(path);
    if (!ZT_STR(got, want)) fprintf(stderr, "  in %s\n", path);
    free(got);
    free(want);
    ana_graph_free(agg);
    for (unsigned p = 0; p < n; p++)
      ana_graph_free(g[p]);
    ran++;
  }
  ZT_TRUE(ran > 0);
  free(runs);
  for (unsigned p = 0; p < n; p++) {
    ana_timeline_free(old[p]);
    ana_timeline_free(new_[p]);
  }
  ana_ctx_free(c);
}

static void case_named(const char *name) {
  run_case(zt_tests("analysis/cases/%s", name));
}

static void test_paper_figure1(void) {
  case_named("paper-figure1");
}
static void test_aggregate_noise(void) {
  case_named("aggregate-noise");
}
static void test_lcs_order(void) {
  case_named("lcs-order");
}

/* Every case folder must be listed above: a new case cannot be skipped. */
static void test_all_cases_listed(void) {
  DIR *d = opendir(zt_tests("analysis/cases"));
  if (!ZT_TRUE(d)) return;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] != '.';
  closedir(d);
  ZT_INT(n, 3);
}

/* ---- real traces from headless Chromium ---- */

static struct ana_graph *real_compare(struct ana_ctx *c, const char *const *o,
                                      const char *const *n, unsigned pairs,
                                      struct ana_stats *st) {
  struct ana_graph *g[8];
  struct ana_opts opts;
  ana_opts_default(&opts);
  for (unsigned p = 0; p < pairs; p++) {
    struct ana_timeline *ot = NULL, *nt = NULL;
    ZT_INT(ana_load(c, zt_data(o[p]), &ot), ZC_OK);
    ZT_INT(ana_load(c, zt_data(n[p]), &nt), ZC_OK);
    if (!ot || !nt) return NULL;
    ZT_TRUE(ot->samples > 10000 && nt->samples > 10000);
    ana_prune(ot, ANA_PRUNE_NAMES);
    ana_prune(nt, ANA_PRUNE_NAMES);
    ZT_INT(ana_critical(ot, nt, &opts, st, &g[p]), ZC_OK);
    ana_timeline_free(ot);
    ana_timeline_free(nt);
  }
  struct ana_graph *agg = ana_aggregate(g, pairs, 0, 0);
  for (unsigned p = 0; p < pairs; p++)
    ana_graph_free(g[p]);
  return agg;
}

static const char *const olds[] = {"real/old/run-1.json.gz",
                                   "real/old/run-2.json.gz",
                                   "real/old/run-3.json.gz"};
static const char *const news[] = {"real/new/run-1.json.gz",
                                   "real/new/run-2.json.gz",
                                   "real/new/run-3.json.gz"};

static void test_real_regression(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g = real_compare(c, olds, news, 3, &st);
  if (!ZT_TRUE(g)) return;
  struct ana_cause *cs;
  uint32_t n = ana_causes(g, &cs);
  /* The page's documented regression: slowChecksum, new in formatRow,
   * 40 calls of 3 ms (tests/data/README.md). */
  if (ZT_INT(n, 1)) {
    const struct ana_gnode *x = &g->nodes[cs[0].node];
    ZT_STR(ana_str(c, x->name), "slowChecksum");
    ZT_STR(ana_str(c, x->component), "/app.js");
    ZT_INT(x->isnew, 3);
    ZT_NEAR(cs[0].delta_ms, 116.674, 0.0005);
    const char *path[] = {"formatRow", "buildRows", "renderList", "main",
                          "CrRendererMain"};
    uint32_t at = x->parent;
    for (size_t i = 0; i < 5 && at != ANA_NONE; i++, at = g->nodes[at].parent)
      ZT_STR(ana_str(c, g->nodes[at].name), path[i]);
  }
  free(cs);
  ZT_TRUE(st.lcs > 0);
  ZT_TRUE(st.alternate >= 6);
  ana_graph_free(g);
  ana_ctx_free(c);
}

static void test_real_aa(void) {
  /* A/A: the same build against itself, runs paired across recordings. */
  struct ana_ctx *c = ana_ctx_new();
  struct ana_stats st = {0, 0, 0};
  const char *const o2[] = {olds[1], olds[2], olds[0]};
  const char *const n2[] = {news[1], news[2], news[0]};
  struct ana_graph *g = real_compare(c, olds, o2, 3, &st);
  if (ZT_TRUE(g)) ZT_INT(ana_graph_causes(g), 0);
  ana_graph_free(g);
  g = real_compare(c, news, n2, 3, &st);
  if (ZT_TRUE(g)) ZT_INT(ana_graph_causes(g), 0);
  ana_graph_free(g);
  ana_ctx_free(c);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"paper_figure1", test_paper_figure1},
      {"aggregate_noise", test_aggregate_noise},
      {"lcs_order", test_lcs_order},
      {"all_cases_listed", test_all_cases_listed},
      {"real_regression", test_real_regression},
      {"real_aa", test_real_aa},
  };
  return ZT_RUN(cases, argc, argv);
}
