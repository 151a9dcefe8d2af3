/* ana_load: one Chrome trace or .cpuprofile file, from its bytes to a
 * timeline. See trace-int.h for how the reading is done. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

/* What a file without CPU samples holds, for the message that says it
 * has none. */
static char *ing_what(const struct ing *g) {
  char b[400];
  size_t nodes = 0;
  for (size_t i = 0; i < g->nprof; i++)
    nodes += g->prof[i].nnodes;
  if (g->other_samples)
    snprintf(b, sizeof b,
             "'samples' that are objects (a heap profile's "
             "allocations, or a trace-event file's own stack samples), not "
             "a V8 CPU profile's");
  else if (g->cpuprofile)
    snprintf(b, sizeof b, "a CPU profile with %zu node%s and no samples", nodes,
             nodes == 1 ? "" : "s");
  else if (g->nprof)
    snprintf(b, sizeof b,
             "%zu CPU profile%s with %zu node%s and no "
             "samples, in %llu trace events",
             g->nprof, g->nprof == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s",
             (unsigned long long)g->events);
  else if (g->events)
    snprintf(b, sizeof b,
             "%llu trace event%s and no CPU profile (record "
             "with the 'disabled-by-default-v8.cpu_profiler' category, as "
             "the DevTools Performance panel does)",
             (unsigned long long)g->events, g->events == 1 ? "" : "s");
  else
    snprintf(b, sizeof b, "no trace events and no CPU profile");
  return zc_xstrdup(b);
}

/* A sampling heap profile by its name: DevTools' .heapprofile. */
static int is_heap(const char *path) {
  size_t n = strlen(path);
  if (n > 3 && !strcmp(path + n - 3, ".gz")) n -= 3;
  return n >= 12 && !strncmp(path + n - 12, ".heapprofile", 12);
}

enum zc_err ana_load(struct ana_ctx *c, const char *path,
                     struct ana_timeline **out) {
  *out = NULL;
  if (is_heap(path)) return ana__load_heap(c, path, out);
  ing_init_cls();
  struct ing g;
  memset(&g, 0, sizeof g);
  g.ctx = c;
  g.path = path;
  g.k_root = ana_intern(c, "(root)", 6);
  g.k_program = ana_intern(c, "(program)", 9);
  g.k_idle = ana_intern(c, "(idle)", 6);
  g.k_gc = ana_intern(c, "(garbage collector)", 19);
  g.gz = gzopen(path, "rb");
  if (!g.gz)
    return zc_fail(ZC_E_IO, "%s: cannot open: %s", path,
                   errno ? strerror(errno) : "out of memory");
  gzbuffer(g.gz, 256 * 1024);
  if (ana_ctx_io(c)) ing_io_init(&g);
  enum zc_err e;
  int ch;
  if ((e = ing_peek(&g, &ch))) goto out;
  /* A UTF-8 byte order mark is allowed before the JSON. A short first read
   * may hold only part of it. */
  size_t shift;
  while (ch == 0xEF && g.len - g.pos < 3 && !g.eof)
    if ((e = ing_more(&g, g.pos, &shift))) goto out;
  if (ch == 0xEF && g.len - g.pos >= 3 &&
      memcmp(g.buf + g.pos, "\xEF\xBB\xBF", 3) == 0) {
    g.pos += 3;
    if ((e = ing_peek(&g, &ch))) goto out;
  }
  if (ch == '[')
    e = ing_events(&g, 1);
  else if (ch == '{')
    e = ing_object(&g);
  else if (ch < 0)
    e = zc_fail(ZC_E_PARSE, "%s: empty file", path);
  else
    e = zc_fail(ZC_E_PARSE,
                "%s: byte %llu: not a Chrome trace or CPU "
                "profile (expected '[' or '{', found 0x%02x)",
                path, (unsigned long long)(g.base + g.pos), ch);
  if (e) goto out;
  if ((e = ing_peek(&g, &ch))) goto out;
  if (ch >= 0) {
    e = zc_fail(ZC_E_PARSE, "%s: byte %llu: data after the end of the JSON",
                path, (unsigned long long)(g.base + g.pos));
    goto out;
  }
  /* A .cpuprofile's samples and deltas come as two top-level arrays. */
  if (g.cpuprofile && (e = ing_cpuprofile_done(&g))) goto out;
  int64_t fpid = 0, ftid = 0;
  ing_fig_window(&g, &fpid, &ftid);
  ing_choose(&g);
  ing_labels(&g, g.fig_t0 != INT64_MIN, fpid, ftid);
  struct ana_timeline *tl = ana_tl_new(c, path);
  for (size_t i = 0; i < g.nprof; i++)
    if (ing_built(&g.prof[i])) ing_build(&g, &g.prof[i], tl);
  ana_tl_finish(tl);
  if (!tl->samples) tl->what = ing_what(&g);
  ing_figures(&g, tl, g.fig_t0 != INT64_MIN, fpid, ftid);
  if (g.io) ing_io_done(&g, tl);
  tl->bytes = g.base + g.len;
  tl->events = g.events;
  tl->parsed = g.parsed;
  tl->profiles = (uint32_t)g.nprof;
  tl->embedded = g.emb;
  tl->nembedded = g.nemb;
  g.emb = NULL;
  g.nemb = 0;
  *out = tl;
out:
  ing_io_free(&g);
  gzclose(g.gz);
  free(g.buf);
  free(g.thr);
  free(g.frames);
  free(g.workers);
  free(g.cp_ts);
  for (size_t i = 0; i < g.nprof; i++)
    prof_free(&g.prof[i]);
  free(g.prof);
  free(g.sid);
  free(g.dt);
  free(g.kids);
  free(g.fev);
  free(g.cev);
  free(g.vev);
  for (uint32_t i = 0; i < g.nemb; i++) {
    free(g.emb[i].url);
    free(g.emb[i].map_url);
    free(g.emb[i].map);
  }
  free(g.emb);
  return e;
}
