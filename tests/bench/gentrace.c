/* gentrace.c: synthetic Chrome trace generator for the benchmark.
 *
 * The output imitates what Chrome's performance panel records: metadata,
 * many trace events of many kinds ("filler", most of the bytes) and a
 * streamed V8 CPU profile (one Profile event, then ProfileChunk events)
 * for the renderer main thread and for a dedicated worker.
 *
 * Everything is streamed through one fixed output buffer; only the call
 * trees, the function table and one pending chunk per profile are held
 * in memory.  A dry pass first produces the profile alone (counting the
 * bytes instead of writing them) to learn its size and duration.  The
 * real pass then spreads filler over that duration so the file ends near
 * target_bytes and timestamps stay roughly monotonic.
 *
 * Every random choice comes from private xorshift streams seeded from
 * opts.seed, so a seed always gives the same bytes.  Streams are split by
 * purpose so that "regress" and "reorder" change only what they must:
 * the shape of each top-level task's subtree does not depend on the task
 * order, and the regression's extra samples draw their intervals from a
 * stream of their own, leaving every other sample interval unchanged.
 */
#include "gentrace.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define GT_OUTCAP     ((size_t)4 << 20)  /* output buffer; one big write */
#define GT_BUNDLE_MAX ((size_t)64 << 10) /* upper bound of a filler group */
#define GT_B64        65536              /* pool for screenshot payloads */
#define GT_NODUR      UINT64_MAX
#define GT_MAXSIB     64
#define GT_CHUNK_MAX  320
#define GT_ORIGIN     "http://127.0.0.1:8080"

/* Fixed profile node ids, as V8 assigns them at the start of a profile. */
#define GT_N_ROOT    1u
#define GT_N_PROGRAM 2u
#define GT_N_IDLE    3u
#define GT_N_GC      4u

/* Function table layout: special frames, then the regression chain, then
 * the vocabularies, then one function per top-level task. */
#define GT_FN_ROOT    0u
#define GT_FN_PROGRAM 1u
#define GT_FN_IDLE    2u
#define GT_FN_GC      3u
#define GT_FN_SLOW    4u /* slowHashRegressed; never picked at random */
#define GT_FN_CHAIN   5u /* dispatchAction .. formatItem */
#define GT_FN_VOCAB   10u
#define GT_NVOCAB     2000u
#define GT_NWVOCAB    200u
#define GT_CHAIN_LEN  7u /* onClick_1 .. slowHashRegressed */

/* ---------------------------------------------------------------- rng */

struct gt_rng {
  uint64_t s;
};

