/* Tests of timeline building and pruning. */
#include <string.h>

#include "ana.h"
#include "test.h"
#include "timeline.h"

static const char *kid_name(const struct ana_timeline *tl, uint32_t n,
                            uint32_t k) {
  const struct ana_node *nd = &tl->nodes[n];
  if (k >= nd->nkids) return "(none)";
  return ana_str(tl->ctx, tl->nodes[tl->kids[nd->kid0 + k]].name);
}

static void test_merge_and_totals(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = ana_tl_new(c, "t");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", NULL, -1, -1);
  uint32_t a = ana_tl_child(tl, th, ANA_FUNC, "a1", "http://x/a.js", 1, 1);
  uint32_t b = ana_tl_child(tl, th, ANA_FUNC, "b1", "http://x/a.js", 5, 1);
  /* Same frame under the same parent: the same node. */
  ZT_INT(ana_tl_child(tl, th, ANA_FUNC, "a1", "http://x/a.js", 1, 1), a);
  /* Same name at another position: another node, same matching key. */
  uint32_t a2 = ana_tl_child(tl, th, ANA_FUNC, "a1", "http://x/a.js", 9, 1);
  ZT_TRUE(a2 != a);
  ZT_INT(tl->nodes[a2].key, tl->nodes[a].key);
  uint32_t ac = ana_tl_child(tl, a, ANA_FUNC, "child", "http://x/a.js", 2, 1);
  ana_tl_sample(tl, b, 10, 5);  /* b first */
  ana_tl_sample(tl, ac, 20, 7); /* then a (through its child) */
  ana_tl_sample(tl, a, 30, 3);
  ana_tl_sample(tl, a2, 40, 1);
  ana_tl_finish(tl);
  ZT_INT(tl->nodes[a].total, 10);
  ZT_INT(tl->nodes[a].self, 3);
  ZT_INT(tl->nodes[a].first_us, 20);
  ZT_INT(tl->nodes[th].total, 16);
  ZT_INT(tl->nodes[0].total, 16);
  /* Children ordered by first sample, not by creation. */
  ZT_STR(kid_name(tl, th, 0), "b1");
  ZT_STR(kid_name(tl, th, 1), "a1");
  ZT_INT(tl->kids[tl->nodes[th].kid0 + 2], a2);
  ZT_INT(ana_tl_reachable(tl), 6);
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

static void test_prune(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = ana_tl_new(c, "t");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "T", NULL, -1, -1);
  uint32_t top = ana_tl_child(tl, th, ANA_FUNC, "top", "u", 0, 0);
  uint32_t k1 = ana_tl_child(tl, top, ANA_FUNC, "first", "u", 1, 0);
  uint32_t anon = ana_tl_child(tl, top, ANA_FUNC, "(anonymous)", "u", 2, 0);
  uint32_t x1 = ana_tl_child(tl, anon, ANA_FUNC, "x", "u", 3, 0);
  uint32_t deep = ana_tl_child(tl, x1, ANA_FUNC, "deep", "u", 4, 0);
  uint32_t deep2 = ana_tl_child(tl, x1, ANA_FUNC, "deep2", "u", 5, 0);
  uint32_t empty = ana_tl_child(tl, top, ANA_FUNC, "", "u", 6, 0);
  uint32_t last = ana_tl_child(tl, empty, ANA_FUNC, "\xc3\xa9", "u", 7, 0);
  uint32_t two = ana_tl_child(tl, top, ANA_FUNC, "ok", "u", 8, 0);
  uint32_t prog = ana_tl_child(tl, th, ANA_PROGRAM, "(program)", NULL, -1, -1);
  int64_t t = 0;
  uint32_t order[] = {k1, deep, deep2, last, two, prog, top, anon};
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
    ana_tl_sample(tl, order[i], t += 10, 10);
  ana_tl_finish(tl);
  ana_prune(tl, ANA_PRUNE_NAMES);
  /* top: first, deep, deep2 (lifted from (anonymous) > x), ok. The node
   * "é" is one character and goes too, with nothing under it. */
  ZT_INT(tl->nodes[top].nkids, 4);
  ZT_STR(kid_name(tl, top, 0), "first");
  ZT_STR(kid_name(tl, top, 1), "deep");
  ZT_STR(kid_name(tl, top, 2), "deep2");
  ZT_STR(kid_name(tl, top, 3), "ok");
  ZT_INT(tl->nodes[deep].parent, top);
  ZT_INT(tl->pruned_nodes, 4);
  /* Totals are those of the call tree: pruning moves, never re-sums. */
  ZT_INT(tl->nodes[top].total, 70);
  ZT_STR(kid_name(tl, th, 1), "(program)");
  ZT_INT(ana_tl_reachable(tl), 8);
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

static void test_drop_markers(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = ana_tl_new(c, "t");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "T", NULL, -1, -1);
  uint32_t f = ana_tl_child(tl, th, ANA_FUNC, "f1", "u", 0, 0);
  uint32_t idle = ana_tl_child(tl, th, ANA_IDLE, "(idle)", NULL, -1, -1);
  uint32_t gc =
      ana_tl_child(tl, th, ANA_GC, "(garbage collector)", NULL, -1, -1);
  ana_tl_sample(tl, idle, 1, 5);
  ana_tl_sample(tl, f, 2, 5);
  ana_tl_sample(tl, gc, 3, 5);
  ana_tl_finish(tl);
  ana_prune(tl, ANA_PRUNE_NAMES | ANA_PRUNE_MARKERS);
  ZT_INT(tl->nodes[th].nkids, 1);
  ZT_STR(kid_name(tl, th, 0), "f1");
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

/* A chain deeper than any C stack would take: building, pruning (every
 * other node anonymous) and printing stay iterative. */
static void test_deep(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = ana_tl_new(c, "t");
  uint32_t at = ana_tl_child(tl, 0, ANA_THREAD, "T", NULL, -1, -1);
  for (int i = 0; i < 200000; i++)
    at =
        ana_tl_child(tl, at, ANA_FUNC, i % 2 ? "(anonymous)" : "fn", "u", i, 0);
  ana_tl_sample(tl, at, 1, 1000);
  ana_tl_finish(tl);
  ana_prune(tl, ANA_PRUNE_NAMES);
  ZT_INT(ana_tl_reachable(tl), 100002);
  FILE *f = fopen(zt_tmp("deep.txt"), "w");
  ana_tl_print(tl, 0, f);
  fclose(f);
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"merge_and_totals", test_merge_and_totals},
      {"prune", test_prune},
      {"drop_markers", test_drop_markers},
      {"deep", test_deep},
  };
  return ZT_RUN(cases, argc, argv);
}
