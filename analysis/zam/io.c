/* I/O per call path (zam/io.h): each pair of I/O runs becomes five pairs
 * of timelines, one per measure, added to a comparison of their own
 * (struct ana_cmp): the same pruning, matching, critical graph,
 * aggregation, significance, moved calls and spread-out causes as time.
 *
 * A timeline's thread is "network" (requests) or "storage" (writes); below
 * it each stack's frames, outermost first (or, with no stack, who asked:
 * "(parser)", "(style)"), and under the innermost frame a node for what
 * was asked ("GET /api/item/:id", "localStorage.setItem draft::id") that
 * carries the weight: 1 a request, the bytes, the writes. A request moved
 * to another caller is then a node new on its path whose function (what
 * was asked) did not grow over all its paths: a moved call, left out as
 * time's are; more of the same request is a node that grew wherever it
 * is. Frames are functions by name and script (their call sites vary:
 * the stacks give where each call was made, not where the function
 * starts), so they are not renamed by source maps.
 *
 * Beside the timelines, each run's values per call path (struct io_path)
 * give SPECTRAPERF's columns (seed 002: calls, bytes per call, the runs a
 * path was seen in, the similarity of the new runs to the old ones'
 * range) and the rows per step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "zam/io.h"

const struct io_measure ana__io_measures[IO_NMEASURES] = {
    {"requests", "requests", ANA_UNIT_COUNT, 0, IO_REQUESTS, IO_RECEIVED},
    {"received_kb", "KB received", ANA_UNIT_BYTES, 0, IO_REQUESTS, IO_RECEIVED},
    {"sent_kb", "KB sent", ANA_UNIT_BYTES, 0, IO_REQUESTS, IO_SENT},
    {"storage_writes", "storage writes", ANA_UNIT_COUNT, 1, IO_WRITES,
     IO_WRITTEN},
    {"storage_kb", "KB written", ANA_UNIT_BYTES, 1, IO_WRITES, IO_WRITTEN},
};

/* The URL of the nodes that carry the weight: what was asked. */
#define IO_LEAF_URL "zamcap:io"

struct ana_io *ana_io_new(const struct ana_opts *o, double mu_requests,
                          double mu_kb, struct ana_maps *maps,
                          unsigned expect) {
  struct ana_io *io = zc_xcalloc(1, sizeof *io);
  io->o = *o;
  io->mu_requests = mu_requests > 0 ? mu_requests : 5;
  io->mu_kb = mu_kb > 0 ? mu_kb : 100;
  io->rctx = ana_ctx_new();
  io->maps = maps;
  io->expect = expect;
  for (int m = 0; m < IO_NMEASURES; m++) {
    struct ana_opts mo = *o;
    mo.mu = ana__io_measures[m].unit == ANA_UNIT_COUNT ? io->mu_requests
                                                       : io->mu_kb;
    /* every I/O cause is listed: a call path's requests are few, and
     * one more fetch is news however many another path makes */
    mo.minor_share = 0;
    io->m[m] = ana_cmp_new(&mo, 0, maps, expect, 9);
  }
  zc_htab_init(&io->ptab, 256);
  return io;
}

void ana_io_free(struct ana_io *io) {
  if (!io) return;
  for (int m = 0; m < IO_NMEASURES; m++) {
    ana_cmp_free(io->m[m]);
    free(io->idmap[m]);
  }
  for (unsigned p = 0; p < io->n; p++) {
    ana__io_run_free(io->old_runs[p]);
    ana__io_run_free(io->new_runs[p]);
  }
  free(io->old_runs);
  free(io->new_runs);
  for (size_t i = 0; i < io->npaths; i++) {
    free(io->paths[i].key);
    free(io->paths[i].v);
  }
  free(io->paths);
  zc_htab_free(&io->ptab);
  for (unsigned k = 0; k < io->nwatch; k++)
    free(io->watch[k].key);
  free(io->watch);
  free(io->wv[0]);
  free(io->wv[1]);
  ana_e2e_free(io->rows);
  ana_ctx_free(io->rctx);
  free(io);
}

unsigned ana_io_pairs(const struct ana_io *io) {
  return io ? io->n : 0;
}

/* An item's weight in measure m: raw (a count, or bytes). */
static double item_w(const struct io_item *it, int m) {
  switch (m) {
  case IO_REQUESTS: return it->storage ? 0 : it->n;
  case IO_RECEIVED: return it->storage ? 0 : it->received;
  case IO_SENT: return it->storage ? 0 : it->sent;
  case IO_WRITES: return it->storage ? it->n : 0;
  default: return it->storage ? it->sent : 0;
  }
}

