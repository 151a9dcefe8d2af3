/* Bytes: a plain or gzip file read in chunks into one buffer, which holds
 * one JSON value at most, never the file (zlib reads both kinds). */
#include <errno.h>
#include <string.h>

#include "trace-int.h"

/* Bytes asked of zlib per read: a variable only so that the fuzzer can
 * make values straddle many refills (timeline.h). */
unsigned ana__ing_read = 1u << 20;
#define ING_READ ana__ing_read
/* The largest single JSON value held in memory (1 GiB); tests lower it. */
unsigned ana__ing_maxval = 1u << 30;
#define ING_MAXVAL ana__ing_maxval

/* Reads more bytes, keeping buf[keep..len). Returns the shift applied to
 * offsets at or after keep (they all move down by it), and sets g->eof when
 * nothing more comes. */
enum zc_err ing_more(struct ing *g, size_t keep, size_t *shift) {
  *shift = 0;
  if (g->eof) return ZC_OK;
  /* Compact before growing: the buffer holds one value at most, never the
   * file. (The same room test as below, or the buffer doubles at the edge
   * case where exactly ING_READ bytes are free.) */
  if (keep > 0 && (g->cap - g->len < ING_READ + 1 || keep >= g->len)) {
    memmove(g->buf, g->buf + keep, g->len - keep);
    g->len -= keep;
    g->pos -= keep < g->pos ? keep : g->pos;
    g->base += keep;
    *shift = keep;
  }
  if (g->cap - g->len < ING_READ + 1) {
    size_t need = g->len + ING_READ;
    if (need > (size_t)ING_MAXVAL + ING_READ)
      return zc_fail(ZC_E_TOOBIG,
                     "%s: a single JSON value starting at byte %llu is over "
                     "%u MiB",
                     g->path, (unsigned long long)g->base, ING_MAXVAL >> 20);
    size_t cap = g->cap ? g->cap : 4 * ING_READ;
    while (cap < need + 1)
      cap *= 2;
    g->buf = zc_xrealloc(g->buf, cap);
    g->cap = cap;
  }
  int n = gzread(g->gz, g->buf + g->len, ING_READ);
  if (n < 0 || (n == 0 && !gzeof(g->gz))) {
    int zerr = 0;
    const char *msg = gzerror(g->gz, &zerr);
    /* Only a failed read(2) is the file system's; zlib's own errors mean
     * the gzip data is broken, as a cut stream is below. */
    if (zerr != Z_ERRNO)
      return zc_fail(ZC_E_PARSE,
                     "%s: gzip data broken after %llu "
                     "uncompressed bytes: %s",
                     g->path, (unsigned long long)(g->base + g->len), msg);
    return zc_fail(ZC_E_IO, "%s: read failed after byte %llu: %s", g->path,
                   (unsigned long long)(g->base + g->len), strerror(errno));
  }
  if (n == 0) {
    /* zlib reports a cut gzip stream only through gzerror. */
    int zerr = 0;
    const char *msg = gzerror(g->gz, &zerr);
    if (zerr != Z_OK && zerr != Z_STREAM_END)
      return zc_fail(ZC_E_PARSE,
                     "%s: gzip data broken after %llu "
                     "uncompressed bytes: %s",
                     g->path, (unsigned long long)(g->base + g->len), msg);
    g->eof = 1;
  }
  g->len += (size_t)n;
  g->buf[g->len] = '\0';
  return ZC_OK;
}

/* Skips whitespace; returns the next byte (not consumed) or -1 at EOF. */
enum zc_err ing_peek(struct ing *g, int *c) {
  for (;;) {
    while (g->pos < g->len && ing_isws((unsigned char)g->buf[g->pos]))
      g->pos++;
    if (g->pos < g->len) {
      *c = (unsigned char)g->buf[g->pos];
      return ZC_OK;
    }
    if (g->eof) {
      *c = -1;
      return ZC_OK;
    }
    size_t shift;
    enum zc_err e = ing_more(g, g->pos, &shift);
    if (e) return e;
  }
}
