/* Source maps (ECMA-426, "Source Map v3"): decoding, lookup, and the rule
 * that names a minified function after the original one. See smap.h.
 *
 * The decoder makes one pass over "mappings" into a flat array of 20-byte
 * segments with an index of line starts; an index map's sections are
 * flattened into the same array. Strings ("sources", "names") live in one
 * buffer each, addressed by offset. "sourcesContent" is kept, within the
 * run's budget of bytes, with an index of its lines: the original text is
 * where a function's own name is read (sm_orig_name, issue 26.11). */
#include <stdlib.h>
#include <string.h>

#include "smap.h"
#include "timeline.h"
#include "trace/jread.h"

struct ana__seg {
  uint32_t gcol;  /* generated column, UTF-16 units */
  uint32_t src;   /* index into sources, ANA_NONE: a segment with no source */
  uint32_t oline; /* original line, 0-based */
  uint32_t ocol;  /* original column, UTF-16 units */
  uint32_t name;  /* index into names, or ANA_NONE */
};

/* One source's original text ("sourcesContent") and its lines. */
struct sm_text {
  char *t;
  size_t n;
  uint32_t *line0; /* line l starts at byte line0[l] */
  size_t nlines;
  int ascii;
};

struct ana_smap {
  struct ana__seg *seg;
  size_t nseg, capseg;
  uint32_t *line0; /* segments of line l: seg[line0[l] .. line0[l+1]) */
  size_t nlines, caplines;
  uint32_t *srcoff, *nameoff; /* offsets into strs */
  uint32_t *srctext;          /* per source: index into text, or ANA_NONE */
  size_t nsrc, capsrc, capsrctext, nnames, capnames;
  struct sm_text *text;
  size_t ntext, captext;
  char *strs;
  size_t nstrs, capstrs;
  uint32_t bad; /* segments whose source or name index was out of range */
  /* What this map may decode to (the run's budget and its own share). */
  uint64_t lim_lines, lim_segs, lim_sections, nsections;
  uint64_t lim_content, ncontent; /* bytes of sourcesContent, with index */
  uint32_t content_dropped;       /* texts over that budget, not kept */
};

enum { SM_MAXDEPTH = 4 };
#define SM_OVER_LINES    "over the source-map budget of lines"
#define SM_OVER_SEGS     "over the source-map budget of segments"
#define SM_OVER_SECTIONS "over the source-map budget of sections"
/* A map's own share of lines beyond what its bytes and its generated
 * script can say: a few empty lines before a section are no bomb. */
#define SM_LINES_SLACK 65536u
/* What the maps of one run may decode to in all: 16 M segments are
 * 320 MB, 32 M lines 128 MB; the largest real bundles measured (issue 14)
 * have under 2 M segments each. Their sources' texts may take 256 MB
 * with their line indexes (and each map no more than its own bytes). */
#define SM_RUN_SEGS     ((uint64_t)1 << 24)
#define SM_RUN_LINES    ((uint64_t)1 << 25)
#define SM_RUN_SECTIONS ((uint64_t)1 << 16)
#define SM_RUN_CONTENT  ((uint64_t)256 << 20)
#define SM_STRMAX       ((size_t)64 << 20) /* sources of one map, one URL */

static uint32_t sm_str(struct ana_smap *m, const char *s, size_t n) {
  ZC_GROW(m->strs, m->capstrs, m->nstrs + n + 1);
  uint32_t off = (uint32_t)m->nstrs;
  memcpy(m->strs + off, s, n);
  m->strs[off + n] = '\0';
  m->nstrs += n + 1;
  return off;
}

/* One base64 VLQ at *p; 0 on a bad digit, a cut value or one beyond 32
 * bits. */
static int sm_vlq(const char **p, const char *e, int64_t *out) {
  uint64_t v = 0;
  unsigned shift = 0;
  for (;;) {
    if (*p >= e) return 0;
    int d = zc_b64_digit((unsigned char)**p);
    if (d < 0) return 0;
    (*p)++;
    if (shift > 32) return 0;
    v |= (uint64_t)(d & 31) << shift;
    shift += 5;
    if (!(d & 32)) break;
  }
  if (v > 0xFFFFFFFFull) return 0;
  int64_t x = (int64_t)(v >> 1);
  *out = v & 1 ? -x : x;
  return 1;
}

static int sm_cmp(const void *a, const void *b) {
  uint32_t x = ((const struct ana__seg *)a)->gcol;
  uint32_t y = ((const struct ana__seg *)b)->gcol;
  return (x > y) - (x < y);
}

/* Segments of a line are sorted by column; a line some tool wrote out of
 * order is sorted once it is whole. */
static void sm_sort(struct ana_smap *m, size_t line) {
  size_t lo = m->line0[line];
  qsort(m->seg + lo, m->nseg - lo, sizeof *m->seg, sm_cmp);
}

/* Appends a map's "mappings" at line offset l0 (column offset c0 on its
 * first line), with source and name indexes shifted by s0 and n0. */