static uint64_t gt_mix(uint64_t x) {
  /* splitmix64 finalizer: turns (seed, stream) into unrelated states. */
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static void gt_seed(struct gt_rng *r, unsigned seed, uint64_t stream) {
  r->s =
      gt_mix(gt_mix((uint64_t)seed) ^ gt_mix(stream * 0x632be59bd9b4e019ULL));
  if (r->s == 0) r->s = 1;
}

static uint64_t gt_next(struct gt_rng *r) {
  /* xorshift64*: fast, and plenty for synthetic data. */
  uint64_t x = r->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return x * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [0, n) without division (n < 2^32). */
static unsigned gt_below(struct gt_rng *r, unsigned n) {
  return (unsigned)(((gt_next(r) >> 32) * (uint64_t)n) >> 32);
}

static int gt_chance(struct gt_rng *r, unsigned num, unsigned den) {
  return gt_below(r, den) < num;
}

/* ----------------------------------------------------- text formatting */

/* The writers below append to a char pointer and return the new end; the
 * caller has reserved room beforehand, so they never check bounds.  This
 * and avoiding printf keep the writer well above 200 MB/s. */
#define GT_LIT(p, s) ((char *)memcpy((p), (s), sizeof(s) - 1) + (sizeof(s) - 1))

static char *gt_mem(char *p, const char *s, size_t n) {
  memcpy(p, s, n);
  return p + n;
}

static char *gt_cstr(char *p, const char *s) {
  return gt_mem(p, s, strlen(s));
}

static char *gt_u64(char *p, uint64_t v) {
  char tmp[20];
  unsigned n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  while (n)
    *p++ = tmp[--n];
  return p;
}

static char *gt_i64(char *p, int64_t v) {
  if (v < 0) {
    *p++ = '-';
    return gt_u64(p, (uint64_t)0 - (uint64_t)v);
  }
  return gt_u64(p, (uint64_t)v);
}

/* Integer part, '.', then frac zero-padded to digits places. */
static char *gt_dec(char *p, uint64_t ip, unsigned frac, unsigned digits) {
  p = gt_u64(p, ip);
  *p++ = '.';
  for (unsigned i = digits; i-- > 0;) {
    p[i] = (char)('0' + (int)(frac % 10));
    frac /= 10;
  }
  return p + digits;
}

/* Nanoseconds as microseconds, trailing fraction zeros dropped, the way
 * Chrome prints its double timestamps ("1234567890.12"). */
static char *gt_us(char *p, uint64_t ns) {
  unsigned f = (unsigned)(ns % 1000);
  p = gt_u64(p, ns / 1000);
  if (f) {
    *p++ = '.';
    p[0] = (char)('0' + (int)(f / 100));
    p[1] = (char)('0' + (int)(f / 10 % 10));
    p[2] = (char)('0' + (int)(f % 10));
    p += f % 10 ? 3 : f % 100 ? 2 : 1;
  }
  return p;
}

static char *gt_hex(char *p, uint64_t v) {
  static const char dig[] = "0123456789abcdef";
  char tmp[16];
  unsigned n = 0;
  p = GT_LIT(p, "0x");
  do {
    tmp[n++] = dig[v & 15];
    v >>= 4;
  } while (v);
  while (n)
    *p++ = tmp[--n];
  return p;
}

/* A number in one of the shapes real traces contain: integers, fixed
 * fractions, negative values and exponents of both signs. */
static char *gt_fnum(struct gt_rng *r, char *p) {
  switch (gt_below(r, 6)) {
  case 0: return gt_u64(p, gt_below(r, 100000));
  case 1: return gt_dec(p, gt_below(r, 5000), gt_below(r, 1000), 3);
  case 2: *p++ = '-'; return gt_dec(p, gt_below(r, 100), gt_below(r, 100), 2);
  case 3:
    p = gt_dec(p, 1 + gt_below(r, 9), gt_below(r, 10000), 4);
    p = GT_LIT(p, "e-");
    return gt_u64(p, 1 + gt_below(r, 15));
  case 4:
    p = gt_dec(p, 1 + gt_below(r, 9), gt_below(r, 1000), 3);
    p = GT_LIT(p, "e+");
    return gt_u64(p, 1 + gt_below(r, 20));
  default: return gt_dec(p, 0, gt_below(r, 1000000), 6);
  }
}

/* ------------------------------------------------------------- buffers */

struct gt_buf {
  char *p;
  size_t len, cap;
};

static int gt_reserve(struct gt_buf *b, size_t extra) {
  size_t ncap;
  char *np;
  if (b->cap - b->len >= extra) return 0;
  ncap = b->cap ? b->cap : 4096;
  while (ncap - b->len < extra)
    ncap *= 2;
  np = realloc(b->p, ncap);
  if (!np) {
    errno = ENOMEM;
    return -1;
  }
  b->p = np;
  b->cap = ncap;
  return 0;
}

/* The sink: a FILE, a gzFile, or neither (the dry pass only counts). */
struct gt_out {
  char *buf;
  size_t len, cap;
  FILE *fp;
  gzFile gz;
  uint64_t total; /* bytes already handed to the sink */
};

static int gt_gzfail(gzFile gz) {
  int e = 0;
  (void)gzerror(gz, &e);
  if (e == Z_MEM_ERROR)
    errno = ENOMEM;
  else if (e != Z_ERRNO || errno == 0)
    errno = EIO;
  return -1;
}

static int gt_sink(struct gt_out *o, const char *p, size_t n) {
  while (n > 0) {
    size_t k = n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n;
    if (o->fp) {
      errno = 0;
      if (fwrite(p, 1, k, o->fp) != k) {
        if (errno == 0) errno = EIO;
        return -1;
      }
    } else if (o->gz) {
      int w;
      errno = 0;
      w = gzwrite(o->gz, p, (unsigned)k);
      if (w <= 0 || (size_t)w != k) return gt_gzfail(o->gz);
    }
    o->total += k;
    p += k;
    n -= k;
  }
  return 0;
}

static int gt_flush(struct gt_out *o) {
  int rc = gt_sink(o, o->buf, o->len);
  o->len = 0;
  return rc;
}

/* Makes sure n bytes can be formatted at o->buf + o->len. */
static int gt_room(struct gt_out *o, size_t n) {
  return o->cap - o->len < n ? gt_flush(o) : 0;
}

static int gt_put(struct gt_out *o, const char *p, size_t n) {
  if (o->cap - o->len < n && gt_flush(o)) return -1;
  if (n > o->cap) return gt_sink(o, p, n);
  memcpy(o->buf + o->len, p, n);
  o->len += n;
  return 0;
}

#define GT_PUTLIT(o, s) gt_put((o), (s), sizeof(s) - 1)

static uint64_t gt_pos(const struct gt_out *o) {
  return o->total + o->len;
}

/* ---------------------------------------------------- function table */

struct gt_script {
  const char *url;
  unsigned char minified, worker;
};

static const struct gt_script gt_scripts[] = {
    {"", 0, 0}, /* native frames: (root), (program), ... */
    {GT_ORIGIN "/app.3f9a1c2e.js", 0, 0},
    {GT_ORIGIN "/vendor.8d2f1a3b.js", 1, 0},
    {GT_ORIGIN "/lib/parse.js", 0, 0},
    {GT_ORIGIN "/lib/render.js", 0, 0},
    {GT_ORIGIN "/lib/state/store.js", 0, 0},
    {GT_ORIGIN "/lib/util/hash.js", 0, 0},
    {GT_ORIGIN "/lib/dom/diff.js", 0, 0},
    {GT_ORIGIN "/lib/format/intl.js", 0, 0},
    {GT_ORIGIN "/lib/net/fetch.js", 0, 0},
    {GT_ORIGIN "/lib/router.js", 0, 0},
    {GT_ORIGIN "/lib/anim/tween.js", 0, 0},
    {GT_ORIGIN "/chunks/412.7c1e9a0b.js", 1, 0},
    {GT_ORIGIN "/chunks/977.b2d4f6a8.js", 1, 0},
    {GT_ORIGIN "/polyfills.1a2b3c4d.js", 1, 0},
    {GT_ORIGIN "/runtime.5e6f7a8b.js", 1, 0},
    {GT_ORIGIN "/index.html", 0, 0},
    {"https://cdn.example.com/react-dom.production.min.js", 1, 0},
    {"https://cdn.example.com/analytics.js", 1, 0},
    {GT_ORIGIN "/workers/worker.0d1e2f3a.js", 0, 1},
    {GT_ORIGIN "/lib/worker/decode.js", 0, 1},
};
#define GT_APP 1u

/* Script choice for main-thread functions: the app and vendor bundles
 * hold most code, as in a typical bundled site. */
static const unsigned char gt_main_scripts[] = {
    1, 1, 1, 1, 1,  2,  2,  2,  2,  3,  3,  4,  4,  5,  5, 6,
    7, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 17, 18, 3, 4};
static const unsigned char gt_worker_scripts[] = {19, 19, 19, 20, 20, 3, 6};

static const char *const gt_verbs[] = {
    "get",       "set",      "update",    "render",    "compute",  "parse",
    "format",    "handle",   "create",    "apply",     "resolve",  "dispatch",
    "reduce",    "validate", "normalize", "serialize", "load",     "fetch",
    "build",     "merge",    "map",       "filter",    "sort",     "find",
    "walk",      "visit",    "emit",      "notify",    "schedule", "flush",
    "commit",    "measure",  "layout",    "diff",      "patch",    "encode",
    "decode",    "hash",     "compare",   "clone",     "init",     "process",
    "transform", "collect",  "mount",     "unmount"};
static const char *const gt_nouns[] = {
    "Row",    "List",  "Item",   "State",  "View",     "Node",      "Tree",
    "Props",  "Style", "Layout", "Cache",  "Key",      "Value",     "Token",
    "Header", "Body",  "Buffer", "Chunk",  "Frame",    "Event",     "Listener",
    "Queue",  "Task",  "Batch",  "Effect", "Hook",     "Component", "Element",
    "Attr",   "Text",  "Path",   "Route",  "Query",    "Record",    "Field",
    "Schema", "Model", "Store",  "Action", "Selector", "Context",   "Scope",
    "Range",  "Index", "Map",    "Set",    "Entry",    "Child",     "Parent",
    "Delta"};
#define GT_NVERBS (sizeof gt_verbs / sizeof gt_verbs[0])
#define GT_NNOUNS (sizeof gt_nouns / sizeof gt_nouns[0])

/* What minifiers leave behind. */
static const char *const gt_minis[] = {"a",  "t",  "e",  "n",  "r",  "o", "i",
                                       "s",  "c",  "u",  "l",  "d",  "f", "h",
                                       "Qe", "ht", "Xn", "Jt", "ko", "vr"};
#define GT_NMINIS ((unsigned)(sizeof gt_minis / sizeof gt_minis[0]))

static const char *const gt_chain_names[GT_CHAIN_LEN - 1] = {
    "slowHashRegressed", "dispatchAction", "reduceState",
    "computeView",       "renderList",     "formatItem"};

static const char *const gt_main_prefix[] = {
    "onClick_",   "handleTimer_",     "promiseThen_", "onMessage_",
    "onScroll_",  "rafCallback_",     "onInput_",     "onLoad_",
    "xhrOnLoad_", "observerCallback_"};
static const unsigned char gt_main_prefix_script[] = {1,  1, 1,  9, 4,
                                                      11, 1, 16, 9, 7};
static const char *const gt_worker_prefix[] = {"onmessage_", "decodeBatch_",
                                               "processChunk_"};

struct gt_fn {
  unsigned name, namelen; /* offsets into the pool, which may move */
  unsigned cf, cflen;     /* preformatted '{"callFrame":{...},"id":' */
  unsigned script;
  int line, col;
};

struct gt_fns {
  struct gt_fn *v;
  unsigned n, cap;
  struct gt_buf pool;
};

static int gt_fn_add(struct gt_fns *F, const char *name, unsigned script,
                     int line, int col) {
  size_t nl = strlen(name), ul = strlen(gt_scripts[script].url);
  struct gt_fn *f;
  char *p;
  if (F->n == F->cap) {
    unsigned ncap = F->cap ? F->cap * 2 : 4096;
    struct gt_fn *nv = realloc(F->v, ncap * sizeof *nv);
    if (!nv) {
      errno = ENOMEM;
      return -1;
    }
    F->v = nv;
    F->cap = ncap;
  }
  if (gt_reserve(&F->pool, 2 * nl + ul + 200)) return -1;
  f = &F->v[F->n++];
  f->script = script;
  f->line = line;
  f->col = col;
  f->name = (unsigned)F->pool.len;
  f->namelen = (unsigned)nl;
  p = gt_mem(F->pool.p + F->pool.len, name, nl);
  f->cf = (unsigned)(p - F->pool.p);
  p = GT_LIT(p, "{\"callFrame\":{\"codeType\":\"");
  p = script ? GT_LIT(p, "JS") : GT_LIT(p, "other");
  p = GT_LIT(p, "\",\"columnNumber\":");
  p = gt_i64(p, col);
  p = GT_LIT(p, ",\"functionName\":\"");
  p = gt_mem(p, name, nl);
  p = GT_LIT(p, "\",\"lineNumber\":");
  p = gt_i64(p, line);
  p = GT_LIT(p, ",\"scriptId\":");
  p = gt_u64(p, script ? script + 11 : 0);
  p = GT_LIT(p, ",\"url\":\"");
  p = gt_mem(p, gt_scripts[script].url, ul);
  p = GT_LIT(p, "\"},\"id\":");
  f->cflen = (unsigned)(p - F->pool.p) - f->cf;
  F->pool.len = (size_t)(p - F->pool.p);
  return 0;
}

/* Adds n vocabulary functions.  Names are verb+Noun pairs taken through a
 * stride permutation (so all distinct), plus "(anonymous)" and minified
 * one- and two-letter names. */
static int gt_vocab(struct gt_fns *F, struct gt_rng *r, unsigned n,
                    const unsigned char *scripts, unsigned nscripts,
                    unsigned salt) {
  const unsigned ncombo = (unsigned)(GT_NVERBS * GT_NNOUNS);
  char name[64];
  for (unsigned i = 0; i < n; i++) {
    unsigned script = scripts[gt_below(r, nscripts)];
    unsigned u = gt_below(r, 100);
    int line = 1 + (int)gt_below(r, 4000), col = (int)gt_below(r, 80);
    if (gt_scripts[script].minified) {
      /* Minified bundles: a few long lines, huge columns. */
      line = (int)gt_below(r, 3);
      col = (int)gt_below(r, 250000);
    }
    if (gt_scripts[script].minified && u < 55) {
      strcpy(name, gt_minis[gt_below(r, GT_NMINIS)]);
    } else if (u >= 94) {
      strcpy(name, "(anonymous)");
    } else {
      unsigned k = (i * 1009u + salt) % ncombo;
      const char *v = gt_verbs[k / GT_NNOUNS], *no = gt_nouns[k % GT_NNOUNS];
      size_t vl = strlen(v);
      memcpy(name, v, vl);
      strcpy(name + vl, no);
      /* Keep the regression chain's frames unique to the chain. */
      for (unsigned j = 1; j < GT_CHAIN_LEN - 1; j++)
        if (strcmp(name, gt_chain_names[j]) == 0) strcpy(name, "(anonymous)");
    }
    if (gt_fn_add(F, name, script, line, col)) return -1;
  }
  return 0;
}

/* ------------------------------------------------------------ profiles */

struct gt_node {
  unsigned parent, fn;
  unsigned char depth, leaf;
};

struct gt_prof {
  /* description, fixed after build */
  const struct gt_fns *fns;
  struct gt_node *node; /* indexed by node id; [0] unused */
  unsigned nnode, capnode;
  unsigned ntask;
  unsigned *task_first, *task_count, *order;
  unsigned slow_id, slow_base, slow_extra;
  unsigned idle_pct, pid, tid, tid_chunk;
  const char *idstr;
  uint64_t stream;
  unsigned seed;
  int regress;
  int64_t start_us;
  /* sampler state, reset before each pass */
  /* Random streams: rw plans the repeat runs, rt drives the first run of
   * each task (seeded per task, so the runs do not depend on the task
   * order), rd the intervals, rx the regression's extra intervals, rc the
   * chunking.  cur is rt during first runs and rw afterwards. */
  struct gt_rng rw, rt, rd, rx, rc, *cur_r;
  int stage, full, ph2_set, ended, ready;
  unsigned run, pos, end, cur;
  unsigned pre_n, post_n, idle_n, node_left, extra_left, gc_left;
  uint64_t ph1, ph2, ph2_target;
  int64_t comp, t_us;
  unsigned maxdef;
  /* the pending chunk */
  unsigned cs[GT_CHUNK_MAX];
  int64_t cd[GT_CHUNK_MAX];
  struct gt_buf nodes, ev;
  uint64_t ev_ts, last_ts;
};

static unsigned gt_node_add(struct gt_prof *P, unsigned parent, unsigned fn,
                            unsigned depth) {
  unsigned id = ++P->nnode;
  struct gt_node *n = &P->node[id];
  n->parent = parent;
  n->fn = fn;
  n->depth = (unsigned char)depth;
  n->leaf = 1;
  if (parent) P->node[parent].leaf = 0;
  if (fn == GT_FN_SLOW) P->slow_id = id;
  return id;
}

struct gt_grow {
  struct gt_prof *P;
  struct gt_rng r;
  unsigned maxdepth, vocab_lo, vocab_n;
  const unsigned *chain; /* function ids, onClick_1 .. slowHashRegressed */
};

/* Skewed pick: low vocabulary indices are the utility functions that
 * show up everywhere (density ~ 1/sqrt(i)). */
static unsigned gt_pick(struct gt_grow *G) {
  uint64_t u = gt_below(&G->r, 1u << 16);
  unsigned k = (unsigned)((u * u * G->vocab_n) >> 32);
  /* Scatter the popular ones over the table; 7 is coprime to both
   * vocabulary sizes, so this is a permutation. */
  return G->vocab_lo + (k * 7 + 13) % G->vocab_n;
}

/* Children per call site: many pass-through wrappers, a broad middle
 * and a tail of very wide dispatchers. */
static unsigned gt_fanout(struct gt_rng *r) {
  unsigned u = gt_below(r, 100);
  if (u < 35) return 1;
  if (u < 70) return 2 + gt_below(r, 3);
  if (u < 92) return 5 + gt_below(r, 8);
  return 13 + gt_below(r, 36);
}

/* Budget for the next child out of left: the first child often gets the
 * lion's share (that is what makes trees deep), later ones are small. */
static unsigned gt_share(struct gt_rng *r, unsigned left, unsigned i) {
  uint64_t u;
  if (left <= 1) return left;
  if (i == 0 && gt_chance(r, 2, 3))
    return 1 + (unsigned)((uint64_t)(left - 1) * (50 + gt_below(r, 48)) / 100);
  u = gt_below(r, 1000);
  return 1 + (unsigned)((uint64_t)(left - 1) * u * u / 2000000);
}

/* Creates a node for fn under parent plus at most budget-1 descendants in
 * preorder (so ids of a subtree are contiguous and parents come first).
 * Returns the number of nodes created.  chain >= 0 marks the regression
 * chain position; rec marks a recursive call. */
static unsigned gt_grow(struct gt_grow *G, unsigned parent, unsigned fn,
                        unsigned budget, unsigned depth, int chain, int rec,
                        int top) {
  unsigned id = gt_node_add(G->P, parent, fn, depth);
  unsigned left = budget - 1, kmax, nsib = 0, sib[GT_MAXSIB];

  if (left == 0 || depth >= G->maxdepth) return 1;
  if (chain >= 0 && (unsigned)chain + 1 == GT_CHAIN_LEN)
    return 1; /* slowHashRegressed is a leaf */
  kmax = top ? UINT_MAX : gt_fanout(&G->r);
  if (chain >= 0) {
    /* The budget always covers the rest of the chain (see gt_build). */
    unsigned need = GT_CHAIN_LEN - 1 - (unsigned)chain;
    unsigned f = G->chain[chain + 1];
    sib[nsib++] = f;
    left -=
        gt_grow(G, id, f, need + (left - need) / 3, depth + 1, chain + 1, 0, 0);
    if (kmax < 3) kmax = 3;
  } else if (!top && (rec ? gt_chance(&G->r, 3, 4) : gt_chance(&G->r, 1, 30))) {
    /* Recursion: the function calls itself, usually a few levels. */
    sib[nsib++] = fn;
    left -= gt_grow(G, id, fn, gt_share(&G->r, left, 0), depth + 1, -1, 1, 0);
  }
  while (left > 0 && nsib < kmax) {
    unsigned share = nsib + 1 >= kmax ? left : gt_share(&G->r, left, nsib);
    unsigned f = gt_pick(G), seen = nsib < GT_MAXSIB ? nsib : GT_MAXSIB;
    /* V8 merges equal frames under one parent, so siblings differ. */
    for (unsigned tries = 0, j = 0; j < seen; j++) {
      if (sib[j] == f && tries++ < 16) {
        f = gt_pick(G);
        j = (unsigned)-1;
      }
    }
    if (nsib < GT_MAXSIB) sib[nsib] = f;
    nsib++;
    left -= gt_grow(G, id, f, share, depth + 1, -1, 0, 0);
  }
  return budget - left;
}

struct gt_pcfg {
  unsigned nodes, ntask, vocab_lo, vocab_n, task_fn_lo;
  int chain, reorder, regress;
  unsigned seed, idle_pct, pid, tid, tid_chunk;
  const char *idstr;
  uint64_t stream;
  int64_t start_us;
};

/* Builds the call tree: root and its special children, then each
 * top-level task's subtree in the order the tasks first run, so that
 * node ids grow in order of first appearance as V8's do. */
static int gt_build(struct gt_prof *P, const struct gt_fns *F,
                    const struct gt_pcfg *cfg) {
  unsigned T = cfg->ntask, total = cfg->nodes - 4, spare;
  unsigned chain[GT_CHAIN_LEN];
  uint64_t sumw = 0, *w;
  struct gt_rng r;
  struct gt_grow G;

  P->fns = F;
  P->ntask = T;
  P->idle_pct = cfg->idle_pct;
  P->pid = cfg->pid;
  P->tid = cfg->tid;
  P->tid_chunk = cfg->tid_chunk;
  P->idstr = cfg->idstr;
  P->stream = cfg->stream;
  P->seed = cfg->seed;
  P->regress = cfg->regress;
  P->start_us = cfg->start_us;
  /* ~2 ms of slowHashRegressed normally, ~200 ms more in the regressed
   * build; 140 us is the mean sample interval. */
  P->slow_base = 2000 / 140;
  P->slow_extra = 200000 / 140;
  P->capnode = cfg->nodes + 8;
  P->node = calloc((size_t)P->capnode + 1, sizeof *P->node);
  P->task_first = calloc(T, sizeof *P->task_first);
  P->task_count = calloc(T, sizeof *P->task_count);
  P->order = calloc(T, sizeof *P->order);
  w = calloc(T, sizeof *w);
  if (!P->node || !P->task_first || !P->task_count || !P->order || !w) {
    free(w);
    errno = ENOMEM;
    return -1;
  }
  gt_node_add(P, 0, GT_FN_ROOT, 0);
  gt_node_add(P, GT_N_ROOT, GT_FN_PROGRAM, 1);
  gt_node_add(P, GT_N_ROOT, GT_FN_IDLE, 1);
  gt_node_add(P, GT_N_ROOT, GT_FN_GC, 1);

  /* Heavy-tailed task sizes: a few big handlers, many small ones.  Each
   * task gets at least one node; the chain task gets room for the chain. */
  gt_seed(&r, cfg->seed, cfg->stream + 1);
  spare = total - T - (cfg->chain ? 40u : 0u);
  for (unsigned t = 0; t < T; t++) {
    uint64_t u = gt_below(&r, 100);
    w[t] = 1 + u * u * u / 1000;
    sumw += w[t];
  }
  {
    unsigned given = 0;
    for (unsigned t = 0; t < T; t++) {
      P->task_count[t] = 1 + (unsigned)((uint64_t)spare * w[t] / sumw);
      given += P->task_count[t] - 1;
    }
    for (unsigned t = 0; given < spare; t = (t + 1) % T, given++)
      P->task_count[t]++;
  }
  free(w);
  if (cfg->chain) P->task_count[0] += 40;

  for (unsigned t = 0; t < T; t++)
    P->order[t] = t;
  if (cfg->reorder) {
    gt_seed(&r, cfg->seed, cfg->stream + 2);
    for (unsigned t = T - 1; t > 0; t--) {
      unsigned j = gt_below(&r, t + 1), x = P->order[t];
      P->order[t] = P->order[j];
      P->order[j] = x;
    }
  }

  chain[0] = cfg->task_fn_lo;
  for (unsigned i = 1; i < GT_CHAIN_LEN - 1; i++)
    chain[i] = GT_FN_CHAIN + i - 1;
  chain[GT_CHAIN_LEN - 1] = GT_FN_SLOW;
  G.P = P;
  G.chain = chain;
  G.vocab_lo = cfg->vocab_lo;
  G.vocab_n = cfg->vocab_n;
  for (unsigned i = 0; i < T; i++) {
    unsigned t = P->order[i], budget = P->task_count[t];
    int ch = cfg->chain && t == 0 ? 0 : -1;
    /* A stream per task: its shape does not depend on the task order. */
    gt_seed(&G.r, cfg->seed, cfg->stream + 1000 + t);
    G.maxdepth = 8 + gt_below(&G.r, 33);
    if (ch == 0 && G.maxdepth < 12) G.maxdepth = 12;
    P->task_first[t] = P->nnode + 1;
    P->task_count[t] =
        gt_grow(&G, GT_N_ROOT, cfg->task_fn_lo + t, budget, 1, ch, 0, 1);
  }
  return 0;
}

enum { GT_ST_PRE, GT_ST_WALK, GT_ST_POST, GT_ST_IDLE, GT_ST_PLAN };

static void gt_prof_reset(struct gt_prof *P) {
  gt_seed(&P->rw, P->seed, P->stream + 11);
  gt_seed(&P->rd, P->seed, P->stream + 12);
  gt_seed(&P->rx, P->seed, P->stream + 13);
  gt_seed(&P->rc, P->seed, P->stream + 14);
  P->stage = GT_ST_IDLE;
  P->cur_r = &P->rw;
  P->idle_n = 10 + gt_below(&P->rw, 30);
  P->pre_n = P->post_n = P->node_left = P->extra_left = P->gc_left = 0;
  P->full = P->ph2_set = P->ended = P->ready = 0;
  P->run = P->pos = P->end = P->cur = 0;
  P->ph1 = P->ph2 = P->ph2_target = 0;
  P->comp = 0;
  P->t_us = P->start_us;
  P->maxdef = 0;
  P->ev_ts = P->last_ts = 0;
}

/* Next run of JavaScript: first every task once, walking its whole
 * subtree (that defines every node), then repeat runs of random parts
 * of random tasks, like handlers firing again.  Returns 0 at the end. */
static int gt_plan(struct gt_prof *P) {
  unsigned t, a, b, est;
  if (P->run < P->ntask) {
    t = P->order[P->run++];
    a = 0;
    b = P->task_count[t];
    P->full = 1;
    gt_seed(&P->rt, P->seed, P->stream + 500000 + t);
    P->cur_r = &P->rt;
  } else {
    unsigned span;
    if (!P->ph2_set) {
      P->ph2_target = P->ph1 * 6 / 10;
      P->ph2_set = 1;
    }
    if (P->ph2 >= P->ph2_target) return 0;
    t = gt_below(&P->rw, P->ntask);
    a = gt_below(&P->rw, P->task_count[t]);
    span = P->task_count[t] - a;
    if (span > 400) span = 400;
    b = a + 1 + gt_below(&P->rw, span);
    P->full = 0;
    P->cur_r = &P->rw;
  }
  P->pos = P->task_first[t] + a;
  P->end = P->task_first[t] + b;
  est = (b - a) * 3 / 2 + 2;
  P->pre_n = 1 + gt_below(P->cur_r, 3);
  P->post_n = gt_below(P->cur_r, 3);
  P->idle_n = (unsigned)((uint64_t)est * P->idle_pct *
                         (20 + gt_below(P->cur_r, 161)) / 10000) +
              gt_below(P->cur_r, 4);
  P->stage = GT_ST_PRE;
  P->node_left = P->extra_left = P->gc_left = 0;
  return 1;
}

/* Samples for one visit of a node: self time mostly sits in leaves. */
static unsigned gt_hits(struct gt_prof *P, unsigned id) {
  unsigned n = 1;
  if (id == P->slow_id) {
    /* Fixed amounts so the regression is exactly what was asked for;
     * repeat runs skip it. */
    P->extra_left = P->full && P->regress ? P->slow_extra : 0;
    return P->full ? P->slow_base : 0;
  }
  if (P->node[id].leaf) {
    while (n < 8 && gt_chance(P->cur_r, 1, 2))
      n++;
    return n;
  }
  return gt_chance(P->cur_r, 1, 6) ? 2 : 1;
}

/* Sampling interval in us: ~110-170 with occasional scheduler hiccups. */
static int64_t gt_interval(struct gt_rng *r) {
  int64_t d = 110 + (int64_t)gt_below(r, 60);
  if (gt_chance(r, 1, 64)) d += (int64_t)gt_below(r, 300);
  return d;
}

/* Produces the next sample; returns 0 when the profile is over. */
static int gt_sample(struct gt_prof *P, unsigned *id, int64_t *delta) {
  int extra = 0;
  int64_t d;
  for (;;) {
    if (P->stage == GT_ST_PRE) {
      if (P->pre_n > 0) {
        P->pre_n--;
        *id = GT_N_PROGRAM;
        break;
      }
      P->stage = GT_ST_WALK;
    } else if (P->stage == GT_ST_WALK) {
      if (P->gc_left > 0) {
        P->gc_left--;
        *id = GT_N_GC;
        break;
      }
      if (P->node_left > 0) {
        P->node_left--;
        *id = P->cur;
        /* Scavenges interrupt JS now and then, rarely a long mark. */
        if (gt_chance(P->cur_r, 1, 90))
          P->gc_left = 1 + gt_below(P->cur_r, 6);
        else if (gt_chance(P->cur_r, 1, 4000))
          P->gc_left = 20 + gt_below(P->cur_r, 60);
        break;
      }
      if (P->extra_left > 0) {
        P->extra_left--;
        *id = P->cur;
        extra = 1;
        break;
      }
      if (P->pos >= P->end) {
        P->stage = GT_ST_POST;
        continue;
      }
      P->cur = P->pos++;
      P->node_left = gt_hits(P, P->cur);
    } else if (P->stage == GT_ST_POST) {
      if (P->post_n > 0) {
        P->post_n--;
        *id = GT_N_PROGRAM;
        break;
      }
      P->stage = GT_ST_IDLE;
    } else if (P->stage == GT_ST_IDLE) {
      if (P->idle_n > 0) {
        P->idle_n--;
        *id = gt_chance(P->cur_r, 1, 8) ? GT_N_PROGRAM : GT_N_IDLE;
        break;
      }
      P->stage = GT_ST_PLAN;
    } else if (!gt_plan(P)) {
      return 0;
    }
  }
  if (extra) {
    d = 110 + (int64_t)gt_below(&P->rx, 60);
  } else {
    if (P->ph2_set)
      P->ph2++;
    else
      P->ph1++;
    d = gt_interval(&P->rd) + P->comp;
    P->comp = 0;
    /* V8 occasionally records a sample slightly out of order. */
    if (gt_chance(&P->rd, 1, 5000)) {
      int64_t back = 1 + (int64_t)gt_below(&P->rd, 20);
      P->comp = d + back;
      d = -back;
    }
  }
  P->t_us += d;
  *delta = d;
  return 1;
}

static int gt_define(struct gt_prof *P, unsigned id) {
  const struct gt_node *n = &P->node[id];
  const struct gt_fn *f = &P->fns->v[n->fn];
  char *p;
  if (gt_reserve(&P->nodes, f->cflen + 48)) return -1;
  p = P->nodes.p + P->nodes.len;
  if (P->nodes.len) *p++ = ',';
  p = gt_mem(p, P->fns->pool.p + f->cf, f->cflen);
  p = gt_u64(p, id);
  if (n->parent) {
    p = GT_LIT(p, ",\"parent\":");
    p = gt_u64(p, n->parent);
  }
  *p++ = '}';
  P->nodes.len = (size_t)(p - P->nodes.p);
  return 0;
}

/* Formats the next ProfileChunk event into P->ev.  Chunks carry the
 * nodes first used by their samples; V8 leaves "nodes" out when there
 * are none and ends the profile with a chunk holding only endTime. */
static int gt_chunk_next(struct gt_prof *P) {
  unsigned want, n = 0, id;
  int64_t d;
  uint64_t ts;
  char *p;

  P->ready = 0;
  if (P->ended) return 0;
  want = 40 + gt_below(&P->rc, 260);
  P->nodes.len = 0;
  if (P->maxdef == 0) {
    for (id = GT_N_ROOT; id <= GT_N_GC; id++)
      if (gt_define(P, id)) return -1;
    P->maxdef = GT_N_GC;
  }
  while (n < want && gt_sample(P, &id, &d)) {
    for (; P->maxdef < id; P->maxdef++)
      if (gt_define(P, P->maxdef + 1)) return -1;
    P->cs[n] = id;
    P->cd[n] = d;
    n++;
  }
  P->ev.len = 0;
  if (gt_reserve(&P->ev, P->nodes.len + (size_t)n * 48 + 512)) return -1;
  p = P->ev.p;
  p = GT_LIT(p, "{\"args\":{\"data\":{");
  if (n == 0 && P->nodes.len == 0) {
    p = GT_LIT(p, "\"endTime\":");
    p = gt_i64(p, P->t_us);
    P->ended = 1;
  } else {
    p = GT_LIT(p, "\"cpuProfile\":{");
    if (P->nodes.len) {
      p = GT_LIT(p, "\"nodes\":[");
      p = gt_mem(p, P->nodes.p, P->nodes.len);
      *p++ = ']';
      if (n) *p++ = ',';
    }
    if (n) {
      p = GT_LIT(p, "\"samples\":[");
      for (unsigned i = 0; i < n; i++) {
        p = gt_u64(p, P->cs[i]);
        *p++ = ',';
      }
      p[-1] = ']';
    }
    *p++ = '}';
    if (n) {
      p = GT_LIT(p, ",\"timeDeltas\":[");
      for (unsigned i = 0; i < n; i++) {
        p = gt_i64(p, P->cd[i]);
        *p++ = ',';
      }
      p[-1] = ']';
    }
  }
  /* The chunk is emitted a little after its last sample was taken. */
  ts = (uint64_t)P->t_us * 1000 + 1000 + gt_below(&P->rc, 800000);
  if (ts < P->last_ts) ts = P->last_ts;
  P->ev_ts = P->last_ts = ts;
  p = GT_LIT(p, "}},\"cat\":\"disabled-by-default-v8.cpu_profiler\","
                "\"id\":\"");
  p = gt_cstr(p, P->idstr);
  p = GT_LIT(p, "\",\"name\":\"ProfileChunk\",\"ph\":\"P\",\"pid\":");
  p = gt_u64(p, P->pid);
  p = GT_LIT(p, ",\"tid\":");
  p = gt_u64(p, P->tid_chunk);
  p = GT_LIT(p, ",\"ts\":");
  p = gt_us(p, ts);
  *p++ = '}';
  P->ev.len = (size_t)(p - P->ev.p);
  P->ready = 1;
  return 0;
}

static void gt_prof_free(struct gt_prof *P) {
  free(P->node);
  free(P->task_first);
  free(P->task_count);
  free(P->order);
  free(P->nodes.p);
  free(P->ev.p);
}

/* -------------------------------------------------------------- filler */

enum {
  GT_T_MAIN,
  GT_T_COMP,
  GT_T_WORKER,
  GT_T_RASTER,
  GT_T_RIO,
  GT_T_BMAIN,
  GT_T_BIO,
  GT_T_GPU,
  GT_T_VIZ,
  GT_NTHR
};
static const unsigned gt_thr_pid[GT_NTHR] = {1234, 1234, 1234, 1234, 1234,
                                             1000, 1000, 5678, 5678};
static const unsigned gt_thr_tid[GT_NTHR] = {1,    5,    7,    11,  3,
                                             1000, 1010, 5679, 5690};
static const char *const gt_thr_name[GT_NTHR] = {
    "CrRendererMain",         "Compositor",
    "DedicatedWorker thread", "CompositorTileWorker1",
    "Chrome_ChildIOThread",   "CrBrowserMain",
    "Chrome_IOThread",        "CrGpuMain",
    "VizCompositorThread"};

static const char *const gt_frames[] = {"9C4A7E21B3F05D6A8E1F2C3B4A5D6E7F",
                                        "E2D4F6A8B0C1D3E5F7A9B1C3D5E7F9A1"};

/* Strings as they appear inside JSON (already escaped), to exercise the
 * reader's escape handling: quotes, backslashes, \u escapes including a
 * surrogate pair, control characters and raw UTF-8. */
static const char *const gt_msgs[] = {
    "Loaded \\\"config\\\" from C:\\\\app\\\\cfg.json",
    "caf\\u00e9 na\\u00efve r\\u00e9sum\\u00e9\\n2nd line\\ttab",
    /* Raw UTF-8: German, an en dash, Japanese.  \x65 is a plain 'e'
     * (written as an escape because a hex escape would swallow it). */
    "Gr\xc3\xbc\xc3\x9f\x65 \xe2\x80\x93 \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
    "{\\\"type\\\":\\\"click\\\",\\\"x\\\":12,\\\"y\\\":34.5}",
    "GET \\/api\\/v1\\/items?id=42&sort=desc \\u2192 200",
    "\\ud83d\\ude00 smile, then a backslash \\\\",
    "ctl \\u0001\\u001f \\b\\f\\r end",
    "render took 12.5ms (budget 16.7ms) \\u2014 ok"};
#define GT_NMSGS ((unsigned)(sizeof gt_msgs / sizeof gt_msgs[0]))

struct gt_ctx {
  struct gt_out out;
  struct gt_fns fns;
  struct gt_prof pm, pw; /* main thread and worker profiles */
  struct gt_rng r;       /* filler */
  unsigned seed;
  unsigned main_lo, main_n, worker_lo, worker_n; /* JS functions to cite */
  uint64_t t0;                                   /* ns; profile start */
  uint64_t now;  /* ns; pacing clock for the current filler group */
  uint64_t slot; /* ns; mean time per filler group */
  uint64_t busy[GT_NTHR];
  uint64_t seq;
  int first;
  char b64[GT_B64];
};

struct gt_ev {
  const char *cat, *name, *ph;
  const char *extra; /* raw fields, each starting with ',' */
  uint64_t ts, dur;  /* ns; dur GT_NODUR when absent */
  unsigned thr;
  char s;  /* instant scope, 0 when absent */
  int tts; /* also write thread timestamps */
};

static char *gt_open(struct gt_ctx *c, char *p) {
  if (c->first) {
    c->first = 0;
    return GT_LIT(p, "\n{");
  }
  return GT_LIT(p, ",\n{");
}

static uint64_t gt_tts(const struct gt_ctx *c, const struct gt_ev *e) {
  /* Thread time runs slower than wall time and per-thread offset. */
  return (e->ts - c->t0) / 10 * 7 + (uint64_t)(e->thr + 1) * 987654321;
}

/* Everything after "args" in alphabetical key order (DevTools' saved
 * traces look like that). */
static char *gt_tail(struct gt_ctx *c, char *p, const struct gt_ev *e) {
  p = GT_LIT(p, ",\"cat\":\"");
  p = gt_cstr(p, e->cat);
  *p++ = '"';
  if (e->dur != GT_NODUR) {
    p = GT_LIT(p, ",\"dur\":");
    p = gt_us(p, e->dur);
  }
  if (e->extra) p = gt_cstr(p, e->extra);
  p = GT_LIT(p, ",\"name\":\"");
  p = gt_cstr(p, e->name);
  p = GT_LIT(p, "\",\"ph\":\"");
  p = gt_cstr(p, e->ph);
  p = GT_LIT(p, "\",\"pid\":");
  p = gt_u64(p, gt_thr_pid[e->thr]);
  if (e->s) {
    p = GT_LIT(p, ",\"s\":\"");
    *p++ = e->s;
    *p++ = '"';
  }
  if (e->tts && e->dur != GT_NODUR) {
    p = GT_LIT(p, ",\"tdur\":");
    p = gt_us(p, e->dur / 10 * 7);
  }
  p = GT_LIT(p, ",\"tid\":");
  p = gt_u64(p, gt_thr_tid[e->thr]);
  p = GT_LIT(p, ",\"ts\":");
  p = gt_us(p, e->ts);
  if (e->tts) {
    p = GT_LIT(p, ",\"tts\":");
    p = gt_us(p, gt_tts(c, e));
  }
  *p++ = '}';
  return p;
}

/* Chrome's own key order (pid, tid, ts, ph, ..., args last), used for
 * the browser and GPU processes so both layouts appear. */
static char *gt_nhead(struct gt_ctx *c, char *p, const struct gt_ev *e) {
  p = GT_LIT(p, "\"pid\":");
  p = gt_u64(p, gt_thr_pid[e->thr]);
  p = GT_LIT(p, ",\"tid\":");
  p = gt_u64(p, gt_thr_tid[e->thr]);
  p = GT_LIT(p, ",\"ts\":");
  p = gt_us(p, e->ts);
  p = GT_LIT(p, ",\"ph\":\"");
  p = gt_cstr(p, e->ph);
  p = GT_LIT(p, "\",\"cat\":\"");
  p = gt_cstr(p, e->cat);
  p = GT_LIT(p, "\",\"name\":\"");
  p = gt_cstr(p, e->name);
  *p++ = '"';
  if (e->dur != GT_NODUR) {
    p = GT_LIT(p, ",\"dur\":");
    p = gt_us(p, e->dur);
    if (e->tts) {
      p = GT_LIT(p, ",\"tdur\":");
      p = gt_us(p, e->dur / 10 * 7);
    }
  }
  if (e->tts) {
    p = GT_LIT(p, ",\"tts\":");
    p = gt_us(p, gt_tts(c, e));
  }
  if (e->s) {
    p = GT_LIT(p, ",\"s\":\"");
    *p++ = e->s;
    *p++ = '"';
  }
  if (e->extra) p = gt_cstr(p, e->extra);
  return GT_LIT(p, ",\"args\":");
}

static struct gt_ev gt_x(const char *cat, const char *name, unsigned thr,
                         uint64_t ts, uint64_t dur) {
  struct gt_ev e;
  e.cat = cat;
  e.name = name;
  e.ph = dur == GT_NODUR ? "I" : "X";
  e.extra = NULL;
  e.ts = ts;
  e.dur = dur;
  e.thr = thr;
  e.s = dur == GT_NODUR ? 't' : 0;
  e.tts = 0;
  return e;
}

/* Start and length of a slice on thr.  Slices on one thread never
 * overlap (they nest only inside a group), and their lengths follow the
 * pacing so a thread keeps up with the clock. */
static void gt_span(struct gt_ctx *c, unsigned thr, unsigned lo, unsigned hi,
                    uint64_t *s, uint64_t *d) {
  uint64_t st = c->now > c->busy[thr] ? c->now : c->busy[thr];
  st += 1000 + gt_below(&c->r, 30000);
  *d = c->slot * (lo + gt_below(&c->r, hi - lo + 1)) / 100 + 20000 +
       gt_below(&c->r, 1000);
  *s = st;
  c->busy[thr] = st + *d;
}

static unsigned gt_js(struct gt_ctx *c, int worker) {
  return worker ? c->worker_lo + gt_below(&c->r, c->worker_n)
                : c->main_lo + gt_below(&c->r, c->main_n);
}

static char *gt_frame(struct gt_ctx *c, char *p) {
  return gt_cstr(p, gt_frames[gt_chance(&c->r, 1, 8)]);
}

static const struct gt_fn *gt_fnp(const struct gt_ctx *c, unsigned fn) {
  return &c->fns.v[fn];
}

static char *gt_url(const struct gt_ctx *c, char *p, unsigned fn) {
  return gt_cstr(p, gt_scripts[gt_fnp(c, fn)->script].url);
}

/* The fields of a FunctionCall's data, for function fn. */
static char *gt_calldata(struct gt_ctx *c, char *p, unsigned fn) {
  const struct gt_fn *f = gt_fnp(c, fn);
  p = GT_LIT(p, "\"columnNumber\":");
  p = gt_i64(p, f->col);
  p = GT_LIT(p, ",\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\",\"functionName\":\"");
  p = gt_mem(p, c->fns.pool.p + f->name, f->namelen);
  p = GT_LIT(p, "\",\"lineNumber\":");
  p = gt_i64(p, f->line);
  p = GT_LIT(p, ",\"scriptId\":\"");
  p = gt_u64(p, f->script + 11);
  p = GT_LIT(p, "\",\"url\":\"");
  p = gt_url(c, p, fn);
  *p++ = '"';
  return p;
}

static char *gt_stack(struct gt_ctx *c, char *p, unsigned n) {
  *p++ = '[';
  for (unsigned i = 0; i < n; i++) {
    unsigned fn = gt_js(c, 0);
    const struct gt_fn *f = gt_fnp(c, fn);
    if (i) *p++ = ',';
    p = GT_LIT(p, "{\"columnNumber\":");
    p = gt_i64(p, f->col);
    p = GT_LIT(p, ",\"functionName\":\"");
    p = gt_mem(p, c->fns.pool.p + f->name, f->namelen);
    p = GT_LIT(p, "\",\"lineNumber\":");
    p = gt_i64(p, f->line);
    p = GT_LIT(p, ",\"scriptId\":\"");
    p = gt_u64(p, f->script + 11);
    p = GT_LIT(p, "\",\"url\":\"");
    p = gt_url(c, p, fn);
    p = GT_LIT(p, "\"}");
  }
  *p++ = ']';
  return p;
}

/* A task running script on the main thread (or the worker). */
static char *gt_b_script(struct gt_ctx *c, char *p, int worker) {
  unsigned thr = worker ? GT_T_WORKER : GT_T_MAIN, fn = gt_js(c, worker);
  uint64_t s, d, s1, d1;
  struct gt_ev e;
  gt_span(c, thr, 15, 110, &s, &d);
  e = gt_x("disabled-by-default-devtools.timeline", "RunTask", thr, s, d);
  e.tts = 1;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{}");
  p = gt_tail(c, p, &e);

  s1 = s + d / 20;
  d1 = d / 20 * 17;
  e = gt_x("devtools.timeline", "FunctionCall", thr, s1, d1);
  e.tts = 1;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{");
  p = gt_calldata(c, p, fn);
  p = GT_LIT(p, "}}");
  p = gt_tail(c, p, &e);

  if (gt_chance(&c->r, 1, 3)) {
    unsigned g = gt_js(c, worker);
    e = gt_x("v8,devtools.timeline", "v8.compile", thr, s1 + d1 / 50, d1 / 20);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"columnNumber\":");
    p = gt_i64(p, gt_fnp(c, g)->col);
    p = GT_LIT(p, ",\"lineNumber\":");
    p = gt_i64(p, gt_fnp(c, g)->line);
    p = GT_LIT(p, ",\"url\":\"");
    p = gt_url(c, p, g);
    p = GT_LIT(p, "\"}}");
    p = gt_tail(c, p, &e);
  }
  if (gt_chance(&c->r, 1, 4)) {
    uint64_t before = 8000000 + gt_below(&c->r, 40000000);
    uint64_t gs = s1 + d1 / 2, gd = d1 / 8;
    e = gt_x("devtools.timeline,disabled-by-default-v8.gc", "MinorGC", thr, gs,
             gd);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"usedHeapSizeAfter\":");
    p = gt_u64(p, before - gt_below(&c->r, 4000000));
    p = GT_LIT(p, ",\"usedHeapSizeBefore\":");
    p = gt_u64(p, before);
    *p++ = '}';
    p = gt_tail(c, p, &e);
    e = gt_x("devtools.timeline,disabled-by-default-v8.gc", "V8.GCScavenger",
             thr, gs + 500, gd > 1000 ? gd - 1000 : 0);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"priority\":\"user-blocking\",\"type\":"
                  "\"scavenge\"}");
    p = gt_tail(c, p, &e);
  }
  if (gt_chance(&c->r, 1, 5)) {
    e = gt_x("devtools.timeline", "TimerInstall", thr, s1 + d1 / 4 * 3,
             GT_NODUR);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"frame\":\"");
    p = gt_frame(c, p);
    p = GT_LIT(p, "\",\"singleShot\":true,\"stackTrace\":");
    p = gt_stack(c, p, 1 + gt_below(&c->r, 4));
    p = GT_LIT(p, ",\"timeout\":");
    p = gt_u64(p, gt_below(&c->r, 1000));
    p = GT_LIT(p, ",\"timerId\":");
    p = gt_u64(p, ++c->seq);
    p = GT_LIT(p, "}}");
    p = gt_tail(c, p, &e);
  }
  return p;
}

