/* Streaming ingest of Chrome traces and .cpuprofile files.
 *
 * A structural scanner walks the top-level JSON: it finds each value's
 * extent (brackets and strings only, no allocation) and, for trace events,
 * the offsets of the "ph" and "name" values on the way. Only the events
 * zamcap needs are read, with a pull reader (jread.c) and no DOM: ph "P"
 * (Profile/ProfileChunk) straight into profile nodes and samples, ph "M"
 * (thread names), and for the end-to-end figures zamcap's step marks and
 * the few complete events they need (tasks, style and layout).
 * Memory is the buffer (as large as the largest single event) plus the
 * kept profile nodes and samples, whatever the file's size. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ana-int.h"

/* Bytes asked of zlib per read: a variable only so that the fuzzer can
 * make values straddle many refills (ana-int.h). */
unsigned ana__ing_read = 1u << 20;
#define ING_READ ana__ing_read
/* The largest single JSON value held in memory (1 GiB); tests lower it. */
unsigned ana__ing_maxval = 1u << 30;
#define ING_MAXVAL ana__ing_maxval
#define ING_NOOFF  SIZE_MAX

struct pnode {         /* a V8 profile node */
  uint32_t id, parent; /* parent == 0: none given */
  uint32_t name, url;
  int32_t line, col;
  uint8_t kind;
  uint8_t dead; /* its parent chain is broken: its samples are dropped */
  uint32_t tl;  /* timeline node, ANA_NONE until placed */
};

/* Who started a profile (a Profile event's args.data.source): the
 * recording itself, console.profile() through the inspector, or a page's
 * JS Self-Profiling API. Older traces do not say. */
enum { PS_UNKNOWN, PS_INTERNAL, PS_INSPECTOR, PS_OTHER };

struct prof { /* one V8 profile, (pid, id) */
  int64_t pid, tid;
  char id[48];
  int has_tid, has_start, has_end, has_dstart;
  int exact_end; /* end_us is the last sample's end (old .cpuprofile) */
  /* start_us is the base the time deltas add to: the Profile event's ts
   * (the trace's clock, as DevTools takes it), else args.data.startTime.
   * dstart_us is args.data.startTime: V8's clock, the one endTime is in,
   * which need not be the trace's (Perfetto's clock domain; a tool that
   * rewrote the one and not the other). */
  int64_t start_us, end_us, dstart_us;
  uint8_t source;   /* PS_* */
  uint8_t left_out; /* another profile of its thread was kept */
  uint32_t label;   /* the thread's label, set before building */
  int64_t script_us, gc_us, busy_us; /* from the figures' window on */
  struct pnode *nodes;
  size_t nnodes, capnodes;
  struct zc_htab tab; /* node id -> index */
  uint32_t *sid;      /* sample node ids */
  int32_t *sdt;       /* time deltas, µs */
  size_t nsamp, capsamp;
};

struct thr {
  int64_t pid, tid;
  uint32_t name;
};

/* What a process or a worker thread is: the URL of a renderer's frame
 * (the main frame's when known), or of a worker's script. */
struct place {
  int64_t pid, tid; /* tid: workers only */
  uint32_t url;
  int main; /* a main frame's URL */
};

/* What the end-to-end figures need of a complete event or a mark. */
enum { EV_TASK, EV_LAYOUT, EV_MARK };
struct fev {
  int64_t pid, tid, ts, dur;
  uint8_t what;
  uint32_t step; /* EV_MARK: the step number; 0 for zamcap:end */
  char type[24]; /* EV_MARK: the step type */
};

struct ing {
  struct ana_ctx *ctx;
  const char *path;
  gzFile gz;
  char *buf;
  size_t cap, len, pos;
  uint64_t base; /* stream offset of buf[0] */
  int eof;
  uint64_t events, parsed;
  struct thr *thr;
  size_t nthr, capthr;
  struct place *frames, *workers;
  size_t nframes, capframes, nworkers, capworkers;
  /* A .cpuprofile's top-level fields, resolved once all are read: the old
   * format's "head" tree, times in seconds and absolute "timestamps". */
  int cp_head, cp_has_start, cp_has_end;
  double cp_start, cp_end;
  int64_t *cp_ts;
  size_t ncp_ts, capcp_ts;
  int other_samples; /* "samples" that are objects: not a CPU profile's */
  uint32_t ncpuprofile_events;
  struct prof *prof;
  size_t nprof, capprof;
  /* scratch, reused from event to event */
  int32_t *sid, *dt;
  size_t nsid, ndt, capsid, capdt;
  uint32_t *kids;
  size_t capkids;
  struct prof *cpuprofile; /* set when the file is a .cpuprofile */
  uint32_t k_root, k_program, k_idle, k_gc;
  struct fev *fev;
  size_t nfev, capfev;
  int64_t fig_t0; /* the figures' window starts here (the first mark) */
  size_t capsteps;
  struct ana_embedded_map *emb; /* metadata.sourceMaps */
  uint32_t nemb;
  size_t capemb;
};

/* ---- reading ---- */

/* Reads more bytes, keeping buf[keep..len). Returns the shift applied to
 * offsets at or after keep (they all move down by it), and sets g->eof when
 * nothing more comes. */
static enum zc_err ing_more(struct ing *g, size_t keep, size_t *shift) {
  *shift = 0;
  if (g->eof) return ZC_OK;
  /* Compact before growing: the buffer holds one value at most, never the
   * file. (The same room test as below, or the buffer doubles at the edge
   * case where exactly ING_READ bytes are free.) */
  if (keep > 0 && (g->cap - g->len < ING_READ + 1 || keep >= g->len)) {
    memmove(g->buf, g->buf + keep, g->len - keep);
    g->len -= keep;
    g->pos -= keep < g->pos ? keep : g->pos;
    g->base += keep;
    *shift = keep;
  }
  if (g->cap - g->len < ING_READ + 1) {
    size_t need = g->len + ING_READ;
    if (need > (size_t)ING_MAXVAL + ING_READ)
      return zc_fail(ZC_E_TOOBIG,
                     "%s: a single JSON value starting at byte %llu is over "
                     "%u MiB",
                     g->path, (unsigned long long)g->base, ING_MAXVAL >> 20);
    size_t cap = g->cap ? g->cap : 4 * ING_READ;
    while (cap < need + 1)
      cap *= 2;
    g->buf = zc_xrealloc(g->buf, cap);
    g->cap = cap;
  }
  int n = gzread(g->gz, g->buf + g->len, ING_READ);
  if (n < 0 || (n == 0 && !gzeof(g->gz))) {
    int zerr = 0;
    const char *msg = gzerror(g->gz, &zerr);
    /* Only a failed read(2) is the file system's; zlib's own errors mean
     * the gzip data is broken, as a cut stream is below. */
    if (zerr != Z_ERRNO)
      return zc_fail(ZC_E_PARSE,
                     "%s: gzip data broken after %llu "
                     "uncompressed bytes: %s",
                     g->path, (unsigned long long)(g->base + g->len), msg);
    return zc_fail(ZC_E_IO, "%s: read failed after byte %llu: %s", g->path,
                   (unsigned long long)(g->base + g->len), strerror(errno));
  }
  if (n == 0) {
    /* zlib reports a cut gzip stream only through gzerror. */
    int zerr = 0;
    const char *msg = gzerror(g->gz, &zerr);
    if (zerr != Z_OK && zerr != Z_STREAM_END)
      return zc_fail(ZC_E_PARSE,
                     "%s: gzip data broken after %llu "
                     "uncompressed bytes: %s",
                     g->path, (unsigned long long)(g->base + g->len), msg);
    g->eof = 1;
  }
  g->len += (size_t)n;
  g->buf[g->len] = '\0';
  return ZC_OK;
}