static int sm_decode(struct ana_smap *m, const char *p, size_t n, uint32_t l0,
                     uint32_t c0, uint32_t s0, uint32_t n0, uint32_t nsrc,
                     uint32_t nnames, const char **why) {
  const char *e = p + n;
  int unsorted = 0;
  int64_t col = 0, src = 0, oline = 0, ocol = 0, name = 0;
  uint64_t line = l0;
  /* Lines before l0 that no section covered stay empty: a section's
   * offset of 4 G lines in a 150-byte map is refused here, not
   * allocated. */
  if (line >= m->lim_lines) return *why = SM_OVER_LINES, 0;
  while (m->nlines <= line) {
    ZC_GROW(m->line0, m->caplines, m->nlines + 2);
    m->line0[m->nlines++] = (uint32_t)m->nseg;
  }
  while (p < e) {
    if (*p == ';') {
      p++;
      if (++line > 0xFFFFFFF0u) return *why = "over 4 G lines", 0;
      if (line >= m->lim_lines) return *why = SM_OVER_LINES, 0;
      if (unsorted) sm_sort(m, m->nlines - 1), unsorted = 0;
      ZC_GROW(m->line0, m->caplines, m->nlines + 2);
      m->line0[m->nlines++] = (uint32_t)m->nseg;
      col = 0;
      continue;
    }
    if (*p == ',') {
      p++;
      continue;
    }
    int64_t f[5];
    int k = 0;
    while (k < 5 && p < e && *p != ',' && *p != ';') {
      if (!sm_vlq(&p, e, &f[k])) return *why = "a bad VLQ digit", 0;
      k++;
    }
    if (p < e && *p != ',' && *p != ';')
      return *why = "a segment of more than 5 fields", 0;
    if (k != 1 && k != 4 && k != 5)
      return *why = "a segment of 2 or 3 fields", 0;
    col += f[0];
    int64_t gcol = col + (line == l0 ? c0 : 0);
    if (col < 0 || gcol > 0xFFFFFFF0ll)
      return *why = "a column out of range", 0;
    struct ana__seg s = {.gcol = (uint32_t)gcol,
                         .src = ANA_NONE,
                         .oline = 0,
                         .ocol = 0,
                         .name = ANA_NONE};
    if (k >= 4) {
      src += f[1];
      oline += f[2];
      ocol += f[3];
      if (src < 0 || oline < 0 || oline > 0xFFFFFFF0ll)
        return *why = "a source or line out of range", 0;
      if (src < nsrc) {
        s.src = (uint32_t)src + s0, s.oline = (uint32_t)oline;
        /* a column out of range only loses the name read there */
        s.ocol = ocol >= 0 && ocol <= 0xFFFFFFF0ll ? (uint32_t)ocol : ANA_NONE;
      } else {
        m->bad++;
      }
    }
    if (k == 5) {
      name += f[4];
      if (name >= 0 && name < nnames)
        s.name = (uint32_t)name + n0;
      else
        m->bad++;
    }
    if (m->nseg >= m->lim_segs) return *why = SM_OVER_SEGS, 0;
    ZC_GROW(m->seg, m->capseg, m->nseg + 1);
    if (m->nseg > m->line0[m->nlines - 1] && m->seg[m->nseg - 1].gcol > s.gcol)
      unsorted = 1;
    m->seg[m->nseg++] = s;
  }
  if (unsorted) sm_sort(m, m->nlines - 1);
  return 1;
}

/* Joins a source with sourceRoot and resolves it against the map's URL
 * (RFC 3986 reference resolution for the cases maps use: absolute URLs,
 * absolute paths, relative paths with . and ..). */
static char *sm_resolve(struct zc_buf *o, const char *root, size_t rn,
                        const char *s, size_t sn, const char *base,
                        size_t *outn) {
  char *j = zc_xmalloc(rn + sn + 2);
  size_t jn = 0;
  /* sourceRoot is not put before an absolute URL or path. */
  int has_scheme = 0;
  for (size_t i = 0; i < sn && !has_scheme; i++) {
    char c = s[i];
    if (c == ':' && i > 0)
      has_scheme = 1;
    else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))
      break;
  }
  if (sn && s[0] == '/') has_scheme = 1;
  if (rn && !has_scheme) {
    memcpy(j, root, rn);
    jn = rn;
    if (root[rn - 1] != '/') j[jn++] = '/';
  }
  memcpy(j + jn, s, sn);
  jn += sn;
  j[jn] = '\0';
  int absolute = 0;
  for (size_t i = 0; i < jn; i++) {
    char c = j[i];
    if (c == ':' && i > 0) {
      absolute = 1;
      break;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))
      break;
  }
  zc_buf_reset(o);
  enum zc_err e = ZC_OK;
  size_t keep = 0; /* what .. never climbs above: the origin */
  if (absolute || !base || !*base) {
    e = zc_buf_add(o, j, jn);
  } else {
    const char *sl = strstr(base, "://");
    const char *path = sl ? strchr(sl + 3, '/') : base;
    size_t origin = path ? (size_t)(path - base) : strlen(base);
    if (j[0] == '/') {
      e = zc_buf_add(o, base, origin);
    } else {
      const char *last = strrchr(base, '/');
      size_t dir = last && (size_t)(last - base) >= origin
                       ? (size_t)(last - base) + 1
                       : origin;
      e = zc_buf_add(o, base, dir);
      if (!e && dir == origin && origin) e = zc_buf_addc(o, '/');
    }
    keep = origin;
    if (!e) e = zc_buf_add(o, j, jn);
  }
  free(j);
  /* A relative source with nothing to resolve it against stays as it is
   * written. */
  size_t n = o->len;
  char *d = zc_buf_take(o);
  *outn = e ? 0 : n;
  if (e || !n || (!absolute && (!base || !*base))) return d;
  /* Remove "." and ".." segments after the origin (or after "scheme://x"
   * for absolute URLs). */
  if (absolute) {
    char *sl = strstr(d, "://");
    char *path = sl ? strchr(sl + 3, '/') : NULL;
    keep = path ? (size_t)(path - d) : n;
  }
  size_t w = keep, r = keep;
  while (r < n) {
    /* at a '/' or at the start of a relative path */
    size_t segs = r + (d[r] == '/');
    size_t sege = segs;
    while (sege < n && d[sege] != '/')
      sege++;
    size_t len = sege - segs;
    if (len == 1 && d[segs] == '.') {
      r = sege;
      continue;
    }
    if (len == 2 && d[segs] == '.' && d[segs + 1] == '.' && w > keep) {
      while (w > keep && d[w - 1] != '/')
        w--;
      if (w > keep) w--;
      r = sege;
      continue;
    }
    if (len == 2 && d[segs] == '.' && d[segs + 1] == '.') {
      r = sege; /* above the root: dropped, as browsers do */
      continue;
    }
    if (d[r] == '/' || w > keep) d[w++] = '/';
    memmove(d + w, d + segs, len);
    w += len;
    r = sege;
  }
  d[w] = '\0';
  *outn = w;
  return d;
}

