/* I/O runs (capture.h): what a run asks of the network and of storage,
 * each with the JavaScript stack that asked. The network's requests are
 * in the run's trace (ResourceSendRequest and the events after it), whose
 * stack is one frame deep; DevTools' Network.requestWillBeSent has the
 * whole synchronous stack (initiator.stack), the body sent and what the
 * cache served, kept here by request id. Storage writes are in no trace:
 * io-wrap.js wraps the functions that write, in every frame before the
 * page's scripts, and tells each write through the real console.trace;
 * Runtime.consoleAPICalled brings its stack. Both go to
 * trace_base + ".io.json" (zamcap-io/1, docs/io.md), with the step each
 * came in: the steps' marks are awaited (scn_replay_opts.on_step), and
 * the protocol keeps a session's messages in order.
 *
 * Bounded: stacks are kept once each (at most IO_STACKS), requests at
 * most IO_REQUESTS, writes summed by step, kind, key and stack (at most
 * IO_WRITE_KEYS sums); what passes a cap is counted in the file's "caps",
 * and the report says so. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "io-wrap.h"
#include "zc-out.h"
#include "zc-url.h"

enum {
  IO_STACKS = 20000,
  IO_REQUESTS = 200000,
  IO_WRITE_KEYS = 50000,
  IO_FRAMES = 200, /* V8's own limit for a console message's stack */
  IO_BODY_MAX = 1 << 20,
};

/* Strings kept once each, by index. */
struct strtab {
  struct zc_arena *a;
  char **v;
  size_t n, cap;
  struct zc_htab h;
};

static void st_init(struct strtab *t) {
  memset(t, 0, sizeof *t);
  t->a = zc_arena_new();
  zc_htab_init(&t->h, 64);
}

static void st_free(struct strtab *t) {
  zc_arena_free(t->a);
  free(t->v);
  zc_htab_free(&t->h);
}

/* s's index, added unless it is there; -1 when it is not and max are. */
static long st_get(struct strtab *t, const char *s, size_t n, size_t max) {
  uint64_t hv = zc_hash(s, n, 0x696f);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&t->h, hv, &pos, &i))
    if (!strncmp(t->v[i], s, n) && !t->v[i][n]) return (long)i;
  if (t->n >= max) return -1;
  ZC_GROW(t->v, t->cap, t->n + 1);
  t->v[t->n] = zc_arena_strndup(t->a, s, n);
  zc_htab_add(&t->h, hv, pos, (uint32_t)t->n);
  return (long)t->n++;
}

/* A request as DevTools told it. */
struct ioreq {
  char *id, *method, *url, *type, *initiator, *failed;
  long stack;     /* in stacks, -1 none */
  double sent;    /* request body bytes; -1 unknown */
  double encoded; /* loadingFinished's encodedDataLength; -1 none */
  double decoded; /* dataReceived's dataLength summed */
  int status;     /* 0 none */
  char cache[8];  /* "memory", "disk", "sw", "" */
  unsigned step;  /* 0: before the first traced step */
  unsigned redirects;
};

/* Writes summed by step, kind, key and stack. */
struct iowrite {
  unsigned step;
  long kind, what, stack;
  double n, bytes;
};

struct cap_io {
  struct cdp_conn *conn;
  char *session;
  unsigned step;
  struct strtab stacks, names; /* names: kinds and keys */
  struct ioreq *req;
  size_t nreq, capreq;
  struct zc_htab reqh;
  struct iowrite *w;
  size_t nw, capw;
  struct zc_htab wh;
  unsigned frames, frames_failed; /* frames wrapped; replacements failed */
  double writes, write_bytes;     /* every write, kept or not */
  unsigned long dropped_stacks, dropped_requests, dropped_writes;
};

/* ---- the wrapper ---- */

static char io_token[40];

/* The token the wrapper's messages begin with: random, so that no page
 * can pass a message of its own for one. */
static const char *token(void) {
  if (io_token[0]) return io_token;
  unsigned char b[12] = {0};
  int fd = open("/dev/urandom", O_RDONLY);
  if (fd < 0 || read(fd, b, sizeof b) != (ssize_t)sizeof b) {
    uint64_t x = zc_mix64((uint64_t)getpid() ^ (uint64_t)zc_now_ms());
    memcpy(b, &x, sizeof x);
  }
  if (fd >= 0) close(fd);
  memcpy(io_token, "zamcap-io:", 10);
  for (size_t i = 0; i < sizeof b; i++)
    snprintf(io_token + 10 + 2 * i, 3, "%02x", b[i]);
  return io_token;
}

