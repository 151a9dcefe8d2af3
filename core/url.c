/* zc url: URLs through libcurl's URL API. See zc-url.h. */
#include "zc-url.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A part libcurl has (not decoded) as our own string, else NULL. */
static char *part(CURLU *h, CURLUPart which) {
  char *v = NULL;
  if (curl_url_get(h, which, &v, 0) != CURLUE_OK) return NULL;
  char *mine = zc_xstrdup(v);
  curl_free(v);
  return mine;
}

enum zc_err zc_url_split(const char *url, struct zc_url *u) {
  memset(u, 0, sizeof *u);
  CURLU *h = curl_url();
  if (!h) return zc_fail(ZC_E_NOMEM, "libcurl's URL parser: out of memory");
  CURLUcode rc = curl_url_set(h, CURLUPART_URL, url, 0);
  if (rc != CURLUE_OK) {
    curl_url_cleanup(h);
    if (rc == CURLUE_NO_HOST) return zc_fail(ZC_E_PARSE, "the URL has no host");
    return zc_fail(ZC_E_PARSE, "not a URL libcurl can use (%s)",
                   curl_url_strerror(rc));
  }
  *u = (struct zc_url){
      .scheme = part(h, CURLUPART_SCHEME),
      .user = part(h, CURLUPART_USER),
      .password = part(h, CURLUPART_PASSWORD),
      .host = part(h, CURLUPART_HOST),
      .port = part(h, CURLUPART_PORT),
      .path = part(h, CURLUPART_PATH),
      .query = part(h, CURLUPART_QUERY),
      .fragment = part(h, CURLUPART_FRAGMENT),
  };
  curl_url_cleanup(h);
  if (!u->scheme) u->scheme = zc_xstrdup("");
  if (!u->host) u->host = zc_xstrdup("");
  if (!u->path) u->path = zc_xstrdup("/");
  return ZC_OK;
}

void zc_url_clear(struct zc_url *u) {
  free(u->scheme);
  free(u->user);
  free(u->password);
  free(u->host);
  free(u->port);
  free(u->path);
  free(u->query);
  free(u->fragment);
  memset(u, 0, sizeof *u);
}

/* An http(s) URL libcurl accepts, split into u (clear it); 0 otherwise. */
static int split_http(const char *url, struct zc_url *u) {
  if (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8))
    return 0;
  struct zc_errsave keep;
  zc_err_save(&keep); /* a question, not a failure: the message stays */
  enum zc_err e = zc_url_split(url, u);
  zc_err_restore(&keep);
  if (e) return 0;
  if (strcmp(u->scheme, "http") && strcmp(u->scheme, "https")) {
    zc_url_clear(u);
    return 0;
  }
  return 1;
}

size_t zc_url_origin_len(const char *url) {
  struct zc_url u;
  if (!split_http(url, &u)) return 0;
  /* libcurl said where the authority is; its text ends at the path, the
   * query or the fragment, as in libcurl's own parser. */
  size_t from = strlen(u.scheme) + 3;
  zc_url_clear(&u);
  if (strncmp(url + from - 3, "://", 3))
    return 0; /* "http:/x": not as written */
  size_t n = strcspn(url + from, "/?#");
  return n ? from + n : 0;
}

static int all_of(const char *s, const char *set) {
  return s[strspn(s, set)] == '\0';
}

enum zc_host zc_url_host(const char *url) {
  struct zc_url u;
  if (!split_http(url, &u)) return ZC_HOST_OTHER;
  const char *h = u.host;
  size_t n = strlen(h);
  enum zc_host k = ZC_HOST_OTHER;
  if (!strcasecmp(h, "localhost") ||
      (n > 10 && !strcasecmp(h + n - 10, ".localhost")) ||
      !strcmp(h, "0.0.0.0") || !strcmp(h, "[::1]") ||
      (!strncmp(h, "127.", 4) && all_of(h, "0123456789.")))
    k = ZC_HOST_LOOPBACK;
  else if (n && !strchr(h, '.') && h[0] != '[')
    k = ZC_HOST_LOCAL_NAME;
  zc_url_clear(&u);
  return k;
}

