/* analysis: Chrome traces in, ZAM critical graphs and reports out. This
 * is its public header: what agent/ uses.
 *
 * The pipeline (DESIGN.md, seed 000 §3): a trace file is read into a
 * timeline (a top-down aggregated call tree per thread) and pruned of
 * anonymous and minified nodes; an old and a new timeline are compared
 * into a critical graph; the graphs of several pairs are intersected, and
 * the reports are written from the result. From outside, that is a
 * comparison (struct ana_cmp): pairs of traces added as they are captured,
 * the verdict over them, every report, and probes that follow a cause
 * across builds. ana_load, ana_prune and ana_tl_print show one trace.
 *
 * The rest is analysis/'s own, in internal headers that only analysis/
 * and its tests have on their include path: timeline.h (the context's
 * interning, nodes, building timelines), smap/smap.h (source maps),
 * zam/zam.h (matching, critical graphs, aggregation, bottom-up,
 * statistics, struct ana_cmp's insides), report/report.h (the writers),
 * trace/trace-int.h and trace/jread.h (reading traces).
 *
 * Ownership: everything an ana_ call makes is the caller's, freed with the
 * matching _free (ana_cmp_free, ana_probes_free, ...), or with free() or
 * cJSON_Delete() where its comment says so; _free(NULL) is a no-op. A
 * timeline borrows the ana_ctx it was made with: free the ctx last.
 * Arguments are borrowed. */
#ifndef ANA_H
#define ANA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "zc.h"

struct cJSON; /* cJSON's, for the JSON documents given and returned */

/* ---- one trace: its context, timeline and figures (trace/, zam/) ---- */

/* The context timelines are made in: names, URLs and (component, name)
 * keys interned to integers (timeline.h). */
struct ana_ctx;
struct ana_ctx *ana_ctx_new(void);
void ana_ctx_free(struct ana_ctx *c);

/* What a timeline weighs: CPU time (samples' durations), bytes allocated
 * (a sampling heap profile), or a count. Nodes hold raw weights (µs,
 * bytes, counts); μ, the statistics and every report speak the shown unit
 * (ms, KB, counts), per raw weights to one of it. */
enum ana_unit { ANA_UNIT_TIME, ANA_UNIT_BYTES, ANA_UNIT_COUNT };

/* End-to-end figures of one recorded run, read from the trace's events on
 * the page's main thread (the thread of zamcap's step marks; without
 * marks, the busiest CrRendererMain): wall times from the marks
 * zamcap:step:N:TYPE and zamcap:end; CPU figures from the first mark to
 * the end of the recording. Times in ms; NAN where the trace cannot say. */
/* Web vitals as DevTools' trace engine computes them (README, Web
 * vitals): LCP of a navigation (ms from its navigationStart), CLS (the
 * largest session window of layout shifts with no recent input), INP (the
 * longest Event Timing interaction, ms) and TBT (long tasks' time beyond
 * 50 ms, clipped to the window). NAN where the trace cannot say. */
struct ana_vitals {
  double lcp_ms, cls, inp_ms, tbt_ms;
};
/* Why a run's vital is missing (ana_figures.vit_why), for the warnings. */
enum {
  ANA_VW_NO_NAV = 1,     /* LCP: no main-frame navigation in the window */
  ANA_VW_NO_LCP = 2,     /* LCP: navigated, but no candidate was painted */
  ANA_VW_NO_LOADING = 4, /* CLS: no event of the "loading" category */
  ANA_VW_NO_INPUT = 8,   /* INP: no Event Timing interaction */
  ANA_VW_NO_TASKS = 16,  /* TBT: no RunTask event (devtools.timeline) */
  ANA_VW_NO_TIMING = 32, /* INP: no EventTiming event (devtools.timeline) */
};
struct ana_step_time {
  uint32_t step; /* 1-based, as the Recorder numbers steps */
  char type[24]; /* the step's type, from the mark */
  double ms;     /* to the next mark; NAN for a step with no next mark */
  /* The vitals of the step's window, from its mark to the next (the
   * run's go on to the end of the recording): LCP of a
   * navigation (or soft navigation) started in it, NAN in a step that
   * started none; the others as for the run, over the window. */
  struct ana_vitals vit;
};
struct ana_figures {
  int marks;           /* zamcap step marks found */
  double scenario_ms;  /* first step mark to zamcap:end */
  double scripting_ms; /* CPU samples in JavaScript functions */
  double gc_ms;        /* CPU samples in (garbage collector) */
  double native_ms;    /* CPU samples in (program): browser work outside JS */
  double style_layout_ms; /* UpdateLayoutTree and Layout events */
  double long_tasks;      /* tasks over 50 ms */
  double blocking_ms;     /* their time beyond 50 ms each */
  /* The main thread's share of a core while it worked (thread time over
   * wall time of its tasks); NAN unknown. */
  double cpu_share;
  /* The main thread's long-task time after its CPU profile's last sample
   * (ms): where it is large, V8 lost the profile's later samples (seen
   * under load: a 2 s run whose profile ends after 30 ms), and the run
   * measures nothing. NAN without a profile on that thread. */
  double profile_lost_ms;
  /* Retained memory after the flow (a heap profile zamcap recorded, after
   * a forced GC): set only where retained is; NAN where not measured. */
  int retained;
  double heap_used_kb, dom_nodes, listeners;
  /* The whole run's vitals (LCP of its first navigation) and why those
   * that are NAN are (ANA_VW_* bits). */
  struct ana_vitals vit;
  unsigned vit_why;
  uint32_t nsteps;
  struct ana_step_time *steps; /* owned by the timeline */
};

