/* Private to analysis/: the ZAM algorithm (zam/) over timelines. Two
 * pruned timelines are matched level by level (LCS, then by key) into a
 * critical graph (ana_critical); the pairs' graphs are intersected
 * (ana_aggregate) and cleaned of moved calls, recursions and callers that
 * only carry a callee's time; the bottom-up view (self time per function
 * over whole timelines) finds spread-out causes; the end-to-end figures
 * get their statistics; and struct ana_cmp, the comparison pair by pair
 * that ana.h's ana_cmp_* drive, holds it all for the report writers.
 *
 * Ownership: every object made by an ana_*_new/ana_critical/ana_aggregate
 * call is the caller's and is freed with the matching _free; _free(NULL)
 * is a no-op. Graphs and bottom-up views borrow the ana_ctx of their
 * timelines: free it last. Arrays returned through an out-parameter
 * (ana_causes, ana_bu_spread, ana_bu_path_rows) are the caller's to free;
 * ana_bu_rows' stay the view's. Arguments are borrowed. */
#ifndef ANA_ZAM_H
#define ANA_ZAM_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ana.h"
#include "smap/smap.h"

#define ANA_ABSENT INT64_MIN /* per-pair value of a node absent in a pair */

/* ---- matching ---- */

struct ana_stats {
  uint64_t lcs;          /* levels matched by LCS */
  uint64_t alternate;    /* levels matched by the hash matcher */
  uint64_t lcs_timeouts; /* LCS runs that ran out of budget (included in
                            alternate) */
};

/* Longest common subsequence of a[0..n) and b[0..m) (Myers' O((N+M)D)
 * algorithm in linear space). Sets old_of[j] to the index in a matched with
 * b[j], or ANA_NONE. Returns ZC_E_TIMEOUT if budget_ms ran out, or at
 * once if it is 0 or less (old_of is then unspecified). */
enum zc_err ana_lcs(const uint32_t *a, uint32_t n, const uint32_t *b,
                    uint32_t m, double budget_ms, uint32_t *old_of);

/* The alternate matcher (seed 000 Algorithm 3 lines 3-22, with the typo on
 * line 16 fixed): each b[j] in order takes the earliest unused index of a
 * with the same key. */
void ana_match_alternate(const uint32_t *a, uint32_t n, const uint32_t *b,
                         uint32_t m, uint32_t *old_of);

/* ---- critical graphs ---- */

struct ana_gnode { /* read-only for users */
  uint32_t name, url, component, key;
  int32_t line, col;
  uint32_t gen;     /* ana_gen_get, as in ana_node */
  uint8_t kind;     /* enum ana_kind */
  uint8_t cause;    /* leaf: a performance regression-cause */
  uint8_t gone;     /* aggregation: left out (not significant), unlinked */
  uint8_t effect;   /* a cause marked a consequence (ana_graph_mark_effects) */
  uint8_t minor;    /* a cause too small beside the largest to be named
                       (ana_graph_mark_minor): cause is 0 */
  float same;       /* mean of same[] over the pairs that tell; NAN: none */
  uint32_t isnew;   /* pairs in which it had no match in the old timeline */
  uint32_t present; /* pairs in which it is present */
  uint32_t parent, kid, sib, last, nkids; /* first child, next sibling */
};

struct ana_graph {
  struct ana_ctx *ctx; /* borrowed */
  uint8_t unit;        /* enum ana_unit, the timelines' */
  double sample_bytes; /* the timelines' sampling (ana_timeline's), the
                        * coarser of them; 0: exact weights */
  double mu;           /* raw: the μ the pairs' graphs were drawn with */
  unsigned npairs;
  unsigned quorum;         /* aggregated: pairs a node had to be in */
  struct ana_gnode *nodes; /* [0] is the root */
  uint32_t n;
  /* Per node and pair, row-major (node * npairs + pair), in the unit's raw
   * weight (µs for time): ANA_ABSENT
   * where the node is not in that pair's graph; old_w is -1 where the node
   * had no match in the old timeline. */
  int64_t *old_w, *new_w;
  /* Per node and pair: how much of its growth was more of the same work
   * (critical.c's ana_same_work); NAN where its callees cannot tell. */
  float *same;
  uint32_t noisy;        /* aggregation: nodes left out as not significant */
  uint32_t noisy_causes; /* of them, the regression-causes */
  uint32_t moved;        /* ana_graph_drop_moved: causes that only moved */
  uint32_t via_new;   /* ana_graph_drop_moved: old functions called from new */
  uint32_t recursive; /* ana_graphs_fold_recursion: recursions cut */
  uint32_t callers;   /* ana_graph_drop_callers: callers of spread causes,
                       * or of a function the graph names elsewhere */
  double minor_share; /* the share it marked them under; 0: not marked */
  double minor_top;   /* the largest cause's weight it measured against */
  /* aggregation: for the nodes left out, the most pairs in all that
   * their spread says would likely settle them (ana_pairs_needed) */
  unsigned pairs_needed;
  /* Per node, what the call counts said (calls.c), or NULL without
   * counts. */
  struct ana_gcalls *calls;
};

