/* The bottom-up view: self time per function, summed over whole timelines.
 * It finds what the critical graph cannot: a regression spread thin over
 * many call paths, none of which passes μ alone (seed 000 §5.3 RQ6, §6.1).
 *
 * Beside the rows (one per function), the timelines are merged into one
 * call tree of paths, keyed by (parent path, function), with each path's
 * self time per side: the costliest paths of a spread-out cause. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "timeline.h"
#include "zam.h"

struct bu_path {
  uint32_t parent, key, name, row; /* row: UINT32_MAX for none */
  uint32_t component, url;
  int32_t line, col;
  uint8_t kind;
  double self[2]; /* µs, summed over the timelines */
};

struct ana_bottomup {
  struct ana_ctx *ctx;
  double per;                /* raw weights per shown unit (the first
                                timeline's unit; 1000 µs a ms for time) */
  unsigned np;               /* timelines kept apart per side */
  struct ana_bu_row *rows;   /* in first-seen order, matching sum[] */
  struct ana_bu_row *sorted; /* what ana_bu_rows last returned */
  double *sum[2];            /* µs per row, side and timeline: row * np + k */
  double *incl[2];           /* inclusive µs, laid out as sum (bu_inclusive) */
  /* Self µs as the matching's pruned tree has it, laid out as sum: an
   * anonymous function's (a name ana_name_pruned drops) counts for its
   * nearest named caller, as ana_prune moves it there; one with none
   * keeps its own. */
  double *psum[2];
  size_t n, cap, capsum[2], capincl[2], cappsum[2];
  struct zc_htab tab;  /* key -> row */
  unsigned count[2];   /* timelines added per side */
  double sample_bytes; /* the timelines' sampling, the coarsest; 0: exact */
  double sampled;      /* raw weight of the CPU samples seen, both sides */
  uint64_t samples;    /* and how many they were */
  struct bu_path *paths;
  size_t npaths, cappaths;
  struct zc_htab ptab; /* (parent, key) -> path */
  uint32_t *map;       /* timeline node -> path, for the one being added */
  size_t capmap;
  uint32_t *owner; /* timeline node -> the row its self time counts for in
                      psum, for the one being added */
  size_t capowner;
  uint32_t anon; /* "(anonymous)", the name of a function V8 left unnamed */
};

struct ana_bottomup *ana_bu_new(struct ana_ctx *c, unsigned npairs) {
  struct ana_bottomup *b = zc_xcalloc(1, sizeof *b);
  b->ctx = c;
  b->np = npairs ? npairs : 1;
  b->per = ana_unit_desc(ANA_UNIT_TIME)->per;
  b->anon = ana_intern(c, "(anonymous)", 11);
  zc_htab_init(&b->tab, 512);
  zc_htab_init(&b->ptab, 1024);
  return b;
}

void ana_bu_free(struct ana_bottomup *b) {
  if (!b) return;
  free(b->rows);
  free(b->sorted);
  for (int s = 0; s < 2; s++) {
    free(b->sum[s]);
    free(b->incl[s]);
    free(b->psum[s]);
  }
  zc_htab_free(&b->tab);
  free(b->paths);
  zc_htab_free(&b->ptab);
  free(b->map);
  free(b->owner);
  free(b);
}

/* A name the matching keeps (ana_name_pruned). */
static int bu_named(const struct ana_bottomup *b, uint32_t name) {
  return !ana_name_pruned(b->ctx, name);
}

/* A node's name as DevTools shows it: "(anonymous)" for a function V8
 * left unnamed. */
static uint32_t bu_name(const struct ana_bottomup *b,
                        const struct ana_node *nd) {
  return nd->kind == ANA_FUNC && !*ana_str(b->ctx, nd->name) ? b->anon
                                                             : nd->name;
}

static uint32_t bu_row(struct ana_bottomup *b, const struct ana_node *nd) {
  uint64_t hv = zc_mix64(nd->key);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&b->tab, hv, &pos, &i))
    if (b->rows[i].key == nd->key) return i;
  ZC_GROW(b->rows, b->cap, b->n + 1);
  for (int s = 0; s < 2; s++) {
    size_t cs = b->capsum[s], ci = b->capincl[s], cp = b->cappsum[s];
    ZC_GROW(b->sum[s], cs, (b->n + 1) * b->np);
    ZC_GROW(b->incl[s], ci, (b->n + 1) * b->np);
    ZC_GROW(b->psum[s], cp, (b->n + 1) * b->np);
    b->capsum[s] = cs;
    b->capincl[s] = ci;
    b->cappsum[s] = cp;
    memset(b->sum[s] + b->n * b->np, 0, b->np * sizeof *b->sum[s]);
    memset(b->incl[s] + b->n * b->np, 0, b->np * sizeof *b->incl[s]);
    memset(b->psum[s] + b->n * b->np, 0, b->np * sizeof *b->psum[s]);
  }
  struct ana_bu_row *r = &b->rows[b->n];
  memset(r, 0, sizeof *r);
  r->key = nd->key;
  r->name = bu_name(b, nd);
  r->component = nd->component;
  r->url = nd->url;
  r->line = nd->line;
  r->col = nd->col;
  r->gen = nd->gen;
  r->kind = nd->kind;
  zc_htab_add(&b->tab, hv, pos, (uint32_t)b->n);
  return (uint32_t)b->n++;
}

static uint32_t bu_path(struct ana_bottomup *b, uint32_t parent,
                        const struct ana_node *nd) {
  uint64_t hv = zc_mix64((uint64_t)parent << 32 | nd->key);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&b->ptab, hv, &pos, &i))
    if (b->paths[i].parent == parent && b->paths[i].key == nd->key) return i;
  ZC_GROW(b->paths, b->cappaths, b->npaths + 1);
  struct bu_path *p = &b->paths[b->npaths];
  memset(p, 0, sizeof *p);
  p->parent = parent;
  p->key = nd->key;
  p->name = bu_name(b, nd);
  p->component = nd->component;
  p->url = nd->url;
  p->line = nd->line;
  p->col = nd->col;
  p->kind = nd->kind;
  p->row = UINT32_MAX;
  zc_htab_add(&b->ptab, hv, pos, (uint32_t)b->npaths);
  return (uint32_t)b->npaths++;
}