struct ana_timeline {
  struct ana_ctx *ctx; /* borrowed */
  uint8_t unit;        /* enum ana_unit: what the nodes weigh */
  /* A sampled weight (a sampling heap profile): one sample per this many
   * bytes on average, so a node of w bytes is known to about
   * sqrt(sample_bytes * w); 0 where the weights are exact. */
  double sample_bytes;
  struct ana_node *nodes; /* [0] is the root */
  uint32_t nnodes;
  uint32_t *kids;
  char *source; /* file it came from */
  /* read-only ingest statistics */
  uint64_t bytes;    /* uncompressed bytes scanned */
  uint64_t events;   /* trace events seen */
  uint64_t parsed;   /* events parsed into objects */
  uint64_t samples;  /* CPU samples placed in the tree */
  uint32_t profiles; /* CPU profiles found */
  /* With no samples: what the file holds instead, in words ("1234 trace
   * events and no CPU profile (...)"); NULL otherwise. Owned. */
  char *what;
  uint32_t pruned_nodes;
  /* Source maps the file carries (DevTools' metadata.sourceMaps). */
  struct ana_embedded_map *embedded; /* timeline.h has its fields */
  uint32_t nembedded;
  struct ana_figures fig;   /* read-only, set by ana_load */
  struct ana__build *build; /* private: set until ana_tl_finish */
  struct ana_io_run *io;    /* private: the requests, when asked (zam/io.h) */
  size_t capnodes;          /* private */
};

/* Reads a Chrome trace (bare event array or {"traceEvents": [...]}; CPU
 * profiles as Profile/ProfileChunk events, or as Chrome <= 66's CpuProfile
 * events) or a .cpuprofile (the "nodes" format, or Node <= 10's "head"
 * tree with "timestamps"), plain or gzip-compressed, streaming; or, by
 * its name (.heapprofile, .heapprofile.gz), a sampling heap profile
 * (HeapProfiler.getSamplingProfile: its "head" tree), as a timeline of
 * bytes (ANA_UNIT_BYTES) under one "heap" thread. Each
 * thread, (process, thread id), is one node, labelled with its name, or
 * where two share a name with what each is (its renderer's frame origin,
 * its process id); one CPU profile a thread is kept, as DevTools keeps.
 * On error returns a code and zc_errmsg() names the file and the byte
 * offset. */
enum zc_err ana_load(struct ana_ctx *c, const char *path,
                     struct ana_timeline **out);
void ana_timeline_free(struct ana_timeline *tl);

/* ANA_PRUNE_NAMES removes nodes whose name is empty, "(anonymous)" or one
 * character; their children move up to the removed node's parent (seed 000
 * §3.1). ANA_PRUNE_MARKERS removes (program), (idle) and (garbage
 * collector). Call once per timeline. */
enum { ANA_PRUNE_NAMES = 1, ANA_PRUNE_MARKERS = 2 };
void ana_prune(struct ana_timeline *tl, unsigned what);

/* Prints the reachable tree, one node a line, indented, with total and
 * self ms; nodes under min_ms are left out. */