enum zc_err cap_io_prepare(struct cdp_conn *conn, struct cdp_page *p) {
  const char *ss = cdp_page_session(p);
  enum zc_err e = cdp_call(conn, ss, "Runtime.enable", NULL, 0, NULL);
  if (e) return e;
  /* Bodies sent are measured from the text DevTools shows, up to
   * IO_BODY_MAX; a larger one counts as IO_BODY_MAX, marked "at least". */
  cJSON *a = cJSON_CreateObject();
  cJSON_AddNumberToObject(a, "maxPostDataSize", IO_BODY_MAX);
  if ((e = cdp_call(conn, ss, "Network.enable", a, 0, NULL))) return e;
  size_t n = cap__io_wrap_js_len + 256;
  char *src = zc_xmalloc(n);
  snprintf(src, n, "%.*s(\"%s\");\n//# sourceURL=zamcap-io.js\n",
           (int)cap__io_wrap_js_len, (const char *)cap__io_wrap_js, token());
  a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "source", src);
  free(src);
  return cdp_call(conn, ss, "Page.addScriptToEvaluateOnNewDocument", a, 0,
                  NULL);
}

/* ---- stacks ---- */

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double jnum(const cJSON *o, const char *k, double dflt) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

/* A JSON string: s with the escapes JSON needs, into b. */
static void json_str(struct zc_buf *b, const char *s) {
  enum zc_err e = zc_buf_add(b, "\"", 1);
  for (const char *p = s ? s : ""; *p && !e; p++) {
    unsigned char c = (unsigned char)*p;
    char esc[8];
    if (c == '"' || c == '\\')
      snprintf(esc, sizeof esc, "\\%c", c);
    else if (c < 0x20)
      snprintf(esc, sizeof esc, "\\u%04x", c);
    else {
      e = zc_buf_add(b, p, 1);
      continue;
    }
    e = zc_buf_add(b, esc, strlen(esc));
  }
  if (!e) e = zc_buf_add(b, "\"", 1);
  (void)e; /* the buffer has no ceiling but memory */
}

/* callFrames as [[name, url, line, col], ...], innermost first, without
 * the first skip frames; its index in the stacks, or -1 (none, or over
 * the cap: counted). */
static long stack_of(struct cap_io *io, const cJSON *frames, int skip) {
  if (!cJSON_IsArray(frames)) return -1;
  struct zc_buf b;
  zc_buf_init(&b, (size_t)1 << 26);
  enum zc_err e = zc_buf_add(&b, "[", 1);
  int k = 0, kept = 0;
  const cJSON *f;
  cJSON_ArrayForEach(f, frames) {
    if (k++ < skip || kept >= IO_FRAMES || e) continue;
    char num[64];
    if (kept++) e = zc_buf_add(&b, ",", 1);
    if (!e) e = zc_buf_add(&b, "[", 1);
    json_str(&b, jstr(f, "functionName"));
    if (!e) e = zc_buf_add(&b, ",", 1);
    json_str(&b, jstr(f, "url"));
    snprintf(num, sizeof num, ",%.0f,%.0f]", jnum(f, "lineNumber", -1),
             jnum(f, "columnNumber", -1));
    if (!e) e = zc_buf_add(&b, num, strlen(num));
  }
  if (!e) e = zc_buf_add(&b, "]", 1);
  long id = -1;
  if (!e && kept) {
    id = st_get(&io->stacks, b.ptr, b.len, IO_STACKS);
    if (id < 0) io->dropped_stacks++;
  }
  zc_buf_free(&b);
  return id;
}

/* ---- requests ---- */

static struct ioreq *req_find(struct cap_io *io, const char *id, int add) {
  uint64_t hv = zc_hash(id, strlen(id), 0x7271);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&io->reqh, hv, &pos, &i))
    if (!strcmp(io->req[i].id, id)) return &io->req[i];
  if (!add) return NULL;
  if (io->nreq >= IO_REQUESTS) {
    io->dropped_requests++;
    return NULL;
  }
  ZC_GROW(io->req, io->capreq, io->nreq + 1);
  struct ioreq *r = &io->req[io->nreq];
  memset(r, 0, sizeof *r);
  r->id = zc_xstrdup(id);
  r->stack = -1;
  r->sent = r->encoded = -1;
  r->step = io->step;
  zc_htab_add(&io->reqh, hv, pos, (uint32_t)io->nreq++);
  return r;
}