/* One per-row array laid out again for np timelines a side. */
static void bu_relay(const struct ana_bottomup *b, double **a, size_t *cap,
                     unsigned np) {
  double *w = zc_xcalloc(b->n * np + 1, sizeof *w);
  for (size_t r = 0; r < b->n; r++)
    memcpy(w + r * np, *a + r * b->np, b->np * sizeof *w);
  free(*a);
  *a = w;
  *cap = b->n * np + 1;
}

/* Room for np timelines a side: the per-row sums laid out again. */
static void bu_widen(struct ana_bottomup *b, unsigned np) {
  for (int s = 0; s < 2; s++) {
    bu_relay(b, &b->sum[s], &b->capsum[s], np);
    bu_relay(b, &b->incl[s], &b->capincl[s], np);
    bu_relay(b, &b->psum[s], &b->cappsum[s], np);
  }
  b->np = np;
}

/* Each function's inclusive weight in one timeline (row: each node's
 * row, UINT32_MAX for none and for what is no function), counted once per
 * stack (a recursion's inner calls are inside the outer one's): what a
 * function cost wherever it was called from, pruned and anonymous callees
 * included. A depth-first walk keeps how often each row is on the stack. */
static void bu_inclusive(struct ana_bottomup *b, const struct ana_timeline *tl,
                         const uint32_t *row, int side, unsigned k) {
  uint32_t nn = tl->nnodes;
  uint32_t *on = zc_xcalloc(b->n + 1, sizeof *on);
  uint32_t *st = zc_xmalloc(((size_t)nn + 1) * sizeof *st);
  uint32_t *cur = zc_xmalloc(((size_t)nn + 1) * sizeof *cur);
  size_t sp = 1;
  st[0] = 0;
  cur[0] = 0;
  while (sp) {
    const struct ana_node *v = &tl->nodes[st[sp - 1]];
    if (cur[sp - 1] < v->nkids) {
      uint32_t w = tl->kids[v->kid0 + cur[sp - 1]++];
      if (row[w] != UINT32_MAX && !on[row[w]]++)
        b->incl[side][(size_t)row[w] * b->np + k] += (double)tl->nodes[w].total;
      st[sp] = w;
      cur[sp++] = 0;
      continue;
    }
    if (row[st[sp - 1]] != UINT32_MAX) on[row[st[sp - 1]]]--;
    sp--;
  }
  free(on);
  free(st);
  free(cur);
}

void ana_bu_add(struct ana_bottomup *b, const struct ana_timeline *tl,
                int side) {
  side = side ? 1 : 0;
  if (!b->count[0] && !b->count[1]) b->per = ana_unit_desc(tl->unit)->per;
  b->sample_bytes = fmax(b->sample_bytes, tl->sample_bytes);
  if (b->count[side] >= b->np && b->np < ANA_SPREAD_MAX_PAIRS)
    bu_widen(b, b->np * 2 < ANA_SPREAD_MAX_PAIRS ? b->np * 2
                                                 : ANA_SPREAD_MAX_PAIRS);
  unsigned k = b->count[side] < b->np ? b->count[side] : b->np - 1;
  ZC_GROW(b->map, b->capmap, (size_t)tl->nnodes + 1);
  ZC_GROW(b->owner, b->capowner, (size_t)tl->nnodes + 1);
  b->map[0] = UINT32_MAX; /* the root has no path */
  b->owner[0] = UINT32_MAX;
  uint32_t *fr = zc_xmalloc(((size_t)tl->nnodes + 1) * sizeof *fr);
  fr[0] = UINT32_MAX; /* each node's row, functions only (bu_inclusive) */
  /* Every node counts, pruned or not: self time is where the CPU was.
   * Parents come before their children (ana_tl_finish). */
  double w = 0;
  for (uint32_t i = 1; i < tl->nnodes; i++) {
    const struct ana_node *nd = &tl->nodes[i];
    uint32_t path = bu_path(b, b->map[nd->parent], nd);
    b->map[i] = path;
    b->owner[i] = fr[i] = UINT32_MAX;
    w += (double)nd->self;
    if (nd->kind == ANA_THREAD || nd->kind == ANA_IDLE) continue;
    uint32_t r = bu_row(b, nd), up = b->owner[nd->parent];
    if (nd->kind == ANA_FUNC) fr[i] = r;
    b->owner[i] =
        nd->kind == ANA_FUNC && !bu_named(b, nd->name) && up != UINT32_MAX ? up
                                                                           : r;
    if (!nd->self) continue;
    b->psum[side][(size_t)b->owner[i] * b->np + k] += (double)nd->self;
    b->sum[side][(size_t)r * b->np + k] += (double)nd->self;
    b->paths[path].self[side] += (double)nd->self;
    b->paths[path].row = r;
  }
  bu_inclusive(b, tl, fr, side, k);
  free(fr);
  b->count[side]++;
  if (tl->unit == ANA_UNIT_TIME && tl->samples) {
    b->sampled += w;
    b->samples += tl->samples;
  }
}

static int bu_cmp(const void *pa, const void *pb) {
  const struct ana_bu_row *a = pa, *b = pb;
  if (a->delta_ms != b->delta_ms) return a->delta_ms > b->delta_ms ? -1 : 1;
  return a->key < b->key ? -1 : a->key > b->key;
}

/* A row's weight on one side, summed over the timelines, of its self
 * weights (a: b->sum) or its inclusive ones (b->incl). */
static double bu_total(const struct ana_bottomup *b, double *const *a, int side,
                       size_t row) {
  double s = 0;
  for (unsigned k = 0; k < b->np; k++)
    s += a[side][row * b->np + k];
  return s;
}

