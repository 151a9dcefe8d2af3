/* What the trackers share (tracker-int.h): sending a request with its
 * retries, the request's URL, and the small text helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attach.h"
#include "tracker-int.h"
#include "zc-url.h"

void trk_b64(const char *s, char *out, size_t cap) {
  static const char d[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t n = strlen(s), o = 0;
  for (size_t i = 0; i < n && o + 5 < cap; i += 3) {
    unsigned v = (unsigned)(unsigned char)s[i] << 16;
    if (i + 1 < n) v |= (unsigned)(unsigned char)s[i + 1] << 8;
    if (i + 2 < n) v |= (unsigned)(unsigned char)s[i + 2];
    out[o++] = d[v >> 18 & 63];
    out[o++] = d[v >> 12 & 63];
    out[o++] = i + 1 < n ? d[v >> 6 & 63] : '=';
    out[o++] = i + 2 < n ? d[v & 63] : '=';
  }
  out[o] = '\0';
}

int trk_plain(const char *s, const char *extra) {
  if (!*s) return 0;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9') || strchr("._-", *p) ||
          (extra && strchr(extra, *p))))
      return 0;
  return 1;
}

const char *trk_jstr(const cJSON *o, const char *k) {
  const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, k));
  return s ? s : "";
}

void trk_key(const cJSON *v, char *key) {
  key[0] = '\0';
  if (cJSON_IsNumber(v)) snprintf(key, 64, "%.0f", v->valuedouble);
  if (cJSON_IsString(v) && trk_plain(v->valuestring, NULL))
    snprintf(key, 64, "%s", v->valuestring);
}

void trk_url(const struct agent_tracker *t, struct trk_req *q, const char *fmt,
             ...) {
  char path[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(path, sizeof path, fmt, ap);
  va_end(ap);
  snprintf(q->url, sizeof q->url, "%s%s", t->api, path);
}

char *trk_markdown(const struct agent_tracker *t, const char *text,
                   const struct trk_upl *u) {
  (void)t;
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  enum zc_err e = zc_buf_printf(&b, "%s", text);
  if (!e && u && u->md[0]) e = zc_buf_printf(&b, "\n\nReport: %s", u->md);
  (void)e; /* at the ceiling the text is cut */
  return zc_buf_take(&b);
}

/* The seconds this process has waited to retry, over every request. */
static double retry_spent;

/* Sleeps s seconds, or less when zamcap is asked to stop. */
static void wait_s(double s) {
  for (double left = s; left > 0 && !zc_interrupted; left -= 0.1) {
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

/* The headers of every request: the tracker's own, then the body's type
 * (ctype NULL: a multipart or no body). Returns how many. */
static unsigned headers(const struct agent_tracker *t, const char *ctype,
                        char h[5][TRK_HEADER]) {
  unsigned n = t->ops->headers(t, h);
  if (ctype) snprintf(h[n++], TRK_HEADER, "Content-Type: %s", ctype);
  return n;
}

/* A request that files an issue is sent again after 429 and 503 only: a
 * 500 or a gateway's 502 or 504 may come after the issue was made, and
 * sending it again would file it twice. */
enum zc_err trk_send(const struct agent_tracker *t, struct trk_req *q) {
  char hbuf[5][TRK_HEADER];
  const char *hl[5];
  unsigned nh = headers(
      t, q->body ? q->ctype ? q->ctype : "application/json" : NULL, hbuf);
  for (unsigned i = 0; i < nh; i++)
    hl[i] = hbuf[i];
  double backoff = t->backoff_s;
  char shown[2048];
  zc_url_shown(q->url, shown, sizeof shown);
  for (unsigned k = 1;; k++) {
    struct agent_http h = {.method = q->method,
                           .url = q->url,
                           .headers = hl,
                           .nheaders = nh,
                           .body = q->body,
                           .body_len = q->body_len,
                           .files = q->files,
                           .nfiles = q->nfiles,
                           .stop = &zc_interrupted};
    enum zc_err e = agent_http_send(&h);
    if (e) return zc_fail(e, "tracker %s: %s", t->spec, zc_errmsg());
    q->status = h.status;
    int again =
        h.status == 429 || h.status == 503 || (h.status >= 500 && !q->creates);
    if (h.status >= 200 && h.status < 300) {
      q->json = cJSON_Parse(h.answer);
      free(h.answer);
      return ZC_OK;
    }
    if (!again || k >= t->attempts) {
      char line[256];
      agent_http_line(h.answer, line, sizeof line);
      free(h.answer);
      return zc_fail(
          ZC_E_IO, "tracker %s: %s %s: HTTP %ld%s%s%s%s", t->spec, q->method,
          shown, h.status, again ? " (after retries)" : "", line[0] ? ": " : "",
          line, h.status == 401 ? " (is ZAMCAP_TRACKER_TOKEN right?)" : "");
    }
    free(h.answer);
    double w = h.retry_after >= 0 ? (double)h.retry_after : backoff;
    if (w > 120) w = 120; /* a night has other flows to run */
    /* ... and all the retries of a night share one budget (issue 38: a
     * tracker that answered every request with Retry-After: 120 held a
     * night of many flows for hours) */
    if (retry_spent + w > t->retry_budget_s)
      return zc_fail(ZC_E_IO,
                     "tracker %s: %s %s: HTTP %ld, and waiting %g s more "
                     "would pass the %g s this night gives the tracker's "
                     "retries",
                     t->spec, q->method, shown, h.status, w, t->retry_budget_s);
    retry_spent += w;
    zc_log(1, "tracker %s: HTTP %ld from %s; trying again in %.0f s", t->spec,
           h.status, shown, w);
    wait_s(w);
    if (zc_interrupted)
      return zc_fail(ZC_E_INTERRUPTED, "tracker %s: interrupted", t->spec);
    backoff *= 2;
  }
}