/* A string of the runs' context as measure m's context has it. */
static uint32_t tid(struct ana_io *io, int m, uint32_t rid) {
  if (!rid) return 0; /* "" */
  if (rid >= io->nidmap[m]) {
    size_t n = io->nidmap[m];
    ZC_GROW(io->idmap[m], io->nidmap[m], (size_t)rid + 1);
    memset(io->idmap[m] + n, 0, (io->nidmap[m] - n) * sizeof *io->idmap[m]);
  }
  if (!io->idmap[m][rid]) {
    const char *s = ana_str(io->rctx, rid);
    io->idmap[m][rid] = ana_intern(io->m[m]->ctx, s, strlen(s)) + 1;
  }
  return io->idmap[m][rid] - 1;
}

/* Run r's timeline in measure m. */
static struct ana_timeline *run_tl(struct ana_io *io,
                                   const struct ana_io_run *r, int m) {
  struct ana_ctx *c = io->m[m]->ctx;
  struct ana_timeline *tl = ana_tl_new(c, r->path);
  tl->unit = ana__io_measures[m].unit;
  const char *tn = ana__io_measures[m].storage ? "storage" : "network";
  uint32_t thr = ana_tl_child(tl, 0, ANA_THREAD, tn, "", -1, -1);
  uint32_t leaf_url = ana_intern(c, IO_LEAF_URL, strlen(IO_LEAF_URL));
  for (size_t i = 0; i < r->nitems; i++) {
    const struct io_item *it = &r->items[i];
    double w = item_w(it, m);
    if (!(w > 0)) continue;
    uint32_t node = thr;
    for (uint32_t k = 0; k < it->nframes; k++) {
      const struct io_frame *f = &r->frames[it->frame0 + k];
      node = ana__tl_child_ids(tl, node, ANA_FUNC, tid(io, m, f->name),
                               tid(io, m, f->url), -1, -1);
    }
    if (!it->nframes && it->synth)
      node = ana__tl_child_ids(tl, node, ANA_FUNC, tid(io, m, it->synth),
                               tid(io, m, it->synth_url), -1, -1);
    node = ana__tl_child_ids(tl, node, ANA_FUNC, tid(io, m, it->what), leaf_url,
                             -1, -1);
    ana_tl_sample(tl, node, (int64_t)i, (int64_t)llround(w));
  }
  ana_tl_finish(tl);
  return tl;
}

/* ---- the runs' values per call path ---- */

/* One level of a path: "component\x1fname". */
static int add_level(struct zc_buf *b, const char *comp, const char *name) {
  return (b->len && zc_buf_add(b, "\x1e", 1)) ||
         zc_buf_add(b, comp, strlen(comp)) || zc_buf_add(b, "\x1f", 1) ||
         zc_buf_add(b, name, strlen(name));
}

/* The path of an item, as the pruned timelines have it. */
static void item_key(struct ana_io *io, const struct ana_io_run *r,
                     const struct io_item *it, struct zc_buf *b) {
  char comp[1024];
  zc_buf_reset(b);
  int e = add_level(b, "", it->storage ? "storage" : "network");
  for (uint32_t k = 0; k < it->nframes && !e; k++) {
    const struct io_frame *f = &r->frames[it->frame0 + k];
    if (ana_name_pruned(io->rctx, f->name)) continue;
    const char *u = ana_str(io->rctx, f->url);
    ana_component(u, strlen(u), comp, sizeof comp);
    e = add_level(b, comp, ana_str(io->rctx, f->name));
  }
  if (!it->nframes && it->synth && !e) {
    const char *u = ana_str(io->rctx, it->synth_url);
    ana_component(u, strlen(u), comp, sizeof comp);
    e = add_level(b, comp, ana_str(io->rctx, it->synth));
  }
  ana_component(IO_LEAF_URL, strlen(IO_LEAF_URL), comp, sizeof comp);
  if (!e) add_level(b, comp, ana_str(io->rctx, it->what));
}

static struct io_path *path_get(struct ana_io *io, const char *key, size_t n) {
  uint64_t hv = zc_hash(key, n, 0x7061);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&io->ptab, hv, &pos, &i))
    if (io->paths[i].len == n && !memcmp(io->paths[i].key, key, n))
      return &io->paths[i];
  ZC_GROW(io->paths, io->cappaths, io->npaths + 1);
  struct io_path *p = &io->paths[io->npaths];
  memset(p, 0, sizeof *p);
  p->key = zc_xstrndup(key, n);
  p->len = (uint32_t)n;
  p->line = -1;
  zc_htab_add(&io->ptab, hv, pos, (uint32_t)io->npaths++);
  return p;
}

/* Values of pair p (0-based), side s, measure m. */
static double *pv(struct io_path *p, unsigned pair, int side, int m) {
  return &p->v[((size_t)pair * 2 + (size_t)side) * IO_NMEASURES + (size_t)m];
}

