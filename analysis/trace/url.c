/* The component of a script URL (DESIGN.md, timeline model): what stays
 * equal when the same file is served from another origin or rebundled with
 * a new content hash. */
#include <string.h>

#include "ana.h"

static int ana__isalnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}

/* A bundler's content hash: 8+ hex digits with a digit in them (webpack's
 * [contenthash]), 8+ letters and digits mixing upper case, lower case
 * and digits (Vite/Rollup base64url), or esbuild's 8 characters of
 * base32 (A-Z, 2-7: "QWVESZII", "7QYK2MZL"). Plain words such as
 * "polyfills" or "es2015polyfills" are not hashes. */
static int ana__is_hash(const char *s, size_t n) {
  if (n < 8 || n > 64) return 0;
  if (n == 8) {
    size_t k = 0;
    while (k < 8 &&
           ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= '2' && s[k] <= '7')))
      k++;
    if (k == 8) return 1;
  }
  int hex = 1, digit = 0, upper = 0, lower = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!ana__isalnum(c) && c != '_') return 0;
    if (c >= '0' && c <= '9')
      digit = 1;
    else if (c >= 'A' && c <= 'Z')
      upper = 1;
    else if (c >= 'a' && c <= 'z')
      lower = 1;
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) hex = 0;
  }
  if (hex && digit) return 1;
  return digit && upper && lower;
}

static size_t ana__put(char *out, size_t cap, size_t o, const char *s,
                       size_t n) {
  for (size_t i = 0; i < n && o + 1 < cap; i++)
    out[o++] = s[i];
  return o;
}

size_t ana_component(const char *url, size_t n, char *out, size_t cap) {
  if (!cap) return 0;
  const char *p = url, *e = url + n;
  /* Drop the origin: "scheme://authority". blob: wraps another URL. */
  if (e - p > 5 && memcmp(p, "blob:", 5) == 0) p += 5;
  const char *colon = memchr(p, ':', (size_t)(e - p));
  if (colon && e - colon > 3 && colon[1] == '/' && colon[2] == '/') {
    const char *slash = memchr(colon + 3, '/', (size_t)(e - colon - 3));
    p = slash ? slash : e;
  }
  /* Drop the query and fragment. */
  for (const char *q = p; q < e; q++)
    if (*q == '?' || *q == '#') {
      e = q;
      break;
    }
  /* Copy segment by segment; inside each, drop hash parts between '.' or
   * '-' separators (a dropped part takes its leading separator along). */
  size_t o = 0;
  while (p < e) {
    const char *seg = p;
    while (p < e && *p != '/')
      p++;
    const char *se = p;
    const char *q = seg;
    while (q < se) {
      const char *part = q;
      while (q < se && *q != '.' && *q != '-')
        q++;
      size_t plen = (size_t)(q - part);
      /* The stem is never dropped: a file named only by its hash keeps it,
       * rather than colliding with every other such file. */
      if (part == seg || !ana__is_hash(part, plen)) {
        if (part > seg) o = ana__put(out, cap, o, part - 1, 1);
        o = ana__put(out, cap, o, part, plen);
      }
      if (q < se) q++; /* skip the separator; re-emitted with next part */
    }
    if (p < e) o = ana__put(out, cap, o, "/", 1), p++;
  }
  out[o] = '\0';
  return o;
}
