/* Source maps for the analysis: found in build folders, fetched from URL
 * builds, kept in OUT/sourcemaps/ so that a later `zamcap compare` of the
 * run folder names the same functions offline. See maps.h. */
#define _GNU_SOURCE /* realpath, NI_MAXHOST */
#include "maps.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "maps-int.h"
#include "serve.h"
#include "zc-url.h"

enum {
  SCRIPT_MAX = 64 << 20, /* a script read to find its map and names */
  MAP_MAX = 256 << 20,   /* a source map */
  FETCH_CONNECT_MS = 5000,
  FETCH_TOTAL_MS = 30000,
  FETCH_RUN_MS = 60000, /* all the fetches of a run */
  FETCH_HOPS = 5,       /* redirects, each within the build's origins */
  ROOTS_MAX = 16,
};
/* What the store may hold for one run: kept in memory until the reports
 * are written, then written while the disk has twice as much free. */
#define STORE_MAX ((size_t)256 << 20)

struct root {
  char *prefix, *dir; /* dir: resolved by realpath when it exists */
};

/* An origin maps may be fetched from: a URL build's. */
struct origin {
  char *name;     /* scheme://host:port, the port always written */
  int resolved;   /* kinds has been filled */
  unsigned kinds; /* 1 << agent_addr_kind of the host's addresses */
};

/* A map found and usable, kept until agent_maps_save. */
struct pending {
  char *url, *map_url, *map, *text;
  size_t mapn, textn;
};

struct agent_maps {
  struct ana_maps *ana;
  struct root roots[ROOTS_MAX];
  unsigned nroots;
  struct origin origins[ROOTS_MAX];
  unsigned norigins;
  char *store;  /* OUT/sourcemaps, or NULL */
  int writable; /* found maps are kept in the store */
  cJSON *index; /* the store's entries: what was read and what was found */
  struct pending *pend;
  size_t npend, cappend, pend_bytes;
  int said_full;    /* warned that the store's budget is spent */
  double fetch_ms;  /* the run's budget for fetching */
  double deadline;  /* set at the first fetch; 0 before */
  int said_late;    /* warned that the budget is spent */
  unsigned fetches; /* requests made (tests) */
};

/* A file's bytes, or NULL (absent, unreadable, larger than max): a map
 * that is not there is no error, only a name kept minified. */
static char *read_file(const char *path, size_t max, size_t *n) {
  struct zc_errsave sv;
  zc_err_save(&sv);
  char *b = NULL;
  if (zc_read_file(path, max, &b, n)) b = NULL;
  zc_err_restore(&sv);
  return b;
}

struct sink {
  struct zc_buf b;
  int over;
};

static size_t sink_write(char *p, size_t sz, size_t n, void *arg) {
  struct sink *s = arg;
  if (zc_buf_add(&s->b, p, sz * n)) {
    s->over = 1;
    return 0;
  }
  return sz * n;
}

/* "scheme://host:port" of an http(s) URL, the port always written; NULL
 * for anything else. Caller frees. */
static char *origin_of(const char *url) {
  if (!zc_url_origin_len(url)) return NULL;
  struct zc_url u;
  struct zc_errsave keep;
  zc_err_save(&keep);
  enum zc_err e = zc_url_split(url, &u);
  zc_err_restore(&keep);
  if (e) return NULL;
  const char *port = u.port                       ? u.port
                     : !strcmp(u.scheme, "https") ? "443"
                                                  : "80";
  size_t n = strlen(u.scheme) + strlen(u.host) + strlen(port) + 5;
  char *o = zc_xmalloc(n);
  snprintf(o, n, "%s://%s:%s", u.scheme, u.host, port);
  zc_url_clear(&u);
  return o;
}

/* The build origin url belongs to, or NULL. */
static struct origin *origin_find(struct agent_maps *m, const char *url) {
  char *o = origin_of(url);
  struct origin *r = NULL;
  for (unsigned i = 0; o && !r && i < m->norigins; i++)
    if (!strcmp(m->origins[i].name, o)) r = &m->origins[i];
  free(o);
  return r;
}

/* The kind of an IPv4 address, in host order. */
static int kind_v4(uint32_t a) {
  unsigned x = a >> 24, y = (a >> 16) & 0xff;
  if (x == 127 || x == 0) return AGENT_ADDR_LOOPBACK;
  if (x == 169 && y == 254) return AGENT_ADDR_LINK_LOCAL;
  if (x == 10 || (x == 172 && (y & 0xf0) == 16) || (x == 192 && y == 168) ||
      (x == 100 && (y & 0xc0) == 64))
    return AGENT_ADDR_PRIVATE;
  return AGENT_ADDR_PUBLIC;
}