/* Whether a sampled growth is surely μ or more: d and w (the old and new
 * weights) are raw weights summed over k pairs, mu raw too. A sampled
 * weight of w is known to about sqrt(interval * w), since each sample
 * stands for interval bytes; the 99 % interval of d must lie at or above
 * k * mu (99 %: a run's noise is a little over the model's, and a flow
 * has many call paths to test). Exact weights (interval 0) always pass. */
static inline int ana_sampled_clear(double d, double w, unsigned k, double mu,
                                    double interval) {
  return interval <= 0 ||
         d - 2.58 * sqrt(interval * (w > 0 ? w : 0)) >= (double)k * mu;
}

/* New on its call path in every pair it is in. */
static inline int ana_gnode_new_everywhere(const struct ana_gnode *x) {
  return x->present && x->isnew == x->present;
}

/* Why the call counts named a node (calls.c). */
enum ana_why {
  ANA_WHY_NONE,
  /* the owner of a loop: it calls the function below it on the path more
   * often per call of its own (a lost cache, per-element calls); the time
   * landed in `landed` */
  ANA_WHY_LOOP,
  /* an old function inside a function new to the build, named instead of
   * the new function's whole time (itself, or its loop's owner) */
  ANA_WHY_INSIDE_NEW,
  /* the entry of new code: the cause, new to the run, did little itself
   * (a conduit to old code); the new code above it that calls it is
   * named, the time landed in `landed` */
  ANA_WHY_ENTRY,
  /* upstream of a consequence: a function whose calls appear only in the
   * new build, run before a cause (`landed`) that does more per call with
   * the same code, or is newly called by unchanged code: what that cause
   * is given changed, and this is the new work that changed it */
  ANA_WHY_UPSTREAM,
  /* changed code below a cause (`landed`) slower per call with the same
   * code: what that cause calls changed, and its time grew by mu */
  ANA_WHY_CHANGED_BELOW,
  /* the changed function around new code: the cause (`landed`), never
   * called before, is defined inside this function's own text, which ran
   * before, as often, and changed: the new function is part of its
   * change */
  ANA_WHY_ENCLOSING,
};
struct ana_gcalls {
  uint32_t landed;     /* ANA_WHY_LOOP: the node the time landed in */
  uint32_t landed_key; /* ANA_WHY_INSIDE_NEW named at a loop's owner: the
                          function the time landed in (no node); 0 none */
  uint8_t why;         /* enum ana_why */
  uint8_t bu;          /* a node the counts added: its weights are the
                          function's over all its call paths */
  double calls[2];     /* its function's calls a run, old and new; NAN none */
  char *words;         /* a cause's evidence in words (ana__calls_words), or
                          NULL; owned */
};

/* Algorithm 2 on two pruned timelines; stats are added to. Below the top
 * level, what LCS leaves unmatched on both sides is then matched by key:
 * a function that moved among its siblings is not a new one. */
enum zc_err ana_critical(const struct ana_timeline *old,
                         const struct ana_timeline *new_,
                         const struct ana_opts *o, struct ana_stats *stats,
                         struct ana_graph **out);
/* Intersects n graphs (§3.2), keeping nodes present in at least quorum of
 * them (0 means all); values are kept per pair. With significance, a
 * leaf present in 3 pairs or more stays only when the 95 % interval of
 * its per-pair Δs lies above 0 (seed 001: a regression is called only on
 * a significant difference over repeated runs), and a parent left bare is
 * tested in turn; g->noisy counts the nodes left out. */
struct ana_graph *ana_aggregate(struct ana_graph *const *g, unsigned n,
                                unsigned quorum, int significance);
