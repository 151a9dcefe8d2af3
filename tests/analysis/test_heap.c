/* Sampling heap profiles (trace/heap.c): a real one zamcap recorded read
 * into a timeline of bytes, two compared into an allocation cause, the
 * merged export read back, a deep tree, and bad files. The profiles in
 * tests/data/memapp-{old,new}-mem-1.heapprofile.gz are traces/old-mem-1
 * and new-mem-1 of `zamcap tests/agent/memapp/memapp.json --memory
 * --pairs 3` (headless Chromium 156, 32 KiB sampling), gzipped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "ana.h"
#include "test.h"
#include "timeline.h"
#include "zam/zam.h"

/* The node named name (first found), or 0. */
static uint32_t find(const struct ana_timeline *tl, const char *name) {
  for (uint32_t i = 1; i < tl->nnodes; i++)
    if (!strcmp(ana_str(tl->ctx, tl->nodes[i].name), name)) return i;
  return 0;
}

static void test_real(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  ZT_INT(ana_load(c, zt_data("memapp-old-mem-1.heapprofile.gz"), &tl), ZC_OK);
  if (!ZT_TRUE(tl != NULL)) goto out;
  ZT_INT(tl->unit, ANA_UNIT_BYTES);
  ZT_TRUE(tl->samples > 0);
  ZT_INT(tl->nodes[0].total, 5121940); /* every selfSize of the head tree */
  uint32_t thr = tl->kids[tl->nodes[0].kid0];
  ZT_STR(ana_str(c, tl->nodes[thr].name), "heap");
  ZT_INT(tl->nodes[thr].kind, ANA_THREAD);
  uint32_t cl = find(tl, "cloneRecords");
  if (ZT_TRUE(cl != 0)) {
    ZT_INT(tl->nodes[cl].self, 3261544);
    ZT_INT(tl->nodes[cl].line, 10);
    ZT_STR(ana_str(c, tl->nodes[cl].component), "/app.js");
    ZT_STR(ana_str(c, tl->nodes[tl->nodes[cl].parent].name), "onRun");
  }
  ZT_INT(tl->fig.retained, 1);
  ZT_NEAR(tl->fig.heap_used_kb, 617608 / 1024.0, 1e-9);
  ZT_NEAR(tl->fig.dom_nodes, 619, 0);
  ZT_NEAR(tl->fig.listeners, 1, 0);
  ZT_TRUE(isnan(tl->fig.scenario_ms));
out:
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

/* The new build copies each record 12 times: cloneRecords is the cause,
 * in KB (+35 MB), at --memory's μ of 256 KB. Sampling every 32 KiB moves
 * buildRows' 1.4 MB by +280 KB in this pair, over μ but well within what
 * its sampling is known to: not named. */
static void test_compare(void) {
  struct ana_opts o;
  ana_opts_default(&o);
  o.mu = 256;
  struct ana_cmp *c = ana_cmp_new(&o, 0, NULL, 1, 9);
  ZT_INT(ana_cmp_add(c, zt_data("memapp-old-mem-1.heapprofile.gz"),
                     zt_data("memapp-new-mem-1.heapprofile.gz")),
         ZC_OK);
  struct ana_outcome oc;
  ana_cmp_outcome(c, -1, 5, &oc);
  ZT_INT(oc.causes, 1);
  struct ana_probe *p = NULL;
  unsigned n = ana_cmp_probes(c, &p);
  if (ZT_INT(n, 1)) {
    ZT_STR(p[0].label, "heap > onRun > cloneRecords");
    ZT_NEAR(p[0].delta, 35176.691, 0.0005); /* KB, the stored profiles' */
  }
  ana_probes_free(p, n);
  ana_cmp_free(c);
}

/* The merged export is a .heapprofile again, with the same bytes. */
static void test_export(void) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = NULL, *back = NULL;
  ZT_INT(ana_load(c, zt_data("memapp-new-mem-1.heapprofile.gz"), &tl), ZC_OK);
  struct ana_bottomup *bu = ana_bu_new(c, 1);
  if (tl) ana_bu_add(bu, tl, 1);
  const char *path = zt_tmp("merged.heapprofile");
  FILE *f = fopen(path, "w");
  if (ZT_TRUE(f != NULL)) {
    ZT_INT(ana_bu_write_heapprofile(bu, 1, f), ZC_OK);
    fclose(f);
  }
  ZT_INT(ana_load(c, path, &back), ZC_OK);
  if (tl && back) {
    ZT_INT(back->nodes[0].total, tl->nodes[0].total);
    uint32_t a = find(tl, "cloneRecords"), b = find(back, "cloneRecords");
    ZT_TRUE(a && b && tl->nodes[a].self == back->nodes[b].self);
  }
  /* and says how its runs were sampled (this one did not: V8's default) */
  char *text = zt_read(path);
  ZT_HAS(text, "\"zamcap\":{\"sampling_interval_bytes\":32768}");
  free(text);
  ana_bu_free(bu);
  ana_timeline_free(tl);
  ana_timeline_free(back);
  ana_ctx_free(c);
}

