/* The DevTools connection: commands matched to responses by id, events
 * dispatched to handlers, and every way it can break turned into an error.
 * Two transports carry the messages: a libwebsockets client (--browser-url,
 * a Chrome someone else started) or, for the Chrome zamcap launches, the
 * pipe pair of --remote-debugging-pipe (each message a JSON text ended by
 * a NUL byte), which no other account on the machine can reach. */
#include <errno.h>
#include <fcntl.h>
#include <libwebsockets.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cdp-int.h"

/* The largest message kept (512 MiB; IO.read chunks are far less; tests
 * lower it). */
size_t cdp__max_message = (size_t)512 << 20;
#define CDP_MAX_MESSAGE cdp__max_message
#define CDP_TICK_US     (50 * LWS_US_PER_MS) /* longest wait inside lws */

struct cdp_handler {
  cdp_event_fn fn;
  void *arg;
};

struct cdp_out {
  unsigned char *buf; /* LWS_PRE bytes of room, then the message */
  size_t len;
};

struct cdp_conn {
  struct lws_context *ctx; /* the WebSocket transport, or NULL */
  struct lws *wsi;
  int rfd, wfd; /* the pipe transport: Chrome's fd 4 and fd 3, or -1 */
  size_t wpos;  /* bytes of outq[0] already written to the pipe */
  int rmid;     /* a message is half read from the pipe */
  int rskip;    /* the message coming in is over the maximum: dropped */
  lws_sorted_usec_list_t sul;
  char url[512];
  int pid;
  double timeout_ms;
  int established;
  /* sticky: the connection is unusable */
  enum zc_err fatal;
  char fatal_msg[512];
  /* one-shot: ends the current wait */
  enum zc_err abort_err;
  char abort_msg[512];
  struct zc_buf rx;
  struct cdp_out *outq;
  size_t nout, capout;
  uint64_t next_id, want_id;
  int discovering; /* Target.setDiscoverTargets is on */
  cJSON *resp;
  struct cdp_handler *hs;
  size_t nhs, caphs;
  struct cdp_stats stats;
};

static void conn_fatal(struct cdp_conn *c, enum zc_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void conn_fatal(struct cdp_conn *c, enum zc_err e, const char *fmt,
                       ...) {
  if (c->fatal) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->fatal_msg, sizeof c->fatal_msg, fmt, ap);
  va_end(ap);
  c->fatal = e;
}

void cdp__abort(struct cdp_conn *c, enum zc_err err, const char *msg) {
  if (c->abort_err) return;
  c->abort_err = err;
  snprintf(c->abort_msg, sizeof c->abort_msg, "%s", msg);
}

double cdp__timeout(const struct cdp_conn *c, double t) {
  return t > 0 ? t : c->timeout_ms;
}

static void conn_message(struct cdp_conn *c) {
  c->stats.rx_messages++;
  if (c->rx.len > c->stats.rx_largest) c->stats.rx_largest = c->rx.len;
  zc_log(4, "cdp < %.*s", c->rx.len > 300 ? 300 : (int)c->rx.len,
         c->rx.ptr ? c->rx.ptr : "");
  cJSON *m = cJSON_ParseWithLength(c->rx.ptr, c->rx.len);
  if (!m || !cJSON_IsObject(m)) {
    conn_fatal(c, ZC_E_BROWSER,
               "DevTools sent a malformed message (%zu "
               "bytes, not a JSON object): %.60s",
               c->rx.len, c->rx.ptr ? c->rx.ptr : "");
    cJSON_Delete(m);
    return;
  }
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
  const cJSON *method = cJSON_GetObjectItemCaseSensitive(m, "method");
  if (cJSON_IsNumber(id)) {
    double v = id->valuedouble;
    if (v == (double)c->want_id && !c->resp) {
      c->resp = m;
      return;
    }
    /* An answer to a command that timed out is late, not wrong. */
    if (!(v >= 1 && v <= (double)c->next_id))
      conn_fatal(c, ZC_E_BROWSER,
                 "DevTools answered command id %.0f, which "
                 "zamcap never sent",
                 v);
  } else if (cJSON_IsString(method)) {
    const cJSON *sess = cJSON_GetObjectItemCaseSensitive(m, "sessionId");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(m, "params");
    const char *s = cJSON_IsString(sess) ? sess->valuestring : NULL;
    /* Handlers must not add or remove handlers while they run. */
    for (size_t i = 0; i < c->nhs; i++)
      c->hs[i].fn(c->hs[i].arg, s, method->valuestring, params);
  } else {
    conn_fatal(c, ZC_E_BROWSER,
               "DevTools sent a message with neither id "
               "nor method: %.60s",
               c->rx.ptr);
  }
  cJSON_Delete(m);
}