static void run_paths(struct ana_io *io, const struct ana_io_run *r,
                      unsigned pair, int side) {
  struct zc_buf b;
  zc_buf_init(&b, (size_t)1 << 24);
  size_t need = ((size_t)io->cap * 2) * IO_NMEASURES;
  for (size_t i = 0; i < r->nitems; i++) {
    const struct io_item *it = &r->items[i];
    item_key(io, r, it, &b);
    struct io_path *p = path_get(io, b.ptr ? b.ptr : "", b.len);
    if (!p->v) p->v = zc_xcalloc(need, sizeof *p->v);
    for (int m = 0; m < IO_NMEASURES; m++)
      *pv(p, pair, side, m) += item_w(it, m);
    if (p->line < 0 && it->nframes) {
      const struct io_frame *f = &r->frames[it->frame0 + it->nframes - 1];
      p->url = f->url;
      p->line = f->line;
    }
    p->what = it->what;
  }
  zc_buf_free(&b);
}

/* Room for pair p's values in every path. */
static void io_grow(struct ana_io *io) {
  if (io->n < io->cap) return;
  unsigned cap = io->cap ? 2 * io->cap : 4;
  io->old_runs = zc_xreallocarray(io->old_runs, cap, sizeof *io->old_runs);
  io->new_runs = zc_xreallocarray(io->new_runs, cap, sizeof *io->new_runs);
  size_t was = (size_t)io->cap * 2 * IO_NMEASURES;
  size_t now = (size_t)cap * 2 * IO_NMEASURES;
  for (size_t i = 0; i < io->npaths; i++) {
    io->paths[i].v = zc_xreallocarray(io->paths[i].v, now, sizeof(double));
    memset(io->paths[i].v + was, 0, (now - was) * sizeof(double));
  }
  io->cap = cap;
}

static double run_total(const struct ana_io_run *r, int m) {
  double t = 0;
  for (size_t i = 0; i < r->nitems; i++)
    t += item_w(&r->items[i], m);
  return t;
}

enum zc_err ana_io_add(struct ana_io *io, const char *old_path,
                       const char *new_path) {
  double t0 = zc_now_ms();
  struct ana_io_run * or = NULL, *nr = NULL;
  enum zc_err e = ana__io_read(io->rctx, old_path, & or);
  if (!e) e = ana__io_read(io->rctx, new_path, &nr);
  for (int m = 0; !e && m < IO_NMEASURES; m++)
    e = ana__cmp_add_tl(io->m[m], run_tl(io, or, m), run_tl(io, nr, m), t0);
  if (e) {
    ana__io_run_free(or);
    ana__io_run_free(nr);
    return e;
  }
  io_grow(io);
  unsigned p = io->n++;
  io->old_runs[p] = or ;
  io->new_runs[p] = nr;
  run_paths(io, or, p, 0);
  run_paths(io, nr, p, 1);
  zc_log(2,
         "I/O pair %u: %.0f -> %.0f requests, %.0f -> %.0f KB received, "
         "%.0f -> %.0f storage writes (%.1f s)",
         p + 1, run_total(or, IO_REQUESTS), run_total(nr, IO_REQUESTS),
         run_total(or, IO_RECEIVED) / 1024, run_total(nr, IO_RECEIVED) / 1024,
         run_total(or, IO_WRITES), run_total(nr, IO_WRITES),
         (zc_now_ms() - t0) / 1e3);
  return ZC_OK;
}

static void io_drop_moved(struct ana_io *io, int m);

void ana__io_aggregate(struct ana_io *io) {
  for (int m = 0; m < IO_NMEASURES; m++) {
    if (!io->m[m]->n) continue;
    ana__cmp_aggregate(io->m[m]);
    if (io->fixed[m] != io->m[m]->agg) io_drop_moved(io, m);
    io->fixed[m] = io->m[m]->agg;
  }
}

/* ---- causes ---- */

/* Graph node i's path as text (thread down to i), as item_key makes
 * them. */
static void node_key(const struct ana_graph *g, uint32_t i, struct zc_buf *b) {
  uint32_t up[4096], n = 0;
  for (uint32_t j = i;
       j != ANA_NONE && g->nodes[j].kind != ANA_ROOT && n < ZC_ARRAY_LEN(up);
       j = g->nodes[j].parent)
    up[n++] = j;
  zc_buf_reset(b);
  while (n--)
    if (add_level(b, ana_str(g->ctx, g->nodes[up[n]].component),
                  ana_str(g->ctx, g->nodes[up[n]].name)))
      break;
}

static int is_leaf(const struct ana_ctx *c, uint32_t url) {
  return !strcmp(ana_str(c, url), IO_LEAF_URL);
}

/* Whether path p lies on key (key a prefix at a level's boundary), or,
 * with by_last, ends in key's last level (a spread-out cause: wherever
 * it is). */
static int path_on(const struct io_path *p, const char *key, size_t n,
                   int by_last) {
  if (by_last) {
    const char *last = strrchr(key, '\x1e');
    last = last ? last + 1 : key;
    size_t ln = strlen(last);
    return p->len >= ln && !memcmp(p->key + p->len - ln, last, ln) &&
           (p->len == ln || p->key[p->len - ln - 1] == '\x1e');
  }
  return p->len >= n && !memcmp(p->key, key, n) &&
         (p->len == n || p->key[n] == '\x1e');
}