uint32_t ana_bu_rows(struct ana_bottomup *b, const struct ana_bu_row **rows) {
  double d0 = b->count[0] ? b->count[0] * b->per : 1;
  double d1 = b->count[1] ? b->count[1] * b->per : 1;
  free(b->sorted);
  b->sorted = zc_xmalloc((b->n + 1) * sizeof *b->sorted);
  size_t n = 0;
  for (size_t i = 0; i < b->n; i++) {
    double o = bu_total(b, b->sum, 0, i), w = bu_total(b, b->sum, 1, i);
    if (o == 0 && w == 0) continue; /* a row for its inclusive time only */
    struct ana_bu_row *r = &b->sorted[n++];
    *r = b->rows[i];
    r->old_ms = o / d0;
    r->new_ms = w / d1;
    r->delta_ms = r->new_ms - r->old_ms;
  }
  if (n) qsort(b->sorted, n, sizeof *b->sorted, bu_cmp);
  *rows = b->sorted;
  return (uint32_t)n;
}

/* ---- spread-out regression-causes ---- */

/* Whether the critical graph names this function already: as a cause, or
 * as a candidate it left out as not significant (undecided there). */
static int is_cause(const struct ana_graph *g, uint32_t key) {
  for (uint32_t i = 1; g && i < g->n; i++)
    if ((g->nodes[i].cause || g->nodes[i].gone) && g->nodes[i].key == key)
      return 1;
  return 0;
}

/* The row of a function, or UINT32_MAX. */
static uint32_t bu_row_of(const struct ana_bottomup *b, uint32_t key) {
  uint64_t hv = zc_mix64(key);
  size_t pos = ZC_HTAB_START;
  uint32_t r;
  while (zc_htab_next(&b->tab, hv, &pos, &r))
    if (b->rows[r].key == key) return r;
  return UINT32_MAX;
}

/* The growth of row r's self time, mean per pair in the shown unit, on
 * the call paths that pass through no cause of the graph and no function
 * of a row taken[] as a spread-out cause (pr: each path's row,
 * bu_path_rows). */
static double bu_outside_causes(const struct ana_bottomup *b, uint32_t r,
                                const struct ana_graph *agg,
                                const uint8_t *taken, const uint32_t *pr) {
  if (!b->count[0] || !b->count[1]) return 0;
  double s[2] = {0, 0};
  for (uint32_t i = 0; i < b->npaths; i++) {
    if (b->paths[i].key != b->rows[r].key) continue;
    int under = 0;
    for (uint32_t k = b->paths[i].parent; k != UINT32_MAX && !under;
         k = b->paths[k].parent)
      under = is_cause(agg, b->paths[k].key) ||
              (pr[k] != UINT32_MAX && taken[pr[k]]);
    if (under) continue;
    s[0] += b->paths[i].self[0];
    s[1] += b->paths[i].self[1];
  }
  return (s[1] / b->count[1] - s[0] / b->count[0]) / b->per;
}

static int spread_cmp(const void *pa, const void *pb) {
  const struct ana_spread *a = pa, *b = pb;
  if (a->delta_ms != b->delta_ms) return a->delta_ms > b->delta_ms ? -1 : 1;
  return a->fn.key < b->fn.key ? -1 : a->fn.key > b->fn.key;
}

/* The costliest paths of row r: its paths by Δ of their mean self time. */
static void spread_paths(const struct ana_bottomup *b, uint32_t r,
                         struct ana_spread *s) {
  double d0 = b->count[0] ? b->count[0] * b->per : 1;
  double d1 = b->count[1] ? b->count[1] * b->per : 1;
  for (uint32_t i = 0; i < b->npaths; i++) {
    const struct bu_path *p = &b->paths[i];
    if (p->row != r) continue;
    if (p->self[1] > 0) s->npaths++;
    double d = p->self[1] / d1 - p->self[0] / d0;
    for (unsigned k = 0; k < ANA_SPREAD_TOP; k++) {
      if (k < s->ntop && d <= s->top[k].delta_ms) continue;
      unsigned last = s->ntop < ANA_SPREAD_TOP ? s->ntop++ : ANA_SPREAD_TOP - 1;
      memmove(&s->top[k + 1], &s->top[k], (last - k) * sizeof *s->top);
      s->top[k].path = i;
      s->top[k].delta_ms = d;
      break;
    }
  }
}

static int edge_cmp(const void *pa, const void *pb) {
  const uint64_t *a = pa, *b = pb;
  return *a < *b ? -1 : *a > *b;
}

/* Whether row r was sampled in any old timeline (ana_bu_old_seen). */
static int bu_old_seen(const struct ana_bottomup *b, uint32_t r) {
  return bu_total(b, b->incl, 0, r) > 0;
}

/* Each path's row, UINT32_MAX for none (threads, markers). Caller frees. */
static uint32_t *bu_path_rows(const struct ana_bottomup *b) {
  uint32_t *pr = zc_xmalloc(((size_t)b->npaths + 1) * sizeof *pr);
  for (uint32_t i = 0; i < b->npaths; i++)
    pr[i] = b->paths[i].kind == ANA_FUNC ? bu_row_of(b, b->paths[i].key)
                                         : UINT32_MAX;
  return pr;
}

/* Functions whose growth new code explains: their inclusive time grew by
 * mu, but not by mu outside the call paths that pass through a function
 * new to the build (one the old runs never sampled) above them. Code
 * called from new code, as the graph's rule has it (ana_graph_drop_moved):
 * neither a cause nor a reason its new caller is not the lowest. A new
 * function entered from old code is not explained: it is where the new
 * code starts. Caller frees. */
