/* zc: errors, allocation, arena, buffers, logging. See zc.h. */
#define _GNU_SOURCE /* fopencookie */
#include "zc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int zc_verbosity = 1;

static _Thread_local enum zc_err zc__last;
static _Thread_local char zc__msg[1024];

const char *zc_strerror(enum zc_err e) {
  switch (e) {
  case ZC_OK: return "no error";
  case ZC_E_IO: return "input/output error";
  case ZC_E_PARSE: return "parse error";
  case ZC_E_TOOBIG: return "too big";
  case ZC_E_TIMEOUT: return "timed out";
  case ZC_E_USAGE: return "bad usage";
  case ZC_E_NOMEM: return "out of memory";
  case ZC_E_INTERNAL: return "internal error";
  case ZC_E_CDP: return "DevTools protocol error";
  case ZC_E_BROWSER: return "browser error";
  case ZC_E_INTERRUPTED: return "interrupted";
  }
  return "unknown error";
}

volatile int zc_interrupted;

/* By error, then by stage (ZC_STAGE_INPUT, ZC_STAGE_CAPTURE). */
static const unsigned char exit_table[][2] = {
    [ZC_OK] = {ZC_EXIT_NONE, ZC_EXIT_NONE},
    [ZC_E_IO] = {ZC_EXIT_USAGE, ZC_EXIT_CAPTURE},
    [ZC_E_PARSE] = {ZC_EXIT_USAGE, ZC_EXIT_CAPTURE},
    [ZC_E_TOOBIG] = {ZC_EXIT_USAGE, ZC_EXIT_CAPTURE},
    [ZC_E_TIMEOUT] = {ZC_EXIT_CAPTURE, ZC_EXIT_CAPTURE},
    [ZC_E_USAGE] = {ZC_EXIT_USAGE, ZC_EXIT_USAGE},
    [ZC_E_NOMEM] = {ZC_EXIT_INTERNAL, ZC_EXIT_INTERNAL},
    [ZC_E_INTERNAL] = {ZC_EXIT_INTERNAL, ZC_EXIT_INTERNAL},
    [ZC_E_CDP] = {ZC_EXIT_CAPTURE, ZC_EXIT_CAPTURE},
    [ZC_E_BROWSER] = {ZC_EXIT_CAPTURE, ZC_EXIT_CAPTURE},
};

int zc_exit_for(enum zc_err e, enum zc_stage s) {
  if (e == ZC_E_INTERRUPTED) return 128 + (zc_interrupted ? zc_interrupted : 2);
  if ((unsigned)e >= ZC_ARRAY_LEN(exit_table) ||
      (s != ZC_STAGE_INPUT && s != ZC_STAGE_CAPTURE))
    return ZC_EXIT_INTERNAL;
  return exit_table[e][s];
}

enum zc_err zc_fail(enum zc_err e, const char *fmt, ...) {
  /* Formatted aside, then copied: a caller that adds what it knows to the
   * last message (zc_fail(e, "x: %s", zc_errmsg())) passes this thread's
   * buffer as an argument, and vsnprintf into it would be undefined. */
  char msg[sizeof zc__msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  memcpy(zc__msg, msg, sizeof msg);
  zc__last = e;
  return e;
}

const char *zc_errmsg(void) {
  return zc__msg[0] ? zc__msg : zc_strerror(zc__last);
}

void zc_err_save(struct zc_errsave *s) {
  s->code = zc__last;
  memcpy(s->msg, zc__msg, sizeof s->msg);
}

void zc_err_restore(const struct zc_errsave *s) {
  zc__last = s->code;
  memcpy(zc__msg, s->msg, sizeof zc__msg);
}

static void zc__oom(size_t n) {
  fprintf(stderr, "zamcap: out of memory (asked for %zu bytes)\n", n);
  exit(4);
}

void *zc_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) zc__oom(n);
  return p;
}

void *zc_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) zc__oom(n * size);
  return p;
}

void *zc_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) zc__oom(n);
  return q;
}

void *zc_xreallocarray(void *p, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) zc__oom(SIZE_MAX);
  return zc_xrealloc(p, n * size);
}