int cdp__receive(struct cdp_conn *c, const void *in, size_t len, int first,
                 int final) {
  if (first) zc_buf_reset(&c->rx), c->rskip = 0;
  c->stats.rx_bytes += len;
  if (c->rskip) {
    c->rskip = !final;
    return 0;
  }
  if (zc_buf_add(&c->rx, in, len)) {
    /* One message too big (a page that POSTs 400 MB bodies makes such
     * Network events): it is dropped up to its end, the next NUL on the
     * pipe or its last frame, and the wait in progress fails, so that
     * only the run it came in fails; the connection goes on. */
    zc_buf_free(&c->rx);
    zc_buf_init(&c->rx, CDP_MAX_MESSAGE);
    c->rskip = !final;
    c->stats.rx_dropped++;
    char msg[160];
    snprintf(msg, sizeof msg,
             "DevTools sent a message over %zu MB (dropped; the connection "
             "goes on)",
             CDP_MAX_MESSAGE >> 20);
    cdp__abort(c, ZC_E_BROWSER, msg);
  } else if (final) {
    conn_message(c);
  }
  return 0;
}

struct cdp_conn *cdp__conn_detached(void) {
  struct cdp_conn *c = zc_xcalloc(1, sizeof *c);
  snprintf(c->url, sizeof c->url, "(detached)");
  c->rfd = c->wfd = -1;
  c->timeout_ms = 30000;
  zc_buf_init(&c->rx, CDP_MAX_MESSAGE);
  return c;
}

void cdp__expect(struct cdp_conn *c, uint64_t id) {
  if (id > c->next_id) c->next_id = id;
  c->want_id = id;
  cJSON_Delete(c->resp);
  c->resp = NULL;
}

enum zc_err cdp__fatal(const struct cdp_conn *c) {
  return c->fatal;
}

/* Hands over the response awaited (after conn_has_resp): its "result", or
 * Chrome's error as ZC_E_CDP. */
static enum zc_err conn_take_resp(struct cdp_conn *c, const char *method,
                                  cJSON **result) {
  cJSON *r = c->resp;
  c->resp = NULL;
  const cJSON *err = cJSON_GetObjectItemCaseSensitive(r, "error");
  if (err) {
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(err, "data");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
    enum zc_err e = zc_fail(ZC_E_CDP, "%s: %s%s%s (%d)", method,
                            cJSON_IsString(msg) ? msg->valuestring : "error",
                            cJSON_IsString(data) ? ": " : "",
                            cJSON_IsString(data) ? data->valuestring : "",
                            cJSON_IsNumber(code) ? code->valueint : 0);
    cJSON_Delete(r);
    return e;
  }
  if (result) {
    *result = cJSON_DetachItemFromObjectCaseSensitive(r, "result");
    if (!*result) *result = cJSON_CreateObject();
  }
  cJSON_Delete(r);
  return ZC_OK;
}

int cdp__take(struct cdp_conn *c, const char *method, cJSON **result,
              enum zc_err *e) {
  if (result) *result = NULL;
  if (!c->resp) return 0;
  *e = conn_take_resp(c, method, result);
  return 1;
}

/* A watched Chrome that exited is fatal. WNOWAIT leaves it for the
 * browser's own reaping. */
static void conn_check_pid(struct cdp_conn *c) {
  if (!c->pid || c->fatal) return;
  siginfo_t si;
  memset(&si, 0, sizeof si);
  if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
      si.si_pid == c->pid) {
    if (si.si_code == CLD_EXITED)
      conn_fatal(c, ZC_E_BROWSER, "Chrome (pid %d) exited with status %d",
                 c->pid, si.si_status);
    else
      conn_fatal(c, ZC_E_BROWSER,
                 "Chrome (pid %d) was killed by signal %d "
                 "(%s)",
                 c->pid, si.si_status, strsignal(si.si_status));
  }
}