void ana_graph_free(struct ana_graph *g);
struct ana_bottomup;
/* Moved calls (issue 25.1): a cause new on its call path in every pair
 * whose function's self time over all its call paths (bu, the mean of the
 * per-pair Δs) did not grow by mu did not get slower: it is called from
 * another place. It leaves the aggregated graph; a caller it leaves bare
 * stays a cause only when its own self time grew by mu, or its Δ without
 * the moved calls' time is still mu or more. Returns how many left
 * (g->moved). */
/* Old code called from new code (issue 25.3): a cause new on its path in
 * every pair, under a parent new on its path too, leaves the graph
 * (g->via_new) when the new code explains its time: the parent's own time
 * over all its call paths grew by mu (its loop runs more and calls the
 * cause each time), or the chain of new nodes above holds a function new
 * to the build while the cause's function ran in the old build. Its cost
 * per call is not what changed; the caller, left bare, is the cause.
 * Where exact counts say otherwise (per_call(arg, key): its calls did not
 * grow, its cost per call and its own time grew by mu, and its own code
 * changed), it stays: a caller a bundler renamed (rollup's mount$$1) is
 * "new", and is not what changed. per_call may be NULL. */
uint32_t ana_graph_drop_moved(struct ana_graph *g,
                              const struct ana_bottomup *bu, double mu);
uint32_t ana_graph_drop_moved_by(struct ana_graph *g,
                                 const struct ana_bottomup *bu, double mu,
                                 int (*per_call)(const void *arg, uint32_t key),
                                 const void *arg);
/* Causes inside a recursion (their function, the same name at the same
 * place, is already on their path) sit at a depth set by where the
 * recursion's levels fall under mu, which moves from pair to pair, and
 * the pairs' graphs then agree only on whichever level the shallowest
 * stopped at. Where the pairs' causes in the recursions on one call path
 * do not all end at one depth, each is cut back to the highest node, in
 * the unbroken run of the cycle's functions above it, of one function:
 * the cycle's function whose self time over all call paths grew most,
 * by bu (without bu: the one most of them end at). A cut is made only where
 * nothing but the cycle's functions lies below. Run on the pairs' graphs before
 * they are intersected. Returns the cuts; each graph counts its own in
 * g->recursive. */
uint32_t ana_graphs_fold_recursion(struct ana_graph *const *gs, unsigned n,
                                   const struct ana_bottomup *bu);
uint32_t ana_graph_causes(const struct ana_graph *g);
/* Links node i last among parent's children. */
void ana__graph_link(struct ana_graph *g, uint32_t parent, uint32_t i);
/* Consequences (issue 25.3). A cause whose extra time is spread over its
 * callees in the proportions they had before (critical.c's ana_same_work
 * of ANA_SAME_MIN or more on average) did more of the same work: it was
 * called more often or given more to do, by a change elsewhere. When the
 * graph has a cause whose extra time is not of that shape (a root: its
 * own code changed), such causes are marked effects: still in the graph
 * and the report, ranked after the roots. Returns how many. */
uint32_t ana_graph_mark_effects(struct ana_graph *g);
/* Minor causes (issue 35). A cause whose Δ is under share of the largest
 * cause's (each counted at the larger of its own Δ and the Δ of the node
 * the counts named it for: a loop's callee, a consequence) is no cause:
 * it loses its flag and is marked minor, listed beside the causes, not
 * ranked among them. A graph whose causes are one large slowdown and a
 * tail of small ones downstream of it (side effects of the same change,
 * layout, a callee that got a little more to do) names the large one.
 * A small cause where at least half of a large cause's growth lies (its
 * function's, with callees, over all call paths, by bu) is that large
 * slowdown's bottom, and stays named. Returns how many; share
 * 0 or less marks none. */
uint32_t ana_graph_mark_minor(struct ana_graph *g,
                              const struct ana_bottomup *bu, double share);

/* Mean old, new and Δ of a node over the pairs it is present in, in the
 * graph's shown unit (ms for time, KB for bytes; old counts 0 where it had
 * no match). Returns the pairs counted. */
unsigned ana_gnode_means(const struct ana_graph *g, uint32_t i, double *old_ms,
                         double *new_ms, double *delta_ms);