/* 20 000 frames deep: read with a stack of its own, not recursion. */
static void test_deep(void) {
  enum { DEPTH = 20000 };
  const char *node = "{\"callFrame\":{\"functionName\":\"f\",\"url\":"
                     "\"http://h/a.js\",\"lineNumber\":1,\"columnNumber\":"
                     "2},\"selfSize\":8,\"id\":1,\"children\":[";
  size_t nl = strlen(node), cap = DEPTH * (nl + 4) + 64;
  char *s = malloc(cap);
  size_t k = (size_t)snprintf(s, cap, "{\"head\":");
  for (int i = 0; i < DEPTH; i++, k += nl)
    memcpy(s + k, node, nl);
  for (int i = 0; i < DEPTH; i++, k += 2)
    memcpy(s + k, "]}", 2);
  k += (size_t)snprintf(s + k, cap - k, ",\"samples\":[]}");
  const char *path = zt_tmp("deep.heapprofile");
  zt_write(path, s, k);
  free(s);
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  ZT_INT(ana_load(c, path, &tl), ZC_OK);
  if (tl) {
    ZT_INT(tl->nodes[0].total, 8 * DEPTH);
    ZT_INT(tl->nnodes, DEPTH + 1); /* the root, "heap" (the head), frames */
    ZT_INT(tl->fig.retained, 0);
  }
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

static void test_bad(void) {
  static const char *const bad[] = {
      "",
      "[]",
      "{\"samples\":[]}",
      "{\"head\":{\"callFrame\":{\"functionName\":\"f\"},\"children\":[",
      "{\"head\":{\"children\":[1]}}",
      "{\"head\":{\"children\":[]}} x",
  };
  struct ana_ctx *c = ana_ctx_new();
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *path = zt_tmp("bad.heapprofile");
    zt_write_str(path, bad[i]);
    struct ana_timeline *tl = NULL;
    ZT_INT(ana_load(c, path, &tl), ZC_E_PARSE);
    ZT_TRUE(tl == NULL);
    ZT_HAS(zc_errmsg(), "bad.heapprofile");
  }
  /* An empty tree reads, but holds nothing to compare. */
  const char *path = zt_tmp("empty.heapprofile");
  zt_write_str(path, "{\"head\":{\"callFrame\":{},\"selfSize\":0,"
                     "\"children\":[]},\"samples\":[]}");
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_cmp *cmp = ana_cmp_new(&o, 0, NULL, 1, 9);
  ZT_INT(ana_cmp_add(cmp, path, path), ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "no allocation sampled");
  ana_cmp_free(cmp);
  ana_ctx_free(c);
}

/* Real profiles DevTools saved (tests/data/real-heap/, from speedscope's
 * samples): every function's self bytes as speedscope's importer reads
 * them (<name>.self.tsv), and nothing besides. */