void ana_tl_print(const struct ana_timeline *tl, double min_ms, FILE *f);

/* The comparable part of a script URL: origin, query, fragment and
 * content-hash segments removed ("http://h:8/js/app.3f9a1c2e.js?v=2" ->
 * "/js/app.js"). Writes at most cap-1 bytes plus NUL into out and returns
 * the length. */
size_t ana_component(const char *url, size_t n, char *out, size_t cap);

/* ---- source maps: a run's, found by script URL (smap/symbolize.c) ---- */

/* Maps by script URL, found on demand: find is called once per script
 * URL not added before, and fills *src (malloc'd, taken) or returns 0. */
struct ana_map_src {
  char *map, *map_url, *text; /* text: the generated script, or NULL */
  size_t mapn, textn;
};
typedef int (*ana_map_find)(void *arg, const char *script_url,
                            struct ana_map_src *src);
/* Called once a found map has parsed within the budget, before it is
 * used: it may take src->map (setting it NULL); the rest is borrowed. */
typedef void (*ana_map_usable)(void *arg, const char *script_url,
                               struct ana_map_src *src);
struct ana_maps;
struct ana_maps *ana_maps_new(ana_map_find find, void *arg);
void ana_maps_on_usable(struct ana_maps *s, ana_map_usable fn);
void ana_maps_free(struct ana_maps *s);

/* rel resolved against base (a URL or a path; NULL: rel as it is), with
 * "." and ".." segments removed. Caller frees. */
char *ana_url_join(const char *base, const char *rel);

/* ---- a comparison, pair by pair (zam/compare.c, report/write.c) ---- */

struct ana_opts {
  double mu;            /* minimum regression in the timelines' shown unit
                           (ms for time, KB for bytes), default 50 */
  double lcs_budget_ms; /* default 10000 */
  unsigned quorum;      /* aggregation: pairs a node must be in; 0 = all */
  int significance;     /* aggregation: with 3 pairs or more, keep a node
                           only where its per-pair Δs are significantly
                           above 0 (paired 95 % interval); default on */
  double minor_share;   /* a cause whose Δ is under this share of the
                           largest cause's is minor: listed, not named
                           (ana_graph_mark_minor); default 0.2, 0 names
                           every one */
};
void ana_opts_default(struct ana_opts *o);

/* The verdict, three-way, and what it rests on. A regression-cause is
 * decided when it passed the significance test (or there are under 3
 * pairs to test); one that was left out as not significant is undecided,
 * and so is the end-to-end figure while its interval holds the
 * threshold. */
enum ana_state { ANA_NO_REGRESSION, ANA_REGRESSION, ANA_INCONCLUSIVE };
enum ana_e2e_state {
  ANA_E2E_UNKNOWN,   /* no figure, or under 2 pairs */
  ANA_E2E_UNDECIDED, /* the interval holds the threshold */
  ANA_E2E_REGRESSED, /* it lies above */
  ANA_E2E_NOT,       /* it lies below */
};
/* Why a verdict is inconclusive (ana_outcome.doubt's bits). */
enum {
  ANA_DOUBT_CAUSES = 1,  /* candidates the pairs could not decide */
  ANA_DOUBT_E2E = 2,     /* the end-to-end interval holds the threshold */
  ANA_DOUBT_STARVED = 4, /* the runs' main thread had under half a core */
  ANA_DOUBT_IO = 8,      /* I/O candidates the I/O pairs could not decide */
};
/* A run whose main thread had less than this share of a core while it
 * worked was starved: what it measured says little. */
#define ANA_STARVED_SHARE 0.5
struct ana_outcome {
  enum ana_state state;
  unsigned causes;    /* regression-causes, spread-out ones included */
  unsigned undecided; /* candidates the pairs could not yet decide */
  enum ana_e2e_state e2e;
  double threshold_ms;   /* the one applied; NAN when unknown */
  unsigned pairs_needed; /* pairs in all that would likely settle what is
                            undecided; 0 when nothing is, or unknown */
  /* End-to-end and web-vitals rows whose interval lies above their
   * threshold while no function is named: a regression no function
   * explains (ana_cmp_unexplained lists them). */
  unsigned unexplained;
  unsigned doubt;     /* ANA_DOUBT_* when the state is inconclusive */
  unsigned io_causes; /* I/O regression-causes (ana_cmp_set_io) */
  double cpu_share;   /* the runs' median main-thread CPU share; NAN */
};
const char *ana_state_name(enum ana_state s);    /* "no regression", ... */
int ana_exit_code(const struct ana_outcome *oc); /* 0, 1 or 5 (zc_exit) */
const char *ana_e2e_state_name(enum ana_e2e_state s);