/* The regression-causes, ranked by mean Δ (largest first). */
struct ana_cause {
  uint32_t node; /* in the graph */
  double old_ms, new_ms, delta_ms;
  int effect; /* a consequence (ana_graph_mark_effects): ranked last */
};
uint32_t ana_causes(const struct ana_graph *g, struct ana_cause **out);
/* The minor causes (ana_graph_mark_minor), largest Δ first. */
uint32_t ana_minor_causes(const struct ana_graph *g, struct ana_cause **out);

/* ---- bottom-up: self time per function over whole timelines ---- */

struct ana_bu_row {
  uint32_t key, name, component, url;
  int32_t line, col;
  uint32_t gen; /* ana_gen_get: renamed by a source map */
  uint8_t kind;
  double old_ms, new_ms, delta_ms; /* means over the timelines added */
};
struct ana_bottomup;
/* npairs: timelines per side expected (0: not known), kept apart for the
 * per-pair Δs; room grows as more are added, up to ANA_SPREAD_MAX_PAIRS
 * (timelines past the room are summed into the last). */
struct ana_bottomup *ana_bu_new(struct ana_ctx *c, unsigned npairs);
void ana_bu_free(struct ana_bottomup *b);
/* Adds one timeline's self times to the old (side 0) or new (side 1): the
 * k-th timeline of a side is pair k's. */
void ana_bu_add(struct ana_bottomup *b, const struct ana_timeline *tl,
                int side);
/* Rows sorted by Δ, largest first; valid until the next call or free. */
uint32_t ana_bu_rows(struct ana_bottomup *b, const struct ana_bu_row **rows);

/* A spread-out regression-cause: a function whose self time, summed over
 * all its call paths, got slower by μ or more in at least quorum pairs
 * and on average (and significantly, with significance on and 3 pairs or
 * more), though no call path of it did alone (it is no cause of agg). */
enum { ANA_SPREAD_TOP = 3, ANA_SPREAD_MAX_PAIRS = 100 };
struct ana_spread {
  struct ana_bu_row fn; /* its means over the timelines */
  int inclusive;        /* measured with its callees (bu_lowest_incl) */
  double delta_ms;      /* mean of the per-pair Δs */
  double lo, hi;        /* their 95 % interval; NAN under 2 pairs */
  unsigned npairs;
  double delta_pair[ANA_SPREAD_MAX_PAIRS];
  uint32_t npaths; /* call paths it ran on in the new build */
  unsigned ntop;
  struct {
    uint32_t path; /* for ana_bu_path */
    double delta_ms;
  } top[ANA_SPREAD_TOP]; /* the costliest paths, by Δ */
};
/* The spread-out causes, largest Δ first (caller frees *out). Those that
 * failed only the significance test count in *undecided, with the pairs
 * their spread says would likely settle them in *needed (the most). */
uint32_t ana_bu_spread(struct ana_bottomup *b, double mu, unsigned quorum,
                       int significance, const struct ana_graph *agg,
                       struct ana_spread **out, unsigned *undecided,
                       unsigned *needed);
/* A cause of the graph that is a caller of one of the n spread-out causes
 * measured inclusively, whose own time over all its call paths did not
 * grow by mu and whose Δ is no more than that cause's, only carries that
 * cause's time to one call path: it leaves
 * the graph, and so do the callers it leaves bare on the same terms
 * (g->callers). The spread-out cause is where the regression ends. So
 * does a cause that only carries the time of a function another of the
 * graph's leaves names: its own time did not grow by mu, it calls that
 * function, and its inclusive time without what ran under that function
 * did not grow by mu (a recursion passing a named callee's time up). */
uint32_t ana_graph_drop_callers(struct ana_graph *g,
                                const struct ana_bottomup *bu,
                                const struct ana_spread *v, uint32_t n,
                                double mu);
const struct ana_ctx *ana_bu_ctx(const struct ana_bottomup *b);
/* A function's self-weight Δ (new - old) per pair, in the shown unit (0
 * where it never ran); returns the pairs written (at most cap). */
unsigned ana_bu_deltas(const struct ana_bottomup *b, uint32_t key, double *d,
                       unsigned cap);
/* The same for its inclusive weight, counted once per stack: what the
 * function cost with its callees, wherever it was called from. */
unsigned ana_bu_incl_deltas(const struct ana_bottomup *b, uint32_t key,
                            double *d, unsigned cap);
/* A function's inclusive weight (counted once per stack) per pair on side
 * 0 (old) or 1 (new), in the shown unit; returns the pairs written. */