static int sm_parse(struct ana_smap *m, struct jr *r, const char *map_url,
                    uint32_t l0, uint32_t c0, int depth, const char **why);

/* The bytes of the JSON string at the reader, escapes undecoded (its
 * decoded text is no longer, but for bytes that are not UTF-8, which
 * become 3-byte U+FFFDs). */
static size_t sm_rawlen(const struct jr *r) {
  for (const char *p = r->p + 1; p < r->e;) {
    const char *q = memchr(p, '"', (size_t)(r->e - p));
    if (!q) break;
    size_t bs = 0; /* an even run of backslashes before it: the end */
    while (q - bs > r->p + 1 && q[-1 - (ptrdiff_t)bs] == '\\')
      bs++;
    if (!(bs & 1)) return (size_t)(q - r->p);
    p = q + 1;
  }
  return (size_t)(r->e - r->p);
}

/* Keeps one source's text if it fits what is left of the map's budget:
 * its bytes and 4 per line of its index. Returns its index in m->text,
 * or ANA_NONE (dropped: the map stays usable, without that text). own,
 * when not NULL, is t's buffer (t[n] a NUL), taken rather than copied. */
static uint32_t sm_text_add(struct ana_smap *m, const char *t, size_t n,
                            char *own) {
  /* Line breaks are '\n', "\r\n" and a lone '\r'; most texts have no
   * '\r', and memchr finds their lines fast. */
  int cr = memchr(t, '\r', n) != NULL;
  unsigned char hi = 0;
  for (size_t i = 0; i < n; i++)
    hi |= (unsigned char)t[i];
  size_t lines = 1;
  for (size_t i = 0; i < n; i++) {
    if (!cr) {
      const char *nl = memchr(t + i, '\n', n - i);
      if (!nl) break;
      i = (size_t)(nl - t);
      lines++;
    } else if (t[i] == '\n' ||
               (t[i] == '\r' && (i + 1 == n || t[i + 1] != '\n'))) {
      lines++;
    }
  }
  uint64_t need = (uint64_t)n + 4 * ((uint64_t)lines + 1);
  if (n > 0xFFFFFFF0u || m->ncontent + need > m->lim_content) {
    m->content_dropped++;
    free(own);
    return ANA_NONE;
  }
  m->ncontent += need;
  ZC_GROW(m->text, m->captext, m->ntext + 1);
  struct sm_text *x = &m->text[m->ntext];
  if (own) {
    x->t = own;
  } else {
    x->t = zc_xmalloc(n + 1);
    memcpy(x->t, t, n);
    x->t[n] = '\0';
  }
  x->n = n;
  x->ascii = hi < 0x80;
  x->line0 = zc_xmalloc((lines + 1) * sizeof *x->line0);
  x->nlines = 0;
  x->line0[x->nlines++] = 0;
  for (size_t i = 0; i < n && x->nlines < lines; i++) {
    if (!cr) {
      i = (size_t)((const char *)memchr(t + i, '\n', n - i) - t);
      x->line0[x->nlines++] = (uint32_t)(i + 1);
    } else if (t[i] == '\n' ||
               (t[i] == '\r' && (i + 1 == n || t[i + 1] != '\n'))) {
      x->line0[x->nlines++] = (uint32_t)(i + 1);
    }
  }
  x->line0[x->nlines] = (uint32_t)n + 1; /* past the end of the last line */
  return (uint32_t)m->ntext++;
}

/* "sourcesContent": each string kept (sm_text_add) or not, its index in
 * (*idx)[i] for source i; null and anything else is no text. A string
 * longer than the JSON reader decodes, or than the map's budget, is
 * skipped unread. */
static int sm_contents(struct ana_smap *m, struct jr *r, uint32_t **idx,
                       size_t *nidx, size_t *cap) {
  *nidx = 0;
  if (jr_peek(r) != '[') return jr_skip(r); /* no texts, the map stands */
  if (!jr_arr(r)) return 0;
  while (jr_more(r, NULL, NULL)) {
    uint32_t k = ANA_NONE;
    int ok;
    if (jr_peek(r) != '"') {
      ok = jr_skip(r);
    } else {
      size_t raw = sm_rawlen(r);
      const char *t;
      size_t tn;
      if (raw > ana__jr_strmax / 3 || m->ncontent + raw > m->lim_content) {
        m->content_dropped++;
        ok = jr_skip(r);
      } else if ((ok = jr_str(r, &t, &tn))) {
        /* A text with escapes was decoded into the reader's buffer: that
         * buffer becomes the text, so a 9 MB source is not held twice. */
        struct zc_buf *dec = t == r->tmp.ptr   ? &r->tmp
                             : t == r->fix.ptr ? &r->fix
                                               : NULL;
        char *own = dec && tn == dec->len ? zc_buf_take(dec) : NULL;
        k = sm_text_add(m, t, tn, own);
      }
    }
    if (!ok) return 0;
    ZC_GROW(*idx, *cap, *nidx + 1);
    (*idx)[(*nidx)++] = k;
  }
  return !r->err;
}

/* One section's map, once its offset is known. */
static int sm_section_map(struct ana_smap *m, struct jr *r, const char *map_url,
                          uint32_t l0, uint32_t c0, double line, double col,
                          int depth, const char **why) {
  if (line < 0 || col < 0 || line > 0xFFFFF000 || col > 0xFFFFF000)
    return *why = "a section without a valid offset", 0;
  if ((uint64_t)l0 + (uint64_t)line < m->nlines - (m->nlines > 0))
    return *why = "sections out of order", 0;
  uint32_t sl = l0 + (uint32_t)line;
  uint32_t sc = (uint32_t)col + (line == 0 ? c0 : 0);
  return sm_parse(m, r, map_url, sl, sc, depth + 1, why);
}

