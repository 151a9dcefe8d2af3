/* zc: the small core shared by every zamcap module: one error enum with a
 * per-thread message, allocators that never return NULL, a bump arena, a
 * growable byte buffer with a ceiling, and stderr logging.
 *
 * Ownership: arguments are borrowed; a function whose name ends in _take
 * hands its result's memory to the caller, who frees it with free(). */
#ifndef ZC_H
#define ZC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* On every function whose failure a caller must handle: ignoring the
 * result is a compile error under -Werror. */
#define ZC_MUST __attribute__((warn_unused_result))

enum zc_err {
  ZC_OK = 0,
  ZC_E_IO,          /* a file could not be read or written */
  ZC_E_PARSE,       /* input is not what it claims to be */
  ZC_E_TOOBIG,      /* a buffer reached its ceiling */
  ZC_E_TIMEOUT,     /* a budget of time ran out */
  ZC_E_USAGE,       /* the caller asked for something impossible */
  ZC_E_NOMEM,       /* memory could not be had */
  ZC_E_INTERNAL,    /* a bug in zamcap */
  ZC_E_CDP,         /* Chrome answered a command with an error */
  ZC_E_BROWSER,     /* the browser or the connection to it failed */
  ZC_E_INTERRUPTED, /* SIGINT or SIGTERM */
};

/* zamcap's exit codes; interrupted is 128 + the signal. What each means,
 * and for which command, is said once, in agent/cli/exits.c (docs/
 * exit-codes.md is made from it). */
enum zc_exit {
  ZC_EXIT_NONE = 0,         /* no regression-cause */
  ZC_EXIT_FOUND = 1,        /* regression-causes found */
  ZC_EXIT_USAGE = 2,        /* usage or input error */
  ZC_EXIT_CAPTURE = 3,      /* capture failed */
  ZC_EXIT_INTERNAL = 4,     /* a bug */
  ZC_EXIT_INCONCLUSIVE = 5, /* the pairs could not decide */
};

/* Where an error stopped a command: the same error is the user's input
 * at one stage and a failed capture at another (a file that cannot be
 * read is a bad argument to compare, a failed capture when zamcap wrote
 * it itself). */
enum zc_stage {
  ZC_STAGE_INPUT,   /* options, scenario, given traces, the output folder */
  ZC_STAGE_CAPTURE, /* Chrome, the traced runs, their analysis, upload */
};

/* The exit code for an error: the one table every command uses
 * (docs/exit-codes.md shows it). ZC_OK is 0; usage 2; out of memory and
 * internal 4 (the allocators exit 4 too); the browser, DevTools and timeouts 3;
 * interrupted 128 + zc_interrupted (SIGINT's 130 when it is 0); input
 * and output, parse errors and buffers at their ceiling 2 at
 * ZC_STAGE_INPUT and 3 at ZC_STAGE_CAPTURE. */
int zc_exit_for(enum zc_err e, enum zc_stage s);

/* The signal that asked zamcap to stop (SIGINT, SIGTERM, ...), 0 while
 * none did: set by the command's signal handler; every wait that sees it
 * returns ZC_E_INTERRUPTED. */
extern volatile int zc_interrupted;

/* Short fixed text for a code ("parse error"). */
const char *zc_strerror(enum zc_err e);

/* The git commit zamcap was built from (12 hex digits, "-dirty" after
 * them when tracked files had changed), or "unknown" when it was built
 * outside a git checkout: written at each build by core/commit.cmake.
 * ZAMCAP_VERSION is the release version. */
extern const char zc_commit[];

/* Records a human message for the calling thread and returns e, so that a
 * failing function can `return zc_fail(ZC_E_IO, "%s: %s", path, ...)`.
 * The arguments may include zc_errmsg() itself (a layer that adds what it
 * knows to the message below it). */