unsigned ana_bu_incl_values(const struct ana_bottomup *b, uint32_t key,
                            int side, double *v, unsigned cap);
/* A function's row (its means are not filled in), or NULL. */
const struct ana_bu_row *ana_bu_row(const struct ana_bottomup *b, uint32_t key);
/* The merged call tree's paths (both sides): how many; path i's parent
 * (UINT32_MAX under none) and its function's key, name and kind. */
uint32_t ana_bu_npaths(const struct ana_bottomup *b);
uint32_t ana_bu_path_parent(const struct ana_bottomup *b, uint32_t i);
uint32_t ana_bu_path_key(const struct ana_bottomup *b, uint32_t i,
                         uint32_t *name, uint8_t *kind);
/* Whether the function was sampled in any old timeline: 0 for a function
 * new to the build (or one the old runs never reached). */
int ana_bu_old_seen(const struct ana_bottomup *b, uint32_t key);
/* Each call path's bottom-up row (UINT32_MAX for none), for
 * ana_bu_incl_outside; valid until more timelines are added. Caller
 * frees. */
uint32_t *ana_bu_path_rows(const struct ana_bottomup *b);
/* For each of the n functions below[k], the mean Δ (shown unit, per
 * timeline) of function key's inclusive weight over all its call paths
 * without what ran under below[k] beneath it (the growth below[k] does
 * not explain) into out[k]; NAN where below[k] never ran under key. One
 * pass over the call paths for all n; pr from ana_bu_path_rows. */
void ana_bu_incl_outside(const struct ana_bottomup *b, const uint32_t *pr,
                         uint32_t key, const uint32_t *below, uint32_t n,
                         double *out);
/* One CPU sample's mean weight in the shown unit (ms), over the CPU
 * profiles added; 0 when none said how many samples it had. */
double ana_bu_sample(const struct ana_bottomup *b);
/* Whether callee ran under caller on some call path, on either side. */
int ana_bu_calls_into(const struct ana_bottomup *b, uint32_t caller,
                      uint32_t callee);
/* The call tree merged over one side's runs (0 old, 1 new), for the tools
 * people know: folded stacks ("thread;f (file:line);g (file:line) µs", a
 * line per call path with self time, summed over the runs; FlameGraph,
 * difffolded.pl, speedscope), and a .cpuprofile with one sample per call
 * path lasting its self time (DevTools, speedscope). Stacks past 2000
 * frames keep their first and last 1000. */
/* The merged new-and-old call tree for report.html's flame graph, as
 * report.json's "flame": columns per node (parent index or -1, name and
 * file as indexes into names, line, old_ms and new_ms: total time per run,
 * flag: 1 on a critical-graph path, 2 a regression-cause), parents first;
 * at most max_nodes, the largest. */
struct cJSON;
struct cJSON *ana_bu_flame_json(const struct ana_bottomup *b,
                                const struct ana_graph *agg,
                                uint32_t max_nodes);
enum zc_err ana_bu_write_folded(const struct ana_bottomup *b, int side,
                                FILE *f);
enum zc_err ana_bu_write_cpuprofile(const struct ana_bottomup *b, int side,
                                    FILE *f);
/* A timeline of bytes merged over one side's runs as DevTools' Memory
 * panel opens it (.heapprofile): the "head" tree of callFrame, selfSize
 * (bytes summed over the runs), id and children; threads left out. */
enum zc_err ana_bu_write_heapprofile(const struct ana_bottomup *b, int side,
                                     FILE *f);
/* A call path's names from the thread down (at most cap written); returns
 * its length. */
uint32_t ana_bu_path(const struct ana_bottomup *b, uint32_t path,
                     uint32_t *names, uint32_t cap);

/* ---- statistics and end-to-end figures over the runs (figures.c) ---- */

double ana_t95(unsigned df); /* two-sided 95 % quantile of Student's t */
/* How many pairs in all would likely make the 95 % interval of values
 * like these (mean, spread) leave out bound: the n at which t·sd/√n falls
 * below |mean − bound|, at most 999; 0 when it cannot be told (under 2
 * values, no spread). */
unsigned ana_pairs_needed(const double *v, unsigned n, double bound);

/* Figures outlive their timeline as copies; clear frees the copy. */
void ana_figures_copy(struct ana_figures *dst, const struct ana_figures *src);
void ana_figures_clear(struct ana_figures *f);

/* One row of the end-to-end table: a metric (step 0) or a step. delta is
 * over the per-pair differences new - old; significant when its interval
 * leaves out 0. */
