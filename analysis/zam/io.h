/* Private to analysis/: I/O per call path (ana.h's struct ana_io). An I/O
 * run is read into a struct ana_io_run: its requests from the trace
 * (trace/io-read.c: ResourceSendRequest, ResourceReceiveResponse,
 * ResourceFinish, ResourceMarkAsCached, each request placed in the step
 * whose mark came before it) and, from the .io.json beside the trace
 * (agent/capture/io.c), their whole stacks, bodies and what the cache
 * served, and the storage writes. zam/io.c makes five timelines of each
 * run, one per measure, and compares them as time is compared;
 * report/io.c writes report.json's io, the terminal's, summary.md's and
 * report.html's I/O parts.
 *
 * Ownership: a run's strings are interned in the context it was read in
 * (the comparison's reading context); a run is freed with
 * ana__io_run_free. Arguments are borrowed. */
#ifndef ANA_IO_H
#define ANA_IO_H

#include <stdint.h>

#include "zam.h"

/* The measures, each a timeline of its own. */
enum {
  IO_REQUESTS, /* requests, a count */
  IO_RECEIVED, /* bytes received (encodedDataLength: on the wire) */
  IO_SENT,     /* bytes sent (request bodies) */
  IO_WRITES,   /* storage writes, a count */
  IO_WRITTEN,  /* bytes written to storage */
  IO_NMEASURES
};
struct io_measure {
  const char *name;  /* report.json's measure: "requests", "received_kb" */
  const char *words; /* "requests", "KB received" */
  uint8_t unit;      /* ANA_UNIT_COUNT or ANA_UNIT_BYTES */
  uint8_t storage;   /* writes, not requests */
  uint8_t per;       /* the measure its calls are counted in */
  uint8_t bytes;     /* the measure of its bytes per call */
};
extern const struct io_measure ana__io_measures[IO_NMEASURES];

/* A frame of a stack: the function's name, its script's URL, and where
 * in it the call was made (0-based; -1 unknown). */
struct io_frame {
  uint32_t name, url;
  int32_t line, col;
};

enum {
  IO_F_CACHED = 1,   /* served from a cache (memory, disk, service worker) */
  IO_F_FAILED = 2,   /* a network error: no response */
  IO_F_ERROR = 4,    /* an HTTP error status (400 and up) */
  IO_F_SENT_CUT = 8, /* a body past what DevTools shows: at least */
};
/* A request, or writes summed by step, kind, key and stack. */
struct io_item {
  uint32_t rid;             /* the requestId; 0 for writes */
  uint32_t what;            /* "GET /api/item/:id", "localStorage.setItem k" */
  uint32_t frame0, nframes; /* its stack in run->frames, outermost first */
  /* With no stack: who asked ("(parser)", "(style)", "(navigation)") and
   * the URL of the document or style sheet that asked; 0: none. */
  uint32_t synth, synth_url;
  uint32_t step; /* from 1 */
  uint8_t storage, flags;
  uint8_t cache;   /* 'm'emory, 'd'isk, 's'ervice worker, 0 */
  double n;        /* requests: 1; writes: how many */
  double received; /* bytes */
  double decoded;  /* the body's bytes, decoded */
  double sent;     /* request body, or bytes written */
  double ms;       /* from sent to finished; NAN unknown */
  int64_t ts;      /* the trace's clock, µs; the order of writes */
};
struct io_step {
  uint32_t step;
  char type[24];
};
struct ana_io_run {
  char *path;
  char *own; /* the page's origin: its first document's; NULL unknown */
  struct io_frame *frames;
  size_t nframes, capframes;
  struct io_item *items;
  size_t nitems, capitems;
  struct io_step *steps; /* the steps marked, in order */
  uint32_t nsteps;
  int sidecar; /* the .io.json was read */
  /* the wrapper: frames it ran in, and in how many a replacement failed */
  unsigned wrapped, wrap_failed;
  /* what passed a cap: stacks, requests and writes' sums the capture did
   * not keep one by one, requests the trace reader did not keep */
  double cap_stacks, cap_requests, cap_writes, cap_trace;
  /* writes the capture counted past its sums' cap, and their bytes: in
   * the totals, under the frame "(past the cap)" */
  double over_writes, over_bytes;
};
void ana__io_run_free(struct ana_io_run *r);

/* ---- reading (trace/io-read.c) ---- */

/* Reads an I/O run: the trace at path through ana_load (CPU profiles
 * skipped) for its requests and steps, then path's .io.json when it is
 * there. Strings go into c. On error returns the code, and zc_errmsg()
 * names the file. */
enum zc_err ana__io_read(struct ana_ctx *c, const char *path,
                         struct ana_io_run **out);