/* The reports --format picks; the text summary goes to stdout. */
enum {
  ANA_FMT_TEXT = 1,
  ANA_FMT_JSON = 2,
  ANA_FMT_MD = 4,
  ANA_FMT_HTML = 8,
  ANA_FMT_DOT = 16,        /* critical-graph.dot, pairs/, and the SVG */
  ANA_FMT_FOLDED = 32,     /* old.folded, new.folded */
  ANA_FMT_CPUPROFILE = 64, /* old.cpuprofile, new.cpuprofile */
  ANA_FMT_ALL = 127,
};
/* "html,json" to bits; returns 0 on an unknown name. */
int ana_parse_formats(const char *s, unsigned *out);

/* What ana_analyze needs to know beyond the traces. */
struct ana_report_in {
  const char *command;       /* "compare" or "run", for report.json */
  unsigned formats;          /* ANA_FMT_*; 0 means all */
  struct cJSON *extra;       /* fields copied into report.json, or NULL */
  unsigned planned, dropped; /* pairs planned and dropped in capture */
  /* The end-to-end threshold: the scenario's wall time (else scripting)
   * regressed when its interval lies above it. threshold_ms when >= 0,
   * else threshold_pct % of the old build's mean (0: 5 %). */
  double threshold_ms, threshold_pct;
  struct ana_maps *maps; /* source maps for the traces' scripts, or NULL */
  /* Sampling heap profiles (.heapprofile) compared beside the traces as
   * --memory's memory pairs are: mem_pairs pairs mem_old[i], mem_new[i],
   * with μ mem_mu in KB (0: 256). With no trace pair the allocation is
   * the whole comparison, and its causes make the verdict and the exit
   * code. */
  const char *const *mem_old, *const *mem_new;
  unsigned mem_pairs;
  double mem_mu;
  /* Call counts (zamcap-calls/1) of count runs, calls_pairs pairs
   * calls_old[i], calls_new[i], laid onto the timed pairs' functions
   * (ana_cmp_add_calls); a pair that cannot be read is a warning. */
  const char *const *calls_old, *const *calls_new;
  unsigned calls_pairs;
  /* I/O runs' traces (their .io.json beside each), io_pairs pairs
   * io_old[i], io_new[i], compared per call path (ana_io) with these mu
   * (0: 5 requests, 100 KB); a pair that cannot be read is a warning. */
  const char *const *io_old, *const *io_new;
  unsigned io_pairs;
  double io_mu_requests, io_mu_kb;
};

/* The pairs come in as they are captured; each trace is read once, and
 * only its critical graph, figures and bottom-up times are kept. The
 * verdict over the pairs so far can be asked for at any point, and the
 * reports are written from the same object (ana_cmp_write). */
struct ana_cmp;
/* expect: the pairs expected (for "pair i/N" and room), 0 when not known;
 * maps: the scripts' source maps (borrowed), or NULL; say: the zc_log level
 * of the line each added pair gets (9: none). */
struct ana_cmp *ana_cmp_new(const struct ana_opts *o, int drop_markers,
                            struct ana_maps *maps, unsigned expect, int say);
void ana_cmp_free(struct ana_cmp *c);
/* Reads one pair's traces, names their functions from the source maps,
 * and compares them. On error (a trace that cannot be read, or holds no
 * CPU samples) the pair is not added and zc_errmsg() names the file. */
enum zc_err ana_cmp_add(struct ana_cmp *c, const char *old_path,
                        const char *new_path);
unsigned ana_cmp_pairs(const struct ana_cmp *c);
/* Adds one count pair: the call counts (zamcap-calls/1, agent/capture's
 * count runs) of an old and a new run. They are laid onto the functions
 * of the timed pairs added before, and explain their time: called more
 * often, or slower per call. On error (a file that cannot be read or is
 * no count file) nothing of the pair counts and zc_errmsg() names it. */
enum zc_err ana_cmp_add_calls(struct ana_cmp *c, const char *old_path,
                              const char *new_path);
