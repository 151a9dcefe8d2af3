/* A sampling heap profile (HeapProfiler.getSamplingProfile, DevTools'
 * .heapprofile) into a timeline whose unit is bytes: one "heap" thread
 * node, the profile's top-level functions under it, each node's selfSize
 * its self weight. The tree nests ({callFrame, selfSize, children}), so it
 * is walked with an explicit stack, never C recursion: a profile thousands
 * of frames deep is read like any other. zamcap's own key "zamcap" (the
 * retained memory it measured after the flow) becomes the figures. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "trace-int.h"

/* One node as read, in the file's order (a parent before its children). */
struct hnode {
  uint32_t parent; /* index in the list; ANA_NONE for the head */
  uint32_t name, url;
  int32_t line, col;
  double self;
  uint32_t tl; /* timeline node */
};

struct hread {
  struct ana_ctx *ctx;
  struct hnode *n;
  size_t nn, capn;
  int many;       /* over HEAP_NODES_MAX nodes */
  const char *at; /* a selfSize that is no byte count */
  struct ana_figures fig;
  double interval; /* zamcap's sampling_interval_bytes; 0: not said */
};

/* A real sampling profile has thousands of call-tree nodes (one per call
 * path that allocated) and inflates 10 to 30 times; a file past these is
 * refused before it costs a gigabyte (issue 38: a 1.1 MB .heapprofile.gz
 * took compare to 1 GB, 6 M sibling nodes to 753 MB). The nodes' cap
 * also keeps the sum of their selfSizes (each at most HEAP_SELF_MAX) in
 * an int64_t. */
enum {
  HEAP_DEPTH_MAX = 1 << 20,
  HEAP_NODES_MAX = 1 << 20,
  HEAP_INFLATE = 64,             /* times the file's size, */
  HEAP_INFLATE_FLOOR = 64 << 20, /* or this, whichever is more */
  HEAP_INTERVAL_DEFAULT = 32768  /* V8's samplingInterval when none given */
};
#define HEAP_SELF_MAX 1e12 /* bytes a node allocated: a TB */
/* The figures zamcap measured after the flow: bytes, and counts. */
#define HEAP_BYTES_MAX 1e15
#define HEAP_COUNT_MAX 1e9

static void heap_frame(struct hread *h, struct jr *r, struct hnode *nd) {
  const char *k, *s;
  size_t kn, sn;
  double v;
  if (!jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "functionName") && jr_str(r, &s, &sn))
      nd->name = ana_intern(h->ctx, s, sn);
    else if (jr_is(k, kn, "url") && jr_str(r, &s, &sn))
      nd->url = ana_intern(h->ctx, s, sn);
    else if (jr_is(k, kn, "lineNumber") && jr_num(r, &v))
      nd->line = v >= -1 && v < INT32_MAX ? (int32_t)v : -1;
    else if (jr_is(k, kn, "columnNumber") && jr_num(r, &v))
      nd->col = v >= -1 && v < INT32_MAX ? (int32_t)v : -1;
    else if (!jr_is(k, kn, "functionName") && !jr_is(k, kn, "url") &&
             !jr_is(k, kn, "lineNumber") && !jr_is(k, kn, "columnNumber"))
      jr_skip(r);
  }
}

/* A new node, or ANA_NONE past HEAP_NODES_MAX (h->many set). */
static uint32_t heap_new(struct hread *h, uint32_t parent) {
  if (h->nn >= HEAP_NODES_MAX) {
    h->many = 1;
    return ANA_NONE;
  }
  ZC_GROW(h->n, h->capn, h->nn + 1);
  struct hnode *nd = &h->n[h->nn];
  memset(nd, 0, sizeof *nd);
  nd->parent = parent;
  nd->name = nd->url = ana_intern(h->ctx, "", 0);
  nd->line = nd->col = -1;
  return (uint32_t)h->nn++;
}

/* The head tree into h->n: a stack of open nodes, each either reading its
 * members (flag bit 0 clear) or inside its children array (set). */
