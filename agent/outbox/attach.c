/* --attach: the finished report, POSTed as multipart/form-data through
 * libcurl. See attach.h. */
#include "attach.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "zc-out.h"
#include "zc-url.h"

const char *const agent_attach_files[3] = {ZC_OUT_HTML, ZC_OUT_SUMMARY,
                                           ZC_OUT_REPORT};
static const char *const file_types[3] = {"text/html; charset=utf-8",
                                          "text/markdown; charset=utf-8",
                                          "application/json"};

enum {
  HEADER_MAX = 8192,     /* one header, expanded */
  ANSWER_KEEP = 1 << 16, /* of the server's answer, for the message */
  LINE_MAX_SHOWN = 200,  /* of its first line */
  CONNECT_MS = 10000,
  TOTAL_MS = 120000,
  HTTP_ANSWER_MAX = 4 << 20, /* a tracker's JSON answer */
};

/* zamcap sets these itself; a user's copy would break the body. */
static const char *const reserved[] = {"Content-Type", "Content-Length",
                                       "Transfer-Encoding"};

static int bad(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t cap, const char *fmt, ...) {
  if (cap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
  }
  return 0;
}

/* RFC 9110 token characters: what a header name is made of. */
static int is_tchar(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int is_ctl(unsigned char c) {
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

static int is_var_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_var_char(char c) {
  return is_var_start(c) || (c >= '0' && c <= '9');
}

/* Values substituted into headers, kept to hide them from messages. */
struct secrets {
  char **v;
  size_t n, cap;
};

static void secret_add(struct secrets *s, const char *p, size_t n) {
  if (!s || n < 4) return;
  ZC_GROW(s->v, s->cap, s->n + 1);
  s->v[s->n++] = zc_xstrndup(p, n);
}

static void secrets_free(struct secrets *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i]);
  free(s->v);
}

/* Splits h into its name (*nlen bytes at h) and value (after the colon and
 * blanks, *vlen bytes without trailing blanks), or says why not. */
static int split_header(const char *h, size_t *nlen, const char **val,
                        size_t *vlen, char *why, size_t cap) {
  size_t n = 0;
  while (is_tchar((unsigned char)h[n]))
    n++;
  if (!strchr(h, ':'))
    return bad(why, cap, "--attach-header wants 'Name: value'");
  /* Whatever precedes a bad name may be a value typed in the wrong place:
   * it is not shown. */
  if (!n || h[n] != ':')
    return bad(why, cap,
               "--attach-header wants 'Name: value', and what precedes the "
               "first ':' is not a header name");
  for (size_t i = 0; i < ZC_ARRAY_LEN(reserved); i++)
    if (strlen(reserved[i]) == n && !strncasecmp(h, reserved[i], n))
      return bad(why, cap,
                 "--attach-header %.*s: zamcap sets that header itself", (int)n,
                 h);
  const char *v = h + n + 1;
  while (*v == ' ' || *v == '\t')
    v++;
  size_t l = strlen(v);
  while (l && (v[l - 1] == ' ' || v[l - 1] == '\t'))
    l--;
  if (!l)
    return bad(why, cap, "--attach-header %.*s: the value is empty", (int)n, h);
  *nlen = n;
  *val = v;
  *vlen = l;
  return 1;
}

/* Appends the value v (vlen bytes) to out with $NAME, ${NAME} and $$
 * expanded from the environment; name (nlen bytes) is for messages. The
 * variables' values go to sec when it is not NULL. */