static uint8_t *bu_explained(const struct ana_bottomup *b, double mu) {
  uint8_t *ex = zc_xcalloc(b->n + 1, 1), *fresh = zc_xcalloc(b->n + 1, 1);
  int any = 0;
  for (uint32_t r = 0; r < b->n; r++) {
    fresh[r] = b->rows[r].kind == ANA_FUNC && bu_named(b, b->rows[r].name) &&
               !bu_old_seen(b, r) && bu_total(b, b->incl, 1, r) > 0;
    any |= fresh[r];
  }
  if (!any || !b->count[0] || !b->count[1]) {
    free(fresh);
    return ex;
  }
  uint32_t *pr = bu_path_rows(b);
  /* nf[i]: the highest path at or above i whose function is new (where
   * the new code is entered), or UINT32_MAX; parents come before their
   * children. */
  uint32_t *nf = zc_xmalloc(((size_t)b->npaths + 1) * sizeof *nf);
  for (uint32_t i = 0; i < b->npaths; i++) {
    uint32_t p = b->paths[i].parent;
    nf[i] = p != UINT32_MAX && nf[p] != UINT32_MAX ? nf[p]
            : pr[i] != UINT32_MAX && fresh[pr[i]]  ? i
                                                   : UINT32_MAX;
  }
  /* out[r]: r's new inclusive time not explained by new code. Time under
   * new code counts for the new function that entered it only: not for
   * the code it calls, new or old, nor for its callers. */
  double *out = zc_xcalloc(b->n + 1, sizeof *out);
  uint32_t *stamp = zc_xcalloc(b->n + 1, sizeof *stamp);
  for (uint32_t i = 0; i < b->npaths; i++) {
    double w = b->paths[i].self[1];
    if (w <= 0) continue;
    if (nf[i] != UINT32_MAX) {
      out[pr[nf[i]]] += w;
      continue;
    }
    for (uint32_t k = i; k != UINT32_MAX; k = b->paths[k].parent)
      if (pr[k] != UINT32_MAX && stamp[pr[k]] != i + 1) {
        stamp[pr[k]] = i + 1; /* once per stack */
        out[pr[k]] += w;
      }
  }
  for (uint32_t r = 0; r < b->n; r++) {
    double old = bu_total(b, b->incl, 0, r) / b->count[0];
    double all = (bu_total(b, b->incl, 1, r) / b->count[1] - old) / b->per;
    double outside = (out[r] / b->count[1] - old) / b->per;
    ex[r] = all >= mu && outside < mu;
  }
  free(stamp);
  free(out);
  free(nf);
  free(pr);
  free(fresh);
  return ex;
}

/* The lowest functions by inclusive time: those whose time with their
 * callees, over all call paths, grew by mu on average, and below which no
 * function did, nor one the critical graph names, however deep: their
 * growth is not explained by a function they call. A regression spread
 * over call paths and callees, none of which passes mu alone, ends there.
 * A recursion through two functions or more blocks itself: a function
 * below which it grew again is not the lowest. Caller frees. */
static uint8_t *bu_lowest_incl(const struct ana_bottomup *b, unsigned np,
                               double mu, const struct ana_graph *agg) {
  uint8_t *low = zc_xcalloc(b->n + 1, 1), *stop = zc_xcalloc(b->n + 1, 1);
  uint8_t *ex = bu_explained(b, mu);
  for (uint32_t r = 0; r < b->n; r++) {
    double s = 0;
    for (unsigned k = 0; k < np; k++)
      s +=
          b->incl[1][(size_t)r * b->np + k] - b->incl[0][(size_t)r * b->np + k];
    low[r] = b->rows[r].kind == ANA_FUNC && bu_named(b, b->rows[r].name) &&
             np && s / np / b->per >= mu && !ex[r];
    stop[r] = low[r];
  }
  for (uint32_t i = 1; agg && i < agg->n; i++)
    if (agg->nodes[i].cause || agg->nodes[i].gone) {
      uint32_t r = bu_row_of(b, agg->nodes[i].key);
      if (r != UINT32_MAX) stop[r] = 1;
    }
  uint64_t *e = NULL; /* caller row << 32 | callee row */
  size_t ne = 0, cap = 0;
  for (uint32_t i = 0; i < b->npaths; i++) {
    const struct bu_path *p = &b->paths[i];
    if (p->parent == UINT32_MAX || !bu_named(b, p->name)) continue;
    /* the caller: the nearest named function above, as the matching
     * prunes anonymous ones (which share one row per file) */
    uint32_t q = p->parent;
    for (uint32_t g = 0;
         q != UINT32_MAX && !bu_named(b, b->paths[q].name) && g < b->npaths;
         g++)
      q = b->paths[q].parent;
    if (q == UINT32_MAX) continue;
    uint32_t x = bu_row_of(b, b->paths[q].key), c = bu_row_of(b, p->key);
    if (x == UINT32_MAX || c == UINT32_MAX || x == c) continue;
    ZC_GROW(e, cap, ne + 1);
    e[ne++] = (uint64_t)x << 32 | c;
  }
  if (ne) qsort(e, ne, sizeof *e, edge_cmp);
  size_t *at = zc_xcalloc(b->n + 2, sizeof *at); /* edges of row r: at[r].. */
  for (size_t i = 0; i < ne; i++)
    at[(e[i] >> 32) + 1]++;
  for (uint32_t r = 0; r < b->n; r++)
    at[r + 1] += at[r];
  uint32_t *seen = zc_xcalloc(b->n + 1, sizeof *seen), *st = NULL;
  size_t scap = 0;
  for (uint32_t r = 0; r < b->n; r++) {
    if (!low[r]) continue;
    size_t sp = 0;
    ZC_GROW(st, scap, 1);
    st[sp++] = r;
    seen[r] = r + 1;
    while (sp && low[r]) {
      uint32_t x = st[--sp];
      for (size_t i = at[x]; i < at[x + 1]; i++) {
        uint32_t c = (uint32_t)(e[i] & 0xffffffffu);
        if (seen[c] == r + 1) continue;
        seen[c] = r + 1;
        if (stop[c]) {
          low[r] = 0;
          break;
        }
        ZC_GROW(st, scap, sp + 1);
        st[sp++] = c;
      }
    }
  }
  free(st);
  free(seen);
  free(at);
  free(e);
  free(stop);
  free(ex);
  return low;
}

/* A spread-out cause of row r, its per-pair Δs d (of its self or, incl,
 * its inclusive time) and their statistics st. */
static void spread_fill(const struct ana_bottomup *b, uint32_t r, int incl,
                        double *const *a, const struct ana_stat *st,
                        const double *d, unsigned np, struct ana_spread *s) {
  memset(s, 0, sizeof *s);
  s->fn = b->rows[r];
  s->inclusive = incl;
  s->fn.old_ms = bu_total(b, a, 0, r) / (b->count[0] * b->per);
  s->fn.new_ms = bu_total(b, a, 1, r) / (b->count[1] * b->per);
  s->fn.delta_ms = s->fn.new_ms - s->fn.old_ms;
  s->delta_ms = st->mean;
  s->lo = st->lo;
  s->hi = st->hi;
  s->npairs = np;
  memcpy(s->delta_pair, d, np * sizeof *d);
  spread_paths(b, r, s);
}

