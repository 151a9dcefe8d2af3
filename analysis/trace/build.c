/* From profiles to the timeline: each kept profile's samples, in time
 * order, placed under its thread's node. */
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

/* Places a profile node (and any unplaced ancestors) in the timeline. */
static uint32_t ing_place(struct ana_timeline *tl, struct prof *p,
                          struct pnode *n, uint32_t thread, uint32_t **stk,
                          size_t *cap) {
  size_t sp = 0;
  /* Walk up to a placed ancestor. A node whose parent is named but
   * missing, or in a cycle, is dropped with its samples, as DevTools'
   * engine drops it; so is one with no parent in a profile that has a
   * "(root)" (a .cpuprofile node no other lists as a child: the engine
   * keeps only the nodes it reaches from the root). Without a root, a node
   * with no parent is under the thread. The walk is bounded by the node
   * count. */
  struct pnode *from = n;
  int broken = 0;
  while (n && n->tl == ANA_NONE && n->kind != ANA_ROOT && !n->dead) {
    if (sp > p->nnodes) {
      broken = 1;
      break;
    }
    ZC_GROW(*stk, *cap, sp + 1);
    (*stk)[sp++] = (uint32_t)(n - p->nodes);
    struct pnode *up = n->parent ? prof_find(p, n->parent) : NULL;
    if ((n->parent && !up) || (!n->parent && p->has_root)) broken = 1;
    n = up;
  }
  if (broken || (n && n->dead)) {
    from->dead = 1;
    return ANA_NONE;
  }
  uint32_t at = n && n->tl != ANA_NONE ? n->tl : thread;
  while (sp) {
    struct pnode *m = &p->nodes[(*stk)[--sp]];
    if (m->tl == ANA_NONE)
      m->tl = ana__tl_child_ids(tl, at, (enum ana_kind)m->kind, m->name, m->url,
                                m->line, m->col);
    at = m->tl;
  }
  return at;
}

/* How long the last sample lasts: the mean interval between samples, as
 * DevTools' trace engine has it (but see exact_end). endTime is not read: it is
 * in V8's clock (the one of args.data.startTime), which a tool that rewrote the
 * events' times may have left behind (an rspack trace's last sample lasted 470
 * 000 s when it was used), and where it is consistent it differs from the mean
 * by less than an interval. */
static int64_t ing_tail(const struct prof *p, const int64_t *ts,
                        const uint32_t *order) {
  size_t n = p->nsamp;
  if (!n) return 0;
  int64_t first = ts[order ? order[0] : 0],
          last = ts[order ? order[n - 1] : n - 1];
  /* An old .cpuprofile's one timestamp more than samples (or its end,
   * which its samples were spread up to) ends the last sample, as in
   * DevTools. */
  if (p->exact_end && p->end_us >= last) return p->end_us - last;
  return n > 1 ? (last - first) / (int64_t)(n - 1) : 0;
}

