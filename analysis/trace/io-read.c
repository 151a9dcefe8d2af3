/* An I/O run read (zam/io.h): the trace's requests, as DevTools' trace
 * engine reads them (its NetworkRequestsHandler), one request per
 * requestId: ResourceSendRequest (URL, method, who asked: its stackTrace
 * of one frame, or its initiator), ResourceReceiveResponse (from a cache,
 * the status), ResourceMarkAsCached (the memory cache), ResourceFinish
 * (encodedDataLength: bytes on the wire; decodedBodyLength; didFail).
 * Each request is placed in the step whose zamcap mark came last before
 * it. Then the .io.json the capture kept beside the trace: each
 * request's whole stack, its body and what the cache served, by request
 * id, and the storage writes.
 *
 * The requests are kept by the scanner (scan.c asks ing_io_wanted and
 * hands each such event to ing_io_event) only when the context asks
 * (ana_ctx_set_io): timed runs pay nothing. At most IO_TRACE_REQUESTS are
 * kept a trace; the rest are counted (ana_io_run.cap_trace). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"
#include "zam/io.h"
#include "zc-url.h"

enum { IO_TRACE_REQUESTS = 500000 };

/* A request while the trace is read: its item, and what the item needs
 * once the whole trace is read (the URL, for the pattern). */
struct ireq {
  uint32_t id;  /* requestId, interned */
  uint32_t url; /* without query and fragment, interned */
  uint32_t method;
  uint32_t item;
  int64_t ts0, ts1;
};
struct ing_io {
  struct ana_io_run *run;
  struct ireq *q;
  size_t nq, capq;
  struct zc_htab tab; /* requestId -> q */
  uint32_t own;       /* the first document's origin; 0 until seen */
};

static const char *const io_names[] = {
    "ResourceSendRequest",
    "ResourceReceiveResponse",
    "ResourceFinish",
    "ResourceMarkAsCached",
};

/* Does the string at s (inside an event ending at e) read lit" ? */
static int io_lit(const char *s, const char *e, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(e - s) > n && !memcmp(s, lit, n) && s[n] == '"';
}

int ing_io_wanted(const char *s, const char *e) {
  if (s[0] != 'R') return 0;
  for (size_t i = 0; i < ZC_ARRAY_LEN(io_names); i++)
    if (io_lit(s, e, io_names[i])) return 1;
  return 0;
}

int ing_io_is(const char *name) {
  for (size_t i = 0; i < ZC_ARRAY_LEN(io_names); i++)
    if (!strcmp(name, io_names[i])) return 1;
  return 0;
}

void ing_io_init(struct ing *g) {
  g->io = zc_xcalloc(1, sizeof *g->io);
  g->io->run = zc_xcalloc(1, sizeof *g->io->run);
  g->io->run->path = zc_xstrdup(g->path);
  zc_htab_init(&g->io->tab, 64);
}

void ing_io_free(struct ing *g) {
  if (!g->io) return;
  ana__io_run_free(g->io->run);
  free(g->io->q);
  zc_htab_free(&g->io->tab);
  free(g->io);
  g->io = NULL;
}

void ana__io_run_free(struct ana_io_run *r) {
  if (!r) return;
  free(r->path);
  free(r->own);
  free(r->frames);
  free(r->items);
  free(r->steps);
  free(r);
}

static struct ireq *io_req(struct ing *g, uint32_t id, int add) {
  struct ing_io *x = g->io;
  uint64_t hv = zc_mix64(id);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&x->tab, hv, &pos, &i))
    if (x->q[i].id == id) return &x->q[i];
  if (!add) return NULL;
  struct ana_io_run *run = x->run;
  if (x->nq >= IO_TRACE_REQUESTS) {
    run->cap_trace++;
    return NULL;
  }
  ZC_GROW(x->q, x->capq, x->nq + 1);
  ZC_GROW(run->items, run->capitems, run->nitems + 1);
  struct io_item *it = &run->items[run->nitems];
  memset(it, 0, sizeof *it);
  it->n = 1;
  it->ms = NAN;
  it->rid = id;
  struct ireq *q = &x->q[x->nq];
  *q = (struct ireq){.id = id, .item = (uint32_t)run->nitems++};
  zc_htab_add(&x->tab, hv, pos, (uint32_t)x->nq++);
  return q;
}