static int ing_isws(int c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Skips whitespace; returns the next byte (not consumed) or -1 at EOF. */
static enum zc_err ing_peek(struct ing *g, int *c) {
  for (;;) {
    while (g->pos < g->len && ing_isws((unsigned char)g->buf[g->pos]))
      g->pos++;
    if (g->pos < g->len) {
      *c = (unsigned char)g->buf[g->pos];
      return ZC_OK;
    }
    if (g->eof) {
      *c = -1;
      return ZC_OK;
    }
    size_t shift;
    enum zc_err e = ing_more(g, g->pos, &shift);
    if (e) return e;
  }
}

/* ---- the scanner ---- */

enum { C_OTHER, C_QUOTE, C_OPEN, C_CLOSE, C_COMMA, C_END };
static unsigned char ing_cls[256];

static void ing_init_cls(void) {
  ing_cls['"'] = C_QUOTE;
  ing_cls['{'] = ing_cls['['] = C_OPEN;
  ing_cls['}'] = ing_cls[']'] = C_CLOSE;
  ing_cls[','] = C_COMMA;
}

struct val {
  size_t s, e; /* extent in buf */
  size_t ph;   /* offset from s of the "ph" string's first byte */
  size_t name; /* and of the "name" string's */
};

/* Finds the extent of the JSON value at g->pos, reading as needed; notes
 * the "ph" and "name" values when the value is an object. Does not validate
 * what lies inside: the events that matter are parsed in full afterwards. */
static enum zc_err ing_value(struct ing *g, struct val *v) {
  size_t s = g->pos, i = s, str = 0;
  int depth = 0, in_str = 0, expect_key = 0, pending = 0, scalar = 0;
  int obj = (unsigned char)g->buf[s] == '{';
  v->ph = v->name = ING_NOOFF;
  if (!ing_cls[(unsigned char)g->buf[s]]) scalar = 1;
  for (;;) {
    const unsigned char *b = (const unsigned char *)g->buf;
    size_t n = g->len;
    if (scalar) {
      while (i < n && !ing_cls[b[i]] && !ing_isws(b[i]) && b[i] != ':')
        i++;
      if (i < n || g->eof) goto done;
    }
    while (!scalar && i < n) {
      if (in_str) {
        const unsigned char *q = memchr(b + i, '"', n - i);
        if (!q) {
          i = n;
          break;
        }
        size_t qi = (size_t)(q - b), bs = 0;
        while (qi - bs > str + 1 && b[qi - bs - 1] == '\\')
          bs++;
        i = qi + 1;
        if (bs & 1) continue; /* an escaped quote */
        in_str = 0;
        if (depth == 0) goto done; /* the value was a string */
        if (depth == 1 && obj) {
          if (expect_key) {
            size_t kl = qi - str - 1;
            pending = kl == 2 && b[str + 1] == 'p' && b[str + 2] == 'h' ? 1
                      : kl == 4 && !memcmp(b + str + 1, "name", 4)      ? 2
                                                                        : 0;
            expect_key = 0;
          } else if (pending) {
            if (pending == 1)
              v->ph = str + 1 - s;
            else
              v->name = str + 1 - s;
            pending = 0;
          }
        }
        continue;
      }
      unsigned char c = b[i];
      switch (ing_cls[c]) {
      case C_OTHER: i++; continue;
      case C_QUOTE:
        in_str = 1;
        str = i++;
        continue;
      case C_OPEN:
        depth++;
        if (depth == 1 && c == '{') expect_key = 1;
        i++;
        continue;
      case C_CLOSE:
        i++;
        if (--depth <= 0) goto done;
        continue;
      case C_COMMA:
        if (depth == 1) expect_key = 1, pending = 0;
        i++;
        continue;
      }
    }
    if (g->eof)
      return zc_fail(ZC_E_PARSE,
                     "%s: truncated: the value starting at byte %llu is not "
                     "closed (the data ends at byte %llu)",
                     g->path, (unsigned long long)(g->base + s),
                     (unsigned long long)(g->base + g->len));
    size_t shift;
    g->pos = s;
    enum zc_err e = ing_more(g, s, &shift);
    if (e) return e;
    s -= shift;
    i -= shift;
    str -= str >= shift ? shift : str;
  }
done:
  v->s = s;
  v->e = i;
  g->pos = i;
  return ZC_OK;
}

/* ---- profiles ---- */

static struct prof *ing_prof(struct ing *g, int64_t pid, const char *id) {
  for (size_t i = 0; i < g->nprof; i++)
    if (g->prof[i].pid == pid && strcmp(g->prof[i].id, id) == 0)
      return &g->prof[i];
  ZC_GROW(g->prof, g->capprof, g->nprof + 1);
  struct prof *p = &g->prof[g->nprof++];
  memset(p, 0, sizeof *p);
  p->pid = pid;
  snprintf(p->id, sizeof p->id, "%s", id);
  zc_htab_init(&p->tab, 128);
  return p;
}

static void prof_free(struct prof *p) {
  free(p->nodes);
  zc_htab_free(&p->tab);
  free(p->sid);
  free(p->sdt);
}

/* The node with this id, or NULL; *pos is where the probe ended. */
static struct pnode *prof_lookup(const struct prof *p, uint32_t id,
                                 size_t *pos) {
  uint32_t i;
  *pos = ZC_HTAB_START;
  while (zc_htab_next(&p->tab, zc_mix64(id), pos, &i))
    if (p->nodes[i].id == id) return &p->nodes[i];
  return NULL;
}

static struct pnode *prof_find(const struct prof *p, uint32_t id) {
  size_t pos;
  return prof_lookup(p, id, &pos);
}

static struct pnode *prof_add(struct prof *p, uint32_t id) {
  size_t pos;
  struct pnode *n = prof_lookup(p, id, &pos);
  if (n) return n;
  ZC_GROW(p->nodes, p->capnodes, p->nnodes + 1);
  n = &p->nodes[p->nnodes];
  memset(n, 0, sizeof *n);
  n->id = id;
  n->tl = ANA_NONE;
  zc_htab_add(&p->tab, zc_mix64(id), pos, (uint32_t)p->nnodes++);
  return n;
}

/* ---- reading the events zamcap needs, with the pull reader ---- */

/* A time in µs from the file, if it is one. 2^53 µs is 285 years; the
 * bound keeps sums of times and int32 deltas from overflowing. */
static int ing_time(double t, int64_t *out) {
  if (!(t > -9007199254740992.0 && t < 9007199254740992.0)) return 0;
  *out = (int64_t)t;
  return 1;
}

static int ing_u32(struct jr *r, uint32_t *out) {
  double d;
  if (!jr_num(r, &d)) return 0;
  if (d < 0 || d > 4294967295.0) return 0;
  *out = (uint32_t)d;
  return 1;
}

static uint32_t ing_kind(const struct ing *g, uint32_t name) {
  return name == g->k_root      ? ANA_ROOT
         : name == g->k_program ? ANA_PROGRAM
         : name == g->k_idle    ? ANA_IDLE
         : name == g->k_gc      ? ANA_GC
                                : ANA_FUNC;
}

static int ing_callframe(struct ing *g, struct jr *r, struct pnode *n) {
  const char *k, *s;
  size_t kn, sn;
  double d;
  n->line = n->col = -1;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "functionName") && jr_str(r, &s, &sn))
      n->name = ana_intern(g->ctx, s, sn);
    else if (jr_is(k, kn, "url") && jr_str(r, &s, &sn))
      n->url = ana_intern(g->ctx, s, sn);
    else if (jr_is(k, kn, "lineNumber") && jr_num(r, &d))
      n->line = d >= -1 && d < 2e9 ? (int32_t)d : -1;
    else if (jr_is(k, kn, "columnNumber") && jr_num(r, &d))
      n->col = d >= -1 && d < 2e9 ? (int32_t)d : -1;
    else if (!jr_skip(r))
      return 0;
  }
  return !r->err;
}

/* A "nodes" array: trace chunks give each node's parent, .cpuprofile
 * files its children. */
static int ing_nodes(struct ing *g, struct prof *p, struct jr *r) {
  const char *k;
  size_t kn;
  if (!jr_arr(r)) return 0;
  while (jr_more(r, NULL, NULL)) {
    struct pnode tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.line = tmp.col = -1;
    uint32_t id = 0, kid;
    int has_id = 0, has_cf = 0;
    uint32_t *kids = g->kids;
    size_t nk = 0;
    if (!jr_obj(r)) return 0;
    while (jr_more(r, &k, &kn)) {
      if (jr_is(k, kn, "id")) {
        if (!(has_id = ing_u32(r, &id))) return 0;
      } else if (jr_is(k, kn, "parent")) {
        if (!ing_u32(r, &tmp.parent)) return 0;
      } else if (jr_is(k, kn, "callFrame")) {
        if (!(has_cf = ing_callframe(g, r, &tmp))) return 0;
      } else if (jr_is(k, kn, "children")) {
        if (!jr_arr(r)) return 0;
        while (jr_more(r, NULL, NULL)) {
          if (!ing_u32(r, &kid)) return 0;
          ZC_GROW(g->kids, g->capkids, nk + 1);
          kids = g->kids;
          kids[nk++] = kid;
        }
      } else if (!jr_skip(r)) {
        return 0;
      }
    }
    if (r->err) return 0;
    if (!has_id) {
      r->err = r->p;
      return 0;
    }
    struct pnode *n = prof_add(p, id);
    if (has_cf) {
      n->name = tmp.name;
      n->url = tmp.url;
      n->line = tmp.line;
      n->col = tmp.col;
      n->kind = (uint8_t)ing_kind(g, n->name);
    }
    if (tmp.parent) n->parent = tmp.parent;
    for (size_t i = 0; i < nk; i++)
      if (kids[i] != id) prof_add(p, kids[i])->parent = id;
  }
  return !r->err;
}

/* The old .cpuprofile format (Node <= 10, Chrome <= 57): "head", a tree
 * of nodes nested through "children", with the call frame's fields in the
 * node itself and 1-based lines (DevTools' CPUProfileDataModel converts
 * it the same way). V8 keeps at most 255 frames a sample, so a tree deeper
 * than ING_HEAD_DEPTH is not a profile. Returns the node's id, 0 on error
 * (r->err set). */
