/* zamcap compare / zamcap tree: the paper's offline interface. */
#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent.h"
#include "ana.h"

static const char compare_usage[] =
    "usage: zamcap compare OLD_DIR NEW_DIR [OPTIONS]\n"
    "\n"
    "Compares saved Chrome traces (.json, .json.gz, .cpuprofile) of an old\n"
    "and a new build. Traces are paired in file-name order; each pair gives\n"
    "a critical graph, and the graphs are intersected.\n"
    "\n"
    "  --mu MS           smallest regression reported (default 50)\n"
    "  --pairs N         compare at most N pairs (default: all)\n"
    "  --quorum K        keep nodes found in K pairs (default: all pairs)\n"
    "  --out DIR         output folder (default zamcap-out/<UTC time>/)\n"
    "  --lcs-budget MS   time for one LCS before the hash matcher takes\n"
    "                    over (default 10000)\n"
    "  --drop-markers    leave (program), (idle), (garbage collector) out\n"
    "  -q, --quiet       no progress on stderr\n"
    "  -v, --verbose     more detail on stderr\n"
    "  -h, --help        this text\n"
    "\n"
    "Writes OUT/critical-graph.dot, OUT/pairs/pair-<i>.dot, OUT/report.json\n"
    "and prints the regression-causes. Exit: 0 none, 1 found, 2 bad input.\n";