char *zc_xstrdup(const char *s) {
  return zc_xstrndup(s, strlen(s));
}

char *zc_xstrndup(const char *s, size_t n) {
  char *d = zc_xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

void zc_grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return;
  size_t c = *cap ? *cap : 8;
  while (c < need) {
    if (c > SIZE_MAX / 2) zc__oom(SIZE_MAX);
    c *= 2;
  }
  *p = zc_xreallocarray(*p, c, size);
  *cap = c;
}

/* ---- arena ---- */

struct zc_chunk {
  struct zc_chunk *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
};

struct zc_arena {
  struct zc_chunk *head;
  size_t bytes;
};

struct zc_arena *zc_arena_new(void) {
  return zc_xcalloc(1, sizeof(struct zc_arena));
}

void zc_arena_free(struct zc_arena *a) {
  if (!a) return;
  for (struct zc_chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

void *zc_arena_alloc(struct zc_arena *a, size_t n) {
  n = (n + 7) & ~(size_t)7;
  struct zc_chunk *c = a->head;
  if (!c || c->size - c->used < n) {
    /* Chunks grow with the arena so that big trees need few mallocs. */
    size_t size = a->bytes / 4;
    if (size < 64 * 1024) size = 64 * 1024;
    if (size > 16u << 20) size = 16u << 20;
    if (size < n) size = n;
    c = zc_xmalloc(sizeof *c + size);
    c->used = 0;
    c->size = size;
    c->next = a->head;
    a->head = c;
    a->bytes += size;
  }
  void *p = c->data + c->used;
  c->used += n;
  memset(p, 0, n);
  return p;
}

char *zc_arena_strndup(struct zc_arena *a, const char *s, size_t n) {
  char *d = zc_arena_alloc(a, n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

size_t zc_arena_bytes(const struct zc_arena *a) {
  return a->bytes;
}

/* ---- buffers ---- */

void zc_buf_init(struct zc_buf *b, size_t max) {
  b->ptr = NULL;
  b->len = b->cap = 0;
  b->max = max;
}

static enum zc_err zc__buf_room(struct zc_buf *b, size_t n) {
  if (n > b->max || b->len > b->max - n)
    return zc_fail(ZC_E_TOOBIG, "buffer would pass its %zu-byte ceiling",
                   b->max);
  if (b->len + n + 1 > b->cap) {
    size_t c = b->cap ? b->cap : 256;
    while (c < b->len + n + 1)
      c *= 2;
    if (c > b->max + 1) c = b->max + 1;
    b->ptr = zc_xrealloc(b->ptr, c);
    b->cap = c;
  }
  return ZC_OK;
}

enum zc_err zc_buf_add(struct zc_buf *b, const void *p, size_t n) {
  enum zc_err e = zc__buf_room(b, n);
  if (e) return e;
  if (n) memcpy(b->ptr + b->len, p, n);
  b->len += n;
  b->ptr[b->len] = '\0';
  return ZC_OK;
}

enum zc_err zc_buf_addc(struct zc_buf *b, char c) {
  return zc_buf_add(b, &c, 1);
}

enum zc_err zc_buf_vprintf(struct zc_buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap2);
  va_end(ap2);
  if (n < 0) return zc_fail(ZC_E_INTERNAL, "bad format");
  if ((size_t)n < sizeof small) return zc_buf_add(b, small, (size_t)n);
  enum zc_err e = zc__buf_room(b, (size_t)n);
  if (e) return e;
  vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
  return ZC_OK;
}

enum zc_err zc_buf_printf(struct zc_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  enum zc_err e = zc_buf_vprintf(b, fmt, ap);
  va_end(ap);
  return e;
}

void zc_buf_reset(struct zc_buf *b) {
  b->len = 0;
  if (b->ptr) b->ptr[0] = '\0';
}

char *zc_buf_take(struct zc_buf *b) {
  char *p = b->ptr ? b->ptr : zc_xstrdup("");
  b->ptr = NULL;
  b->len = b->cap = 0;
  return p;
}

void zc_buf_free(struct zc_buf *b) {
  free(b->ptr);
  b->ptr = NULL;
  b->len = b->cap = 0;
}

/* ---- logging, time, hashing ---- */

size_t zc_utf8_char(const unsigned char *s, size_t n, uint32_t *cp) {
  unsigned c = s[0];
  size_t len = c < 0x80                 ? 1
               : c >= 0xc2 && c <= 0xdf ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
  if (!len || len > n) return 0;
  uint32_t v = len == 1 ? c : c & (0x7f >> len);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    v = v << 6 | (s[i] & 0x3f);
  }
  /* overlong forms, surrogates, past U+10FFFF */
  if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) ||
      (v >= 0xd800 && v <= 0xdfff))
    return 0;
  *cp = v;
  return len;
}