uint32_t ana_bu_spread(struct ana_bottomup *b, double mu_ms, unsigned quorum,
                       int significance, const struct ana_graph *agg,
                       struct ana_spread **out, unsigned *undecided,
                       unsigned *needed) {
  *undecided = *needed = 0;
  unsigned np = b->count[0] < b->count[1] ? b->count[0] : b->count[1];
  if (np > b->np) np = b->np;
  if (!quorum || quorum > np) quorum = np;
  struct ana_spread *v = NULL;
  size_t n = 0, cap = 0;
  double d[ANA_SPREAD_MAX_PAIRS];
  if (np > ANA_SPREAD_MAX_PAIRS) np = ANA_SPREAD_MAX_PAIRS;
  uint8_t *low = bu_lowest_incl(b, np, mu_ms, agg);
  uint8_t *taken = zc_xcalloc(b->n + 1, 1);
  uint32_t *pr = NULL; /* each path's row, once an anonymous row asks */
  /* First named functions by self time as the matching sees it (an
   * anonymous callee's counts for its named caller: psum); then the row
   * of a file's anonymous functions, by their own self time; then the
   * lowest by inclusive time not named yet. */
  for (int pass = 0; pass < 3; pass++)
    for (uint32_t r = 0; np && r < b->n; r++) {
      int incl = pass == 2, named = bu_named(b, b->rows[r].name);
      if (b->rows[r].kind != ANA_FUNC || taken[r] || (incl && !low[r]) ||
          named != (pass != 1) || is_cause(agg, b->rows[r].key))
        continue;
      /* One row holds all of a file's anonymous functions, and the
       * matching sees through them to their named callers: such a row is
       * named only for growth on call paths that no cause already names,
       * of the graph or spread out. */
      if (!named && !pr) pr = bu_path_rows(b);
      if (!named && bu_outside_causes(b, r, agg, taken, pr) < mu_ms) continue;
      double *const *a = incl ? b->incl : pass ? b->sum : b->psum;
      unsigned over = 0;
      double sd = 0, sw = 0; /* raw, for sampled weights' noise */
      for (unsigned k = 0; k < np; k++) {
        double o = a[0][(size_t)r * b->np + k],
               nw = a[1][(size_t)r * b->np + k];
        d[k] = (nw - o) / b->per;
        over += d[k] >= mu_ms;
        sd += nw - o;
        sw += nw + o;
      }
      struct ana_stat st;
      ana_stat(d, np, &st);
      if (over < quorum || st.mean < mu_ms) continue;
      if (significance &&
          ((st.n >= 3 && !(st.lo > 0)) ||
           !ana_sampled_clear(sd, sw, np, mu_ms * b->per, b->sample_bytes))) {
        unsigned k = ana_pairs_needed(d, np, 0);
        ++*undecided;
        if (k > *needed) *needed = k;
        continue;
      }
      taken[r] = 1;
      ZC_GROW(v, cap, n + 1);
      spread_fill(b, r, incl, a, &st, d, np, &v[n++]);
    }
  free(low);
  free(taken);
  free(pr);
  if (n) qsort(v, n, sizeof *v, spread_cmp);
  *out = v;
  return (uint32_t)n;
}

static unsigned bu_deltas(const struct ana_bottomup *b, double *const *a,
                          uint32_t key, double *d, unsigned cap) {
  unsigned np = b->count[0] < b->count[1] ? b->count[0] : b->count[1];
  if (np > b->np) np = b->np;
  if (np > cap) np = cap;
  uint32_t r = bu_row_of(b, key);
  for (unsigned k = 0; k < np; k++)
    d[k] = r == UINT32_MAX
               ? 0
               : (a[1][(size_t)r * b->np + k] - a[0][(size_t)r * b->np + k]) /
                     b->per;
  return np;
}

unsigned ana_bu_deltas(const struct ana_bottomup *b, uint32_t key, double *d,
                       unsigned cap) {
  return bu_deltas(b, b->sum, key, d, cap);
}

unsigned ana_bu_incl_deltas(const struct ana_bottomup *b, uint32_t key,
                            double *d, unsigned cap) {
  return bu_deltas(b, b->incl, key, d, cap);
}

unsigned ana_bu_incl_values(const struct ana_bottomup *b, uint32_t key,
                            int side, double *v, unsigned cap) {
  unsigned np = b->count[0] < b->count[1] ? b->count[0] : b->count[1];
  if (np > b->np) np = b->np;
  if (np > cap) np = cap;
  uint32_t r = bu_row_of(b, key);
  for (unsigned k = 0; k < np; k++)
    v[k] = r == UINT32_MAX ? 0 : b->incl[side][(size_t)r * b->np + k] / b->per;
  return np;
}

const struct ana_bu_row *ana_bu_row(const struct ana_bottomup *b,
                                    uint32_t key) {
  uint32_t r = bu_row_of(b, key);
  return r == UINT32_MAX ? NULL : &b->rows[r];
}

uint32_t ana_bu_npaths(const struct ana_bottomup *b) {
  return (uint32_t)b->npaths;
}

uint32_t ana_bu_path_parent(const struct ana_bottomup *b, uint32_t i) {
  return b->paths[i].parent;
}

uint32_t ana_bu_path_key(const struct ana_bottomup *b, uint32_t i,
                         uint32_t *name, uint8_t *kind) {
  if (name) *name = b->paths[i].name;
  if (kind) *kind = b->paths[i].kind;
  return b->paths[i].key;
}

int ana_bu_calls_into(const struct ana_bottomup *b, uint32_t caller,
                      uint32_t callee) {
  for (uint32_t i = 0; i < b->npaths; i++) {
    if (b->paths[i].key != callee || b->paths[i].kind != ANA_FUNC) continue;
    for (uint32_t k = b->paths[i].parent; k != UINT32_MAX;
         k = b->paths[k].parent)
      if (b->paths[k].key == caller && b->paths[k].kind == ANA_FUNC) return 1;
  }
  return 0;
}

