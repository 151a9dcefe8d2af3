/* zamcap's benchmark: prints figures, asserts nothing (README.md records
 * them). Each measurement runs in a forked child so that its peak RSS is
 * its own.
 *
 *   zc_bench [--quick] [--dir DIR]
 *
 * 1. ingest: a generated ~120 MB trace (100 000 profile nodes, many event
 *    kinds), plain and gzip: MB/s and peak RSS.
 * 2. compare: pairs of synthetic timelines of 100 000 and 1 000 000 nodes
 *    (deep and wide, shared vocabulary, reordered top-level tasks, one
 *    regression): critical-graph time and peak RSS.
 * 3. end to end: ana_load + prune + critical graph on the generated
 *    old/new traces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ana.h"
#include "gentrace.h"
#include "timeline.h"
#include "zam/zam.h"

struct result {
  double ms, mb, rss_mb, extra;
  unsigned long long n;
};

static double peak_rss_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

/* Runs fn in a child; its result comes back through a pipe. */
static int measure(void (*fn)(const void *, struct result *), const void *arg,
                   struct result *r) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    struct result x;
    memset(&x, 0, sizeof x);
    fn(arg, &x);
    x.rss_mb = peak_rss_mb();
    if (write(fd[1], &x, sizeof x) != (ssize_t)sizeof x) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  ssize_t n = read(fd[0], r, sizeof *r);
  close(fd[0]);
  int st;
  waitpid(pid, &st, 0);
  return n == (ssize_t)sizeof *r && WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

static double file_mb(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0;
}

/* ---- ingest ---- */

static void do_ingest(const void *arg, struct result *r) {
  const char *path = arg;
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  double t0 = zc_now_ms();
  if (ana_load(c, path, &tl) != ZC_OK) {
    fprintf(stderr, "zc_bench: %s\n", zc_errmsg());
    _exit(1);
  }
  r->ms = zc_now_ms() - t0;
  r->mb = (double)tl->bytes / 1e6;
  r->n = tl->samples;
  r->extra = tl->nnodes;
  ana_timeline_free(tl);
  ana_ctx_free(c);
}

/* ---- synthetic timelines for the matcher ---- */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
  rng_state += 0x9e3779b97f4a7c15ULL;
  uint64_t z = rng_state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (uint32_t)((z ^ (z >> 31)) % n);
}

/* A timeline of about `nodes` nodes: 200 top-level tasks, subtrees with
 * fan-out 1-12 and depth up to 40, names from a 5000-word vocabulary over
 * 30 files. The same seed gives the same shape; `variant` shuffles the
 * top-level order, jitters times and (if 2) adds a 300 ms regression
 * deep in task 0. */
