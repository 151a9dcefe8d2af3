/* Streaming ingest of Chrome traces and .cpuprofile files.
 *
 * A structural scanner walks the top-level JSON: it finds each value's
 * extent (brackets and strings only, no allocation) and, for trace events,
 * the offset of the "ph" value on the way. Only the events zamcap needs
 * (ph "P": Profile/ProfileChunk, ph "M": metadata) are parsed with cJSON.
 * Memory is the buffer (as large as the largest single event) plus the
 * kept profile nodes and samples, whatever the file's size. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ana.h"

uint32_t ana__tl_child_ids(struct ana_timeline *tl, uint32_t parent,
                           enum ana_kind kind, uint32_t name, uint32_t url,
                           int32_t line, int32_t col);

#define ING_READ (1u << 20)     /* bytes asked of zlib per read */
#define ING_MAXVAL (1u << 30)   /* largest single JSON value we hold */
#define ING_NOOFF SIZE_MAX

struct pnode { /* a V8 profile node */
  uint32_t id, parent; /* parent == 0: none given */
  uint32_t name, url;
  int32_t line, col;
  uint8_t kind;
  uint32_t tl; /* timeline node, ANA_NONE until placed */
};

struct prof { /* one V8 profile, (pid, id) */
  int64_t pid, tid;
  char id[48];
  int has_tid, has_start, has_end;
  int64_t start_us, end_us;
  struct pnode *nodes;
  size_t nnodes, capnodes;
  uint32_t *tab; /* node index + 1 by id */
  size_t tabcap;
  uint32_t *sid; /* sample node ids */
  int32_t *sdt;  /* time deltas, µs */
  size_t nsamp, capsamp;
};

struct thr {
  int64_t pid, tid;
  uint32_t name;
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
  struct prof *prof;
  size_t nprof, capprof;
  /* .cpuprofile fields, when the file is one */
  cJSON *cp_nodes, *cp_samples, *cp_deltas;
  double cp_start, cp_end;
  int cp_has_start, cp_has_end;
  uint32_t k_root, k_program, k_idle, k_gc;
};

/* ---- reading ---- */

/* Reads more bytes, keeping buf[keep..len). Returns the shift applied to
 * offsets at or after keep (they all move down by it), and sets g->eof when
 * nothing more comes. */