/* The names between a function cause (key, n bytes) and what path p
 * asked, into c->via. */
static void cause_via(struct io_cause *c, const struct io_path *p, size_t n) {
  for (uint32_t k = 0; k < c->nvia; k++)
    free(c->via[k]);
  free(c->via);
  c->via = NULL;
  c->nvia = 0;
  if (p->len <= n) return;
  const char *s = p->key + n + 1, *last = strrchr(p->key, '\x1e');
  while (last && s < last) {
    const char *e = memchr(s, '\x1e', (size_t)(last - s) + 1);
    const char *nm = memchr(s, '\x1f', (size_t)(e - s));
    nm = nm ? nm + 1 : s;
    c->via = zc_xreallocarray(c->via, c->nvia + 1, sizeof *c->via);
    c->via[c->nvia++] = zc_xstrndup(nm, (size_t)(e - nm));
    s = e + 1;
  }
}

/* SPECTRAPERF's columns of cause c, whose path is key, over the runs. */
static void cause_columns(struct ana_io *io, struct io_cause *c,
                          const char *key, size_t n, int by_last) {
  const struct io_measure *d = &ana__io_measures[c->measure];
  double calls[2] = {0, 0}, bytes[2] = {0, 0}, best = -1;
  double lo = INFINITY, hi = -INFINITY, inrange = 0;
  double *rc = zc_xcalloc(2 * (size_t)io->n + 1, sizeof *rc);
  double *rb = zc_xcalloc(2 * (size_t)io->n + 1, sizeof *rb);
  for (size_t i = 0; i < io->npaths; i++) {
    struct io_path *p = &io->paths[i];
    if (!path_on(p, key, n, by_last)) continue;
    for (unsigned k = 0; k < io->n; k++)
      for (int s = 0; s < 2; s++) {
        rc[2 * k + (unsigned)s] += *pv(p, k, s, d->per);
        rb[2 * k + (unsigned)s] += *pv(p, k, s, d->bytes);
      }
    double nv = *pv(p, io->n - 1, 1, c->measure);
    if (nv > best) { /* the call site and what of its largest path */
      best = nv;
      if (!by_last) cause_via(c, p, n);
      if (p->line >= 0) c->line = p->line + 1;
      if (!c->what) c->what = zc_xstrdup(ana_str(io->rctx, p->what));
      if (!c->url && p->url) c->url = zc_xstrdup(ana_str(io->rctx, p->url));
    }
  }
  for (unsigned k = 0; k < io->n; k++) {
    for (int s = 0; s < 2; s++) {
      calls[s] += rc[2 * k + (unsigned)s];
      bytes[s] += rb[2 * k + (unsigned)s];
    }
    double oc = rc[2 * k], ob = rb[2 * k];
    if (oc > 0 && ob / oc < lo) lo = ob / oc;
    if (oc > 0 && ob / oc > hi) hi = ob / oc;
    c->seen += rc[2 * k + 1] > 0;
    c->isnew = c->isnew && !(oc > 0);
  }
  for (unsigned k = 0; k < io->n; k++) {
    double nc = rc[2 * k + 1], nb = rb[2 * k + 1];
    inrange += nc > 0 && nb / nc >= lo && nb / nc <= hi;
  }
  c->runs = io->n;
  c->calls_old = calls[0] / io->n;
  c->calls_new = calls[1] / io->n;
  c->per_call_old = calls[0] > 0 ? bytes[0] / calls[0] / 1024 : NAN;
  c->per_call_new = calls[1] > 0 ? bytes[1] / calls[1] / 1024 : NAN;
  /* Ochiai against the ideal vector (every new run in the old range) */
  c->similarity = io->n ? sqrt(inrange / io->n) : NAN;
  free(rc);
  free(rb);
}