/* A rendering task: style, layout, paint. */
static char *gt_b_render(struct gt_ctx *c, char *p) {
  uint64_t s, d;
  struct gt_ev e;
  gt_span(c, GT_T_MAIN, 20, 100, &s, &d);
  e = gt_x("disabled-by-default-devtools.timeline", "RunTask", GT_T_MAIN, s, d);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{}");
  p = gt_tail(c, p, &e);

  e = gt_x("blink,devtools.timeline", "UpdateLayoutTree", GT_T_MAIN, s + d / 20,
           d / 5);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"beginData\":{\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\",\"stackTrace\":");
  p = gt_stack(c, p, 1 + gt_below(&c->r, 3));
  p = GT_LIT(p, "},\"elementCount\":");
  p = gt_u64(p, gt_below(&c->r, 3000));
  *p++ = '}';
  p = gt_tail(c, p, &e);

  e = gt_x("devtools.timeline", "Layout", GT_T_MAIN, s + d / 10 * 3,
           d / 10 * 3);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"beginData\":{\"dirtyObjects\":");
  p = gt_u64(p, gt_below(&c->r, 500));
  p = GT_LIT(p, ",\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\",\"partialLayout\":false,\"totalObjects\":");
  p = gt_u64(p, 500 + gt_below(&c->r, 5000));
  p = GT_LIT(p, "},\"endData\":{\"layoutRoots\":[{\"depth\":1,\"nodeId\":");
  p = gt_u64(p, 1 + gt_below(&c->r, 4000));
  p = GT_LIT(p, ",\"quads\":[[");
  for (unsigned i = 0; i < 8; i++) {
    if (i) *p++ = ',';
    p = gt_fnum(&c->r, p);
  }
  p = GT_LIT(p, "]]}]}}");
  p = gt_tail(c, p, &e);

  /* Siblings get small gaps so float readers never see them overlap. */
  e = gt_x("devtools.timeline", "PrePaint", GT_T_MAIN, s + d / 20 * 13, d / 25);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\"}}");
  p = gt_tail(c, p, &e);

  e = gt_x("devtools.timeline,rail", "Paint", GT_T_MAIN, s + d / 20 * 14,
           d / 12);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{\"clip\":[");
  for (unsigned i = 0; i < 8; i++) {
    if (i) *p++ = ',';
    p = gt_u64(p, gt_below(&c->r, 1920));
  }
  p = GT_LIT(p, "],\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\",\"layerId\":");
  p = gt_u64(p, 1 + gt_below(&c->r, 60));
  p = GT_LIT(p, ",\"nodeId\":");
  p = gt_u64(p, gt_below(&c->r, 4000));
  p = GT_LIT(p, "}}");
  p = gt_tail(c, p, &e);

  e = gt_x("devtools.timeline", "Layerize", GT_T_MAIN, s + d / 20 * 17, d / 50);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\"}}");
  p = gt_tail(c, p, &e);

  e = gt_x("devtools.timeline", "Commit", GT_T_MAIN, s + d / 20 * 18, d / 25);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\"}}");
  return gt_tail(c, p, &e);
}