static enum zc_err ing_more(struct ing *g, size_t keep, size_t *shift) {
  *shift = 0;
  if (g->eof) return ZC_OK;
  if (keep > 0 && (g->cap - g->len < ING_READ || keep >= g->len)) {
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
    while (cap < need + 1) cap *= 2;
    g->buf = zc_xrealloc(g->buf, cap);
    g->cap = cap;
  }
  int n = gzread(g->gz, g->buf + g->len, ING_READ);
  if (n < 0 || (n == 0 && !gzeof(g->gz))) {
    int zerr = 0;
    const char *msg = gzerror(g->gz, &zerr);
    return zc_fail(ZC_E_IO, "%s: read failed after byte %llu: %s", g->path,
                   (unsigned long long)(g->base + g->len),
                   zerr == Z_ERRNO ? strerror(errno) : msg);
  }
  if (n == 0) {
    /* zlib reports a cut gzip stream only through gzerror. */
    int zerr = 0;
    const char *msg = gzerror(g->gz, &zerr);
    if (zerr != Z_OK && zerr != Z_STREAM_END)
      return zc_fail(ZC_E_PARSE, "%s: gzip data broken after %llu "
                     "uncompressed bytes: %s", g->path,
                     (unsigned long long)(g->base + g->len), msg);
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
};

/* Finds the extent of the JSON value at g->pos, reading as needed; notes
 * the "ph" value when the value is an object. Does not validate what lies
 * inside: the events that matter are parsed in full afterwards. */
static enum zc_err ing_value(struct ing *g, struct val *v) {
  size_t s = g->pos, i = s, str = 0, keys = 0;
  int depth = 0, in_str = 0, expect_key = 0, pending = 0, scalar = 0;
  int obj = (unsigned char)g->buf[s] == '{';
  v->ph = ING_NOOFF;
  if (!ing_cls[(unsigned char)g->buf[s]]) scalar = 1;
  for (;;) {
    const unsigned char *b = (const unsigned char *)g->buf;
    size_t n = g->len;
    if (scalar) {
      while (i < n && !ing_cls[b[i]] && !ing_isws(b[i]) && b[i] != ':') i++;
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
        while (qi - bs > str + 1 && b[qi - bs - 1] == '\\') bs++;
        i = qi + 1;
        if (bs & 1) continue; /* an escaped quote */
        in_str = 0;
        if (depth == 0) goto done; /* the value was a string */
        if (depth == 1 && obj) {
          if (expect_key) {
            size_t kl = qi - str - 1;
            pending = kl == 2 && b[str + 1] == 'p' && b[str + 2] == 'h';
            expect_key = 0;
            keys++;
          } else if (pending) {
            v->ph = str + 1 - s;
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
  (void)keys;
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
  p->tabcap = 256;
  p->tab = zc_xcalloc(p->tabcap, sizeof *p->tab);
  return p;
}

static void prof_free(struct prof *p) {
  free(p->nodes);
  free(p->tab);
  free(p->sid);
  free(p->sdt);
}

static size_t prof_slot(const struct prof *p, uint32_t id) {
  size_t mask = p->tabcap - 1, h = (size_t)zc_mix64(id) & mask;
  while (p->tab[h] && p->nodes[p->tab[h] - 1].id != id) h = (h + 1) & mask;
  return h;
}

static struct pnode *prof_find(const struct prof *p, uint32_t id) {
  uint32_t x = p->tab[prof_slot(p, id)];
  return x ? &p->nodes[x - 1] : NULL;
}

static struct pnode *prof_add(struct prof *p, uint32_t id) {
  size_t h = prof_slot(p, id);
  if (p->tab[h]) return &p->nodes[p->tab[h] - 1];
  ZC_GROW(p->nodes, p->capnodes, p->nnodes + 1);
  struct pnode *n = &p->nodes[p->nnodes];
  memset(n, 0, sizeof *n);
  n->id = id;
  n->tl = ANA_NONE;
  p->tab[h] = (uint32_t)++p->nnodes;
  if (p->nnodes * 2 > p->tabcap) {
    size_t cap = p->tabcap * 2;
    free(p->tab);
    p->tab = zc_xcalloc(cap, sizeof *p->tab);
    p->tabcap = cap;
    for (size_t i = 0; i < p->nnodes; i++)
      p->tab[prof_slot(p, p->nodes[i].id)] = (uint32_t)i + 1;
  }
  return &p->nodes[p->nnodes - 1];
}

static int ing_num(const cJSON *j, double *out) {
  if (!cJSON_IsNumber(j)) return 0;
  *out = j->valuedouble;
  return 1;
}

static int ing_u32(const cJSON *j, uint32_t *out) {
  double d;
  if (!ing_num(j, &d) || d < 0 || d > 4294967295.0) return 0;
  *out = (uint32_t)d;
  return 1;
}

static const char *ing_strv(const cJSON *j) {
  return cJSON_IsString(j) && j->valuestring ? j->valuestring : NULL;
}

static enum zc_err ing_nodes(struct ing *g, struct prof *p, const cJSON *arr,
                             uint64_t off) {
  const cJSON *nd;
  cJSON_ArrayForEach(nd, arr) {
    uint32_t id;
    if (!ing_u32(cJSON_GetObjectItemCaseSensitive(nd, "id"), &id))
      return zc_fail(ZC_E_PARSE, "%s: byte %llu: a profile node has no "
                     "numeric id", g->path, (unsigned long long)off);
    const cJSON *cf = cJSON_GetObjectItemCaseSensitive(nd, "callFrame");
    const char *fn = ing_strv(cJSON_GetObjectItemCaseSensitive(cf, "functionName"));
    const char *url = ing_strv(cJSON_GetObjectItemCaseSensitive(cf, "url"));
    double line = -1, col = -1;
    ing_num(cJSON_GetObjectItemCaseSensitive(cf, "lineNumber"), &line);
    ing_num(cJSON_GetObjectItemCaseSensitive(cf, "columnNumber"), &col);
    struct pnode *n = prof_add(p, id);
    n->name = fn ? ana_intern(g->ctx, fn, strlen(fn)) : 0;
    n->url = url ? ana_intern(g->ctx, url, strlen(url)) : 0;
    n->line = line >= -1 && line < 2e9 ? (int32_t)line : -1;
    n->col = col >= -1 && col < 2e9 ? (int32_t)col : -1;
    n->kind = n->name == g->k_root      ? ANA_ROOT
              : n->name == g->k_program ? ANA_PROGRAM
              : n->name == g->k_idle    ? ANA_IDLE
              : n->name == g->k_gc      ? ANA_GC
                                        : ANA_FUNC;
    uint32_t parent;
    if (ing_u32(cJSON_GetObjectItemCaseSensitive(nd, "parent"), &parent))
      n->parent = parent;
    /* .cpuprofile nodes list children instead of a parent. */
    const cJSON *kids = cJSON_GetObjectItemCaseSensitive(nd, "children");
    const cJSON *k;
    cJSON_ArrayForEach(k, kids) {
      uint32_t kid;
      if (ing_u32(k, &kid) && kid != id) prof_add(p, kid)->parent = id;
    }
  }
  return ZC_OK;
}

static enum zc_err ing_samples(struct ing *g, struct prof *p,
                               const cJSON *samples, const cJSON *deltas,
                               uint64_t off) {
  int ns = cJSON_GetArraySize(samples), nd = cJSON_GetArraySize(deltas);
  if (ns != nd)
    zc_log(2, "%s: byte %llu: %d samples but %d time deltas; using %d",
           g->path, (unsigned long long)off, ns, nd, ns < nd ? ns : nd);
  size_t n = (size_t)(ns < nd ? ns : nd);
  ZC_GROW(p->sid, p->capsamp, p->nsamp + n);
  size_t cap = p->capsamp;
  p->sdt = zc_xreallocarray(p->sdt, cap, sizeof *p->sdt);
  const cJSON *s = samples ? samples->child : NULL;
  const cJSON *d = deltas ? deltas->child : NULL;
  for (size_t i = 0; i < n; i++, s = s->next, d = d->next) {
    uint32_t id;
    double dt;
    if (!ing_u32(s, &id) || !ing_num(d, &dt) || dt > 2e9 || dt < -2e9)
      return zc_fail(ZC_E_PARSE, "%s: byte %llu: sample %zu is not a node "
                     "id with a time delta", g->path, (unsigned long long)off,
                     i);
    p->sid[p->nsamp] = id;
    p->sdt[p->nsamp++] = (int32_t)dt;
  }
  return ZC_OK;
}

/* ---- events ---- */

static void ing_thread_name(struct ing *g, int64_t pid, int64_t tid,
                            const char *name) {
  uint32_t id = ana_intern(g->ctx, name, strlen(name));
  for (size_t i = 0; i < g->nthr; i++)
    if (g->thr[i].pid == pid && g->thr[i].tid == tid) {
      g->thr[i].name = id;
      return;
    }
  ZC_GROW(g->thr, g->capthr, g->nthr + 1);
  g->thr[g->nthr++] = (struct thr){pid, tid, id};
}

static int64_t ing_i64(const cJSON *j, int64_t dflt) {
  double d;
  return ing_num(j, &d) && d > -9e18 && d < 9e18 ? (int64_t)d : dflt;
}

static enum zc_err ing_event(struct ing *g, const struct val *v) {
  uint64_t off = g->base + v->s;
  cJSON *ev = cJSON_ParseWithLength(g->buf + v->s, v->e - v->s);
  if (!ev) {
    const char *at = cJSON_GetErrorPtr();
    uint64_t where = off;
    if (at && at >= g->buf + v->s && at <= g->buf + v->e)
      where = g->base + (uint64_t)(at - g->buf);
    return zc_fail(ZC_E_PARSE, "%s: byte %llu: malformed event (JSON error "
                   "near byte %llu)", g->path, (unsigned long long)off,
                   (unsigned long long)where);
  }
  g->parsed++;
  enum zc_err e = ZC_OK;
  const char *ph = ing_strv(cJSON_GetObjectItemCaseSensitive(ev, "ph"));
  const char *name = ing_strv(cJSON_GetObjectItemCaseSensitive(ev, "name"));
  int64_t pid = ing_i64(cJSON_GetObjectItemCaseSensitive(ev, "pid"), 0);
  int64_t tid = ing_i64(cJSON_GetObjectItemCaseSensitive(ev, "tid"), 0);
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(args, "data");
  if (!ph || !name) goto out;
  if (strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0) {
    const char *tn = ing_strv(cJSON_GetObjectItemCaseSensitive(args, "name"));
    if (tn) ing_thread_name(g, pid, tid, tn);
  } else if (strcmp(ph, "P") == 0 &&
             (strcmp(name, "Profile") == 0 ||
              strcmp(name, "ProfileChunk") == 0)) {
    const cJSON *jid = cJSON_GetObjectItemCaseSensitive(ev, "id");
    char id[48];
    if (ing_strv(jid)) snprintf(id, sizeof id, "%s", jid->valuestring);
    else snprintf(id, sizeof id, "#%lld", (long long)ing_i64(jid, 0));
    struct prof *p = ing_prof(g, pid, id);
    double t;
    if (name[7] == '\0') { /* Profile */
      p->tid = tid;
      p->has_tid = 1;
      if (ing_num(cJSON_GetObjectItemCaseSensitive(data, "startTime"), &t) ||
          ing_num(cJSON_GetObjectItemCaseSensitive(ev, "ts"), &t)) {
        p->start_us = (int64_t)t;
        p->has_start = 1;
      }
    } else {
      const cJSON *cp = cJSON_GetObjectItemCaseSensitive(data, "cpuProfile");
      e = ing_nodes(g, p, cJSON_GetObjectItemCaseSensitive(cp, "nodes"), off);
      if (!e)
        e = ing_samples(g, p, cJSON_GetObjectItemCaseSensitive(cp, "samples"),
                        cJSON_GetObjectItemCaseSensitive(data, "timeDeltas"),
                        off);
      if (ing_num(cJSON_GetObjectItemCaseSensitive(data, "endTime"), &t) ||
          ing_num(cJSON_GetObjectItemCaseSensitive(cp, "endTime"), &t)) {
        p->end_us = (int64_t)t;
        p->has_end = 1;
      }
    }
  }
out:
  cJSON_Delete(ev);
  return e;
}

/* Is this event one we parse? Decided from the "ph" value alone. */
static int ing_wanted(const struct ing *g, const struct val *v) {
  if (v->ph == ING_NOOFF) return 0;
  const char *p = g->buf + v->s + v->ph;
  return (p[0] == 'P' || p[0] == 'M') && p[1] == '"';
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
        return zc_fail(ZC_E_PARSE, "%s: truncated: the event array is not "
                       "closed (the data ends at byte %llu)", g->path,
                       (unsigned long long)(g->base + g->len));
      return zc_fail(ZC_E_PARSE, "%s: byte %llu: expected a trace event "
                     "object, found '%c'", g->path,
                     (unsigned long long)(g->base + g->pos), c);
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
        return zc_fail(ZC_E_PARSE, "%s: truncated: the event array is not "
                       "closed (the data ends at byte %llu)", g->path,
                       (unsigned long long)(g->base + g->len));
      return zc_fail(ZC_E_PARSE, "%s: byte %llu: expected ',' or ']' after "
                     "an event, found '%c'", g->path,
                     (unsigned long long)(g->base + g->pos), c);
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
    const char *cpk[] = {"nodes", "samples", "timeDeltas", "startTime",
                         "endTime"};
    int cpf = -1;
    for (int i = 0; i < 5; i++)
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
      if (cpf >= 0) {
        cJSON *j = cJSON_ParseWithLength(g->buf + v.s, v.e - v.s);
        if (!j)
          return zc_fail(ZC_E_PARSE, "%s: byte %llu: malformed \"%s\" value",
                         g->path, (unsigned long long)(g->base + v.s),
                         cpk[cpf]);
        g->parsed++;
        cJSON **slot = cpf == 0 ? &g->cp_nodes
                       : cpf == 1 ? &g->cp_samples
                       : cpf == 2 ? &g->cp_deltas
                                  : NULL;
        if (slot) {
          cJSON_Delete(*slot);
          *slot = j;
        } else {
          double t = 0;
          int ok = ing_num(j, &t);
          if (cpf == 3) g->cp_start = t, g->cp_has_start = ok;
          else g->cp_end = t, g->cp_has_end = ok;
          cJSON_Delete(j);
        }
      }
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
    return zc_fail(ZC_E_PARSE, "%s: truncated: the top-level object is not "
                   "closed (the data ends at byte %llu)", g->path,
                   (unsigned long long)(g->base + g->len));
  return zc_fail(ZC_E_PARSE, "%s: byte %llu: unexpected '%c' in the "
                 "top-level object", g->path,
                 (unsigned long long)(g->base + g->pos), c);
}

/* ---- from profiles to the timeline ---- */

static uint32_t ing_thread_of(struct ing *g, const struct prof *p) {
  for (size_t i = 0; i < g->nthr; i++)
    if (g->thr[i].pid == p->pid && g->thr[i].tid == p->tid)
      return g->thr[i].name;
  char b[64];
  if (!p->has_tid) snprintf(b, sizeof b, "main");
  else snprintf(b, sizeof b, "thread %lld", (long long)p->tid);
  return ana_intern(g->ctx, b, strlen(b));
}

/* Places a profile node (and any unplaced ancestors) in the timeline. */
static uint32_t ing_place(struct ana_timeline *tl, struct prof *p,
                          struct pnode *n, uint32_t thread,
                          uint32_t **stk, size_t *cap) {
  size_t sp = 0;
  /* Walk up to a placed ancestor; a cycle or a missing parent ends at the
   * thread. The walk is bounded by the node count. */
  while (n && n->tl == ANA_NONE && n->kind != ANA_ROOT &&
         sp <= p->nnodes) {
    ZC_GROW(*stk, *cap, sp + 1);
    (*stk)[sp++] = (uint32_t)(n - p->nodes);
    n = n->parent ? prof_find(p, n->parent) : NULL;
  }
  uint32_t at = n && n->tl != ANA_NONE ? n->tl : thread;
  while (sp) {
    struct pnode *m = &p->nodes[(*stk)[--sp]];
    if (m->tl == ANA_NONE)
      m->tl = ana__tl_child_ids(tl, at, (enum ana_kind)m->kind, m->name,
                                m->url, m->line, m->col);
    at = m->tl;
  }
  return at;
}

/* A worker thread is named by its script: the component of the first
 * top-level function with a URL (DESIGN.md). */
static uint32_t ing_worker_name(struct ing *g, struct prof *p, uint32_t name,
                                const uint32_t *order) {
  const char *tn = ana_str(g->ctx, name);
  if (!strstr(tn, "Worker")) return name;
  /* Looking at the first samples is enough, and bounds the work. */
  for (size_t k = 0; k < p->nsamp && k < 100000; k++) {
    struct pnode *n = prof_find(p, p->sid[order ? order[k] : k]);
    struct pnode *top = NULL;
    for (size_t hops = 0; n && n->kind != ANA_ROOT && hops <= p->nnodes;
         hops++) {
      top = n;
      n = n->parent ? prof_find(p, n->parent) : NULL;
    }
    if (top && top->url) {
      const char *u = ana_str(g->ctx, top->url);
      char comp[1024], b[1200];
      ana_component(u, strlen(u), comp, sizeof comp);
      snprintf(b, sizeof b, "%s %s", tn, comp);
      return ana_intern(g->ctx, b, strlen(b));
    }
  }
  return name;
}

static _Thread_local int64_t *ing_ts_for_sort;
static int ing_bytime(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  int64_t tx = ing_ts_for_sort[x], ty = ing_ts_for_sort[y];
  if (tx != ty) return tx < ty ? -1 : 1;
  return x < y ? -1 : x > y;
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
    for (size_t i = 0; i < p->nsamp; i++) order[i] = (uint32_t)i;
    ing_ts_for_sort = ts;
    qsort(order, p->nsamp, sizeof *order, ing_bytime);
  }
  uint32_t name = ing_worker_name(g, p, ing_thread_of(g, p), order);
  uint32_t thread = ana__tl_child_ids(tl, 0, ANA_THREAD, name, 0, -1, -1);
  uint32_t *stk = NULL;
  size_t cap = 0;
  for (size_t k = 0; k < p->nsamp; k++) {
    size_t i = order ? order[k] : k;
    size_t nx = k + 1 < p->nsamp ? (order ? order[k + 1] : k + 1) : SIZE_MAX;
    int64_t dur = nx != SIZE_MAX ? ts[nx] - ts[i]
                  : p->has_end && p->end_us > ts[i] ? p->end_us - ts[i]
                                                   : 0;
    struct pnode *n = prof_find(p, p->sid[i]);
    if (!n) continue; /* a sample of a node never described: skip it */
    uint32_t at = n->kind == ANA_ROOT ? thread
                  : n->tl != ANA_NONE ? n->tl
                                      : ing_place(tl, p, n, thread, &stk, &cap);
    ana_tl_sample(tl, at, ts[i], dur);
  }
  free(stk);
  free(order);
  free(ts);
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
  /* A UTF-8 byte order mark is allowed before the JSON. */
  if (ch == 0xEF && g.len - g.pos >= 3 &&
      memcmp(g.buf + g.pos, "\xEF\xBB\xBF", 3) == 0) {
    g.pos += 3;
    if ((e = ing_peek(&g, &ch))) goto out;
  }
  if (ch == '[') e = ing_events(&g, 1);
  else if (ch == '{') e = ing_object(&g);
  else if (ch < 0)
    e = zc_fail(ZC_E_PARSE, "%s: empty file", path);
  else
    e = zc_fail(ZC_E_PARSE, "%s: byte %llu: not a Chrome trace or CPU "
                "profile (expected '[' or '{', found 0x%02x)", path,
                (unsigned long long)(g.base + g.pos), ch);
  if (e) goto out;
  if ((e = ing_peek(&g, &ch))) goto out;
  if (ch >= 0) {
    e = zc_fail(ZC_E_PARSE, "%s: byte %llu: data after the end of the JSON",
                path, (unsigned long long)(g.base + g.pos));
    goto out;
  }
  if (g.cp_nodes) { /* a .cpuprofile */
    struct prof *p = ing_prof(&g, 0, "cpuprofile");
    p->start_us = (int64_t)g.cp_start;
    p->has_start = g.cp_has_start;
    p->end_us = (int64_t)g.cp_end;
    p->has_end = g.cp_has_end;
    if ((e = ing_nodes(&g, p, g.cp_nodes, 0))) goto out;
    if ((e = ing_samples(&g, p, g.cp_samples, g.cp_deltas, 0))) goto out;
  }
  struct ana_timeline *tl = ana_tl_new(c, path);
  for (size_t i = 0; i < g.nprof; i++) ing_build(&g, &g.prof[i], tl);
  ana_tl_finish(tl);
  tl->bytes = g.base + g.len;
  tl->events = g.events;
  tl->parsed = g.parsed;
  tl->profiles = (uint32_t)g.nprof;
  *out = tl;
out:
  gzclose(g.gz);
  free(g.buf);
  free(g.thr);
  for (size_t i = 0; i < g.nprof; i++) prof_free(&g.prof[i]);
  free(g.prof);
  cJSON_Delete(g.cp_nodes);
  cJSON_Delete(g.cp_samples);
  cJSON_Delete(g.cp_deltas);
  return e;
}