struct ana_e2e_row {
  const char *name, *label, *unit; /* static strings */
  uint32_t step;
  char type[24];
  struct ana_stat old, new_, delta;
  double pct; /* delta.mean / old.mean, in % */
  int significant;
  double *old_v, *new_v; /* the runs' values, nv each */
  unsigned nv;
};
struct ana_e2e {
  unsigned npairs;
  struct ana_e2e_row *rows; /* metrics first, then steps */
  unsigned n, nmetrics;
};
/* The table for n pairs of runs (old[i] and new_[i] recorded together). */
struct ana_e2e *ana_e2e_new(const struct ana_figures *old,
                            const struct ana_figures *new_, unsigned n);
void ana_e2e_free(struct ana_e2e *e);
/* The web vitals table for n pairs of runs: rows named "LCP", "CLS",
 * "INP", "TBT" (unit "ms", or "" for CLS), first the whole run's (step 0),
 * then each step's where any run had a value; the same per-pair
 * statistics as the end-to-end rows (delta over the pairs where both runs
 * had a value). warn gets a line for each row some runs lack (NULL: none
 * made); *nwarn their count; caller frees each and the array. */
struct ana_e2e *ana_vitals_new(const struct ana_figures *old,
                               const struct ana_figures *new_, unsigned n,
                               char ***warn, unsigned *nwarn);
/* report.json's vitals: one object a row. */
struct cJSON *ana_vitals_json(const struct ana_e2e *v);
/* A row's change as text: "+412.0 ms (+50.7 %, 95 % CI +380.2 to
 * +443.8)", or "(..., one pair, no interval)". */
void ana_e2e_delta_text(const struct ana_e2e_row *r, char *out, size_t cap);
/* The metric row by name ("scenario_ms", ...) if any pair had it. */
const struct ana_e2e_row *ana_e2e_find(const struct ana_e2e *e,
                                       const char *name);
/* The end_to_end object of report.json. */
struct cJSON *ana_e2e_json(const struct ana_e2e *e);
/* The end-to-end row the verdict rests on: the scenario's wall time when
 * the marks give it, else scripting; NULL when neither. */
const struct ana_e2e_row *ana_e2e_main(const struct ana_e2e *e2e);

/* ---- the comparison, pair by pair (compare.c, probe.c) ---- */

/* The spread-out causes of a comparison (ana_bu_spread), for the reports;
 * n 0 and v NULL when there are none. */
struct ana_spreads {
  const struct ana_bottomup *bu;
  const struct ana_spread *v;
  uint32_t n;
  uint32_t nminor; /* v[n] on: minor ones (under the minor share of the
                      largest cause, the graph's or theirs), not named */
};

/* A comparison pair by pair (zam/compare.c), read by the report writers
 * (report/write.c). Arrays are parallel, one entry a pair, in the order
 * the pairs were added; the decision fields hold the aggregation over the
 * first `decided` pairs and are made again when pairs or count pairs
 * were added since (ana_cmp_add_calls sets decided to 0). */
struct ana_cmp {
  struct ana_ctx *ctx;
  struct ana_opts o;
  int drop;        /* zamcap's own markers left out of the trees */
  unsigned expect; /* pairs expected, for "pair i/N"; 0: not known */
  int say;         /* zc_log level of the per-pair lines */
  struct ana_bottomup *bu;
  struct ana_maps *maps, *own; /* own: made here when none was given */
  unsigned n, cap;
  char **old_files, **new_files;
  uint32_t *old_nodes, *new_nodes; /* pruned timeline sizes */
  struct ana_graph **graphs;
  struct ana_figures *ofig, *nfig;
  struct ana_stats stats;
  struct ana_sym_stats sym;
  double work_ms; /* the analysis' own time: reading, comparing, writing */
  unsigned dots;  /* pair graphs already written out */
  unsigned decided;
  struct ana_graph *agg;
  struct ana_spreads sp;
  unsigned sp_undecided, sp_needed;
  struct ana_e2e *e2e;
  struct ana_e2e *vit; /* web vitals (ana_vitals_new) */
  char **vwarn;        /* its warnings */
  unsigned nvwarn;
  struct ana_cmp *mem;       /* ana_cmp_set_memory: borrowed, or NULL */
  struct ana_io *io;         /* ana_cmp_set_io: borrowed, or NULL */
  struct ana__watch *probes; /* ana_cmp_watch (probe.c) */
  unsigned nprobes;
  struct ana__calls *calls;     /* ana_cmp_add_calls (calls.c), or NULL */
  struct ana__changes *changes; /* ana_cmp_set_changes (changes.c), or NULL */
};
/* Adds a pair of timelines (taken: freed here) to the comparison, as
 * ana_cmp_add does with the timelines it loads: pruned, compared, their
 * figures kept; t0 is when the pair's work began (zc_now_ms), for the
 * analysis' own time. */