int ana_bu_old_seen(const struct ana_bottomup *b, uint32_t key) {
  uint32_t r = bu_row_of(b, key);
  return r != UINT32_MAX && bu_old_seen(b, r);
}

uint32_t *ana_bu_path_rows(const struct ana_bottomup *b) {
  return bu_path_rows(b);
}

void ana_bu_incl_outside(const struct ana_bottomup *b, const uint32_t *pr,
                         uint32_t key, const uint32_t *below, uint32_t n,
                         double *out) {
  for (uint32_t k = 0; k < n; k++)
    out[k] = NAN;
  uint32_t r = bu_row_of(b, key);
  if (r == UINT32_MAX || !b->count[0] || !b->count[1]) return;
  double *under = zc_xcalloc(2 * (b->n + 1), sizeof *under), all[2] = {0, 0};
  uint32_t *stamp = zc_xcalloc(b->n + 1, sizeof *stamp);
  /* in[i]: the innermost path of the function at or above i, or
   * UINT32_MAX; parents come before their children. */
  uint32_t *in = zc_xmalloc(((size_t)b->npaths + 1) * sizeof *in);
  for (uint32_t i = 0; i < b->npaths; i++) {
    uint32_t p = b->paths[i].parent;
    in[i] = pr[i] == r ? i : p != UINT32_MAX ? in[p] : UINT32_MAX;
    const double *w = b->paths[i].self;
    if (in[i] == UINT32_MAX || (w[0] <= 0 && w[1] <= 0)) continue;
    /* The sample is the function's; the rows met on the way up to its
     * frame ran under it. */
    for (int s = 0; s < 2; s++)
      all[s] += w[s];
    for (uint32_t q = i; q != in[i]; q = b->paths[q].parent) {
      uint32_t k = pr[q];
      if (k == UINT32_MAX || stamp[k] == i + 1) continue;
      stamp[k] = i + 1; /* once per stack */
      for (int s = 0; s < 2; s++)
        under[2 * (size_t)k + (size_t)s] += w[s];
    }
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t q = bu_row_of(b, below[k]);
    if (q == UINT32_MAX || (under[2 * q] == 0 && under[2 * q + 1] == 0))
      continue;
    out[k] = ((all[1] - under[2 * q + 1]) / b->count[1] -
              (all[0] - under[2 * q]) / b->count[0]) /
             b->per;
  }
  free(in);
  free(stamp);
  free(under);
}

double ana_bu_sample(const struct ana_bottomup *b) {
  return b->samples ? b->sampled / (double)b->samples / b->per : 0;
}

const struct ana_ctx *ana_bu_ctx(const struct ana_bottomup *b) {
  return b->ctx;
}

uint32_t ana_bu_path(const struct ana_bottomup *b, uint32_t path,
                     uint32_t *names, uint32_t cap) {
  uint32_t len = 0;
  for (uint32_t i = path; i != UINT32_MAX && i < b->npaths;
       i = b->paths[i].parent)
    len++;
  uint32_t k = len;
  for (uint32_t i = path; i != UINT32_MAX && i < b->npaths;
       i = b->paths[i].parent)
    if (--k < cap) names[k] = b->paths[i].name;
  return len;
}

/* ---- the merged call tree, for other tools ---- */

enum { FOLDED_DEPTH_MAX = 2000 };

/* One frame of a folded stack: the name and where it is, with the
 * separator ';', line ends and controls replaced. */
static void folded_frame(const struct ana_bottomup *b, const struct bu_path *p,
                         FILE *f) {
  const char *name = ana_shown_name(b->ctx, p->name, p->kind == ANA_FUNC);
  const char *comp = ana_str(b->ctx, p->component);
  if (!*name) name = "(unknown)";
  for (int part = 0; part < 2; part++) {
    const char *s = part ? comp : name;
    if (part && (!*comp || p->kind != ANA_FUNC)) break;
    if (part) fputs(" (", f);
    for (; *s; s++) {
      unsigned char c = (unsigned char)*s;
      fputc(c == ';' || c < 0x20 || c == 0x7f ? '_' : c, f);
    }
    if (part) fprintf(f, ":%d)", p->line + 1);
  }
}

enum zc_err ana_bu_write_folded(const struct ana_bottomup *b, int side,
                                FILE *f) {
  side = side ? 1 : 0;
  uint32_t *stack = NULL;
  size_t cap = 0;
  for (uint32_t i = 0; i < b->npaths; i++) {
    double self = b->paths[i].self[side];
    if (self <= 0) continue;
    size_t len = 0;
    for (uint32_t k = i; k != UINT32_MAX; k = b->paths[k].parent) {
      ZC_GROW(stack, cap, len + 1);
      stack[len++] = k;
    }
    /* Deep recursion: the outermost and innermost frames, and a marker
     * for those left out, so that a line stays bounded. */
    for (size_t j = len; j-- > 0;) {
      size_t at = len - 1 - j; /* 0 for the thread */
      if (len > FOLDED_DEPTH_MAX && at >= FOLDED_DEPTH_MAX / 2 &&
          at < len - FOLDED_DEPTH_MAX / 2) {
        if (at == FOLDED_DEPTH_MAX / 2)
          fprintf(f, "(%zu frames left out);", len - FOLDED_DEPTH_MAX);
        continue;
      }
      folded_frame(b, &b->paths[stack[j]], f);
      if (j) fputc(';', f);
    }
    fprintf(f, " %.0f\n", self);
  }
  free(stack);
  return ZC_OK;
}