static int sm_sections(struct ana_smap *m, struct jr *r, const char *map_url,
                       uint32_t l0, uint32_t c0, int depth, const char **why) {
  if (depth >= SM_MAXDEPTH) return *why = "sections nested too deep", 0;
  if (!jr_arr(r)) return 0;
  while (jr_more(r, NULL, NULL)) {
    const char *k;
    size_t kn;
    double line = -1, col = -1;
    if (++m->nsections > m->lim_sections) return *why = SM_OVER_SECTIONS, 0;
    int got_map = 0, got_off = 0;
    const char *later = NULL; /* a "map" read before its "offset" */
    if (!jr_obj(r)) return 0;
    while (jr_more(r, &k, &kn)) {
      if (jr_is(k, kn, "offset")) {
        if (!jr_obj(r)) return 0;
        got_off = 1;
        const char *k2;
        size_t k2n;
        while (jr_more(r, &k2, &k2n)) {
          double v;
          if (jr_is(k2, k2n, "line") && jr_num(r, &v))
            line = v;
          else if (jr_is(k2, k2n, "column") && jr_num(r, &v))
            col = v;
          else if (!jr_is(k2, k2n, "line") && !jr_is(k2, k2n, "column"))
            jr_skip(r);
        }
      } else if (jr_is(k, kn, "map") && !got_map) {
        got_map = 1;
        /* JSON members have no order: a map before its offset is read
         * again once the section's object is whole. */
        if (!got_off) {
          jr_peek(r);
          later = r->p;
          if (!jr_skip(r)) return 0;
        } else if (!sm_section_map(m, r, map_url, l0, c0, line, col, depth,
                                   why)) {
          return 0;
        }
      } else if (jr_is(k, kn, "url")) {
        return *why = "a section with a \"url\" (not supported)", 0;
      } else {
        jr_skip(r);
      }
    }
    if (r->err) return 0;
    if (!got_map) return *why = "a section without a map", 0;
    if (later) {
      const char *after = r->p;
      r->p = later;
      if (!sm_section_map(m, r, map_url, l0, c0, line, col, depth, why))
        return 0;
      r->p = after;
      r->first = 0;
    }
  }
  return !r->err;
}

/* One map object at the reader; its segments go at line l0 (column c0). */
static int sm_parse(struct ana_smap *m, struct jr *r, const char *map_url,
                    uint32_t l0, uint32_t c0, int depth, const char **why) {
  const char *k, *s;
  size_t kn, sn;
  char *mappings = NULL, *root = NULL;
  size_t mn = 0, rootn = 0;
  struct zc_buf srcs; /* raw sources, NUL-separated, resolved at the end */
  zc_buf_init(&srcs, SM_STRMAX);
  uint32_t nsrc = 0, nnames = 0, n0 = (uint32_t)m->nnames;
  uint32_t *content = NULL; /* per source: index into m->text */
  size_t ncont = 0, capcont = 0;
  int sections = 0, ok = 1;
  double version = 0;
  if (!jr_obj(r)) ok = 0;
  while (ok && jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, "version")) {
      ok = jr_num(r, &version);
    } else if (jr_is(k, kn, "mappings")) {
      ok = jr_str(r, &s, &sn);
      if (ok) free(mappings), mappings = zc_xstrndup(s, sn), mn = sn;
    } else if (jr_is(k, kn, "sourceRoot")) {
      if (jr_peek(r) == 'n')
        ok = jr_skip(r);
      else if ((ok = jr_str(r, &s, &sn)))
        free(root), root = zc_xstrndup(s, sn), rootn = sn;
    } else if (jr_is(k, kn, "sources")) {
      zc_buf_reset(&srcs);
      nsrc = 0;
      ok = jr_arr(r);
      while (ok && jr_more(r, NULL, NULL)) {
        if (jr_peek(r) == 'n')
          ok = jr_skip(r), sn = 0, s = "";
        else
          ok = jr_str(r, &s, &sn);
        if (ok && (zc_buf_add(&srcs, s, sn) || zc_buf_addc(&srcs, '\0')))
          ok = 0, *why = "sources too large";
        nsrc++;
      }
    } else if (jr_is(k, kn, "names")) {
      ok = jr_arr(r);
      while (ok && jr_more(r, NULL, NULL)) {
        if ((ok = jr_str(r, &s, &sn))) {
          ZC_GROW(m->nameoff, m->capnames, m->nnames + 1);
          m->nameoff[m->nnames++] = sm_str(m, s, sn);
          nnames++;
        }
      }
    } else if (jr_is(k, kn, "sourcesContent")) {
      ok = sm_contents(m, r, &content, &ncont, &capcont);
    } else if (jr_is(k, kn, "sections")) {
      sections = 1;
      ok = sm_sections(m, r, map_url, l0, c0, depth, why);
    } else {
      ok = jr_skip(r);
    }
  }
  if (ok && r->err) ok = 0;
  if (ok && version != 3) ok = 0, *why = "not a version 3 source map";
  if (ok && !sections && !mappings) ok = 0, *why = "no \"mappings\"";
  if (ok && mappings) {
    uint32_t s0 = (uint32_t)m->nsrc;
    struct zc_buf full;
    zc_buf_init(&full, SM_STRMAX);
    for (size_t off = 0, i = 0; i < nsrc; i++) {
      const char *raw = srcs.ptr + off;
      size_t rl = strlen(raw);
      size_t fn;
      char *f = sm_resolve(&full, root, rootn, raw, rl, map_url, &fn);
      ZC_GROW(m->srcoff, m->capsrc, m->nsrc + 1);
      ZC_GROW(m->srctext, m->capsrctext, m->nsrc + 1);
      m->srctext[m->nsrc] = i < ncont ? content[i] : ANA_NONE;
      m->srcoff[m->nsrc++] = sm_str(m, f ? f : "", f ? fn : 0);
      free(f);
      off += rl + 1;
    }
    zc_buf_free(&full);
    ok = sm_decode(m, mappings, mn, l0, c0, s0, n0, nsrc, nnames, why);
  }
  free(mappings);
  free(root);
  free(content);
  zc_buf_free(&srcs);
  return ok;
}