static void set_str(char **dst, const char *s) {
  if (!s || *dst) return;
  *dst = zc_xstrdup(s);
}

/* The URL without its query, fragment, user and password (they may hold
 * secrets; the pattern does not need them). */
static char *bare_url(const char *url) {
  size_t o = zc_url_origin_len(url);
  const char *at = o ? memchr(url, '@', o) : NULL;
  const char *sch = strstr(url, "://");
  size_t n = strcspn(url, "?#");
  if (!at || !sch) return zc_xstrndup(url, n);
  size_t head = (size_t)(sch - url) + 3;
  char *s = zc_xmalloc(n + 1);
  memcpy(s, url, head);
  size_t rest = n - (size_t)(at + 1 - url);
  memcpy(s + head, at + 1, rest);
  s[head + rest] = '\0';
  return s;
}

/* The body's bytes: the text DevTools shows, else its entries' bytes,
 * else -1: a body past IO_BODY_MAX, which DevTools leaves out (and the
 * trace has no size of). */
static double body_bytes(const cJSON *rq) {
  const char *pd = jstr(rq, "postData");
  if (pd) return (double)strlen(pd);
  const cJSON *ents = cJSON_GetObjectItemCaseSensitive(rq, "postDataEntries");
  double n = 0;
  const cJSON *x;
  cJSON_ArrayForEach(x, ents) {
    const char *b = jstr(x, "bytes");
    if (b) n += (double)(strlen(b) / 4 * 3);
  }
  if (n > 0) return n;
  const cJSON *has = cJSON_GetObjectItemCaseSensitive(rq, "hasPostData");
  return cJSON_IsTrue(has) ? -1 : 0;
}

static void on_request(struct cap_io *io, const cJSON *pr) {
  const char *id = jstr(pr, "requestId");
  if (!id) return;
  struct ioreq *r = req_find(io, id, 1);
  if (!r) return;
  if (cJSON_GetObjectItemCaseSensitive(pr, "redirectResponse")) {
    r->redirects++; /* the same request, to another URL */
    return;
  }
  const cJSON *rq = cJSON_GetObjectItemCaseSensitive(pr, "request");
  const cJSON *in = cJSON_GetObjectItemCaseSensitive(pr, "initiator");
  set_str(&r->method, jstr(rq, "method"));
  if (!r->url && jstr(rq, "url")) r->url = bare_url(jstr(rq, "url"));
  set_str(&r->type, jstr(pr, "type"));
  set_str(&r->initiator, jstr(in, "type"));
  r->sent = body_bytes(rq);
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(in, "stack");
  if (r->stack < 0)
    r->stack =
        stack_of(io, cJSON_GetObjectItemCaseSensitive(st, "callFrames"), 0);
}

static void on_network(struct cap_io *io, const char *m, const cJSON *pr) {
  if (!strcmp(m, "requestWillBeSent")) {
    on_request(io, pr);
    return;
  }
  const char *id = jstr(pr, "requestId");
  struct ioreq *r = id ? req_find(io, id, 0) : NULL;
  if (!r) return;
  if (!strcmp(m, "requestServedFromCache")) {
    snprintf(r->cache, sizeof r->cache, "memory");
  } else if (!strcmp(m, "responseReceived")) {
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(pr, "response");
    r->status = (int)jnum(rs, "status", 0);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rs, "fromServiceWorker")))
      snprintf(r->cache, sizeof r->cache, "sw");
    else if (cJSON_IsTrue(
                 cJSON_GetObjectItemCaseSensitive(rs, "fromDiskCache")) &&
             !r->cache[0])
      snprintf(r->cache, sizeof r->cache, "disk");
  } else if (!strcmp(m, "dataReceived")) {
    double d = jnum(pr, "dataLength", 0);
    if (d > 0 && d < 1e15) r->decoded += d;
  } else if (!strcmp(m, "loadingFinished")) {
    r->encoded = jnum(pr, "encodedDataLength", -1);
  } else if (!strcmp(m, "loadingFailed")) {
    const char *t = jstr(pr, "errorText");
    set_str(&r->failed, t && *t ? t : "failed");
  }
}