static int expand(const char *name, size_t nlen, const char *v, size_t vlen,
                  struct zc_buf *out, struct secrets *sec, char *why,
                  size_t cap) {
  const int nl = (int)nlen;
  for (size_t i = 0; i < vlen;) {
    unsigned char c = (unsigned char)v[i];
    if (is_ctl(c))
      return bad(why, cap,
                 "--attach-header %.*s: the value has a line break or another "
                 "control character",
                 nl, name);
    if (c != '$') {
      if (zc_buf_addc(out, (char)c)) goto toobig;
      i++;
      continue;
    }
    if (i + 1 < vlen && v[i + 1] == '$') {
      if (zc_buf_addc(out, '$')) goto toobig;
      i += 2;
      continue;
    }
    int braced = i + 1 < vlen && v[i + 1] == '{';
    size_t s = i + 1 + (size_t)braced, e = s;
    while (e < vlen && is_var_char(v[e]))
      e++;
    if (e == s || !is_var_start(v[s]) || (braced && (e >= vlen || v[e] != '}')))
      return bad(why, cap,
                 "--attach-header %.*s: a '$' in the value must start $NAME or "
                 "${NAME} (a variable's name) or be $$ for a '$'",
                 nl, name);
    char var[256];
    if (e - s >= sizeof var)
      return bad(why, cap,
                 "--attach-header %.*s: a variable's name is too long", nl,
                 name);
    memcpy(var, v + s, e - s);
    var[e - s] = '\0';
    const char *x = getenv(var);
    if (!x)
      return bad(why, cap,
                 "--attach-header %.*s: the environment variable %s is not set",
                 nl, name, var);
    if (!*x)
      return bad(why, cap,
                 "--attach-header %.*s: the environment variable %s is empty",
                 nl, name, var);
    for (const char *p = x; *p; p++)
      if (is_ctl((unsigned char)*p))
        return bad(why, cap,
                   "--attach-header %.*s: the environment variable %s has a "
                   "line break or another control character",
                   nl, name, var);
    if (zc_buf_add(out, x, strlen(x))) goto toobig;
    secret_add(sec, x, strlen(x));
    i = e + (size_t)braced;
  }
  return 1;
toobig:
  return bad(why, cap,
             "--attach-header %.*s: the value is longer than %d bytes", nl,
             name, HEADER_MAX);
}

/* The header h expanded into out ("Name: value"), or 0 and why. */
static int header_expand(const char *h, struct zc_buf *out, struct secrets *sec,
                         char *why, size_t cap) {
  size_t nlen = 0, vlen = 0;
  const char *v = NULL;
  if (!split_header(h, &nlen, &v, &vlen, why, cap)) return 0;
  zc_buf_reset(out);
  if (zc_buf_add(out, h, nlen) || zc_buf_add(out, ": ", 2))
    return bad(why, cap, "--attach-header: the name is too long");
  size_t from = out->len;
  if (!expand(h, nlen, v, vlen, out, sec, why, cap)) return 0;
  if (!sec) return 1;
  /* The whole value, and each long word of it: a server that quotes the
   * token back quotes it alone. */
  const char *val = out->ptr + from;
  size_t l = out->len - from;
  secret_add(sec, val, l);
  for (size_t i = 0; i < l;) {
    size_t j = i;
    while (j < l && val[j] != ' ' && val[j] != '\t')
      j++;
    if (j - i >= 8 && j - i < l) secret_add(sec, val + i, j - i);
    i = j + 1;
  }
  return 1;
}

int agent_attach_header_ok(const char *h, char *why, size_t cap) {
  struct zc_buf b;
  zc_buf_init(&b, HEADER_MAX);
  int ok = header_expand(h, &b, NULL, why, cap);
  zc_buf_free(&b);
  return ok;
}

void agent_attach_header_secrets(const char *h) {
  struct zc_buf b;
  zc_buf_init(&b, HEADER_MAX);
  struct secrets sec = {.v = NULL};
  char why[512];
  if (header_expand(h, &b, &sec, why, sizeof why))
    for (size_t i = 0; i < sec.n; i++)
      zc_secret_add_forms(sec.v[i], strlen(sec.v[i]));
  zc_buf_free(&b);
  secrets_free(&sec);
}

int agent_attach_url_ok(const char *url, char *why, size_t cap) {
  if (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8))
    return bad(why, cap, "--attach wants an http:// or https:// URL");
  for (const char *p = url; *p; p++)
    if (*p == ' ' || is_ctl((unsigned char)*p))
      return bad(why, cap,
                 "--attach: the URL has a space or a control character");
  struct zc_url u;
  struct zc_errsave keep;
  zc_err_save(&keep); /* a check, not a failure: the message stays */
  enum zc_err e = zc_url_split(url, &u);
  if (e) bad(why, cap, "--attach: %s", zc_errmsg());
  zc_err_restore(&keep);
  zc_url_clear(&u);
  return !e;
}