static int is_trace_name(const char *n) {
  static const char *const ext[] = {".json", ".json.gz", ".cpuprofile",
                                    ".cpuprofile.gz"};
  size_t len = strlen(n);
  if (n[0] == '.') return 0;
  for (size_t i = 0; i < ZC_ARRAY_LEN(ext); i++) {
    size_t el = strlen(ext[i]);
    if (len > el && strcmp(n + len - el, ext[i]) == 0) return 1;
  }
  return 0;
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
    if (!is_trace_name(de->d_name)) continue;
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
    return zc_fail(ZC_E_USAGE, "%s: no trace files (.json, .json.gz, "
                   ".cpuprofile) in this folder", path);
  return ZC_OK;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

/* Writes path through fn, atomically: a .part file renamed into place. */
static enum zc_err write_file(const char *path,
                              enum zc_err (*fn)(void *, FILE *), void *arg) {
  size_t n = strlen(path) + 8;
  char *tmp = zc_xmalloc(n);
  snprintf(tmp, n, "%s.part", path);
  enum zc_err e = ZC_OK;
  FILE *f = fopen(tmp, "w");
  if (!f) {
    e = zc_fail(ZC_E_IO, "%s: cannot create: %s", tmp, strerror(errno));
  } else {
    e = fn(arg, f);
    if (!e && ferror(f))
      e = zc_fail(ZC_E_IO, "%s: write failed: %s", tmp, strerror(errno));
    if (fclose(f) != 0 && !e)
      e = zc_fail(ZC_E_IO, "%s: write failed: %s", tmp, strerror(errno));
    if (!e && rename(tmp, path) != 0)
      e = zc_fail(ZC_E_IO, "%s: %s", path, strerror(errno));
    if (e) remove(tmp);
  }
  free(tmp);
  return e;
}

struct dot_arg {
  const struct ana_graph *g;
  const char *title;
  double mu;
};

static enum zc_err dot_fn(void *arg, FILE *f) {
  const struct dot_arg *d = arg;
  return ana_write_dot(d->g, d->title, f);
}

static enum zc_err md_fn(void *arg, FILE *f) {
  const struct dot_arg *d = arg;
  ana_write_summary_md(d->g, d->mu, f);
  return ZC_OK;
}

static enum zc_err write_dot(const struct ana_graph *g, const char *path,
                             const char *title) {
  struct dot_arg d = {g, title, 0};
  return write_file(path, dot_fn, &d);
}

/* critical-graph.svg when Graphviz is there; the report works without. */
static void draw_svg(const char *out) {
  char cmd[8400];
  snprintf(cmd, sizeof cmd, "command -v dot >/dev/null 2>&1 && dot -Tsvg "
           "'%s/critical-graph.dot' -o '%s/critical-graph.svg' 2>/dev/null",
           out, out);
  if (!strchr(out, '\'') && system(cmd) == 0)
    zc_log(2, "drew %s/critical-graph.svg", out);
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Loads and prunes one trace; a trace without CPU samples is an input
 * error, since there is nothing to compare. */
static enum zc_err load_one(struct ana_ctx *ctx, const char *path,
                            int drop_markers, struct ana_bottomup *bu,
                            int side, struct ana_timeline **out) {
  double t0 = zc_now_ms();
  enum zc_err e = ana_load(ctx, path, out);
  if (e) return e;
  struct ana_timeline *tl = *out;
  if (!tl->samples) {
    ana_timeline_free(tl);
    *out = NULL;
    return zc_fail(ZC_E_PARSE, "%s: no CPU profile samples in this trace "
                   "(record it with the 'disabled-by-default-v8.cpu_profiler' "
                   "category, as the DevTools Performance panel does)", path);
  }
  if (bu) ana_bu_add(bu, tl, side);
  ana_prune(tl, ANA_PRUNE_NAMES | (drop_markers ? ANA_PRUNE_MARKERS : 0u));
  zc_log(2, "%s: %.1f MB, %llu events, %llu samples, %u nodes, %.0f ms",
         path, (double)tl->bytes / 1e6, (unsigned long long)tl->events,
         (unsigned long long)tl->samples, tl->nnodes - tl->pruned_nodes,
         zc_now_ms() - t0);
  return ZC_OK;
}

enum zc_err agent_analyze(const char *const *oldf, const char *const *newf,
                          unsigned npairs, const struct ana_opts *o,
                          int drop, const char *out, unsigned *causes) {
  *causes = 0;
  struct ana_ctx *ctx = ana_ctx_new();
  struct ana_bottomup *bu = ana_bu_new(ctx);
  struct ana_graph **graphs = zc_xcalloc(npairs ? npairs : 1, sizeof *graphs);
  struct ana_graph *agg = NULL;
  uint32_t *onodes = zc_xcalloc(npairs ? npairs : 1, sizeof *onodes);
  uint32_t *nnodes = zc_xcalloc(npairs ? npairs : 1, sizeof *nnodes);
  struct ana_timeline *ot = NULL, *nt = NULL;
  struct ana_stats stats = {0, 0, 0};
  unsigned done = 0;
  double t0 = zc_now_ms();
  char path[4096];
  snprintf(path, sizeof path, "%s/pairs", out);
  enum zc_err e = agent_mkdirs(path);
  for (unsigned p = 0; !e && p < npairs; p++) {
    double tp = zc_now_ms();
    if ((e = load_one(ctx, oldf[p], drop, bu, 0, &ot)) ||
        (e = load_one(ctx, newf[p], drop, bu, 1, &nt)))
      break;
    onodes[p] = ana_tl_reachable(ot);
    nnodes[p] = ana_tl_reachable(nt);
    if ((e = ana_critical(ot, nt, o, &stats, &graphs[p]))) break;
    ana_timeline_free(ot);
    ana_timeline_free(nt);
    ot = nt = NULL;
    done = p + 1;
    char title[512];
    snprintf(path, sizeof path, "%s/pairs/pair-%u.dot", out, p + 1);
    snprintf(title, sizeof title, "pair %u: %s vs %s (mu = %g ms)", p + 1,
             base_name(oldf[p]), base_name(newf[p]), o->mu_ms);
    if ((e = write_dot(graphs[p], path, title))) break;
    zc_log(1, "pair %u/%u: %s vs %s: %u regression-cause%s (%.1f s)", p + 1,
           npairs, base_name(oldf[p]), base_name(newf[p]),
           ana_graph_causes(graphs[p]),
           ana_graph_causes(graphs[p]) == 1 ? "" : "s",
           (zc_now_ms() - tp) / 1e3);
  }
  if (!e) {
    agg = ana_aggregate(graphs, npairs, o->quorum);
    char title[256];
    snprintf(path, sizeof path, "%s/critical-graph.dot", out);
    snprintf(title, sizeof title, "critical graph: %u pair%s, mu = %g ms%s",
             npairs, npairs == 1 ? "" : "s", o->mu_ms,
             o->quorum && o->quorum < npairs ? ", quorum" : "");
    e = write_dot(agg, path, title);
    if (!e) {
      struct dot_arg d = {agg, NULL, o->mu_ms};
      snprintf(path, sizeof path, "%s/summary.md", out);
      e = write_file(path, md_fn, &d);
    }
    if (!e) draw_svg(out);
  }
  if (!e) {
    struct ana_report r = {
        .version = ZAMCAP_VERSION,
        .command = "compare",
        .opts = o,
        .drop_markers = drop,
        .npairs = npairs,
        .old_files = oldf,
        .new_files = newf,
        .old_nodes = onodes,
        .new_nodes = nnodes,
        .pairs = graphs,
        .agg = agg,
        .bu = bu,
        .stats = &stats,
        .elapsed_ms = zc_now_ms() - t0,
        .bottomup_max = 500,
    };
    snprintf(path, sizeof path, "%s/report.json", out);
    e = ana_write_report_json(&r, path);
  }
  if (!e) {
    ana_write_summary(agg, o->mu_ms, stdout);
    fflush(stdout);
    *causes = ana_graph_causes(agg);
    zc_log(1, "report in %s/ (%.1f s)", out, (zc_now_ms() - t0) / 1e3);
  } else if (done) {
    struct zc_errsave sv;
    zc_err_save(&sv);
    zc_fail(sv.code, "%s (the graphs of the %u pair%s done are in %s/pairs/)",
            sv.msg, done, done == 1 ? "" : "s", out);
  }
  ana_timeline_free(ot);
  ana_timeline_free(nt);
  for (unsigned p = 0; p < npairs; p++) ana_graph_free(graphs[p]);
  free(graphs);
  ana_graph_free(agg);
  free(onodes);
  free(nnodes);
  ana_bu_free(bu);
  ana_ctx_free(ctx);
  return e;
}

int agent_compare(int argc, char **argv) {
  static const struct option opts[] = {
      {"mu", required_argument, NULL, 'm'},
      {"pairs", required_argument, NULL, 'p'},
      {"quorum", required_argument, NULL, 'k'},
      {"out", required_argument, NULL, 'o'},
      {"lcs-budget", required_argument, NULL, 'b'},
      {"drop-markers", no_argument, NULL, 'd'},
      {"quiet", no_argument, NULL, 'q'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  struct ana_opts o;
  ana_opts_default(&o);
  unsigned maxpairs = 0;
  const char *outarg = NULL;
  int drop = 0, c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "qvh", opts, NULL)) != -1) {
    switch (c) {
    case 'm':
      if (!agent_parse_ms(optarg, &o.mu_ms) || o.mu_ms <= 0)
        return agent_usage_error("compare", "--mu wants milliseconds > 0, "
                                 "not '%s'", optarg);
      break;
    case 'p':
      if (!agent_parse_uint(optarg, &maxpairs) || !maxpairs)
        return agent_usage_error("compare", "--pairs wants a count >= 1, "
                                 "not '%s'", optarg);
      break;
    case 'k':
      if (!agent_parse_uint(optarg, &o.quorum) || !o.quorum)
        return agent_usage_error("compare", "--quorum wants a count >= 1, "
                                 "not '%s'", optarg);
      break;
    case 'o': outarg = optarg; break;
    case 'b':
      if (!agent_parse_ms(optarg, &o.lcs_budget_ms))
        return agent_usage_error("compare", "--lcs-budget wants "
                                 "milliseconds, not '%s'", optarg);
      break;
    case 'd': drop = 1; break;
    case 'q': zc_verbosity = 0; break;
    case 'v': zc_verbosity = 2; break;
    case 'h': fputs(compare_usage, stdout); return 0;
    default: return agent_usage_error("compare", "bad option");
    }
  }
  if (argc - optind != 2)
    return agent_usage_error("compare", "compare wants OLD_DIR and NEW_DIR");
  const char *olddir = argv[optind], *newdir = argv[optind + 1];

  int rc = AGENT_EXIT_USAGE;
  char **oldf = NULL, **newf = NULL, *out = NULL;
  size_t nold = 0, nnew = 0;
  unsigned npairs = 0, causes = 0;
  enum zc_err e;
  if ((e = list_traces(olddir, &oldf, &nold)) ||
      (e = list_traces(newdir, &newf, &nnew)))
    goto fail;
  npairs = (unsigned)(nold < nnew ? nold : nnew);
  if (nold != nnew)
    zc_log(1, "%zu old and %zu new traces: comparing %u pairs", nold, nnew,
           npairs);
  if (maxpairs && maxpairs < npairs) npairs = maxpairs;
  if (o.quorum > npairs) {
    zc_fail(ZC_E_USAGE, "--quorum %u is more than the %u pairs compared",
            o.quorum, npairs);
    goto fail;
  }
  if ((e = agent_outdir(outarg, &out))) goto fail;
  if ((e = agent_analyze((const char *const *)oldf, (const char *const *)newf,
                         npairs, &o, drop, out, &causes)))
    goto fail;
  rc = causes ? AGENT_EXIT_FOUND : AGENT_EXIT_NONE;
  goto out;
fail:
  fprintf(stderr, "zamcap: %s\n", zc_errmsg());
  rc = e == ZC_E_INTERNAL ? AGENT_EXIT_INTERNAL : AGENT_EXIT_USAGE;
out:
  free_list(oldf, nold);
  free_list(newf, nnew);
  free(out);
  return rc;
}

static const char tree_usage[] =
    "usage: zamcap tree TRACE [OPTIONS]\n"
    "\n"
    "Prints the pruned call tree zamcap builds from one trace: per thread,\n"
    "the top-down aggregated calls with total and self milliseconds.\n"
    "\n"
    "  --min MS          hide nodes under MS milliseconds (default 1)\n"
    "  --no-prune        keep anonymous and one-letter functions\n"
    "  --drop-markers    leave (program), (idle), (garbage collector) out\n"
    "  -h, --help        this text\n";

int agent_tree(int argc, char **argv) {
  static const struct option opts[] = {
      {"min", required_argument, NULL, 'm'},
      {"no-prune", no_argument, NULL, 'n'},
      {"drop-markers", no_argument, NULL, 'd'},
      {"quiet", no_argument, NULL, 'q'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  double min_ms = 1;
  int prune = 1, drop = 0, c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "qvh", opts, NULL)) != -1) {
    switch (c) {
    case 'm':
      if (!agent_parse_ms(optarg, &min_ms))
        return agent_usage_error("tree", "--min wants milliseconds, not "
                                 "'%s'", optarg);
      break;
    case 'n': prune = 0; break;
    case 'd': drop = 1; break;
    case 'q': zc_verbosity = 0; break;
    case 'v': zc_verbosity = 2; break;
    case 'h': fputs(tree_usage, stdout); return 0;
    default: return agent_usage_error("tree", "bad option");
    }
  }
  if (argc - optind != 1)
    return agent_usage_error("tree", "tree wants one TRACE file");
  struct ana_ctx *ctx = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  enum zc_err e = ana_load(ctx, argv[optind], &tl);
  if (e) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    ana_ctx_free(ctx);
    return AGENT_EXIT_USAGE;
  }
  if (!tl->samples)
    zc_log(1, "%s: no CPU profile samples in this trace", argv[optind]);
  ana_prune(tl, (prune ? ANA_PRUNE_NAMES : 0u) |
                    (drop ? ANA_PRUNE_MARKERS : 0u));
  ana_tl_print(tl, min_ms, stdout);
  ana_timeline_free(tl);
  ana_ctx_free(ctx);
  return 0;
}
