/* The JSON pull reader. See jread.h. It accepts exactly JSON (RFC 8259)
 * for what it reads; what it skips is checked for balance only. */
#include <stdlib.h>
#include <string.h>

#include "jread.h"

void jr_init(struct jr *r, const char *p, size_t n) {
  r->p = p;
  r->e = p + n;
  r->err = NULL;
  r->first = 0;
  r->toobig = 0;
  zc_buf_init(&r->tmp, ana__jr_strmax);
  zc_buf_init(&r->fix, ana__jr_strmax);
}

size_t ana__jr_strmax = (size_t)64 << 20;

void jr_done(struct jr *r) {
  zc_buf_free(&r->tmp);
  zc_buf_free(&r->fix);
}

static int jr_fail(struct jr *r) {
  if (!r->err) r->err = r->p;
  return 0;
}

int jr_peek(struct jr *r) {
  while (r->p < r->e &&
         (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
    r->p++;
  return r->p < r->e ? (unsigned char)*r->p : -1;
}

static int jr_open(struct jr *r, char c) {
  if (r->err || jr_peek(r) != c) return jr_fail(r);
  r->p++;
  r->first = 1;
  return 1;
}

int jr_obj(struct jr *r) {
  return jr_open(r, '{');
}
int jr_arr(struct jr *r) {
  return jr_open(r, '[');
}

int jr_more(struct jr *r, const char **key, size_t *klen) {
  if (r->err) return 0;
  int c = jr_peek(r);
  if (c == '}' || c == ']') {
    /* Which closer fits is known from key: objects ask for keys. */
    if ((c == '}') != (key != NULL)) return jr_fail(r);
    r->p++;
    r->first = 0;
    return 0;
  }
  if (!r->first) {
    if (c != ',') return jr_fail(r);
    r->p++;
  }
  r->first = 0;
  if (!key) return 1;
  if (!jr_str(r, key, klen)) return 0;
  /* The key may sit in tmp: a nested decode would overwrite it, but keys
   * are compared before the value is read. */
  if (jr_peek(r) != ':') return jr_fail(r);
  r->p++;
  return 1;
}

static int jr_hex4(const char *p, unsigned *v) {
  *v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    *v <<= 4;
    if (c >= '0' && c <= '9')
      *v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      *v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      *v |= (unsigned)(c - 'A' + 10);
    else
      return 0;
  }
  return 1;
}

/* Appends to the decoded string; 0 (r->toobig set) past its ceiling. */
static int jr_put(struct jr *r, const void *p, size_t n) {
  if (!zc_buf_add(&r->tmp, p, n)) return 1;
  r->toobig = 1;
  return 0;
}

static int jr_utf8(struct jr *r, unsigned cp) {
  char u[4];
  size_t n;
  if (cp < 0x80)
    u[0] = (char)cp, n = 1;
  else if (cp < 0x800)
    u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
  else if (cp < 0x10000)
    u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
    u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
  else
    u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)),
    n = 4;
  return jr_put(r, u, n);
}

/* A string as UTF-8, as browsers decode bytes that are not: each stray
 * byte, cut or overlong sequence or encoded surrogate becomes U+FFFD, so
 * that no report written from it is invalid JSON. */
static int jr_mend(struct jr *r, const char **s, size_t *n) {
  const unsigned char *p = (const unsigned char *)*s;
  size_t i = 0, len = *n;
  uint32_t cp;
  while (i < len) {
    size_t k = p[i] < 0x80 ? 1 : zc_utf8_char(p + i, len - i, &cp);
    if (!k) break;
    i += k;
  }
  if (i == len) return 1;
  zc_buf_reset(&r->fix);
  if (zc_buf_add(&r->fix, p, i)) return 0;
  while (i < len) {
    size_t k = p[i] < 0x80 ? 1 : zc_utf8_char(p + i, len - i, &cp);
    if (k ? zc_buf_add(&r->fix, p + i, k)
          : zc_buf_add(&r->fix, "\xEF\xBF\xBD", 3))
      return 0;
    i += k ? k : 1;
  }
  *s = r->fix.ptr;
  *n = r->fix.len;
  return 1;
}

