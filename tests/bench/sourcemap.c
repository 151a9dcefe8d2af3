/* The source-map decoder on one map: time to decode (best of 5), segments,
 * memory the decoded map holds, and this process's peak resident memory.
 *
 *   zc_bench_sourcemap MAP [SCRIPT]
 *
 * With SCRIPT (the generated file), every function start ("function"
 * followed by a name and '(' on its line) is also named by the rule, and
 * the time per frame printed. tests/bench/sourcemap.sh makes a large real
 * map (TypeScript's compiler bundled and minified by esbuild) and runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"

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

int main(int argc, char **argv) {
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