static size_t answer_sink(char *p, size_t sz, size_t n, void *arg) {
  struct zc_buf *b = arg;
  size_t room = b->max - b->len;
  /* Only what fits is kept, so this cannot fail: the rest is read and
   * dropped (only the answer's first line is shown). */
  if (zc_buf_add(b, p, sz * n < room ? sz * n : room)) return 0;
  return sz * n;
}

/* The answer's first line, shortened, printable and without secrets, in
 * out; empty when there is nothing to show. */
static void answer_line(const char *body, const struct secrets *sec, char *out,
                        size_t cap) {
  while (*body == ' ' || *body == '\t' || *body == '\r' || *body == '\n')
    body++;
  /* Secrets are hidden before the line is cut, so that none shows in
   * part. */
  char *line = zc_xstrndup(body, strcspn(body, "\r\n"));
  for (size_t i = 0; i < sec->n; i++) {
    size_t sl = strlen(sec->v[i]);
    for (char *p = strstr(line, sec->v[i]); p; p = strstr(p, sec->v[i])) {
      memset(p, '*', sl);
      p += sl;
    }
  }
  for (char *p = line; *p; p++)
    if (is_ctl((unsigned char)*p) || *p == '\t') *p = '?';
  int cut = strlen(line) > LINE_MAX_SHOWN;
  snprintf(out, cap, "%.*s%s", LINE_MAX_SHOWN, line, cut ? "..." : "");
  free(line);
}

/* The files to send: those of agent_attach_files that exist in outdir. */
static enum zc_err pick_files(const char *outdir, char (*path)[4096],
                              int *present, unsigned *n) {
  *n = 0;
  for (unsigned i = 0; i < ZC_ARRAY_LEN(agent_attach_files); i++) {
    present[i] = 0;
    snprintf(path[i], sizeof path[i], "%s/%s", outdir, agent_attach_files[i]);
    struct stat st;
    if (stat(path[i], &st) != 0) {
      if (errno != ENOENT)
        return zc_fail(ZC_E_IO, "--attach: %s: %s", path[i], strerror(errno));
      continue;
    }
    FILE *f = S_ISREG(st.st_mode) ? fopen(path[i], "rb") : NULL;
    if (!f)
      return zc_fail(ZC_E_IO, "--attach: %s: %s", path[i],
                     S_ISREG(st.st_mode) ? strerror(errno) : "not a file");
    fclose(f);
    present[i] = 1;
    (*n)++;
  }
  if (!*n)
    return zc_fail(ZC_E_IO,
                   "--attach: nothing to attach: %s has none of report.html, "
                   "summary.md, report.json",
                   outdir);
  /* Writing one of them failed, and that was said then: the others are
   * still worth having on the issue. */
  for (unsigned i = 0; i < ZC_ARRAY_LEN(agent_attach_files); i++)
    if (!present[i])
      zc_log(1, "--attach: %s is missing; attaching the others", path[i]);
  return ZC_OK;
}

/* Ends the transfer once *stop is set (libcurl asks at least once a
 * second). */
static int check_stop(void *arg, curl_off_t dlt, curl_off_t dl, curl_off_t ult,
                      curl_off_t ul) {
  (void)dlt, (void)dl, (void)ult, (void)ul;
  const volatile int *stop = arg;
  return stop && *stop;
}

/* What every request of zamcap's sets: the URL, no redirect, http(s)
 * only, TLS verified ($CURL_CA_BUNDLE), the time limits, the answer into
 * answer (its first bytes), and a stop flag. */
static void curl_common(CURL *h, const char *url, char *err,
                        struct zc_buf *answer, const volatile int *stop) {
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_USERAGENT, "zamcap/" ZAMCAP_VERSION);
  /* A redirected POST lands nowhere useful, or on another host with our
   * headers: say so instead. */
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  curl_easy_setopt(h, CURLOPT_PROTOCOLS,
                   (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  /* As the curl tool does: a self-hosted tracker's private CA. */
  const char *ca = getenv("CURL_CA_BUNDLE");
  if (ca && *ca) curl_easy_setopt(h, CURLOPT_CAINFO, ca);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_MS);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)TOTAL_MS);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, answer_sink);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, answer);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, check_stop);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, (void *)stop);
}