/* What ResourceSendRequest says of a request. */
struct sendreq {
  const char *id, *url, *method, *itype, *fetch, *iurl, *type;
  size_t idn, urln, methodn, itypen, fetchn, iurln, typen;
  struct io_frame top; /* its stackTrace's first frame */
  int has_top;
};

static void io_str(struct jr *r, const char **s, size_t *n) {
  if (!jr_str(r, s, n)) *s = NULL;
}

static void io_initiator(struct jr *r, struct sendreq *q) {
  const char *k;
  size_t kn;
  if (!jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "type") && jr_peek(r) == '"')
      io_str(r, &q->itype, &q->itypen);
    else if (jr_is(k, kn, "fetchType") && jr_peek(r) == '"')
      io_str(r, &q->fetch, &q->fetchn);
    else if (jr_is(k, kn, "url") && jr_peek(r) == '"')
      io_str(r, &q->iurl, &q->iurln);
    else
      jr_skip(r);
  }
}

/* The stackTrace's first frame (its lines and columns are 1-based). */
static void io_top(struct ing *g, struct jr *r, struct sendreq *q) {
  const char *k, *s;
  size_t kn, sn;
  double v;
  if (!jr_arr(r)) return;
  while (jr_more(r, NULL, NULL)) {
    if (q->has_top || !jr_obj(r)) {
      jr_skip(r);
      continue;
    }
    struct io_frame f = {.line = -1, .col = -1};
    while (jr_more(r, &k, &kn)) {
      if (jr_is(k, kn, "functionName") && jr_str(r, &s, &sn))
        f.name = ana_intern_name(g->ctx, s, sn);
      else if (jr_is(k, kn, "url") && jr_str(r, &s, &sn))
        f.url = ana_intern(g->ctx, s, sn);
      else if (jr_is(k, kn, "lineNumber") && jr_num(r, &v))
        f.line = v >= 1 && v < INT32_MAX ? (int32_t)v - 1 : -1;
      else if (jr_is(k, kn, "columnNumber") && jr_num(r, &v))
        f.col = v >= 1 && v < INT32_MAX ? (int32_t)v - 1 : -1;
      else
        jr_skip(r);
    }
    q->top = f;
    q->has_top = 1;
  }
}

static void io_send_args(struct ing *g, struct jr *r, struct sendreq *q) {
  const char *k;
  size_t kn;
  if (!ing_find(r, "data") || !jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    int str = jr_peek(r) == '"';
    if (jr_is(k, kn, "requestId") && str)
      io_str(r, &q->id, &q->idn);
    else if (jr_is(k, kn, "url") && str)
      io_str(r, &q->url, &q->urln);
    else if (jr_is(k, kn, "requestMethod") && str)
      io_str(r, &q->method, &q->methodn);
    else if (jr_is(k, kn, "resourceType") && str)
      io_str(r, &q->type, &q->typen);
    else if (jr_is(k, kn, "initiator"))
      io_initiator(r, q);
    else if (jr_is(k, kn, "stackTrace"))
      io_top(g, r, q);
    else
      jr_skip(r);
  }
}

/* Who asked, when no script did: the parser, a style sheet, a
 * navigation, a preload, ... */
static uint32_t io_synth(struct ing *g, const struct sendreq *q) {
  const char *s = "(other)";
  if (q->type && q->typen == 8 && !memcmp(q->type, "Document", 8) &&
      (!q->itype || (q->itypen == 5 && !memcmp(q->itype, "other", 5))))
    s = "(navigation)";
  else if (q->fetch && q->fetchn == 3 && !memcmp(q->fetch, "css", 3))
    s = "(style)";
  else if (q->itype && q->itypen == 6 && !memcmp(q->itype, "parser", 6))
    s = "(parser)";
  else if (q->itype && q->itypen == 7 && !memcmp(q->itype, "preload", 7))
    s = "(preload)";
  else if (q->itype && q->itypen == 6 && !memcmp(q->itype, "script", 6))
    s = "(script)";
  return ana_intern(g->ctx, s, strlen(s));
}