unsigned ana_cmp_calls_pairs(const struct ana_cmp *c);
/* The file of the first regression cause whose calls no count file holds
 * (a worker's script: the page's coverage does not reach it), named on
 * its time alone; NULL when the counts reach every cause, or none were
 * taken. */
const char *ana_cmp_uncounted(struct ana_cmp *c);
/* The outcome over the pairs added so far (the end-to-end threshold as
 * ana_report_in's); a state of no regression with no pair. */
void ana_cmp_outcome(struct ana_cmp *c, double threshold_ms,
                     double threshold_pct, struct ana_outcome *oc);

/* Sets mem, a comparison of heap profiles (the same builds' memory
 * pairs; borrowed, freed by the caller after c's reports), to be reported
 * with c: report.json's allocation and its retained-memory rows in
 * end_to_end, summary.md's and the terminal's lines, report.html's
 * section, old.heapprofile and new.heapprofile. Allocation causes do not
 * change c's outcome. */
void ana_cmp_set_memory(struct ana_cmp *c, struct ana_cmp *mem);

/* ---- I/O per call path (trace/io-read.c, zam/io.c, report/io.c) ---- */

/* A comparison of I/O runs, pair by pair: each run's trace (its
 * requests: ResourceSendRequest and what follows it) and, beside it, the
 * .io.json an I/O run keeps (agent/capture/io.c: the requests' whole
 * stacks, bodies and cache, and the storage writes with theirs). Each
 * run becomes five timelines, one per measure (requests, KB received,
 * KB sent, storage writes, KB written), each compared as time is: the
 * same matching, critical graph, aggregation and significance, with mu
 * in requests (mu_requests, for writes too) or KB (mu_kb). maps:
 * borrowed, or NULL; expect: the pairs expected, 0 unknown. */
struct ana_io;
struct ana_io *ana_io_new(const struct ana_opts *o, double mu_requests,
                          double mu_kb, struct ana_maps *maps, unsigned expect);
void ana_io_free(struct ana_io *io);
/* Reads one pair of I/O runs (their traces; the .io.json beside each is
 * read when it is there, else the trace's one-frame stacks serve). On
 * error nothing of the pair counts and zc_errmsg() names the file. */
enum zc_err ana_io_add(struct ana_io *io, const char *old_path,
                       const char *new_path);
unsigned ana_io_pairs(const struct ana_io *io);
/* Sets io (borrowed, freed by the caller after c's reports) to be
 * reported with c: report.json's io, runs[].io, the terminal's,
 * summary.md's and report.html's I/O parts. An I/O regression-cause is a
 * regression: it counts in c's outcome (ana_outcome.io_causes). */
void ana_cmp_set_io(struct ana_cmp *c, struct ana_io *io);
/* The I/O causes as probes (ANA_PROBE_IO), largest first within each
 * measure; their values are read from I/O pairs: ana_io_watch on a
 * comparison before its first ana_io_add, then ana_io_probe_values (per
 * pair, old and new, in the probe's unit; valid until the next add).
 * Caller frees with ana_probes_free. */
struct ana_probe;
unsigned ana_io_probes(struct ana_io *io, struct ana_probe **out);
void ana_io_watch(struct ana_io *io, const struct ana_probe *p, unsigned n);
unsigned ana_io_probe_values(struct ana_io *io, unsigned k, const double **old,
                             const double **new_);

/* Every report of the comparison into out, as in->formats says, the
 * summary on stdout; *oc gets the outcome. */
enum zc_err ana_cmp_write(struct ana_cmp *c, const char *out,
                          const struct ana_report_in *in,
                          struct ana_outcome *oc);

/* The analysis of npairs trace pairs into out, with an ana_cmp:
 * pairs/pair-<i>.dot, critical-graph.dot (and .svg), summary.md, report.json,
 * report.html, as in->formats says, and the summary on stdout; *oc gets the
 * outcome. drop: leave zamcap's own user-timing markers out of the trees.
 * With in->mem_pairs, the heap profiles' allocation too (npairs may then
 * be 0: the allocation alone, into summary.md, report.json, report.html,
 * old.heapprofile and new.heapprofile). */
enum zc_err ana_analyze(const char *const *oldf, const char *const *newf,
                        unsigned npairs, const struct ana_opts *o, int drop,
                        const char *out, const struct ana_report_in *in,
                        struct ana_outcome *oc);