static struct ana_timeline *synth(struct ana_ctx *c, uint32_t nodes,
                                  unsigned seed, int variant) {
  struct ana_timeline *tl = ana_tl_new(c, "synthetic");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", NULL, -1, -1);
  char name[32], url[64];
  uint32_t made = 0, tasks = 200;
  uint32_t *order = malloc(tasks * sizeof *order);
  for (uint32_t i = 0; i < tasks; i++)
    order[i] = i;
  rng_state = (uint64_t)seed * 7919u + 17u + (unsigned)variant;
  if (variant)
    for (uint32_t i = tasks - 1; i > 0; i--) {
      uint32_t j = rnd(i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  uint32_t *stack = malloc(64 * sizeof *stack);
  int64_t ts = 0;
  for (uint32_t k = 0; k < tasks; k++) {
    uint32_t task = order[k];
    /* Each task's shape comes from its own seed: same in both variants. */
    rng_state = (uint64_t)seed * 1000003u + task;
    snprintf(name, sizeof name, "task_%u", task);
    snprintf(url, sizeof url, "http://127.0.0.1:8000/app.%08x.js", seed);
    uint32_t top = ana_tl_child(tl, th, ANA_FUNC, name, url, (int32_t)task, 0);
    uint32_t budget = nodes / tasks, depth = 0;
    stack[depth++] = top;
    uint32_t at = top;
    while (budget && made < nodes) {
      uint32_t d = depth;
      if (d < 40 && rnd(3)) { /* go deeper */
        uint32_t w = rnd(5000);
        snprintf(name, sizeof name, "fn_%u", w);
        snprintf(url, sizeof url, "http://127.0.0.1:8000/lib%u.js", w % 30);
        at = ana_tl_child(tl, at, ANA_FUNC, name, url, (int32_t)(w / 30),
                          (int32_t)(w % 7));
        stack[depth++] = at;
        budget--, made++;
      } else if (depth > 1) { /* return to a caller */
        depth -= 1 + rnd(depth - 1 < 3 ? depth - 1 : 3);
        if (!depth) depth = 1;
        at = stack[depth - 1];
      }
      uint64_t save = rng_state;
      int64_t dur = 100 + rnd(900);
      rng_state = save ^ (uint64_t)(unsigned)variant * 0x5bd1e995u; /* jitter */
      dur += rnd(60);
      rng_state = save;
      ana_tl_sample(tl, at, ts, dur);
      ts += dur;
    }
    if (variant == 3 && task < 100) {
      /* A carrier: two calls of a slowed function, 30 ms each, under a
       * function of its own; task 0 calls that function once, 100 ms. */
      snprintf(name, sizeof name, "carrier_%u", task);
      uint32_t car =
          ana_tl_child(tl, at, ANA_FUNC, name, "http://127.0.0.1:8000/app.js",
                       2, (int32_t)task);
      for (int32_t v = 0; v < (task ? 2 : 1); v++) {
        uint32_t via = ana_tl_child(tl, car, ANA_FUNC, v ? "viaB" : "viaA",
                                    "http://127.0.0.1:8000/app.js", 3, v);
        uint32_t hot = ana_tl_child(tl, via, ANA_FUNC, "hot",
                                    "http://127.0.0.1:8000/app.js", 4, 0);
        ana_tl_sample(tl, hot, ts, task ? 30000 : 100000);
        ts += task ? 30000 : 100000;
      }
    }
    if (variant == 2 && task == 0) {
      uint32_t slow = ana_tl_child(tl, at, ANA_FUNC, "slowHashRegressed",
                                   "http://127.0.0.1:8000/app.js", 1, 1);
      ana_tl_sample(tl, slow, ts, 300000);
      ts += 300000;
    }
  }
  free(stack);
  free(order);
  ana_tl_finish(tl);
  return tl;
}

struct cmp_arg {
  uint32_t nodes;
  double mu_ms; /* -1e18: every node matched and copied, the worst case */
};

static void do_compare(const void *arg, struct result *r) {
  const struct cmp_arg *a = arg;
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *o = synth(c, a->nodes, 42, 1);
  struct ana_timeline *n = synth(c, a->nodes, 42, 2);
  ana_prune(o, ANA_PRUNE_NAMES);
  ana_prune(n, ANA_PRUNE_NAMES);
  struct ana_opts opts;
  ana_opts_default(&opts);
  opts.mu = a->mu_ms;
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g = NULL;
  double t0 = zc_now_ms();
  ana_critical(o, n, &opts, &st, &g);
  struct ana_graph *agg = ana_aggregate(&g, 1, 0, 0);
  r->ms = zc_now_ms() - t0;
  r->n = o->nnodes;
  r->extra = agg->n;
  r->mb = (double)(st.lcs + st.alternate);
  ana_graph_free(agg);
  ana_graph_free(g);
  ana_timeline_free(o);
  ana_timeline_free(n);
  ana_ctx_free(c);
}

/* Issue 25's passes over an aggregated graph with the bottom-up table:
 * 100 000-node timelines where 99 callers each pass two 30 ms calls of a
 * function up (a leaf of 60 ms of no time of their own) and one calls it
 * once for 100 ms: every carrier is checked against the graph's leaves. */
static void do_rules(const void *arg, struct result *r) {
  const uint32_t *nodes = arg;
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *o = synth(c, *nodes, 42, 1);
  struct ana_timeline *n = synth(c, *nodes, 42, 3);
  struct ana_bottomup *bu = ana_bu_new(c, 1);
  ana_bu_add(bu, o, 0);
  ana_bu_add(bu, n, 1);
  ana_prune(o, ANA_PRUNE_NAMES);
  ana_prune(n, ANA_PRUNE_NAMES);
  struct ana_opts opts;
  ana_opts_default(&opts);
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g = NULL;
  ana_critical(o, n, &opts, &st, &g);
  struct ana_graph *agg = ana_aggregate(&g, 1, 0, 0);
  r->extra = (double)ana_graph_causes(agg);
  double t0 = zc_now_ms();
  ana_graph_drop_moved(agg, bu, opts.mu);
  ana_graph_drop_callers(agg, bu, NULL, 0, opts.mu);
  r->ms = zc_now_ms() - t0;
  r->n = ana_graph_causes(agg);
  r->mb = (double)agg->callers;
  ana_graph_free(agg);
  ana_graph_free(g);
  ana_bu_free(bu);
  ana_timeline_free(o);
  ana_timeline_free(n);
  ana_ctx_free(c);
}

struct e2e_arg {
  const char *old, *new_;
};

static void do_e2e(const void *arg, struct result *r) {
  const struct e2e_arg *a = arg;
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *o = NULL, *n = NULL;
  double t0 = zc_now_ms();
  if (ana_load(c, a->old, &o) || ana_load(c, a->new_, &n)) {
    fprintf(stderr, "zc_bench: %s\n", zc_errmsg());
    _exit(1);
  }
  ana_prune(o, ANA_PRUNE_NAMES);
  ana_prune(n, ANA_PRUNE_NAMES);
  double t1 = zc_now_ms();
  struct ana_opts opts;
  ana_opts_default(&opts);
  struct ana_stats st = {0, 0, 0};
  struct ana_graph *g = NULL;
  ana_critical(o, n, &opts, &st, &g);
  r->ms = zc_now_ms() - t0;
  r->extra = zc_now_ms() - t1;
  r->n = ana_graph_causes(g);
  struct ana_cause *cs;
  if (ana_causes(g, &cs))
    fprintf(stderr, "  top cause: %s (%+.1f ms)\n",
            ana_str(c, g->nodes[cs[0].node].name), cs[0].delta_ms);
  free(cs);
  ana_graph_free(g);
  ana_timeline_free(o);
  ana_timeline_free(n);
  ana_ctx_free(c);
}

static int gen(const char *path, unsigned long long bytes, unsigned nodes,
               int regress, int reorder, int gz) {
  struct gentrace_opts o = {bytes, 7, nodes, regress, reorder, gz};
  double t0 = zc_now_ms();
  if (gentrace_write(path, &o) != 0) {
    perror(path);
    return -1;
  }
  printf("  generated %-28s %7.1f MB in %.1f s\n", strrchr(path, '/') + 1,
         file_mb(path), (zc_now_ms() - t0) / 1e3);
  return 0;
}

int main(int argc, char **argv) {
  int quick = 0;
  const char *dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
      dir = argv[++i];
    else {
      fprintf(stderr, "usage: zc_bench [--quick] [--dir DIR]\n");
      return 2;
    }
  }
  char tmpl[] = "/tmp/zc_bench.XXXXXX";
  if (!dir && !(dir = mkdtemp(tmpl))) {
    perror("mkdtemp");
    return 1;
  }
  mkdir(dir, 0777); /* a --dir that does not exist yet */
  unsigned long long size = quick ? 20000000ULL : 120000000ULL;
  unsigned nodes = quick ? 20000 : 100000;
  char pold[4096], pnew[4096], pgz[4096], pbig[4096];
  snprintf(pold, sizeof pold, "%s/old.json", dir);
  snprintf(pnew, sizeof pnew, "%s/new.json", dir);
  snprintf(pgz, sizeof pgz, "%s/old.json.gz", dir);
  snprintf(pbig, sizeof pbig, "%s/big.json", dir);
  printf("zc_bench: %s traces in %s\n", quick ? "quick" : "full", dir);
  if (gen(pold, size, nodes, 0, 0, 0) || gen(pnew, size, nodes, 1, 1, 0) ||
      gen(pgz, size, nodes, 0, 0, 1) ||
      (!quick && gen(pbig, 4 * size, nodes, 0, 0, 0)))
    return 1;

  struct result r;
  printf("\ningest (ana_load: scan, parse profile events, build the tree)\n");
  /* The same profile in a file four times larger: memory must not grow
   * with the parts of the file that are skipped. */
  const char *files[] = {pold, pgz, pbig};
  const char *labels[] = {"plain", "gzip", "plain, 4x"};
  for (int i = 0; i < (quick ? 2 : 3); i++) {
    double best = 1e18;
    struct result keep;
    memset(&keep, 0, sizeof keep);
    for (int rep = 0; rep < 3; rep++) {
      if (measure(do_ingest, files[i], &r)) return 1;
      if (r.ms < best) best = r.ms, keep = r;
    }
    printf("  %-12s %7.1f MB (uncompressed)  %6.0f ms  %6.0f MB/s  "
           "peak RSS %5.1f MB  (%llu samples, %.0f nodes; best of 3)\n",
           labels[i], keep.mb, keep.ms, keep.mb / keep.ms * 1e3, keep.rss_mb,
           keep.n, keep.extra);
  }

  printf("\ncompare (critical graph + aggregation of one pair of synthetic "
         "timelines;\n  peak RSS includes building both timelines)\n");
  uint32_t sizes[] = {100000, 1000000};
  for (int i = 0; i < (quick ? 1 : 2); i++) {
    for (int worst = 0; worst < 2; worst++) {
      struct cmp_arg a = {sizes[i], worst ? -1e18 : 50};
      struct result best;
      best.ms = 1e18;
      for (int rep = 0; rep < 3; rep++) {
        if (measure(do_compare, &a, &r)) return 1;
        if (r.ms < best.ms) best = r;
      }
      r = best;
      printf("  %8llu nodes  %-24s %8.1f ms  peak RSS %6.1f MB  (%.0f "
             "levels matched, %.0f graph nodes; best of 3)\n",
             r.n, worst ? "every node (mu = -inf)" : "mu = 50 ms", r.ms,
             r.rss_mb, r.mb, r.extra);
    }
  }

  printf("\nissue 25's passes (moved calls, carriers) on an aggregated "
         "graph\n");
  {
    uint32_t nn = 100000;
    struct result best;
    memset(&best, 0, sizeof best);
    best.ms = 1e18;
    for (int rep = 0; rep < 3; rep++) {
      if (measure(do_rules, &nn, &r)) return 1;
      if (r.ms < best.ms) best = r;
    }
    printf("  %u nodes  %.0f causes -> %llu (%.0f taken out as carriers)  "
           "%8.1f ms  "
           "(best of 3)\n",
           nn, best.extra, best.n, best.mb, best.ms);
  }

  printf("\nend to end (load + prune + critical graph, old vs new trace)\n");
  struct e2e_arg e = {pold, pnew};
  if (measure(do_e2e, &e, &r)) return 1;
  printf("  %.1f + %.1f MB  %.0f ms (critical graph %.1f ms)  peak RSS "
         "%.1f MB  %llu cause(s)\n",
         file_mb(pold), file_mb(pnew), r.ms, r.extra, r.rss_mb, r.n);
  if (!strncmp(dir, "/tmp/zc_bench.", 14)) {
    remove(pold);
    remove(pnew);
    remove(pgz);
    remove(pbig);
    rmdir(dir);
  }
  return 0;
}