static int conn_cb(struct lws *wsi, enum lws_callback_reasons reason,
                   void *user, void *in, size_t len) {
  (void)user;
  struct lws_context *ctx = lws_get_context(wsi);
  struct cdp_conn *c = ctx ? lws_context_user(ctx) : NULL;
  if (!c) return 0;
  switch (reason) {
  case LWS_CALLBACK_CLIENT_ESTABLISHED: c->established = 1; break;
  case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    conn_fatal(c, ZC_E_BROWSER, "cannot connect to DevTools at %s: %s", c->url,
               in && len ? (const char *)in : "connection failed");
    c->wsi = NULL;
    break;
  case LWS_CALLBACK_CLIENT_RECEIVE:
    return cdp__receive(c, in, len, lws_is_first_fragment(wsi),
                        lws_is_final_fragment(wsi) &&
                            !lws_remaining_packet_payload(wsi));
  case LWS_CALLBACK_CLIENT_WRITEABLE:
    if (c->nout) {
      struct cdp_out o = c->outq[0];
      memmove(c->outq, c->outq + 1, (c->nout - 1) * sizeof *c->outq);
      c->nout--;
      int n = lws_write(wsi, o.buf + LWS_PRE, o.len, LWS_WRITE_TEXT);
      free(o.buf);
      if (n < (int)o.len) {
        conn_fatal(c, ZC_E_BROWSER, "writing to DevTools failed");
        return -1;
      }
      c->stats.tx_messages++;
      if (c->nout) lws_callback_on_writable(wsi);
    }
    break;
  case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
  case LWS_CALLBACK_CLIENT_CLOSED:
    /* A socket closed because Chrome died says less than its death. */
    zc_sleep_ms(20);
    conn_check_pid(c);
    conn_fatal(c, ZC_E_BROWSER, "the DevTools connection to %s closed", c->url);
    c->wsi = NULL;
    break;
  default: break;
  }
  return 0;
}