static void io_send(struct ing *g, struct jr *r, const char *args, int64_t ts) {
  struct sendreq q;
  memset(&q, 0, sizeof q);
  r->p = args;
  io_send_args(g, r, &q);
  r->err = NULL; /* a malformed field costs that event, not the trace */
  if (!q.id || !q.url) return;
  uint32_t id = ana_intern(g->ctx, q.id, q.idn);
  if (io_req(g, id, 0)) return; /* again: a redirect of the same request */
  struct ireq *rq = io_req(g, id, 1);
  if (!rq) return;
  struct ana_io_run *run = g->io->run;
  struct io_item *it = &run->items[rq->item];
  size_t un = strcspn(q.url, "?#");
  rq->url = ana_intern(g->ctx, q.url, un < q.urln ? un : q.urln);
  rq->method = q.method ? ana_intern(g->ctx, q.method, q.methodn)
                        : ana_intern(g->ctx, "GET", 3);
  rq->ts0 = rq->ts1 = ts;
  it->ts = ts;
  if (!g->io->own && q.type && q.typen == 8 && !memcmp(q.type, "Document", 8))
    g->io->own = rq->url;
  if (q.has_top) {
    ZC_GROW(run->frames, run->capframes, run->nframes + 1);
    run->frames[run->nframes] = q.top;
    it->frame0 = (uint32_t)run->nframes++;
    it->nframes = 1;
  } else {
    it->synth = io_synth(g, &q);
    it->synth_url = q.iurl ? ana_intern(g->ctx, q.iurl, q.iurln) : 0;
  }
}

/* The fields the other events carry. */
struct after {
  const char *id;
  size_t idn;
  double encoded, decoded, status;
  int cached, failed;
};

static void io_after_args(struct jr *r, struct after *a) {
  const char *k;
  size_t kn;
  double v;
  if (!ing_find(r, "data") || !jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "requestId") && jr_peek(r) == '"')
      io_str(r, &a->id, &a->idn);
    else if (jr_is(k, kn, "encodedDataLength") && jr_num(r, &v))
      a->encoded = v;
    else if (jr_is(k, kn, "decodedBodyLength") && jr_num(r, &v))
      a->decoded = v;
    else if (jr_is(k, kn, "statusCode") && jr_num(r, &v))
      a->status = v;
    else if ((jr_is(k, kn, "fromCache") || jr_is(k, kn, "fromServiceWorker")) &&
             (jr_peek(r) == 't' || jr_peek(r) == 'f'))
      a->cached |= jr_peek(r) == 't', jr_skip(r);
    else if (jr_is(k, kn, "didFail") &&
             (jr_peek(r) == 't' || jr_peek(r) == 'f'))
      a->failed = jr_peek(r) == 't', jr_skip(r);
    else
      jr_skip(r);
  }
}

/* A byte count no request can have is none. */
static double io_bytes(double v) {
  return v >= 0 && v < 1e15 ? v : 0;
}

void ing_io_event(struct ing *g, struct jr *r, const char *args,
                  const char *name, double ts) {
  if (!args || !(ts > -4e18 && ts < 4e18)) return;
  if (name[8] == 'S') {
    io_send(g, r, args, (int64_t)ts);
    return;
  }
  struct after a = {.encoded = -1, .decoded = -1};
  r->p = args;
  io_after_args(r, &a);
  r->err = NULL;
  if (!a.id) return;
  struct ireq *q = io_req(g, ana_intern(g->ctx, a.id, a.idn), 0);
  if (!q) return;
  struct io_item *it = &g->io->run->items[q->item];
  if (!strcmp(name, "ResourceMarkAsCached")) {
    it->flags |= IO_F_CACHED;
    it->cache = it->cache ? it->cache : 'm';
  } else if (!strcmp(name, "ResourceReceiveResponse")) {
    if (a.cached) it->flags |= IO_F_CACHED;
    if (a.status >= 400 && a.status < 1000) it->flags |= IO_F_ERROR;
  } else { /* ResourceFinish */
    if (a.failed) it->flags |= IO_F_FAILED;
    if (a.encoded >= 0) it->received = io_bytes(a.encoded);
    if (a.decoded >= 0) it->decoded = io_bytes(a.decoded);
    q->ts1 = (int64_t)ts;
    it->ms = (double)(q->ts1 - q->ts0) / 1000;
  }
}

/* The steps, from zamcap's marks, and each request's: the last mark at
 * or before it (the first step's for those before the first mark). */