int agent_addr_kind(const struct sockaddr *sa) {
  if (sa->sa_family == AF_INET) {
    struct sockaddr_in a4;
    memcpy(&a4, sa, sizeof a4);
    return kind_v4(ntohl(a4.sin_addr.s_addr));
  }
  if (sa->sa_family != AF_INET6) return AGENT_ADDR_PRIVATE; /* not the web */
  struct sockaddr_in6 a6;
  memcpy(&a6, sa, sizeof a6);
  const unsigned char *b = a6.sin6_addr.s6_addr;
  static const unsigned char mapped[12] = {0, 0, 0, 0, 0,    0,
                                           0, 0, 0, 0, 0xff, 0xff};
  if (!memcmp(b, mapped, 12))
    return kind_v4((uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 |
                   (uint32_t)b[14] << 8 | b[15]);
  if (IN6_IS_ADDR_LOOPBACK(&a6.sin6_addr) ||
      IN6_IS_ADDR_UNSPECIFIED(&a6.sin6_addr))
    return AGENT_ADDR_LOOPBACK;
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return AGENT_ADDR_LINK_LOCAL;
  if ((b[0] & 0xfe) == 0xfc) return AGENT_ADDR_PRIVATE;
  return AGENT_ADDR_PUBLIC;
}

/* Where the build itself is: the kinds of its host's addresses, resolved
 * once, at its first fetch. A build on loopback or a private network may
 * have its maps fetched from there; no other build may. */
static unsigned origin_kinds(struct origin *o) {
  if (o->resolved) return o->kinds;
  o->resolved = 1;
  o->kinds = 1u << AGENT_ADDR_PUBLIC;
  struct zc_url u;
  struct zc_errsave keep;
  zc_err_save(&keep);
  enum zc_err e = zc_url_split(o->name, &u);
  zc_err_restore(&keep);
  if (e) return o->kinds;
  char host[NI_MAXHOST];
  size_t hn = strlen(u.host);
  if (hn >= 2 && u.host[0] == '[')
    snprintf(host, sizeof host, "%.*s", (int)(hn - 2), u.host + 1);
  else
    snprintf(host, sizeof host, "%s", u.host);
  zc_url_clear(&u);
  struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
  if (getaddrinfo(host, NULL, &hints, &res) != 0) return o->kinds;
  for (struct addrinfo *ai = res; ai; ai = ai->ai_next)
    o->kinds |= 1u << agent_addr_kind(ai->ai_addr);
  freeaddrinfo(res);
  return o->kinds;
}

struct fetch {
  struct agent_maps *m;
  struct sink s;
  unsigned kinds; /* the kinds of address this fetch may connect to */
  int refused;    /* an address was refused */
};

/* libcurl's socket, for an address the build's own are like. */
static curl_socket_t fetch_socket(void *arg, curlsocktype purpose,
                                  struct curl_sockaddr *a) {
  struct fetch *f = arg;
  (void)purpose;
  if (!(f->kinds & 1u << agent_addr_kind(&a->addr))) {
    f->refused = 1;
    return CURL_SOCKET_BAD;
  }
  return socket(a->family, a->socktype, a->protocol);
}

/* Stops a transfer at SIGINT or SIGTERM, or when the run's fetching time
 * is spent. */
static int fetch_progress(void *arg, curl_off_t dt, curl_off_t dn,
                          curl_off_t ut, curl_off_t un) {
  const struct fetch *f = arg;
  (void)dt, (void)dn, (void)ut, (void)un;
  return zc_interrupted || zc_now_ms() > f->m->deadline;
}

/* One GET of url, redirects not followed; the HTTP status, or -1. */
static long fetch_once(CURL *h, struct fetch *f, const char *url, size_t max,
                       char **loc) {
  zc_buf_free(&f->s.b);
  zc_buf_init(&f->s.b, max);
  f->s.over = 0;
  double left = f->m->deadline - zc_now_ms();
  if (left < 1) return -1;
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
                   (long)(left < FETCH_TOTAL_MS ? left : FETCH_TOTAL_MS));
  f->m->fetches++;
  if (curl_easy_perform(h) != CURLE_OK || f->s.over) return -1;
  long code = 0;
  char *r = NULL;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
  curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &r);
  *loc = r ? zc_xstrdup(r) : NULL;
  return code;
}