enum zc_err ana__cmp_add_tl(struct ana_cmp *c, struct ana_timeline *ot,
                            struct ana_timeline *nt, double t0);
/* Measures the probes in pair's trace of side 0 (old) or 1 (new). */
void ana__cmp_measure(struct ana_cmp *c, unsigned pair, int side,
                      const struct ana_timeline *tl,
                      const struct ana_figures *fig);
void ana__cmp_unwatch(struct ana_cmp *c);
/* ---- call counts (calls.c) ---- */

/* Where each function of a timeline of side 0 (old) or 1 (new) stands in
 * the generated code, and its key: call counts are laid onto keys by it.
 * Called on every timed pair's timelines, symbolized. */
void ana__calls_learn(struct ana_cmp *c, const struct ana_timeline *tl,
                      int side);
void ana__calls_free(struct ana__calls *k);
/* A function's calls per run on side 0 (old) or 1 (new), the mean over
 * the count pairs: 0 when it never ran there, NAN with no count pair. */
double ana_calls(const struct ana_cmp *c, uint32_t key, int side);
/* Whether a function's text differs between the builds: 1, 0, or -1 when
 * the counts cannot tell (it ran in neither build's count runs, or two
 * functions share its name and file). One the old build never called is
 * compared with the old build's uncalled text of its name and file. */
int ana_calls_changed(const struct ana_cmp *c, uint32_t key);
/* What the counts change in the aggregated graph (c->agg): a cause called
 * more often, not slower per call, is named at its loop's owner (the
 * first function up its path that calls the one below it more often per
 * call of its own; the time landed where it was); a cause new to the
 * build is named at the old functions inside it that grew by mu (or their
 * loop's owner below it), when there are some. Sets g->calls; returns
 * the causes that moved. Nothing without counts. */
uint32_t ana__calls_explain(struct ana_cmp *c);
/* Whether the counts say function key's growth is its own change: its
 * calls did not grow (by 1.5 times), what its calls cost beyond the old
 * per-call time grew by mu, its own (self) time grew by mu, and its code
 * changed. 0 without counts. arg is the ana_cmp (for
 * ana_graph_drop_moved_by). */
int ana__calls_per_call(const void *arg, uint32_t key);
/* report.json's evidence of the counts: on each of doc's
 * regression_causes (ana_causes' order), "calls" per path node (old, new,
 * per_call_ms, changed), the split of its growth ("split": calls_ms,
 * per_call_ms), "evidence" in words and, for a loop's owner, "landed";
 * doc's "counts". Nothing without counts. */
void ana__calls_json(const struct ana_cmp *c, struct cJSON *doc);
/* The words of a cause's evidence ("compileInput: 340 calls a run
 * instead of 1, from invokePartialWrapper (lost cache or a loop)"), into
 * out; "" when the counts say nothing of node i. */
void ana__calls_words(const struct ana_cmp *c, uint32_t i, char *out,
                      size_t cap);

/* ---- a release's changes (changes.c, rank.c) ---- */

/* Whether component (a script's path, "/js/app.js") is file, a path in
 * the repository, or file without the strip folder ("dist/js/app.js",
 * strip "dist"). */
int ana__same_file(const char *component, const char *file, const char *strip);

/* Measures each change's impact set in a timeline of side 0 (old) or 1
 * (new) of pair `pair`, before it is pruned (every node's self time
 * counts); nothing without changes. */
void ana__changes_measure(struct ana_cmp *c, unsigned pair, int side,
                          const struct ana_timeline *tl);
void ana__changes_free(struct ana__changes *ch);
/* The range the changes came from ("GOOD..BAD"); NULL without changes. */
const char *ana__changes_range(const struct ana_cmp *c);

/* Makes the aggregation over every pair added, unless it is up to date. */
void ana__cmp_aggregate(struct ana_cmp *c);

#endif