static void io_steps(struct ing *g) {
  struct ana_io_run *run = g->io->run;
  size_t nm = 0;
  for (size_t i = 0; i < g->nfev; i++)
    nm += g->fev[i].what == EV_MARK && g->fev[i].step;
  int64_t *ts = zc_xmalloc((nm + 1) * sizeof *ts);
  run->steps = zc_xcalloc(nm + 1, sizeof *run->steps);
  for (size_t i = 0; i < g->nfev; i++) {
    const struct fev *f = &g->fev[i];
    if (f->what != EV_MARK || !f->step) continue;
    /* in time order: insertion, marks are few */
    uint32_t k = run->nsteps++;
    while (k && ts[k - 1] > f->ts) {
      ts[k] = ts[k - 1];
      run->steps[k] = run->steps[k - 1];
      k--;
    }
    ts[k] = f->ts;
    run->steps[k].step = f->step;
    memcpy(run->steps[k].type, f->type, sizeof run->steps[k].type);
  }
  for (size_t i = 0; i < run->nitems; i++) {
    struct io_item *it = &run->items[i];
    uint32_t lo = 0, hi = run->nsteps; /* first mark after it */
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (ts[mid] <= it->ts)
        lo = mid + 1;
      else
        hi = mid;
    }
    it->step = run->nsteps ? run->steps[lo ? lo - 1 : 0].step : 1;
  }
  free(ts);
}

void ing_io_done(struct ing *g, struct ana_timeline *tl) {
  struct ing_io *x = g->io;
  struct ana_io_run *run = x->run;
  io_steps(g);
  /* The patterns, now that the page's own origin is known. */
  const char *own = x->own ? ana_str(g->ctx, x->own) : NULL;
  size_t ol = own ? zc_url_origin_len(own) : 0;
  char *origin = ol ? zc_xstrndup(own, ol) : NULL;
  for (size_t i = 0; i < x->nq; i++) {
    char pat[600];
    const char *m = ana_str(g->ctx, x->q[i].method);
    int n = snprintf(pat, sizeof pat, "%s ", m);
    if (n < 0 || (size_t)n >= sizeof pat) n = 0;
    zc_url_pattern(ana_str(g->ctx, x->q[i].url), origin, pat + n,
                   sizeof pat - (size_t)n);
    run->items[x->q[i].item].what = ana_intern_name(g->ctx, pat, strlen(pat));
  }
  run->own = origin;
  tl->io = run;
  x->run = NULL;
}

/* ---- the .io.json beside the trace ---- */

char *ana__io_sidecar_path(const char *trace) {
  size_t n = strlen(trace);
  if (n > 3 && !strcmp(trace + n - 3, ".gz")) n -= 3;
  if (n > 5 && !strncmp(trace + n - 5, ".json", 5)) n -= 5;
  char *p = zc_xmalloc(n + 9);
  memcpy(p, trace, n);
  memcpy(p + n, ".io.json", 9);
  return p;
}

/* The stacks as read: each a range of run->frames, outermost first. */
struct side {
  struct ana_ctx *c;
  struct ana_io_run *run;
  uint32_t (*st)[2];
  size_t nst, capst;
  struct zc_htab rid; /* requestId -> item, the trace's */
};

static void side_stack(struct side *sd, struct jr *r) {
  const char *s;
  size_t sn;
  double v;
  struct ana_io_run *run = sd->run;
  size_t first = run->nframes;
  if (!jr_arr(r)) return;
  while (jr_more(r, NULL, NULL) && jr_arr(r)) {
    struct io_frame f = {.line = -1, .col = -1};
    int k = 0;
    while (jr_more(r, NULL, NULL)) {
      if (k < 2 && jr_str(r, &s, &sn)) {
        uint32_t id =
            k == 0 ? ana_intern_name(sd->c, s, sn) : ana_intern(sd->c, s, sn);
        if (k == 0)
          f.name = id;
        else
          f.url = id;
      } else if (k >= 2 && k < 4 && jr_num(r, &v)) {
        int32_t x = v >= 0 && v < INT32_MAX ? (int32_t)v : -1;
        if (k == 2)
          f.line = x;
        else
          f.col = x;
      } else {
        jr_skip(r);
      }
      k++;
    }
    ZC_GROW(run->frames, run->capframes, run->nframes + 1);
    run->frames[run->nframes++] = f;
  }
  /* innermost first in the file: reversed */
  for (size_t i = first, j = run->nframes; i + 1 < j; i++, j--) {
    struct io_frame t = run->frames[i];
    run->frames[i] = run->frames[j - 1];
    run->frames[j - 1] = t;
  }
  ZC_GROW(sd->st, sd->capst, sd->nst + 1);
  sd->st[sd->nst][0] = (uint32_t)first;
  sd->st[sd->nst++][1] = (uint32_t)(run->nframes - first);
}

