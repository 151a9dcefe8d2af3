/* capture: traced runs of a scenario in Chrome, and the main command's
 * plan of them: warm-ups, then interleaved, counterbalanced pairs with
 * retries. It knows cdp/ and scenarios/, never the analysis or the
 * terminal: each function returns what it made (trace files, screenshots,
 * figures, each run's outcome) and the command line turns that into
 * progress lines and reports.
 *
 * Ownership: arguments are borrowed; strings in results belong to the
 * result and go with its _clear. */
#ifndef CAP_CAPTURE_H
#define CAP_CAPTURE_H

#include <stdint.h>

#include "cdp.h"
#include "scn.h"

/* One run in a fresh browser context: the scenario's steps (or just a
 * navigation to base), traced from zamcap.recordFrom, until the page
 * settles; the trace goes to trace_base + ".json.gz" (or ".json"). */
/* A device and network preset, applied alike to every run of every build
 * before its first step (--preset); Lighthouse's constants. */
struct cap_preset {
  const char *name;       /* "mobile", "desktop" */
  unsigned width, height; /* the viewport, CSS pixels */
  double dpr;
  int mobile;              /* mobile viewport and touch */
  const char *ua;          /* NULL: the browser's own */
  double latency_ms;       /* network: 0 = no throttling */
  double down_bps, up_bps; /* bytes per second */
  double cpu;              /* CPU slowdown, 1 none */
};
/* The preset of that name, or NULL. */
const struct cap_preset *cap_preset_find(const char *name);

struct cap_run_opts {
  const struct scn_scenario *scn;  /* NULL: navigate to base */
  const struct cap_preset *preset; /* NULL: none */
  const char *base;
  double settle_ms, timeout_ms;
  /* After the last step, the longest wait for quiet: a page still busy
   * then (polling, animating) is measured as it is and flagged, not
   * failed; 0: timeout_ms. */
  double settle_max_ms;
  const char *categories; /* NULL: the default */
  int compress, trace;
  double cpu_throttle; /* > 1 slows the CPU that many times */
  /* > 0: instead of a trace, a sampling heap profile (one sample per that
   * many bytes allocated on average, objects the GC took included) from
   * recordFrom to settled, then the retained memory after a forced GC;
   * both go to trace_base + ".heapprofile". trace must be 0. */
  double heap_interval;
  /* Set: instead of a trace, V8's call counts (precise coverage) from
   * recordFrom to settled, into trace_base + ".calls.json"
   * (zamcap-calls/1); trace must be 0. */
  int calls;
  /* Set: an I/O run (io.c): traced as ever, with the storage wrapper in
   * every frame and DevTools' requests and writes kept beside the trace,
   * in trace_base + ".io.json" (zamcap-io/1); trace must be 1. */
  int io;
  struct scn_replay_opts replay;
  const char *next_base; /* the next run's build, for its spare page */
};
struct cap_run_result {
  char *file; /* the trace; NULL untraced or failed */
  uint64_t bytes;
  double settled_ms; /* first traced step to settled */
  double work_ms;    /* the browser's work: replaying the steps and
                        settling, without contexts and traces */
  char shot[4200];   /* a failed step's screenshot, or "" */
  unsigned dialogs;  /* JavaScript dialogs the page opened (dismissed) */
  char dialog[300];  /* the first, 'alert: "Saved!"', or "" */
  char away[300];    /* a page it navigated to on another origin, or "" */
  int unsettled;     /* the page never went quiet: ended at settle_max_ms */
  double busy_pct;   /* its main thread's busy share of the settle wait */
};
/* The next run's page, made ready while Chrome flushes this run's trace:
 * opened with the same options and, when o->next_base is set, its steps
 * before recordFrom replayed on that build. */
struct cap_spare {
  struct cdp_page *page; /* NULL: none; the caller closes what is left */
  const char *base;      /* the build its first steps ran on */
  double prefix_ms;
  int prefixed;
};
/* spare may be NULL. The run takes spare->page if there is one, and when
 * it traces, prepares the next. */