enum zc_err ana_bu_write_cpuprofile(const struct ana_bottomup *b, int side,
                                    FILE *f) {
  side = side ? 1 : 0;
  /* The paths that ran on this side, with their ancestors. */
  uint8_t *keep = zc_xcalloc(b->npaths + 1, 1);
  for (uint32_t i = 0; i < b->npaths; i++)
    if (b->paths[i].self[side] > 0)
      for (uint32_t k = i; k != UINT32_MAX && !keep[k]; k = b->paths[k].parent)
        keep[k] = 1;
  /* Nodes: the root is id 1, path i is id i + 2; children by first child
   * and next sibling, in the order paths were first seen. */
  uint32_t *kid = zc_xmalloc((b->npaths + 1) * sizeof *kid);
  uint32_t *sib = zc_xmalloc((b->npaths + 1) * sizeof *sib);
  uint32_t *last = zc_xmalloc((b->npaths + 2) * sizeof *last);
  uint32_t root_kid = UINT32_MAX, root_last = UINT32_MAX;
  for (uint32_t i = 0; i < b->npaths; i++)
    kid[i] = sib[i] = last[i] = UINT32_MAX;
  for (uint32_t i = 0; i < b->npaths; i++) {
    if (!keep[i]) continue;
    uint32_t p = b->paths[i].parent;
    uint32_t *first = p == UINT32_MAX ? &root_kid : &kid[p];
    uint32_t *end = p == UINT32_MAX ? &root_last : &last[p];
    if (*first == UINT32_MAX)
      *first = i;
    else
      sib[*end] = i;
    *end = i;
  }
  fputs(
      "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\","
      "\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},"
      "\"children\":[",
      f);
  for (uint32_t k = root_kid; k != UINT32_MAX; k = sib[k])
    fprintf(f, "%s%u", k == root_kid ? "" : ",", k + 2);
  fputs("]}", f);
  for (uint32_t i = 0; i < b->npaths; i++) {
    if (!keep[i]) continue;
    const struct bu_path *p = &b->paths[i];
    cJSON *name = cJSON_CreateString(ana_str(b->ctx, p->name));
    cJSON *url = cJSON_CreateString(ana_str(b->ctx, p->url));
    char *ns = cJSON_PrintUnformatted(name), *us = cJSON_PrintUnformatted(url);
    fprintf(f,
            ",{\"id\":%u,\"callFrame\":{\"functionName\":%s,"
            "\"scriptId\":\"0\",\"url\":%s,\"lineNumber\":%d,"
            "\"columnNumber\":%d},\"children\":[",
            i + 2, ns ? ns : "\"\"", us ? us : "\"\"", p->line, p->col);
    free(ns);
    free(us);
    cJSON_Delete(name);
    cJSON_Delete(url);
    for (uint32_t k = kid[i]; k != UINT32_MAX; k = sib[k])
      fprintf(f, "%s%u", k == kid[i] ? "" : ",", k + 2);
    fputs("]}", f);
  }
  /* One sample per path, lasting its self time (DevTools: a sample lasts
   * until the next one's time, the last until endTime). */
  fputs("],\"samples\":[", f);
  int first = 1;
  for (uint32_t i = 0; i < b->npaths; i++)
    if (b->paths[i].self[side] > 0)
      fprintf(f, "%s%u", first ? "" : ",", i + 2), first = 0;
  fputs("],\"timeDeltas\":[", f);
  double total = 0, prev = 0;
  first = 1;
  for (uint32_t i = 0; i < b->npaths; i++) {
    double self = b->paths[i].self[side];
    if (self <= 0) continue;
    fprintf(f, "%s%.0f", first ? "" : ",", first ? 0.0 : prev);
    first = 0;
    prev = round(self);
    total += prev;
  }
  fprintf(f, "],\"startTime\":0,\"endTime\":%.0f}\n", total);
  free(keep);
  free(kid);
  free(sib);
  free(last);
  return ZC_OK;
}

/* One node of a .heapprofile, up to its children's '['. */
static void heap_node_open(const struct ana_bottomup *b, uint32_t i, int side,
                           unsigned id, FILE *f) {
  const char *name = "(root)", *url = "";
  int32_t line = -1, col = -1;
  double self = 0;
  if (i != UINT32_MAX) {
    const struct bu_path *p = &b->paths[i];
    name = ana_str(b->ctx, p->name);
    url = ana_str(b->ctx, p->url);
    line = p->line;
    col = p->col;
    self = round(p->self[side]);
  }
  cJSON *ns = cJSON_CreateString(name), *us = cJSON_CreateString(url);
  char *n = cJSON_PrintUnformatted(ns), *u = cJSON_PrintUnformatted(us);
  fprintf(f,
          "{\"callFrame\":{\"functionName\":%s,\"scriptId\":\"0\","
          "\"url\":%s,\"lineNumber\":%d,\"columnNumber\":%d},"
          "\"selfSize\":%.0f,\"id\":%u,\"children\":[",
          n ? n : "\"\"", u ? u : "\"\"", line, col, self, id);
  free(n);
  free(u);
  cJSON_Delete(ns);
  cJSON_Delete(us);
}

enum zc_err ana_bu_write_heapprofile(const struct ana_bottomup *b, int side,
                                     FILE *f) {
  side = side ? 1 : 0;
  size_t n = b->npaths;
  uint8_t *keep = zc_xcalloc(n + 1, 1);
  for (uint32_t i = 0; i < n; i++)
    if (b->paths[i].self[side] > 0)
      for (uint32_t k = i; k != UINT32_MAX && !keep[k]; k = b->paths[k].parent)
        keep[k] = 1;
  /* Children by first child and next sibling; the threads (one, "heap",
   * for zamcap's profiles) are left out: their children are the head's. */
  uint32_t *kid = zc_xmalloc((n + 1) * sizeof *kid);
  uint32_t *sib = zc_xmalloc((n + 1) * sizeof *sib);
  uint32_t *last = zc_xmalloc((n + 1) * sizeof *last);
  for (size_t i = 0; i <= n; i++)
    kid[i] = sib[i] = last[i] = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    if (!keep[i] || b->paths[i].kind == ANA_THREAD) continue;
    uint32_t p = b->paths[i].parent;
    while (p != UINT32_MAX && b->paths[p].kind == ANA_THREAD)
      p = b->paths[p].parent;
    size_t at = p == UINT32_MAX ? n : p; /* n: the head */
    if (kid[at] == UINT32_MAX)
      kid[at] = i;
    else
      sib[last[at]] = i;
    last[at] = i;
  }
  /* Depth first with a stack of open nodes; each is closed after its
   * children. */
  uint32_t *st = zc_xmalloc((n + 2) * sizeof *st);
  size_t sp = 0;
  unsigned id = 1;
  fputs("{\"head\":", f);
  heap_node_open(b, UINT32_MAX, side, id++, f);
  st[sp++] = (uint32_t)n;
  uint32_t next = kid[n];
  while (sp) {
    if (next != UINT32_MAX) {
      if (next != kid[st[sp - 1]]) fputc(',', f);
      heap_node_open(b, next, side, id++, f);
      st[sp++] = next;
      next = kid[next];
      continue;
    }
    fputs("]}", f);
    uint32_t done = st[--sp];
    next = sp ? sib[done] : UINT32_MAX;
  }
  fputs(",\"samples\":[]", f);
  /* The runs' sum, so each sample still stands for the runs' interval. */
  if (b->sample_bytes > 0)
    fprintf(f, ",\"zamcap\":{\"sampling_interval_bytes\":%.0f}",
            b->sample_bytes);
  fputs("}\n", f);
  free(st);
  free(keep);
  free(kid);
  free(sib);
  free(last);
  return ZC_OK;
}