#define ING_HEAD_DEPTH 2048
static uint32_t ing_head(struct ing *g, struct prof *p, struct jr *r,
                         uint32_t parent, int depth) {
  const char *k, *s;
  size_t kn, sn;
  double d;
  struct pnode tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.line = tmp.col = -1;
  uint32_t id = 0, nk = 0, *kids = NULL;
  int has_cf = 0, line1 = -1, col1 = -1;
  if (depth > ING_HEAD_DEPTH) {
    r->err = r->p;
    return 0;
  }
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "id")) {
      if (!ing_u32(r, &id)) goto bad;
    } else if (jr_is(k, kn, "callFrame")) {
      if (!(has_cf = ing_callframe(g, r, &tmp))) goto bad;
    } else if (jr_is(k, kn, "functionName") && jr_str(r, &s, &sn)) {
      tmp.name = ana_intern(g->ctx, s, sn);
    } else if (jr_is(k, kn, "url") && jr_str(r, &s, &sn)) {
      tmp.url = ana_intern(g->ctx, s, sn);
    } else if (jr_is(k, kn, "lineNumber") && jr_num(r, &d)) {
      line1 = d >= 1 && d < 2e9 ? (int32_t)d - 1 : -1;
    } else if (jr_is(k, kn, "columnNumber") && jr_num(r, &d)) {
      col1 = d >= 1 && d < 2e9 ? (int32_t)d - 1 : -1;
    } else if (jr_is(k, kn, "children")) {
      /* A child's parent is this node, whose id may come later. */
      if (!jr_arr(r)) goto bad;
      while (jr_more(r, NULL, NULL)) {
        uint32_t kid = ing_head(g, p, r, 0, depth + 1);
        if (!kid) goto bad;
        kids = zc_xreallocarray(kids, (size_t)nk + 1, sizeof *kids);
        kids[nk++] = kid;
      }
    } else if (!jr_skip(r)) {
      goto bad;
    }
  }
  if (r->err || !id) {
    if (!r->err) r->err = r->p;
    goto bad;
  }
  struct pnode *n = prof_add(p, id);
  if (!has_cf) tmp.line = line1, tmp.col = col1;
  n->name = tmp.name;
  n->url = tmp.url;
  n->line = tmp.line;
  n->col = tmp.col;
  n->kind = (uint8_t)ing_kind(g, n->name);
  if (parent) n->parent = parent;
  for (uint32_t i = 0; i < nk; i++)
    if (kids[i] != id) prof_add(p, kids[i])->parent = id;
  free(kids);
  return id;
bad:
  free(kids);
  return 0;
}

/* An array of times in µs (the old format's "timestamps") into v. */
static int ing_times(struct jr *r, int64_t **v, size_t *n, size_t *cap) {
  *n = 0;
  if (!jr_arr(r)) return 0;
  while (jr_more(r, NULL, NULL)) {
    double d;
    int64_t t;
    if (!jr_num(r, &d)) return 0;
    if (!ing_time(d, &t)) {
      r->err = r->p;
      return 0;
    }
    ZC_GROW(*v, *cap, *n + 1);
    (*v)[(*n)++] = t;
  }
  return !r->err;
}

/* An array of integers (sample ids or time deltas) into v. */
static int ing_ints(struct jr *r, int32_t **v, size_t *n, size_t *cap) {
  *n = 0;
  if (!jr_arr(r)) return 0;
  while (jr_more(r, NULL, NULL)) {
    double d;
    if (!jr_num(r, &d)) return 0;
    if (d > 2147483647.0 || d < -2147483648.0) {
      r->err = r->p;
      return 0;
    }
    ZC_GROW(*v, *cap, *n + 1);
    (*v)[(*n)++] = (int32_t)d;
  }
  return !r->err;
}

/* Appends the pending sample ids and deltas to p, pairwise. */
static enum zc_err ing_flush_samples(struct ing *g, struct prof *p,
                                     uint64_t off) {
  size_t n = g->nsid < g->ndt ? g->nsid : g->ndt;
  if (g->nsid != g->ndt)
    zc_log(2, "%s: byte %llu: %zu samples but %zu time deltas; using %zu",
           g->path, (unsigned long long)off, g->nsid, g->ndt, n);
  ZC_GROW(p->sid, p->capsamp, p->nsamp + n);
  p->sdt = zc_xreallocarray(p->sdt, p->capsamp, sizeof *p->sdt);
  for (size_t i = 0; i < n; i++) {
    if (g->sid[i] < 0)
      return zc_fail(ZC_E_PARSE,
                     "%s: byte %llu: sample %zu is not a node "
                     "id",
                     g->path, (unsigned long long)off, i);
    p->sid[p->nsamp] = (uint32_t)g->sid[i];
    p->sdt[p->nsamp++] = g->dt[i];
  }
  g->nsid = g->ndt = 0;
  return ZC_OK;
}

/* Walks obj to the value of key (one level); 1 with the cursor there. */
static int ing_find(struct jr *r, const char *key) {
  const char *k;
  size_t kn;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, key)) return 1;
    if (!jr_skip(r)) return 0;
  }
  return 0;
}

/* A profile's "source" string (Profile and ProfileChunk events). */
static int ing_source(struct jr *r, struct prof *p) {
  const char *s;
  size_t n;
  if (!jr_str(r, &s, &n)) return 0;
  p->source = jr_is(s, n, "Internal")    ? PS_INTERNAL
              : jr_is(s, n, "Inspector") ? PS_INSPECTOR
                                         : PS_OTHER;
  return 1;
}

/* args.data of a ProfileChunk: {cpuProfile: {nodes, samples}, timeDeltas,
 * endTime?}. */
static int ing_chunk_data(struct ing *g, struct prof *p, struct jr *r) {
  const char *k;
  size_t kn;
  double t;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "cpuProfile")) {
      if (!jr_obj(r)) return 0;
      while (jr_more(r, &k, &kn)) {
        if (jr_is(k, kn, "nodes")) {
          if (!ing_nodes(g, p, r)) return 0;
        } else if (jr_is(k, kn, "samples")) {
          if (!ing_ints(r, &g->sid, &g->nsid, &g->capsid)) return 0;
        } else if (jr_is(k, kn, "endTime")) {
          if (!jr_num(r, &t)) return 0;
          if (ing_time(t, &p->end_us)) p->has_end = 1;
        } else if (!jr_skip(r)) {
          return 0;
        }
      }
    } else if (jr_is(k, kn, "timeDeltas")) {
      if (!ing_ints(r, &g->dt, &g->ndt, &g->capdt)) return 0;
    } else if (jr_is(k, kn, "endTime")) {
      if (!jr_num(r, &t)) return 0;
      if (ing_time(t, &p->end_us)) p->has_end = 1;
    } else if (jr_is(k, kn, "source") && jr_peek(r) == '"') {
      if (!ing_source(r, p)) return 0;
    } else if (!jr_skip(r)) {
      return 0;
    }
  }
  return !r->err;
}

/* args.data of a Profile event: startTime and source. */
static int ing_profile_data(struct prof *p, struct jr *r) {
  const char *k;
  size_t kn;
  double t;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "startTime") && jr_peek(r) != '"') {
      if (!jr_num(r, &t)) return 0;
      if (ing_time(t, &p->dstart_us)) p->has_dstart = 1;
    } else if (jr_is(k, kn, "source") && jr_peek(r) == '"') {
      if (!ing_source(r, p)) return 0;
    } else if (!jr_skip(r)) {
      return 0;
    }
  }
  return !r->err;
}

/* args.data.cpuProfile of a CpuProfile event (Chrome <= 66): the whole
 * profile at once, {nodes, samples, timeDeltas, startTime, endTime}, its
 * times in the trace's clock. */
static int ing_whole_profile(struct ing *g, struct prof *p, struct jr *r) {
  const char *k;
  size_t kn;
  double t;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "nodes")) {
      if (!ing_nodes(g, p, r)) return 0;
    } else if (jr_is(k, kn, "samples")) {
      if (!ing_ints(r, &g->sid, &g->nsid, &g->capsid)) return 0;
    } else if (jr_is(k, kn, "timeDeltas")) {
      if (!ing_ints(r, &g->dt, &g->ndt, &g->capdt)) return 0;
    } else if (jr_is(k, kn, "startTime")) {
      if (!jr_num(r, &t)) return 0;
      if (ing_time(t, &p->dstart_us)) {
        p->has_dstart = p->has_start = 1;
        p->start_us = p->dstart_us;
      }
    } else if (jr_is(k, kn, "endTime")) {
      if (!jr_num(r, &t)) return 0;
      if (ing_time(t, &p->end_us)) p->has_end = 1;
    } else if (!jr_skip(r)) {
      return 0;
    }
  }
  return !r->err;
}