enum zc_err cap_run(struct cdp_conn *conn, const struct cap_run_opts *o,
                    const char *trace_base, struct cap_run_result *res,
                    struct cap_spare *spare);

/* Count runs (calls.c): precise coverage with call counts started on p's
 * page (*inv: the functions the page had compiled then, for
 * cap_calls_end, freed with cJSON_Delete; NULL when V8 gave none); then
 * taken, each function that ran with its name, its range in lines and
 * UTF-16 columns, its calls and a hash of its text, and each named one
 * that never ran with 0 calls, written to trace_base + ".calls.json"
 * (*file, caller frees; *bytes its size). */
enum zc_err cap_calls_start(struct cdp_conn *conn, struct cdp_page *p,
                            struct cJSON **inv);
enum zc_err cap_calls_end(struct cdp_conn *conn, struct cdp_page *p,
                          const struct cJSON *inv, const char *trace_base,
                          char **file, uint64_t *bytes);

/* I/O runs (io.c). cap_io_prepare, on a page before its first document:
 * the storage wrapper (io-wrap.js) in every frame, and the console's
 * messages on. cap_io_start, when the traced steps begin: DevTools'
 * requests (their stacks, bodies, what the cache served) and the
 * wrapper's writes kept from then on, each with its step (cap_io_step is
 * scn_replay_opts.on_step's, arg the struct cap_io). cap_io_end writes
 * them to trace_base + ".io.json"; cap_io_free lets go (NULL: nothing). */
struct cap_io;
enum zc_err cap_io_prepare(struct cdp_conn *conn, struct cdp_page *p);
enum zc_err cap_io_start(struct cdp_conn *conn, struct cdp_page *p,
                         struct cap_io **out);
void cap_io_step(void *io, unsigned step);
enum zc_err cap_io_end(struct cap_io *io, const char *trace_base);
void cap_io_free(struct cap_io *io);

/* ---- plans of pairs over N builds ---- */

enum { CAP_MAX_PAIRS = 100, CAP_MAX_BUILDS = 256 };

/* One run as it went, for report.json. */
struct cap_record {
  unsigned pair, attempt; /* from 1 */
  unsigned build;         /* index in cap_runs */
  int ok;
  char *error; /* the message, when it failed */
  char *trace; /* "traces/old-1.json.gz", when it succeeded */
  char *shot;  /* "failures/old-1-try-1-step-3.png", when it kept one */
  double ms;
  uint64_t bytes;
  unsigned dialogs; /* JavaScript dialogs the page opened (dismissed) */
  char *dialog;     /* the first one, when there was one */
  char *away;       /* a page on another origin it navigated to, or NULL */
  int unsettled;    /* ended at --settle-max, still busy */
  double busy_pct;  /* the main thread's busy share of the settle wait */
};

/* What a plan's runs record: traces (the timed pairs), or, in pairs of
 * their own after those, so that no instrument weighs on a timed run,
 * sampling heap profiles (memory pairs), call counts (count pairs) or
 * traces with their I/O beside them (I/O pairs). */
enum cap_kind { CAP_TRACE, CAP_HEAP, CAP_CALLS, CAP_IO, CAP_KINDS };
/* A build's files of one kind, in the order recorded; used: the numbers
 * taken (a plan's pair i is used + i). */
struct cap_files {
  char **v;
  size_t n, cap;
  unsigned used;
};
/* Every run of a session, kept by build: a later comparison that involves
 * a build finds the files recorded for it before. */
struct cap_build {
  char *name; /* "old", "new", "b3": the files' and progress lines' */
  char *base; /* its URL */
  struct cap_files kind[CAP_KINDS];
  unsigned warm; /* warm-up runs done on it */
};
struct cap_runs {
  struct cap_build *build;
  unsigned nbuilds;
  struct cap_record *runs; /* every run, in order */
  size_t nruns, capruns;
  double work_ms; /* the runs' own time, for the overhead figure */
};
void cap_runs_init(struct cap_runs *r);
/* Adds a build; returns its index. */
unsigned cap_runs_build(struct cap_runs *r, const char *name, const char *base);
void cap_runs_clear(struct cap_runs *r);