static int heap_tree(struct hread *h, struct jr *r) {
  uint32_t *st = NULL;
  size_t sp = 0, cap = 0;
  if (!jr_obj(r)) return 0;
  ZC_GROW(st, cap, 1);
  st[sp++] = heap_new(h, ANA_NONE) * 2; /* the first: never past the cap */
  while (sp && !r->err) {
    uint32_t me = st[sp - 1] / 2;
    const char *k;
    size_t kn;
    if (st[sp - 1] & 1) { /* in the children array */
      if (!jr_more(r, NULL, NULL)) {
        st[sp - 1] = me * 2; /* the array ended: the node's members go on */
      } else if (sp >= HEAP_DEPTH_MAX || !jr_obj(r)) {
        if (!r->err) r->err = r->p;
      } else {
        uint32_t kid = heap_new(h, me);
        if (kid == ANA_NONE) break;
        ZC_GROW(st, cap, sp + 1);
        st[sp++] = kid * 2;
      }
      continue;
    }
    if (!jr_more(r, &k, &kn)) { /* the node's end */
      sp--;
      continue;
    }
    if (jr_is(k, kn, "callFrame")) {
      heap_frame(h, r, &h->n[me]);
    } else if (jr_is(k, kn, "selfSize")) {
      double v = 0;
      const char *at = r->p;
      if (jr_num(r, &v) && !(v >= 0 && v <= HEAP_SELF_MAX) && !h->at)
        h->at = at; /* negative, not finite, or past a TB */
      else if (v > 0)
        h->n[me].self = v;
    } else if (jr_is(k, kn, "children")) {
      if (jr_arr(r)) st[sp - 1] = me * 2 + 1;
    } else {
      jr_skip(r);
    }
  }
  free(st);
  return !r->err;
}

static void heap_zamcap(struct hread *h, struct jr *r) {
  const char *k;
  size_t kn;
  double v;
  if (!jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "sampling_interval_bytes")) {
      /* V8 takes 1 byte to 2 GB; anything else is not said */
      int c = jr_peek(r);
      if (c != '-' && (c < '0' || c > '9'))
        jr_skip(r);
      else if (jr_num(r, &v) && v >= 1 && v <= 2147483647.0)
        h->interval = v;
      continue;
    }
    double *dst = jr_is(k, kn, "js_heap_used_bytes") ? &h->fig.heap_used_kb
                  : jr_is(k, kn, "dom_nodes")        ? &h->fig.dom_nodes
                  : jr_is(k, kn, "event_listeners")  ? &h->fig.listeners
                                                     : NULL;
    if (!dst) {
      jr_skip(r);
    } else if (jr_peek(r) == 'n') {
      jr_skip(r); /* null: not measured */
    } else if (jr_num(r, &v)) {
      /* a figure no page can have (a negative heap, 300 digits) is none */
      int bytes = dst == &h->fig.heap_used_kb;
      if (!(v >= 0 && v <= (bytes ? HEAP_BYTES_MAX : HEAP_COUNT_MAX))) continue;
      *dst = bytes ? v / 1024 : v;
      h->fig.retained = 1;
    }
  }
}

/* The timeline: a "heap" thread under the root, the head's children
 * under it. A node's first "sample" is its place in the file, which keeps
 * siblings in the profile's order. */
static struct ana_timeline *heap_build(struct hread *h, const char *path) {
  struct ana_timeline *tl = ana_tl_new(h->ctx, path);
  tl->unit = ANA_UNIT_BYTES;
  uint32_t thr = ana_tl_child(tl, 0, ANA_THREAD, "heap", "", -1, -1);
  for (size_t i = 0; i < h->nn; i++) {
    struct hnode *nd = &h->n[i];
    if (nd->parent == ANA_NONE) { /* the head: "(root)", 0 bytes */
      nd->tl = thr;
      if (nd->self > 0) ana_tl_sample(tl, thr, 0, (int64_t)nd->self);
      continue;
    }
    const char *name = ana_str(h->ctx, nd->name);
    uint8_t kind = !strcmp(name, "(GC)") ? ANA_GC
                   : name[0] == '(' && !ana_str(h->ctx, nd->url)[0]
                       ? ANA_PROGRAM
                       : ANA_FUNC;
    if (!strcmp(name, "(IDLE)")) kind = ANA_IDLE;
    nd->tl = ana__tl_child_ids(tl, h->n[nd->parent].tl, kind, nd->name, nd->url,
                               nd->line, nd->col);
    if (nd->self > 0) ana_tl_sample(tl, nd->tl, (int64_t)i, (int64_t)nd->self);
  }
  ana_tl_finish(tl);
  return tl;
}