/* Warns once that the run's time for fetching maps is spent. */
static int fetch_late(struct agent_maps *m) {
  if (zc_now_ms() <= m->deadline) return 0;
  if (!m->said_late)
    zc_log(1,
           "warning: fetching source maps took the %.0f s this run allows; "
           "the scripts not mapped yet keep their minified names",
           m->fetch_ms / 1e3);
  m->said_late = 1;
  return 1;
}

static void fetch_setup(CURL *h, struct fetch *f) {
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L); /* each hop is checked */
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)FETCH_CONNECT_MS);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &f->s);
  curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, fetch_socket);
  curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, f);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, fetch_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, f);
}

/* GET url with libcurl, from a URL build's own origins only (issue 26):
 * each redirect must stay within them, and the addresses connected to
 * must be of a kind the build's own are (no loopback, link-local or
 * private address for a build that is not on one). The run's fetches
 * share one time budget. NULL on any failure or refusal. */
static char *fetch_url(struct agent_maps *m, const char *url, size_t max,
                       size_t *n) {
  struct origin *o = origin_find(m, url);
  if (!o || zc_interrupted) return NULL;
  if (!m->deadline) m->deadline = zc_now_ms() + m->fetch_ms;
  if (fetch_late(m)) return NULL;
  CURL *h = curl_easy_init();
  if (!h) return NULL;
  struct fetch f = {.m = m, .kinds = origin_kinds(o)};
  zc_buf_init(&f.s.b, max);
  fetch_setup(h, &f);
  char *cur = zc_xstrdup(url), *body = NULL;
  for (int hop = 0; hop <= FETCH_HOPS; hop++) {
    char *loc = NULL;
    long code = fetch_once(h, &f, cur, max, &loc);
    free(cur);
    cur = loc;
    if (code >= 300 && code < 400 && loc && (o = origin_find(m, loc))) {
      f.kinds = origin_kinds(o);
      continue;
    }
    if (code >= 200 && code < 300) {
      *n = f.s.b.len;
      body = zc_buf_take(&f.s.b);
    } else if (code >= 300 && code < 400 && loc) {
      zc_log(2, "source map fetch: a redirect out of the build's origins "
                "is not followed");
    }
    break;
  }
  if (f.refused)
    zc_log(2, "source map fetch: an address the build is not on is refused");
  free(cur);
  zc_buf_free(&f.s.b);
  curl_easy_cleanup(h);
  fetch_late(m);
  return body;
}

/* Whether a URL path (n bytes) is safe to look up in a folder: no "..",
 * no backslash, no percent-escape. */
static int path_ok(const char *p, size_t n) {
  for (const char *s = p; s < p + n;) {
    const char *e = memchr(s, '/', (size_t)(p + n - s));
    size_t len = e ? (size_t)(e - s) : (size_t)(p + n - s);
    if ((len == 2 && !memcmp(s, "..", 2)) || memchr(s, '\\', len) ||
        memchr(s, '%', len))
      return 0;
    s += len + 1;
  }
  return 1;
}

/* The bytes of url from a root's folder; *mine says whether the root
 * decides (a prefix root that matches), even where the file is absent. A
 * root by file name tries the URL's path, then shorter and shorter tails
 * of it (a/b/c.js, b/c.js, c.js), under its folder. */
static char *root_get(const struct root *r, const char *url, size_t max,
                      size_t *n, int *mine) {
  *mine = 0;
  if (r->prefix) {
    size_t pn = strlen(r->prefix);
    if (strncmp(url, r->prefix, pn) != 0) return NULL;
    *mine = 1;
    const char *rest = url + pn;
    size_t rn = strcspn(rest, "?#");
    if (!path_ok(rest, rn)) return NULL;
    char *p = zc_xstrndup(rest, rn);
    char *b = agent_build_read(r->dir, p, max, n);
    free(p);
    return b;
  }
  size_t un = strcspn(url, "?#");
  const char *path = url;
  const char *sch = strstr(url, "://");
  if (sch && (size_t)(sch - url) < un) {
    path = strchr(sch + 3, '/');
    if (!path || (size_t)(path - url) >= un) return NULL;
  }
  const char *end = url + un;
  if (!path_ok(path, (size_t)(end - path))) return NULL;
  for (const char *t = path; t < end;) {
    while (t < end && *t == '/')
      t++;
    if (t >= end) break;
    char *p = zc_xstrndup(t, (size_t)(end - t));
    char *b = agent_build_read(r->dir, p, max, n);
    free(p);
    if (b) return b;
    const char *sl = memchr(t, '/', (size_t)(end - t));
    if (!sl) break;
    t = sl;
  }
  return NULL;
}