/* Evaluating a script: compile, then run. */
static char *gt_b_eval(struct gt_ctx *c, char *p) {
  static const char *const why[] = {"script too small", "already cached",
                                    "inline script", "has code cache"};
  unsigned fn = gt_js(c, 0);
  uint64_t s, d;
  struct gt_ev e;
  gt_span(c, GT_T_MAIN, 30, 120, &s, &d);
  e = gt_x("disabled-by-default-devtools.timeline", "RunTask", GT_T_MAIN, s, d);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{}");
  p = gt_tail(c, p, &e);

  e = gt_x("devtools.timeline", "EvaluateScript", GT_T_MAIN, s + d / 30,
           d / 10 * 9);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{\"columnNumber\":0,\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\",\"lineNumber\":0,\"url\":\"");
  p = gt_url(c, p, fn);
  p = GT_LIT(p, "\"}}");
  p = gt_tail(c, p, &e);

  e = gt_x("v8,devtools.timeline", "v8.compile", GT_T_MAIN, s + d / 20, d / 6);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{\"columnNumber\":0,"
                "\"consumedCacheSize\":");
  p = gt_u64(p, gt_below(&c->r, 900000));
  p = GT_LIT(p, ",\"lineNumber\":0,\"notStreamedReason\":\"");
  p = gt_cstr(p, why[gt_below(&c->r, 4)]);
  p = GT_LIT(p, "\",\"streamed\":false,\"url\":\"");
  p = gt_url(c, p, fn);
  p = GT_LIT(p, "\"}}");
  p = gt_tail(c, p, &e);

  e = gt_x("v8", "v8.run", GT_T_MAIN, s + d / 4, d / 3 * 2);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"fileName\":\"");
  p = gt_url(c, p, fn);
  p = GT_LIT(p, "\"}");
  return gt_tail(c, p, &e);
}