/* The file, gzip or plain, whole: at most HEAP_INFLATE times its size on
 * disk (or HEAP_INFLATE_FLOOR), and ana__ing_maxval bytes. */
static enum zc_err heap_read(const char *path, struct zc_buf *b) {
  struct stat st;
  double disk = stat(path, &st) == 0 ? (double)st.st_size : 0;
  double most = disk * HEAP_INFLATE;
  if (most < HEAP_INFLATE_FLOOR) most = HEAP_INFLATE_FLOOR;
  if (most < (double)b->max) b->max = (size_t)most;
  gzFile gz = gzopen(path, "rb");
  if (!gz)
    return zc_fail(ZC_E_IO, "%s: cannot open: %s", path,
                   errno ? strerror(errno) : "out of memory");
  char chunk[65536];
  enum zc_err e = ZC_OK;
  int n;
  while (!e && (n = gzread(gz, chunk, sizeof chunk)) > 0)
    if (zc_buf_add(b, chunk, (size_t)n))
      e = zc_fail(ZC_E_TOOBIG,
                  "%s: a heap profile that inflates past %zu MB (%d times its "
                  "%.0f KB on disk, or %d MB; real ones inflate 10 to 30 "
                  "times): not read",
                  path, b->max >> 20, HEAP_INFLATE, disk / 1024,
                  HEAP_INFLATE_FLOOR >> 20);
  if (!e && n < 0) e = zc_fail(ZC_E_IO, "%s: cannot read it", path);
  gzclose(gz);
  return e;
}

enum zc_err ana__load_heap(struct ana_ctx *c, const char *path,
                           struct ana_timeline **out) {
  *out = NULL;
  struct zc_buf b;
  zc_buf_init(&b, ana__ing_maxval);
  enum zc_err e = heap_read(path, &b);
  if (e) {
    zc_buf_free(&b);
    return e;
  }
  struct hread h = {.ctx = c};
  h.fig.heap_used_kb = h.fig.dom_nodes = h.fig.listeners = NAN;
  struct jr r;
  jr_init(&r, b.len ? b.ptr : "", b.len);
  const char *k;
  size_t kn;
  int head = 0;
  if (jr_obj(&r))
    while (jr_more(&r, &k, &kn)) {
      if (jr_is(k, kn, "head") && !head)
        head = heap_tree(&h, &r);
      else if (jr_is(k, kn, "zamcap"))
        heap_zamcap(&h, &r);
      else
        jr_skip(&r);
    }
  if (!r.err && jr_peek(&r) >= 0) r.err = r.p;
  if (!b.len)
    e = zc_fail(ZC_E_PARSE, "%s: empty file", path);
  else if (h.many)
    e = zc_fail(ZC_E_TOOBIG,
                "%s: a heap profile of over %d call-tree nodes (real ones "
                "have thousands): not read",
                path, HEAP_NODES_MAX);
  else if (h.at && !r.err)
    e = zc_fail(ZC_E_PARSE, "%s: byte %zu: a selfSize that is no byte count",
                path, (size_t)(h.at - b.ptr));
  else if (r.err)
    e = zc_fail(ZC_E_PARSE, "%s: byte %zu: not a sampling heap profile", path,
                (size_t)(r.err - (b.len ? b.ptr : r.err)));
  else if (!head)
    e = zc_fail(ZC_E_PARSE, "%s: a heap profile without its \"head\" tree",
                path);
  jr_done(&r);
  zc_buf_free(&b);
  if (!e) {
    struct ana_timeline *tl = heap_build(&h, path);
    struct ana_figures *f = &tl->fig;
    f->retained = h.fig.retained;
    f->heap_used_kb = h.fig.heap_used_kb;
    f->dom_nodes = h.fig.dom_nodes;
    f->listeners = h.fig.listeners;
    tl->profiles = 1;
    /* A profile that does not say how it was sampled (DevTools' Memory
     * panel saves none) is taken at V8's default, which DevTools uses. */
    tl->sample_bytes = h.interval > 0 ? h.interval : HEAP_INTERVAL_DEFAULT;
    if (!tl->samples) tl->what = zc_xstrdup("a heap profile with no sample");
    *out = tl;
  }
  free(h.n);
  return e;
}
