/* zamcap compare: the paper's offline interface. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ana.h"
#include "capture.h"
#include "cmd.h"
#include "maps.h"
#include "outbox.h"
#include "zc-out.h"

/* A sampling heap profile by its name (.heapprofile, gzipped or not). */
static int is_heap_name(const char *n) {
  static const char *const ext[] = {".heapprofile", ".heapprofile.gz"};
  size_t len = strlen(n);
  if (n[0] == '.') return 0;
  for (size_t i = 0; i < ZC_ARRAY_LEN(ext); i++) {
    size_t el = strlen(ext[i]);
    if (len > el && strcmp(n + len - el, ext[i]) == 0) return 1;
  }
  return 0;
}

/* A trace by its name (.json, .cpuprofile, either gzipped), or any .gz
 * whose bytes say gzip (trace.gz, profile.gz) and is no heap profile:
 * dir/n is read to tell. */
static int is_trace_name(const char *dir, const char *n) {
  static const char *const ext[] = {".json", ".json.gz", ".cpuprofile",
                                    ".cpuprofile.gz"};
  size_t len = strlen(n);
  if (n[0] == '.' || is_heap_name(n)) return 0;
  for (size_t i = 0; i < ZC_ARRAY_LEN(ext); i++) {
    size_t el = strlen(ext[i]);
    if (len > el && strcmp(n + len - el, ext[i]) == 0) return 1;
  }
  if (len <= 3 || strcmp(n + len - 3, ".gz")) return 0;
  char path[4200];
  unsigned char magic[2] = {0, 0};
  snprintf(path, sizeof path, "%s/%s", dir, n);
  FILE *f = fopen(path, "rb");
  int gz =
      f && fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  if (f) fclose(f);
  return gz;
}

/* What compare reads, of two kinds: traces (time) and sampling heap
 * profiles (allocation), each paired with its own kind. */
enum { K_TRACE, K_HEAP, K_CALLS, K_KINDS };
static const char *const kind_name[K_KINDS] = {"trace", "heap profile",
                                               "call counts file"};

/* A count run's calls (zamcap-calls/1) by its name. */
static int is_calls_name(const char *n) {
  size_t len = strlen(n), el = strlen(".calls.json");
  return n[0] != '.' && len > el && !strcmp(n + len - el, ".calls.json");
}