/* A request or a write's fields, as read: strings interned (0: none),
 * numbers -1 when absent. */
struct sfields {
  uint32_t id, method, url, kind, key, cache, failed, type, initiator;
  double step, stack, sent, encoded, decoded, status, n, bytes;
  int sent_cut;
};

static void side_fields(struct ana_ctx *c, struct jr *r, struct sfields *f) {
  static const char *const sk[] = {"id",    "method", "url",  "kind",     "key",
                                   "cache", "failed", "type", "initiator"};
  static const char *const nk[] = {"step",    "stack",  "sent", "encoded",
                                   "decoded", "status", "n",    "bytes"};
  uint32_t *sv[] = {&f->id,    &f->method, &f->url,  &f->kind,     &f->key,
                    &f->cache, &f->failed, &f->type, &f->initiator};
  double *nv[] = {&f->step,    &f->stack,  &f->sent, &f->encoded,
                  &f->decoded, &f->status, &f->n,    &f->bytes};
  for (size_t i = 0; i < ZC_ARRAY_LEN(nv); i++)
    *nv[i] = -1;
  const char *k, *s;
  size_t kn, sn;
  if (!jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    int done = 0;
    for (size_t i = 0; i < ZC_ARRAY_LEN(sk) && !done; i++)
      if (jr_is(k, kn, sk[i]) && jr_peek(r) == '"') {
        if (jr_str(r, &s, &sn)) *sv[i] = ana_intern(c, s, sn);
        done = 1;
      }
    for (size_t i = 0; i < ZC_ARRAY_LEN(nk) && !done; i++)
      if (jr_is(k, kn, nk[i]) && jr_peek(r) != 'n') {
        double v = -1;
        if (jr_num(r, &v) && v >= 0 && v < 1e15) *nv[i] = v;
        done = 1;
      }
    if (!done && jr_is(k, kn, "sent_cut")) f->sent_cut = jr_peek(r) == 't';
    if (!done) jr_skip(r);
  }
}

static struct io_item *side_item(struct ana_io_run *run) {
  ZC_GROW(run->items, run->capitems, run->nitems + 1);
  struct io_item *it = &run->items[run->nitems++];
  memset(it, 0, sizeof *it);
  it->n = 1;
  it->ms = NAN;
  it->ts = INT64_MAX; /* after the trace's */
  return it;
}

static void side_stack_of(struct side *sd, struct io_item *it, double k) {
  if (!(k >= 0 && k < (double)sd->nst)) return;
  it->frame0 = sd->st[(size_t)k][0];
  it->nframes = sd->st[(size_t)k][1];
  it->synth = it->synth_url = 0;
}

/* A request DevTools saw that the trace has no event of (a memory-cache
 * hit, or an event lost): an item of its own. */
static struct io_item *side_new_request(struct side *sd,
                                        const struct sfields *f) {
  struct ana_io_run *run = sd->run;
  if (run->nitems >= IO_TRACE_REQUESTS) {
    run->cap_trace++;
    return NULL;
  }
  struct io_item *it = side_item(run);
  it->rid = f->id;
  it->step = f->step >= 1 && f->step < 1e6 ? (uint32_t)f->step : 1;
  if (f->encoded >= 0) it->received = f->encoded;
  if (f->decoded >= 0) it->decoded = f->decoded;
  char pat[600];
  const char *m = f->method ? ana_str(sd->c, f->method) : "GET";
  int n = snprintf(pat, sizeof pat, "%s ", m);
  if (n < 0 || (size_t)n >= sizeof pat) n = 0;
  zc_url_pattern(ana_str(sd->c, f->url), sd->run->own, pat + n,
                 sizeof pat - (size_t)n);
  it->what = ana_intern_name(sd->c, pat, strlen(pat));
  const char *in = ana_str(sd->c, f->initiator);
  const char *syn = !strcmp(in, "parser")    ? "(parser)"
                    : !strcmp(in, "preload") ? "(preload)"
                    : !strcmp(in, "script")  ? "(script)"
                    : !strcmp(ana_str(sd->c, f->type), "Document")
                        ? "(navigation)"
                        : "(other)";
  it->synth = ana_intern(sd->c, syn, strlen(syn));
  return it;
}