/* Begin/end pairs: HTML parsing on the main thread, or an IO task. */
static char *gt_b_be(struct gt_ctx *c, char *p) {
  uint64_t s, d;
  struct gt_ev e;
  if (gt_chance(&c->r, 1, 2)) {
    unsigned line = gt_below(&c->r, 2000);
    gt_span(c, GT_T_MAIN, 10, 60, &s, &d);
    e = gt_x("devtools.timeline", "ParseHTML", GT_T_MAIN, s, GT_NODUR);
    e.ph = "B";
    e.s = 0;
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"beginData\":{\"frame\":\"");
    p = gt_frame(c, p);
    p = GT_LIT(p, "\",\"startLine\":");
    p = gt_u64(p, line);
    p = GT_LIT(p, ",\"url\":\"" GT_ORIGIN "/index.html\"}}");
    p = gt_tail(c, p, &e);
    e = gt_x("blink,devtools.timeline", "ParseAuthorStyleSheet", GT_T_MAIN,
             s + d / 3, d / 4);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"styleSheetUrl\":\"" GT_ORIGIN
                  "/styles.8a7b6c5d.css\"}}");
    p = gt_tail(c, p, &e);
    e = gt_x("devtools.timeline", "ParseHTML", GT_T_MAIN, s + d, GT_NODUR);
    e.ph = "E";
    e.s = 0;
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"endData\":{\"endLine\":");
    p = gt_u64(p, line + gt_below(&c->r, 300));
    p = GT_LIT(p, "}}");
    return gt_tail(c, p, &e);
  }
  gt_span(c, GT_T_RIO, 5, 40, &s, &d);
  e = gt_x("toplevel", "ThreadControllerImpl::RunTask", GT_T_RIO, s, GT_NODUR);
  e.ph = "B";
  e.s = 0;
  e.tts = 1;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"src_file\":\"../../ipc/ipc_mojo_bootstrap.cc\","
                "\"src_func\":\"Accept\"}");
  p = gt_tail(c, p, &e);
  e.ph = "E";
  e.ts = s + d;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{}");
  return gt_tail(c, p, &e);
}