void ana_smap_budget_init(struct ana_smap_budget *b) {
  *b = (struct ana_smap_budget){.lines = SM_RUN_LINES,
                                .segments = SM_RUN_SEGS,
                                .sections = SM_RUN_SECTIONS,
                                .content = SM_RUN_CONTENT};
}

static uint64_t sm_min(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}

enum zc_err ana_smap_parse_within(const char *json, size_t n,
                                  const char *map_url, size_t gen_lines,
                                  struct ana_smap_budget *b,
                                  struct ana_smap **out) {
  *out = NULL;
  struct ana_smap *m = zc_xcalloc(1, sizeof *m);
  /* Proportional to the input: a line is at least a ';' of the map or a
   * line of the generated script, a segment at least one byte, a
   * section some 30 bytes; and the run's budget bounds them all. */
  m->lim_lines = sm_min((uint64_t)n + gen_lines + SM_LINES_SLACK, b->lines);
  m->lim_segs = sm_min((uint64_t)n, b->segments);
  m->lim_sections = sm_min((uint64_t)n / 16 + 1, b->sections);
  m->lim_content = sm_min((uint64_t)n, b->content);
  struct jr r;
  jr_init(&r, json, n);
  const char *why = NULL;
  int ok = sm_parse(m, &r, map_url, 0, 0, 0, &why);
  if (ok && jr_peek(&r) >= 0) ok = 0, why = "text after the map";
  size_t at = r.err ? (size_t)(r.err - json) : 0;
  int toobig = r.toobig;
  jr_done(&r);
  if (!ok) {
    ana_smap_free(m);
    if (why) return zc_fail(ZC_E_PARSE, "%s", why);
    return zc_fail(ZC_E_PARSE, "%s at byte %zu",
                   toobig ? "a string too long" : "bad JSON", at);
  }
  ZC_GROW(m->line0, m->caplines, m->nlines + 1);
  m->line0[m->nlines] = (uint32_t)m->nseg; /* end of the last line */
  b->lines -= sm_min(m->nlines, b->lines);
  b->segments -= sm_min(m->nseg, b->segments);
  b->sections -= sm_min(m->nsections, b->sections);
  b->content -= sm_min(m->ncontent, b->content);
  *out = m;
  return ZC_OK;
}

enum zc_err ana_smap_parse(const char *json, size_t n, const char *map_url,
                           struct ana_smap **out) {
  struct ana_smap_budget b;
  ana_smap_budget_init(&b);
  return ana_smap_parse_within(json, n, map_url, 0, &b, out);
}

void ana_smap_free(struct ana_smap *m) {
  if (!m) return;
  free(m->seg);
  free(m->line0);
  free(m->srcoff);
  free(m->nameoff);
  free(m->srctext);
  for (size_t i = 0; i < m->ntext; i++) {
    free(m->text[i].t);
    free(m->text[i].line0);
  }
  free(m->text);
  free(m->strs);
  free(m);
}

size_t ana_smap_segments(const struct ana_smap *m) {
  return m->nseg;
}
size_t ana_smap_texts(const struct ana_smap *m, size_t *dropped) {
  if (dropped) *dropped = m->content_dropped;
  return m->ntext;
}
size_t ana_smap_bytes(const struct ana_smap *m) {
  size_t t = m->captext * sizeof *m->text;
  for (size_t i = 0; i < m->ntext; i++)
    t += m->text[i].n + 1 + (m->text[i].nlines + 1) * sizeof(uint32_t);
  return m->capseg * sizeof *m->seg + m->caplines * sizeof *m->line0 +
         (m->capsrc + m->capsrctext + m->capnames) * sizeof(uint32_t) +
         m->capstrs + t;
}

/* The last segment of line at or before col, or NULL. */
static const struct ana__seg *sm_find(const struct ana_smap *m, uint32_t line,
                                      uint32_t col) {
  if (line >= m->nlines) return NULL;
  size_t lo = m->line0[line], hi = m->line0[line + 1];
  if (lo == hi || m->seg[lo].gcol > col) return NULL;
  while (hi - lo > 1) { /* seg[lo].gcol <= col < seg[hi].gcol */
    size_t mid = lo + (hi - lo) / 2;
    if (m->seg[mid].gcol <= col)
      lo = mid;
    else
      hi = mid;
  }
  return &m->seg[lo];
}

static void sm_fill(const struct ana_smap *m, const struct ana__seg *s,
                    struct ana_smap_pos *p) {
  p->gcol = s->gcol;
  p->source = s->src != ANA_NONE ? m->strs + m->srcoff[s->src] : NULL;
  p->line = s->src != ANA_NONE ? (int32_t)s->oline : -1;
  p->name = s->name != ANA_NONE ? m->strs + m->nameoff[s->name] : NULL;
}

int ana_smap_lookup(const struct ana_smap *m, uint32_t line, uint32_t col,
                    struct ana_smap_pos *p) {
  const struct ana__seg *s = sm_find(m, line, col);
  if (!s) return 0;
  sm_fill(m, s, p);
  return 1;
}