/* The cause of graph node i in measure m. */
static void graph_cause(struct ana_io *io, int m, const struct ana_cause *cs,
                        struct io_cause *c, struct zc_buf *b) {
  const struct ana_graph *g = io->m[m]->agg;
  uint32_t i = cs->node;
  const struct ana_gnode *nd = &g->nodes[i];
  c->measure = m;
  c->g = g;
  c->node = i;
  c->old = cs->old_ms;
  c->new_ = cs->new_ms;
  c->delta = cs->delta_ms;
  c->isnew = 1;
  /* the function that asked: the node, or above what was asked */
  uint32_t fn = is_leaf(g->ctx, nd->url) ? nd->parent : i;
  if (is_leaf(g->ctx, nd->url)) c->what = zc_xstrdup(ana_str(g->ctx, nd->name));
  if (g->nodes[fn].kind == ANA_FUNC) {
    c->name = zc_xstrdup(ana_str(g->ctx, g->nodes[fn].name));
    const char *u = ana_str(g->ctx, g->nodes[fn].url);
    if (u[0]) c->url = zc_xstrdup(u);
  } else {
    c->name = zc_xstrdup("(no function)");
  }
  uint32_t up[4096], n = 0;
  for (uint32_t j = fn;
       j != ANA_NONE && g->nodes[j].kind != ANA_ROOT && n < ZC_ARRAY_LEN(up);
       j = g->nodes[j].parent)
    up[n++] = j;
  c->path = zc_xcalloc(n + 1, sizeof *c->path);
  while (n--)
    c->path[c->npath++] = zc_xstrdup(ana_str(g->ctx, g->nodes[up[n]].name));
  c->npairs = g->npairs;
  c->dpair = zc_xcalloc(g->npairs + 1, sizeof *c->dpair);
  double per = ana_unit_desc(g->unit)->per;
  for (unsigned p = 0; p < g->npairs; p++) {
    int64_t ov = g->old_w[(size_t)i * g->npairs + p];
    int64_t nv = g->new_w[(size_t)i * g->npairs + p];
    c->dpair[p] =
        nv == ANA_ABSENT ? NAN : (double)(nv - (ov < 0 ? 0 : ov)) / per;
  }
  struct ana_stat st;
  ana_stat(c->dpair, c->npairs, &st);
  c->lo = st.lo;
  c->hi = st.hi;
  node_key(g, i, b);
  cause_columns(io, c, b->ptr ? b->ptr : "", b->len, 0);
}

/* A spread-out cause in measure m: what was asked (or a function) that
 * grew over all its paths, none of them alone by mu. */
static void spread_cause(struct ana_io *io, int m, const struct ana_spread *s,
                         struct io_cause *c, struct zc_buf *b) {
  const struct ana_ctx *ctx = io->m[m]->ctx;
  const struct ana_bottomup *bu = io->m[m]->sp.bu;
  c->measure = m;
  c->node = ANA_NONE;
  c->sp = s;
  c->old = s->fn.old_ms;
  c->new_ = s->fn.new_ms;
  c->delta = s->delta_ms;
  c->lo = s->lo;
  c->hi = s->hi;
  c->isnew = 1;
  c->npairs = s->npairs;
  c->dpair = zc_xcalloc(s->npairs + 1, sizeof *c->dpair);
  memcpy(c->dpair, s->delta_pair, s->npairs * sizeof *c->dpair);
  uint32_t names[4096], len = 0;
  if (s->ntop) len = ana_bu_path(bu, s->top[0].path, names, 4096);
  int leaf = is_leaf(ctx, s->fn.url);
  if (leaf) c->what = zc_xstrdup(ana_str(ctx, s->fn.name));
  /* the costliest path, without what was asked */
  if (leaf && len) len--;
  c->path = zc_xcalloc(len + 1, sizeof *c->path);
  for (uint32_t k = 0; k < len; k++)
    c->path[c->npath++] = zc_xstrdup(ana_str(ctx, names[k]));
  c->name = zc_xstrdup(leaf ? (len > 1 ? c->path[len - 1] : "(no function)")
                            : ana_str(ctx, s->fn.name));
  char comp[1024];
  zc_buf_reset(b);
  const char *u = leaf ? IO_LEAF_URL : ana_str(ctx, s->fn.url);
  ana_component(u, strlen(u), comp, sizeof comp);
  if (add_level(b, comp, ana_str(ctx, s->fn.name))) return;
  cause_columns(io, c, b->ptr, b->len, 1);
}

static int cause_cmp(const void *a, const void *b) {
  const struct io_cause *x = a, *y = b;
  if (x->measure != y->measure) return x->measure - y->measure;
  return (x->delta < y->delta) - (x->delta > y->delta);
}

struct io_cause *ana__io_causes(struct ana_io *io, unsigned *n) {
  ana__io_aggregate(io);
  unsigned cap = 0;
  for (int m = 0; m < IO_NMEASURES; m++)
    if (io->m[m]->n) cap += ana_graph_causes(io->m[m]->agg) + io->m[m]->sp.n;
  struct io_cause *v = zc_xcalloc(cap + 1, sizeof *v);
  struct zc_buf b;
  zc_buf_init(&b, (size_t)1 << 24);
  unsigned k = 0;
  for (int m = 0; m < IO_NMEASURES; m++) {
    struct ana_cmp *c = io->m[m];
    if (!c->n) continue;
    struct ana_cause *cs;
    uint32_t nc = ana_causes(c->agg, &cs);
    for (uint32_t i = 0; i < nc && k < cap; i++)
      graph_cause(io, m, &cs[i], &v[k++], &b);
    free(cs);
    for (uint32_t i = 0; i < c->sp.n && k < cap; i++)
      spread_cause(io, m, &c->sp.v[i], &v[k++], &b);
  }
  zc_buf_free(&b);
  qsort(v, k, sizeof *v, cause_cmp);
  *n = k;
  return v;
}