static void check_devtools(const char *name) {
  char path[256];
  snprintf(path, sizeof path, "real-heap/%s.heapprofile.gz", name);
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  ZT_INT(ana_load(c, zt_data(path), &tl), ZC_OK);
  snprintf(path, sizeof path, "real-heap/%s.self.tsv", name);
  char *tsv = zt_read(zt_data(path));
  if (!ZT_TRUE(tl && tsv)) goto out;
  ZT_INT(tl->unit, ANA_UNIT_BYTES);
  ZT_INT(tl->fig.retained, 0);
  double want_total = 0;
  unsigned frames = 0, nonzero = 0;
  for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == '#') continue;
    char *f[5];
    int k = 0;
    for (char *p = line; k < 5; k++) {
      f[k] = p;
      p = strchr(p, '\t');
      if (!p) break;
      *p++ = '\0';
    }
    if (!ZT_INT(k, 4)) continue;
    int32_t ln = atoi(f[2]), col = atoi(f[3]);
    double want = atof(f[4]), got = 0;
    /* every node of that function, wherever it was called from */
    for (uint32_t i = 1; i < tl->nnodes; i++) {
      const struct ana_node *n = &tl->nodes[i];
      if (n->kind != ANA_THREAD && n->line == ln && n->col == col &&
          !strcmp(ana_str(c, n->name), f[0]) &&
          !strcmp(ana_str(c, n->url), f[1]))
        got += (double)n->self;
    }
    if (!ZT_NEAR(got, want, 0))
      fprintf(stderr, "  %s (%s:%d:%d)\n", f[0], f[1], ln, col);
    want_total += want;
    frames++;
  }
  for (uint32_t i = 1; i < tl->nnodes; i++)
    nonzero += tl->nodes[i].self > 0;
  ZT_TRUE(frames > 10);
  ZT_TRUE(nonzero >= frames); /* one function may be several nodes */
  ZT_NEAR((double)tl->nodes[0].total, want_total, 0);
out:
  free(tsv);
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

static void test_devtools(void) {
  check_devtools("chrome69");
  check_devtools("node10");
}

/* A gzip member holding n bytes of what (repeated), times times, appended
 * to f: many members inflate to a lot from little, as one gzip stream
 * would. */
static void gz_member(FILE *f, const char *what, size_t n, int times) {
  size_t w = strlen(what);
  char *raw = zc_xmalloc(n + 1);
  for (size_t i = 0; i < n; i++)
    raw[i] = what[i % w];
  uLongf cap = compressBound((uLong)n) + 32;
  unsigned char *z = zc_xmalloc(cap);
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
  zs.next_in = (unsigned char *)raw;
  zs.avail_in = (uInt)n;
  zs.next_out = z;
  zs.avail_out = (uInt)cap;
  deflate(&zs, Z_FINISH);
  for (int i = 0; i < times; i++)
    fwrite(z, 1, cap - zs.avail_out, f);
  deflateEnd(&zs);
  free(raw);
  free(z);
}

/* A heap profile that inflates to a gigabyte from about a megabyte, and
 * one of 6 M sibling nodes: each refused with its reason, at a part of
 * that memory (issue 38: 1 GB, and 753 MB). */
static void test_bombs(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *path = zt_tmp("bomb.heapprofile.gz");
  FILE *f = fopen(path, "wb");
  if (!ZT_TRUE(f != NULL)) return;
  gz_member(f, "{\"head\":{\"callFrame\":{},\"children\":[", 36, 1);
  gz_member(f, "{},", 3 << 20, 6); /* 6 M siblings, 18 MB */
  gz_member(f, "{}]}}", 5, 1);
  fclose(f);
  struct ana_timeline *tl = NULL;
  ZT_INT(ana_load(c, path, &tl), ZC_E_TOOBIG);
  ZT_HAS(zc_errmsg(), "bomb.heapprofile.gz: a heap profile of over 1048576 "
                      "call-tree nodes");
  f = fopen(path, "wb");
  if (!ZT_TRUE(f != NULL)) return;
  gz_member(f, "{\"head\":{\"callFrame\":{},\"children\":[]}", 36, 1);
  gz_member(f, " ", 1 << 20, 1024); /* 1 GB of spaces */
  gz_member(f, "}", 1, 1);
  fclose(f);
  ZT_INT(ana_load(c, path, &tl), ZC_E_TOOBIG);
  ZT_HAS(zc_errmsg(), "a heap profile that inflates past");
  ZT_TRUE(tl == NULL);
  /* ASan's quarantine keeps each buffer the reader outgrew: its bound is
   * looser, and still far below the gigabyte of before */
  double most = ZT_ASAN ? 800 : 400;
  ZT_TRUE(zc_peak_mb() < most);
  if (zc_peak_mb() >= most) fprintf(stderr, "  peak %.0f MB\n", zc_peak_mb());
  ana_ctx_free(c);
}