static _Thread_local int64_t *ing_ts_for_sort;
static int ing_bytime(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  int64_t tx = ing_ts_for_sort[x], ty = ing_ts_for_sort[y];
  if (tx != ty) return tx < ty ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* The top-level function a node is under (the child of the root). */
static const struct pnode *ing_bottom(const struct prof *p,
                                      const struct pnode *n) {
  for (unsigned guard = 0; n && guard < (1u << 20); guard++) {
    const struct pnode *up = n->parent ? prof_find(p, n->parent) : NULL;
    if (!up || !up->parent) return n;
    n = up;
  }
  return n;
}

static int ing_system(const struct pnode *n) {
  return n->kind == ANA_PROGRAM || n->kind == ANA_GC || n->kind == ANA_IDLE;
}

/* DevTools' fixMissingSamples (CPUProfileDataModel): V8's sampler now and
 * then fails to walk the JS stack and records (program) instead; a lone
 * (program) sample between two samples under the same top-level function
 * (neither of them (program), (garbage collector) or (idle)) is taken for
 * the sample before it, so that a call is not split in two. Samples in
 * time order; returns p->sid itself when nothing changed. */
static uint32_t *ing_fix_missing(struct prof *p, const uint32_t *order) {
  size_t n = p->nsamp;
  if (n < 3) return p->sid;
  uint32_t *out = p->sid;
#define AT(k) (order ? order[k] : (k))
  uint32_t prev = p->sid[AT(0)], cur = p->sid[AT(1)];
  for (size_t k = 1; k + 1 < n; k++) {
    uint32_t next = p->sid[AT(k + 1)];
    const struct pnode *pn = prof_find(p, prev), *nn = prof_find(p, next);
    if (!pn || !nn) break; /* as DevTools: a sample of no node ends it */
    const struct pnode *cn = prof_find(p, cur);
    if (cn && cn->kind == ANA_PROGRAM && !ing_system(pn) && !ing_system(nn) &&
        ing_bottom(p, pn) == ing_bottom(p, nn)) {
      if (out == p->sid) {
        out = zc_xmalloc(n * sizeof *out);
        memcpy(out, p->sid, n * sizeof *out);
      }
      out[AT(k)] = prev;
    }
    prev = cur;
    cur = next;
  }
#undef AT
  return out;
}

void ing_build(struct ing *g, struct prof *p, struct ana_timeline *tl) {
  if (!p->nsamp) return;
  int64_t *ts = zc_xmalloc(p->nsamp * sizeof *ts);
  int64_t t = p->has_start ? p->start_us : 0;
  int sorted = 1;
  for (size_t i = 0; i < p->nsamp; i++) {
    t += p->sdt[i];
    ts[i] = t;
    if (i && ts[i] < ts[i - 1]) sorted = 0;
  }
  /* V8 now and then records a sample out of order; DevTools sorts them, and
   * so do we, so that durations are never negative. */
  uint32_t *order = NULL;
  if (!sorted) {
    order = zc_xmalloc(p->nsamp * sizeof *order);
    for (size_t i = 0; i < p->nsamp; i++)
      order[i] = (uint32_t)i;
    /* Nearly sorted: insertion sort is linear in the few inversions. A
     * hostile file with many gets qsort instead, past a bound of moves. */
    size_t moves = 0, bound = 16 * p->nsamp + 1024;
    for (size_t i = 1; i < p->nsamp && moves <= bound; i++) {
      uint32_t x = order[i];
      size_t j = i;
      while (j > 0 && ts[order[j - 1]] > ts[x] && ++moves <= bound) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = x;
    }
    if (moves > bound) {
      ing_ts_for_sort = ts;
      qsort(order, p->nsamp, sizeof *order, ing_bytime);
    }
  }
  p->has_root = 0;
  for (size_t i = 0; i < p->nnodes && !p->has_root; i++)
    p->has_root = p->nodes[i].kind == ANA_ROOT;
  int64_t tail = ing_tail(p, ts, order);
  uint32_t *sid = ing_fix_missing(p, order);
  float *share = zc_xmalloc(p->nsamp * sizeof *share);
  if (!ing_cpu_shares(g, p, ts, order, share)) {
    free(share);
    share = NULL;
  }
  /* The thread's node is made at its first placed sample: a profile whose
   * samples all name nodes it never described (chunks whose Profile event
   * and nodes are not in the file) makes no empty thread. */
  uint32_t thread = ANA_NONE;
  uint32_t *stk = NULL;
  size_t cap = 0;
  /* Consecutive samples often hit the same node: skip the hash lookup. */
  uint32_t last_id = 0;
  struct pnode *last = NULL;
  for (size_t k = 0; k < p->nsamp; k++) {
    size_t i = order ? order[k] : k;
    size_t nx = k + 1 < p->nsamp ? (order ? order[k + 1] : k + 1) : SIZE_MAX;
    int64_t dur = nx != SIZE_MAX ? ts[nx] - ts[i] : tail;
    struct pnode *n = last && sid[i] == last_id ? last : prof_find(p, sid[i]);
    last_id = sid[i];
    last = n;
    /* a sample of a node never described, or of a broken parent chain:
     * skipped */
    if (!n || n->dead) continue;
    if (thread == ANA_NONE)
      thread = ana__tl_child_ids(tl, 0, ANA_THREAD, p->label, 0, -1, -1);
    uint32_t at = n->kind == ANA_ROOT ? thread
                  : n->tl != ANA_NONE ? n->tl
                                      : ing_place(tl, p, n, thread, &stk, &cap);
    if (at == ANA_NONE) continue;
    /* (idle) is no CPU time: only work is weighed by the CPU it had */
    if (share && n->kind != ANA_IDLE) dur = (int64_t)((double)dur * share[i]);
    if (ts[i] >= g->fig_t0) {
      if (n->kind == ANA_FUNC)
        p->script_us += dur;
      else if (n->kind == ANA_GC)
        p->gc_us += dur;
      else if (n->kind == ANA_PROGRAM)
        p->native_us += dur;
      if (n->kind != ANA_IDLE && n->kind != ANA_ROOT) p->busy_us += dur;
    }
    ana_tl_sample(tl, at, ts[i], dur);
  }
  if (sid != p->sid) free(sid);
  free(share);
  free(stk);
  free(order);
  free(ts);
}