/* Notes what a process (a renderer's frame) or a worker thread is. A main
 * frame's URL wins over a subframe's, and a later commit of a main frame
 * over an earlier one; blank pages say nothing. */
static void ing_place_add(struct place **v, size_t *n, size_t *cap, int64_t pid,
                          int64_t tid, uint32_t url, int main) {
  for (size_t i = 0; i < *n; i++) {
    struct place *pl = &(*v)[i];
    if (pl->pid != pid || pl->tid != tid) continue;
    if (main) pl->url = url, pl->main = 1;
    return;
  }
  ZC_GROW(*v, *cap, *n + 1);
  (*v)[(*n)++] = (struct place){pid, tid, url, main};
}

/* A frame object of TracingStartedInBrowser/InPage or the data of
 * FrameCommittedInBrowser: {frame, url, processId?, parent?,
 * isOutermostMainFrame?}; pid is the event's, for frames without a
 * processId. */
static int ing_frame(struct ing *g, struct jr *r, int64_t pid) {
  const char *k, *s;
  size_t kn, sn;
  double d;
  uint32_t url = 0;
  int parent = 0, outer = -1;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "url") && jr_peek(r) == '"') {
      if (!jr_str(r, &s, &sn)) return 0;
      if (sn && !(sn >= 6 && !memcmp(s, "about:", 6)))
        url = ana_intern(g->ctx, s, sn);
    } else if (jr_is(k, kn, "processId") && jr_peek(r) != '"') {
      if (!jr_num(r, &d)) return 0;
      if (d > -9e18 && d < 9e18) pid = (int64_t)d;
    } else if (jr_is(k, kn, "parent")) {
      parent = jr_peek(r) != 'n'; /* null: none */
      if (!jr_skip(r)) return 0;
    } else if (jr_is(k, kn, "isOutermostMainFrame") ||
               jr_is(k, kn, "isMainFrame")) {
      outer = jr_peek(r) == 't';
      if (!jr_skip(r)) return 0;
    } else if (!jr_skip(r)) {
      return 0;
    }
  }
  if (r->err) return 0;
  if (url)
    ing_place_add(&g->frames, &g->nframes, &g->capframes, pid, 0, url,
                  outer >= 0 ? outer : !parent);
  return 1;
}

/* The events that say what a process or a thread is. */
static void ing_meta_event(struct ing *g, struct jr *r, const char *name,
                           int64_t pid) {
  const char *k, *s;
  size_t kn, sn;
  if (!ing_find(r, "data")) return;
  if (!strcmp(name, "FrameCommittedInBrowser") || !strcmp(name, "CommitLoad")) {
    ing_frame(g, r, pid);
    return;
  }
  if (!strcmp(name, "TracingSessionIdForWorker")) {
    double tid = -1;
    uint32_t url = 0;
    if (!jr_obj(r)) return;
    while (jr_more(r, &k, &kn)) {
      if (jr_is(k, kn, "url") && jr_peek(r) == '"' && jr_str(r, &s, &sn))
        url = sn ? ana_intern(g->ctx, s, sn) : 0;
      else if (jr_is(k, kn, "workerThreadId") && jr_peek(r) != '"')
        jr_num(r, &tid);
      else if (!jr_skip(r))
        return;
    }
    if (url && tid >= 0 && tid < 9e18)
      ing_place_add(&g->workers, &g->nworkers, &g->capworkers, pid,
                    (int64_t)tid, url, 1);
    return;
  }
  /* TracingStartedInBrowser, TracingStartedInPage: {frames: [...]} */
  if (!ing_find(r, "frames") || !jr_arr(r)) return;
  while (jr_more(r, NULL, NULL))
    if (!ing_frame(g, r, pid)) return;
}

static void ing_thread_name(struct ing *g, int64_t pid, int64_t tid,
                            const char *name, size_t n) {
  uint32_t id = ana_intern(g->ctx, name, n);
  for (size_t i = 0; i < g->nthr; i++)
    if (g->thr[i].pid == pid && g->thr[i].tid == tid) {
      g->thr[i].name = id;
      return;
    }
  ZC_GROW(g->thr, g->capthr, g->nthr + 1);
  g->thr[g->nthr++] = (struct thr){pid, tid, id};
}

static void ing_copy(char *dst, size_t cap, const char *s, size_t n) {
  if (n >= cap) n = cap - 1;
  memcpy(dst, s, n);
  dst[n] = '\0';
}

/* Keeps what the figures need of a task, a layout or a mark. Tasks of
 * 50 ms or less are not kept: only long ones count. */
static void ing_figure_event(struct ing *g, char ph, const char *name,
                             int64_t pid, int64_t tid, double ts, double dur) {
  /* Bounded so that ts + dur cannot overflow. */
  if (!(ts > -4e18 && ts < 4e18)) return;
  struct fev f = {pid, tid, (int64_t)ts, 0, EV_MARK, 0, ""};
  if (ph == 'X') {
    if (!(dur >= 0 && dur < 4e18)) return;
    f.dur = (int64_t)dur;
    f.what = strcmp(name, "RunTask") ? EV_LAYOUT : EV_TASK;
    if (f.what == EV_TASK && f.dur <= 50000) return;
  } else if (!strcmp(name, "zamcap:end")) {
    f.step = 0;
  } else {
    unsigned step;
    int at = 0;
    if (sscanf(name, "zamcap:step:%u:%n", &step, &at) != 1 || !at || !step)
      return;
    f.step = step;
    ing_copy(f.type, sizeof f.type, name + at, strlen(name + at));
  }
  ZC_GROW(g->fev, g->capfev, g->nfev + 1);
  g->fev[g->nfev++] = f;
}

/* A number, or a string that holds one: some tools write "pid": "7512". */
static int ing_numish(struct jr *r, double *d) {
  if (jr_peek(r) != '"') return jr_num(r, d);
  const char *s;
  size_t n;
  char b[40], *end;
  if (!jr_str(r, &s, &n)) return 0;
  ing_copy(b, sizeof b, s, n);
  *d = strtod(b, &end);
  return end != b && !*end;
}

static int ing_is_meta(const char *name) {
  return !strcmp(name, "TracingStartedInBrowser") ||
         !strcmp(name, "CommitLoad") || !strcmp(name, "TracingStartedInPage") ||
         !strcmp(name, "FrameCommittedInBrowser") ||
         !strcmp(name, "TracingSessionIdForWorker");
}

static enum zc_err ing_event(struct ing *g, const struct val *v) {
  uint64_t off = g->base + v->s;
  const char *text = g->buf + v->s;
  struct jr r;
  jr_init(&r, text, v->e - v->s);
  char ph[4] = "", name[64] = "", id[48] = "";
  double pid = 0, tid = 0, ts = 0, dur = -1;
  int has_ts = 0;
  const char *args = NULL, *k, *s;
  size_t kn, sn;
  enum zc_err e = ZC_OK;
  /* The top level first: "args" usually comes before "name" (keys are
   * sorted), so it is noted and read once the event's kind is known. */
  if (jr_obj(&r)) {
    while (jr_more(&r, &k, &kn)) {
      if (jr_is(k, kn, "ph") && jr_str(&r, &s, &sn))
        ing_copy(ph, sizeof ph, s, sn);
      else if (jr_is(k, kn, "name") && jr_str(&r, &s, &sn))
        ing_copy(name, sizeof name, s, sn);
      else if (jr_is(k, kn, "pid"))
        ing_numish(&r, &pid);
      else if (jr_is(k, kn, "tid"))
        ing_numish(&r, &tid);
      else if (jr_is(k, kn, "ts"))
        has_ts = ing_numish(&r, &ts);
      else if (jr_is(k, kn, "dur"))
        ing_numish(&r, &dur);
      else if (jr_is(k, kn, "id")) {
        if (jr_peek(&r) == '"' && jr_str(&r, &s, &sn))
          ing_copy(id, sizeof id, s, sn);
        else {
          double d = 0;
          jr_num(&r, &d);
          snprintf(id, sizeof id, "#%.0f", d);
        }
      } else {
        if (jr_is(k, kn, "args")) args = r.p;
        jr_skip(&r);
      }
    }
  }
  if (r.err) goto bad;
  g->parsed++;
  int64_t ipid = pid > -9e18 && pid < 9e18 ? (int64_t)pid : 0;
  int64_t itid = tid > -9e18 && tid < 9e18 ? (int64_t)tid : 0;
  if (!strcmp(name, "CpuProfile")) {
    /* Chrome <= 66: one event, the whole profile (ph I or P; the DevTools
     * engine's own CPU profiles as X). Each is a profile of its own. */
    char pn[48];
    snprintf(pn, sizeof pn, "CpuProfile#%u", g->ncpuprofile_events++);
    struct prof *p = ing_prof(g, ipid, pn);
    p->tid = itid;
    p->has_tid = 1;
    g->nsid = g->ndt = 0;
    if (args) {
      r.p = args;
      if (ing_find(&r, "data") && ing_find(&r, "cpuProfile"))
        ing_whole_profile(g, p, &r);
      if (r.err) goto bad;
    }
    e = ing_flush_samples(g, p, off);
    goto out;
  }
  if (ph[0] != 'P' && ph[0] != 'M') {
    if (args && ing_is_meta(name)) {
      r.p = args;
      ing_meta_event(g, &r, name, ipid);
      r.err = NULL; /* what the frames are is a label, not data */
      goto out;
    }
    ing_figure_event(g, ph[0], name, ipid, itid, has_ts ? ts : NAN, dur);
    goto out;
  }
  if (!args) goto out;
  r.p = args;
  if (!strcmp(ph, "M") && !strcmp(name, "thread_name")) {
    if (ing_find(&r, "name") && jr_str(&r, &s, &sn))
      ing_thread_name(g, ipid, itid, s, sn);
  } else if (!strcmp(ph, "P") && !strcmp(name, "Profile")) {
    struct prof *p = ing_prof(g, ipid, id);
    p->tid = itid;
    p->has_tid = 1;
    /* The event's ts is in the trace's clock, as every other event;
     * startTime is V8's (DevTools' engine takes ts for the same reason). */
    if (has_ts && ing_time(ts, &p->start_us)) p->has_start = 1;
    if (ing_find(&r, "data")) ing_profile_data(p, &r);
    if (!p->has_start && p->has_dstart)
      p->start_us = p->dstart_us, p->has_start = 1;
    r.err = NULL; /* a Profile without startTime is not malformed */
  } else if (!strcmp(ph, "P") && !strcmp(name, "ProfileChunk")) {
    struct prof *p = ing_prof(g, ipid, id);
    g->nsid = g->ndt = 0;
    if (ing_find(&r, "data")) ing_chunk_data(g, p, &r);
    if (r.err) goto bad;
    e = ing_flush_samples(g, p, off);
  }
  if (r.err) goto bad;
out:
  jr_done(&r);
  return e;
bad:
  jr_done(&r);
  if (r.toobig)
    return zc_fail(ZC_E_TOOBIG,
                   "%s: byte %llu: a string over %zu MiB in "
                   "one event",
                   g->path,
                   (unsigned long long)(off + (uint64_t)(r.err - text)),
                   ana__jr_strmax >> 20);
  return zc_fail(ZC_E_PARSE,
                 "%s: byte %llu: malformed event (bad JSON or "
                 "an unexpected value at byte %llu)",
                 g->path, (unsigned long long)off,
                 (unsigned long long)(off + (uint64_t)(r.err - text)));
}