static int sm_idch(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/* One character of UTF-8 at t (n bytes left, n > 0): its bytes, and in
 * *units its UTF-16 code units (a stray byte counts as one U+FFFD). */
static size_t sm_char(const char *t, size_t n, uint32_t *units) {
  uint32_t cp;
  size_t k = zc_utf8_char((const unsigned char *)t, n, &cp);
  if (!k) k = 1, cp = 0xFFFD;
  *units = cp >= 0x10000 ? 2 : 1;
  return k;
}

void ana_smap_line_init(struct ana_smap_line *l, const char *text, size_t n,
                        int ascii) {
  memset(l, 0, sizeof *l);
  l->text = text;
  l->n = n;
  l->ascii = ascii;
  if (ascii || !text || n < 2 * ANA_SM_CK) return;
  size_t cap = n / ANA_SM_CK + 2;
  l->ckb = zc_xmalloc(cap * sizeof *l->ckb);
  l->cku = zc_xmalloc(cap * sizeof *l->cku);
  uint32_t u = 0, w;
  for (size_t b = 0; b < n;) {
    if (b >= l->nck * ANA_SM_CK && l->nck < cap) {
      l->ckb[l->nck] = b;
      l->cku[l->nck++] = u;
    }
    b += sm_char(text + b, n - b, &w);
    if (u > UINT32_MAX - 2) break; /* columns past 4 G: not indexed */
    u += w;
  }
}

void ana_smap_line_free(struct ana_smap_line *l) {
  if (!l) return;
  free(l->ckb);
  free(l->cku);
  l->ckb = NULL;
  l->cku = NULL;
  l->nck = 0;
}

/* The byte offset of UTF-16 column col in a line of UTF-8, or SIZE_MAX
 * past its end: walked from the last checkpoint at or before col. */
static size_t sm_byte(const struct ana_smap_line *l, uint32_t col) {
  const char *t = l->text;
  size_t n = l->n;
  if (l->ascii) return col <= n ? col : SIZE_MAX;
  size_t b = 0;
  uint32_t u = 0, w;
  if (l->nck && l->cku[0] <= col) {
    size_t lo = 0, hi = l->nck; /* cku[lo] <= col < cku[hi] */
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      if (l->cku[mid] <= col)
        lo = mid;
      else
        hi = mid;
    }
    b = l->ckb[lo];
    u = l->cku[lo];
  }
  for (; u < col; u += w) {
    if (b >= n) return SIZE_MAX;
    b += sm_char(t + b, n - b, &w);
  }
  return b;
}

/* The UTF-16 column of byte offset b (at a character's start). */
static uint32_t sm_col16(const struct ana_smap_line *l, size_t b) {
  if (l->ascii) return (uint32_t)b;
  size_t i = 0;
  uint32_t u = 0, w;
  if (l->nck) {
    size_t k = b / ANA_SM_CK < l->nck ? b / ANA_SM_CK : l->nck - 1;
    while (k > 0 && l->ckb[k] > b)
      k--;
    i = l->ckb[k];
    u = l->cku[k];
  }
  for (; i < b; u += w)
    i += sm_char(l->text + i, b - i, &w);
  return u;
}

/* ---- the name an original text declares (issue 26.11) ----
 *
 * Where the map carries a source's text, a function's own name is read
 * from it at the original position of the segment V8's column falls in:
 * "function realName(", "async function* realName<T>(", a method
 * "realName(...) {", or the '(' after such a name. A name read so is an
 * identifier, so it holds no markup; reading looks no further than a few
 * KB from that position. */

enum { SM_ORIG_SCAN = 4096, SM_ORIG_WALK = 1 << 20 };

static int sm_ws(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

/* Code points that are never part of a name: C1 controls, spaces, zero
 * widths, bidi controls, line separators, BOM. */
static int sm_cp_ok(uint32_t cp) {
  return !(cp < 0xA1 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200F) ||
           (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) ||
           cp == 0x3000 || cp == 0xFEFF || cp == 0xFFFD);
}

/* The bytes of the name starting at t[i] (0: none): '#' for a private
 * name, then letters, digits, '_', '$' and other characters, not a digit
 * first. */
static size_t sm_ident(const char *t, size_t n, size_t i) {
  size_t j = i;
  if (j < n && t[j] == '#') j++;
  while (j < n && j - i < SM_ORIG_SCAN) {
    unsigned char c = (unsigned char)t[j];
    if (c < 0x80) {
      if (!sm_idch(c) || (j == i && c >= '0' && c <= '9')) break;
      j++;
      continue;
    }
    uint32_t cp;
    size_t k = zc_utf8_char((const unsigned char *)t + j, n - j, &cp);
    if (!k || !sm_cp_ok(cp)) break;
    j += k;
  }
  if (j > i && t[i] == '#' && j == i + 1) return 0;
  return j - i;
}

static int sm_word_in(const char *w, size_t n, const char *const *list) {
  for (; *list; list++)
    if (strlen(*list) == n && !memcmp(w, *list, n)) return 1;
  return 0;
}

static const char *const sm_keywords[] = {
    "if",     "for",      "while",       "switch",     "catch",   "with",
    "return", "typeof",   "new",         "delete",     "void",    "in",
    "of",     "do",       "else",        "instanceof", "class",   "const",
    "let",    "var",      "yield",       "await",      "super",   "this",
    "import", "case",     "throw",       "try",        "finally", "extends",
    "null",   "true",     "false",       "debugger",   "break",   "continue",
    "enum",   "function", "constructor", NULL};
/* Words before a name that do not change it. */
static const char *const sm_modifiers[] = {
    "export",   "default",  "async",   "static",    "get",
    "set",      "public",   "private", "protected", "readonly",
    "override", "abstract", "declare", "accessor",  NULL};

static size_t sm_skipws(const char *t, size_t n, size_t i) {
  while (i < n && sm_ws((unsigned char)t[i]))
    i++;
  return i;
}

/* From t[i] at '(' (or '<' of type parameters): 1 if the parameter list
 * closes and a body follows, "(...) {" or "(...): Type {", as a method's
 * does and a call's does not. */