/* Instant events with structured payloads. */
static char *gt_b_instant(struct gt_ctx *c, char *p) {
  uint64_t ts = c->now + gt_below(&c->r, 50000);
  struct gt_ev e;
  switch (gt_below(&c->r, 4)) {
  case 0:
    e = gt_x("devtools.timeline", "ScheduleStyleRecalculation", GT_T_MAIN, ts,
             GT_NODUR);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"frame\":\"");
    p = gt_frame(c, p);
    p = GT_LIT(p, "\"}}");
    return gt_tail(c, p, &e);
  case 1:
    e = gt_x("disabled-by-default-devtools.timeline.invalidationTracking",
             "InvalidateLayout", GT_T_MAIN, ts, GT_NODUR);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"frame\":\"");
    p = gt_frame(c, p);
    p = GT_LIT(p, "\",\"nodeId\":");
    p = gt_u64(p, gt_below(&c->r, 5000));
    p = GT_LIT(p, ",\"stackTrace\":");
    p = gt_stack(c, p, 1 + gt_below(&c->r, 5));
    p = GT_LIT(p, "}}");
    return gt_tail(c, p, &e);
  case 2:
    e = gt_x("devtools.timeline", "ResourceSendRequest", GT_T_MAIN, ts,
             GT_NODUR);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"frame\":\"");
    p = gt_frame(c, p);
    p = GT_LIT(p, "\",\"priority\":\"High\",\"renderBlocking\":"
                  "\"non_blocking\",\"requestId\":\"1234.");
    p = gt_u64(p, ++c->seq);
    p = GT_LIT(p, "\",\"requestMethod\":\"GET\",\"resourceType\":\"Fetch\","
                  "\"url\":\"" GT_ORIGIN "/api/items?page=");
    p = gt_u64(p, gt_below(&c->r, 100));
    p = GT_LIT(p, "&q=caf%C3%A9\"}}");
    return gt_tail(c, p, &e);
  default:
    /* Process-scoped instant in the browser, Chrome's key order. */
    e = gt_x("disabled-by-default-devtools.timeline", "InputLatency::MouseMove",
             GT_T_BMAIN, ts, GT_NODUR);
    e.s = (char)(gt_chance(&c->r, 1, 4) ? 'g' : 'p');
    p = gt_open(c, p);
    p = gt_nhead(c, p, &e);
    p = GT_LIT(p, "{\"data\":{\"x\":");
    p = gt_fnum(&c->r, p);
    p = GT_LIT(p, ",\"y\":");
    p = gt_fnum(&c->r, p);
    p = GT_LIT(p, "}}}");
    return p;
  }
}

static char *gt_id2(char *p, uint64_t id) {
  p = GT_LIT(p, ",\"id2\":{\"local\":\"");
  p = gt_hex(p, id);
  return GT_LIT(p, "\"}");
}

/* Async frame pipeline slices on the compositor, plus a draw slice. */
static char *gt_b_async(struct gt_ctx *c, char *p) {
  static const char *const states[] = {
      "STATE_PRESENTED_ALL", "STATE_PRESENTED_PARTIAL", "STATE_DROPPED"};
  char idf[48];
  uint64_t s = c->now + gt_below(&c->r, 20000), d = c->slot * 2 + 16000;
  uint64_t s2, d2;
  struct gt_ev e;
  *gt_id2(idf, ++c->seq) = '\0';
  e = gt_x("cc,benchmark,disabled-by-default-devtools.timeline.frame",
           "PipelineReporter", GT_T_COMP, s, GT_NODUR);
  e.ph = "b";
  e.s = 0;
  e.extra = idf;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"chrome_frame_reporter\":{\"affects_smoothness\":"
                "false,\"frame_sequence\":");
  p = gt_u64(p, ++c->seq);
  p = GT_LIT(p, ",\"frame_source\":1,\"has_missing_content\":false,"
                "\"layer_tree_host_id\":1,\"scroll_state\":\"SCROLL_NONE\","
                "\"state\":\"");
  p = gt_cstr(p, states[gt_below(&c->r, 3)]);
  p = GT_LIT(p, "\"}}");
  p = gt_tail(c, p, &e);

  e.name = "BeginImplFrameToSendBeginMainFrame";
  e.ts = s + d / 10;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{}");
  p = gt_tail(c, p, &e);

  gt_span(c, GT_T_COMP, 2, 15, &s2, &d2);
  {
    struct gt_ev x = gt_x("cc,disabled-by-default-devtools.timeline",
                          "ProxyImpl::ScheduledActionDraw", GT_T_COMP, s2, d2);
    x.tts = 1;
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{}");
    p = gt_tail(c, p, &x);
  }

  e.ph = "e";
  e.ts = s + d / 3;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{}");
  p = gt_tail(c, p, &e);
  e.name = "PipelineReporter";
  e.ts = s + d;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{}");
  return gt_tail(c, p, &e);
}

/* Counters and memory statistics. */
static char *gt_b_counter(struct gt_ctx *c, char *p) {
  uint64_t ts = c->now + gt_below(&c->r, 50000);
  struct gt_ev e;
  switch (gt_below(&c->r, 3)) {
  case 0:
    e = gt_x("disabled-by-default-devtools.timeline", "UpdateCounters",
             GT_T_MAIN, ts, GT_NODUR);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"documents\":");
    p = gt_u64(p, 1 + gt_below(&c->r, 4));
    p = GT_LIT(p, ",\"jsEventListeners\":");
    p = gt_u64(p, gt_below(&c->r, 3000));
    p = GT_LIT(p, ",\"jsHeapSizeUsed\":");
    p = gt_u64(p, 5000000 + gt_below(&c->r, 60000000));
    p = GT_LIT(p, ",\"nodes\":");
    p = gt_u64(p, gt_below(&c->r, 20000));
    p = GT_LIT(p, "}}");
    return gt_tail(c, p, &e);
  case 1:
    e = gt_x("toplevel", "ThreadPool_RunningTasks", GT_T_BMAIN, ts, GT_NODUR);
    e.ph = "C";
    e.s = 0;
    p = gt_open(c, p);
    p = gt_nhead(c, p, &e);
    p = GT_LIT(p, "{\"value\":");
    p = gt_u64(p, gt_below(&c->r, 12));
    p = GT_LIT(p, "}}");
    return p;
  default:
    e = gt_x("disabled-by-default-v8.gc", "V8.HeapStats", GT_T_MAIN, ts,
             GT_NODUR);
    e.ph = "C";
    e.s = 0;
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"allocated\":");
    p = gt_fnum(&c->r, p);
    p = GT_LIT(p, ",\"committed\":");
    p = gt_fnum(&c->r, p);
    p = GT_LIT(p, ",\"ratio\":");
    p = gt_dec(p, 0, gt_below(&c->r, 1000), 3);
    *p++ = '}';
    return gt_tail(c, p, &e);
  }
}

/* Flow events: the old s/f form and the newer bind_id form. */
static char *gt_b_flow(struct gt_ctx *c, char *p) {
  char idf[96], *q;
  uint64_t id = ++c->seq * 0x10001u, s, d, s2, d2;
  struct gt_ev e;
  if (gt_chance(&c->r, 1, 2)) {
    uint64_t ts = c->now + gt_below(&c->r, 20000);
    q = GT_LIT(idf, ",\"id\":\"");
    q = gt_hex(q, id);
    *GT_LIT(q, "\"") = '\0';
    e = gt_x("disabled-by-default-ipc.flow", "IPC", GT_T_BIO, ts, GT_NODUR);
    e.ph = "s";
    e.s = 0;
    e.extra = idf;
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{}");
    p = gt_tail(c, p, &e);
    q = GT_LIT(idf, ",\"bp\":\"e\",\"id\":\"");
    q = gt_hex(q, id);
    *GT_LIT(q, "\"") = '\0';
    e.ph = "f";
    e.thr = GT_T_MAIN;
    e.ts = ts + 2000 + gt_below(&c->r, 200000);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{}");
    return gt_tail(c, p, &e);
  }
  gt_span(c, GT_T_BMAIN, 5, 30, &s, &d);
  q = GT_LIT(idf, ",\"bind_id\":\"");
  q = gt_hex(q, id);
  *GT_LIT(q, "\",\"flow_out\":true") = '\0';
  e = gt_x("toplevel,mojom", "ThreadControllerImpl::RunTask", GT_T_BMAIN, s, d);
  e.extra = idf;
  e.tts = 1;
  p = gt_open(c, p);
  p = gt_nhead(c, p, &e);
  p = GT_LIT(p, "{\"src_file\":\"../../content/browser/renderer_host/"
                "render_widget_host_impl.cc\",\"src_func\":"
                "\"ForwardMouseEvent\"}}");
  gt_span(c, GT_T_RIO, 2, 10, &s2, &d2);
  if (s2 < s + d / 2) {
    /* The receiving side cannot start before the message was sent. */
    s2 = s + d / 2;
    c->busy[GT_T_RIO] = s2 + d2;
  }
  q = GT_LIT(idf, ",\"bind_id\":\"");
  q = gt_hex(q, id);
  *GT_LIT(q, "\",\"flow_in\":true") = '\0';
  e = gt_x("toplevel,mojom", "ChannelAssociatedGroupController::Accept",
           GT_T_RIO, s2, d2);
  e.extra = idf;
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{}");
  return gt_tail(c, p, &e);
}