/* The escape for the character at s, into e (at least 8 bytes); its length
 * in *len. Returns the escape's length, 0 when it is shown as it is. */
static size_t term_escape(const unsigned char *s, size_t n, size_t *len,
                          char *e) {
  uint32_t cp;
  *len = zc_utf8_char(s, n, &cp);
  if (!*len) {
    *len = 1;
    return (size_t)snprintf(e, 8, "\\x%02X", s[0]);
  }
  static const char named[0x20] = {
      ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't', [27] = 'e'};
  if (cp < 0x20 && named[cp]) return (size_t)snprintf(e, 8, "\\%c", named[cp]);
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
    return cp < 0x80 ? (size_t)snprintf(e, 8, "\\x%02X", (unsigned)cp)
                     : (size_t)snprintf(e, 8, "\\u%04X", (unsigned)cp);
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
      cp == 0x2028 || cp == 0x2029)
    return (size_t)snprintf(e, 8, "\\u%04X", (unsigned)cp);
  return 0;
}

void zc_term_put(FILE *f, const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0, run = 0; /* run: bytes from i shown as they are */
  while (i + run < n && p[i + run]) {
    char e[8];
    size_t len, el = term_escape(p + i + run, n - i - run, &len, e);
    if (!el) {
      run += len;
      continue;
    }
    fwrite(p + i, 1, run, f);
    fwrite(e, 1, el, f);
    i += run + len;
    run = 0;
  }
  fwrite(p + i, 1, run, f);
}

static struct {
  char *s;
  size_t n;
} zc__secret[256];
static size_t zc__nsecret;

void zc_secret_add(const char *s, size_t n) {
  if (n < 3 || zc__nsecret == sizeof zc__secret / sizeof *zc__secret) return;
  for (size_t i = 0; i < zc__nsecret; i++)
    if (zc__secret[i].n == n && !memcmp(zc__secret[i].s, s, n)) return;
  zc__secret[zc__nsecret].s = zc_xstrndup(s, n);
  zc__secret[zc__nsecret++].n = n;
}

void zc_secrets_clear(void) {
  for (size_t i = 0; i < zc__nsecret; i++)
    free(zc__secret[i].s);
  zc__nsecret = 0;
}

static int secret_name(const char *k, size_t n) {
  static const char *const words[] = {"token",      "key",  "secret", "pass",
                                      "pwd",        "auth", "sig",    "session",
                                      "credential", "jwt"};
  char low[64];
  if (n >= sizeof low) n = sizeof low - 1;
  for (size_t i = 0; i < n; i++)
    low[i] = (char)(k[i] >= 'A' && k[i] <= 'Z' ? k[i] + 32 : k[i]);
  low[n] = '\0';
  if (!strcmp(low, "code") || !strcmp(low, "sid")) return 1;
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strstr(low, words[i])) return 1;
  return 0;
}

/* Whether byte c is percent-encoded in form f: 0 userinfo (WHATWG's
 * userinfo set, as Chrome writes a password), 1 query (WHATWG's special
 * query set), 2 every byte but encodeURIComponent's unreserved ones. */
static int secret_enc(unsigned char c, int f) {
  if (c <= 0x20 || c >= 0x7f || c == '"' || c == '#' || c == '<' || c == '>')
    return 1;
  if (f == 1) return c == '\'';
  if (f == 0) return strchr("?`{}/:;=@[\\]^|", c) != NULL;
  return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || strchr("-_.!~*'()", c));
}