static int sm_body_follows(const char *t, size_t n, size_t i) {
  size_t lim = i + SM_ORIG_SCAN < n ? i + SM_ORIG_SCAN : n;
  if (i < lim && t[i] == '<') {
    int d = 0;
    for (; i < lim; i++)
      if (t[i] == '<')
        d++;
      else if (t[i] == '>' && --d == 0)
        break;
    i = sm_skipws(t, lim, i + 1);
  }
  if (i >= lim || t[i] != '(') return 0;
  int depth = 0;
  char q = 0;
  for (; i < lim; i++) {
    char c = t[i];
    if (q) {
      if (c == '\\')
        i++;
      else if (c == q)
        q = 0;
    } else if (c == '"' || c == '\'' || c == '`') {
      q = c;
    } else if (c == '(') {
      depth++;
    } else if (c == ')' && --depth == 0) {
      break;
    }
  }
  i = sm_skipws(t, lim, i + 1);
  if (i < lim && t[i] == '{') return 1;
  if (i >= lim || t[i] != ':') return 0;
  for (i++; i < lim; i++) /* a return type, up to the body */
    if (t[i] == '{')
      return 1;
    else if (t[i] == ';' || (t[i] == '=' && (i + 1 >= lim || t[i + 1] != '>')))
      return 0;
  return 0;
}

/* 1 if what precedes t[i] lets a method start there: the start, one of
 * "{ } ; , *", a modifier, or a line break. */
static int sm_method_place(const char *t, size_t i) {
  size_t lo = i > SM_ORIG_SCAN ? i - SM_ORIG_SCAN : 0;
  for (int k = 0; k < 8; k++) {
    int nl = 0;
    while (i > lo && sm_ws((unsigned char)t[i - 1]))
      nl |= t[--i] == '\n';
    if (i == lo) return 1;
    char c = t[i - 1];
    if (c == '{' || c == '}' || c == ';' || c == ',' || c == '*') return 1;
    size_t s = i;
    while (s > lo && sm_idch((unsigned char)t[s - 1]))
      s--;
    if (s < i && sm_word_in(t + s, i - s, sm_modifiers)) {
      i = s;
      continue;
    }
    return nl;
  }
  return 0;
}

/* 1 if the name at t[s] follows "function" (or "function*"). */
static int sm_after_function(const char *t, size_t s) {
  size_t lo = s > SM_ORIG_SCAN ? s - SM_ORIG_SCAN : 0, p = s;
  while (p > lo && sm_ws((unsigned char)t[p - 1]))
    p--;
  if (p > lo && t[p - 1] == '*')
    for (p--; p > lo && sm_ws((unsigned char)t[p - 1]);)
      p--;
  return p >= lo + 8 && !memcmp(t + p - 8, "function", 8) &&
         (p == 8 || !sm_idch((unsigned char)t[p - 9]));
}

/* The name declared at t[b] (see above): its offset and length. */
static int sm_decl_at(const char *t, size_t n, size_t b, size_t *at,
                      size_t *len) {
  size_t i = b;
  if (i < n && t[i] == '(') { /* the name before the '(' */
    size_t lo = b > SM_ORIG_SCAN ? b - SM_ORIG_SCAN : 0, e = b, s;
    while (e > lo && sm_ws((unsigned char)t[e - 1]))
      e--;
    for (s = e;
         s > lo && (sm_idch((unsigned char)t[s - 1]) || t[s - 1] == '#');)
      s--;
    if (s == e || sm_ident(t, n, s) != e - s) return 0;
    if (sm_word_in(t + s, e - s, sm_keywords)) return 0;
    int fn = sm_after_function(t, s);
    if (!fn && !(sm_method_place(t, s) && sm_body_follows(t, n, b))) return 0;
    *at = s;
    *len = e - s;
    return 1;
  }
  for (int k = 0; k < 8; k++) {
    if (i < n && t[i] == '*') i = sm_skipws(t, n, i + 1);
    size_t wl = sm_ident(t, n, i);
    if (!wl) return 0;
    size_t j = sm_skipws(t, n, i + wl);
    if (wl == 8 && !memcmp(t + i, "function", 8)) {
      if (j < n && t[j] == '*') j = sm_skipws(t, n, j + 1);
      size_t nl = sm_ident(t, n, j);
      if (!nl || sm_word_in(t + j, nl, sm_keywords)) return 0;
      size_t after = sm_skipws(t, n, j + nl);
      if (after >= n || (t[after] != '(' && t[after] != '<')) return 0;
      *at = j;
      *len = nl;
      return 1;
    }
    /* "get", "static", "async" before a name modify it; before '(' they
     * are the name. */
    if (sm_word_in(t + i, wl, sm_modifiers) && j < n && t[j] != '(' &&
        t[j] != '<') {
      i = j;
      continue;
    }
    if (sm_word_in(t + i, wl, sm_keywords)) return 0;
    if (!sm_after_function(t, i) &&
        (!sm_method_place(t, i) || !sm_body_follows(t, n, j)))
      return 0;
    if (j >= n || (t[j] != '(' && t[j] != '<')) return 0;
    *at = i;
    *len = wl;
    return 1;
  }
  return 0;
}

/* The name the original text of segment s declares there, copied into
 * out (ANA_SM_NAMEMAX + 1 bytes), or NULL. */
static const char *sm_orig_name(const struct ana_smap *m,
                                const struct ana__seg *s, char *out) {
  if (s->src == ANA_NONE || s->ocol == ANA_NONE || !m->srctext) return NULL;
  uint32_t ti = m->srctext[s->src];
  if (ti == ANA_NONE) return NULL;
  const struct sm_text *x = &m->text[ti];
  if (s->oline >= x->nlines) return NULL;
  size_t ls = x->line0[s->oline], le = x->line0[s->oline + 1] - 1, b = ls;
  if (x->ascii) {
    if (s->ocol > le - ls) return NULL;
    b = ls + s->ocol;
  } else {
    if (s->ocol > SM_ORIG_WALK) return NULL;
    for (uint32_t u = 0, w; u < s->ocol; u += w) {
      if (b >= le) return NULL;
      b += sm_char(x->t + b, le - b, &w);
    }
  }
  size_t at, len;
  if (!sm_decl_at(x->t, x->n, b, &at, &len) || len > ANA_SM_NAMEMAX)
    return NULL;
  memcpy(out, x->t + at, len);
  out[len] = '\0';
  return out;
}