static const struct lws_protocols conn_protocols[] = {
    /* Large reads: a trace arrives as megabytes of IO.read results, and
     * lws's defaults (4 KB) would cost a syscall and a callback each. */
    {"cdp", conn_cb, 0, 1 << 20, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void conn_tick(lws_sorted_usec_list_t *sul) {
  struct cdp_conn *c = lws_container_of(sul, struct cdp_conn, sul);
  lws_sul_schedule(c->ctx, 0, &c->sul, conn_tick, CDP_TICK_US);
}

static void conn_lwslog(int level, const char *line) {
  zc_log(3, "lws(%d): %s", level, line);
}

/* The pipe's end closed or broke: Chrome's death says more, when it is
 * that. */
static void pipe_broken(struct cdp_conn *c, const char *what) {
  zc_sleep_ms(20);
  conn_check_pid(c);
  conn_fatal(c, ZC_E_BROWSER, "Chrome's DevTools pipe %s", what);
}

/* Moves what can move on the pipe pair, waiting up to wait_ms (at most a
 * tick) for it: queued commands out, each ended by NUL; messages in, split
 * at each NUL into cdp__receive. */
static void pipe_pump(struct cdp_conn *c, double wait_ms) {
  if (c->fatal || c->rfd < 0) {
    zc_sleep_ms(wait_ms > 50 ? 50 : wait_ms > 0 ? (unsigned)wait_ms : 0);
    return;
  }
  struct pollfd pf[2] = {{c->rfd, POLLIN, 0}, {c->wfd, POLLOUT, 0}};
  nfds_t n = c->nout ? 2 : 1;
  int ms = wait_ms > 50 ? 50 : wait_ms > 0 ? (int)wait_ms : 0;
  if (poll(pf, n, ms) <= 0) return;
  if (n == 2 && pf[1].revents & (POLLOUT | POLLERR | POLLHUP)) {
    while (c->nout) {
      struct cdp_out *o = &c->outq[0];
      size_t all = o->len + 1; /* with its NUL */
      ssize_t w = write(c->wfd, o->buf + LWS_PRE + c->wpos, all - c->wpos);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (w <= 0) {
        pipe_broken(c, "closed for writing");
        return;
      }
      c->wpos += (size_t)w;
      if (c->wpos < all) break;
      free(o->buf);
      memmove(c->outq, c->outq + 1, (c->nout - 1) * sizeof *c->outq);
      c->nout--;
      c->wpos = 0;
      c->stats.tx_messages++;
    }
  }
  if (!(pf[0].revents & (POLLIN | POLLERR | POLLHUP))) return;
  static char chunk[1 << 20]; /* a trace comes as megabytes of IO.read */
  for (;;) {
    ssize_t r = read(c->rfd, chunk, sizeof chunk);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (r <= 0) {
      pipe_broken(c, "closed");
      return;
    }
    const char *p = chunk, *e = chunk + r;
    while (p < e && !c->fatal) {
      const char *nul = memchr(p, '\0', (size_t)(e - p));
      size_t len = (size_t)((nul ? nul : e) - p);
      if (cdp__receive(c, p, len, !c->rmid, nul != NULL) < 0) return;
      c->rmid = nul == NULL;
      p += len + (nul != NULL);
    }
    if (r < (ssize_t)sizeof chunk) return;
  }
}

enum zc_err cdp_connect_pipe(int rfd, int wfd, int pid, double timeout_ms,
                             struct cdp_conn **out) {
  struct cdp_conn *c = zc_xcalloc(1, sizeof *c);
  snprintf(c->url, sizeof c->url, "pipe");
  c->rfd = rfd;
  c->wfd = wfd;
  c->pid = pid;
  c->timeout_ms = timeout_ms > 0 ? timeout_ms : 30000;
  c->established = 1;
  zc_buf_init(&c->rx, CDP_MAX_MESSAGE);
  fcntl(rfd, F_SETFL, fcntl(rfd, F_GETFL) | O_NONBLOCK);
  fcntl(wfd, F_SETFL, fcntl(wfd, F_GETFL) | O_NONBLOCK);
  *out = c;
  return ZC_OK;
}

enum zc_err cdp_wait(struct cdp_conn *c, int (*done)(void *), void *arg,
                     double timeout_ms, const char *what) {
  double deadline = zc_now_ms() + timeout_ms;
  for (;;) {
    if (zc_interrupted)
      return zc_fail(ZC_E_INTERRUPTED, "interrupted while waiting for %s",
                     what ? what : "Chrome");
    if (c->abort_err) {
      enum zc_err e = c->abort_err;
      c->abort_err = ZC_OK;
      return zc_fail(e, "%s", c->abort_msg);
    }
    if (done && done(arg)) return ZC_OK;
    conn_check_pid(c);
    if (c->fatal) return zc_fail(c->fatal, "%s", c->fatal_msg);
    if (zc_now_ms() >= deadline) {
      if (!done) return ZC_OK;
      return zc_fail(ZC_E_TIMEOUT, "%s: no answer from Chrome in %.0f s",
                     what ? what : "waiting", timeout_ms / 1000);
    }
    if (c->ctx)
      lws_service(c->ctx, 0);
    else
      pipe_pump(c, deadline - zc_now_ms());
  }
}

static int conn_is_established(void *arg) {
  return ((struct cdp_conn *)arg)->established;
}

enum zc_err cdp_connect(const char *ws_url, int pid, double timeout_ms,
                        struct cdp_conn **out) {
  *out = NULL;
  struct cdp_conn *c = zc_xcalloc(1, sizeof *c);
  snprintf(c->url, sizeof c->url, "%s", ws_url);
  c->rfd = c->wfd = -1;
  c->pid = pid;
  c->timeout_ms = timeout_ms > 0 ? timeout_ms : 30000;
  zc_buf_init(&c->rx, CDP_MAX_MESSAGE);
  lws_set_log_level(zc_verbosity >= 3 ? LLL_ERR | LLL_WARN : 0, conn_lwslog);

  char parse[512];
  snprintf(parse, sizeof parse, "%s", ws_url);
  const char *prot = NULL, *addr = NULL, *path = NULL;
  int port = 0;
  if (lws_parse_uri(parse, &prot, &addr, &port, &path) ||
      strcmp(prot, "ws") != 0) {
    free(c);
    return zc_fail(ZC_E_USAGE, "%s: not a ws:// DevTools URL", ws_url);
  }
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.protocols = conn_protocols;
  info.gid = -1;
  info.uid = -1;
  info.user = c;
  /* lws sizes its tables by the fd limit, which can be a million. */
  info.fd_limit_per_thread = 64;
  info.pt_serv_buf_size = 1 << 20;
  c->ctx = lws_create_context(&info);
  if (!c->ctx) {
    free(c);
    return zc_fail(ZC_E_BROWSER, "cannot set up a WebSocket client");
  }
  lws_sul_schedule(c->ctx, 0, &c->sul, conn_tick, CDP_TICK_US);

  char fullpath[512];
  snprintf(fullpath, sizeof fullpath, "/%s", path ? path : "");
  char host[300];
  snprintf(host, sizeof host, "%s:%d", addr, port);
  struct lws_client_connect_info ci;
  memset(&ci, 0, sizeof ci);
  ci.context = c->ctx;
  ci.address = addr;
  ci.port = port;
  ci.path = fullpath;
  ci.host = host;
  /* No Origin header: Chrome refuses WebSocket origins it was not told
   * to allow (--remote-allow-origins), and a client needs none. */
  ci.origin = NULL;
  ci.protocol = NULL;
  ci.pwsi = &c->wsi;
  if (!lws_client_connect_via_info(&ci) && !c->fatal)
    conn_fatal(c, ZC_E_BROWSER, "cannot connect to DevTools at %s", ws_url);
  enum zc_err e = cdp_wait(c, conn_is_established, c, c->timeout_ms,
                           "the DevTools WebSocket handshake");
  if (e) {
    cdp_conn_free(c);
    return e;
  }
  *out = c;
  return ZC_OK;
}

void cdp_conn_free(struct cdp_conn *c) {
  if (!c) return;
  /* Commands still queued (a last page's close) are dropped: the contexts
   * zamcap made are disposed when its connection goes (disposeOnDetach). */
  if (c->ctx) {
    lws_sul_schedule(c->ctx, 0, &c->sul, NULL, LWS_SET_TIMER_USEC_CANCEL);
    lws_context_destroy(c->ctx);
  }
  if (c->rfd >= 0) close(c->rfd);
  if (c->wfd >= 0) close(c->wfd);
  for (size_t i = 0; i < c->nout; i++)
    free(c->outq[i].buf);
  free(c->outq);
  free(c->hs);
  cJSON_Delete(c->resp);
  zc_buf_free(&c->rx);
  free(c);
}

void cdp_on_event(struct cdp_conn *c, cdp_event_fn fn, void *arg) {
  ZC_GROW(c->hs, c->caphs, c->nhs + 1);
  c->hs[c->nhs++] = (struct cdp_handler){fn, arg};
}

void cdp_off_event(struct cdp_conn *c, cdp_event_fn fn, void *arg) {
  for (size_t i = 0; i < c->nhs; i++)
    if (c->hs[i].fn == fn && c->hs[i].arg == arg) {
      memmove(c->hs + i, c->hs + i + 1, (c->nhs - i - 1) * sizeof *c->hs);
      c->nhs--;
      return;
    }
}

void cdp_conn_stats(const struct cdp_conn *c, struct cdp_stats *s) {
  *s = c->stats;
}

static int conn_has_resp(void *arg) {
  return ((struct cdp_conn *)arg)->resp != NULL;
}

/* Queues one command; its id, or 0 when it could not be built. */
static uint64_t conn_queue(struct cdp_conn *c, const char *session,
                           const char *method, cJSON *params) {
  cJSON *m = cJSON_CreateObject();
  uint64_t id = ++c->next_id;
  cJSON_AddNumberToObject(m, "id", (double)id);
  cJSON_AddStringToObject(m, "method", method);
  cJSON_AddItemToObject(m, "params", params ? params : cJSON_CreateObject());
  if (session) cJSON_AddStringToObject(m, "sessionId", session);
  char *text = cJSON_PrintUnformatted(m);
  cJSON_Delete(m);
  if (!text) return 0;
  size_t len = strlen(text);
  ZC_GROW(c->outq, c->capout, c->nout + 1);
  struct cdp_out *o = &c->outq[c->nout++];
  o->buf = zc_xmalloc(LWS_PRE + len + 1);
  memcpy(o->buf + LWS_PRE, text, len);
  o->buf[LWS_PRE + len] = '\0'; /* the pipe's end of message */
  o->len = len;
  free(text);
  if (c->wsi) lws_callback_on_writable(c->wsi);
  return id;
}

void cdp_send(struct cdp_conn *c, const char *session, const char *method,
              cJSON *params) {
  if (c->fatal) {
    cJSON_Delete(params);
    return;
  }
  /* Its answer, when it comes, is one no wait wants: it is dropped. */
  conn_queue(c, session, method, params);
}

enum zc_err cdp_call(struct cdp_conn *c, const char *session,
                     const char *method, cJSON *params, double timeout_ms,
                     cJSON **result) {
  if (result) *result = NULL;
  if (c->fatal) {
    cJSON_Delete(params);
    return zc_fail(c->fatal, "%s", c->fatal_msg);
  }
  uint64_t id = conn_queue(c, session, method, params);
  if (!id) return zc_fail(ZC_E_NOMEM, "%s: out of memory", method);
  c->want_id = id;
  cJSON_Delete(c->resp);
  c->resp = NULL;
  double t0 = zc_now_ms();
  enum zc_err e =
      cdp_wait(c, conn_has_resp, c, cdp__timeout(c, timeout_ms), method);
  zc_log(3, "cdp %s: %.0f ms", method, zc_now_ms() - t0);
  if (e) return e;
  return conn_take_resp(c, method, result);
}

enum zc_err cdp__discover_targets(struct cdp_conn *c) {
  if (c->discovering) return ZC_OK;
  enum zc_err e = cdp_call(c, NULL, "Target.setDiscoverTargets",
                           cJSON_Parse("{\"discover\":true}"), 0, NULL);
  if (!e) c->discovering = 1;
  return e;
}
