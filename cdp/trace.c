/* Tracing to a file: Tracing.start with ReturnAsStream, Tracing.end, then
 * IO.read in large chunks straight to disk. The trace never has to fit in
 * memory, and a partial file never has the final name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdp-int.h"

/* What the DevTools Performance panel records (and Puppeteer's default),
 * CPU profile samples included, less "toplevel": Chrome's own scheduler
 * and IPC events, over half of a page's events, which neither zamcap nor
 * the panel's tracks need (its tasks are devtools.timeline's RunTask).
 * Without them Chrome flushes a trace in about half the time, and that
 * flush is most of zamcap's own time per run. "loading" is added for the
 * web vitals: it alone carries LayoutShift (CLS), and a trace without it
 * cannot tell a CLS of 0 from one not recorded. It adds about 10 % to a
 * trace's events and 17 % to its bytes, and nothing measurable to a run's
 * time (docs/web-vitals.md). */
const char *const cdp_default_categories =
    "devtools.timeline,v8.execute,disabled-by-default-devtools.timeline,"
    "disabled-by-default-devtools.timeline.frame,blink.console,"
    "blink.user_timing,latencyInfo,disabled-by-default-devtools.timeline.stack,"
    "disabled-by-default-v8.cpu_profiler,loading";

#define TRACE_CHUNK (4 << 20) /* bytes asked per IO.read */

enum zc_err cdp_trace_start(struct cdp_conn *c, const char *session,
                            const char *categories, int gzip) {
  cJSON *cfg = cJSON_CreateObject();
  cJSON_AddStringToObject(cfg, "recordMode", "recordAsMuchAsPossible");
  cJSON *inc = cJSON_AddArrayToObject(cfg, "includedCategories");
  const char *s = categories ? categories : cdp_default_categories;
  while (*s) {
    size_t n = strcspn(s, ",");
    if (n) {
      char *cat = zc_xstrndup(s, n);
      cJSON_AddItemToArray(inc, cJSON_CreateString(cat));
      free(cat);
    }
    s += n + (s[n] == ',');
  }
  cJSON *ex = cJSON_AddArrayToObject(cfg, "excludedCategories");
  cJSON_AddItemToArray(ex, cJSON_CreateString("*"));
  cJSON *a = cJSON_CreateObject();
  cJSON_AddItemToObject(a, "traceConfig", cfg);
  cJSON_AddStringToObject(a, "transferMode", "ReturnAsStream");
  cJSON_AddStringToObject(a, "streamFormat", "json");
  if (gzip) cJSON_AddStringToObject(a, "streamCompression", "gzip");
  return cdp_call(c, session, "Tracing.start", a, 0, NULL);
}

struct complete {
  const char *session;
  char *stream;
  int done, lost;
};

static void on_complete(void *arg, const char *session, const char *method,
                        const cJSON *params) {
  struct complete *t = arg;
  (void)session;
  if (strcmp(method, "Tracing.tracingComplete") != 0) return;
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(params, "stream");
  const cJSON *lost =
      cJSON_GetObjectItemCaseSensitive(params, "dataLossOccurred");
  free(t->stream);
  t->stream = cJSON_IsString(s) ? zc_xstrdup(s->valuestring) : NULL;
  t->lost = cJSON_IsTrue(lost);
  t->done = 1;
}

static int is_complete(void *arg) {
  return ((struct complete *)arg)->done;
}

struct cdp_trace {
  struct cdp_conn *c;
  char *session;
  struct complete done;
  double t0;
};

enum zc_err cdp_trace_end(struct cdp_conn *c, const char *session,
                          double timeout_ms, struct cdp_trace **out) {
  struct cdp_trace *t = zc_xcalloc(1, sizeof *t);
  t->c = c;
  t->session = session ? zc_xstrdup(session) : NULL;
  t->done.session = t->session;
  t->t0 = zc_now_ms();
  /* Listening before asking: the answer may come in the same read. */
  cdp_on_event(c, on_complete, &t->done);
  enum zc_err e = cdp_call(c, session, "Tracing.end", NULL, timeout_ms, NULL);
  if (e) {
    cdp_off_event(c, on_complete, &t->done);
    free(t->session);
    free(t);
    t = NULL;
  }
  *out = t;
  return e;
}