/* How far before the column V8's name is looked for: "name(", "name=(",
 * "name:function(", "name=async function*(" all fall within it. */
enum { SM_NAME_WINDOW = 48 };

/* Whether segment s's source came with its text (sourcesContent). */
static int sm_has_text(const struct ana_smap *m, const struct ana__seg *s) {
  return s->src != ANA_NONE && m->srctext && m->srctext[s->src] != ANA_NONE;
}

/* DevTools' rule where the map carries no source text (issue 35.2): the
 * token at the function's name in the generated code (the identifier
 * before its '(': "function t(", "t(" of a method, "get t("), or at its
 * start for an anonymous one ("function(", an arrow's '('), named by the
 * segment that starts exactly there. b is the byte of V8's column. */
static const char *sm_scope_name(const struct ana_smap *m,
                                 const struct ana_smap_line *l, uint32_t line,
                                 size_t b) {
  const char *t = l->text;
  if (b >= l->n || t[b] != '(') return NULL;
  size_t i = b;
  while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
    i--;
  if (i > 0 && t[i - 1] == '*') { /* function*( and *name( */
    i--;
    while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
      i--;
  }
  size_t e = i;
  while (i > 0 && sm_idch((unsigned char)t[i - 1]))
    i--;
  /* no identifier: an arrow's own '(' starts it; "function" and "async"
   * (keywords, not names): the anonymous function starts at the keyword */
  size_t at = i < e ? i : b;
  if (e - i == 5 && !memcmp(t + i, "async", 5)) at = i;
  uint32_t c16 = sm_col16(l, at);
  const struct ana__seg *s = sm_find(m, line, c16);
  if (s && s->gcol == c16 && s->name != ANA_NONE)
    return m->strs + m->nameoff[s->name];
  return NULL;
}

int ana_smap_resolve(const struct ana_smap *m, const char *text, size_t tn,
                     int ascii, const char *v8name, uint32_t line, uint32_t col,
                     struct ana_smap_pos *p) {
  struct ana_smap_line l = {.text = text, .n = tn, .ascii = ascii};
  return ana_smap_resolve_line(m, text ? &l : NULL, v8name, line, col, p);
}

int ana_smap_resolve_line(const struct ana_smap *m,
                          const struct ana_smap_line *l, const char *v8name,
                          uint32_t line, uint32_t col, struct ana_smap_pos *p) {
  const char *text = l ? l->text : NULL;
  size_t tn = l ? l->n : 0;
  size_t vn = v8name ? strlen(v8name) : 0;
  memset(p, 0, sizeof *p);
  p->line = -1;
  if (line == 0 && col == 0 && !vn) return 0; /* the script's top level */
  const struct ana__seg *s = sm_find(m, line, col);
  if (!s || s->src == ANA_NONE) return 0;
  sm_fill(m, s, p);
  p->name = NULL;
  p->how = ANA_SM_SOURCE;
  if ((p->name = sm_orig_name(m, s, p->own))) {
    p->how = ANA_SM_ORIGINAL;
    return 1;
  }
  if (text) {
    size_t b = sm_byte(l, col);
    if (b == SIZE_MAX) return 1;
    if (!sm_has_text(m, s) && (p->name = sm_scope_name(m, l, line, b))) {
      p->how = ANA_SM_NAMED;
      return 1;
    }
    /* V8's inferred name of an anonymous function ("t.forceSimulation"
     * for "t.forceSimulation=function(") is looked for by its last part,
     * the token a segment names. */
    const char *dot = v8name ? strrchr(v8name, '.') : NULL;
    if (dot && dot[1]) {
      v8name = dot + 1;
      vn = strlen(v8name);
    }
    if (vn && vn < SM_NAME_WINDOW) {
      size_t lo = b > SM_NAME_WINDOW ? b - SM_NAME_WINDOW : 0;
      /* from the nearest place the name can end at the column, back */
      for (size_t i = b >= vn ? b - vn + 1 : 0; i-- > lo;) {
        if (memcmp(text + i, v8name, vn) != 0) continue;
        if (i > 0 && sm_idch((unsigned char)text[i - 1])) continue;
        if (i + vn < tn && sm_idch((unsigned char)text[i + vn])) continue;
        uint32_t c16 = sm_col16(l, i);
        const struct ana__seg *at = sm_find(m, line, c16);
        if (at && at->gcol == c16 && at->name != ANA_NONE) {
          p->name = m->strs + m->nameoff[at->name];
          p->how = ANA_SM_NAMED;
          return 1;
        }
        break; /* the nearest occurrence decides */
      }
    }
    if (b < tn && text[b] == '(' && s->name != ANA_NONE) {
      const char *nm = m->strs + m->nameoff[s->name];
      int ctor = !strcmp(nm, "constructor");
      /* "constructor" only for a class's own constructor method. */
      if (ctor && !(b >= 11 && !memcmp(text + b - 11, "constructor", 11)))
        return 1;
      p->name = nm;
      p->how = ANA_SM_PAREN;
    }
    return 1;
  }
  /* Without the generated text: V8's name right before the column, as in
   * "name(" or "name=(", where a named segment starts there. */
  for (uint32_t gap = 0; vn && gap < 2 && col >= vn + gap; gap++) {
    uint32_t c = col - (uint32_t)vn - gap;
    const struct ana__seg *at = sm_find(m, line, c);
    if (at && at->gcol == c && at->name != ANA_NONE) {
      p->name = m->strs + m->nameoff[at->name];
      p->how = ANA_SM_NAMED;
      return 1;
    }
  }
  return 1;
}

char *ana_url_join(const char *base, const char *rel) {
  struct zc_buf o;
  zc_buf_init(&o, SM_STRMAX);
  size_t n;
  char *r = sm_resolve(&o, NULL, 0, rel, strlen(rel), base, &n);
  zc_buf_free(&o);
  return r;
}
