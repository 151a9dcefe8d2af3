/* The source-map decoder on one map: time to decode (best of 5), segments,
 * memory the decoded map holds, and this process's peak resident memory.
 *
 *   zc_bench_sourcemap MAP [SCRIPT]
 *
 * With SCRIPT (the generated file), every function start ("function"
 * followed by a name and '(' on its line) is also named by the rule, and
 * the time per frame printed. tests/bench/sourcemap.sh makes a large real
 * map (TypeScript's compiler bundled and minified by esbuild) and runs it.
 *
 *   zc_bench_sourcemap --long-line MB FRAMES
 *
 * Issue 26.7: a one-line script of MB megabytes with one non-ASCII
 * character near its start and FRAMES sampled functions spread along it,
 * named through ana_symbolize (the line's UTF-16 columns): time, and time
 * per MB, so that runs at several sizes show whether it is linear. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "smap/smap.h"
#include "timeline.h"

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 20, len = 0;
  char *b = malloc(cap + 1);
  for (size_t got; b && (got = fread(b + len, 1, cap - len, f)) > 0;) {
    len += got;
    if (len == cap) b = realloc(b, (cap *= 2) + 1);
  }
  fclose(f);
  if (b) b[len] = '\0';
  *n = len;
  return b;
}

static void vlq(struct zc_buf *b, int64_t v) {
  static const char d[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  uint64_t x = v < 0 ? ((uint64_t)-v << 1) | 1 : (uint64_t)v << 1;
  do {
    unsigned c = x & 31;
    x >>= 5;
    if (x) c |= 32;
    if (zc_buf_addc(b, d[c])) exit(1);
  } while (x);
}

/* One line: "/\*é*\/" then FRAMES sites "n(){}" spread over MB bytes of
 * filler; the map names site i "real_i" at its name and its '('. */
static int long_line(double mb, unsigned frames) {
  size_t len = (size_t)(mb * 1e6), gap = len / (frames + 1);
  char *text = zc_xmalloc(len + 1);
  memset(text, ' ', len);
  memcpy(text, "/*\xc3\xa9*/", 7);
  text[len] = '\0';
  struct zc_buf map, names;
  zc_buf_init(&map, (size_t)1 << 30);
  zc_buf_init(&names, (size_t)1 << 30);
  int ok = !zc_buf_printf(&map, "{\"version\":3,\"sources\":[\"src.js\"],"
                                "\"mappings\":\"");
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = ana_tl_new(c, "bench");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "main", NULL, -1, -1);
  int64_t pcol = 0, pline = 0, pname = 0;
  for (unsigned i = 0; i < frames; i++) {
    size_t at = gap * (i + 1); /* bytes; the column is one less (é) */
    memcpy(text + at, "n(){}", 5);
    int64_t cols[2] = {(int64_t)at - 1, (int64_t)at};
    for (int k = 0; k < 2; k++) {
      if (i || k) ok &= !zc_buf_addc(&map, ',');
      vlq(&map, cols[k] - pcol);
      vlq(&map, 0);
      vlq(&map, (int64_t)i - pline);
      vlq(&map, 0);
      vlq(&map, (int64_t)i - pname);
      pcol = cols[k], pline = (int64_t)i, pname = (int64_t)i;
    }
    ok &= !zc_buf_printf(&names, "%s\"real_%u\"", i ? "," : "", i);
    uint32_t f =
        ana_tl_child(tl, th, ANA_FUNC, "n", "http://h/big.js", 0, (int32_t)at);
    ana_tl_sample(tl, f, (int64_t)i * 1000, 1000);
  }
  ok &= !zc_buf_printf(&map, "\",\"names\":[%s]}", names.ptr);
  if (!ok) return 1;
  struct ana_maps *ms = ana_maps_new(NULL, NULL);
  ana_maps_add(ms, "http://h/big.js", map.ptr, map.len, NULL, text, len);
  struct ana_sym_stats st;
  double t0 = zc_now_ms();
  ana_symbolize(tl, ms, &st);
  double t = zc_now_ms() - t0;
  printf("long line      %.1f MB, 1 non-ASCII char, %u frames: %u renamed, "
         "%.1f ms (%.2f ms per MB)\n",
         mb, frames, st.renamed, t, t / mb);
  ana_maps_free(ms);
  ana_timeline_free(tl);
  ana_ctx_free(c);
  zc_buf_free(&map);
  zc_buf_free(&names);
  free(text);
  return st.renamed == frames ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "--long-line"))
    return long_line(atof(argv[2]), (unsigned)atoi(argv[3]));
  if (argc < 2) {
    fprintf(stderr, "usage: zc_bench_sourcemap MAP [SCRIPT]\n");
    return 2;
  }
  size_t n, tn = 0;
  char *json = slurp(argv[1], &n);
  char *text = argc > 2 ? slurp(argv[2], &tn) : NULL;
  if (!json || (argc > 2 && !text)) {
    fprintf(stderr, "zc_bench_sourcemap: cannot read %s\n",
            !json ? argv[1] : argv[2]);
    return 2;
  }
  double rss0 = zc_peak_mb(), best = 1e30;
  struct ana_smap *m = NULL;
  for (int i = 0; i < 5; i++) {
    ana_smap_free(m);
    m = NULL;
    double t0 = zc_now_ms();
    if (ana_smap_parse(json, n, NULL, &m)) {
      fprintf(stderr, "zc_bench_sourcemap: %s: %s\n", argv[1], zc_errmsg());
      return 1;
    }
    double t = zc_now_ms() - t0;
    if (t < best) best = t;
  }
  printf("map            %s (%.1f MB)\n", argv[1], (double)n / 1e6);
  printf("segments       %zu\n", ana_smap_segments(m));
  printf("decode         %.1f ms (best of 5)\n", best);
  printf("held           %.1f MB\n", (double)ana_smap_bytes(m) / 1e6);
  printf("peak RSS       %.1f MB (%.1f MB before decoding, map text "
         "included)\n",
         zc_peak_mb(), rss0);
  if (text) {
    unsigned frames = 0, named = 0;
    uint32_t line = 0;
    const char *l0 = text;
    double t0 = zc_now_ms();
    for (const char *p = text; *p; p++) {
      if (*p == '\n') {
        line++;
        l0 = p + 1;
        continue;
      }
      if (strncmp(p, "function ", 9) != 0) continue;
      const char *q = p + 9, *id = q;
      while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
             (*q >= '0' && *q <= '9') || *q == '_' || *q == '$')
        q++;
      if (*q != '(' || q == id) continue;
      char name[128];
      snprintf(name, sizeof name, "%.*s", (int)(q - id), id);
      const char *le = strchr(l0, '\n');
      size_t len = le ? (size_t)(le - l0) : strlen(l0);
      struct ana_smap_pos pos;
      frames++;
      if (ana_smap_resolve(m, l0, len, 1, name, line, (uint32_t)(q - l0),
                           &pos) &&
          pos.name)
        named++;
    }
    double t = zc_now_ms() - t0;
    printf("rule           %u function starts, %u named, %.2f us each\n",
           frames, named, frames ? t * 1e3 / frames : 0.0);
  }
  ana_smap_free(m);
  free(json);
  free(text);
  return 0;
}