/* What the command line hears while the plan runs: a line for a status
 * that is replaced (keep 0) or kept (keep 1). */
typedef void cap_progress_fn(void *arg, int keep, const char *msg);

/* After each complete pair, its two traces (build a's, build b's). ask is
 * set when the plan would stop on its word (auto-sampling, from
 * plan->min_pairs complete pairs on, before the last): then 1 to go on, 0
 * to stop (*why says why, a static string). A value below 0 ends the plan
 * with the error in zc_errmsg(). */
typedef int cap_pair_fn(void *arg, unsigned pair, const char *trace_a,
                        const char *trace_b, int ask, const char **why);

/* Runs one traced or untraced run; cap_run unless a test says otherwise. */
typedef enum zc_err cap_run_fn(struct cdp_conn *conn,
                               const struct cap_run_opts *o,
                               const char *trace_base,
                               struct cap_run_result *res,
                               struct cap_spare *spare);

struct cap_plan {
  const struct scn_scenario *scn;
  unsigned a, b; /* the builds compared, indexes into the cap_runs */
  unsigned pairs, warmup, retries;
  /* Auto-sampling: with decides set, the plan may stop once min_pairs
   * are complete and pair_done says so, and before a pair that would
   * likely end past budget_ms (0: none) from the first pair's start. */
  int decides;
  unsigned min_pairs;
  double budget_ms;
  cap_pair_fn *pair_done; /* may be NULL */
  void *pair_arg;
  /* After each traced run of a timed plan, before its trace counts: 0
   * when the trace measures the run; otherwise the run failed (it is
   * tried again, as any failed run) and zc_errmsg() says why. NULL: no
   * check. */
  int (*check)(void *arg, const char *trace);
  void *check_arg;
  struct cap_run_opts run; /* scn, base and next_base are set per run */
  const char *out;         /* traces go to out/traces/, screenshots to
                              run.replay.fail_dir */
  cap_progress_fn *progress;
  void *progress_arg;
  cap_run_fn *runner; /* NULL: cap_run */
  /* What the runs record (run.trace, run.heap_interval or run.calls set
   * to match): a memory pair's profiles are
   * OUT/traces/<build>-mem-<i>.heapprofile, a count pair's
   * OUT/traces/<build>-calls-<i>.calls.json, an I/O pair's
   * OUT/traces/<build>-io-<i>.json.gz and .io.json, each kind numbered
   * apart. */
  enum cap_kind kind;
};

/* One comparison's pairs, as they went; the traces are the cap_runs'. */
struct cap_outcome {
  const char *file[2][CAP_MAX_PAIRS]; /* builds a and b; NULL where none */
  unsigned complete, dropped;
  unsigned dropped_pair[CAP_MAX_PAIRS]; /* the first `dropped` are set */
  unsigned ran;                         /* pairs begun */
  const char *stop; /* why the plan stopped: "planned pairs done",
                       "decided", "--max-pairs reached", "--time-budget" */
};

/* Warm-up runs on both builds not warmed yet (untraced; a failure there
 * ends the plan: the scenario cannot run on that build), then the pairs,
 * a and b in turn, the order swapped every other pair. A run that fails
 * is tried again up to plan->retries times; a pair whose run still fails
 * is dropped and the rest go on. Each trace is kept in runs, by build.
 * Returns ZC_OK when the plan ran to its end, however many pairs were
 * dropped; an error (SIGINT, a warm-up that failed, pair_done's) with
 * *out holding what was done until then. */
enum zc_err cap_pairs(struct cdp_conn *conn, const struct cap_plan *plan,
                      struct cap_runs *runs, struct cap_outcome *out);

#endif