/* Does the string at s (inside an event ending at e) read lit" ? */
static int ing_lit(const char *s, const char *e, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(e - s) > n && !memcmp(s, lit, n) && s[n] == '"';
}

/* Is this event one we parse? Decided from the raw "ph" and "name". */
static int ing_wanted(const struct ing *g, const struct val *v) {
  if (v->ph == ING_NOOFF) return 0;
  const char *p = g->buf + v->s + v->ph, *e = g->buf + v->e;
  if (p[1] != '"') return 0;
  if (p[0] == 'P' || p[0] == 'M') return 1;
  if (v->name == ING_NOOFF) return 0;
  const char *n = g->buf + v->s + v->name;
  if (n[0] == 'C' &&
      (ing_lit(n, e, "CpuProfile") || ing_lit(n, e, "CommitLoad")))
    return 1;
  if (p[0] == 'X')
    return ing_lit(n, e, "RunTask") || ing_lit(n, e, "Layout") ||
           ing_lit(n, e, "UpdateLayoutTree");
  if (n[0] == 'T')
    return ing_lit(n, e, "TracingStartedInBrowser") ||
           ing_lit(n, e, "TracingStartedInPage") ||
           ing_lit(n, e, "TracingSessionIdForWorker");
  if (n[0] == 'F') return ing_lit(n, e, "FrameCommittedInBrowser");
  if (p[0] == 'I' || p[0] == 'R')
    return (size_t)(e - n) > 7 && !memcmp(n, "zamcap:", 7);
  return 0;
}

static enum zc_err ing_events(struct ing *g, int bare) {
  enum zc_err e;
  int c;
  g->pos++; /* '[' */
  if ((e = ing_peek(g, &c))) return e;
  if (c == ']') {
    g->pos++;
    return ZC_OK;
  }
  for (;;) {
    if (c != '{') {
      if (c < 0 && bare) return ZC_OK; /* "[ev," then EOF: allowed */
      if (c < 0)
        return zc_fail(ZC_E_PARSE,
                       "%s: truncated: the event array is not "
                       "closed (the data ends at byte %llu)",
                       g->path, (unsigned long long)(g->base + g->len));
      return zc_fail(ZC_E_PARSE,
                     "%s: byte %llu: expected a trace event "
                     "object, found '%c'",
                     g->path, (unsigned long long)(g->base + g->pos), c);
    }
    struct val v;
    if ((e = ing_value(g, &v))) return e;
    g->events++;
    if (ing_wanted(g, &v) && (e = ing_event(g, &v))) return e;
    if ((e = ing_peek(g, &c))) return e;
    if (c == ']') {
      g->pos++;
      return ZC_OK;
    }
    if (c < 0 && bare) {
      /* The JSON Array Format lets a writer that died leave out the ']'. */
      zc_log(2, "%s: the event array has no closing ']' (allowed)", g->path);
      return ZC_OK;
    }
    if (c != ',') {
      if (c < 0)
        return zc_fail(ZC_E_PARSE,
                       "%s: truncated: the event array is not "
                       "closed (the data ends at byte %llu)",
                       g->path, (unsigned long long)(g->base + g->len));
      return zc_fail(ZC_E_PARSE,
                     "%s: byte %llu: expected ',' or ']' after "
                     "an event, found '%c'",
                     g->path, (unsigned long long)(g->base + g->pos), c);
    }
    g->pos++;
    if ((e = ing_peek(g, &c))) return e;
    if (c == ']') { /* a trailing comma: tolerated */
      g->pos++;
      return ZC_OK;
    }
  }
}

static int ing_keyis(const struct ing *g, const struct val *k, const char *s) {
  size_t n = strlen(s);
  return k->e - k->s == n + 2 && memcmp(g->buf + k->s + 1, s, n) == 0;
}

/* One top-level field of a .cpuprofile: 0 nodes, 1 samples, 2 timeDeltas,
 * 3 startTime, 4 endTime, 5 head, 6 timestamps. */
static enum zc_err ing_cpuprofile_field(struct ing *g, int f,
                                        const struct val *v) {
  struct jr r;
  jr_init(&r, g->buf + v->s, v->e - v->s);
  if (f == 1) {
    /* Samples that are objects are another tool's (a heap profile's
     * allocations, a trace-event file's own stack samples): noted, so
     * that the message can say what the file holds. */
    jr_arr(&r);
    if (jr_more(&r, NULL, NULL) && jr_peek(&r) == '{') {
      g->other_samples = 1;
      jr_done(&r);
      return ZC_OK;
    }
    jr_init(&r, g->buf + v->s, v->e - v->s);
  }
  if (!g->cpuprofile) g->cpuprofile = ing_prof(g, 0, "cpuprofile");
  struct prof *p = g->cpuprofile;
  double t;
  if (f == 0)
    ing_nodes(g, p, &r);
  else if (f == 1)
    ing_ints(&r, &g->sid, &g->nsid, &g->capsid);
  else if (f == 2)
    ing_ints(&r, &g->dt, &g->ndt, &g->capdt);
  else if (f == 5)
    g->cp_head = ing_head(g, p, &r, 0, 0) != 0;
  else if (f == 6)
    ing_times(&r, &g->cp_ts, &g->ncp_ts, &g->capcp_ts);
  else if (jr_num(&r, &t) && f == 3)
    g->cp_start = t, g->cp_has_start = 1;
  else if (!r.err)
    g->cp_end = t, g->cp_has_end = 1;
  const char *at = r.err;
  jr_done(&r);
  if (at && r.toobig)
    return zc_fail(ZC_E_TOOBIG,
                   "%s: byte %llu: a string over %zu MiB in a "
                   "CPU profile field",
                   g->path,
                   (unsigned long long)(g->base + (uint64_t)(at - g->buf)),
                   ana__jr_strmax >> 20);
  if (at)
    return zc_fail(ZC_E_PARSE,
                   "%s: byte %llu: malformed CPU profile field "
                   "(bad JSON or an unexpected value at byte %llu)",
                   g->path, (unsigned long long)(g->base + v->s),
                   (unsigned long long)(g->base + (uint64_t)(at - g->buf)));
  g->parsed++;
  return ZC_OK;
}

/* A DevTools export's metadata: its "sourceMaps" ([{url, sourceMapUrl,
 * sourceMap}], written when the export includes scripts and maps) are
 * kept; the rest is not read. A malformed entry is skipped. */
