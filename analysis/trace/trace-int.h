/* Private to analysis/trace/: streaming ingest of Chrome traces and
 * .cpuprofile files, in files of one job each. bytes.c reads the file in
 * chunks (plain or gzip); scan.c's structural scanner walks the top-level
 * JSON: it finds each value's extent (brackets and strings only, no
 * allocation) and, for trace events, the offsets of the "ph" and "name"
 * values on the way. Only the events zamcap needs are read, with a pull
 * reader (jread.c) and no DOM: ph "P" (Profile/ProfileChunk) straight into
 * profile nodes and samples (profile.c), ph "M" (thread names, threads.c),
 * and for the end-to-end figures zamcap's step marks and the few complete
 * events they need (tasks, style and layout: figures-read.c). threads.c
 * labels the threads, build.c turns the samples into the timeline, and
 * load.c (ana_load) runs it all. Memory is the buffer (as large as the
 * largest single event) plus the kept profile nodes and samples, whatever
 * the file's size.
 *
 * Everything here works on one struct ing, owned by ana_load; the other
 * functions borrow it and what it points to. */
#ifndef TRACE_INT_H
#define TRACE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "jread.h"
#include "timeline.h"

struct pnode {         /* a V8 profile node */
  uint32_t id, parent; /* parent == 0: none given */
  uint32_t name, url;
  int32_t line, col;
  uint8_t kind;
  uint8_t dead; /* its parent chain is broken: its samples are dropped */
  uint32_t tl;  /* timeline node, ANA_NONE until placed */
};

/* Who started a profile (a Profile event's args.data.source): the
 * recording itself, console.profile() through the inspector, or a page's
 * JS Self-Profiling API. Older traces do not say. */
enum { PS_UNKNOWN, PS_INTERNAL, PS_INSPECTOR, PS_OTHER };

struct prof { /* one V8 profile, (pid, id) */
  int64_t pid, tid;
  char id[48];
  int has_tid, has_start, has_end, has_dstart;
  int exact_end; /* end_us is the last sample's end (old .cpuprofile) */
  int has_root;  /* a "(root)" node: nodes with no parent are orphans */
  /* start_us is the base the time deltas add to: the Profile event's ts
   * (the trace's clock, as DevTools takes it), else args.data.startTime.
   * dstart_us is args.data.startTime: V8's clock, the one endTime is in,
   * which need not be the trace's (Perfetto's clock domain; a tool that
   * rewrote the one and not the other). */
  int64_t start_us, end_us, dstart_us;
  uint8_t source;   /* PS_* */
  uint8_t left_out; /* another profile of its thread was kept */
  uint32_t label;   /* the thread's label, set before building */
  int64_t script_us, gc_us, busy_us; /* from the figures' window on */
  int64_t native_us; /* (program): browser work outside JavaScript */
  struct pnode *nodes;
  size_t nnodes, capnodes;
  struct zc_htab tab; /* node id -> index */
  uint32_t *sid;      /* sample node ids */
  int32_t *sdt;       /* time deltas, µs */
  size_t nsamp, capsamp;
};

struct thr {
  int64_t pid, tid;
  uint32_t name;
};

/* What a process or a worker thread is: the URL of a renderer's frame
 * (the main frame's when known), or of a worker's script. */
struct place {
  int64_t pid, tid; /* tid: workers only */
  uint32_t url;
  int main; /* a main frame's URL */
};

/* What the end-to-end figures need of a complete event or a mark. */
enum { EV_TASK, EV_LAYOUT, EV_MARK };
struct fev {
  int64_t pid, tid, ts, dur;
  uint8_t what;
  uint32_t step; /* EV_MARK: the step number; 0 for zamcap:end */
  char type[24]; /* EV_MARK: the step type */
};

/* A complete event with its thread time (tdur): the share of the CPU its
 * thread had over it, for weighing the samples inside it (cpu.c). */
struct cev {
  int64_t pid, tid, ts, dur;
  float share; /* tdur / dur, at most 1 */
  uint8_t js;  /* runs script (not RunTask, which holds rendering too) */
};