/* The --attach-header values expanded into *hl (hb the buffer they are
 * made in; sec gets their secrets). */
static enum zc_err attach_headers(const char *const *headers, unsigned nheaders,
                                  struct zc_buf *hb, struct secrets *sec,
                                  struct curl_slist **hl) {
  char why[512];
  for (unsigned i = 0; i < nheaders; i++) {
    if (!header_expand(headers[i], hb, sec, why, sizeof why))
      return zc_fail(ZC_E_USAGE, "%s", why);
    struct curl_slist *t = curl_slist_append(*hl, hb->ptr);
    if (!t)
      return zc_fail(ZC_E_NOMEM, "--attach: out of memory for the headers");
    *hl = t;
  }
  return ZC_OK;
}

/* One part named "file" per report present; names (cap bytes) lists
 * them. */
static enum zc_err attach_parts(curl_mime *mime, char path[3][4096],
                                const int present[3], char *names, size_t cap) {
  for (unsigned i = 0; i < ZC_ARRAY_LEN(agent_attach_files); i++) {
    if (!present[i]) continue;
    curl_mimepart *part = curl_mime_addpart(mime);
    /* filedata names the part after the file's base name and streams the
     * file, so a large report.json is not held in memory. */
    if (!part || curl_mime_name(part, "file") ||
        curl_mime_filedata(part, path[i]) ||
        curl_mime_type(part, file_types[i])) {
      return zc_fail(ZC_E_NOMEM, "--attach: cannot prepare %s", path[i]);
    }
    size_t l = strlen(names);
    snprintf(names + l, cap - l, "%s%s", l ? ", " : "", agent_attach_files[i]);
  }
  return ZC_OK;
}

enum zc_err agent_attach_stoppable(const char *url, const char *const *headers,
                                   unsigned nheaders, const char *outdir,
                                   const volatile int *stop) {
  char why[512], shown[1024];
  if (!agent_attach_url_ok(url, why, sizeof why))
    return zc_fail(ZC_E_USAGE, "%s", why);
  zc_url_shown(url, shown, sizeof shown);

  struct secrets sec = {.v = NULL};
  struct curl_slist *hl = NULL;
  struct zc_buf hb, answer;
  zc_buf_init(&hb, HEADER_MAX);
  zc_buf_init(&answer, ANSWER_KEEP);
  CURL *h = NULL;
  curl_mime *mime = NULL;
  enum zc_err e = ZC_OK;
  char path[3][4096], names[64] = "";
  int present[3];
  unsigned n;

  if ((e = attach_headers(headers, nheaders, &hb, &sec, &hl))) goto out;
  if ((e = pick_files(outdir, path, present, &n))) goto out;
  /* Headers over plain http to another machine can be read on the
   * way. */
  if (nheaders && !strncasecmp(url, "http://", 7) &&
      zc_url_host(url) != ZC_HOST_LOOPBACK)
    zc_log(1,
           "--attach: warning: %s is not https; the headers given with "
           "--attach-header travel unencrypted",
           shown);

  h = curl_easy_init();
  mime = h ? curl_mime_init(h) : NULL;
  if (!mime) {
    e = zc_fail(ZC_E_NOMEM, "--attach: cannot start libcurl");
    goto out;
  }
  if ((e = attach_parts(mime, path, present, names, sizeof names))) goto out;

  char err[CURL_ERROR_SIZE] = "";
  curl_common(h, url, err, &answer, stop);
  curl_easy_setopt(h, CURLOPT_MIMEPOST, mime);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
  zc_log(2, "--attach: posting %s to %s", names, shown);

  CURLcode rc = curl_easy_perform(h);
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if (rc == CURLE_ABORTED_BY_CALLBACK) {
    e = zc_fail(ZC_E_INTERRUPTED, "--attach %s: interrupted", shown);
    goto out;
  }
  if (rc != CURLE_OK) {
    e = zc_fail(ZC_E_IO, "--attach %s: %s%s", shown,
                err[0] ? err : curl_easy_strerror(rc),
                rc == CURLE_OPERATION_TIMEDOUT
                    ? " (limit: 10 s to connect, 120 s in all)"
                    : "");
    goto out;
  }
  if (status >= 200 && status < 300) {
    zc_log(1, "attached %s to %s: HTTP %ld", names, shown, status);
    goto out;
  }
  char line[LINE_MAX_SHOWN + 8], where[1100] = "";
  answer_line(answer.ptr ? answer.ptr : "", &sec, line, sizeof line);
  char *loc = NULL;
  if (status >= 300 && status < 400 &&
      curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc) {
    char to[1024];
    zc_url_shown(loc, to, sizeof to);
    snprintf(where, sizeof where, " (a redirect to %s, not followed)", to);
  }
  e = zc_fail(ZC_E_IO, "--attach %s: HTTP %ld%s%s%s", shown, status, where,
              line[0] ? ": " : "", line);
out:
  curl_easy_cleanup(h);
  curl_mime_free(mime);
  curl_slist_free_all(hl);
  zc_buf_free(&hb);
  zc_buf_free(&answer);
  secrets_free(&sec);
  return e;
}