static void side_request(struct side *sd, const struct sfields *f) {
  struct ana_io_run *run = sd->run;
  if (!f->id) return;
  struct io_item *it = NULL;
  uint64_t hv = zc_mix64(f->id);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (!it && zc_htab_next(&sd->rid, hv, &pos, &i))
    if (run->items[i].rid == f->id) it = &run->items[i];
  if (!it && (!f->url || !(it = side_new_request(sd, f)))) return;
  side_stack_of(sd, it, f->stack);
  if (f->sent >= 0) it->sent = f->sent;
  if (f->sent_cut) it->flags |= IO_F_SENT_CUT;
  const char *cache = ana_str(sd->c, f->cache);
  if (cache[0]) {
    it->flags |= IO_F_CACHED;
    it->cache = cache[0] == 's' ? 's' : cache[0] == 'd' ? 'd' : 'm';
  }
  if (f->failed) it->flags |= IO_F_FAILED;
  if (f->status >= 400 && f->status < 1000) it->flags |= IO_F_ERROR;
}

static void side_write(struct side *sd, const struct sfields *f, double *n,
                       double *bytes) {
  if (!f->kind || !(f->n >= 1)) return;
  struct io_item *it = side_item(sd->run);
  it->storage = 1;
  it->step = f->step >= 1 && f->step < 1e6 ? (uint32_t)f->step : 1;
  it->n = f->n;
  it->sent = f->bytes >= 0 ? f->bytes : 0;
  it->ts = (int64_t)sd->run->nitems; /* the order written */
  char what[600];
  snprintf(what, sizeof what, "%s%s%s", ana_str(sd->c, f->kind),
           f->key ? " " : "", ana_str(sd->c, f->key));
  it->what = ana_intern_name(sd->c, what, strlen(what));
  it->synth = ana_intern(sd->c, "(no stack)", 10);
  side_stack_of(sd, it, f->stack);
  *n += it->n;
  *bytes += it->sent;
}

/* An object of numbers: the values of the keys asked for (others
 * skipped). */
static void side_numbers(struct jr *r, const char *const *keys, double *v,
                         size_t n) {
  const char *k;
  size_t kn;
  if (!jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    size_t i = 0;
    while (i < n && !jr_is(k, kn, keys[i]))
      i++;
    double x;
    if (i < n && jr_peek(r) != 'n' && jr_num(r, &x) && x >= 0 && x < 1e15)
      v[i] = x;
    else if (i == n || jr_peek(r) == 'n')
      jr_skip(r);
  }
}

static void side_list(struct side *sd, struct jr *r, int writes, double *wn,
                      double *wb) {
  if (!jr_arr(r)) return;
  while (jr_more(r, NULL, NULL)) {
    if (jr_peek(r) != '{') {
      jr_skip(r);
      continue;
    }
    struct sfields f;
    memset(&f, 0, sizeof f);
    side_fields(sd->c, r, &f);
    if (writes)
      side_write(sd, &f, wn, wb);
    else
      side_request(sd, &f);
  }
}

/* The top level: {"schema", "stacks", "requests", "writes", "wrapper",
 * "totals", "caps"}; the stacks come first. */
