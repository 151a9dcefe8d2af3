/* zamcap compare / zamcap tree: the paper's offline interface. */
#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent.h"
#include "ana.h"

static const char compare_usage[] =
    "usage: zamcap compare OLD_DIR NEW_DIR [OPTIONS]\n"
    "       zamcap compare RUN_DIR [OPTIONS]\n"
    "\n"
    "Compares saved Chrome traces (.json, .json.gz, .cpuprofile) of an old\n"
    "and a new build. Traces are paired in file-name order; each pair gives\n"
    "a critical graph, and the graphs are intersected. RUN_DIR is the output\n"
    "folder of a run (or its traces/ folder): old-<i> is paired with new-<i>,\n"
    "to analyse a capture again, say with another --mu.\n"
    "\n"
    "  --mu MS           smallest regression reported (default 50)\n"
    "  --pairs N         compare at most N pairs (default: all)\n"
    "  --quorum K        keep nodes found in K pairs (default: all pairs)\n"
    "  --no-significance with 3 pairs or more, keep nodes whose per-pair\n"
    "                    slowdowns are not significantly above 0 too\n"
    "  --out DIR         output folder (default zamcap-out/<UTC time>/)\n"
    "  --lcs-budget MS   time for one LCS before the hash matcher takes\n"
    "                    over (default 10000)\n"
    "  --drop-markers    leave (program), (idle), (garbage collector) out\n"
    "  --format LIST     reports to write, of text (stdout), json, md, html,\n"
    "                    dot (with the SVG); default all\n"
    "  -q, --quiet       no progress on stderr\n"
    "  -v, --verbose     more detail on stderr\n"
    "  -h, --help        this text\n"
    "\n"
    "Writes OUT/report.html, OUT/summary.md, OUT/report.json,\n"
    "OUT/critical-graph.dot (and .svg with Graphviz), OUT/pairs/pair-<i>.dot\n"
    "and prints the regression-causes and the end-to-end figures.\n"
    "Exit: 0 none, 1 found, 2 bad input.\n";

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

/* "old-12.json.gz" -> side 0, number 12; -1 when the name is not a run's
 * trace. */
static int run_trace_name(const char *n, unsigned *num) {
  int side = !strncmp(n, "old-", 4) ? 0 : !strncmp(n, "new-", 4) ? 1 : -1;
  if (side < 0 || !is_trace_name(n) || n[4] < '0' || n[4] > '9') return -1;
  char *end;
  unsigned long v = strtoul(n + 4, &end, 10);
  if (end == n + 4 || *end != '.' || !v || v > 100000) return -1;
  *num = (unsigned)v;
  return side;
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
  snprintf(dir, sizeof dir, "%s/traces", run);
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    snprintf(dir, sizeof dir, "%s", run);
  DIR *d = opendir(dir);
  if (!d) return zc_fail(ZC_E_IO, "%s: %s", dir, strerror(errno));
  char **side[2] = {NULL, NULL}; /* by trace number */
  size_t cap[2] = {0, 0};
  unsigned top = 0;
  for (struct dirent *de; (de = readdir(d));) {
    unsigned num;
    int sd = run_trace_name(de->d_name, &num);
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
               side[0][i] ? "old" : "new");
      free(side[0][i]);
      free(side[1][i]);
      side[0][i] = side[1][i] = NULL;
    }
  }
  *oldf = side[0];
  *newf = side[1];
  *n = k;
  if (!k)
    return zc_fail(ZC_E_USAGE, "%s: no pair of old-<i> and new-<i> traces "
                   "(give OLD_DIR and NEW_DIR for other names)", dir);
  return ZC_OK;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