static int secret_hex(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* The forms a report's own escaping gives a secret: JSON's (a quote, a
 * backslash, a control character) and HTML's (report.html's html_esc), so
 * that a password with '&' or '"' is found in report.json and report.html
 * too. */
static void secret_escaped(const char *s, size_t n) {
  char *j = zc_xmalloc(6 * n + 1), *h = zc_xmalloc(6 * n + 1);
  size_t jn = 0, hn = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      jn += (size_t)sprintf(j + jn, "\\%c", c);
    else if (c < 0x20)
      jn += (size_t)sprintf(j + jn, "\\u%04x", c);
    else
      j[jn++] = (char)c;
    const char *ent = c == '&'    ? "&amp;"
                      : c == '<'  ? "&lt;"
                      : c == '>'  ? "&gt;"
                      : c == '"'  ? "&quot;"
                      : c == '\'' ? "&#39;"
                                  : NULL;
    if (ent)
      hn += (size_t)sprintf(h + hn, "%s", ent);
    else
      h[hn++] = (char)c;
  }
  if (jn != n) zc_secret_add(j, jn);
  if (hn != n) zc_secret_add(h, hn);
  free(j);
  free(h);
}

/* A secret as it was given, percent-decoded, and percent-encoded the ways
 * a browser or a tool may write it back (Chrome turns a password's '@'
 * into %40 in every URL it reports). */
void zc_secret_add_forms(const char *s, size_t n) {
  zc_secret_add(s, n);
  if (n < 3 || n > 4096) return;
  char *d = zc_xmalloc(n + 1), *e = zc_xmalloc(3 * n + 1);
  size_t dn = 0;
  for (size_t i = 0; i < n; i++) {
    int h, l;
    if (s[i] == '%' && i + 2 < n && (h = secret_hex(s[i + 1])) >= 0 &&
        (l = secret_hex(s[i + 2])) >= 0) {
      d[dn++] = (char)(h * 16 + l);
      i += 2;
    } else {
      d[dn++] = s[i];
    }
  }
  zc_secret_add(d, dn);
  for (int f = 0; f < 3; f++) {
    size_t en = 0;
    for (size_t i = 0; i < dn; i++) {
      unsigned char c = (unsigned char)d[i];
      if (secret_enc(c, f)) {
        e[en++] = '%';
        e[en++] = "0123456789ABCDEF"[c >> 4];
        e[en++] = "0123456789ABCDEF"[c & 15];
      } else {
        e[en++] = (char)c;
      }
    }
    zc_secret_add(e, en);
  }
  secret_escaped(d, dn);
  free(d);
  free(e);
}

int zc_url_secrets(const char *url) {
  if (!url) return 0;
  int userinfo = 0;
  const char *p = strstr(url, "://");
  if (p) {
    p += 3;
    size_t auth = strcspn(p, "/?#");
    const char *at = NULL; /* the last '@': a password may hold one */
    for (size_t i = 0; i < auth; i++)
      if (p[i] == '@') at = p + i;
    if (at) {
      userinfo = 1;
      const char *colon = memchr(p, ':', (size_t)(at - p));
      zc_secret_add(p, (size_t)(at - p));
      if (colon) zc_secret_add_forms(colon + 1, (size_t)(at - colon - 1));
    }
  }
  /* name=value parameters after '?' and after '#' */
  for (const char *q = strpbrk(url, "?#"); q && *q;) {
    q++; /* past the '?', '&', '#' or ';' */
    size_t len = strcspn(q, "&#;");
    const char *eq = memchr(q, '=', len);
    if (eq && secret_name(q, (size_t)(eq - q)))
      zc_secret_add_forms(eq + 1, (size_t)(q + len - eq - 1));
    q += len;
  }
  return userinfo;
}

size_t zc_secret_maxlen(void) {
  size_t m = 0;
  for (size_t i = 0; i < zc__nsecret; i++)
    if (zc__secret[i].n > m) m = zc__secret[i].n;
  return m;
}