static void ing_metadata(struct ing *g, const struct val *v) {
  struct jr r;
  jr_init(&r, g->buf + v->s, v->e - v->s);
  const char *k, *s;
  size_t kn, sn;
  if (jr_obj(&r))
    while (jr_more(&r, &k, &kn)) {
      if (!jr_is(k, kn, "sourceMaps") || jr_peek(&r) != '[') {
        jr_skip(&r);
        continue;
      }
      jr_arr(&r);
      while (jr_more(&r, NULL, NULL) && jr_obj(&r)) {
        struct ana_embedded_map em = {NULL, NULL, NULL, 0};
        while (jr_more(&r, &k, &kn)) {
          if (jr_is(k, kn, "sourceMap") && jr_peek(&r) == '{') {
            const char *b = r.p;
            if (jr_skip(&r)) {
              free(em.map);
              em.map = zc_xstrndup(b, (size_t)(r.p - b));
              em.mapn = (size_t)(r.p - b);
            }
          } else if ((jr_is(k, kn, "url") || jr_is(k, kn, "sourceMapUrl")) &&
                     jr_peek(&r) == '"' && jr_str(&r, &s, &sn)) {
            char **dst = jr_is(k, kn, "url") ? &em.url : &em.map_url;
            free(*dst);
            *dst = zc_xstrndup(s, sn);
          } else {
            jr_skip(&r);
          }
        }
        if (em.url && em.map && !r.err) {
          ZC_GROW(g->emb, g->capemb, (size_t)g->nemb + 1);
          g->emb[g->nemb++] = em;
        } else {
          free(em.url);
          free(em.map_url);
          free(em.map);
        }
      }
    }
  jr_done(&r);
}

/* A top-level object: {"traceEvents": [...], ...} or a .cpuprofile. */
static enum zc_err ing_object(struct ing *g) {
  enum zc_err e;
  int c;
  g->pos++; /* '{' */
  for (int first = 1;; first = 0) {
    if ((e = ing_peek(g, &c))) return e;
    if (c == '}' && first) break;
    if (c != '"') goto bad;
    struct val k;
    if ((e = ing_value(g, &k))) return e;
    int is_events = ing_keyis(g, &k, "traceEvents");
    int is_meta = ing_keyis(g, &k, "metadata");
    const char *cpk[] = {"nodes",   "samples", "timeDeltas", "startTime",
                         "endTime", "head",    "timestamps"};
    int cpf = -1;
    for (int i = 0; i < 7; i++)
      if (ing_keyis(g, &k, cpk[i])) cpf = i;
    if ((e = ing_peek(g, &c))) return e;
    if (c != ':') goto bad;
    g->pos++;
    if ((e = ing_peek(g, &c))) return e;
    if (c < 0) goto bad;
    if (is_events && c == '[') {
      if ((e = ing_events(g, 0))) return e;
    } else {
      struct val v;
      if ((e = ing_value(g, &v))) return e;
      if (cpf >= 0 && (e = ing_cpuprofile_field(g, cpf, &v))) return e;
      if (is_meta && c == '{') ing_metadata(g, &v);
    }
    if ((e = ing_peek(g, &c))) return e;
    if (c == '}') break;
    if (c != ',') goto bad;
    g->pos++;
  }
  g->pos++;
  return ZC_OK;
bad:
  if (c < 0)
    return zc_fail(ZC_E_PARSE,
                   "%s: truncated: the top-level object is not "
                   "closed (the data ends at byte %llu)",
                   g->path, (unsigned long long)(g->base + g->len));
  return zc_fail(ZC_E_PARSE,
                 "%s: byte %llu: unexpected '%c' in the "
                 "top-level object",
                 g->path, (unsigned long long)(g->base + g->pos), c);
}

/* ---- from profiles to the timeline ---- */

static uint32_t ing_thread_of(struct ing *g, const struct prof *p) {
  for (size_t i = 0; i < g->nthr; i++)
    if (g->thr[i].pid == p->pid && g->thr[i].tid == p->tid)
      return g->thr[i].name;
  char b[64];
  if (!p->has_tid)
    snprintf(b, sizeof b, "main");
  else
    snprintf(b, sizeof b, "thread %lld", (long long)p->tid);
  return ana_intern(g->ctx, b, strlen(b));
}