int agent_compare(int argc, char **argv) {
  static const struct option opts[] = {
      {"mu", required_argument, NULL, 'm'},
      {"pairs", required_argument, NULL, 'p'},
      {"quorum", required_argument, NULL, 'k'},
      {"no-significance", no_argument, NULL, 'S'},
      {"out", required_argument, NULL, 'o'},
      {"lcs-budget", required_argument, NULL, 'b'},
      {"drop-markers", no_argument, NULL, 'd'},
      {"format", required_argument, NULL, 'f'},
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
  struct ana_report_in in = {"compare", ANA_FMT_ALL, NULL, 0, 0};
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
    case 'S': o.significance = 0; break;
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
    case 'f':
      if (!ana_parse_formats(optarg, &in.formats))
        return agent_usage_error("compare", "--format wants a list of "
                                 "text, json, md, html, dot or all, not "
                                 "'%s'", optarg);
      break;
    case 'q': zc_verbosity = 0; break;
    case 'v': zc_verbosity = 2; break;
    case 'h': fputs(compare_usage, stdout); return 0;
    default: return agent_usage_error("compare", "bad option");
    }
  }
  if (argc - optind != 2 && argc - optind != 1)
    return agent_usage_error("compare", "compare wants OLD_DIR and NEW_DIR, "
                             "or a run's RUN_DIR");
  const char *olddir = argv[optind];
  const char *newdir = argc - optind == 2 ? argv[optind + 1] : NULL;

  int rc = ZC_EXIT_USAGE;
  char **oldf = NULL, **newf = NULL, *out = NULL;
  size_t nold = 0, nnew = 0;
  unsigned npairs = 0, causes = 0;
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
    zc_fail(ZC_E_USAGE, "--quorum %u is more than the %u pairs compared",
            o.quorum, npairs);
    goto fail;
  }
  if ((e = agent_outdir(outarg, &out))) goto fail;
  if ((e = ana_analyze((const char *const *)oldf, (const char *const *)newf,
                         npairs, &o, drop, out, &in, &causes)))
    goto fail;
  rc = causes ? ZC_EXIT_FOUND : ZC_EXIT_NONE;
  goto out;
fail:
  fprintf(stderr, "zamcap: %s\n", zc_errmsg());
  rc = e == ZC_E_INTERNAL ? ZC_EXIT_INTERNAL : ZC_EXIT_USAGE;
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

/* The end-to-end figures of one trace, after its tree. */
static void print_figures(const struct ana_figures *f) {
  if (isnan(f->scripting_ms) && !f->marks) return;
  printf("main thread: scripting %.1f ms, GC %.1f ms, style and layout "
         "%.1f ms, %.0f long task%s (%.1f ms blocking)\n", f->scripting_ms,
         f->gc_ms, f->style_layout_ms, f->long_tasks,
         f->long_tasks == 1 ? "" : "s", f->blocking_ms);
  if (!f->nsteps) return;
  if (isnan(f->scenario_ms)) printf("scenario: no zamcap:end mark\n");
  else printf("scenario: %.1f ms from step %u to the end\n", f->scenario_ms,
              f->steps[0].step);
  for (uint32_t i = 0; i < f->nsteps; i++)
    printf("  step %u %s: %.1f ms\n", f->steps[i].step, f->steps[i].type,
           f->steps[i].ms);
}

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
    return ZC_EXIT_USAGE;
  }
  if (!tl->samples)
    zc_log(1, "%s: no CPU profile samples in this trace", argv[optind]);
  ana_prune(tl, (prune ? ANA_PRUNE_NAMES : 0u) |
                    (drop ? ANA_PRUNE_MARKERS : 0u));
  ana_tl_print(tl, min_ms, stdout);
  print_figures(&tl->fig);
  ana_timeline_free(tl);
  ana_ctx_free(ctx);
  return 0;
}

int agent_html(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    fputs("usage: zamcap html OUT\n\nWrites OUT/report.html again from "
          "OUT/report.json (and OUT/critical-graph.svg\nwhen there is one), "
          "e.g. after editing the report or with a newer zamcap.\n", stdout);
    return 0;
  }
  if (argc != 2)
    return agent_usage_error("html", "html wants one OUT folder");
  if (ana_write_html_from(argv[1])) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    return ZC_EXIT_USAGE;
  }
  printf("%s/report.html\n", argv[1]);
  return 0;
}
