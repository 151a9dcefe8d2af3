/* zamcap compare: the paper's offline interface. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent.h"
#include "ana.h"
#include "capture.h"
#include "history.h"
#include "maps.h"
#include "tracker.h"
#include "zc-out.h"

/* A trace by its name (.json, .cpuprofile, either gzipped), or any .gz
 * whose bytes say gzip (trace.gz, profile.gz): dir/n is read to tell. */
static int is_trace_name(const char *dir, const char *n) {
  static const char *const ext[] = {".json", ".json.gz", ".cpuprofile",
                                    ".cpuprofile.gz"};
  size_t len = strlen(n);
  if (n[0] == '.') return 0;
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

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The traces of one side: a folder's trace files in name order, or one
 * file. */
static enum zc_err list_traces(const char *path, char ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  struct stat st;
  if (stat(path, &st) != 0)
    return zc_fail(ZC_E_IO, "%s: %s", path, strerror(errno));
  if (!S_ISDIR(st.st_mode)) {
    *out = zc_xmalloc(sizeof **out);
    (*out)[0] = zc_xstrdup(path);
    *n = 1;
    return ZC_OK;
  }
  DIR *d = opendir(path);
  if (!d) return zc_fail(ZC_E_IO, "%s: %s", path, strerror(errno));
  char **v = NULL;
  size_t len = 0, cap = 0;
  for (struct dirent *de; (de = readdir(d));) {
    if (!is_trace_name(path, de->d_name)) continue;
    ZC_GROW(v, cap, len + 1);
    size_t sz = strlen(path) + strlen(de->d_name) + 2;
    v[len] = zc_xmalloc(sz);
    snprintf(v[len], sz, "%s/%s", path, de->d_name);
    len++;
  }
  closedir(d);
  if (len) qsort(v, len, sizeof *v, cmp_str);
  *out = v;
  *n = len;
  if (!len)
    return zc_fail(ZC_E_USAGE,
                   "%s: no trace files (.json, .json.gz, "
                   ".cpuprofile) in this folder",
                   path);
  return ZC_OK;
}

/* "old-12.json.gz" (ZC_OUT_TRACE_FMT, "<build>-<i>", and an extension)
 * -> side 0, number 12; -1 when the name is not a run's trace. */
static const char *const trace_side[2] = {ZC_OUT_OLD, ZC_OUT_NEW};

static int run_trace_name(const char *dir, const char *n, unsigned *num) {
  for (int side = 0; side < 2; side++) {
    size_t bl = strlen(trace_side[side]);
    const char *d = n + bl + 1; /* the digits after "<build>-" */
    if (strncmp(n, trace_side[side], bl) || n[bl] != '-' || *d < '0' ||
        *d > '9' || !is_trace_name(dir, n))
      continue;
    char *end;
    unsigned long v = strtoul(d, &end, 10);
    if (*end != '.' || !v || v > 100000) return -1;
    *num = (unsigned)v;
    return side;
  }
  return -1;
}

/* A run's traces: RUN_DIR/traces/ (or RUN_DIR itself), old-<i> paired with
 * new-<i> in order of i; a pair with one side missing (dropped) is left
 * out. */
static enum zc_err list_run(const char *run, char ***oldf, char ***newf,
                            size_t *n) {
  *oldf = *newf = NULL;
  *n = 0;
  char dir[4096];
  struct stat st;
  snprintf(dir, sizeof dir, "%s/" ZC_OUT_TRACES, run);
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    snprintf(dir, sizeof dir, "%s", run);
  DIR *d = opendir(dir);
  if (!d) return zc_fail(ZC_E_IO, "%s: %s", dir, strerror(errno));
  char **side[2] = {NULL, NULL}; /* by trace number */
  size_t cap[2] = {0, 0};
  unsigned top = 0;
  for (struct dirent *de; (de = readdir(d));) {
    unsigned num;
    int sd = run_trace_name(dir, de->d_name, &num);
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
  closedir(d);
  size_t k = 0;
  for (unsigned i = 1; i <= top; i++) {
    if (side[0][i] && side[1][i]) {
      side[0][k] = side[0][i];
      side[1][k] = side[1][i];
      if (k != i) side[0][i] = side[1][i] = NULL;
      k++;
    } else {
      if (side[0][i] || side[1][i])
        zc_log(1, "pair %u has only its %s trace: left out", i,
               trace_side[side[0][i] ? 0 : 1]);
      free(side[0][i]);
      free(side[1][i]);
      side[0][i] = side[1][i] = NULL;
    }
  }
  *oldf = side[0];
  *newf = side[1];
  *n = k;
  if (!k)
    return zc_fail(ZC_E_USAGE,
                   "%s: no pair of old-<i> and new-<i> traces "
                   "(give OLD_DIR and NEW_DIR for other names)",
                   dir);
  return ZC_OK;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

static int compare_exec(const struct agent_args *a) {
  struct ana_opts o = a->ana;
  unsigned maxpairs = a->max_pairs;
  const char *outarg = a->out;
  int drop = a->drop_markers;
  /* report.json is what the history records from */
  struct ana_report_in in = {.command = "compare",
                             .formats = a->formats |
                                        (a->no_history ? 0u : ANA_FMT_JSON),
                             .threshold_ms = a->threshold_ms,
                             .threshold_pct = a->threshold_pct};
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
  char **oldf = NULL, **newf = NULL, *out = NULL;
  size_t nold = 0, nnew = 0;
  unsigned npairs = 0;
  struct ana_outcome res;
  struct agent_maps *maps = NULL;
  enum zc_err e;
  if (newdir) {
    if (!(e = list_traces(olddir, &oldf, &nold)))
      e = list_traces(newdir, &newf, &nnew);
  } else {
    e = list_run(olddir, &oldf, &newf, &nold);
    nnew = nold;
  }
  if (e) goto fail;
  npairs = (unsigned)(nold < nnew ? nold : nnew);
  if (nold != nnew)
    zc_log(1, "%zu old and %zu new traces: comparing %u pairs", nold, nnew,
           npairs);
  if (maxpairs && maxpairs < npairs) npairs = maxpairs;
  if (o.quorum > npairs) {
    e = zc_fail(ZC_E_USAGE, "--quorum %u is more than the %u pairs compared",
                o.quorum, npairs);
    goto fail;
  }
  if ((e = agent_outdir(outarg, &out))) goto fail;
  if (!a->no_source_maps) {
    /* A run folder's own maps (read only), then --source-maps. */
    char store[4200];
    snprintf(store, sizeof store, "%s/" ZC_OUT_SOURCEMAPS, olddir);
    maps = agent_maps_new(newdir ? NULL : store, 0);
    if ((e = agent_maps_open_store(maps))) goto fail;
    for (unsigned i = 0; i < a->nsource_maps; i++) {
      const char *v = a->source_maps[i], *eq = strchr(v, '=');
      char *prefix = eq && strstr(v, "://") && strstr(v, "://") < eq
                         ? zc_xstrndup(v, (size_t)(eq - v))
                         : NULL;
      agent_maps_root(maps, prefix, prefix ? eq + 1 : v);
      free(prefix);
    }
    in.maps = agent_maps_ana(maps);
  }
  if ((e = ana_analyze((const char *const *)oldf, (const char *const *)newf,
                       npairs, &o, drop, out, &in, &res)))
    goto fail;
  rc = ana_exit_code(&res);
  long long run_id =
      agent_history_record(a, out, newdir ? NULL : olddir, "compare");
  rc = agent_tracker_after(a, out, run_id, rc);
  goto out;
fail:
  zc_error("%s", zc_errmsg());
  rc = zc_exit_for(e, ZC_STAGE_INPUT);
out:
  free_list(oldf, nold);
  free_list(newf, nnew);
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
        "RUN_DIR is the output\nfolder of a run (or its traces/ folder): "
        "old-<i> is paired with new-<i>,\nto analyse a capture again, say "
        "with another --mu.\n",
    .after = "Writes OUT/report.html, OUT/summary.md, OUT/report.json,\n"
             "OUT/critical-graph.dot (and .svg with Graphviz), "
             "OUT/pairs/pair-<i>.dot\nand prints the regression-causes and the "
             "end-to-end figures.\nExit: 0 none, 1 found, 2 bad input, 3 "
             "--tracker failed with nothing\nfound, 5 inconclusive (a "
             "candidate the pairs could not decide).\n",
    .exec = compare_exec,
};
