/* cdp: zamcap's Chrome DevTools Protocol client. Finding or launching
 * Chrome, HTTP discovery (libcurl), one WebSocket to the browser
 * (libwebsockets), commands and events over flattened target sessions,
 * pages in fresh browser contexts, and tracing straight to a file.
 *
 * Everything is synchronous: a call services the connection until its
 * answer, an error or its timeout. Nothing Chrome sends can crash zamcap:
 * a closed socket, a crashed target, Chrome exiting, a malformed message
 * all become an error whose zc_errmsg() names what happened.
 *
 * Ownership: objects from the _start, _connect and _open calls are the
 * caller's and are freed with the matching _free or _close (NULL is a
 * no-op). cJSON params
 * passed to cdp_call are taken; results handed out are the caller's. Other
 * arguments are borrowed. */
#ifndef CDP_H
#define CDP_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "zc.h"

/* ---- the browser ---- */

struct cdp_opts {
  const char *chrome;      /* --chrome PATH; NULL: $CHROME_PATH, then PATH */
  const char *browser_url; /* attach: http://HOST:PORT or ws://...; NULL:
                              launch */
  const char *log_path;    /* Chrome's stdout/stderr; NULL: /dev/null */
  int headful;             /* show the window */
  double timeout_ms;       /* per command; default 30000 */
};
void cdp_opts_default(struct cdp_opts *o);

struct cdp_browser;
/* Launches Chrome (fresh temporary profile, --remote-debugging-port=0) or
 * attaches to one, and connects to its browser target. */
enum zc_err cdp_browser_start(const struct cdp_opts *o,
                              struct cdp_browser **out);
/* Ends a Chrome zamcap started (its whole process group) and removes its
 * profile; for an attached one, only disconnects. */
void cdp_browser_free(struct cdp_browser *b);
const char *cdp_browser_version(const struct cdp_browser *b); /* "Chrome/…" */
const char *cdp_browser_ws_url(const struct cdp_browser *b);
int cdp_browser_pid(const struct cdp_browser *b); /* 0 when attached */
/* The flags zamcap launched Chrome with, one a line; "" when attached. */
const char *cdp_browser_flags(const struct cdp_browser *b);

/* Finds the Chrome binary as --chrome would: path, $CHROME_PATH, then
 * chromium, chromium-browser, google-chrome, google-chrome-stable on PATH.
 * Returns a malloc'd path or NULL with a message. */
char *cdp_find_chrome(const char *path);

/* For signal handlers: SIGKILL every Chrome this process started. Only
 * async-signal-safe calls. */
void cdp_kill_all_now(void);
/* Set from a signal handler; every wait then returns ZC_E_INTERRUPTED.
 * It is the core's flag (zc_interrupted), whose signal zc_exit_for turns
 * into 128 + signal; this name stays for the code that still says it. */
#define cdp_interrupted zc_interrupted

/* ---- the connection ---- */

struct cdp_conn;
/* Connects to a DevTools WebSocket URL (ws://host:port/path). pid, when
 * not 0, is a Chrome process watched while waiting. */
/* The same over the pipe pair of a Chrome started with
 * --remote-debugging-pipe: rfd is its fd 4 (what it writes), wfd its fd 3;
 * the connection owns both. */
enum zc_err cdp_connect_pipe(int rfd, int wfd, int pid, double timeout_ms,
                             struct cdp_conn **out);
enum zc_err cdp_connect(const char *ws_url, int pid, double timeout_ms,
                        struct cdp_conn **out);
void cdp_conn_free(struct cdp_conn *c);
struct cdp_conn *cdp_browser_conn(struct cdp_browser *b);

/* Sends method (on a target session, or the browser when session is NULL)
 * with params (taken; NULL for none) and waits for its response. On
 * success *result (if result is not NULL) is the "result" object, the
 * caller's. A CDP error becomes ZC_E_CDP with "METHOD: Chrome's message".
 * timeout_ms <= 0 uses the connection's default. */
enum zc_err cdp_call(struct cdp_conn *c, const char *session,
                     const char *method, cJSON *params, double timeout_ms,
                     cJSON **result);

/* Sends method without waiting: its answer, and any error, is dropped.
 * For housekeeping nothing depends on (closing a finished run's page). */
void cdp_send(struct cdp_conn *c, const char *session, const char *method,
              cJSON *params);

/* Events: every handler sees every event (method, params, session or
 * NULL). Handlers run inside cdp_call/cdp_wait. */
typedef void (*cdp_event_fn)(void *arg, const char *session, const char *method,
                             const cJSON *params);
void cdp_on_event(struct cdp_conn *c, cdp_event_fn fn, void *arg);
void cdp_off_event(struct cdp_conn *c, cdp_event_fn fn, void *arg);

/* Services the connection until done(arg) is true (ZC_OK), timeout_ms
 * passes (ZC_E_TIMEOUT, with "what" in the message) or something breaks.
 * done may be NULL: then it just waits timeout_ms and returns ZC_OK. */
