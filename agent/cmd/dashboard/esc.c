/* The dashboard's strings (dashboard.h): cleaning what came from pages,
 * escaping it for HTML, SVG and JSON data blocks, relative links, page
 * names, numbers and times. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "dashboard-int.h"

/* Whether cp is shown as an escape: it controls, or reorders text. */
static int hidden_cp(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x061c ||
         cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

char *agent_dash_clean(const char *s, size_t max) {
  struct zc_buf b;
  /* a ceiling past any max the pages give: a longer text stops there */
  zc_buf_init(&b, (size_t)1 << 24);
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  size_t left = strlen((const char *)p);
  enum zc_err e = ZC_OK;
  for (size_t chars = 0; left && !e; chars++) {
    if (chars == max) {
      e = zc_buf_add(&b, "…", strlen("…"));
      break;
    }
    uint32_t cp = 0;
    size_t n = zc_utf8_char(p, left, &cp);
    if (!n)
      e = zc_buf_add(&b, "\xef\xbf\xbd", 3), n = 1;
    else if (cp == '\t' || cp == '\n' || cp == '\r')
      e = zc_buf_addc(&b, ' ');
    else if (hidden_cp(cp))
      e = zc_buf_printf(&b, "\\u%04X", (unsigned)cp);
    else
      e = zc_buf_add(&b, p, n);
    p += n;
    left -= n;
  }
  return b.ptr ? zc_buf_take(&b) : zc_xstrdup("");
}

void agent_dash_html(FILE *f, const char *s) {
  const char *run = s;
  for (const char *p = s; *p; p++) {
    const char *r = NULL;
    switch (*p) {
    case '&': r = "&amp;"; break;
    case '<': r = "&lt;"; break;
    case '>': r = "&gt;"; break;
    case '"': r = "&quot;"; break;
    case '\'': r = "&#39;"; break;
    default: continue;
    }
    fwrite(run, 1, (size_t)(p - run), f);
    fputs(r, f);
    run = p + 1;
  }
  fputs(run, f);
}

void agent_dash_text(FILE *f, const char *s, size_t max) {
  char *c = agent_dash_clean(s, max);
  agent_dash_html(f, c);
  free(c);
}

void agent_dash_json_text(FILE *f, const char *s) {
  const char *run = s;
  for (const char *p = s; *p; p++) {
    if (*p != '<' && *p != '>' && *p != '&') continue;
    fwrite(run, 1, (size_t)(p - run), f);
    fprintf(f, "\\u%04x", (unsigned)*p);
    run = p + 1;
  }
  fputs(run, f);
}

void agent_dash_json(FILE *f, const cJSON *v) {
  char *s = cJSON_PrintUnformatted(v);
  agent_dash_json_text(f, s ? s : "null");
  free(s);
}

/* ---- links ---- */

/* The segments of absolute path p, "." dropped and ".." resolved, into
 * seg (pointing into the copy *buf); returns how many, or -1. */
static int segments(const char *p, char **buf, const char ***seg) {
  if (!p || p[0] != '/') return -1;
  *buf = zc_xstrdup(p);
  *seg = zc_xcalloc(strlen(p) / 2 + 2, sizeof **seg);
  int n = 0;
  for (char *save = NULL, *s = strtok_r(*buf, "/", &save); s;
       s = strtok_r(NULL, "/", &save)) {
    if (!strcmp(s, ".")) continue;
    if (!strcmp(s, "..")) {
      n -= n > 0;
      continue;
    }
    (*seg)[n++] = s;
  }
  return n;
}

/* A path segment percent-encoded: all but RFC 3986's unreserved. */
static enum zc_err put_seg(struct zc_buf *b, const char *s) {
  enum zc_err e = ZC_OK;
  for (const unsigned char *p = (const unsigned char *)s; *p && !e; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9') || strchr("-._~", *p))
      e = zc_buf_addc(b, (char)*p);
    else
      e = zc_buf_printf(b, "%%%02X", *p);
  }
  return e;
}

char *agent_dash_relpath(const char *from, const char *to) {
  char *fb = NULL, *tb = NULL;
  const char **fs = NULL, **ts = NULL;
  int nf = segments(from, &fb, &fs), nt = segments(to, &tb, &ts);
  char *out = NULL;
  if (nf >= 0 && nt >= 0) {
    int common = 0;
    while (common < nf && common < nt && !strcmp(fs[common], ts[common]))
      common++;
    struct zc_buf b;
    zc_buf_init(&b, 1 << 20);
    enum zc_err e = ZC_OK;
    for (int i = common; !e && i < nf; i++)
      e = zc_buf_add(&b, "../", 3);
    for (int i = common; !e && i < nt; i++) {
      if (i > common) e = zc_buf_addc(&b, '/');
      if (!e) e = put_seg(&b, ts[i]);
    }
    /* a path past 1 MB is no link */
    out = e ? NULL : b.len ? zc_buf_take(&b) : zc_xstrdup(".");
    zc_buf_free(&b);
  }
  free(fb);
  free(tb);
  free(fs);
  free(ts);
  return out;
}

int agent_dash_http_ok(const char *url) {
  if (!url || (strncmp(url, "https://", 8) && strncmp(url, "http://", 7)))
    return 0;
  for (const unsigned char *p = (const unsigned char *)url; *p; p++)
    if (*p <= 0x20 || *p >= 0x7f || strchr("\"'<>\\`{}|^", *p)) return 0;
  return 1;
}

void agent_dash_page_name(const char *name, char out[64]) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    h ^= *p;
    h *= 0x100000001b3ULL;
  }
  size_t n = 0;
  int dash = 0;
  for (const unsigned char *p = (const unsigned char *)name; *p && n < 40;
       p++) {
    int c = *p;
    if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      if (dash && n) out[n++] = '-';
      dash = 0;
      if (n < 40) out[n++] = (char)c;
    } else {
      dash = 1;
    }
  }
  if (!n) n = (size_t)snprintf(out, 64, "scenario");
  snprintf(out + n, 64 - n, "-%08x.html", (unsigned)(h ^ (h >> 32)));
}