void ana__io_causes_free(struct io_cause *c, unsigned n) {
  for (unsigned i = 0; c && i < n; i++) {
    free(c[i].name);
    free(c[i].what);
    free(c[i].url);
    for (uint32_t k = 0; k < c[i].npath; k++)
      free(c[i].path[k]);
    free(c[i].path);
    for (uint32_t k = 0; k < c[i].nvia; k++)
      free(c[i].via[k]);
    free(c[i].via);
    free(c[i].dpair);
  }
  free(c);
}

static int same_place(const struct io_cause *a, const struct io_cause *b) {
  if (strcmp(a->name ? a->name : "", b->name ? b->name : "") ||
      strcmp(a->what ? a->what : "", b->what ? b->what : "") ||
      a->npath != b->npath)
    return 0;
  for (uint32_t k = 0; k < a->npath; k++)
    if (strcmp(a->path[k], b->path[k])) return 0;
  return 1;
}

/* A change in its unit: "+48 requests", "+2.1 MB received". */
static int change_words(const struct io_cause *c, char *out, size_t cap) {
  const struct io_measure *d = &ana__io_measures[c->measure];
  if (d->unit == ANA_UNIT_COUNT)
    return snprintf(out, cap, "%+.0f %s", c->delta, d->words);
  const char *rest = d->words + 2; /* "KB received": " received" */
  if (fabs(c->delta) >= 1024)
    return snprintf(out, cap, "%+.1f MB%s", c->delta / 1024, rest);
  return snprintf(out, cap, "%+.0f KB%s", c->delta, rest);
}

/* The place of a cause's words: what follows its changes. */
static const char *place_of_words(const char *w) {
  const char *p = strstr(w, ": ");
  return p ? p + 2 : w;
}

void ana__io_cause_words(const struct io_cause *c, unsigned n, unsigned k,
                         char *out, size_t cap) {
  size_t w = 0;
  out[0] = '\0';
  for (unsigned pass = 0; pass < 2; pass++)
    for (unsigned i = 0; i < n && w < cap; i++) {
      if ((pass == 0) != (i == k) || !same_place(&c[i], &c[k])) continue;
      if (w) w += (size_t)snprintf(out + w, cap - w, ", ");
      if (w < cap) {
        int x = change_words(&c[i], out + w, cap - w);
        w += x > 0 ? (size_t)x : 0;
      }
    }
  if (w >= cap) return;
  w += (size_t)snprintf(out + w, cap - w, ": ");
  for (uint32_t i = 1; i < c[k].npath && w < cap; i++) /* [0]: the thread */
    w += (size_t)snprintf(out + w, cap - w, "%s%s", i > 1 ? " > " : "",
                          c[k].path[i]);
  if (c[k].npath <= 1 && w < cap)
    w += (size_t)snprintf(out + w, cap - w, "%s", c[k].name);
  for (uint32_t i = 0; i < c[k].nvia && w < cap; i++)
    w += (size_t)snprintf(out + w, cap - w, "%s%s", i ? " > " : " (via ",
                          c[k].via[i]);
  if (c[k].what && w < cap)
    snprintf(out + w, cap - w, "%s%s)", c[k].nvia ? ": " : " (", c[k].what);
}

void ana__io_outcome(struct ana_io *io, unsigned *causes, unsigned *undecided,
                     unsigned *pairs_needed) {
  *causes = *undecided = *pairs_needed = 0;
  if (!io || !io->n) return;
  ana__io_aggregate(io);
  for (int m = 0; m < IO_NMEASURES; m++) {
    struct ana_cmp *c = io->m[m];
    *causes += ana_graph_causes(c->agg) + c->sp.n;
    *undecided += c->agg->noisy_causes + c->sp_undecided;
    unsigned k = c->agg->pairs_needed > c->sp_needed ? c->agg->pairs_needed
                                                     : c->sp_needed;
    if (k > *pairs_needed) *pairs_needed = k;
  }
}

/* ---- rows: end to end and per step ---- */

/* A run's value of measure m (or the cached, failed counts: m past the
 * measures) in step (0: all steps), in the row's unit. */
enum { IO_ROW_CACHED = IO_NMEASURES, IO_ROW_FAILED, IO_ROW_KINDS };
static double run_value(const struct ana_io_run *r, int m, uint32_t step) {
  double t = 0;
  for (size_t i = 0; i < r->nitems; i++) {
    const struct io_item *it = &r->items[i];
    if (step && it->step != step) continue;
    if (m == IO_ROW_CACHED)
      t += !it->storage && it->flags & IO_F_CACHED ? it->n : 0;
    else if (m == IO_ROW_FAILED)
      t += !it->storage && it->flags & (IO_F_FAILED | IO_F_ERROR) ? it->n : 0;
    else
      t += item_w(it, m);
  }
  return m < IO_NMEASURES && ana__io_measures[m].unit == ANA_UNIT_BYTES
             ? t / 1024
             : t;
}