/* Places a profile node (and any unplaced ancestors) in the timeline. */
static uint32_t ing_place(struct ana_timeline *tl, struct prof *p,
                          struct pnode *n, uint32_t thread, uint32_t **stk,
                          size_t *cap) {
  size_t sp = 0;
  /* Walk up to a placed ancestor. A node with no parent is under the
   * thread; one whose parent is named but missing, or in a cycle, is
   * dropped with its samples, as DevTools' engine drops it. The walk is
   * bounded by the node count. */
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
    if (n->parent && !up) broken = 1;
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

/* A worker thread is named by its script (DESIGN.md): the URL of its
 * TracingSessionIdForWorker event when the trace has one, else the
 * component of the first top-level function, in V8's order of discovery,
 * with a URL. */
static uint32_t ing_worker_name(struct ing *g, const struct prof *p,
                                uint32_t name) {
  const char *tn = ana_str(g->ctx, name);
  if (!strstr(tn, "Worker")) return name;
  uint32_t url = 0;
  for (size_t i = 0; i < g->nworkers && !url; i++)
    if (g->workers[i].pid == p->pid && g->workers[i].tid == p->tid)
      url = g->workers[i].url;
  for (size_t i = 0; i < p->nnodes && !url; i++) {
    const struct pnode *n = &p->nodes[i];
    const struct pnode *up = n->parent ? prof_find(p, n->parent) : NULL;
    if (n->url && up && up->kind == ANA_ROOT) url = n->url;
  }
  if (!url) return name;
  const char *u = ana_str(g->ctx, url);
  char comp[1024], b[1200];
  ana_component(u, strlen(u), comp, sizeof comp);
  snprintf(b, sizeof b, "%s %s", tn, comp);
  return ana_intern(g->ctx, b, strlen(b));
}

/* The scheme and host of the frame a process renders ("http://a.test"),
 * or 0. Not the port: zamcap serves the old and the new build on ports of
 * their own, and their threads must match. */
static uint32_t ing_origin(struct ing *g, int64_t pid) {
  for (size_t i = 0; i < g->nframes; i++) {
    if (g->frames[i].pid != pid) continue;
    const char *u = ana_str(g->ctx, g->frames[i].url);
    const char *h = strstr(u, "://");
    if (!h) return ana_intern(g->ctx, u, strcspn(u, "/?#"));
    h += 3;
    size_t n = strcspn(h, "/?#");
    const char *at = memchr(h, '@', n); /* user:password@ */
    if (at) n -= (size_t)(at + 1 - h), h = at + 1;
    const char *colon = h[0] == '[' ? memchr(h, ']', n) : h;
    colon = colon ? memchr(colon, ':', n - (size_t)(colon - h)) : NULL;
    if (colon) n = (size_t)(colon - h);
    char b[600];
    snprintf(b, sizeof b, "%.*s%.*s", (int)(strstr(u, "://") + 3 - u), u,
             (int)(n < 500 ? n : 500), h);
    return ana_intern(g->ctx, b, strlen(b));
  }
  return 0;
}

/* How likely a process is the page's: a web page's renderer (2) before
 * one of unknown frames (1) before Chrome's own pages (0: the omnibox
 * popup, DevTools, extensions), which can be busier than the page. */
static int ing_rank(struct ing *g, int64_t pid) {
  uint32_t o = ing_origin(g, pid);
  if (!o) return 1;
  const char *u = ana_str(g->ctx, o);
  return !strncmp(u, "http://", 7) || !strncmp(u, "https://", 8) ||
                 !strncmp(u, "file://", 7)
             ? 2
             : 0;
}

/* Samples of work (neither idle nor the root), to find the busiest of
 * threads that share a name. */
static size_t ing_busy(const struct prof *p) {
  size_t n = 0;
  uint32_t last_id = 0;
  const struct pnode *last = NULL;
  for (size_t i = 0; i < p->nsamp; i++) {
    const struct pnode *nd =
        last && p->sid[i] == last_id ? last : prof_find(p, p->sid[i]);
    last_id = p->sid[i];
    last = nd;
    n += nd && nd->kind != ANA_IDLE && nd->kind != ANA_ROOT;
  }
  return n;
}

static int ing_built(const struct prof *p) {
  return p->nsamp && !p->left_out;
}

/* Labels every thread that gets a node: its name (a worker's with its
 * script). Where threads share a name, the page's (the one with zamcap's
 * step marks, else the busiest of those rendering web pages) keeps it,
 * and each other says what it is:
 * its renderer's frame origin, then its process id, then its thread id
 * ("CrRendererMain (http://b.test)", "CrRendererMain (pid 123)"). Old and
 * new threads are matched by these labels, so the page's main thread is
 * "CrRendererMain" whether or not the trace has other renderers. */
static void ing_labels(struct ing *g, int marks, int64_t mpid, int64_t mtid) {
  size_t n = g->nprof;
  uint32_t *base = zc_xcalloc(n ? n : 1, sizeof *base);
  uint8_t *parts = zc_xcalloc(n ? n : 1, 1), *dup = zc_xcalloc(n ? n : 1, 1);
  for (size_t i = 0; i < n; i++)
    if (ing_built(&g->prof[i]))
      g->prof[i].label = base[i] =
          ing_worker_name(g, &g->prof[i], ing_thread_of(g, &g->prof[i]));
  /* In each group of one name, the page's thread keeps it; the others are
   * marked (dup 1). seen: grouped already. */
  uint8_t *seen = zc_xcalloc(n ? n : 1, 1);
  for (size_t i = 0; i < n; i++) {
    if (!ing_built(&g->prof[i]) || seen[i]) continue;
    size_t keep = SIZE_MAX, members = 0, best = 0;
    for (size_t j = i; j < n; j++) {
      const struct prof *q = &g->prof[j];
      if (!ing_built(q) || base[j] != base[i]) continue;
      members++;
      seen[j] = 1;
      if (marks && q->pid == mpid && q->tid == mtid) keep = j;
    }
    if (members < 2) continue;
    int rank = -1;
    for (size_t j = i, by_marks = keep != SIZE_MAX; j < n && !by_marks; j++) {
      if (!ing_built(&g->prof[j]) || base[j] != base[i]) continue;
      int r = ing_rank(g, g->prof[j].pid);
      if (r < rank) continue;
      size_t b = ing_busy(&g->prof[j]);
      if (r > rank || b > best) best = b, keep = j, rank = r;
    }
    for (size_t j = i; j < n; j++)
      if (ing_built(&g->prof[j]) && base[j] == base[i] && j != keep) dup[j] = 1;
  }
  free(seen);
  /* Each round adds one part to the labels of the others still shared. */
  for (int round = 0; round < 3; round++) {
    for (size_t i = 0; i < n; i++) {
      struct prof *p = &g->prof[i];
      if (!dup[i]) continue;
      uint32_t o = ing_origin(g, p->pid);
      if (round == 0 && !o) continue;
      parts[i] |= (uint8_t)(1u << round);
      /* Bounded widths: b always holds the whole label. */
      char b[1400];
      int k = snprintf(b, sizeof b, "%.1000s (", ana_str(g->ctx, base[i]));
      const char *sep = "";
      if (parts[i] & 1) {
        k +=
            snprintf(b + k, sizeof b - (size_t)k, "%.200s", ana_str(g->ctx, o));
        sep = ", ";
      }
      if (parts[i] & 2) {
        k += snprintf(b + k, sizeof b - (size_t)k, "%spid %lld", sep,
                      (long long)p->pid);
        sep = ", ";
      }
      if (parts[i] & 4)
        k += snprintf(b + k, sizeof b - (size_t)k, "%stid %lld", sep,
                      (long long)p->tid);
      snprintf(b + k, sizeof b - (size_t)k, ")");
      p->label = ana_intern(g->ctx, b, strlen(b));
    }
    int any = 0;
    for (size_t i = 0; i < n; i++) {
      if (!dup[i]) continue;
      int k = 0;
      for (size_t j = 0; j < n && !k; j++)
        k = j != i && ing_built(&g->prof[j]) &&
            g->prof[j].label == g->prof[i].label;
      dup[i] = (uint8_t)k;
      any |= k;
    }
    if (!any) break;
  }
  free(base);
  free(parts);
  free(dup);
}

/* One profile per thread, as DevTools keeps: console.profile() during a
 * recording starts a second profile on the page's main thread, and adding
 * both would count its time twice. The recording's own ("Internal") is
 * kept, else the inspector's, else the first in the file. */
static void ing_choose(struct ing *g) {
  for (size_t i = 0; i < g->nprof; i++) {
    struct prof *p = &g->prof[i];
    if (!p->has_tid || p->left_out) continue;
    struct prof *keep = p;
    int n = 1;
    for (size_t j = i + 1; j < g->nprof; j++) {
      struct prof *q = &g->prof[j];
      if (!q->has_tid || q->pid != p->pid || q->tid != p->tid) continue;
      n++;
      if ((q->source == PS_INTERNAL && keep->source != PS_INTERNAL) ||
          (q->source == PS_INSPECTOR && keep->source != PS_INTERNAL &&
           keep->source != PS_INSPECTOR))
        keep = q;
    }
    if (n == 1) continue;
    for (size_t j = i; j < g->nprof; j++) {
      struct prof *q = &g->prof[j];
      if (q == keep || !q->has_tid || q->pid != p->pid || q->tid != p->tid)
        continue;
      q->left_out = 1;
      zc_log(1,
             "%s: thread %lld of process %lld has %d CPU profiles; kept "
             "%s%s (%zu samples), left out %s%s (%zu samples)",
             g->path, (long long)p->tid, (long long)p->pid, n, keep->id,
             keep->source == PS_INTERNAL    ? ", the recording's"
             : keep->source == PS_INSPECTOR ? ", console.profile()'s"
                                            : "",
             keep->nsamp, q->id,
             q->source == PS_INSPECTOR ? ", console.profile()'s" : "",
             q->nsamp);
    }
  }
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

static void ing_build(struct ing *g, struct prof *p, struct ana_timeline *tl) {
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
  int64_t tail = ing_tail(p, ts, order);
  uint32_t *sid = ing_fix_missing(p, order);
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
    if (ts[i] >= g->fig_t0) {
      if (n->kind == ANA_FUNC)
        p->script_us += dur;
      else if (n->kind == ANA_GC)
        p->gc_us += dur;
      if (n->kind != ANA_IDLE && n->kind != ANA_ROOT) p->busy_us += dur;
    }
    ana_tl_sample(tl, at, ts[i], dur);
  }
  if (sid != p->sid) free(sid);
  free(stk);
  free(order);
  free(ts);
}

/* ---- end-to-end figures ---- */

/* The window of the figures: from the first step mark on, on the marks'
 * thread. Called before the profiles are built. */
static void ing_fig_window(struct ing *g, int64_t *pid, int64_t *tid) {
  int found = 0;
  g->fig_t0 = INT64_MIN;
  for (size_t i = 0; i < g->nfev; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what != EV_MARK || !f->step) continue;
    if (!found) {
      *pid = f->pid, *tid = f->tid, g->fig_t0 = f->ts;
      found = 1;
    } else if (f->pid == *pid && f->tid == *tid && f->ts < g->fig_t0) {
      g->fig_t0 = f->ts;
    }
  }
}

static int ing_by_ts(const void *a, const void *b) {
  const struct fev *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return (x->dur > y->dur) - (x->dur < y->dur);
}

static int ing_is_renderer_main(struct ing *g, const struct prof *p) {
  for (size_t i = 0; i < g->nthr; i++)
    if (g->thr[i].pid == p->pid && g->thr[i].tid == p->tid)
      return !strcmp(ana_str(g->ctx, g->thr[i].name), "CrRendererMain");
  return 0;
}

/* Fills tl->fig once the profiles are built. The page's main thread is the
 * marks' thread; a trace without marks (saved from DevTools) gets the
 * busiest CrRendererMain, or the busiest profile. */
static void ing_figures(struct ing *g, struct ana_timeline *tl, int marks,
                        int64_t pid, int64_t tid) {
  struct ana_figures *fig = &tl->fig;
  const struct prof *main = NULL;
  for (size_t i = 0; i < g->nprof; i++) {
    const struct prof *p = &g->prof[i];
    if (p->left_out) continue;
    if (marks) {
      if (p->pid == pid && (!p->has_tid || p->tid == tid)) main = p;
      continue;
    }
    int rm = ing_is_renderer_main(g, p);
    int best = main ? ing_is_renderer_main(g, main) : -1;
    if (rm > best || (rm == best && p->busy_us > main->busy_us)) main = p;
  }
  if (!marks && main) pid = main->pid, tid = main->tid;
  if (main) {
    fig->scripting_ms = (double)main->script_us / 1e3;
    fig->gc_ms = (double)main->gc_us / 1e3;
  }
  if (!marks && !main) return; /* neither marks nor samples: no thread */
  /* Keep the main thread's events in the window, in time order. */
  size_t n = 0;
  for (size_t i = 0; i < g->nfev; i++) {
    struct fev *f = &g->fev[i];
    if (f->pid == pid && f->tid == tid && f->ts + f->dur >= g->fig_t0)
      g->fev[n++] = *f;
  }
  g->nfev = n;
  if (n) qsort(g->fev, n, sizeof *g->fev, ing_by_ts); /* fev may be NULL */
  double layout = 0, tasks = 0, blocking = 0;
  int64_t covered = INT64_MIN;
  int64_t first = INT64_MIN, end = INT64_MIN;
  for (size_t i = 0; i < n; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what == EV_TASK) {
      tasks++;
      blocking += (double)(f->dur - 50000);
    } else if (f->what == EV_LAYOUT) {
      /* Nested or overlapping events count once. */
      int64_t s = f->ts > covered ? f->ts : covered, e = f->ts + f->dur;
      if (e > s) layout += (double)(e - s);
      if (e > covered) covered = e;
    } else if (f->step) {
      if (first == INT64_MIN) first = f->ts;
      ZC_GROW(fig->steps, g->capsteps, fig->nsteps + 1);
      struct ana_step_time *st = &fig->steps[fig->nsteps++];
      st->step = f->step;
      memcpy(st->type, f->type, sizeof st->type);
      st->ms = NAN;
      for (size_t j = i + 1; j < n; j++)
        if (g->fev[j].what == EV_MARK) {
          st->ms = (double)(g->fev[j].ts - f->ts) / 1e3;
          break;
        }
    } else if (end == INT64_MIN) {
      end = f->ts;
    }
  }
  fig->marks = (int)fig->nsteps;
  if (first != INT64_MIN && end != INT64_MIN && end >= first)
    fig->scenario_ms = (double)(end - first) / 1e3;
  fig->style_layout_ms = layout / 1e3;
  fig->long_tasks = tasks;
  fig->blocking_ms = blocking / 1e3;
}