/* The bytes at url: a file under a root, or fetched when allowed. */
static char *get_url(struct agent_maps *m, const char *url, size_t max,
                     size_t *n) {
  for (unsigned i = 0; i < m->nroots; i++) {
    int mine;
    char *b = root_get(&m->roots[i], url, max, n, &mine);
    if (b || mine) return b;
  }
  return fetch_url(m, url, max, n);
}

/* A data: URL's JSON (base64 or percent-encoded); NULL if it is not one
 * zamcap reads. */
static char *data_url(const char *u, size_t un, size_t *n) {
  const char *comma = memchr(u, ',', un);
  if (!comma) return NULL;
  size_t hn = (size_t)(comma - u);
  const char *body = comma + 1;
  size_t bn = un - hn - 1;
  char *b = zc_xstrndup(body, bn);
  int b64 = hn >= 7 && !memcmp(comma - 7, ";base64", 7);
  if (b64) {
    long got = zc_b64_decode(b, bn);
    if (got < 0) {
      free(b);
      return NULL;
    }
    *n = (size_t)got;
    b[*n] = '\0';
    return b;
  }
  size_t w = 0;
  for (size_t r = 0; r < bn; r++) {
    unsigned x;
    if (b[r] == '%' && r + 2 < bn && sscanf(b + r + 1, "%2x", &x) == 1)
      b[w++] = (char)x, r += 2;
    else
      b[w++] = b[r];
  }
  b[w] = '\0';
  *n = w;
  return b;
}

static const char *find_bytes(const char *h, size_t hn, const char *nd,
                              size_t nn) {
  for (const char *p = h; hn >= nn && (size_t)(h + hn - p) >= nn; p++) {
    p = memchr(p, nd[0], (size_t)(h + hn - p) - nn + 1);
    if (!p) return NULL;
    if (!memcmp(p, nd, nn)) return p;
  }
  return NULL;
}

/* The last sourceMappingURL comment of a script: its value, or NULL. */
static const char *map_comment(const char *t, size_t n, size_t *vn) {
  const char *best = NULL;
  for (const char *p = t;
       (p = find_bytes(p, (size_t)(t + n - p), "sourceMappingURL=", 17));
       p += 17) {
    if (p - t >= 4 && (p[-4] == '/' && p[-3] == '/') &&
        (p[-2] == '#' || p[-2] == '@') && p[-1] == ' ')
      best = p + 17;
  }
  if (!best) return NULL;
  *vn = strcspn(best, " \t\r\n*");
  if (best + *vn > t + n) *vn = (size_t)(t + n - best);
  return *vn ? best : NULL;
}

struct bytes {
  const char *p;
  size_t n;
};

static enum zc_err write_bytes(void *arg, FILE *f) {
  const struct bytes *b = arg;
  return fwrite(b->p, 1, b->n, f) == b->n
             ? ZC_OK
             : zc_fail(ZC_E_IO, "%s", strerror(errno));
}

/* A usable map (it parsed within the run's budget), kept in memory until
 * agent_maps_save: the reports are written first, and the store only
 * holds maps that parse (issue 26). */
static void keep(void *arg, const char *url, struct ana_map_src *src) {
  struct agent_maps *m = arg;
  if (!m->store || !m->writable || !src->map) return;
  size_t add = src->mapn + (src->text ? src->textn : 0);
  if (m->pend_bytes + add > STORE_MAX) {
    if (!m->said_full)
      zc_log(1,
             "warning: the source maps found are over the %zu MB kept "
             "per run: the rest are used but not kept",
             STORE_MAX >> 20);
    m->said_full = 1;
    return;
  }
  ZC_GROW(m->pend, m->cappend, m->npend + 1);
  struct pending *p = &m->pend[m->npend++];
  *p = (struct pending){
      .url = zc_xstrdup(url),
      .map_url = src->map_url ? zc_xstrdup(src->map_url) : NULL,
      .map = src->map,
      .mapn = src->mapn,
      .text = src->text ? zc_xstrndup(src->text, src->textn) : NULL,
      .textn = src->textn};
  src->map = NULL; /* taken */
  m->pend_bytes += add;
}

/* Whether n more bytes leave the store's file system at least as much
 * free: the store never takes the last half of the disk. */