static const struct {
  const char *name, *label, *unit;
} io_rows[IO_ROW_KINDS] = {
    {"requests", "requests", "requests"},
    {"received_kb", "KB received (on the wire)", "KB"},
    {"sent_kb", "KB sent (request bodies)", "KB"},
    {"storage_writes", "storage writes", "writes"},
    {"storage_kb", "KB written to storage", "KB"},
    {"cached_requests", "requests served from a cache", "requests"},
    {"failed_requests", "requests that failed (network or HTTP error)",
     "requests"},
};

static void io_row(struct ana_e2e_row *r, const double *o, const double *w,
                   unsigned n) {
  double *d = zc_xmalloc((n ? n : 1) * sizeof *d);
  for (unsigned i = 0; i < n; i++)
    d[i] = w[i] - o[i];
  ana_stat(o, n, &r->old);
  ana_stat(w, n, &r->new_);
  ana_stat(d, n, &r->delta);
  free(d);
  r->pct = r->old.mean > 0 ? 100 * r->delta.mean / r->old.mean : NAN;
  /* counts hardly vary: no spread at all is a change as sure as it gets */
  r->significant =
      r->delta.n >= 2 && (r->delta.lo > 0 || r->delta.hi < 0 ||
                          (r->delta.lo == r->delta.hi && r->delta.mean != 0));
  r->old_v = zc_xmalloc((n ? n : 1) * sizeof *r->old_v);
  r->new_v = zc_xmalloc((n ? n : 1) * sizeof *r->new_v);
  memcpy(r->old_v, o, n * sizeof *o);
  memcpy(r->new_v, w, n * sizeof *w);
  r->nv = n;
}

const struct ana_e2e *ana__io_rows(struct ana_io *io) {
  if (io->rows && io->rows_for == io->n) return io->rows;
  ana_e2e_free(io->rows);
  struct ana_e2e *e = zc_xcalloc(1, sizeof *e);
  e->npairs = io->n;
  const struct ana_io_run *ref = NULL;
  for (unsigned p = 0; p < io->n && !ref; p++)
    if (io->old_runs[p]->nsteps) ref = io->old_runs[p];
  for (unsigned p = 0; p < io->n && !ref; p++)
    if (io->new_runs[p]->nsteps) ref = io->new_runs[p];
  uint32_t ns = ref ? ref->nsteps : 0;
  e->rows = zc_xcalloc((size_t)IO_ROW_KINDS * (ns + 1), sizeof *e->rows);
  double *o = zc_xmalloc((io->n + 1) * sizeof *o);
  double *w = zc_xmalloc((io->n + 1) * sizeof *w);
  for (uint32_t s = 0; s <= ns; s++)
    for (int m = 0; m < IO_ROW_KINDS; m++) {
      if (s && m >= IO_NMEASURES) continue; /* cached, failed: whole run */
      uint32_t step = s ? ref->steps[s - 1].step : 0;
      for (unsigned p = 0; p < io->n; p++) {
        o[p] = run_value(io->old_runs[p], m, step);
        w[p] = run_value(io->new_runs[p], m, step);
      }
      struct ana_e2e_row *r = &e->rows[e->n++];
      r->name = io_rows[m].name;
      r->label = io_rows[m].label;
      r->unit = io_rows[m].unit;
      r->step = step;
      if (s) memcpy(r->type, ref->steps[s - 1].type, sizeof r->type);
      io_row(r, o, w, io->n);
      if (!s) e->nmetrics++;
    }
  free(o);
  free(w);
  io->rows = e;
  io->rows_for = io->n;
  return e;
}

void ana_cmp_set_io(struct ana_cmp *c, struct ana_io *io) {
  c->io = io && io->n ? io : NULL;
}

/* ---- moved I/O ---- */

/* The mean per-pair change, in measure m's shown unit, of what (a
 * request's pattern, a write's kind and key) over all its call paths. */
static double what_delta(struct ana_io *io, int m, uint32_t what) {
  struct ana_cmp *c = io->m[m];
  char comp[1024];
  ana_component(IO_LEAF_URL, strlen(IO_LEAF_URL), comp, sizeof comp);
  const char *w = ana_str(io->rctx, what);
  uint32_t key = ana_key(c->ctx, ana_intern(c->ctx, comp, strlen(comp)),
                         ana_intern(c->ctx, w, strlen(w)));
  double d[ANA_SPREAD_MAX_PAIRS], s = 0;
  unsigned n = ana_bu_deltas(c->bu, key, d, ANA_SPREAD_MAX_PAIRS);
  for (unsigned k = 0; k < n; k++)
    s += d[k];
  return n ? s / n : 0;
}

/* Moved I/O (issue 36): a cause that is a function (a caller new on its
 * path, say statsB where statsA was) whose requests or writes did not
 * grow by mu over all their call paths only moved: the same requests,
 * asked from another place. Time's moved calls (ana_graph_drop_moved)
 * are told by the function's own time, which a caller of fetch() has
 * none of here: what it asks is what grew or not. It leaves the causes
 * (counted as moved). What was asked itself, as a cause, is time's rule
 * already. */
