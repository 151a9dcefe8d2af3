/* Critical graphs (seed 000 Algorithms 2-3) and their aggregation (§3.2).
 * Both walk with explicit stacks: call trees can be deeper than the C
 * stack should be. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "zam.h"

void ana_opts_default(struct ana_opts *o) {
  o->mu = 50;
  o->lcs_budget_ms = 10000;
  o->quorum = 0;
  o->significance = 1;
  o->minor_share = 0.2;
}

static struct ana_graph *graph_new(struct ana_ctx *c, unsigned npairs,
                                   uint8_t unit) {
  struct ana_graph *g = zc_xcalloc(1, sizeof *g);
  g->ctx = c;
  g->unit = unit;
  g->npairs = npairs;
  return g;
}

void ana_graph_free(struct ana_graph *g) {
  if (!g) return;
  free(g->nodes);
  free(g->old_w);
  free(g->new_w);
  free(g->same);
  for (uint32_t i = 0; g->calls && i < g->n; i++)
    free(g->calls[i].words);
  free(g->calls);
  free(g);
}

struct gcap {
  size_t nodes, vals;
};

/* Appends a node under parent (ANA_NONE for the root) and returns it. */
static uint32_t graph_add(struct ana_graph *g, struct gcap *cap,
                          uint32_t parent, const struct ana_gnode *proto) {
  ZC_GROW(g->nodes, cap->nodes, (size_t)g->n + 1);
  size_t vals = cap->vals;
  ZC_GROW(g->old_w, vals, ((size_t)g->n + 1) * g->npairs);
  vals = cap->vals;
  ZC_GROW(g->new_w, vals, ((size_t)g->n + 1) * g->npairs);
  vals = cap->vals;
  ZC_GROW(g->same, vals, ((size_t)g->n + 1) * g->npairs);
  cap->vals = vals;
  uint32_t i = g->n++;
  struct ana_gnode *n = &g->nodes[i];
  *n = *proto;
  n->parent = parent;
  n->kid = n->sib = n->last = ANA_NONE;
  n->nkids = 0;
  n->cause = 0;
  n->effect = 0;
  n->same = NAN;
  for (unsigned p = 0; p < g->npairs; p++) {
    g->old_w[(size_t)i * g->npairs + p] = g->new_w[(size_t)i * g->npairs + p] =
        ANA_ABSENT;
    g->same[(size_t)i * g->npairs + p] = NAN;
  }
  if (parent != ANA_NONE) ana__graph_link(g, parent, i);
  return i;
}

void ana__graph_link(struct ana_graph *g, uint32_t parent, uint32_t i) {
  struct ana_gnode *pa = &g->nodes[parent];
  g->nodes[i].parent = parent;
  if (pa->last == ANA_NONE)
    pa->kid = i;
  else
    g->nodes[pa->last].sib = i;
  pa->last = i;
  pa->nkids++;
}

/* Leaves are regression-causes; a thread with nothing under it is no
 * regression path and leaves the graph (its node stays in the array,
 * unlinked). */
/* Takes node i out of its parent's list of children (i keeps its own
 * sib, so a walk along the list may go on from it). */
static void graph_unlink(struct ana_graph *g, uint32_t i) {
  struct ana_gnode *pa = &g->nodes[g->nodes[i].parent];
  uint32_t prev = ANA_NONE;
  for (uint32_t c = pa->kid; c != ANA_NONE && c != i; c = g->nodes[c].sib)
    prev = c;
  if (prev == ANA_NONE)
    pa->kid = g->nodes[i].sib;
  else
    g->nodes[prev].sib = g->nodes[i].sib;
  if (pa->last == i) pa->last = prev;
  pa->nkids--;
}

static void graph_finish(struct ana_graph *g) {
  /* Threads left with nothing are no regression path. */
  for (uint32_t t = g->nodes[0].kid; t != ANA_NONE; t = g->nodes[t].sib)
    if (!g->nodes[t].nkids) graph_unlink(g, t);
  for (uint32_t i = 0; i < g->n; i++) {
    struct ana_gnode *n = &g->nodes[i];
    n->cause =
        n->kind != ANA_ROOT && n->kind != ANA_THREAD && !n->nkids && !n->gone;
  }
}

static struct ana_gnode proto_of(const struct ana_node *t) {
  struct ana_gnode n;
  memset(&n, 0, sizeof n);
  n.name = t->name;
  n.url = t->url;
  n.component = t->component;
  n.key = t->key;
  n.line = t->line;
  n.col = t->col;
  n.gen = t->gen;
  n.kind = t->kind;
  return n;
}

/* After LCS, nodes left unmatched on both sides with the same key are the
 * same function at another place in the order (siblings are ordered by
 * their first sample, and short ones land anywhere). Matching them by key
 * keeps them from passing for new functions, the false positives LCS alone
 * gives on reordered siblings. */
static void match_leftovers(const uint32_t *ka, uint32_t na, const uint32_t *kb,
                            uint32_t nb, uint32_t *old_of) {
  uint8_t *used = zc_xcalloc((size_t)na + 1, 1);
  uint32_t *la = zc_xmalloc(((size_t)na + 1) * sizeof *la);
  uint32_t *ia = zc_xmalloc(((size_t)na + 1) * sizeof *ia);
  uint32_t *lb = zc_xmalloc(((size_t)nb + 1) * sizeof *lb);
  uint32_t *ib = zc_xmalloc(((size_t)nb + 1) * sizeof *ib);
  uint32_t *sub = zc_xmalloc(((size_t)nb + 1) * sizeof *sub);
  uint32_t nla = 0, nlb = 0;
  for (uint32_t j = 0; j < nb; j++)
    if (old_of[j] != ANA_NONE) used[old_of[j]] = 1;
  for (uint32_t i = 0; i < na; i++)
    if (!used[i]) ia[nla] = i, la[nla++] = ka[i];
  for (uint32_t j = 0; j < nb; j++)
    if (old_of[j] == ANA_NONE) ib[nlb] = j, lb[nlb++] = kb[j];
  if (nla && nlb) {
    ana_match_alternate(la, nla, lb, nlb, sub);
    for (uint32_t j = 0; j < nlb; j++)
      if (sub[j] != ANA_NONE) old_of[ib[j]] = ia[sub[j]];
  }
  free(used);
  free(la);
  free(ia);
  free(lb);
  free(ib);
  free(sub);
}