/* ---- writes ---- */

static void on_write(struct cap_io *io, const cJSON *pr) {
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(pr, "args");
  const cJSON *a0 = cJSON_GetArrayItem(args, 0);
  if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(a0, "value")) ||
      strcmp(jstr(a0, "value"), token()))
    return; /* the page's own console.trace */
  const char *kind = jstr(cJSON_GetArrayItem(args, 1), "value");
  double bytes = jnum(cJSON_GetArrayItem(args, 2), "value", 0);
  const char *what = jstr(cJSON_GetArrayItem(args, 3), "value");
  if (!kind) return;
  if (!strcmp(kind, "(wrapped)")) {
    io->frames++;
    io->frames_failed += bytes > 0;
    return;
  }
  if (!io->step) return; /* before the first traced step */
  if (!(bytes >= 0 && bytes < 1e15)) bytes = 0;
  io->writes++;
  io->write_bytes += bytes;
  char fold[256];
  zc_fold_ids(what ? what : "", what ? strlen(what) : 0, fold, sizeof fold);
  if (!strncmp(kind, "navigator.", 10) || !strncmp(kind, "WebSocket", 9) ||
      !strncmp(kind, "Cache", 5))
    zc_url_pattern(what ? what : "", NULL, fold, sizeof fold);
  /* the wrapper's two frames (note, and the function it wraps) */
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(pr, "stackTrace");
  long stack =
      stack_of(io, cJSON_GetObjectItemCaseSensitive(st, "callFrames"), 2);
  long k = st_get(&io->names, kind, strlen(kind), SIZE_MAX);
  long f = st_get(&io->names, fold, strlen(fold), SIZE_MAX);
  char key[96];
  int kn = snprintf(key, sizeof key, "%u %ld %ld %ld", io->step, k, f, stack);
  uint64_t hv = zc_hash(key, (size_t)kn, 0x7772);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&io->wh, hv, &pos, &i)) {
    struct iowrite *w = &io->w[i];
    if (w->step == io->step && w->kind == k && w->what == f &&
        w->stack == stack) {
      w->n++;
      w->bytes += bytes;
      return;
    }
  }
  if (io->nw >= IO_WRITE_KEYS) {
    io->dropped_writes++;
    return;
  }
  ZC_GROW(io->w, io->capw, io->nw + 1);
  io->w[io->nw] = (struct iowrite){io->step, k, f, stack, 1, bytes};
  zc_htab_add(&io->wh, hv, pos, (uint32_t)io->nw++);
}

static void io_event(void *arg, const char *session, const char *method,
                     const cJSON *params) {
  struct cap_io *io = arg;
  if (!session || strcmp(session, io->session)) return;
  if (!strncmp(method, "Network.", 8))
    on_network(io, method + 8, params);
  else if (!strcmp(method, "Runtime.consoleAPICalled"))
    on_write(io, params);
}

enum zc_err cap_io_start(struct cdp_conn *conn, struct cdp_page *p,
                         struct cap_io **out) {
  struct cap_io *io = zc_xcalloc(1, sizeof *io);
  io->conn = conn;
  io->session = zc_xstrdup(cdp_page_session(p));
  st_init(&io->stacks);
  st_init(&io->names);
  zc_htab_init(&io->reqh, 256);
  zc_htab_init(&io->wh, 256);
  cdp_on_event(conn, io_event, io);
  *out = io;
  return ZC_OK;
}

void cap_io_step(void *arg, unsigned step) {
  ((struct cap_io *)arg)->step = step;
}

void cap_io_free(struct cap_io *io) {
  if (!io) return;
  cdp_off_event(io->conn, io_event, io);
  for (size_t i = 0; i < io->nreq; i++) {
    struct ioreq *r = &io->req[i];
    free(r->id);
    free(r->method);
    free(r->url);
    free(r->type);
    free(r->initiator);
    free(r->failed);
  }
  free(io->req);
  free(io->w);
  zc_htab_free(&io->reqh);
  zc_htab_free(&io->wh);
  st_free(&io->stacks);
  st_free(&io->names);
  free(io->session);
  free(io);
}

/* ---- the file ---- */