enum zc_err cdp_wait(struct cdp_conn *c, int (*done)(void *), void *arg,
                     double timeout_ms, const char *what);

/* Statistics: bytes received, messages, largest message. */
struct cdp_stats {
  uint64_t rx_bytes, rx_messages, tx_messages;
  uint64_t rx_dropped; /* messages over the maximum, dropped */
  size_t rx_largest;
};
void cdp_conn_stats(const struct cdp_conn *c, struct cdp_stats *s);

/* ---- pages ---- */

struct cdp_page;
/* A new page in a fresh browser context (so caches and storage do not
 * leak between runs), attached through a flattened session, with the
 * domains zamcap listens to enabled. */
enum zc_err cdp_page_open(struct cdp_conn *c, struct cdp_page **out);
/* A passive page (one kept ready for later) that crashes or goes away is
 * marked crashed; an active one's crash also ends the wait in progress,
 * whatever it waits for, as that wait is the page's. */
void cdp_page_passive(struct cdp_page *p, int on);
int cdp_page_crashed(const struct cdp_page *p);
/* JavaScript dialogs (alert, confirm, prompt, beforeunload) are answered
 * as they open, as a user who clicks them away would: dismissed, except a
 * beforeunload, which is accepted so that the navigation goes on.
 * cdp_page_dialogs says how many the page opened, and the first as
 * 'type: "message"' in first (cap bytes) when first is not NULL. */
unsigned cdp_page_dialogs(const struct cdp_page *p, char *first, size_t cap);
/* The origin (of url) the page's runs are expected to stay on; a
 * main-frame navigation to another origin is noted. cdp_page_away says
 * whether one happened since, and writes its URL (as zc_url_shown shows
 * it) to url. */
void cdp_page_home(struct cdp_page *p, const char *url);
int cdp_page_away(const struct cdp_page *p, char *url, size_t cap);
/* Closes the page and disposes of its browser context. */
void cdp_page_close(struct cdp_page *p);
const char *cdp_page_session(const struct cdp_page *p);
struct cdp_conn *cdp_page_conn(const struct cdp_page *p);
/* Before an action that may navigate: forget the last load event. Then
 * cdp_page_wait_load waits for the next one. */
void cdp_page_expect_load(struct cdp_page *p);
enum zc_err cdp_page_wait_load(struct cdp_page *p, double timeout_ms);
/* Navigates and waits for the load event (a failed navigation is an error
 * naming the URL and Chrome's reason). */
enum zc_err cdp_page_navigate(struct cdp_page *p, const char *url,
                              double timeout_ms);
/* Waits until the page is quiet: no request in flight and no long task
 * for quiet_ms, bounded by timeout_ms (then ZC_E_TIMEOUT). */
enum zc_err cdp_page_settle(struct cdp_page *p, double quiet_ms,
                            double timeout_ms);
/* How a settle ended. settled 0: the page never went quiet (it polls,
 * animates, holds a socket) and the wait stopped at its limit; busy_ms is
 * the main thread's task time over the wait. */
struct cdp_settle {
  int settled, loaded;
  double waited_ms, busy_ms;
  size_t inflight;
};
/* The same; once the page has been quiet for half of quiet_ms, calls
 * idle(arg) once (which may use the connection): work that should not
 * share the CPU with the page's, done while the page has none. With st,
 * a page still busy at timeout_ms is no error: st says how it was. */
enum zc_err cdp_page_settle_idle(struct cdp_page *p, double quiet_ms,
                                 double timeout_ms, void (*idle)(void *),
                                 void *arg, struct cdp_settle *st);

/* ---- tracing ---- */

/* The categories the DevTools Performance panel records, CPU profile
 * samples included. */
extern const char *const cdp_default_categories;
/* Starts tracing (categories: comma-separated; NULL for the default) with
 * transferMode ReturnAsStream; gzip asks Chrome to compress the stream,
 * which moves several times fewer bytes through the WebSocket. */
enum zc_err cdp_trace_start(struct cdp_conn *c, const char *session,
                            const char *categories, int gzip);
/* Ends tracing, waits for Tracing.tracingComplete and streams the trace
 * with IO.read to base + ".json.gz" or base + ".json", whichever the bytes
 * are (written under a .part name, renamed when whole). *path gets the
 * file's name (caller frees), *bytes its size. */
enum zc_err cdp_trace_stop(struct cdp_conn *c, const char *session,
                           const char *base, double timeout_ms, char **path,
                           uint64_t *bytes);
/* The same in two halves, so that other work can go on while Chrome
 * flushes its buffers (hundreds of ms): cdp_trace_end sends Tracing.end;
 * cdp_trace_collect waits for the trace and streams it as above, and
 * frees t whatever happens. The session must stay open in between. */
struct cdp_trace;
enum zc_err cdp_trace_end(struct cdp_conn *c, const char *session,
                          double timeout_ms, struct cdp_trace **out);
enum zc_err cdp_trace_collect(struct cdp_trace *t, const char *base,
                              double timeout_ms, char **path, uint64_t *bytes);

#endif