/* Which kind dir/n is, or -1: none. */
static int file_kind(const char *dir, const char *n) {
  return is_calls_name(n)        ? K_CALLS
         : is_heap_name(n)       ? K_HEAP
         : is_trace_name(dir, n) ? K_TRACE
                                 : -1;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of one side: a folder's traces and heap profiles, each kind
 * in name order, or one file (a heap profile by its name). */
static enum zc_err list_traces(const char *path, char **out[K_KINDS],
                               size_t n[K_KINDS]) {
  for (int k = 0; k < K_KINDS; k++) {
    out[k] = NULL;
    n[k] = 0;
  }
  struct stat st;
  if (stat(path, &st) != 0)
    return zc_fail(ZC_E_IO, "%s: %s", path, strerror(errno));
  if (!S_ISDIR(st.st_mode)) {
    const char *b = strrchr(path, '/');
    int k = file_kind(".", b ? b + 1 : path);
    if (k < 0) k = K_TRACE;
    out[k] = zc_xmalloc(sizeof **out);
    out[k][0] = zc_xstrdup(path);
    n[k] = 1;
    return ZC_OK;
  }
  DIR *d = opendir(path);
  if (!d) return zc_fail(ZC_E_IO, "%s: %s", path, strerror(errno));
  size_t cap[K_KINDS] = {0};
  for (struct dirent *de; (de = readdir(d));) {
    int k = file_kind(path, de->d_name);
    if (k < 0) continue;
    ZC_GROW(out[k], cap[k], n[k] + 1);
    size_t sz = strlen(path) + strlen(de->d_name) + 2;
    out[k][n[k]] = zc_xmalloc(sz);
    snprintf(out[k][n[k]], sz, "%s/%s", path, de->d_name);
    n[k]++;
  }
  closedir(d);
  for (int k = 0; k < K_KINDS; k++)
    if (n[k]) qsort(out[k], n[k], sizeof *out[k], cmp_str);
  if (!n[K_TRACE] && !n[K_HEAP])
    return zc_fail(ZC_E_USAGE,
                   "%s: no trace files (.json, .json.gz, "
                   ".cpuprofile) or heap profiles (.heapprofile) in this "
                   "folder",
                   path);
  return ZC_OK;
}

/* "old-12.json.gz" (ZC_OUT_TRACE_FMT, "<build>-<i>", and an extension)
 * -> side 0, number 12 of a trace; "new-mem-3.heapprofile"
 * (ZC_OUT_MEM_FMT) -> side 1, number 3 of a heap profile; -1 when the
 * name is not a run's file of kind. */
static const char *const trace_side[2] = {ZC_OUT_OLD, ZC_OUT_NEW};

static int run_trace_name(const char *dir, const char *n, int kind,
                          unsigned *num) {
  for (int side = 0; side < 2; side++) {
    size_t bl = strlen(trace_side[side]);
    const char *d = n + bl + 1; /* after "<build>-" */
    if (strncmp(n, trace_side[side], bl) || n[bl] != '-') continue;
    if (kind == K_HEAP && strncmp(d, "mem-", 4)) continue;
    if (kind == K_HEAP) d += 4;
    if (kind == K_CALLS && strncmp(d, "calls-", 6)) continue;
    if (kind == K_CALLS) d += 6;
    if (*d < '0' || *d > '9' || file_kind(dir, n) != kind) continue;
    char *end;
    unsigned long v = strtoul(d, &end, 10);
    if (*end != '.' || !v || v > 100000) return -1;
    *num = (unsigned)v;
    return side;
  }
  return -1;
}

/* A run's files of one kind in dir: old-<i> paired with new-<i> (or
 * old-mem-<i> with new-mem-<i>) in order of i; a pair with one side
 * missing (dropped) is left out with a word. */
static void run_pairs_of(DIR *d, const char *dir, int kind, char ***oldf,
                         char ***newf, size_t *n) {
  char **side[2] = {NULL, NULL}; /* by number */
  size_t cap[2] = {0, 0};
  unsigned top = 0;
  rewinddir(d);
  for (struct dirent *de; (de = readdir(d));) {
    unsigned num;
    int sd = run_trace_name(dir, de->d_name, kind, &num);
    if (sd < 0) continue;
    for (int k = 0; k < 2; k++) {
      size_t was = cap[k];
      ZC_GROW(side[k], cap[k], (size_t)num + 1);
      memset(side[k] + was, 0, (cap[k] - was) * sizeof *side[k]);
    }
    if (num > top) top = num;
    size_t sz = strlen(dir) + strlen(de->d_name) + 2;
    char *path = zc_xmalloc(sz);
    snprintf(path, sz, "%s/%s", dir, de->d_name);
    /* old-1.json beside old-1.json.gz: the name that sorts first, whatever
     * order readdir gives. */
    if (side[sd][num] && strcmp(side[sd][num], path) < 0) {
      free(path);
      continue;
    }
    free(side[sd][num]);
    side[sd][num] = path;
  }
  size_t k = 0;
  for (unsigned i = 1; i <= top; i++) {
    if (side[0][i] && side[1][i]) {
      side[0][k] = side[0][i];
      side[1][k] = side[1][i];
      if (k != i) side[0][i] = side[1][i] = NULL;
      k++;
    } else {
      if (side[0][i] || side[1][i])
        zc_log(1, "%spair %u has only its %s %s: left out",
               kind == K_HEAP    ? "memory "
               : kind == K_CALLS ? "count "
                                 : "",
               i, trace_side[side[0][i] ? 0 : 1], kind_name[kind]);
      free(side[0][i]);
      free(side[1][i]);
      side[0][i] = side[1][i] = NULL;
    }
  }
  *oldf = side[0];
  *newf = side[1];
  *n = k;
}

/* A run's traces and heap profiles: RUN_DIR/traces/ (or RUN_DIR
 * itself), each kind paired by number. */
static enum zc_err list_run(const char *run, char **oldf[K_KINDS],
                            char **newf[K_KINDS], size_t n[K_KINDS]) {
  for (int k = 0; k < K_KINDS; k++) {
    oldf[k] = newf[k] = NULL;
    n[k] = 0;
  }
  char dir[4096];
  struct stat st;
  snprintf(dir, sizeof dir, "%s/" ZC_OUT_TRACES, run);
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    snprintf(dir, sizeof dir, "%s", run);
  DIR *d = opendir(dir);
  if (!d) return zc_fail(ZC_E_IO, "%s: %s", dir, strerror(errno));
  for (int k = 0; k < K_KINDS; k++)
    run_pairs_of(d, dir, k, &oldf[k], &newf[k], &n[k]);
  closedir(d);
  if (!n[K_TRACE] && !n[K_HEAP])
    return zc_fail(ZC_E_USAGE,
                   "%s: no pair of old-<i> and new-<i> traces or "
                   "old-mem-<i> and new-mem-<i> heap profiles "
                   "(give OLD_DIR and NEW_DIR for other names)",
                   dir);
  return ZC_OK;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

/* How many pairs of each kind to compare: as many as both sides have
 * (a word when they differ), at most --pairs. */
static void count_pairs(const size_t nold[K_KINDS], const size_t nnew[K_KINDS],
                        unsigned maxpairs, unsigned np[K_KINDS]) {
  for (int k = 0; k < K_KINDS; k++) {
    np[k] = (unsigned)(nold[k] < nnew[k] ? nold[k] : nnew[k]);
    if (nold[k] != nnew[k] && np[k])
      zc_log(1, "%zu old and %zu new %ss: comparing %u pairs", nold[k], nnew[k],
             kind_name[k], np[k]);
    if (maxpairs && maxpairs < np[k]) np[k] = maxpairs;
  }
}

/* The source maps: a run folder's own (read only), then --source-maps. */
static enum zc_err open_maps(const struct agent_args *a, const char *olddir,
                             const char *newdir, struct agent_maps **out) {
  char store[4200];
  snprintf(store, sizeof store, "%s/" ZC_OUT_SOURCEMAPS, olddir);
  struct agent_maps *maps = agent_maps_new(newdir ? NULL : store, 0);
  *out = maps;
  enum zc_err e = agent_maps_open_store(maps);
  if (e) return e;
  for (unsigned i = 0; i < a->nsource_maps; i++) {
    const char *v = a->source_maps[i], *eq = strchr(v, '=');
    char *prefix = eq && strstr(v, "://") && strstr(v, "://") < eq
                       ? zc_xstrndup(v, (size_t)(eq - v))
                       : NULL;
    agent_maps_root(maps, prefix, prefix ? eq + 1 : v);
    free(prefix);
  }
  return ZC_OK;
}

static int compare_exec(const struct agent_args *a) {
  struct ana_opts o = a->ana;
  /* report.json is what the history records from */
  struct ana_report_in in = {.command = "compare",
                             .formats = a->formats |
                                        (a->no_history ? 0u : ANA_FMT_JSON),
                             .threshold_ms = a->threshold_ms,
                             .threshold_pct = a->threshold_pct,
                             .mem_mu = a->memory_mu_kb};
  if (a->noperands != 2 && a->noperands != 1)
    return agent_usage_error("compare", "compare wants OLD_DIR and NEW_DIR, "
                                        "or a run's RUN_DIR");
  const char *olddir = a->operands[0];
  const char *newdir = a->noperands == 2 ? a->operands[1] : NULL;
  struct agent_tracker trk;
  char why[512];
  if (!agent_tracker_from_args(a, &trk, why, sizeof why))
    return agent_usage_error("compare", "%s", why);

  int rc = ZC_EXIT_USAGE;
  char **oldf[K_KINDS] = {NULL, NULL}, **newf[K_KINDS] = {NULL, NULL};
  char *out = NULL;
  size_t nold[K_KINDS] = {0, 0}, nnew[K_KINDS] = {0, 0};
  unsigned np[K_KINDS];
  struct ana_outcome res;
  struct agent_maps *maps = NULL;
  enum zc_err e;
  if (newdir) {
    if (!(e = list_traces(olddir, oldf, nold)))
      e = list_traces(newdir, newf, nnew);
  } else {
    e = list_run(olddir, oldf, newf, nold);
    memcpy(nnew, nold, sizeof nnew);
  }
  if (e) goto fail;
  count_pairs(nold, nnew, a->cmp_pairs, np);
  if (!np[K_TRACE] && !np[K_HEAP]) {
    e = zc_fail(ZC_E_USAGE,
                "%s and %s: no trace or heap profile of the same kind on "
                "both sides",
                olddir, newdir ? newdir : olddir);
    goto fail;
  }
  unsigned most = np[K_TRACE] ? np[K_TRACE] : np[K_HEAP];
  if (o.quorum > most) {
    e = zc_fail(ZC_E_USAGE, "--quorum %u is more than the %u pairs compared",
                o.quorum, most);
    goto fail;
  }
  if ((e = agent_outdir(a->out, &out))) goto fail;
  if (!a->no_source_maps) {
    if ((e = open_maps(a, olddir, newdir, &maps))) goto fail;
    in.maps = agent_maps_ana(maps);
  }
  in.mem_old = (const char *const *)oldf[K_HEAP];
  in.mem_new = (const char *const *)newf[K_HEAP];
  in.mem_pairs = np[K_HEAP];
  in.calls_old = (const char *const *)oldf[K_CALLS];
  in.calls_new = (const char *const *)newf[K_CALLS];
  in.calls_pairs = np[K_CALLS];
  if ((e = ana_analyze((const char *const *)oldf[K_TRACE],
                       (const char *const *)newf[K_TRACE], np[K_TRACE], &o,
                       a->drop_markers, out, &in, &res)))
    goto fail;
  rc = ana_exit_code(&res);
  long long run_id = agent_record(a, out, newdir ? NULL : olddir, "compare");
  rc = agent_tracker_after(a, out, run_id, rc);
  goto out;
fail:
  zc_error("%s", zc_errmsg());
  rc = zc_exit_for(e, ZC_STAGE_INPUT);
out:
  for (int k = 0; k < K_KINDS; k++) {
    free_list(oldf[k], nold[k]);
    free_list(newf[k], nnew[k]);
  }
  agent_maps_free(maps);
  free(out);
  return rc;
}

const struct agent_cmd agent_cmd_compare = {
    .name = "compare",
    .bit = AGENT_COMPARE,
    .usage = "usage: zamcap compare OLD_DIR NEW_DIR [OPTIONS]\n"
             "       zamcap compare RUN_DIR [OPTIONS]",
    .about =
        "Compares saved Chrome traces (.json, .json.gz, .cpuprofile) of an "
        "old\nand a new build. Traces are paired in file-name order; each "
        "pair gives\na critical graph, and the graphs are intersected. "
        "Sampling heap profiles\n(.heapprofile, DevTools' Memory panel's) "
        "are paired with each other and\ncompared the same way in KB "
        "(allocation, as --memory does).\nRUN_DIR is the output folder of a "
        "run (or its traces/ folder): old-<i>\nis paired with new-<i> and "
        "old-mem-<i> with new-mem-<i>, to analyse a\ncapture again, say with "
        "another --mu.\n",
    .after = "Writes OUT/report.html, OUT/summary.md, OUT/report.json,\n"
             "OUT/critical-graph.dot (and .svg with Graphviz), "
             "OUT/pairs/pair-<i>.dot\nand prints the regression-causes and the "
             "end-to-end figures.\n",
    .exec = compare_exec,
};