size_t zc_scrub_mem(char *s, size_t n) {
  size_t found = 0;
  if (!s || !zc__nsecret) return 0;
  for (size_t p = 0; p < n; p++)
    for (size_t i = 0; i < zc__nsecret; i++)
      if (s[p] == zc__secret[i].s[0] && zc__secret[i].n <= n - p &&
          !memcmp(s + p, zc__secret[i].s, zc__secret[i].n)) {
        memset(s + p, '*', zc__secret[i].n);
        found++;
      }
  return found;
}

size_t zc_scrub(char *s) {
  return s ? zc_scrub_mem(s, strlen(s)) : 0;
}

static void log_v(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));
static void log_v(const char *fmt, va_list ap) {
  char small[1024], *msg = small;
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1)))
    vsnprintf(msg, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  if (!msg) msg = small; /* no memory: the message cut short */
  zc_scrub(msg);
  fputs("zamcap: ", stderr);
  if (n > 0) zc_term_put(stderr, msg, SIZE_MAX);
  fputc('\n', stderr);
  if (msg != small) free(msg);
}

void zc_log(int level, const char *fmt, ...) {
  if (level > zc_verbosity) return;
  va_list ap;
  va_start(ap, fmt);
  log_v(fmt, ap);
  va_end(ap);
}

void zc_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  log_v(fmt, ap);
  va_end(ap);
}

enum zc_err zc_mkdirs(const char *path) {
  char *p = zc_xstrdup(path);
  enum zc_err e = ZC_OK;
  for (char *s = p + 1;; s++) {
    if (*s != '/' && *s) continue;
    char c = *s;
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      e = zc_fail(ZC_E_IO, "%s: cannot create folder: %s", p, strerror(errno));
      break;
    }
    *s = c;
    if (!c) break;
  }
  struct stat st;
  if (!e && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)))
    e = zc_fail(ZC_E_IO, "%s: not a folder", path);
  if (!e && access(path, W_OK) != 0)
    e = zc_fail(ZC_E_IO, "%s: cannot write there: %s", path, strerror(errno));
  free(p);
  return e;
}

/* The process groups of the children being waited for, for a second
 * signal's zc_children_kill: written by the waiting thread, read by the
 * handler. */
static volatile sig_atomic_t zc__child[16];

void zc_child_add(int pgid) {
  for (size_t i = 0; i < ZC_ARRAY_LEN(zc__child); i++)
    if (!zc__child[i]) {
      zc__child[i] = pgid;
      return;
    }
}

void zc_child_del(int pgid) {
  for (size_t i = 0; i < ZC_ARRAY_LEN(zc__child); i++)
    if (zc__child[i] == pgid) zc__child[i] = 0;
}

void zc_children_kill(void) {
  for (size_t i = 0; i < ZC_ARRAY_LEN(zc__child); i++)
    if (zc__child[i] > 0) kill(-(pid_t)zc__child[i], SIGKILL);
}

int zc_child_wait(int pid, int stoppable, double deadline_ms, int *ws) {
  int asked = 0;
  double asked_at = 0;
  int r;
  while ((r = (int)waitpid(pid, ws, WNOHANG)) == 0 ||
         (r < 0 && errno == EINTR)) {
    double now = zc_now_ms();
    if (!asked && ((stoppable && zc_interrupted) || now >= deadline_ms)) {
      kill(-pid, SIGTERM); /* its group: a shell's children too */
      asked = 1;
      asked_at = now;
    }
    if (asked && now - asked_at > 2000) kill(-pid, SIGKILL);
    zc_sleep_ms(asked ? 5 : 20);
  }
  /* what the leader left of its group goes with it */
  if (asked) kill(-pid, SIGKILL);
  return asked ? (stoppable && zc_interrupted ? 2 : 1) : 0;
}

