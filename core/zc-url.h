/* zc url: URLs split by libcurl's URL API (curl_url), in one place, and
 * the one rule for "is this a development host".
 *
 * Ownership: arguments are borrowed; the parts a struct zc_url holds are
 * its own, freed by zc_url_clear. */
#ifndef ZC_URL_H
#define ZC_URL_H

#include <stddef.h>

#include "zc.h"

/* An absolute URL's parts, as libcurl reads them: the scheme in lower
 * case, an IPv4 host in dotted form (127.1 is 127.0.0.1), an IPv6 host in
 * brackets, the path "/" at least, the other parts as written (not
 * percent-decoded). */
struct zc_url {
  char *scheme;   /* read-only */
  char *user;     /* read-only: NULL when absent */
  char *password; /* read-only: NULL when absent */
  char *host;     /* read-only */
  char *port;     /* read-only: as written, NULL when absent */
  char *path;     /* read-only */
  char *query;    /* read-only: without its '?', NULL when absent */
  char *fragment; /* read-only: without its '#', NULL when absent */
};

/* Splits url, which names its scheme (one libcurl knows: http, https,
 * ftp, file, ...) and, but for file:, a host. On error *u is zeroed and
 * ZC_E_PARSE returned with a message fit to print after "what: ": "the URL
 * has no host", or "not a URL libcurl can use (libcurl's reason)". */
ZC_MUST enum zc_err zc_url_split(const char *url, struct zc_url *u);
void zc_url_clear(struct zc_url *u); /* a zeroed struct is a no-op */

/* The length of url's origin as written, scheme://authority (user,
 * password, host, port), when url is an http or https URL that libcurl
 * accepts; 0 for anything else (relative, about:, no host, a bad port). */
size_t zc_url_origin_len(const char *url);

/* Where a URL's host is, as a development setup sees it. */
enum zc_host {
  ZC_HOST_OTHER = 0, /* a host with dots elsewhere, or not a URL */
  /* this machine: localhost and *.localhost (RFC 6761), 127.0.0.0/8,
   * 0.0.0.0, [::1] */
  ZC_HOST_LOOPBACK,
  /* a name without dots ("frontend"): a container or a machine beside
   * this one, not this machine */
  ZC_HOST_LOCAL_NAME,
};
/* The one rule, for every command: a scenario's development origins
 * (ZC_HOST_OTHER not) and --attach's warning about headers over plain
 * http (ZC_HOST_LOOPBACK only). */
enum zc_host zc_url_host(const char *url);

/* url as messages show it: scheme://host[:port]/path, without user and
 * password, "?..." for a query (it may hold a token), no fragment; "(a
 * URL)" when libcurl cannot read it. Cut to cap bytes, NUL-terminated. */
void zc_url_shown(const char *url, char *out, size_t cap);

/* Ids folded out of a name (a URL's path, a storage key), so that the
 * same endpoint or key reads the same whatever record it names: in each
 * run of letters and digits between other characters, digits alone
 * become ":id", a UUID ":uuid", 8 or more hex digits with a digit among
 * them ":hash", and 16 or more letters and digits with both among them
 * ":token" (a session id, a signature). Reads n bytes of s; writes at
 * most cap - 1 bytes and a NUL, cut at a character's boundary; returns
 * the length written. */
size_t zc_fold_ids(const char *s, size_t n, char *out, size_t cap);

/* A request's URL as a pattern: its path with ids folded ("/api/item/:id"),
 * after its host when its origin is not own (an origin as
 * zc_url_origin_len measures it, or NULL); no user, password, query or
 * fragment, which may hold secrets. A URL that is not http(s) keeps its
 * scheme alone ("data:", "blob:"). Returns the length written (as
 * zc_fold_ids). */
size_t zc_url_pattern(const char *url, const char *own, char *out, size_t cap);

#endif