/* What the web vitals need of an event (vitals-read.c). */
enum { VE_NAV, VE_SOFTNAV, VE_LCP, VE_SOFTLCP, VE_SHIFT, VE_ETB, VE_ETE };
struct vev {
  int64_t ts;
  uint8_t what;
  uint8_t main;   /* NAV: the outermost main frame's, with a URL */
  uint8_t recent; /* SHIFT: had_recent_input; ETB: 2 once paired */
  uint8_t dup;    /* NAV, SOFTNAV: its id came before */
  uint32_t nav;   /* NAV, LCP: navigationId; SOFT*: the timeline's id */
  uint32_t id;    /* ETB, ETE: the async event's id */
  double v;       /* LCP: candidateIndex; SHIFT: weighted_score_delta;
                     ETB: duration (ms) */
  double iid;     /* ETB: interactionId */
};

struct ing {
  struct ana_ctx *ctx;
  const char *path;
  gzFile gz;
  char *buf;
  size_t cap, len, pos;
  uint64_t base; /* stream offset of buf[0] */
  int eof;
  uint64_t events, parsed;
  struct thr *thr;
  size_t nthr, capthr;
  struct place *frames, *workers;
  size_t nframes, capframes, nworkers, capworkers;
  /* A .cpuprofile's top-level fields, resolved once all are read: the old
   * format's "head" tree, times in seconds and absolute "timestamps". */
  int cp_head, cp_has_start, cp_has_end;
  double cp_start, cp_end;
  int64_t *cp_ts;
  size_t ncp_ts, capcp_ts;
  int other_samples; /* "samples" that are objects: not a CPU profile's */
  uint32_t ncpuprofile_events;
  struct prof *prof;
  size_t nprof, capprof;
  /* scratch, reused from event to event */
  int32_t *sid, *dt;
  size_t nsid, ndt, capsid, capdt;
  uint32_t *kids;
  size_t capkids;
  struct prof *cpuprofile; /* set when the file is a .cpuprofile */
  uint32_t k_root, k_program, k_idle, k_gc;
  struct fev *fev;
  size_t nfev, capfev;
  int64_t fig_t0;  /* the figures' window starts here (the first mark) */
  struct cev *cev; /* cpu.c, when the context weighs samples by CPU */
  size_t ncev, capcev;
  size_t capsteps;
  struct vev *vev;
  size_t nvev, capvev;
  int saw_loading, saw_task, saw_timing; /* categories recorded */
  struct ana_embedded_map *emb;          /* metadata.sourceMaps */
  uint32_t nemb;
  size_t capemb;
};

/* ---- bytes.c: reading ---- */

/* Reads more bytes, keeping buf[keep..len). Returns the shift applied to
 * offsets at or after keep (they all move down by it), and sets g->eof when
 * nothing more comes. */
enum zc_err ing_more(struct ing *g, size_t keep, size_t *shift);
/* Skips whitespace; returns the next byte (not consumed) or -1 at EOF. */
enum zc_err ing_peek(struct ing *g, int *c);