int jr_str(struct jr *r, const char **s, size_t *n) {
  if (r->err || jr_peek(r) != '"') return jr_fail(r);
  const char *p = ++r->p, *e = r->e;
  /* Most strings have no escape: hand back a view of the input. */
  const char *q = p;
  unsigned char hi = 0; /* a byte past ASCII: check the UTF-8 */
  while (q < e && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
    hi |= (unsigned char)*q++;
  if (q < e && *q == '"') {
    *s = p;
    *n = (size_t)(q - p);
    r->p = q + 1;
    return hi < 0x80 || jr_mend(r, s, n) || jr_fail(r);
  }
  zc_buf_reset(&r->tmp);
  if (!jr_put(r, p, (size_t)(q - p))) goto bad;
  for (p = q; p < e && *p != '"';) {
    unsigned char c = (unsigned char)*p;
    if (c < 0x20) break;
    if (c != '\\') {
      const char *run = p;
      while (p < e && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
        p++;
      if (!jr_put(r, run, (size_t)(p - run))) goto bad;
      continue;
    }
    if (e - p < 2) break;
    const char *esc = p;
    char x = p[1], one = 0;
    p += 2;
    switch (x) {
    case '"': one = '"'; break;
    case '\\': one = '\\'; break;
    case '/': one = '/'; break;
    case 'b': one = '\b'; break;
    case 'f': one = '\f'; break;
    case 'n': one = '\n'; break;
    case 'r': one = '\r'; break;
    case 't': one = '\t'; break;
    case 'u': {
      unsigned cp, lo;
      if (e - p < 4 || !jr_hex4(p, &cp)) {
        p = esc;
        goto bad;
      }
      p += 4;
      if (cp >= 0xD800 && cp < 0xDC00 && e - p >= 6 && p[0] == '\\' &&
          p[1] == 'u' && jr_hex4(p + 2, &lo) && lo >= 0xDC00 && lo < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        p += 6;
      } else if (cp >= 0xD800 && cp < 0xE000) {
        cp = 0xFFFD; /* a lone surrogate: replaced, as browsers do */
      }
      if (!jr_utf8(r, cp)) goto bad;
      continue;
    }
    default: p = esc; goto bad;
    }
    if (!jr_put(r, &one, 1)) goto bad;
  }
  if (p >= e || *p != '"') goto bad;
  r->p = p + 1;
  *s = r->tmp.ptr ? r->tmp.ptr : "";
  *n = r->tmp.len;
  return jr_mend(r, s, n) || jr_fail(r);
bad:
  r->p = p;
  return jr_fail(r);
}

int jr_num(struct jr *r, double *v) {
  if (r->err) return 0;
  jr_peek(r);
  const char *p = r->p, *e = r->e;
  int neg = p < e && *p == '-';
  if (neg) p++;
  if (p >= e || *p < '0' || *p > '9') return jr_fail(r);
  /* Integers of up to 15 digits, the common case, exactly and fast. */
  const char *d = p;
  int64_t x = 0;
  while (p < e && *p >= '0' && *p <= '9' && p - d < 15)
    x = x * 10 + (*p++ - '0');
  if (p >= e ||
      (*p != '.' && *p != 'e' && *p != 'E' && (*p < '0' || *p > '9'))) {
    *v = neg ? -(double)x : (double)x;
    r->p = p;
    return 1;
  }
  /* Anything else goes to strtod on a bounded copy. */
  const char *q = r->p;
  char buf[64];
  size_t n = 0;
  while (q < e && n < sizeof buf - 1 &&
         ((*q >= '0' && *q <= '9') || *q == '-' || *q == '+' || *q == '.' ||
          *q == 'e' || *q == 'E'))
    buf[n++] = *q++;
  buf[n] = '\0';
  char *end;
  *v = strtod(buf, &end);
  if (end != buf + n || n == 0) return jr_fail(r);
  r->p = q;
  return 1;
}

int jr_skip(struct jr *r) {
  int c = jr_peek(r);
  if (r->err || c < 0) return jr_fail(r);
  if (c == '"') {
    const char *s;
    size_t n;
    return jr_str(r, &s, &n);
  }
  if (c == '{' || c == '[') {
    /* Balance only, strings honoured: what is skipped is not read. */
    int depth = 0;
    for (const char *p = r->p; p < r->e; p++) {
      char x = *p;
      if (x == '"') {
        for (p++; p < r->e && *p != '"'; p++)
          if (*p == '\\') p++;
        if (p >= r->e) break;
      } else if (x == '{' || x == '[') {
        depth++;
      } else if (x == '}' || x == ']') {
        if (--depth == 0) {
          r->p = p + 1;
          r->first = 0;
          return 1;
        }
      }
    }
    r->p = r->e;
    return jr_fail(r);
  }
  if (c == 't' || c == 'f' || c == 'n') {
    const char *lits[] = {"true", "false", "null"};
    const char *lit = lits[c == 't' ? 0 : c == 'f' ? 1 : 2];
    size_t n = strlen(lit);
    if ((size_t)(r->e - r->p) < n || memcmp(r->p, lit, n) != 0)
      return jr_fail(r);
    r->p += n;
    return 1;
  }
  double v;
  return jr_num(r, &v);
}
