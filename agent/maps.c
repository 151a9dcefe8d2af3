/* Source maps for the analysis: found in build folders, fetched from URL
 * builds, kept in OUT/sourcemaps/ so that a later `zamcap compare` of the
 * run folder names the same functions offline. See maps.h. */
#define _POSIX_C_SOURCE 200809L
#include "maps.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
  SCRIPT_MAX = 64 << 20, /* a script read to find its map and names */
  MAP_MAX = 256 << 20,   /* a source map */
  FETCH_CONNECT_MS = 5000,
  FETCH_TOTAL_MS = 30000,
  ROOTS_MAX = 16,
};

struct root {
  char *prefix, *dir;
};

struct agent_maps {
  struct ana_maps *ana;
  struct root roots[ROOTS_MAX];
  unsigned nroots;
  char *store;  /* OUT/sourcemaps, or NULL */
  int writable; /* found maps are kept in the store */
  int made;     /* the store folder exists */
  int fetch;    /* http(s) URLs may be fetched */
  cJSON *index; /* the store's entries: what was read and what was found */
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

/* GET url (http or https) with libcurl; NULL on any failure. */
static char *fetch_url(const char *url, size_t max, size_t *n) {
  CURL *h = curl_easy_init();
  if (!h) return NULL;
  struct sink s;
  zc_buf_init(&s.b, max);
  s.over = 0;
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)FETCH_CONNECT_MS);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)FETCH_TOTAL_MS);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_write);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &s);
  CURLcode rc = curl_easy_perform(h);
  curl_easy_cleanup(h);
  if (rc != CURLE_OK || s.over) {
    zc_buf_free(&s.b);
    return NULL;
  }
  *n = s.b.len;
  return zc_buf_take(&s.b);
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

static char *join(const char *dir, const char *rest, size_t n) {
  size_t dn = strlen(dir);
  char *p = zc_xmalloc(dn + n + 2);
  memcpy(p, dir, dn);
  p[dn] = '/';
  memcpy(p + dn + 1, rest, n);
  p[dn + 1 + n] = '\0';
  return p;
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
    char *p = join(r->dir, rest, rn);
    char *b = read_file(p, max, n);
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
    char *p = join(r->dir, t, (size_t)(end - t));
    char *b = read_file(p, max, n);
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
  if (m->fetch && (!strncmp(url, "http://", 7) || !strncmp(url, "https://", 8)))
    return fetch_url(url, max, n);
  return NULL;
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

static void store_entry(struct agent_maps *m, const char *url,
                        const struct ana_map_src *src) {
  if (!m->store || !m->writable || !src->map) return;
  if (!m->made) {
    if (zc_mkdirs(m->store)) {
      zc_log(1, "warning: %s; source maps are used but not kept", zc_errmsg());
      m->writable = 0;
      return;
    }
    m->made = 1;
  }
  char name[2][40];
  const char *what[2] = {src->text, src->map};
  size_t len[2] = {src->textn, src->mapn};
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
    struct bytes b = {.p = what[i], .n = len[i]};
    if (zc_write_atomic(path, write_bytes, &b)) {
      zc_log(1, "warning: %s; the source map is used but not kept",
             zc_errmsg());
      return;
    }
  }
  cJSON *e = cJSON_CreateObject();
  char *u = zc_xstrdup(url);
  zc_scrub(u);
  cJSON_AddStringToObject(e, "url", u);
  free(u);
  if (src->map_url) {
    u = zc_xstrdup(src->map_url);
    zc_scrub(u);
    cJSON_AddStringToObject(e, "map_url", u);
    free(u);
  }
  cJSON_AddStringToObject(e, "map", name[1]);
  if (name[0][0]) cJSON_AddStringToObject(e, "script", name[0]);
  cJSON_AddItemToArray(m->index, e);
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
  store_entry(m, url, src);
  return 1;
}

struct agent_maps *agent_maps_new(const char *store, int writable, int fetch) {
  struct agent_maps *m = zc_xcalloc(1, sizeof *m);
  m->store = store ? zc_xstrdup(store) : NULL;
  m->writable = writable;
  m->fetch = fetch;
  m->index = cJSON_CreateArray();
  m->ana = ana_maps_new(find, m);
  return m;
}

void agent_maps_free(struct agent_maps *m) {
  if (!m) return;
  ana_maps_free(m->ana);
  for (unsigned i = 0; i < m->nroots; i++) {
    free(m->roots[i].prefix);
    free(m->roots[i].dir);
  }
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
  m->roots[m->nroots].dir = zc_xstrndup(dir, dn);
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
  if (!m->store || !m->writable || !m->made) return ZC_OK;
  char path[4200];
  snprintf(path, sizeof path, "%s/index.json", m->store);
  return zc_write_atomic(path, write_index, m);
}