/* Work in the browser and GPU processes and on the raster thread. */
static char *gt_b_other(struct gt_ctx *c, char *p) {
  uint64_t s, d;
  struct gt_ev e;
  char idf[48];
  switch (gt_below(&c->r, 4)) {
  case 0:
    gt_span(c, GT_T_BMAIN, 5, 60, &s, &d);
    e = gt_x("toplevel", "ThreadControllerImpl::RunTask", GT_T_BMAIN, s, d);
    e.tts = 1;
    p = gt_open(c, p);
    p = gt_nhead(c, p, &e);
    p = GT_LIT(p, "{\"src_file\":\"../../content/browser/"
                  "browser_main_loop.cc\",\"src_func\":"
                  "\"RunTaskOnUI\"}}");
    e = gt_x("navigation", "NavigationURLLoaderImpl::OnReceiveResponse",
             GT_T_BMAIN, s + d / 4, d / 2);
    p = gt_open(c, p);
    p = gt_nhead(c, p, &e);
    p = GT_LIT(p, "{\"url\":\"" GT_ORIGIN "/\",\"status\":200,"
                  "\"elapsed_ms\":");
    p = gt_fnum(&c->r, p);
    return GT_LIT(p, "}}");
  case 1:
    gt_span(c, GT_T_GPU, 5, 50, &s, &d);
    e = gt_x("gpu", "CommandBufferStub::OnAsyncFlush", GT_T_GPU, s, d);
    e.tts = 1;
    p = gt_open(c, p);
    p = gt_nhead(c, p, &e);
    p = GT_LIT(p, "{\"put_offset\":");
    p = gt_u64(p, gt_below(&c->r, 1u << 20));
    p = GT_LIT(p, "}}");
    e = gt_x("gpu", "CommandBufferService:PutChanged", GT_T_GPU, s + d / 8,
             d / 4 * 3);
    p = gt_open(c, p);
    p = gt_nhead(c, p, &e);
    p = GT_LIT(p, "{\"command_buffer_tag\":\"");
    p = gt_hex(p, 0x1000 + gt_below(&c->r, 64));
    return GT_LIT(p, "\"}}");
  case 2:
    gt_span(c, GT_T_RASTER, 10, 80, &s, &d);
    e = gt_x("cc,disabled-by-default-devtools.timeline", "RasterTask",
             GT_T_RASTER, s, d);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"tileData\":{\"layerId\":");
    p = gt_u64(p, 1 + gt_below(&c->r, 60));
    p = GT_LIT(p, ",\"sourceFrameNumber\":");
    p = gt_u64(p, c->seq);
    p = GT_LIT(p, ",\"tileId\":{\"id_ref\":\"");
    p = gt_hex(p, 0x7f0000000000ULL + gt_below(&c->r, 1u << 30));
    p = GT_LIT(p, "\"},\"tileResolution\":\"HIGH_RESOLUTION\"}}");
    p = gt_tail(c, p, &e);
    e = gt_x("cc,disabled-by-default-devtools.timeline", "ImageDecodeTask",
             GT_T_RASTER, s + d / 10, d / 2);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"pixelRefId\":");
    p = gt_u64(p, gt_below(&c->r, 100000));
    *p++ = '}';
    return gt_tail(c, p, &e);
  default:
    *gt_id2(idf, ++c->seq) = '\0';
    s = c->now + gt_below(&c->r, 10000);
    d = c->slot + gt_below(&c->r, 10000);
    e = gt_x("benchmark,graphics.pipeline", "Graphics.Pipeline", GT_T_VIZ, s,
             GT_NODUR);
    e.ph = "b";
    e.s = 0;
    e.extra = idf;
    p = gt_open(c, p);
    p = gt_nhead(c, p, &e);
    p = GT_LIT(p, "{\"step\":\"IssueBeginFrame\",\"trace_id\":");
    p = gt_u64(p, c->seq * 7919);
    p = GT_LIT(p, "}}");
    e.ph = "e";
    e.ts = s + d;
    p = gt_open(c, p);
    p = gt_nhead(c, p, &e);
    return GT_LIT(p, "{}}");
  }
}

/* A screenshot: a long base64 string, like Chrome's filmstrip. */
static char *gt_b_shot(struct gt_ctx *c, char *p) {
  size_t len = (size_t)(1500 + gt_below(&c->r, 4500)) * 4;
  size_t off = gt_below(&c->r, (unsigned)(GT_B64 - len));
  struct gt_ev e = gt_x("disabled-by-default-devtools.screenshot", "Screenshot",
                        GT_T_BMAIN, c->now, GT_NODUR);
  e.ph = "O";
  e.s = 0;
  e.extra = ",\"id\":\"0x1\"";
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"snapshot\":\"/9j/4AAQSkZJRgABAQAAAQABAAD/");
  p = gt_mem(p, c->b64 + off, len);
  p = GT_LIT(p, "\"}");
  return gt_tail(c, p, &e);
}

/* Console and user-timing events, with strings that need escaping. */
static char *gt_b_console(struct gt_ctx *c, char *p) {
  uint64_t ts = c->now + gt_below(&c->r, 30000);
  struct gt_ev e;
  char idf[48];
  switch (gt_below(&c->r, 3)) {
  case 0:
    e = gt_x("devtools.timeline", "TimeStamp", GT_T_MAIN, ts, GT_NODUR);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"frame\":\"");
    p = gt_frame(c, p);
    p = GT_LIT(p, "\",\"message\":\"");
    p = gt_cstr(p, gt_msgs[gt_below(&c->r, GT_NMSGS)]);
    p = GT_LIT(p, "\"}}");
    return gt_tail(c, p, &e);
  case 1:
    *gt_id2(idf, ++c->seq) = '\0';
    e = gt_x("blink.console", "fetch \\\"items\\\" \\u2013 page", GT_T_MAIN, ts,
             GT_NODUR);
    e.ph = "b";
    e.s = 0;
    e.extra = idf;
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{}");
    p = gt_tail(c, p, &e);
    e.ph = "e";
    e.ts = ts + c->slot / 2 + gt_below(&c->r, 5000000);
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{}");
    return gt_tail(c, p, &e);
  default:
    e = gt_x("blink.user_timing", "mark_render", GT_T_MAIN, ts, GT_NODUR);
    e.ph = "R";
    e.s = 0;
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"navigationId\":"
                  "\"3F2A9C1D8E7B6A5F4E3D2C1B0A9F8E7D\",\"startTime\":");
    p = gt_fnum(&c->r, p);
    p = GT_LIT(p, ",\"detail\":[1,2.5,-3e-7,\"x\",null,true,{\"k\":[]}]}}");
    return gt_tail(c, p, &e);
  }
}

/* Network responses: deep objects, arrays, -1 sentinels, big doubles. */
static char *gt_b_net(struct gt_ctx *c, char *p) {
  uint64_t ts = c->now + gt_below(&c->r, 30000), req = ++c->seq;
  struct gt_ev e;
  e = gt_x("devtools.timeline", "ResourceReceiveResponse", GT_T_MAIN, ts,
           GT_NODUR);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{\"encodedDataLength\":");
  p = gt_u64(p, 200 + gt_below(&c->r, 90000));
  p = GT_LIT(p, ",\"frame\":\"");
  p = gt_frame(c, p);
  p = GT_LIT(p, "\",\"fromCache\":false,\"fromServiceWorker\":false,"
                "\"headers\":[{\"name\":\"content-type\",\"value\":"
                "\"application/json; charset=utf-8\"},{\"name\":"
                "\"cache-control\",\"value\":\"no-cache\"},{\"name\":"
                "\"etag\",\"value\":\"W/\\\"");
  p = gt_hex(p, gt_next(&c->r) >> 16);
  p = GT_LIT(p, "\\\"\"}],\"mimeType\":\"application/json\","
                "\"requestId\":\"1234.");
  p = gt_u64(p, req);
  p = GT_LIT(p, "\",\"responseTime\":1.7");
  p = gt_u64(p, 100000 + gt_below(&c->r, 800000));
  p = GT_LIT(p, "e+12,\"statusCode\":200,\"timing\":{\"connectEnd\":-1,"
                "\"connectStart\":-1,\"dnsEnd\":-1,\"dnsStart\":-1,"
                "\"proxyEnd\":-1,\"proxyStart\":-1,\"receiveHeadersEnd\":");
  p = gt_dec(p, gt_below(&c->r, 300), gt_below(&c->r, 1000), 3);
  p = GT_LIT(p, ",\"requestTime\":");
  p = gt_dec(p, (ts - c->t0) / 1000000000 + 51234, gt_below(&c->r, 1000000), 6);
  p = GT_LIT(p, ",\"sendEnd\":");
  p = gt_fnum(&c->r, p);
  p = GT_LIT(p, ",\"sendStart\":");
  p = gt_fnum(&c->r, p);
  p = GT_LIT(p, ",\"sslEnd\":-1,\"sslStart\":-1,\"workerReady\":-1,"
                "\"workerStart\":-1}}}");
  p = gt_tail(c, p, &e);

  e.name = "ResourceFinish";
  e.ts = ts + 100000 + gt_below(&c->r, 5000000);
  p = gt_open(c, p);
  p = GT_LIT(p, "\"args\":{\"data\":{\"decodedBodyLength\":");
  p = gt_u64(p, gt_below(&c->r, 300000));
  p = GT_LIT(p, ",\"didFail\":false,\"encodedDataLength\":");
  p = gt_u64(p, gt_below(&c->r, 100000));
  p = GT_LIT(p, ",\"finishTime\":");
  p = gt_dec(p, (e.ts - c->t0) / 1000000000 + 51234, gt_below(&c->r, 1000000),
             6);
  p = GT_LIT(p, ",\"requestId\":\"1234.");
  p = gt_u64(p, req);
  p = GT_LIT(p, "\"}}");
  return gt_tail(c, p, &e);
}

/* One group of related filler events at c->now; stays under
 * GT_BUNDLE_MAX bytes.  Weights are per hundred groups. */
static char *gt_bundle(struct gt_ctx *c, char *p) {
  unsigned u = gt_below(&c->r, 100);
  if (u < 26) return gt_b_script(c, p, 0);
  if (u < 38) return gt_b_render(c, p);
  if (u < 41) return gt_b_eval(c, p);
  if (u < 47) return gt_b_be(c, p);
  if (u < 56) return gt_b_instant(c, p);
  if (u < 64) return gt_b_async(c, p);
  if (u < 71) return gt_b_counter(c, p);
  if (u < 76) return gt_b_flow(c, p);
  if (u < 86) return gt_b_other(c, p);
  if (u < 91) return gt_b_script(c, p, 1);
  if (u < 92) return gt_b_shot(c, p);
  if (u < 96) return gt_b_console(c, p);
  return gt_b_net(c, p);
}

/* ---------------------------------------------------------------- file */

static int gt_meta(struct gt_ctx *c, unsigned pid, unsigned tid,
                   const char *name, const char *value) {
  char *p;
  if (gt_room(&c->out, 512)) return -1;
  p = gt_open(c, c->out.buf + c->out.len);
  p = GT_LIT(p, "\"args\":{\"name\":\"");
  p = gt_cstr(p, value);
  p = GT_LIT(p, "\"},\"cat\":\"__metadata\",\"name\":\"");
  p = gt_cstr(p, name);
  p = GT_LIT(p, "\",\"ph\":\"M\",\"pid\":");
  p = gt_u64(p, pid);
  p = GT_LIT(p, ",\"tid\":");
  p = gt_u64(p, tid);
  p = GT_LIT(p, ",\"ts\":0}");
  c->out.len = (size_t)(p - c->out.buf);
  return 0;
}