static int room_for(const char *dir, size_t n) {
  struct statvfs v;
  if (statvfs(dir, &v) != 0) return 1; /* the write will say */
  unsigned long long avail = (unsigned long long)v.f_bavail * v.f_frsize;
  return avail >= 2ull * n;
}

/* Writes one kept map (and its script) to the store, with its index
 * entry; 0 when the disk or a write says no. */
static int store_one(struct agent_maps *m, const struct pending *p) {
  char name[2][40];
  const char *what[2] = {p->text, p->map};
  size_t len[2] = {p->textn, p->mapn};
  const char *ext[2] = {"js", "map"};
  for (int i = 0; i < 2; i++) {
    name[i][0] = '\0';
    if (!what[i]) continue;
    snprintf(name[i], sizeof name[i], "%016llx.%s",
             (unsigned long long)zc_hash(what[i], len[i], 0x5a4d), ext[i]);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", m->store, name[i]);
    struct stat st;
    if (stat(path, &st) == 0) continue; /* the same content, kept once */
    if (!room_for(m->store, len[i])) {
      zc_log(1,
             "warning: %s: too little room left on its disk; the other "
             "source maps are used but not kept",
             m->store);
      return 0;
    }
    struct bytes b = {.p = what[i], .n = len[i]};
    if (zc_write_atomic(path, write_bytes, &b)) {
      zc_log(1, "warning: %s; the other source maps are used but not kept",
             zc_errmsg());
      return 0;
    }
  }
  cJSON *e = cJSON_CreateObject();
  char *u = zc_xstrdup(p->url);
  zc_scrub(u);
  cJSON_AddStringToObject(e, "url", u);
  free(u);
  if (p->map_url) {
    u = zc_xstrdup(p->map_url);
    zc_scrub(u);
    cJSON_AddStringToObject(e, "map_url", u);
    free(u);
  }
  cJSON_AddStringToObject(e, "map", name[1]);
  if (name[0][0]) cJSON_AddStringToObject(e, "script", name[0]);
  cJSON_AddItemToArray(m->index, e);
  return 1;
}

/* From an earlier run's store: the entry for url. */
static int from_store(struct agent_maps *m, const char *url,
                      struct ana_map_src *src) {
  if (!m->index) return 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, m->index) {
    const char *u = cJSON_GetStringValue(cJSON_GetObjectItem(e, "url"));
    if (!u || strcmp(u, url) != 0) continue;
    const char *mp = cJSON_GetStringValue(cJSON_GetObjectItem(e, "map"));
    const char *sp = cJSON_GetStringValue(cJSON_GetObjectItem(e, "script"));
    const char *mu = cJSON_GetStringValue(cJSON_GetObjectItem(e, "map_url"));
    if (!mp || strchr(mp, '/') || (sp && strchr(sp, '/'))) return 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", m->store, mp);
    src->map = read_file(path, MAP_MAX, &src->mapn);
    if (!src->map) return 0;
    if (sp) {
      snprintf(path, sizeof path, "%s/%s", m->store, sp);
      src->text = read_file(path, SCRIPT_MAX, &src->textn);
    }
    src->map_url = zc_xstrdup(mu ? mu : url);
    return 1;
  }
  return 0;
}

static int find(void *arg, const char *url, struct ana_map_src *src) {
  struct agent_maps *m = arg;
  if (from_store(m, url, src)) return 1;
  size_t tn = 0, vn = 0;
  char *text = get_url(m, url, SCRIPT_MAX, &tn);
  const char *v = text ? map_comment(text, tn, &vn) : NULL;
  if (v && vn > 5 && !strncmp(v, "data:", 5)) {
    src->map = data_url(v, vn, &src->mapn);
    src->map_url = zc_xstrdup(url);
  } else if (v) {
    char *rel = zc_xstrndup(v, vn);
    src->map_url = ana_url_join(url, rel);
    free(rel);
    src->map = get_url(m, src->map_url, MAP_MAX, &src->mapn);
  } else if (text || m->nroots) {
    /* No comment: app.min.js.map beside app.min.js, as published
     * libraries often ship it. */
    size_t un = strcspn(url, "?#");
    src->map_url = zc_xmalloc(un + 5);
    memcpy(src->map_url, url, un);
    memcpy(src->map_url + un, ".map", 5);
    src->map = get_url(m, src->map_url, MAP_MAX, &src->mapn);
  }
  src->text = text;
  src->textn = tn;
  if (!src->map) {
    zc_log(2, "no source map for %s%s", url, text ? "" : " (script not found)");
    return 0;
  }
  zc_log(2, "source map for %s: %s", url,
         src->map_url ? src->map_url : "(inline)");
  return 1;
}