static inline int ing_isws(int c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* ---- scan.c: the scanner and the events zamcap reads ---- */

struct val {
  size_t s, e; /* extent in buf */
  size_t ph;   /* offset from s of the "ph" string's first byte */
  size_t name; /* and of the "name" string's */
  size_t cat;  /* and of the "cat" string's */
};
#define ING_NOOFF SIZE_MAX /* struct val: no "ph", "name" or "cat" */

/* Sets up the scanner's byte classes, once. */
void ing_init_cls(void);
/* The event array at g->pos ('['): each event the figures, the threads or
 * the profiles need is read. bare: the file is the array itself, whose
 * closing ']' may be missing. */
enum zc_err ing_events(struct ing *g, int bare);
/* A top-level object at g->pos ('{'): a trace's {"traceEvents": [...],
 * "metadata": ...} or a .cpuprofile's fields. */
enum zc_err ing_object(struct ing *g);
/* Walks obj to the value of key (one level); 1 with the cursor there. */
int ing_find(struct jr *r, const char *key);
/* Copies s[0..n) into dst as a string, cut to cap - 1 bytes. */
void ing_copy(char *dst, size_t cap, const char *s, size_t n);

/* ---- profile.c: profiles ---- */

void prof_free(struct prof *p);

/* The node with this id, or NULL; *pos is where the probe ended. */
static inline struct pnode *prof_lookup(const struct prof *p, uint32_t id,
                                        size_t *pos) {
  uint32_t i;
  *pos = ZC_HTAB_START;
  while (zc_htab_next(&p->tab, zc_mix64(id), pos, &i))
    if (p->nodes[i].id == id) return &p->nodes[i];
  return NULL;
}

static inline struct pnode *prof_find(const struct prof *p, uint32_t id) {
  size_t pos;
  return prof_lookup(p, id, &pos);
}

/* The events of a profile, their top level read by scan.c; args is where
 * the event's "args" value starts in r's text (NULL: none). On malformed
 * args, r->err is set and ZC_OK returned: the caller says where. */
enum zc_err ing_cpuprofile_event(struct ing *g, struct jr *r, const char *args,
                                 int64_t pid, int64_t tid, uint64_t off);
void ing_profile_event(struct ing *g, struct jr *r, int64_t pid, int64_t tid,
                       const char *id, int has_ts, double ts);
enum zc_err ing_profile_chunk(struct ing *g, struct jr *r, int64_t pid,
                              const char *id, uint64_t off);
/* One top-level field of a .cpuprofile: 0 nodes, 1 samples, 2 timeDeltas,
 * 3 startTime, 4 endTime, 5 head, 6 timestamps. */
enum zc_err ing_cpuprofile_field(struct ing *g, int f, const struct val *v);
/* The end of a .cpuprofile: its times resolved, its samples added. */
enum zc_err ing_cpuprofile_done(struct ing *g);

/* ---- cpu.c: samples weighed by their thread's share of the CPU ---- */

/* Whether a complete event of this name is one whose thread time tells
 * the CPU share of the JavaScript inside it. */
int ing_cpu_wanted(const char *name, size_t n);
/* Keeps a complete event's thread time (tdur, µs; < 0: none); js: one
 * that runs script (not the task around it). */
void ing_cpu_event(struct ing *g, int64_t pid, int64_t tid, double ts,
                   double dur, double tdur, int js);
/* The share of each of p's samples (in time order: order, or 0..n-1),
 * into share[]: the innermost kept event around it on p's thread, 1
 * where none is. Returns 0 when no event is on p's thread (share unset). */
int ing_cpu_shares(struct ing *g, const struct prof *p, const int64_t *ts,
                   const uint32_t *order, float *share);

/* ---- threads.c: what the threads are, and their labels ---- */

/* The events that say what a process or a thread is (ing_is_meta). */
int ing_is_meta(const char *name);
void ing_meta_event(struct ing *g, struct jr *r, const char *name, int64_t pid);
void ing_thread_name(struct ing *g, int64_t pid, int64_t tid, const char *name,
                     size_t n);
/* One profile per thread: the others are left out. */
void ing_choose(struct ing *g);
/* Does p make a thread in the timeline? */
int ing_built(const struct prof *p);
/* Labels every thread that gets a node; mpid, mtid: the marks' thread. */
void ing_labels(struct ing *g, int marks, int64_t mpid, int64_t mtid);

/* ---- build.c: from profiles to the timeline ---- */

void ing_build(struct ing *g, struct prof *p, struct ana_timeline *tl);

/* ---- figures-read.c: end-to-end figures ---- */

/* Keeps what the figures need of a task, a layout or a mark. */
void ing_figure_event(struct ing *g, char ph, const char *name, int64_t pid,
                      int64_t tid, double ts, double dur);
/* The figures' window (g->fig_t0) and the marks' thread. */
void ing_fig_window(struct ing *g, int64_t *pid, int64_t *tid);
/* Fills tl->fig once the profiles are built. */
void ing_figures(struct ing *g, struct ana_timeline *tl, int marks, int64_t pid,
                 int64_t tid);

/* ---- vitals-read.c: web vitals ---- */

/* Is name an event the vitals read (wanted raw: s..e holds the name's
 * string from its first byte)? */
int ing_vital_wanted(const char *s, const char *e);
int ing_vital_is(const char *name); /* the same, of a whole name */
/* Keeps what the vitals need of such an event; args as ing_event has it
 * (NULL: none). Malformed args are skipped, never an error. */
void ing_vital_event(struct ing *g, struct jr *r, const char *args, char ph,
                     const char *name, const char *id, double ts);
/* The run's and each step's vitals into fig, once ing_figures has sorted
 * the main thread's events (g->fev: long tasks and marks). */
void ing_vitals(struct ing *g, struct ana_figures *fig);

/* A sampling heap profile into a timeline of bytes (heap.c). */
enum zc_err ana__load_heap(struct ana_ctx *c, const char *path,
                           struct ana_timeline **out);

#endif