/* The .io.json of a trace: "x.json.gz" and "x.json" give "x.io.json".
 * Caller frees. */
char *ana__io_sidecar_path(const char *trace);

/* ---- the comparison (zam/io.c) ---- */

/* A call path's values in one run, per measure: a path is the pruned
 * frames' (component, name) down to what was asked, as text. */
struct io_path {
  char *key;    /* "thread\x1ecomponent\x1fname\x1e...": levels */
  uint32_t len; /* strlen(key) */
  double *v;    /* [pair][side][measure] */
  /* where the innermost frame made the call, for the report */
  uint32_t url, what;
  int32_t line;
};
struct ana_io {
  struct ana_opts o;
  double mu_requests, mu_kb;
  struct ana_ctx *rctx; /* the runs' strings */
  struct ana_maps *maps;
  unsigned expect, n, cap;
  struct ana_cmp *m[IO_NMEASURES]; /* one comparison a measure */
  struct ana_io_run **old_runs, **new_runs;
  struct io_path *paths;
  size_t npaths, cappaths;
  struct zc_htab ptab;
  uint32_t *idmap[IO_NMEASURES]; /* rctx string id -> m[k]'s, +1 */
  size_t nidmap[IO_NMEASURES];
  struct ana_e2e *rows; /* ana__io_rows, made on demand */
  const struct ana_graph *fixed[IO_NMEASURES]; /* io_drop_moved's, done */
  struct io_watch {
    char *key;
    int m, by_last;
  } * watch; /* ana_io_watch */
  unsigned nwatch;
  double *wv[2]; /* ana_io_probe_values' answer */
  unsigned rows_for;
};
/* Aggregates every measure's comparison over the pairs added. */
void ana__io_aggregate(struct ana_io *io);
/* The I/O causes over the measures: regression-causes and spread-out
 * ones, largest first within a measure, the measures in order; *n gets
 * how many. Each names the function that issued the I/O (the cause's
 * parent when the cause is the request or write itself) and what was
 * asked. Caller frees with ana__io_causes_free. */
struct io_cause {
  int measure;
  const struct ana_graph *g; /* the measure's aggregated graph */
  uint32_t node;             /* in g, or ANA_NONE for a spread-out one */
  const struct ana_spread *sp;
  char *name, *what, *url; /* the function, what it asked, its script */
  int32_t line;            /* where it asked, 1-based; 0 unknown */
  char **path;             /* thread down to the function */
  uint32_t npath;
  /* a function named above what it asked: the functions between, on
   * its largest path ("saveDraft" under onDraftInput) */
  char **via;
  uint32_t nvia;
  double old, new_, delta, lo, hi; /* per run, in the measure's shown unit */
  double *dpair;                   /* per-pair deltas */
  unsigned npairs;
  /* SPECTRAPERF's columns: calls (requests or writes) and bytes per call
   * (KB) on its path, old and new, runs of the new build it was seen in,
   * and the similarity (Ochiai) of the new runs' bytes per call to the
   * old runs' range */
  double calls_old, calls_new, per_call_old, per_call_new, similarity;
  unsigned seen, runs;
  int isnew; /* no such path in the old build */
};
struct io_cause *ana__io_causes(struct ana_io *io, unsigned *n);
void ana__io_causes_free(struct io_cause *c, unsigned n);
/* "+48 requests, +2.1 MB received" for the causes that share cause k's
 * path and what (k first), into out. */
void ana__io_cause_words(const struct io_cause *c, unsigned n, unsigned k,
                         char *out, size_t cap);
/* The end-to-end and per-step rows of every measure (metric "requests",
 * "received_kb", ..., step 0 the whole run), with their statistics, over
 * the pairs added; owned by io. */
const struct ana_e2e *ana__io_rows(struct ana_io *io);
/* Whether causes are found, or undecided: the outcome's I/O part. */
void ana__io_outcome(struct ana_io *io, unsigned *causes, unsigned *undecided,
                     unsigned *pairs_needed);

/* ---- reports (report/io.c) ---- */

struct cJSON;
/* report.json's io, and each I/O run's figures as runs[].io. */
struct cJSON *ana__io_json(struct ana_io *io);
void ana__io_runs_doc(struct ana_io *io, struct cJSON *doc);
void ana__io_text(struct ana_io *io, FILE *f);
void ana__io_md(struct ana_io *io, FILE *f);
/* The verdict's I/O part (none: ""): alone, "2 I/O regression-causes
 * (...): +48 requests: a > b (GET /x)."; beside time's, the same after
 * " Also ". Returns its length. */
size_t ana__io_verdict(struct ana_io *io, int alone, char *out, size_t cap);
/* Warnings on stderr: caps reached, a wrapper that failed. */
void ana__io_warn(struct ana_io *io);

#endif