enum zc_err cdp_trace_stop(struct cdp_conn *c, const char *session,
                           const char *base, double timeout_ms, char **path,
                           uint64_t *bytes) {
  *bytes = 0;
  *path = NULL;
  struct cdp_trace *tr;
  enum zc_err e = cdp_trace_end(c, session, timeout_ms, &tr);
  if (e) return e;
  return cdp_trace_collect(tr, base, timeout_ms, path, bytes);
}

enum zc_err cdp_trace_collect(struct cdp_trace *tr, const char *base,
                              double timeout_ms, char **path, uint64_t *bytes) {
  *bytes = 0;
  *path = NULL;
  struct cdp_conn *c = tr->c;
  const char *session = tr->session;
  struct complete t;
  double t0 = tr->t0;
  enum zc_err e =
      cdp_wait(c, is_complete, &tr->done, cdp__timeout(c, timeout_ms),
               "Tracing.tracingComplete");
  cdp_off_event(c, on_complete, &tr->done);
  t = tr->done;
  if (e) {
    free(t.stream);
    free(tr->session);
    free(tr);
    return e;
  }
  if (!t.stream) {
    free(tr->session);
    free(tr);
    return zc_fail(ZC_E_BROWSER, "Tracing.tracingComplete came without a "
                                 "stream");
  }
  if (t.lost) zc_log(1, "Chrome says trace data was lost (buffer full)");
  double t1 = zc_now_ms();
  unsigned reads = 0;

  size_t plen = strlen(base) + 16;
  char *tmp = zc_xmalloc(plen);
  snprintf(tmp, plen, "%s.part", base);
  int gz = -1; /* unknown until the first bytes come */
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    e = zc_fail(ZC_E_IO, "%s: cannot create: %s", tmp, strerror(errno));
    goto close;
  }
  for (;;) {
    cJSON *a = cJSON_CreateObject(), *r = NULL;
    cJSON_AddStringToObject(a, "handle", t.stream);
    cJSON_AddNumberToObject(a, "size", TRACE_CHUNK);
    if ((e = cdp_call(c, session, "IO.read", a, timeout_ms, &r))) break;
    reads++;
    cJSON *d = cJSON_GetObjectItemCaseSensitive(r, "data");
    int eof = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "eof"));
    int b64 =
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "base64Encoded"));
    if (cJSON_IsString(d)) {
      char *s = d->valuestring;
      size_t n = strlen(s);
      if (b64) {
        long m = zc_b64_decode(s, n);
        if (m < 0) {
          cJSON_Delete(r);
          e = zc_fail(ZC_E_BROWSER, "IO.read gave bad base64 data");
          break;
        }
        n = (size_t)m;
      }
      if (gz < 0 && n) gz = n >= 2 && s[0] == '\x1f' && s[1] == '\x8b';
      if (n && fwrite(s, 1, n, f) != n) {
        cJSON_Delete(r);
        e = zc_fail(ZC_E_IO, "%s: write failed: %s", tmp, strerror(errno));
        break;
      }
      *bytes += n;
    }
    cJSON_Delete(r);
    if (eof) break;
  }
  zc_log(2,
         "trace: Tracing.end to tracingComplete %.0f ms, then %u IO.read "
         "call%s in %.0f ms (%.0f KB each)",
         t1 - t0, reads, reads == 1 ? "" : "s", zc_now_ms() - t1,
         reads ? (double)*bytes / 1e3 / reads : 0);
  if (fclose(f) != 0 && !e)
    e = zc_fail(ZC_E_IO, "%s: write failed: %s", tmp, strerror(errno));
  if (!e) {
    char *final = zc_xmalloc(plen);
    snprintf(final, plen, "%s%s", base, gz > 0 ? ".json.gz" : ".json");
    if (rename(tmp, final) != 0) {
      e = zc_fail(ZC_E_IO, "%s: %s", final, strerror(errno));
      free(final);
    } else {
      *path = final;
    }
  }
  /* A partial trace goes: it must not pass for a whole one, and a full
   * disk wants the room back. */
  if (e) remove(tmp);
close:;
  struct zc_errsave saved;
  zc_err_save(&saved);
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "handle", t.stream);
  cdp_call(c, session, "IO.close", a, 5000, NULL);
  zc_err_restore(&saved);
  free(t.stream);
  free(tmp);
  free(tr->session);
  free(tr);
  return e;
}