enum zc_err zc_spawn_wait(char *const argv[], double limit_ms, int *status,
                          char *err, size_t cap) {
  int fd[2];
  *status = -1;
  if (cap) err[0] = '\0';
  if (pipe(fd) != 0) return zc_fail(ZC_E_IO, "pipe: %s", strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  /* In a group of its own, so that it and its children can be ended
   * together (a stop, the time limit, a second signal). */
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&at, 0);
  /* A child started after a stop is cleanup: it runs to its end. */
  int stoppable = !zc_interrupted;
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(fd[1]);
  if (rc == 0) zc_child_add(pid);
  if (rc != 0) {
    close(fd[0]);
    if (rc == ENOENT) {
      *status = 127;
      return ZC_OK;
    }
    return zc_fail(ZC_E_IO, "%s: cannot start: %s", argv[0], strerror(rc));
  }
  /* stderr is read as it comes, so that a chatty child never blocks on a
   * full pipe; the first line is kept. */
  double deadline = zc_now_ms() + limit_ms;
  size_t n = 0;
  int line_done = 0, timed_out = 0;
  for (;;) {
    double left = deadline - zc_now_ms();
    if (left <= 0 || (stoppable && zc_interrupted)) {
      timed_out = 1;
      break;
    }
    struct pollfd p = {.fd = fd[0], .events = POLLIN};
    int r = poll(&p, 1, left > 100 ? 100 : (int)left + 1);
    if (r < 0 && errno != EINTR) break;
    if (r <= 0) continue;
    char chunk[512];
    ssize_t got = read(fd[0], chunk, sizeof chunk);
    if (got <= 0) break; /* EOF: the child closed stderr (or ended) */
    for (ssize_t i = 0; i < got && !line_done && cap; i++) {
      if (chunk[i] == '\n' || n + 1 >= cap)
        line_done = 1;
      else
        err[n++] = (unsigned char)chunk[i] < 0x20 || chunk[i] == 0x7f
                       ? '?'
                       : chunk[i]; /* no terminal controls */
    }
  }
  if (cap) err[n] = '\0';
  close(fd[0]);
  int ws = 0;
  int ended = zc_child_wait(pid, stoppable, timed_out ? 0 : deadline, &ws);
  zc_child_del(pid);
  if (ended == 2) return zc_fail(ZC_E_INTERRUPTED, "%s: interrupted", argv[0]);
  if (ended) return ZC_OK; /* the time ran out: *status stays -1 */
  if (WIFEXITED(ws)) *status = WEXITSTATUS(ws);
  return ZC_OK;
}

/* The variables taken out of the environment, with their values. */
static struct {
  const char *name;
  char *value;
} zc__taken[8];

const char *zc_env_take(const char *name) {
  size_t i = 0;
  for (; i < ZC_ARRAY_LEN(zc__taken) && zc__taken[i].name; i++)
    if (!strcmp(zc__taken[i].name, name)) return zc__taken[i].value;
  const char *v = getenv(name);
  char *copy = v ? zc_xstrdup(v) : NULL;
  unsetenv(name);
  if (i < ZC_ARRAY_LEN(zc__taken)) {
    zc__taken[i].name = name;
    zc__taken[i].value = copy;
  }
  return copy;
}

double zc_cpu_ms(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3 +
         (double)ru.ru_stime.tv_sec * 1e3 + (double)ru.ru_stime.tv_usec / 1e3;
}

double zc_peak_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

double zc_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void zc_sleep_ms(double ms) {
  struct timespec ts = {
      (time_t)(ms / 1000),
      (long)((ms - (double)(time_t)(ms / 1000) * 1000) * 1e6)};
  nanosleep(&ts, NULL);
}

int zc_b64_digit(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

long zc_b64_decode(char *s, size_t n) {
  size_t o = 0;
  unsigned acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '=' || c == '\n' || c == '\r') continue;
    int v = zc_b64_digit(c);
    if (v < 0) return -1;
    acc = acc << 6 | (unsigned)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      s[o++] = (char)(acc >> bits & 0xFF);
    }
  }
  return (long)o;
}

uint64_t zc_hash(const void *p, size_t n, uint64_t seed) {
  const unsigned char *s = p;
  uint64_t h = 0xcbf29ce484222325ULL ^ seed;
  size_t i = 0;
  /* Eight bytes a step: names and URLs are long, FNV byte-wise is slow. */
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  for (; i < n; i++)
    h = (h ^ s[i]) * 0x100000001b3ULL;
  return zc_mix64(h ^ n);
}