static void put_str(FILE *f, const char *s) {
  struct zc_buf b;
  zc_buf_init(&b, (size_t)1 << 26);
  json_str(&b, s);
  fputs(b.ptr ? b.ptr : "\"\"", f);
  zc_buf_free(&b);
}

static void put_req(FILE *f, const struct ioreq *r) {
  fputs("{\"id\":", f);
  put_str(f, r->id);
  fprintf(f, ",\"step\":%u,\"stack\":", r->step);
  if (r->stack >= 0)
    fprintf(f, "%ld", r->stack);
  else
    fputs("null", f);
  static const char *const keys[] = {"method", "url", "type", "initiator",
                                     "failed"};
  const char *vals[] = {r->method, r->url, r->type, r->initiator, r->failed};
  for (size_t k = 0; k < ZC_ARRAY_LEN(keys); k++)
    if (vals[k]) {
      fprintf(f, ",\"%s\":", keys[k]);
      put_str(f, vals[k]);
    }
  if (r->sent >= 0) fprintf(f, ",\"sent\":%.0f", r->sent);
  if (r->sent < 0) fprintf(f, ",\"sent\":%d,\"sent_cut\":true", IO_BODY_MAX);
  if (r->encoded >= 0) fprintf(f, ",\"encoded\":%.0f", r->encoded);
  fprintf(f, ",\"decoded\":%.0f", r->decoded);
  if (r->status) fprintf(f, ",\"status\":%d", r->status);
  if (r->cache[0]) fprintf(f, ",\"cache\":\"%s\"", r->cache);
  if (r->redirects) fprintf(f, ",\"redirects\":%u", r->redirects);
  fputs("}", f);
}

static enum zc_err put_io(void *arg, FILE *f) {
  const struct cap_io *io = arg;
  fputs("{\"schema\":\"zamcap-io/1\",\"stacks\":[", f);
  for (size_t i = 0; i < io->stacks.n; i++)
    fprintf(f, "%s\n%s", i ? "," : "", io->stacks.v[i]);
  fputs("],\n\"requests\":[", f);
  for (size_t i = 0; i < io->nreq; i++) {
    fputs(i ? ",\n" : "\n", f);
    put_req(f, &io->req[i]);
  }
  fputs("],\n\"writes\":[", f);
  for (size_t i = 0; i < io->nw; i++) {
    const struct iowrite *w = &io->w[i];
    fprintf(f, "%s\n{\"step\":%u,\"kind\":", i ? "," : "", w->step);
    put_str(f, io->names.v[w->kind]);
    fputs(",\"key\":", f);
    put_str(f, io->names.v[w->what]);
    fprintf(f, ",\"stack\":");
    if (w->stack >= 0)
      fprintf(f, "%ld", w->stack);
    else
      fputs("null", f);
    fprintf(f, ",\"n\":%.0f,\"bytes\":%.0f}", w->n, w->bytes);
  }
  fprintf(f,
          "],\n\"wrapper\":{\"frames\":%u,\"frames_failed\":%u},"
          "\"totals\":{\"writes\":%.0f,\"write_bytes\":%.0f},"
          "\"caps\":{\"stacks\":%d,\"requests\":%d,\"write_keys\":%d,"
          "\"dropped_stacks\":%lu,\"dropped_requests\":%lu,"
          "\"dropped_writes\":%lu}}\n",
          io->frames, io->frames_failed, io->writes, io->write_bytes, IO_STACKS,
          IO_REQUESTS, IO_WRITE_KEYS, io->dropped_stacks, io->dropped_requests,
          io->dropped_writes);
  return ZC_OK;
}

enum zc_err cap_io_end(struct cap_io *io, const char *trace_base) {
  /* Events still on their way (the page's last writes) come first. */
  enum zc_err e = cdp_wait(io->conn, NULL, NULL, 50, NULL);
  if (e) return e;
  char path[4200];
  snprintf(path, sizeof path, "%s" ZC_OUT_IO_EXT, trace_base);
  if (io->dropped_stacks || io->dropped_requests || io->dropped_writes)
    zc_log(1,
           "I/O run past its caps: %lu stacks, %lu requests and %lu "
           "writes' keys not kept one by one (counted)",
           io->dropped_stacks, io->dropped_requests, io->dropped_writes);
  return zc_write_atomic(path, put_io, io);
}