static int gt_header(struct gt_ctx *c) {
  const struct gt_prof *ps[2];
  char *p;
  if (GT_PUTLIT(&c->out, "{\"traceEvents\":[") ||
      gt_meta(c, 1234, 0, "process_name", "Renderer") ||
      gt_meta(c, 1234, 0, "process_labels",
              "127.0.0.1:8080 \\u2013 App \\\"dev\\\"") ||
      gt_meta(c, 1000, 0, "process_name", "Browser") ||
      gt_meta(c, 5678, 0, "process_name", "GPU Process") ||
      gt_meta(c, 1234, 9, "thread_name", "v8:ProfEvntProc") ||
      gt_meta(c, 1234, 10, "thread_name", "v8:ProfEvntProc"))
    return -1;
  for (unsigned t = 0; t < GT_NTHR; t++)
    if (gt_meta(c, gt_thr_pid[t], gt_thr_tid[t], "thread_name", gt_thr_name[t]))
      return -1;
  if (gt_room(&c->out, 4096)) return -1;
  p = gt_open(c, c->out.buf + c->out.len);
  p = GT_LIT(p, "\"args\":{\"data\":{\"frameTreeNodeId\":1,\"frames\":[{"
                "\"frame\":\"");
  p = gt_cstr(p, gt_frames[0]);
  p = GT_LIT(p, "\",\"isInPrimaryMainFrame\":true,\"isOutermostMainFrame\":"
                "true,\"name\":\"\",\"processId\":1234,\"url\":\"" GT_ORIGIN
                "/\"},{\"frame\":\"");
  p = gt_cstr(p, gt_frames[1]);
  p = GT_LIT(p, "\",\"name\":\"ads\",\"parent\":\"");
  p = gt_cstr(p, gt_frames[0]);
  p = GT_LIT(p, "\",\"processId\":1234,\"url\":\"" GT_ORIGIN
                "/frame.html\"}],\"persistentIds\":true}},"
                "\"cat\":\"disabled-by-default-devtools.timeline\","
                "\"name\":\"TracingStartedInBrowser\",\"ph\":\"I\","
                "\"pid\":1000,\"s\":\"t\",\"tid\":1000,\"ts\":");
  p = gt_us(p, c->t0 - 1500000);
  *p++ = '}';
  ps[0] = &c->pm;
  ps[1] = &c->pw;
  for (unsigned i = 0; i < 2; i++) {
    p = gt_open(c, p);
    p = GT_LIT(p, "\"args\":{\"data\":{\"startTime\":");
    p = gt_i64(p, ps[i]->start_us);
    p = GT_LIT(p, "}},\"cat\":\"disabled-by-default-v8.cpu_profiler\","
                  "\"id\":\"");
    p = gt_cstr(p, ps[i]->idstr);
    p = GT_LIT(p, "\",\"name\":\"Profile\",\"ph\":\"P\",\"pid\":");
    p = gt_u64(p, ps[i]->pid);
    p = GT_LIT(p, ",\"tid\":");
    p = gt_u64(p, ps[i]->tid);
    p = GT_LIT(p, ",\"ts\":");
    p = gt_i64(p, ps[i]->start_us);
    *p++ = '}';
  }
  c->out.len = (size_t)(p - c->out.buf);
  return 0;
}

/* Writes pending chunks due by time t, oldest first. */
static int gt_due(struct gt_ctx *c, uint64_t t) {
  for (;;) {
    struct gt_prof *P = NULL;
    if (c->pm.ready && c->pm.ev_ts <= t) P = &c->pm;
    if (c->pw.ready && c->pw.ev_ts <= t && (!P || c->pw.ev_ts < P->ev_ts))
      P = &c->pw;
    if (!P) return 0;
    if (c->first ? gt_put(&c->out, "\n", 1) : gt_put(&c->out, ",\n", 2))
      return -1;
    c->first = 0;
    if (gt_put(&c->out, P->ev.p, P->ev.len) || gt_chunk_next(P)) return -1;
  }
}

/* One pass over the whole file.  fill is the filler byte budget; rate the
 * ns of trace time per filler byte. */
static int gt_run(struct gt_ctx *c, uint64_t fill, double rate) {
  uint64_t done = 0, groups = 0;
  c->first = 1;
  c->seq = 0;
  c->slot = (uint64_t)(rate * 700.0) + 1000;
  memset(c->busy, 0, sizeof c->busy);
  gt_seed(&c->r, c->seed, 77);
  gt_prof_reset(&c->pm);
  gt_prof_reset(&c->pw);
  if (gt_header(c) || gt_chunk_next(&c->pm) || gt_chunk_next(&c->pw)) return -1;
  while (done < fill) {
    uint64_t before;
    char *p;
    c->now = c->t0 + (uint64_t)(rate * (double)done);
    if (gt_due(c, c->now) || gt_room(&c->out, GT_BUNDLE_MAX)) return -1;
    before = gt_pos(&c->out);
    p = gt_bundle(c, c->out.buf + c->out.len);
    c->out.len = (size_t)(p - c->out.buf);
    done += gt_pos(&c->out) - before;
    groups++;
    c->slot = (uint64_t)(rate * (double)done / (double)groups) + 1000;
  }
  if (gt_due(c, UINT64_MAX) ||
      GT_PUTLIT(&c->out, "\n],\"metadata\":{\"source\":\"gentrace\"}}\n"))
    return -1;
  return gt_flush(&c->out);
}

static int gt_setup(struct gt_ctx *c, const struct gentrace_opts *o) {
  struct gt_fns *F = &c->fns;
  struct gt_rng r;
  struct gt_pcfg m, w;
  /* Below 200 nodes there is no room for the tasks and the chain; above
   * 50M the node table alone would be gigabytes. */
  unsigned nodes = o->nodes < 200        ? 200
                   : o->nodes > 50000000 ? 50000000
                                         : o->nodes;
  unsigned tm, tw, wnodes;
  char name[64];

  c->seed = o->seed;
  /* Chrome's clock: microseconds since boot, large. */
  c->t0 = (1234567890ULL + (uint64_t)(o->seed % 1000) * 1000) * 1000;
  gt_seed(&r, o->seed, 5);
  for (unsigned i = 0; i < GT_B64; i++)
    c->b64[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                "0123456789+/"[gt_below(&r, 64)];

  if (gt_fn_add(F, "(root)", 0, -1, -1) ||
      gt_fn_add(F, "(program)", 0, -1, -1) ||
      gt_fn_add(F, "(idle)", 0, -1, -1) ||
      gt_fn_add(F, "(garbage collector)", 0, -1, -1))
    return -1;
  for (unsigned i = 0; i < GT_CHAIN_LEN - 1; i++)
    if (gt_fn_add(F, gt_chain_names[i], GT_APP, 480 + (int)i * 37,
                  2 + (int)i % 3 * 2))
      return -1;
  if (gt_vocab(F, &r, GT_NVOCAB, gt_main_scripts,
               (unsigned)sizeof gt_main_scripts, 7) ||
      gt_vocab(F, &r, GT_NWVOCAB, gt_worker_scripts,
               (unsigned)sizeof gt_worker_scripts, 1301))
    return -1;

  tm = nodes / 400;
  tm = tm < 50 ? 50 : tm > 300 ? 300 : tm;
  if (tm > (nodes - 60) / 4) tm = (nodes - 60) / 4;
  wnodes = nodes / 25;
  wnodes = wnodes < 120 ? 120 : wnodes > 3000 ? 3000 : wnodes;
  tw = 8 + wnodes / 300;

  memset(&m, 0, sizeof m);
  m.nodes = nodes;
  m.ntask = tm;
  m.vocab_lo = GT_FN_CHAIN; /* chain frames recur elsewhere too */
  m.vocab_n = GT_FN_VOCAB + GT_NVOCAB - GT_FN_CHAIN;
  m.task_fn_lo = F->n;
  m.chain = 1;
  m.reorder = o->reorder;
  m.regress = o->regress;
  m.seed = o->seed;
  m.idle_pct = 45;
  m.pid = 1234;
  m.tid = 1;
  m.tid_chunk = 9;
  m.idstr = "0x1";
  m.stream = 100000;
  m.start_us = (int64_t)(c->t0 / 1000);
  for (unsigned t = 0; t < tm; t++) {
    char *p = gt_cstr(name, gt_main_prefix[t % 10]);
    *gt_u64(p, t / 10 + 1) = '\0';
    if (gt_fn_add(F, name, gt_main_prefix_script[t % 10],
                  10 + (int)gt_below(&r, 3000), 2 + (int)gt_below(&r, 30)))
      return -1;
  }

  w = m;
  w.nodes = wnodes;
  w.ntask = tw;
  w.vocab_lo = GT_FN_VOCAB + GT_NVOCAB;
  w.vocab_n = GT_NWVOCAB;
  w.task_fn_lo = F->n;
  w.chain = 0;
  w.regress = 0;
  /* Mostly idle, sized so the worker profile spans about as long as the
   * main one (which has nodes/wnodes times more JS to walk). */
  w.idle_pct = (unsigned)((uint64_t)160 * nodes / wnodes);
  w.tid = 7;
  w.tid_chunk = 10;
  w.idstr = "0x2";
  w.stream = 200000;
  w.start_us = m.start_us + 2345;
  for (unsigned t = 0; t < tw; t++) {
    char *p = gt_cstr(name, gt_worker_prefix[t % 3]);
    *gt_u64(p, t / 3 + 1) = '\0';
    if (gt_fn_add(F, name, 19, 5 + (int)gt_below(&r, 800),
                  (int)gt_below(&r, 40)))
      return -1;
  }

  c->main_lo = GT_FN_CHAIN;
  c->main_n = GT_FN_VOCAB + GT_NVOCAB - GT_FN_CHAIN;
  c->worker_lo = w.vocab_lo;
  c->worker_n = GT_NWVOCAB;
  return gt_build(&c->pm, F, &m) || gt_build(&c->pw, F, &w) ? -1 : 0;
}

int gentrace_write(const char *path, const struct gentrace_opts *o) {
  struct gt_ctx *c;
  uint64_t endts, fill = 0;
  double rate = 0.0;
  int rc = -1, saved;

  if (!path || !o) {
    errno = EINVAL;
    return -1;
  }
  c = calloc(1, sizeof *c);
  if (!c) {
    errno = ENOMEM;
    return -1;
  }
  c->out.cap = GT_OUTCAP;
  c->out.buf = malloc(GT_OUTCAP);
  if (!c->out.buf) {
    errno = ENOMEM;
    goto done;
  }
  if (gt_setup(c, o)) goto done;

  /* Dry pass: profile and metadata only, counted, not written. */
  if (gt_run(c, 0, 0.0)) goto done;
  endts = c->pm.last_ts > c->pw.last_ts ? c->pm.last_ts : c->pw.last_ts;
  if (o->target_bytes > c->out.total) fill = o->target_bytes - c->out.total;
  if (fill > 0 && endts > c->t0) rate = (double)(endts - c->t0) / (double)fill;
  c->out.total = 0;
  c->out.len = 0;

  if (o->gzip) {
    /* Level 1: the default level 6 takes about twice as long for a
     * 20% smaller file, and the benchmark only needs gzip input. */
    c->out.gz = gzopen(path, "wb1");
    if (!c->out.gz) {
      if (errno == 0) errno = ENOMEM;
      goto done;
    }
    if (gzbuffer(c->out.gz, 1u << 20) != 0) {
      errno = EIO;
      goto done;
    }
  } else {
    c->out.fp = fopen(path, "wb");
    if (!c->out.fp) goto done;
    /* We already write in 4 MB blocks; stdio buffering would only copy. */
    setvbuf(c->out.fp, NULL, _IONBF, 0);
  }
  if (gt_run(c, fill, rate)) goto done;
  if (c->out.gz) {
    int e = gzclose(c->out.gz);
    c->out.gz = NULL;
    if (e != Z_OK) {
      if (e != Z_ERRNO || errno == 0) errno = EIO;
      goto done;
    }
  } else {
    int e = fclose(c->out.fp);
    c->out.fp = NULL;
    if (e != 0) goto done;
  }
  rc = 0;

done:
  saved = errno;
  if (c->out.gz) (void)gzclose(c->out.gz);
  if (c->out.fp) (void)fclose(c->out.fp);
  gt_prof_free(&c->pm);
  gt_prof_free(&c->pw);
  free(c->fns.v);
  free(c->fns.pool.p);
  free(c->out.buf);
  free(c);
  errno = saved;
  return rc;
}