/* ---- numbers and times ---- */

size_t agent_dash_num(char *out, double v, int d) {
  static const double p10[] = {1, 10, 100, 1000};
  if (d < 0) d = 0;
  if (d > 3) d = 3;
  if (!isfinite(v)) return (size_t)snprintf(out, 32, "null");
  double s = v * p10[d];
  /* printf's way, with its cost, only where integers cannot hold it */
  if (fabs(s) >= 9e15) return (size_t)snprintf(out, 32, "%.*f", d, v);
  long long n = llround(s);
  char *o = out, digits[24];
  if (n < 0) {
    *o++ = '-';
    n = -n;
  }
  int k = 0;
  do {
    digits[k++] = (char)('0' + n % 10);
    n /= 10;
  } while (n || k <= d);
  for (int i = k - 1; i >= 0; i--) {
    *o++ = digits[i];
    if (i == d && d) *o++ = '.';
  }
  *o = '\0';
  return (size_t)(o - out);
}

size_t agent_dash_jnum(char *out, double v) {
  size_t n = agent_dash_num(out, v, 3);
  if (!memchr(out, '.', n)) return n;
  while (out[n - 1] == '0')
    n--;
  if (out[n - 1] == '.') n--;
  out[n] = '\0';
  /* "-0" is 0 */
  if (!strcmp(out, "-0")) n = (size_t)snprintf(out, 32, "0");
  return n;
}

void agent_dash_fmt(char *out, size_t cap, double v, const char *unit,
                    int sign) {
  if (!isfinite(v)) {
    snprintf(out, cap, "–");
    return;
  }
  const char *u = unit ? unit : "";
  double a = fabs(v);
  int prec;
  if (!*u) /* a score: CLS */
    prec = 3;
  else if (!strcmp(u, "KB"))
    prec = 0;
  else
    prec = a >= 100 ? 0 : a >= 10 || !strcmp(u, "count") ? 1 : 2;
  /* counts are said without their unit */
  const char *shown = !strcmp(u, "count") ? "" : u;
  snprintf(out, cap, sign ? "%+.*f%s%s" : "%.*f%s%s", prec, v,
           *shown ? " " : "", shown);
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned mp = m > 2 ? m - 3 : m + 9; /* March first */
  unsigned doy = (153 * mp + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (long)doe - 719468;
}

/* The n digits of s as a number; -1 when one is not a digit. */
static int digits(const char *s, int n) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

double agent_dash_time(const char *s) {
  /* YYYY-MM-DDTHH:MM:SSZ, read by hand: a page reads thousands */
  if (!s || strlen(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
      s[13] != ':' || s[16] != ':' || s[19] != 'Z')
    return 0;
  int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2),
      h = digits(s + 11, 2), mi = digits(s + 14, 2), se = digits(s + 17, 2);
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 ||
      mi < 0 || mi > 59 || se < 0 || se > 60)
    return 0;
  return (double)days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400.0 +
         h * 3600.0 + mi * 60.0 + se;
}