static void io_drop_moved(struct ana_io *io, int m) {
  struct ana_graph *g = io->m[m]->agg;
  struct zc_buf b;
  zc_buf_init(&b, (size_t)1 << 24);
  double mu = io->m[m]->o.mu;
  for (uint32_t i = 1; i < g->n; i++) {
    struct ana_gnode *x = &g->nodes[i];
    if (!x->cause || is_leaf(g->ctx, x->url)) continue;
    node_key(g, i, &b);
    int grew = 0;
    for (size_t k = 0; k < io->npaths && !grew; k++) {
      struct io_path *p = &io->paths[k];
      if (path_on(p, b.ptr ? b.ptr : "", b.len, 0))
        grew = what_delta(io, m, p->what) >= mu;
    }
    if (grew) continue;
    x->cause = 0;
    x->gone = 1;
    g->moved++;
  }
  zc_buf_free(&b);
}

/* ---- probes: an I/O cause followed across builds (bisect) ---- */

unsigned ana_io_probes(struct ana_io *io, struct ana_probe **out) {
  *out = NULL;
  if (!io || !io->n) return 0;
  unsigned n;
  struct io_cause *c = ana__io_causes(io, &n);
  struct ana_probe *v = zc_xcalloc(n + 1, sizeof *v);
  struct zc_buf b;
  zc_buf_init(&b, (size_t)1 << 24);
  for (unsigned k = 0; k < n; k++) {
    struct ana_probe *p = &v[k];
    const struct io_measure *d = &ana__io_measures[c[k].measure];
    char words[1024];
    ana__io_cause_words(c, n, k, words, sizeof words);
    p->kind = ANA_PROBE_IO;
    p->label = zc_xstrdup(place_of_words(words));
    p->delta = c[k].delta;
    p->line = c[k].line > 0 ? c[k].line - 1 : -1;
    p->measure = d->name;
    p->unit =
        d->unit == ANA_UNIT_COUNT ? (d->storage ? "writes" : "requests") : "KB";
    p->io_m = c[k].measure;
    p->depth = c[k].npath;
    p->name = zc_xcalloc(p->depth + 1, sizeof *p->name);
    p->component = zc_xcalloc(p->depth + 1, sizeof *p->component);
    for (uint32_t i = 0; i < p->depth; i++) {
      p->name[i] = zc_xstrdup(c[k].path[i]);
      p->component[i] = zc_xstrdup("");
    }
    if (c[k].node != ANA_NONE) {
      node_key(c[k].g, c[k].node, &b);
    } else {
      char comp[1024];
      const struct ana_ctx *ctx = io->m[c[k].measure]->ctx;
      const struct ana_spread *s = c[k].sp;
      int leaf = is_leaf(ctx, s->fn.url);
      const char *u = leaf ? IO_LEAF_URL : ana_str(ctx, s->fn.url);
      ana_component(u, strlen(u), comp, sizeof comp);
      zc_buf_reset(&b);
      if (add_level(&b, comp, ana_str(ctx, s->fn.name))) continue;
      p->io_by_last = 1;
    }
    p->io_key = zc_xstrndup(b.ptr ? b.ptr : "", b.len);
  }
  zc_buf_free(&b);
  ana__io_causes_free(c, n);
  *out = v;
  return n;
}

void ana_io_watch(struct ana_io *io, const struct ana_probe *p, unsigned n) {
  io->watch = zc_xcalloc(n + 1, sizeof *io->watch);
  for (unsigned k = 0; k < n; k++)
    if (p[k].kind == ANA_PROBE_IO && p[k].io_key) {
      io->watch[io->nwatch].key = zc_xstrdup(p[k].io_key);
      io->watch[io->nwatch].m = p[k].io_m;
      io->watch[io->nwatch++].by_last = p[k].io_by_last;
    }
}

unsigned ana_io_probe_values(struct ana_io *io, unsigned k, const double **old,
                             const double **new_) {
  *old = *new_ = NULL;
  if (k >= io->nwatch || !io->n) return 0;
  const struct io_watch *w = &io->watch[k];
  for (int s = 0; s < 2; s++) {
    free(io->wv[s]);
    io->wv[s] = zc_xcalloc(io->n, sizeof *io->wv[s]);
  }
  double per = ana__io_measures[w->m].unit == ANA_UNIT_BYTES ? 1024 : 1;
  for (size_t i = 0; i < io->npaths; i++) {
    struct io_path *p = &io->paths[i];
    if (!path_on(p, w->key, strlen(w->key), w->by_last)) continue;
    for (unsigned q = 0; q < io->n; q++)
      for (int s = 0; s < 2; s++)
        io->wv[s][q] += *pv(p, q, s, w->m) / per;
  }
  *old = io->wv[0];
  *new_ = io->wv[1];
  return io->n;
}