enum zc_err zc_fail(enum zc_err e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The calling thread's last message, or zc_strerror of the last code. */
const char *zc_errmsg(void);

/* Cleanup that may fail on its own keeps the message being reported. */
struct zc_errsave {
  enum zc_err code;
  char msg[1024];
};
void zc_err_save(struct zc_errsave *s);
void zc_err_restore(const struct zc_errsave *s);

/* Allocators that print and exit(4) when memory runs out; they never
 * return NULL. Sizes are checked for overflow. */
void *zc_xmalloc(size_t n);
void *zc_xcalloc(size_t n, size_t size);
void *zc_xrealloc(void *p, size_t n);
void *zc_xreallocarray(void *p, size_t n, size_t size);
char *zc_xstrdup(const char *s);
char *zc_xstrndup(const char *s, size_t n);

/* Grows *p (of *cap elements of size) so that it holds at least need. */
void zc_grow(void **p, size_t *cap, size_t need, size_t size);
#define ZC_GROW(p, cap, need)                                                  \
  zc_grow((void **)&(p), &(cap), (need), sizeof(*(p)))

/* A bump allocator: many small objects freed at once. */
struct zc_arena;
struct zc_arena *zc_arena_new(void);
void zc_arena_free(struct zc_arena *a);             /* NULL is a no-op */
void *zc_arena_alloc(struct zc_arena *a, size_t n); /* 8-aligned, zeroed */
char *zc_arena_strndup(struct zc_arena *a, const char *s, size_t n);
size_t zc_arena_bytes(const struct zc_arena *a); /* reserved so far */

/* A growable byte buffer that refuses to pass max bytes. The contents are
 * always NUL-terminated (the NUL is not counted in len). */
struct zc_buf {
  char *ptr;  /* read-only: contents */
  size_t len; /* read-only */
  size_t cap; /* private */
  size_t max; /* public: ceiling set by zc_buf_init */
};
void zc_buf_init(struct zc_buf *b, size_t max);
ZC_MUST enum zc_err zc_buf_add(struct zc_buf *b, const void *p, size_t n);
ZC_MUST enum zc_err zc_buf_addc(struct zc_buf *b, char c);
ZC_MUST enum zc_err zc_buf_printf(struct zc_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
ZC_MUST enum zc_err zc_buf_vprintf(struct zc_buf *b, const char *fmt,
                                   va_list ap)
    __attribute__((format(printf, 2, 0)));
void zc_buf_reset(struct zc_buf *b); /* keeps the memory */
char *zc_buf_take(struct zc_buf *b); /* caller frees; b is reset empty */
void zc_buf_free(struct zc_buf *b);

/* Logging on stderr. Level 0 is quiet, 1 normal (progress), 2 verbose.
 * zc_error prints at every level. Both print "zamcap: ", the message with
 * zc_term_text's escapes, and a newline: text from a page cannot move the
 * cursor, retitle the terminal or forge a line of the log. */
extern int zc_verbosity;
void zc_log(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void zc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Secrets: text that never appears in what zamcap prints or writes (the
 * capture masks them in Chrome's traces too). zc_secret_add registers one
 * (up to 256; shorter than 3 bytes is ignored, as it would mask too much).
 * zc_url_secrets registers a URL's user:password and the values of its
 * query and fragment parameters whose names look secret (token, key,
 * secret, pass, pwd, auth, sig, session, code, credential, jwt), each
 * as given, percent-decoded and percent-encoded (WHATWG's userinfo and
 * query sets, and encodeURIComponent's), the forms a browser writes back,
 * and returns 1 if the URL has a user:password. zc_scrub overwrites each
 * occurrence in s with '*'s and returns how many it found. */
void zc_secret_add(const char *s, size_t n);
/* s as given, percent-decoded and percent-encoded (the forms above), and
 * as JSON and HTML escape it (report.json, report.html). */
void zc_secret_add_forms(const char *s, size_t n);
int zc_url_secrets(const char *url);
size_t zc_scrub(char *s);
size_t zc_scrub_mem(char *s, size_t n); /* n bytes, NULs and all */
size_t zc_secret_maxlen(void);          /* 0: none registered */
void zc_secrets_clear(void);

/* The length of the UTF-8 character at s (at most n bytes; n > 0), 0 when
 * it is not one (a stray byte, a cut or overlong sequence, a surrogate,
 * past U+10FFFF); *cp gets its code point. */
size_t zc_utf8_char(const unsigned char *s, size_t n, uint32_t *cp);

/* Writes s to f as a terminal shows it harmlessly: control characters
 * (C0, DEL, C1), the bidirectional overrides, the line and paragraph
 * separators and bytes that are not UTF-8 become visible escapes (\\n, \\t,
 * \\e, \\xNN, \\u202E); the rest of UTF-8 stays. At most n bytes of s are
 * read (SIZE_MAX: to its NUL). */
void zc_term_put(FILE *f, const char *s, size_t n);

/* mkdir -p, then checks that path is a folder zamcap can write in; the
 * message names the part that failed. */
ZC_MUST enum zc_err zc_mkdirs(const char *path);

/* A whole regular file into memory (*out NUL-terminated, caller frees),
 * up to max bytes: ZC_E_TOOBIG past it, ZC_E_IO when it cannot be read. */
ZC_MUST enum zc_err zc_read_file(const char *path, size_t max, char **out,
                                 size_t *len);

/* Writes path through fn atomically: fn writes to path + ".part", which is
 * renamed into place only when fn, the writes and the close all succeeded;
 * else it is removed and the error names it. What fn writes goes through
 * zc_scrub's masks on its way (a secret cut across two writes too): every
 * document zamcap writes goes through here, so none shows a secret that
 * was registered before it was written. */
ZC_MUST enum zc_err zc_write_atomic(const char *path,
                                    enum zc_err (*fn)(void *arg, FILE *f),
                                    void *arg);

/* Runs argv[0] (found on PATH) with argv, no shell, stdin and stdout on
 * /dev/null, in a process group of its own, and waits at most limit_ms
 * for it. *status is its exit code, 127 when the program is not
 * installed, or -1 when a signal ended it or the time ran out (its group
 * is then ended). The first line of what it wrote to stderr goes to err
 * (cap bytes, NUL-terminated, may be empty). Fails when the child could
 * not be set up, and with ZC_E_INTERRUPTED (its group ended) when
 * zc_interrupted turns non-zero while it runs. */
ZC_MUST enum zc_err zc_spawn_wait(char *const argv[], double limit_ms,
                                  int *status, char *err, size_t cap);

/* Children in process groups of their own (zc_spawn_wait's, a --build's,
 * git's): every wait for one honours the stop flag, and a second signal
 * ends them before zamcap exits. zc_child_add and zc_child_del keep the
 * groups being waited for (16 at most); zc_children_kill sends each
 * SIGKILL and is async-signal-safe (main.c's handler calls it). */
void zc_child_add(int pgid);
void zc_child_del(int pgid);
void zc_children_kill(void);
/* Waits for child pid, leader of its group, until it ends; when the time
 * passes deadline_ms (zc_now_ms's clock), or zc_interrupted turns
 * non-zero and stoppable is set, its group gets SIGTERM, then SIGKILL 2 s
 * later. *ws is waitpid's status. Returns 0 it ended by itself, 1 the
 * time ran out, 2 it was stopped. */
int zc_child_wait(int pid, int stoppable, double deadline_ms, int *ws);

/* A secret the environment gives (ZAMCAP_TRACKER_TOKEN, PGPASSWORD):
 * the first call copies its value and unsets it, so that no child
 * (Chrome, dot, a --build command) inherits it; every call returns the
 * copy (NULL: it was not set). name must be a string literal; up to 8
 * names. */
const char *zc_env_take(const char *name);

/* This process's CPU time (user and system) and its peak resident memory. */
double zc_cpu_ms(void);
double zc_peak_mb(void);

/* Monotonic clock in milliseconds. */
double zc_now_ms(void);
void zc_sleep_ms(double ms);

/* Decodes base64 in place (padding and newlines skipped); returns the
 * decoded length, or -1 if s is not base64. */
ZC_MUST long zc_b64_decode(char *s, size_t n);
/* One base64 digit's value (A-Z a-z 0-9 + /), -1 for any other byte. */
int zc_b64_digit(unsigned char c);

/* 64-bit hash of bytes (FNV-1a folded with a final mix). */
uint64_t zc_hash(const void *p, size_t n, uint64_t seed);
static inline uint64_t zc_mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/* An open-addressing hash index over items the caller keeps in its own
 * array: the table maps a 64-bit hash (the caller's, well mixed) to item
 * indices; the caller decides equality. Linear probing; it doubles when
 * half full; each slot keeps 32 bits of the hash, so most mismatches are
 * rejected without touching the items, and growing needs no callback.
 *
 *   size_t pos = ZC_HTAB_START;
 *   uint32_t i;
 *   while (zc_htab_next(&t, hash, &pos, &i))
 *     if (same(items[i], key)) return i;
 *   zc_htab_add(&t, hash, pos, n_items++);  (pos: where the probe ended)
 *
 * Items cannot be removed one by one; zc_htab_clear empties the table. */
struct zc_htab {
  uint64_t *slot; /* private: (hash bits << 32) | (index + 1); 0 = empty */
  size_t cap;     /* private: a power of two */
  size_t n;       /* read-only: indices held */
};
#define ZC_HTAB_START SIZE_MAX
/* An empty table sized for about n items without growing. */
void zc_htab_init(struct zc_htab *t, size_t n);
void zc_htab_free(struct zc_htab *t); /* a zeroed table is a no-op */
/* Empties the table, sized for about n items: the cost is O(n), not that
 * of the largest size it ever had (tables reused per tree node). */
void zc_htab_clear(struct zc_htab *t, size_t n);
/* Adds index i for hash at pos, the empty slot a zc_htab_next probe for
 * the same hash ended on (no other zc_htab_add in between). */
void zc_htab_add(struct zc_htab *t, uint64_t hash, size_t pos, uint32_t i);
static inline uint32_t zc_htab_bits(uint64_t hash) {
  return (uint32_t)(hash ^ hash >> 32);
}
/* The next index whose slot holds the same hash bits, in probe order,
 * starting from *pos = ZC_HTAB_START; returns 0 at the first empty slot,
 * leaving *pos there. */
static inline int zc_htab_next(const struct zc_htab *t, uint64_t hash,
                               size_t *pos, uint32_t *i) {
  uint32_t h = zc_htab_bits(hash);
  size_t mask = t->cap - 1;
  size_t p = *pos == ZC_HTAB_START ? h & mask : (*pos + 1) & mask;
  for (uint64_t s; (s = t->slot[p]) != 0; p = (p + 1) & mask)
    if ((uint32_t)(s >> 32) == h) {
      *pos = p;
      *i = (uint32_t)s - 1;
      return 1;
    }
  *pos = p;
  return 0;
}

#define ZC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
