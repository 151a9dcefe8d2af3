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