/* ---- more of the same work (issue 25.3) ---- */

#define ANA_SAME_MIN      0.75
#define ANA_SAME_DOMINANT 0.6

struct part {
  uint32_t key; /* UINT32_MAX: the node's own (self) time */
  double w[2];  /* old, new */
};

static int part_cmp(const void *a, const void *b) {
  const struct part *x = a, *y = b;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* A node's weight split into its own time and its callees' (by function;
 * native markers left out: GC grows with any extra work), appended to v
 * for side s. Returns the weight split. */
static double parts_of(const struct ana_timeline *tl, const struct ana_node *x,
                       int s, struct part **v, size_t *n, size_t *cap) {
  double self = (double)x->total, all = 0;
  for (uint32_t k = 0; k < x->nkids; k++) {
    const struct ana_node *c = &tl->nodes[tl->kids[x->kid0 + k]];
    self -= (double)c->total;
    if (c->kind != ANA_FUNC) continue;
    ZC_GROW(*v, *cap, *n + 1);
    (*v)[(*n)++] = (struct part){
        c->key, {s ? 0 : (double)c->total, s ? (double)c->total : 0}};
    all += (double)c->total;
  }
  if (self < 0) self = 0;
  ZC_GROW(*v, *cap, *n + 1);
  (*v)[(*n)++] = (struct part){UINT32_MAX, {s ? 0 : self, s ? self : 0}};
  return all + self;
}

/* How much of c's growth over its old match oc was more of the same work:
 * 1 - the total variation distance between the split of the extra time
 * over c's own time and its callees (by function) and the split of the
 * old time; NAN where the old split has under two parts or one part holds
 * over ANA_SAME_DOMINANT of it (then any growth looks proportional). */
static float ana_same_work(const struct ana_timeline *old,
                           const struct ana_node *oc,
                           const struct ana_timeline *new_,
                           const struct ana_node *c) {
  struct part *v = NULL;
  size_t n = 0, cap = 0;
  double o = parts_of(old, oc, 0, &v, &n, &cap);
  double w = parts_of(new_, c, 1, &v, &n, &cap);
  qsort(v, n, sizeof *v, part_cmp);
  size_t m = 0; /* merged by function */
  for (size_t i = 0; i < n; i++)
    if (m && v[m - 1].key == v[i].key) {
      v[m - 1].w[0] += v[i].w[0];
      v[m - 1].w[1] += v[i].w[1];
    } else {
      v[m++] = v[i];
    }
  /* The old shape must have at least two parts, none dominant: with one
   * part holding most of the time, any growth looks proportional. */
  double top = 0;
  size_t parts = 0;
  for (size_t i = 0; i < m; i++) {
    parts += v[i].w[0] > 0;
    if (v[i].w[0] > top) top = v[i].w[0];
  }
  float r = NAN;
  if (o > 0 && w > o && parts >= 2 && top <= ANA_SAME_DOMINANT * o) {
    /* 1 - the total variation distance between where the extra time went
     * and how the old time was split: 1 when every part grew by the same
     * factor, near 0 when it all went to one small part or a new one. */
    double tv = 0, d = w - o;
    for (size_t i = 0; i < m; i++)
      tv += fabs((v[i].w[1] - v[i].w[0]) / d - v[i].w[0] / o);
    r = (float)(1 - tv / 2);
    if (r < 0) r = 0;
  }
  free(v);
  return r;
}

struct work {
  uint32_t o, n, g; /* old node (ANA_NONE: none), new node, graph node */
  uint8_t level;    /* 0 root, 1 thread, 2 function (at any depth) */
};

enum zc_err ana_critical(const struct ana_timeline *old,
                         const struct ana_timeline *new_,
                         const struct ana_opts *o, struct ana_stats *stats,
                         struct ana_graph **out) {
  if (old->unit != new_->unit)
    return zc_fail(ZC_E_USAGE, "%s weighs %s and %s weighs %s: no comparison",
                   old->source ? old->source : "the old timeline",
                   ana_unit_desc(old->unit)->name,
                   new_->source ? new_->source : "the new timeline",
                   ana_unit_desc(new_->unit)->name);
  struct ana_graph *g = graph_new(new_->ctx, 1, new_->unit);
  g->sample_bytes = fmax(old->sample_bytes, new_->sample_bytes);
  struct gcap cap = {0, 0};
  const int64_t mu = (int64_t)(o->mu * ana_unit_desc(g->unit)->per + 0.5);
  g->mu = (double)mu;
  struct ana_gnode rp = proto_of(&new_->nodes[0]);
  uint32_t root = graph_add(g, &cap, ANA_NONE, &rp);
  g->old_w[root] = old->nodes[0].total;
  g->new_w[root] = new_->nodes[0].total;
  g->nodes[root].present = 1;

  struct work *stack = NULL;
  size_t sp = 0, scap = 0;
  uint32_t *ka = NULL, *kb = NULL, *old_of = NULL;
  size_t kacap = 0, kbcap = 0, ocap = 0;
  ZC_GROW(stack, scap, 1);
  stack[sp++] = (struct work){0, 0, root, 0};
  while (sp && !zc_interrupted) {
    struct work w = stack[--sp];
    const struct ana_node *on = w.o != ANA_NONE ? &old->nodes[w.o] : NULL;
    const struct ana_node *nn = &new_->nodes[w.n];
    uint32_t na = on ? on->nkids : 0, nb = nn->nkids;
    const uint32_t *oa = on ? old->kids + on->kid0 : NULL;
    const uint32_t *nbk = new_->kids + nn->kid0;
    ZC_GROW(ka, kacap, (size_t)na + 1);
    ZC_GROW(kb, kbcap, (size_t)nb + 1);
    ZC_GROW(old_of, ocap, (size_t)nb + 1);
    for (uint32_t i = 0; i < na; i++)
      ka[i] = old->nodes[oa[i]].key;
    for (uint32_t j = 0; j < nb; j++)
      kb[j] = new_->nodes[nbk[j]].key;
    /* Threads and top-level functions always take the alternate matcher:
     * their order says nothing (seed 000 §3.1). */
    int alt = w.level < 2;
    if (!alt && na && nb) {
      if (ana_lcs(ka, na, kb, nb, o->lcs_budget_ms, old_of) == ZC_OK) {
        stats->lcs++;
        match_leftovers(ka, na, kb, nb, old_of);
      } else {
        stats->lcs_timeouts++;
        alt = 1;
      }
    } else if (!alt) {
      for (uint32_t j = 0; j < nb; j++)
        old_of[j] = ANA_NONE;
    }
    if (alt) {
      ana_match_alternate(ka, na, kb, nb, old_of);
      stats->alternate++;
    }
    uint32_t first = (uint32_t)sp;
    for (uint32_t j = 0; j < nb; j++) {
      const struct ana_node *c = &new_->nodes[nbk[j]];
      uint32_t oi = old_of[j] != ANA_NONE ? oa[old_of[j]] : ANA_NONE;
      const struct ana_node *oc = oi != ANA_NONE ? &old->nodes[oi] : NULL;
      if (w.level == 0) {
        /* Threads are always descended; a new thread is compared with
         * nothing, so its top-level functions count as new. */
        if (c->kind != ANA_THREAD) continue;
      } else {
        /* Idleness is not work. (program) and (garbage collector) are
         * native time: no function of the page's, and the most
         * load-sensitive figure there is (an A/A run under a sanitizer
         * named (program) +60 ms in both of 2 pairs). They are reported
         * beside the causes, as end-to-end rows, never as causes. */
        if (c->kind == ANA_IDLE || c->kind == ANA_PROGRAM || c->kind == ANA_GC)
          continue;
        if (oc ? c->total - oc->total < mu : c->total < mu) continue;
      }
      struct ana_gnode p = proto_of(c);
      p.present = 1;
      p.isnew = oc == NULL && w.level > 0;
      uint32_t gi = graph_add(g, &cap, w.g, &p);
      g->new_w[gi] = c->total;
      g->old_w[gi] = oc ? oc->total : -1;
      if (oc) g->same[gi] = ana_same_work(old, oc, new_, c);
      /* A new node is descended too, against nothing: its children of
       * mu or more are new as well, and the lowest of them are the causes.
       * The paper stops at the new node; but a function that one old run
       * never sampled (too short, or inlined) is "new" in that pair only,
       * and stopping there cut the path short where the other pairs went
       * below it, so aggregation kept the stub. */
      ZC_GROW(stack, scap, sp + 1);
      /* Levels past the top-level functions are all alike: 2. */
      uint8_t lv = (uint8_t)(w.level < 2 ? w.level + 1 : 2);
      stack[sp++] = (struct work){oi, nbk[j], gi, lv};
    }
    /* The stack is LIFO: reverse this level's pushes so that the graph is
     * built in the new timeline's order (the result does not depend on it,
     * but the node numbering then reads top to bottom). */
    for (size_t i = first, k = sp; i + 1 < k; i++, k--) {
      struct work t = stack[i];
      stack[i] = stack[k - 1];
      stack[k - 1] = t;
    }
  }
  free(stack);
  free(ka);
  free(kb);
  free(old_of);
  if (zc_interrupted) { /* SIGINT or SIGTERM: the graph is not whole */
    ana_graph_free(g);
    return zc_fail(ZC_E_INTERRUPTED, "interrupted while comparing");
  }
  graph_finish(g);
  *out = g;
  return ZC_OK;
}

uint32_t ana_graph_causes(const struct ana_graph *g) {
  /* Unlinked nodes (empty threads) are never causes, so a plain count over
   * the array is the count over the reachable graph. */
  uint32_t c = 0;
  for (uint32_t i = 0; i < g->n; i++)
    c += g->nodes[i].cause;
  return c;
}

/* ---- aggregation ---- */

struct group {
  uint32_t key, rank, count;
  uint32_t first; /* index into members of this group's row */
};

/* Whether node i's per-pair Δs are significantly above 0: the lower end
 * of their paired 95 % interval. Fewer than 3 pairs are not tested (with
 * 2, t is 12.7: only near-identical Δs would pass). The Δs are those of
 * the pairs' graphs, so each is already μ or more: what fails is a node
 * whose slowdown swings widely from pair to pair (60, 80, 200 ms fails),
 * the mark of noise in a large node, not a steady regression.
 * Sampled weights (allocation) are tested, at any number of pairs, against
 * the noise their sampling is known to have, too (ana_sampled_clear): an
 * A/A's allocation named a function +410 KB, +359, +317 and +552 KB in
 * its 3 pairs, where its 4.7 MB, sampled every 32 KB, are known to about
 * 390 KB a run. A/As drawn from 60 such runs (tests/eval/memnoise.py)
 * named it in 1.8 % of 3 pairs without this test, 0.03 % with it (33 % of
 * 1 pair, 0.3 % with it).
 * d: room for g->npairs values. */
static int significant(const struct ana_graph *g, uint32_t i, double *d) {
  double per = ana_unit_desc(g->unit)->per, sd = 0, sw = 0;
  unsigned k = 0;
  for (unsigned p = 0; p < g->npairs; p++) {
    int64_t nv = g->new_w[(size_t)i * g->npairs + p];
    int64_t ov = g->old_w[(size_t)i * g->npairs + p];
    double o = ov < 0 ? 0.0 : (double)ov;
    d[p] = nv == ANA_ABSENT ? NAN : ((double)nv - o) / per;
    if (nv == ANA_ABSENT) continue;
    sd += (double)nv - o;
    sw += (double)nv + o;
    k++;
  }
  struct ana_stat st;
  ana_stat(d, g->npairs, &st); /* absent pairs (NAN) are left out */
  return (st.n < 3 || st.lo > 0) &&
         ana_sampled_clear(sd, sw, k, g->mu, g->sample_bytes);
}

/* Leaves whose slowdown is not significant leave the graph, and so on up:
 * a parent left with no children is a leaf and is tested in turn. Nodes
 * come after their parents in the array, so one backward pass does it. */
static void drop_noisy(struct ana_graph *g) {
  double *d = zc_xmalloc(g->npairs * sizeof *d);
  /* the leaves before any is dropped: the candidate causes */
  uint8_t *leaf = zc_xmalloc((size_t)g->n + 1);
  for (uint32_t i = 0; i < g->n; i++)
    leaf[i] = !g->nodes[i].nkids;
  for (uint32_t i = g->n; i-- > 1;) {
    struct ana_gnode *x = &g->nodes[i];
    if (x->nkids || x->kind == ANA_THREAD || x->kind == ANA_ROOT ||
        significant(g, i, d))
      continue;
    g->noisy_causes += leaf[i]; /* not the callers left bare after it */
    graph_unlink(g, i);
    x->gone = 1;
    g->noisy++;
    unsigned k = ana_pairs_needed(d, g->npairs, 0);
    if (k > g->pairs_needed) g->pairs_needed = k;
  }
  free(d);
  free(leaf);
}

/* A function node with nothing under it, still in the graph: a cause,
 * or one a pass has just left bare (graph_finish marks it later). */
static int func_leaf(const struct ana_gnode *x) {
  return !x->nkids && !x->gone && x->kind == ANA_FUNC;
}

/* The mean of a function's per-pair Δs (shown unit), of its self weight
 * (FN_SELF) or its inclusive weight (FN_INCL); 0 without. */
enum { FN_SELF, FN_INCL };
static double fn_delta(const struct ana_bottomup *bu, uint32_t key, int what) {
  double d[ANA_SPREAD_MAX_PAIRS], s = 0;
  unsigned n = what == FN_INCL
                   ? ana_bu_incl_deltas(bu, key, d, ANA_SPREAD_MAX_PAIRS)
                   : ana_bu_deltas(bu, key, d, ANA_SPREAD_MAX_PAIRS);
  for (unsigned k = 0; k < n; k++)
    s += d[k];
  return n ? s / n : 0;
}

/* Mean over the pairs present of Δ less the moved calls' time mv. */
static double delta_less(const struct ana_graph *g, uint32_t i,
                         const double *mv, double per) {
  double s = 0;
  unsigned k = 0;
  for (unsigned p = 0; p < g->npairs; p++) {
    size_t at = (size_t)i * g->npairs + p;
    if (g->new_w[at] == ANA_ABSENT) continue;
    double ov = g->old_w[at] < 0 ? 0 : (double)g->old_w[at];
    s += ((double)g->new_w[at] - ov - mv[at]) / per;
    k++;
  }
  return k ? s / k : 0;
}

/* Whether cause i, new on its path in every pair, is called by new code
 * that explains its time: it hangs under nodes that are new on their
 * paths too, and either one of them is a function new to the build while
 * i's function ran in the old build (or has no file: a RegExp, a
 * built-in, or is a conduit), or its parent's own time, over all its
 * call paths, grew by mu (the parent's loop runs more, calling it each
 * time). A conduit is a function whose callees under it were all taken
 * out as old code called from new code and whose own time grew by less
 * than one CPU sample a pair: the profile saw no work of its own, only a
 * call passed on to old code, so the old runs never sampling it does not
 * tell it from old code they never reached (js-beautify 1.15 calls the
 * base class's Pattern.read, which 1.14's subclasses all override). A
 * new function that loops over old code (lodash's shuffleSelf, 40 ms of
 * its own) is no conduit. */
static int from_new_code(const struct ana_graph *g, uint32_t i,
                         const struct ana_bottomup *bu, double mu,
                         int conduit) {
  const struct ana_gnode *x = &g->nodes[i];
  if (x->parent == ANA_NONE) return 0;
  const struct ana_gnode *p = &g->nodes[x->parent];
  if (p->kind != ANA_FUNC || !ana_gnode_new_everywhere(p)) return 0;
  if (fn_delta(bu, p->key, FN_SELF) >= mu) return 1;
  /* A frame without a file (a compiled RegExp, a built-in) has no code of
   * its own: it runs for whoever calls it, old or new. */
  if (!ana_bu_old_seen(bu, x->key) && *ana_str(g->ctx, x->url) &&
      !(conduit && fn_delta(bu, x->key, FN_SELF) < ana_bu_sample(bu)))
    return 0;
  for (uint32_t a = x->parent; a != ANA_NONE; a = g->nodes[a].parent) {
    const struct ana_gnode *y = &g->nodes[a];
    if (y->kind != ANA_FUNC || !ana_gnode_new_everywhere(y)) return 0;
    if (!ana_bu_old_seen(bu, y->key)) return 1;
  }
  return 0;
}

uint32_t ana_graph_drop_moved(struct ana_graph *g,
                              const struct ana_bottomup *bu, double mu) {
  return ana_graph_drop_moved_by(g, bu, mu, NULL, NULL);
}

uint32_t ana_graph_drop_moved_by(struct ana_graph *g,
                                 const struct ana_bottomup *bu, double mu,
                                 int (*per_call)(const void *arg, uint32_t key),
                                 const void *arg) {
  if (!g || !bu || g->n < 2) return 0;
  double per = ana_unit_desc(g->unit)->per;
  /* mv[i * npairs + p]: the new time of i's moved descendants, raw */
  double *mv = zc_xcalloc((size_t)g->n * g->npairs, sizeof *mv);
  uint8_t *bare = zc_xcalloc(g->n, 1); /* left bare by a move */
  uint8_t *thru = zc_xcalloc(g->n, 1); /* left bare by old code's cut */
  /* Children come after their parents: one backward pass sees every
   * child before its parent, and a parent left bare in turn. */
  for (uint32_t i = g->n; i-- > 1;) {
    struct ana_gnode *x = &g->nodes[i];
    if (!func_leaf(x)) continue;
    int moved;
    /* New on its path everywhere: moved when what it costs with its
     * callees, over all its call paths, did not grow. Its callees count:
     * the graph ends at named functions, and extra time in anonymous or
     * pruned callees is still its. */
    int fresh = ana_gnode_new_everywhere(x);
    if (fresh)
      moved = fn_delta(bu, x->key, FN_INCL) < mu;
    else if (bare[i])
      moved =
          fn_delta(bu, x->key, FN_SELF) < mu && delta_less(g, i, mv, per) < mu;
    else
      continue;
    if (!moved && fresh && from_new_code(g, i, bu, mu, thru[i]) &&
        !(per_call && per_call(arg, x->key))) {
      /* Not moved: more of it is called, by a new function. Its caller's
       * node keeps the time; no moved time is taken off it. */
      thru[x->parent] = 1;
      graph_unlink(g, i);
      x->gone = 1;
      g->via_new++;
      continue;
    }
    if (!moved) continue;
    for (unsigned p = 0; p < g->npairs; p++) {
      size_t at = (size_t)i * g->npairs + p,
             up = (size_t)x->parent * g->npairs + p;
      if (fresh && g->new_w[at] != ANA_ABSENT) mv[at] = (double)g->new_w[at];
      mv[up] += mv[at];
    }
    bare[x->parent] = 1;
    graph_unlink(g, i);
    x->gone = 1;
    g->moved++;
  }
  free(mv);
  free(bare);
  free(thru);
  graph_finish(g);
  return g->moved;
}

/* Whether graph node i only carries the time of an inclusive spread-out
 * cause of v below it: its function calls into that cause, its own time
 * over all call paths did not grow by mu, and its Δ is no more than the
 * cause's. */
static int carries_spread(const struct ana_graph *g, uint32_t i,
                          const struct ana_bottomup *bu,
                          const struct ana_spread *v, uint32_t n, double mu) {
  const struct ana_gnode *x = &g->nodes[i];
  if (x->kind != ANA_FUNC || fn_delta(bu, x->key, FN_SELF) >= mu) return 0;
  double om, nm, dm;
  ana_gnode_means(g, i, &om, &nm, &dm);
  for (uint32_t k = 0; k < n; k++)
    if (v[k].inclusive && dm <= v[k].delta_ms &&
        ana_bu_calls_into(bu, x->key, v[k].fn.key))
      return 1;
  return 0;
}

/* Whether graph node i only carries the time of a function another leaf
 * of the graph names: its own time over all call paths did not grow by
 * mu, it calls into that function, and what it cost with its callees,
 * leaving out what ran under that function, did not grow by mu either (a
 * recursion whose levels each pass a named callee's time up; a handler
 * over a loop of calls to it, each under mu). */
static int carries_cause(const struct ana_graph *g, uint32_t i,
                         const struct ana_bottomup *bu, const uint32_t *pr,
                         double mu) {
  const struct ana_gnode *x = &g->nodes[i];
  if (x->kind != ANA_FUNC || fn_delta(bu, x->key, FN_SELF) >= mu) return 0;
  uint32_t *keys = zc_xmalloc((g->n + 1) * sizeof *keys), n = 0;
  for (uint32_t j = 1; j < g->n; j++)
    if (j != i && func_leaf(&g->nodes[j]) && g->nodes[j].key != x->key)
      keys[n++] = g->nodes[j].key;
  double *out = zc_xmalloc((n + 1) * sizeof *out);
  ana_bu_incl_outside(bu, pr, x->key, keys, n, out);
  int yes = 0;
  for (uint32_t k = 0; k < n && !yes; k++)
    yes = out[k] < mu; /* NAN (never called) is not */
  free(out);
  free(keys);
  return yes;
}

static int carries(const struct ana_graph *g, uint32_t i,
                   const struct ana_bottomup *bu, const uint32_t *pr,
                   const struct ana_spread *v, uint32_t n, double mu) {
  return carries_spread(g, i, bu, v, n, mu) || carries_cause(g, i, bu, pr, mu);
}

uint32_t ana_graph_drop_callers(struct ana_graph *g,
                                const struct ana_bottomup *bu,
                                const struct ana_spread *v, uint32_t n,
                                double mu) {
  if (!g || !bu || g->n < 2) return 0;
  uint32_t *pr = ana_bu_path_rows(bu);
  for (uint32_t i = g->n; i-- > 1;) {
    const struct ana_gnode *x = &g->nodes[i];
    if (!func_leaf(x) || !carries(g, i, bu, pr, v, n, mu)) continue;
    /* It and the callers it leaves bare that only carry it too: nodes
     * come after their parents, so each is met after its child. */
    for (uint32_t a = i; a != ANA_NONE && !g->nodes[a].nkids &&
                         carries(g, a, bu, pr, v, n, mu);) {
      uint32_t up = g->nodes[a].parent;
      graph_unlink(g, a);
      g->nodes[a].gone = 1;
      a = up;
    }
    g->callers++;
  }
  free(pr);
  graph_finish(g);
  return g->callers;
}

/* Takes node i and everything under it out of the graph. Nodes come
 * after their parents, and only a cut leaves a gone node with children,
 * so one forward pass finds the subtree. */
static void graph_cut(struct ana_graph *g, uint32_t i) {
  graph_unlink(g, i);
  g->nodes[i].gone = 1;
  for (uint32_t j = i + 1; j < g->n; j++)
    if (!g->nodes[j].gone && g->nodes[g->nodes[j].parent].gone)
      g->nodes[j].gone = 1;
}

/* One function: the same key at the same place (two methods may share a
 * name; within one build a function keeps its line and column). */
static int same_fn(const struct ana_gnode *a, const struct ana_gnode *b) {
  return a->key == b->key && a->line == b->line && a->col == b->col;
}

/* Whether node x is the function of one of the n nodes f. */
static int fn_in(const struct ana_graph *g, const uint32_t *f, size_t n,
                 const struct ana_gnode *x) {
  for (size_t i = 0; i < n; i++)
    if (same_fn(&g->nodes[f[i]], x)) return 1;
  return 0;
}

/* Whether every node under and at i is the function of one of the n
 * nodes f. */
static int only_fns(const struct ana_graph *g, uint32_t i, const uint32_t *f,
                    size_t n, uint32_t **st, size_t *cap) {
  size_t sp = 0;
  ZC_GROW(*st, *cap, 1);
  (*st)[sp++] = i;
  while (sp) {
    const struct ana_gnode *x = &g->nodes[(*st)[--sp]];
    if (x->kind != ANA_FUNC || !fn_in(g, f, n, x)) return 0;
    for (uint32_t c = x->kid; c != ANA_NONE; c = g->nodes[c].sib) {
      ZC_GROW(*st, *cap, sp + 1);
      (*st)[sp++] = c;
    }
  }
  return 1;
}

/* A cause of pair p's graph inside a recursion: the cause i, the top of
 * the unbroken run of the cycle's functions above it, the run's call path
 * (a hash of the functions from the root down to its top) and i's depth
 * below the top. */
struct rec_leaf {
  unsigned p;
  uint32_t i, top, depth;
  uint64_t path;
};

/* Fills r for cause i of g if it is inside a recursion; the cycle's
 * nodes (from the nearest ancestor of i's function up) go to *f. */
static int rec_leaf_of(const struct ana_graph *g, uint32_t i, uint32_t **f,
                       size_t *fcap, size_t *nf, struct rec_leaf *r) {
  const struct ana_gnode *x = &g->nodes[i];
  uint32_t a = x->parent;
  *nf = 0;
  for (; a != ANA_NONE && g->nodes[a].kind == ANA_FUNC;
       a = g->nodes[a].parent) {
    ZC_GROW(*f, *fcap, *nf + 1);
    (*f)[(*nf)++] = a;
    if (same_fn(&g->nodes[a], x)) break;
  }
  if (a == ANA_NONE || g->nodes[a].kind != ANA_FUNC) return 0;
  uint32_t top = a, depth = 0;
  for (uint32_t u = i; u != top; u = g->nodes[u].parent)
    depth++;
  while (g->nodes[top].parent != ANA_NONE &&
         g->nodes[g->nodes[top].parent].kind == ANA_FUNC &&
         fn_in(g, *f, *nf, &g->nodes[g->nodes[top].parent]))
    top = g->nodes[top].parent, depth++;
  uint64_t h = 1469598103934665603ULL;
  for (uint32_t u = top; u != ANA_NONE; u = g->nodes[u].parent)
    h = zc_mix64(h ^ ((uint64_t)g->nodes[u].key << 32 ^
                      (uint32_t)g->nodes[u].line * 31u ^
                      (uint32_t)g->nodes[u].col));
  r->i = i, r->top = top, r->depth = depth, r->path = h;
  return 1;
}

/* Cuts pair graph g's recursion below cause r back to the highest node
 * of function fn (a node) in its run; 1 if it did. */
static int rec_cut(struct ana_graph *g, const struct rec_leaf *r,
                   const struct ana_gnode *fn, const uint32_t *f, size_t nf,
                   uint32_t **st, size_t *stcap) {
  uint32_t e = ANA_NONE;
  for (uint32_t u = g->nodes[r->i].parent;; u = g->nodes[u].parent) {
    if (same_fn(&g->nodes[u], fn)) e = u;
    if (u == r->top) break;
  }
  if (e == ANA_NONE) return 0;
  uint32_t ch = r->i;
  while (g->nodes[ch].parent != e)
    ch = g->nodes[ch].parent;
  if (!only_fns(g, ch, f, nf, st, stcap)) return 0;
  graph_cut(g, ch);
  return 1;
}

uint32_t ana_graphs_fold_recursion(struct ana_graph *const *gs, unsigned n,
                                   const struct ana_bottomup *bu) {
  struct rec_leaf *rl = NULL;
  size_t nr = 0, rcap = 0, fcap = 0, nf = 0, stcap = 0;
  uint32_t *f = NULL, *st = NULL, cuts = 0;
  for (unsigned p = 0; p < n; p++)
    for (uint32_t i = 1; gs[p] && i < gs[p]->n; i++) {
      if (!func_leaf(&gs[p]->nodes[i])) continue;
      ZC_GROW(rl, rcap, nr + 1);
      rl[nr].p = p;
      nr += (size_t)rec_leaf_of(gs[p], i, &f, &fcap, &nf, &rl[nr]);
    }
  uint8_t *done = zc_xcalloc(nr + 1, 1);
  for (size_t k = 0; k < nr; k++) {
    if (done[k]) continue;
    /* The group: the causes of all pairs in recursions on this path
     * (rl holds them pair by pair, so the pairs are counted as met). */
    unsigned pairs = 0, last = UINT_MAX, agree = 1;
    for (size_t m = k; m < nr; m++)
      if (rl[m].path == rl[k].path) {
        agree &= rl[m].depth == rl[k].depth;
        pairs += rl[m].p != last;
        last = rl[m].p;
      }
    if (agree && pairs == n) { /* every pair ends at one depth: kept */
      for (size_t m = k; m < nr; m++)
        done[m] |= rl[m].path == rl[k].path;
      continue;
    }
    /* Named by the cycle's function whose self time grew most over all
     * call paths; without bu, by the one most pairs end at. (Counting a
     * function's anonymous callees as its own, as the matching does, was
     * tried: lodash's arrayEach then takes the time of the callback that
     * baseClone hands it, and wins.) */
    const struct ana_gnode *best = NULL;
    unsigned most = 0;
    double grew = -INFINITY;
    for (size_t m = k; m < nr; m++) {
      if (rl[m].path != rl[k].path) continue;
      const struct ana_graph *g = gs[rl[m].p];
      rec_leaf_of(g, rl[m].i, &f, &fcap, &nf, &rl[m]);
      for (size_t j = 0; j <= nf; j++) {
        const struct ana_gnode *x = &g->nodes[j < nf ? f[j] : rl[m].i];
        unsigned c = 0;
        for (size_t q = k; q < nr; q++)
          c += rl[q].path == rl[k].path &&
               same_fn(&gs[rl[q].p]->nodes[rl[q].i], x);
        double d = bu ? fn_delta(bu, x->key, FN_SELF) : 0;
        if (d > grew || (d == grew && c > most)) most = c, grew = d, best = x;
      }
    }
    struct ana_gnode fn = *best;
    for (size_t m = k; m < nr; m++) {
      if (rl[m].path != rl[k].path) continue;
      done[m] = 1;
      struct ana_graph *g = gs[rl[m].p];
      if (g->nodes[rl[m].i].gone) continue;
      rec_leaf_of(g, rl[m].i, &f, &fcap, &nf, &rl[m]);
      if (rec_cut(g, &rl[m], &fn, f, nf, &st, &stcap)) g->recursive++, cuts++;
    }
  }
  for (unsigned p = 0; p < n; p++)
    if (gs[p]) graph_finish(gs[p]);
  free(done);
  free(rl);
  free(f);
  free(st);
  return cuts;
}

/* Pair p's values of aggregated node ai, from node m of its graph. */
static void agg_take(struct ana_graph *g, uint32_t ai, unsigned p,
                     const struct ana_graph *gp, uint32_t m) {
  size_t at = (size_t)ai * g->npairs + p;
  g->old_w[at] = gp->old_w[m];
  g->new_w[at] = gp->new_w[m];
  g->same[at] = gp->same[m];
  g->nodes[ai].isnew += gp->nodes[m].isnew;
}

struct ana_graph *ana_aggregate(struct ana_graph *const *gs, unsigned n,
                                unsigned quorum, int significance) {
  if (!n) return NULL;
  if (!quorum || quorum > n) quorum = n;
  struct ana_graph *g = graph_new(gs[0]->ctx, n, gs[0]->unit);
  g->quorum = quorum;
  struct gcap cap = {0, 0};
  /* members[agg * n + p]: the node of graph p behind aggregated node agg. */
  uint32_t *members = NULL;
  size_t mcap = 0;
  struct ana_gnode rp = gs[0]->nodes[0];
  uint32_t root = graph_add(g, &cap, ANA_NONE, &rp);
  ZC_GROW(members, mcap, (size_t)n);
  for (unsigned p = 0; p < n; p++) {
    members[p] = 0;
    g->old_w[p] = gs[p]->old_w[0];
    g->new_w[p] = gs[p]->new_w[0];
    g->sample_bytes = fmax(g->sample_bytes, gs[p]->sample_bytes);
    g->mu = fmax(g->mu, gs[p]->mu);
  }
  g->nodes[root].present = n;

  uint32_t *stack = NULL;
  size_t sp = 0, scap = 0;
  ZC_GROW(stack, scap, 1);
  stack[sp++] = root;
  struct group *grp = NULL;
  size_t gcap = 0;
  uint32_t *gm = NULL; /* group members, n per group */
  size_t gmcap = 0;
  struct zc_htab gtab; /* (key, rank) -> group */
  struct zc_htab rtab; /* per pair: key -> its count so far in rk[] */
  struct {
    uint32_t key, count;
  } *rk = NULL;
  size_t rkcap = 0;
  zc_htab_init(&gtab, 0);
  zc_htab_init(&rtab, 0);
  while (sp) {
    uint32_t a = stack[--sp];
    /* Count children over all pairs to size the tables. */
    size_t total = 0;
    for (unsigned p = 0; p < n; p++) {
      uint32_t m = members[(size_t)a * n + p];
      if (m != ANA_NONE) total += gs[p]->nodes[m].nkids;
    }
    if (!total) continue;
    zc_htab_clear(&gtab, total);
    size_t ng = 0;
    for (unsigned p = 0; p < n; p++) {
      uint32_t m = members[(size_t)a * n + p];
      if (m == ANA_NONE) continue;
      /* The k-th node with a key in pair p meets the k-th with that key in
       * the other pairs, as the alternate matcher's queues do. */
      zc_htab_clear(&rtab, gs[p]->nodes[m].nkids);
      uint32_t nrk = 0;
      for (uint32_t c = gs[p]->nodes[m].kid; c != ANA_NONE;
           c = gs[p]->nodes[c].sib) {
        uint32_t key = gs[p]->nodes[c].key, ri, gi;
        uint64_t hv = zc_mix64(key);
        size_t pos = ZC_HTAB_START;
        int found = 0;
        while (!found && zc_htab_next(&rtab, hv, &pos, &ri))
          found = rk[ri].key == key;
        if (!found) {
          ZC_GROW(rk, rkcap, (size_t)nrk + 1);
          rk[nrk].key = key, rk[nrk].count = 0;
          zc_htab_add(&rtab, hv, pos, ri = nrk++);
        }
        uint32_t r = rk[ri].count++;
        hv = zc_mix64((uint64_t)key << 32 | r);
        pos = ZC_HTAB_START;
        found = 0;
        while (!found && zc_htab_next(&gtab, hv, &pos, &gi))
          found = grp[gi].key == key && grp[gi].rank == r;
        if (!found) {
          ZC_GROW(grp, gcap, ng + 1);
          ZC_GROW(gm, gmcap, (ng + 1) * n);
          grp[ng] = (struct group){key, r, 0, (uint32_t)(ng * n)};
          for (unsigned q = 0; q < n; q++)
            gm[ng * n + q] = ANA_NONE;
          zc_htab_add(&gtab, hv, pos, gi = (uint32_t)ng++);
        }
        struct group *gr = &grp[gi];
        if (gm[gr->first + p] == ANA_NONE) gr->count++;
        gm[gr->first + p] = c;
      }
    }
    for (size_t k = 0; k < ng; k++) {
      if (grp[k].count < quorum) continue;
      struct ana_gnode proto;
      unsigned fp = 0;
      while (gm[grp[k].first + fp] == ANA_NONE)
        fp++;
      proto = gs[fp]->nodes[gm[grp[k].first + fp]];
      proto.present = grp[k].count;
      proto.isnew = 0;
      uint32_t ai = graph_add(g, &cap, a, &proto);
      ZC_GROW(members, mcap, ((size_t)ai + 1) * n);
      for (unsigned p = 0; p < n; p++) {
        uint32_t m = gm[grp[k].first + p];
        members[(size_t)ai * n + p] = m;
        if (m != ANA_NONE) agg_take(g, ai, p, gs[p], m);
      }
      ZC_GROW(stack, scap, sp + 1);
      stack[sp++] = ai;
    }
  }
  free(stack);
  free(grp);
  free(gm);
  zc_htab_free(&gtab);
  zc_htab_free(&rtab);
  free(rk);
  free(members);
  if (significance) drop_noisy(g);
  graph_finish(g);
  return g;
}

unsigned ana_gnode_means(const struct ana_graph *g, uint32_t i, double *old_ms,
                         double *new_ms, double *delta_ms) {
  double so = 0, sn = 0;
  unsigned k = 0;
  for (unsigned p = 0; p < g->npairs; p++) {
    int64_t nv = g->new_w[(size_t)i * g->npairs + p];
    int64_t ov = g->old_w[(size_t)i * g->npairs + p];
    if (nv == ANA_ABSENT) continue;
    so += ov < 0 ? 0 : (double)ov;
    sn += (double)nv;
    k++;
  }
  double d = k ? (double)k * ana_unit_desc(g->unit)->per : 1;
  *old_ms = so / d;
  *new_ms = sn / d;
  *delta_ms = (sn - so) / d;
  return k;
}

/* The mean of node i's same[] over the pairs that tell; NAN if none. */
static float same_mean(const struct ana_graph *g, uint32_t i) {
  double s = 0;
  unsigned k = 0;
  for (unsigned p = 0; p < g->npairs; p++) {
    float v = g->same[(size_t)i * g->npairs + p];
    if (g->new_w[(size_t)i * g->npairs + p] == ANA_ABSENT || isnan(v)) continue;
    s += v;
    k++;
  }
  return k ? (float)(s / k) : NAN;
}

uint32_t ana_graph_mark_effects(struct ana_graph *g) {
  if (!g) return 0;
  int root = 0;
  for (uint32_t i = 1; i < g->n; i++) {
    struct ana_gnode *x = &g->nodes[i];
    x->same = same_mean(g, i);
    x->effect = 0;
    if (x->cause && !(x->same >= ANA_SAME_MIN)) root = 1;
  }
  uint32_t k = 0;
  for (uint32_t i = 1; root && i < g->n; i++) {
    struct ana_gnode *x = &g->nodes[i];
    if (x->cause && x->same >= ANA_SAME_MIN) x->effect = 1, k++;
  }
  return k;
}

/* What cause i stands for: its own Δ, or, where the counts named it for
 * the time of another node (a loop's callee, a consequence), that node's
 * when larger (a root upstream may have grown little itself). */
static double cause_weight(const struct ana_graph *g, uint32_t i) {
  double om, nm, d, dl;
  ana_gnode_means(g, i, &om, &nm, &d);
  uint32_t l = g->calls ? g->calls[i].landed : ANA_NONE;
  if (l != ANA_NONE && l < g->n && l != i) {
    ana_gnode_means(g, l, &om, &nm, &dl);
    if (dl > d) d = dl;
  }
  return d;
}

uint32_t ana_graph_mark_minor(struct ana_graph *g,
                              const struct ana_bottomup *bu, double share) {
  if (!g || !(share > 0)) return 0;
  double *w = zc_xcalloc(g->n, sizeof *w), top = 0;
  for (uint32_t i = 1; i < g->n; i++)
    if (g->nodes[i].cause && (w[i] = cause_weight(g, i)) > top) top = w[i];
  /* the small causes, and the functions of those under them */
  uint32_t *small = zc_xmalloc(((size_t)g->n + 1) * sizeof *small), ns = 0;
  uint32_t *key = zc_xmalloc(((size_t)g->n + 1) * sizeof *key);
  uint8_t *carries = zc_xcalloc(g->n + 1, 1);
  for (uint32_t i = 1; top > 0 && i < g->n; i++)
    if (g->nodes[i].cause && w[i] < share * top) {
      key[ns] = g->nodes[i].key;
      small[ns++] = i;
    }
  /* Where at least half of a large cause's growth (its function's, with
   * callees, over all its call paths) lies under a small one's function,
   * the large one only carries its time (a loop over it, a recursion
   * passing it up): the small one is that slowdown's bottom. One pass
   * over the call paths per large cause. */
  uint32_t *pr = bu && ns ? ana_bu_path_rows(bu) : NULL;
  double *out = zc_xmalloc(((size_t)ns + 1) * sizeof *out);
  for (uint32_t b = 1; pr && b < g->n; b++) {
    const struct ana_gnode *y = &g->nodes[b];
    if (!y->cause || w[b] < share * top || y->kind != ANA_FUNC) continue;
    double incl = fn_delta(bu, y->key, FN_INCL);
    if (!(incl > 0)) continue;
    ana_bu_incl_outside(bu, pr, y->key, key, ns, out);
    for (uint32_t s = 0; s < ns; s++) /* NAN (never under it) is not */
      carries[s] |= key[s] != y->key && out[s] < 0.5 * incl &&
                    g->nodes[small[s]].kind == ANA_FUNC;
  }
  uint32_t k = 0;
  for (uint32_t s = 0; s < ns; s++) {
    if (carries[s]) continue;
    g->nodes[small[s]].cause = 0;
    g->nodes[small[s]].minor = 1;
    k++;
  }
  free(out);
  free(pr);
  free(carries);
  free(key);
  free(small);
  free(w);
  g->minor_share = share;
  g->minor_top = top;
  return k;
}

static int cause_cmp(const void *a, const void *b) {
  const struct ana_cause *x = a, *y = b;
  if (x->effect != y->effect) return x->effect - y->effect;
  if (x->delta_ms != y->delta_ms) return x->delta_ms > y->delta_ms ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

static uint32_t causes_of(const struct ana_graph *g, int minor,
                          struct ana_cause **out) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < g->n; i++)
    n += minor ? g->nodes[i].minor : g->nodes[i].cause;
  struct ana_cause *v = zc_xmalloc(((size_t)n + 1) * sizeof *v);
  n = 0;
  for (uint32_t i = 0; i < g->n; i++) {
    if (!(minor ? g->nodes[i].minor : g->nodes[i].cause)) continue;
    v[n].node = i;
    v[n].effect = g->nodes[i].effect;
    ana_gnode_means(g, i, &v[n].old_ms, &v[n].new_ms, &v[n].delta_ms);
    n++;
  }
  qsort(v, n, sizeof *v, cause_cmp);
  *out = v;
  return n;
}

uint32_t ana_causes(const struct ana_graph *g, struct ana_cause **out) {
  return causes_of(g, 0, out);
}

uint32_t ana_minor_causes(const struct ana_graph *g, struct ana_cause **out) {
  return causes_of(g, 1, out);
}