enum zc_err zc_read_file(const char *path, size_t max, char **out,
                         size_t *len) {
  *out = NULL;
  *len = 0;
  /* O_NONBLOCK: a FIFO named as a file opens at once (fopen would wait
   * for a writer, for ever) and fstat refuses it. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    int err = errno;
    if (fd >= 0) close(fd);
    return zc_fail(ZC_E_IO, "%s: %s", path, strerror(err));
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    return zc_fail(ZC_E_IO, "%s: not a regular file", path);
  }
  if ((uintmax_t)st.st_size > max) {
    fclose(f);
    return zc_fail(ZC_E_TOOBIG, "%s: %.1f MB, more than %.0f MB", path,
                   (double)st.st_size / 1048576.0, (double)max / 1048576.0);
  }
  size_t n = (size_t)st.st_size;
  char *buf = zc_xmalloc(n + 1);
  size_t got = fread(buf, 1, n, f);
  int bad = ferror(f);
  fclose(f);
  if (bad || got != n) {
    free(buf);
    return zc_fail(ZC_E_IO, "%s: cannot read", path);
  }
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return ZC_OK;
}

/* zc_write_atomic's stream: what the writer writes goes through zc_scrub's
 * masks on its way to the file. The last (longest secret - 1) bytes wait
 * for the next write, so that a secret cut across two writes is found. */
struct scrub_out {
  FILE *f;
  char *b;
  size_t n, cap, keep;
};

static ssize_t scrub_write(void *c, const char *p, size_t n) {
  struct scrub_out *s = c;
  if (s->n + n > s->cap) {
    s->cap = (s->n + n) * 2;
    s->b = zc_xrealloc(s->b, s->cap);
  }
  memcpy(s->b + s->n, p, n);
  s->n += n;
  zc_scrub_mem(s->b, s->n);
  size_t out = s->n > s->keep ? s->n - s->keep : 0;
  if (out && fwrite(s->b, 1, out, s->f) != out) return -1;
  memmove(s->b, s->b + out, s->n - out);
  s->n -= out;
  return (ssize_t)n;
}

static int scrub_close(void *c) {
  struct scrub_out *s = c;
  int bad = s->n && fwrite(s->b, 1, s->n, s->f) != s->n;
  free(s->b);
  return bad ? EOF : 0;
}

/* fn's writes into f, masked when secrets are registered. */
static enum zc_err write_masked(FILE *f, enum zc_err (*fn)(void *, FILE *),
                                void *arg) {
  if (!zc__nsecret) return fn(arg, f);
  struct scrub_out s = {.f = f, .keep = zc_secret_maxlen() - 1};
  cookie_io_functions_t io = {.write = scrub_write, .close = scrub_close};
  FILE *m = fopencookie(&s, "w", io);
  if (!m) return zc_fail(ZC_E_NOMEM, "out of memory for a masked stream");
  enum zc_err e = fn(arg, m);
  int bad = ferror(m);
  if (fclose(m) != 0) bad = 1;
  return e ? e : bad ? ZC_E_IO : ZC_OK;
}

enum zc_err zc_write_atomic(const char *path,
                            enum zc_err (*fn)(void *arg, FILE *f), void *arg) {
  size_t n = strlen(path) + 8;
  char *tmp = zc_xmalloc(n);
  snprintf(tmp, n, "%s.part", path);
  enum zc_err e = ZC_OK;
  FILE *f = fopen(tmp, "w");
  if (!f) {
    e = zc_fail(ZC_E_IO, "%s: cannot create: %s", tmp, strerror(errno));
  } else {
    e = write_masked(f, fn, arg);
    if ((!e || e == ZC_E_IO) && ferror(f))
      e = zc_fail(ZC_E_IO, "%s: write failed: %s", tmp, strerror(errno));
    if (fclose(f) != 0 && !e)
      e = zc_fail(ZC_E_IO, "%s: write failed: %s", tmp, strerror(errno));
    if (!e && rename(tmp, path) != 0)
      e = zc_fail(ZC_E_IO, "%s: cannot rename into place: %s", path,
                  strerror(errno));
    if (e) remove(tmp);
  }
  free(tmp);
  return e;
}