struct agent_maps *agent_maps_new(const char *store, int writable) {
  struct agent_maps *m = zc_xcalloc(1, sizeof *m);
  m->store = store ? zc_xstrdup(store) : NULL;
  m->writable = writable;
  m->fetch_ms = FETCH_RUN_MS;
  m->index = cJSON_CreateArray();
  m->ana = ana_maps_new(find, m);
  ana_maps_on_usable(m->ana, keep);
  return m;
}

int agent_maps_fetch_from(struct agent_maps *m, const char *url) {
  char *o = origin_of(url);
  if (!o || m->norigins == ROOTS_MAX) {
    free(o);
    return 0;
  }
  m->origins[m->norigins++] = (struct origin){.name = o};
  return 1;
}

void agent_maps_fetch_budget(struct agent_maps *m, double ms) {
  m->fetch_ms = ms;
}

unsigned agent_maps_fetches(const struct agent_maps *m) {
  return m->fetches;
}

void agent_maps_free(struct agent_maps *m) {
  if (!m) return;
  ana_maps_free(m->ana);
  for (unsigned i = 0; i < m->nroots; i++) {
    free(m->roots[i].prefix);
    free(m->roots[i].dir);
  }
  for (unsigned i = 0; i < m->norigins; i++)
    free(m->origins[i].name);
  for (size_t i = 0; i < m->npend; i++) {
    free(m->pend[i].url);
    free(m->pend[i].map_url);
    free(m->pend[i].map);
    free(m->pend[i].text);
  }
  free(m->pend);
  free(m->store);
  cJSON_Delete(m->index);
  free(m);
}

int agent_maps_root(struct agent_maps *m, const char *prefix, const char *dir) {
  if (m->nroots == ROOTS_MAX) return 0;
  size_t dn = strlen(dir);
  while (dn > 1 && dir[dn - 1] == '/')
    dn--;
  m->roots[m->nroots].prefix = prefix ? zc_xstrdup(prefix) : NULL;
  /* The rule of a build's files (agent_build_open) wants the folder as
   * realpath gives it. */
  char real[PATH_MAX], *d = zc_xstrndup(dir, dn);
  m->roots[m->nroots].dir = realpath(d, real) ? zc_xstrdup(real) : d;
  if (m->roots[m->nroots].dir != d) free(d);
  m->nroots++;
  return 1;
}

enum zc_err agent_maps_open_store(struct agent_maps *m) {
  if (!m->store) return ZC_OK;
  char path[4200];
  snprintf(path, sizeof path, "%s/index.json", m->store);
  size_t n;
  char *t = read_file(path, 64 << 20, &n);
  if (!t) return ZC_OK;
  cJSON *doc = cJSON_ParseWithLength(t, n);
  free(t);
  cJSON *list = cJSON_GetObjectItem(doc, "scripts");
  if (!cJSON_IsArray(list)) {
    cJSON_Delete(doc);
    return zc_fail(ZC_E_PARSE, "%s: not a zamcap source-map index", path);
  }
  cJSON_Delete(m->index);
  m->index = cJSON_DetachItemViaPointer(doc, list);
  cJSON_Delete(doc);
  return ZC_OK;
}

struct ana_maps *agent_maps_ana(struct agent_maps *m) {
  return m->ana;
}

static enum zc_err write_index(void *arg, FILE *f) {
  const struct agent_maps *m = arg;
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddStringToObject(doc, "schema", "zamcap-sourcemaps/1");
  cJSON_AddItemReferenceToObject(doc, "scripts", m->index);
  char *s = cJSON_Print(doc);
  cJSON_Delete(doc);
  int ok = s && fputs(s, f) >= 0 && fputc('\n', f) != EOF;
  free(s);
  return ok ? ZC_OK : zc_fail(ZC_E_IO, "index.json: %s", strerror(errno));
}

enum zc_err agent_maps_save(struct agent_maps *m) {
  if (!m->store || !m->writable || !m->npend) return ZC_OK;
  if (zc_mkdirs(m->store)) {
    zc_log(1, "warning: %s; source maps were used but not kept", zc_errmsg());
    return ZC_OK;
  }
  for (size_t i = 0; i < m->npend && store_one(m, &m->pend[i]); i++) {
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/index.json", m->store);
  return zc_write_atomic(path, write_index, m);
}