/* The end of a .cpuprofile: its times resolved, its samples added. The
 * old format ("head") gives startTime and endTime in seconds and each
 * sample's absolute time in "timestamps"; older still, no times at all,
 * and DevTools spreads the samples evenly from start to end. */
static enum zc_err ing_cpuprofile_done(struct ing *g) {
  struct prof *p = g->cpuprofile;
  double scale = g->cp_head ? 1e6 : 1;
  if (g->cp_has_start && ing_time(g->cp_start * scale, &p->start_us))
    p->has_start = p->has_dstart = 1, p->dstart_us = p->start_us;
  if (g->cp_has_end && ing_time(g->cp_end * scale, &p->end_us)) p->has_end = 1;
  if (!g->ndt && g->ncp_ts && g->ncp_ts == g->nsid + 1 && g->nsid) {
    /* One time more than samples: the last sample's end (DevTools reads
     * it so). */
    p->end_us = g->cp_ts[--g->ncp_ts];
    p->has_end = p->exact_end = 1;
  }
  if (!g->ndt && g->ncp_ts) {
    /* Deltas from the start; from the first sample if the start is in
     * another clock (or missing). */
    int64_t prev = p->has_start ? p->start_us : g->cp_ts[0];
    if (g->cp_ts[0] - prev < 0 || g->cp_ts[0] - prev > INT32_MAX)
      prev = g->cp_ts[0];
    p->start_us = p->dstart_us = prev;
    p->has_start = p->has_dstart = 1;
    for (size_t i = 0; i < g->ncp_ts; i++) {
      int64_t d = g->cp_ts[i] - prev;
      if (d < INT32_MIN || d > INT32_MAX)
        return zc_fail(ZC_E_PARSE,
                       "%s: sample %zu's timestamp is %.0f s "
                       "away from the one before",
                       g->path, i, (double)d / 1e6);
      ZC_GROW(g->dt, g->capdt, g->ndt + 1);
      g->dt[g->ndt++] = (int32_t)d;
      prev = g->cp_ts[i];
    }
  } else if (!g->ndt && g->nsid && p->has_start && p->has_end &&
             p->end_us > p->start_us) {
    int64_t step = (p->end_us - p->start_us) / (int64_t)g->nsid;
    if (step > INT32_MAX) step = 0;
    ZC_GROW(g->dt, g->capdt, g->nsid);
    for (size_t i = 0; i < g->nsid; i++)
      g->dt[i] = i ? (int32_t)step : 0;
    g->ndt = g->nsid;
    p->exact_end = 1; /* spread evenly up to the end, as DevTools does */
  }
  return ing_flush_samples(g, p, 0);
}

/* What a file without CPU samples holds, for the message that says it
 * has none. */
static char *ing_what(const struct ing *g) {
  char b[400];
  size_t nodes = 0;
  for (size_t i = 0; i < g->nprof; i++)
    nodes += g->prof[i].nnodes;
  if (g->other_samples)
    snprintf(b, sizeof b,
             "'samples' that are objects (a heap profile's "
             "allocations, or a trace-event file's own stack samples), not "
             "a V8 CPU profile's");
  else if (g->cpuprofile)
    snprintf(b, sizeof b, "a CPU profile with %zu node%s and no samples", nodes,
             nodes == 1 ? "" : "s");
  else if (g->nprof)
    snprintf(b, sizeof b,
             "%zu CPU profile%s with %zu node%s and no "
             "samples, in %llu trace events",
             g->nprof, g->nprof == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s",
             (unsigned long long)g->events);
  else if (g->events)
    snprintf(b, sizeof b,
             "%llu trace event%s and no CPU profile (record "
             "with the 'disabled-by-default-v8.cpu_profiler' category, as "
             "the DevTools Performance panel does)",
             (unsigned long long)g->events, g->events == 1 ? "" : "s");
  else
    snprintf(b, sizeof b, "no trace events and no CPU profile");
  return zc_xstrdup(b);
}

enum zc_err ana_load(struct ana_ctx *c, const char *path,
                     struct ana_timeline **out) {
  *out = NULL;
  if (!ing_cls['"']) ing_init_cls();
  struct ing g;
  memset(&g, 0, sizeof g);
  g.ctx = c;
  g.path = path;
  g.k_root = ana_intern(c, "(root)", 6);
  g.k_program = ana_intern(c, "(program)", 9);
  g.k_idle = ana_intern(c, "(idle)", 6);
  g.k_gc = ana_intern(c, "(garbage collector)", 19);
  g.gz = gzopen(path, "rb");
  if (!g.gz)
    return zc_fail(ZC_E_IO, "%s: cannot open: %s", path,
                   errno ? strerror(errno) : "out of memory");
  gzbuffer(g.gz, 256 * 1024);
  enum zc_err e;
  int ch;
  if ((e = ing_peek(&g, &ch))) goto out;
  /* A UTF-8 byte order mark is allowed before the JSON. A short first read
   * may hold only part of it. */
  size_t shift;
  while (ch == 0xEF && g.len - g.pos < 3 && !g.eof)
    if ((e = ing_more(&g, g.pos, &shift))) goto out;
  if (ch == 0xEF && g.len - g.pos >= 3 &&
      memcmp(g.buf + g.pos, "\xEF\xBB\xBF", 3) == 0) {
    g.pos += 3;
    if ((e = ing_peek(&g, &ch))) goto out;
  }
  if (ch == '[')
    e = ing_events(&g, 1);
  else if (ch == '{')
    e = ing_object(&g);
  else if (ch < 0)
    e = zc_fail(ZC_E_PARSE, "%s: empty file", path);
  else
    e = zc_fail(ZC_E_PARSE,
                "%s: byte %llu: not a Chrome trace or CPU "
                "profile (expected '[' or '{', found 0x%02x)",
                path, (unsigned long long)(g.base + g.pos), ch);
  if (e) goto out;
  if ((e = ing_peek(&g, &ch))) goto out;
  if (ch >= 0) {
    e = zc_fail(ZC_E_PARSE, "%s: byte %llu: data after the end of the JSON",
                path, (unsigned long long)(g.base + g.pos));
    goto out;
  }
  /* A .cpuprofile's samples and deltas come as two top-level arrays. */
  if (g.cpuprofile && (e = ing_cpuprofile_done(&g))) goto out;
  int64_t fpid = 0, ftid = 0;
  ing_fig_window(&g, &fpid, &ftid);
  ing_choose(&g);
  ing_labels(&g, g.fig_t0 != INT64_MIN, fpid, ftid);
  struct ana_timeline *tl = ana_tl_new(c, path);
  for (size_t i = 0; i < g.nprof; i++)
    if (ing_built(&g.prof[i])) ing_build(&g, &g.prof[i], tl);
  ana_tl_finish(tl);
  if (!tl->samples) tl->what = ing_what(&g);
  ing_figures(&g, tl, g.fig_t0 != INT64_MIN, fpid, ftid);
  tl->bytes = g.base + g.len;
  tl->events = g.events;
  tl->parsed = g.parsed;
  tl->profiles = (uint32_t)g.nprof;
  tl->embedded = g.emb;
  tl->nembedded = g.nemb;
  g.emb = NULL;
  g.nemb = 0;
  *out = tl;
out:
  gzclose(g.gz);
  free(g.buf);
  free(g.thr);
  free(g.frames);
  free(g.workers);
  free(g.cp_ts);
  for (size_t i = 0; i < g.nprof; i++)
    prof_free(&g.prof[i]);
  free(g.prof);
  free(g.sid);
  free(g.dt);
  free(g.kids);
  free(g.fev);
  for (uint32_t i = 0; i < g.nemb; i++) {
    free(g.emb[i].url);
    free(g.emb[i].map_url);
    free(g.emb[i].map);
  }
  free(g.emb);
  return e;
}