/* The end-to-end and web-vitals rows that regressed beyond their
 * threshold when no function is named (none when one is): the scenario's
 * main figure by the end-to-end threshold; each step's wall time and each
 * vital by that threshold of its own old mean, and never under mu (CLS:
 * 0.05). At most cap rows (valid until the next ana_cmp_add), with each
 * threshold in thr; returns how many. */
struct ana_e2e_row;
unsigned ana_cmp_unexplained(struct ana_cmp *c, double threshold_ms,
                             double threshold_pct,
                             const struct ana_e2e_row **rows, double *thr,
                             unsigned cap);

/* ---- probes: one figure followed across builds (zam/probe.c) ---- */

/* A regression-cause's inclusive weight on its call path (from the
 * thread down, matched by name and key level by level), a spread-out
 * cause's self weight over all its paths, or the scenario's wall time. */
/* ANA_PROBE_IO: an I/O cause (ana_io_probes), its measure on its call
 * path in I/O runs. */
enum ana_probe_kind {
  ANA_PROBE_PATH,
  ANA_PROBE_SELF,
  ANA_PROBE_SCENARIO,
  ANA_PROBE_IO
};
struct ana_probe {
  int kind;       /* enum ana_probe_kind */
  unsigned depth; /* frames: a path's from its thread; 1 for SELF */
  char **name;    /* per frame, owned */
  char **component;
  char *label;  /* "CrRendererMain > render > parseRows" */
  double delta; /* its mean Δ in the comparison it came from (ms) */
  int32_t line; /* the function's line, 0-based; -1 unknown */
  /* ANA_PROBE_IO: its measure (report.json's "requests", ...), the
   * unit it is in, and the call path it is measured on (private) */
  const char *measure, *unit;
  char *io_key;
  int io_m, io_by_last;
};
/* The probes of what the comparison found, largest cause first: every
 * regression-cause's path, every spread-out cause's function, or, with no
 * cause, the scenario's wall time (one probe). Caller frees. */
unsigned ana_cmp_probes(struct ana_cmp *c, struct ana_probe **out);
void ana_probes_free(struct ana_probe *p, unsigned n);
/* Measures the probes (copied) in every pair added from now on; call once,
 * before the first ana_cmp_add. */
void ana_cmp_watch(struct ana_cmp *c, const struct ana_probe *p, unsigned n);
/* Probe k's values per pair, old and new (valid until the next add), in
 * the shown unit (ms); returns the pairs. */
unsigned ana_cmp_probe_values(const struct ana_cmp *c, unsigned k,
                              const double **old, const double **new_);

/* ---- what a change touched, ranked (zam/rank.c, seed 003) ---- */

/* A changed range of a file, as a diff gives it: the file's path in the
 * repository and its first and last changed lines in the new version
 * (1-based). */
struct ana_hunk {
  const char *file;
  int32_t first, last;
};
/* The functions of the comparison (in its new build) that hold a changed
 * line, ranked by their self-time Δ over the pairs, largest first: a JSON
 * array of {name, file, line, delta_ms, ci95: [lo, hi]}. A function holds
 * a line when its file's path ends with the hunk's (strip, when not NULL,
 * is a leading folder also tried without: the served build's) and it is
 * the last function of that file to start at or before the line, or it
 * starts inside the hunk. */
struct cJSON *ana_cmp_rank_changes(struct ana_cmp *c, const struct ana_hunk *h,
                                   unsigned nh, const char *strip);

/* ---- what an input search makes worse (zam/objective.c) ---- */

/* A figure of each run, for zamcap explore's fitness (new − old): CPU time
 * in JavaScript (scripting), the scenario's wall time, one step's wall
 * time (step, 1-based), one function's time with its callees over all
 * its call paths (name; every function of that name), LCP or INP. */
enum ana_obj_kind {
  ANA_OBJ_SCRIPTING,
  ANA_OBJ_WALL,
  ANA_OBJ_STEP,
  ANA_OBJ_CAUSE,
  ANA_OBJ_LCP,
  ANA_OBJ_INP,
};
struct ana_objective {
  int kind; /* enum ana_obj_kind */
  unsigned step;
  const char *name;
};
/* The objective's value in each pair added, old and new, in ms (NAN
 * where the traces cannot say: no such step, no LCP), at most cap
 * pairs; returns how many. */