void zc_url_shown(const char *url, char *out, size_t cap) {
  struct zc_url u;
  struct zc_errsave keep;
  zc_err_save(&keep);
  enum zc_err e = zc_url_split(url, &u);
  zc_err_restore(&keep);
  if (e) {
    snprintf(out, cap, "(a URL)");
    return;
  }
  snprintf(out, cap, "%s://%s%s%s%s%s", u.scheme, u.host, u.port ? ":" : "",
           u.port ? u.port : "", u.path, u.query ? "?..." : "");
  zc_url_clear(&u);
}

/* ---- patterns: ids folded out of names ---- */

static int is_alnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}

static int is_hex(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}

/* Whether s[0..n) starts a UUID (8-4-4-4-12 hex digits) and, if so, its
 * length. */
static size_t uuid_len(const char *s, size_t n) {
  static const size_t part[] = {8, 4, 4, 4, 12};
  size_t i = 0;
  for (size_t k = 0; k < 5; k++) {
    if (k && (i >= n || s[i++] != '-')) return 0;
    for (size_t j = 0; j < part[k]; j++, i++)
      if (i >= n || !is_hex((unsigned char)s[i])) return 0;
  }
  return i < n && is_alnum((unsigned char)s[i]) ? 0 : i;
}

/* What a run of letters and digits becomes: its fold, or NULL to keep. */
static const char *fold_of(const char *s, size_t n) {
  size_t digits = 0, hex = 0;
  for (size_t i = 0; i < n; i++) {
    digits += s[i] >= '0' && s[i] <= '9' ? 1u : 0u;
    hex += is_hex((unsigned char)s[i]) ? 1u : 0u;
  }
  if (digits == n) return ":id";
  if (n >= 8 && hex == n && digits) return ":hash";
  if (n >= 16 && digits && digits < n) return ":token";
  return NULL;
}

struct pat {
  char *out;
  size_t cap, len;
  int full;
};

static void pat_put(struct pat *p, const char *s, size_t n) {
  if (p->full || !p->cap) return;
  if (p->len + n >= p->cap) {
    n = p->cap - 1 - p->len;
    /* not in the middle of a UTF-8 character */
    while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
      n--;
    p->full = 1;
  }
  memcpy(p->out + p->len, s, n);
  p->len += n;
  p->out[p->len] = '\0';
}

static void pat_fold(struct pat *p, const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t u = uuid_len(s + i, n - i);
    if (u) {
      pat_put(p, ":uuid", 5);
      i += u;
      continue;
    }
    size_t j = i;
    while (j < n && is_alnum((unsigned char)s[j]))
      j++;
    if (j == i) { /* one other character, kept whole */
      j++;
      while (j < n && ((unsigned char)s[j] & 0xc0) == 0x80)
        j++;
      pat_put(p, s + i, j - i);
      i = j;
      continue;
    }
    const char *f = fold_of(s + i, j - i);
    pat_put(p, f ? f : s + i, f ? strlen(f) : j - i);
    i = j;
  }
}

size_t zc_fold_ids(const char *s, size_t n, char *out, size_t cap) {
  struct pat p = {.out = out, .cap = cap};
  if (cap) out[0] = '\0';
  pat_fold(&p, s, n);
  return p.len;
}

size_t zc_url_pattern(const char *url, const char *own, char *out, size_t cap) {
  struct pat p = {.out = out, .cap = cap};
  if (cap) out[0] = '\0';
  size_t scheme = strcspn(url, ":");
  int http = (scheme == 4 && !strncasecmp(url, "http", 4)) ||
             (scheme == 5 && !strncasecmp(url, "https", 5));
  if (!http || strncmp(url + scheme, "://", 3)) {
    /* data:, blob:, about:, chrome-extension:, ... : the scheme alone */
    pat_put(&p, url, url[scheme] ? scheme + 1 : scheme);
    return p.len;
  }
  size_t from = scheme + 3, auth = strcspn(url + from, "/?#");
  size_t olen = from + auth;
  if (!own || strlen(own) != olen || strncasecmp(url, own, olen)) {
    /* another origin: its host and port, without user and password */
    const char *a = url + from;
    const char *at = memchr(a, '@', auth);
    const char *h = at ? at + 1 : a;
    pat_put(&p, h, (size_t)(url + olen - h));
  }
  const char *path = url + olen;
  size_t pn = strcspn(path, "?#");
  if (!pn) pat_put(&p, "/", 1);
  pat_fold(&p, path, pn);
  return p.len;
}