enum zc_err agent_attach(const char *url, const char *const *headers,
                         unsigned nheaders, const char *outdir) {
  return agent_attach_stoppable(url, headers, nheaders, outdir, NULL);
}

/* The multipart body of q's files, each a part named q->field. */
static enum zc_err http_parts(CURL *h, const struct agent_http *q,
                              curl_mime **mime) {
  *mime = curl_mime_init(h);
  if (!*mime) return zc_fail(ZC_E_NOMEM, "%s: cannot start libcurl", q->url);
  for (unsigned i = 0; i < q->nfiles; i++) {
    curl_mimepart *part = curl_mime_addpart(*mime);
    if (!part || curl_mime_name(part, q->field ? q->field : "file") ||
        curl_mime_filedata(part, q->files[i]))
      return zc_fail(ZC_E_IO, "cannot prepare %s for upload", q->files[i]);
  }
  return ZC_OK;
}

enum zc_err agent_http_send(struct agent_http *q) {
  char shown[1024], err[CURL_ERROR_SIZE] = "";
  zc_url_shown(q->url, shown, sizeof shown);
  q->status = 0;
  q->retry_after = -1;
  q->answer = NULL;
  struct zc_buf answer;
  zc_buf_init(&answer, HTTP_ANSWER_MAX);
  struct curl_slist *hl = NULL;
  curl_mime *mime = NULL;
  enum zc_err e = ZC_OK;
  CURL *h = curl_easy_init();
  if (!h) {
    e = zc_fail(ZC_E_NOMEM, "%s: cannot start libcurl", shown);
    goto out;
  }
  for (unsigned i = 0; i < q->nheaders; i++) {
    struct curl_slist *t = curl_slist_append(hl, q->headers[i]);
    if (!t) {
      e = zc_fail(ZC_E_NOMEM, "%s: out of memory for the headers", shown);
      goto out;
    }
    hl = t;
  }
  curl_common(h, q->url, err, &answer, q->stop);
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, q->method);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
  if (q->body) {
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, q->body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)q->body_len);
  } else if (q->nfiles) {
    if ((e = http_parts(h, q, &mime))) goto out;
    curl_easy_setopt(h, CURLOPT_MIMEPOST, mime);
  }
  CURLcode rc = curl_easy_perform(h);
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &q->status);
  if (rc == CURLE_ABORTED_BY_CALLBACK) {
    e = zc_fail(ZC_E_INTERRUPTED, "%s %s: interrupted", q->method, shown);
  } else if (rc != CURLE_OK) {
    e = zc_fail(ZC_E_IO, "%s %s: %s", q->method, shown,
                err[0] ? err : curl_easy_strerror(rc));
  } else {
    curl_off_t ra = -1;
    if (curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
      q->retry_after = (long)ra;
    q->answer = zc_xstrndup(answer.ptr ? answer.ptr : "", answer.len);
  }
out:
  curl_easy_cleanup(h);
  curl_mime_free(mime);
  curl_slist_free_all(hl);
  zc_buf_free(&answer);
  return e;
}

void agent_http_line(const char *body, char *out, size_t cap) {
  struct secrets none = {.v = NULL};
  answer_line(body ? body : "", &none, out, cap);
  zc_scrub(out);
}