/* One function's allocation, old and new, in a profile sampled every
 * `interval` bytes (0: a profile that does not say, as DevTools'). */
static void write_one(const char *path, long bytes, long interval) {
  char t[512], z[128] = "";
  if (interval)
    snprintf(z, sizeof z, ",\"zamcap\":{\"sampling_interval_bytes\":%ld}",
             interval);
  snprintf(t, sizeof t,
           "{\"head\":{\"callFrame\":{\"functionName\":\"(root)\"},"
           "\"selfSize\":0,\"children\":[{\"callFrame\":{\"functionName\":"
           "\"onRun\",\"url\":\"http://a/x.js\",\"lineNumber\":3,"
           "\"columnNumber\":0},\"selfSize\":%ld,\"children\":[]}]}%s}",
           bytes, z);
  zt_write_str(path, t);
}

static unsigned causes_of(long old_bytes, long new_bytes, long interval) {
  const char *a = zt_tmp("one-old.heapprofile"),
             *b = zt_tmp("one-new.heapprofile");
  write_one(a, old_bytes, interval);
  write_one(b, new_bytes, interval);
  struct ana_opts o;
  ana_opts_default(&o);
  o.mu = 256;
  struct ana_cmp *c = ana_cmp_new(&o, 0, NULL, 1, 9);
  struct ana_outcome oc = {0};
  if (ZT_INT(ana_cmp_add(c, a, b), ZC_OK)) ana_cmp_outcome(c, -1, 5, &oc);
  ana_cmp_free(c);
  return oc.causes;
}

/* A sampled weight is known to about sqrt(interval * bytes): 4.7 MB
 * sampled every 32 KiB, to ±390 KB a run. +600 KB there is over μ and
 * within the noise (an A/A named such a function); sampled every 1 KiB
 * (±70 KB) it is a cause. A profile that does not say its interval is
 * taken at V8's default, 32 KiB. The one function is the whole profile,
 * so no spread-out cause names it either. */
static void test_sampled_noise(void) {
  ZT_INT(causes_of(4700000, 5300000, 32768), 0);
  ZT_INT(causes_of(4700000, 5300000, 0), 0);
  ZT_INT(causes_of(4700000, 5300000, 1024), 1);
  ZT_INT(causes_of(4700000, 4700000 + 3000000, 32768), 1);
}

/* A profile's own figures a page cannot have are none, and a selfSize
 * that is no byte count is an error that says where (issue 38, Low: a
 * negative heap, 300-digit numbers). */
static void test_bad_figures(void) {
  struct ana_ctx *c = ana_ctx_new();
  const char *path = zt_tmp("figs.heapprofile");
  zt_write_str(path, "{\"head\":{\"callFrame\":{\"functionName\":\"f\","
                     "\"url\":\"http://a/x.js\"},\"selfSize\":64,"
                     "\"children\":[]},\"zamcap\":{\"js_heap_used_bytes\":-5,"
                     "\"dom_nodes\":1e300,\"event_listeners\":3}}");
  struct ana_timeline *tl = NULL;
  ZT_INT(ana_load(c, path, &tl), ZC_OK);
  if (tl) {
    ZT_TRUE(isnan(tl->fig.heap_used_kb) && isnan(tl->fig.dom_nodes));
    ZT_NEAR(tl->fig.listeners, 3, 0);
  }
  ana_timeline_free(tl);
  static const char *const bad[] = {"-64", "1e300", "2e12"};
  for (size_t i = 0; i < 3; i++) {
    char t[256];
    snprintf(t, sizeof t,
             "{\"head\":{\"callFrame\":{},\"selfSize\":%s,\"children\":[]}}",
             bad[i]);
    zt_write_str(path, t);
    tl = NULL;
    ZT_INT(ana_load(c, path, &tl), ZC_E_PARSE);
    ZT_HAS(zc_errmsg(), "figs.heapprofile: byte 35: a selfSize that is no byte "
                        "count");
  }
  ana_ctx_free(c);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"real", test_real},
      {"compare", test_compare},
      {"export", test_export},
      {"deep", test_deep},
      {"bad", test_bad},
      {"devtools", test_devtools},
      {"bombs", test_bombs},
      {"bad_figures", test_bad_figures},
      {"sampled_noise", test_sampled_noise},
  };
  return ZT_RUN(cases, argc, argv);
}