static void side_walk(struct side *sd, struct jr *r, int *schema) {
  static const char *const wk[] = {"frames", "frames_failed"};
  static const char *const tk[] = {"writes", "write_bytes"};
  static const char *const ck[] = {"dropped_stacks", "dropped_requests",
                                   "dropped_writes"};
  double wr[2] = {0, 0}, tot[2] = {-1, -1}, caps[3] = {0, 0, 0};
  double wn = 0, wb = 0;
  const char *k, *s;
  size_t kn, sn;
  struct ana_io_run *run = sd->run;
  if (!jr_obj(r)) return;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "schema") && jr_peek(r) == '"' && jr_str(r, &s, &sn))
      *schema = sn == 11 && !memcmp(s, "zamcap-io/1", 11);
    else if (jr_is(k, kn, "stacks") && jr_arr(r))
      while (jr_more(r, NULL, NULL))
        side_stack(sd, r);
    else if (jr_is(k, kn, "requests"))
      side_list(sd, r, 0, NULL, NULL);
    else if (jr_is(k, kn, "writes"))
      side_list(sd, r, 1, &wn, &wb);
    else if (jr_is(k, kn, "wrapper"))
      side_numbers(r, wk, wr, 2);
    else if (jr_is(k, kn, "totals"))
      side_numbers(r, tk, tot, 2);
    else if (jr_is(k, kn, "caps"))
      side_numbers(r, ck, caps, 3);
    else
      jr_skip(r);
  }
  run->wrapped = wr[0] < 1e9 ? (unsigned)wr[0] : 0;
  run->wrap_failed = wr[1] < 1e9 ? (unsigned)wr[1] : 0;
  run->cap_stacks = caps[0];
  run->cap_requests = caps[1];
  run->cap_writes = caps[2];
  /* Writes counted past the sums' cap: in the totals, not in a sum. */
  if (tot[0] > wn) {
    run->over_writes = tot[0] - wn;
    run->over_bytes = tot[1] > wb ? tot[1] - wb : 0;
    struct io_item *it = side_item(run);
    it->storage = 1;
    it->step = run->nsteps ? run->steps[run->nsteps - 1].step : 1;
    it->n = run->over_writes;
    it->sent = run->over_bytes;
    it->what = ana_intern(sd->c, "(writes past the cap)", 21);
    it->synth = ana_intern(sd->c, "(past the cap)", 14);
  }
}

/* The .io.json into run. A file that is not there is no error (a trace
 * recorded otherwise: its one-frame stacks serve). */
static enum zc_err side_read(struct ana_ctx *c, struct ana_io_run *run) {
  char *path = ana__io_sidecar_path(run->path), *txt = NULL;
  size_t len = 0;
  FILE *probe = fopen(path, "rb");
  if (!probe) {
    free(path);
    return ZC_OK;
  }
  fclose(probe);
  enum zc_err e = zc_read_file(path, (size_t)1 << 30, &txt, &len);
  if (e) {
    free(path);
    return e;
  }
  struct side sd = {.c = c, .run = run};
  zc_htab_init(&sd.rid, run->nitems + 16);
  for (size_t i = 0; i < run->nitems; i++) {
    size_t pos = ZC_HTAB_START;
    uint32_t k;
    uint64_t hv = zc_mix64(run->items[i].rid);
    while (zc_htab_next(&sd.rid, hv, &pos, &k)) {
    }
    zc_htab_add(&sd.rid, hv, pos, (uint32_t)i);
  }
  struct jr r;
  jr_init(&r, txt, len);
  int schema = 0;
  side_walk(&sd, &r, &schema);
  if (!r.err && jr_peek(&r) >= 0) r.err = r.p;
  if (r.err)
    e = zc_fail(ZC_E_PARSE, "%s: byte %zu: not an I/O file (zamcap-io/1)", path,
                (size_t)(r.err - txt));
  else if (!schema)
    e = zc_fail(ZC_E_PARSE,
                "%s: not an I/O file (its schema is not "
                "zamcap-io/1)",
                path);
  run->sidecar = !e;
  jr_done(&r);
  zc_htab_free(&sd.rid);
  free(sd.st);
  free(txt);
  free(path);
  return e;
}

enum zc_err ana__io_read(struct ana_ctx *c, const char *path,
                         struct ana_io_run **out) {
  *out = NULL;
  int was = ana_ctx_io(c);
  ana_ctx_set_io(c, 2); /* the requests, and no CPU profile */
  struct ana_timeline *tl = NULL;
  enum zc_err e = ana_load(c, path, &tl);
  ana_ctx_set_io(c, was);
  if (e) return e;
  struct ana_io_run *run = tl->io;
  tl->io = NULL;
  ana_timeline_free(tl);
  if (!run) return zc_fail(ZC_E_PARSE, "%s: not a trace", path);
  if ((e = side_read(c, run))) {
    ana__io_run_free(run);
    return e;
  }
  *out = run;
  return ZC_OK;
}