/* ---- the flame graph's data, for report.json ---- */

static int flame_desc(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The path of (parent path, key), or UINT32_MAX. */
static uint32_t bu_find(const struct ana_bottomup *b, uint32_t parent,
                        uint32_t key) {
  uint64_t hv = zc_mix64((uint64_t)parent << 32 | key);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&b->ptab, hv, &pos, &i))
    if (b->paths[i].parent == parent && b->paths[i].key == key) return i;
  return UINT32_MAX;
}

cJSON *ana_bu_flame_json(const struct ana_bottomup *b,
                         const struct ana_graph *agg, uint32_t max_nodes) {
  size_t n = b->npaths;
  double *tot[2];
  for (int s = 0; s < 2; s++) {
    double per = b->count[s] ? b->count[s] * b->per : 1; /* µs to ms per run */
    tot[s] = zc_xcalloc(n + 1, sizeof *tot[s]);
    for (size_t i = 0; i < n; i++)
      tot[s][i] = b->paths[i].self[s] / per;
    /* children come after their parents: one backward pass sums them up */
    for (size_t i = n; i-- > 0;)
      if (b->paths[i].parent != UINT32_MAX)
        tot[s][b->paths[i].parent] += tot[s][i];
  }
  /* The largest max_nodes paths by time in either build; a parent's time
   * is at least its children's, so the kept set holds every ancestor. */
  double cut = 0;
  if (n > max_nodes) {
    double *m = zc_xmalloc(n * sizeof *m);
    for (size_t i = 0; i < n; i++)
      m[i] = tot[0][i] > tot[1][i] ? tot[0][i] : tot[1][i];
    qsort(m, n, sizeof *m, flame_desc);
    cut = m[max_nodes - 1];
    free(m);
  }
  uint8_t *flag = zc_xcalloc(n + 1, 1);
  /* the critical graph's paths (1) and causes (2), found by their keys */
  if (agg && agg->n) {
    uint32_t *map = zc_xmalloc((size_t)agg->n * sizeof *map);
    map[0] = UINT32_MAX;
    for (uint32_t i = 1; i < agg->n; i++) {
      const struct ana_gnode *g = &agg->nodes[i];
      uint32_t up = map[g->parent];
      map[i] = g->gone || (g->parent && up == UINT32_MAX)
                   ? UINT32_MAX
                   : bu_find(b, up, g->key);
      if (map[i] != UINT32_MAX)
        flag[map[i]] |= (uint8_t)(1 | (g->cause ? 2 : 0));
    }
    free(map);
  }
  int32_t *idx = zc_xmalloc((n + 1) * sizeof *idx);
  cJSON *o = cJSON_CreateObject();
  cJSON *names = cJSON_AddArrayToObject(o, "names");
  cJSON *col[7];
  static const char *const cols[7] = {"parent", "name",   "file", "line",
                                      "old_ms", "new_ms", "flag"};
  for (int c = 0; c < 7; c++)
    col[c] = cJSON_AddArrayToObject(o, cols[c]);
  struct zc_htab seen;
  zc_htab_init(&seen, 256);
  uint32_t *ids = NULL; /* interned string of each names entry */
  size_t nids = 0, capids = 0;
  int32_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    const struct bu_path *p = &b->paths[i];
    int32_t up = p->parent == UINT32_MAX ? -1 : idx[p->parent];
    double m = tot[0][i] > tot[1][i] ? tot[0][i] : tot[1][i];
    idx[i] = -1;
    if ((p->parent != UINT32_MAX && up < 0) || m <= 0 || (cut > 0 && m < cut))
      continue;
    idx[i] = kept++;
    uint32_t str[2] = {p->name, p->component}, at[2];
    for (int k = 0; k < 2; k++) {
      uint64_t hv = zc_mix64(str[k]);
      size_t pos = ZC_HTAB_START;
      uint32_t j, found = UINT32_MAX;
      while (zc_htab_next(&seen, hv, &pos, &j))
        if (ids[j] == str[k]) {
          found = j;
          break;
        }
      if (found == UINT32_MAX) {
        ZC_GROW(ids, capids, nids + 1);
        ids[nids] = str[k];
        found = (uint32_t)nids++;
        zc_htab_add(&seen, hv, pos, found);
        cJSON_AddItemToArray(names,
                             cJSON_CreateString(ana_str(b->ctx, str[k])));
      }
      at[k] = found;
    }
    double v[7] = {up,
                   at[0],
                   at[1],
                   p->kind == ANA_FUNC ? p->line + 1 : 0,
                   round(tot[0][i] * 1000) / 1000,
                   round(tot[1][i] * 1000) / 1000,
                   flag[i]};
    for (int c = 0; c < 7; c++)
      cJSON_AddItemToArray(col[c], cJSON_CreateNumber(v[c]));
  }
  cJSON_AddNumberToObject(o, "runs_old", b->count[0]);
  cJSON_AddNumberToObject(o, "runs_new", b->count[1]);
  cJSON_AddNumberToObject(o, "left_out", (double)(n - (size_t)kept));
  zc_htab_free(&seen);
  free(ids);
  free(idx);
  free(flag);
  free(tot[0]);
  free(tot[1]);
  return o;
}