unsigned ana_cmp_objective(struct ana_cmp *c, const struct ana_objective *o,
                           double *old_v, double *new_v, unsigned cap);

/* ---- a release's changes, ranked by their impact sets (zam/jsfunc.c,
 * zam/changes.c; seed 003) ---- */

/* A script's named functions, from its text alone (an anonymous one
 * takes the name it is assigned to, as V8 names it): each one's name and
 * first and last lines, 1-based. Caller frees with ana_js_functions_free. */
struct ana_js_fn {
  char *name;
  int32_t line, end;
};
unsigned ana_js_functions(const char *text, size_t n, struct ana_js_fn **out);
void ana_js_functions_free(struct ana_js_fn *v, unsigned n);
/* The functions of v that hold a hunk, the innermost for each of its
 * lines first..last (deletion: the lines it removed went between first and
 * first + 1), at most cap of them into out as indexes into v; *outside is
 * set when one of its lines is in no function. Returns how many. */
unsigned ana_js_holders(const struct ana_js_fn *v, unsigned n, int32_t first,
                        int32_t last, int deletion, long *out, unsigned cap,
                        int *outside);

/* A change between two releases: a function of the new release that
 * hunks of the diff fell in (its file, name and lines there), or, with
 * function NULL, hunks that fell in no function (top-level code, a file
 * that is no script); the commits of the range that touched them. */
struct ana_change {
  const char *file;
  const char *function;
  int32_t line, end;
  const struct ana_hunk *hunks;
  unsigned nhunks;
  const char *const *commits;
  unsigned ncommits;
};
/* The changes c's reports rank (report.json's changes[], summary.md,
 * report.html, the terminal): each change's impact set is its function
 * and everything under it on the call paths through it, in both builds,
 * but for what runs under another changed function, which is that one's;
 * the set's time is measured in every pair added from now on, and the
 * changes are ranked by its Δ with a 95 % interval over the pairs. A
 * function that is a node of no timeline is "not reached". A node is the
 * function when its file's path ends with the change's (strip as
 * ana_cmp_rank_changes') and its name is the function's, or ends in
 * "." and it. Call before the first ana_cmp_add; v is copied; range
 * ("GOOD..BAD") is for the reports. */
void ana_cmp_set_changes(struct ana_cmp *c, const struct ana_change *v,
                         unsigned n, const char *range, const char *strip);
/* report.json's changes[] (caller frees): ranked first, largest Δ first,
 * then the changes not reached, then those outside functions; NULL
 * without changes. */
struct cJSON *ana_cmp_changes_json(const struct ana_cmp *c);

/* ---- statistics (zam/figures.c) ---- */

/* Mean and 95 % confidence interval (Student's t) of the values that are
 * not NAN; lo and hi are NAN with fewer than two. */
struct ana_stat {
  unsigned n;
  double mean, lo, hi;
};
void ana_stat(const double *v, unsigned n, struct ana_stat *out);

/* ---- files (report/) ---- */

/* Writes a JSON document to path atomically: a temporary file renamed
 * into place. */
enum zc_err ana_write_json(const struct cJSON *doc, const char *path);

/* report.json (as doc is: schema zamcap-bisect/1), summary.md and
 * report.html into out: the culprits first, each with its cause's call
 * path and its changed functions, then the evidence, a table of steps.
 * Text from the page or the repository is escaped everywhere. */
enum zc_err ana_write_bisect(const struct cJSON *doc, const char *out);

/* An input search's reports (as doc is: schema zamcap-explore/1, made
 * by zamcap explore; docs/cmd/zamcap-explore.md) into out: explore.json,
 * summary.md, and report.html with a plot of Δ against each numeric
 * parameter. Text from the page or the flow is escaped everywhere. */
enum zc_err ana_write_explore(const struct cJSON *doc, const char *out);

/* outdir/report.json (and outdir/critical-graph.svg if there is one) to
 * outdir/report.html (report/html.c): the one self-contained page a bug
 * tracker can hold. No script, no request: the styles are inline, the
 * critical graph is an embedded image (the SVG as a data: URL) or, without
 * one, a collapsible tree; links point only at the files zamcap wrote
 * beside it (traces/, failures/, pairs/). Every string from the page or
 * the trace is HTML-escaped. */
enum zc_err ana_write_html_from(const char *outdir);

#endif
