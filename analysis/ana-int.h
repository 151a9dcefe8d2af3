/* Private to analysis/: a JSON pull reader for trace events and the
 * timeline builder's id-based entry. Not part of ana.h's contract. */
#ifndef ANA_INT_H
#define ANA_INT_H

#include "ana.h"
#include "smap/smap.h"

/* Bytes ana_load asks of zlib per read (1 MiB). Only the fuzzer changes
 * it, to cut values across many buffer refills; not thread-safe. */
extern unsigned ana__ing_read;
/* The largest single JSON value ana_load holds (1 GiB); tests lower it. */
extern unsigned ana__ing_maxval;

uint32_t ana__tl_child_ids(struct ana_timeline *tl, uint32_t parent,
                           enum ana_kind kind, uint32_t name, uint32_t url,
                           int32_t line, int32_t col);

/* A pull reader over one JSON value in memory: no allocation but a scratch
 * buffer for strings with escapes. Every call returns 0 once an error is
 * met, and err says where; callers check err once at the end. Objects and
 * arrays are walked with jr_obj/jr_arr and then jr_more, which says whether
 * another member follows (and reads its key, for objects). */
struct jr {
  const char *p, *e; /* cursor and end */
  const char *err;   /* first syntax error, or NULL */
  int toobig;        /* err is a string decoded past ana__jr_strmax */
  int first;         /* private: at the first member of a container */
  struct zc_buf tmp; /* private: decoded strings */
  struct zc_buf fix; /* private: strings that were not UTF-8, mended */
};
/* The longest string with escapes a reader decodes (64 MiB; tests lower
 * it): beyond it the value is an error that says so, never cut short. */
extern size_t ana__jr_strmax;
void jr_init(struct jr *r, const char *p, size_t n);
void jr_done(struct jr *r);
int jr_peek(struct jr *r); /* next byte after whitespace, or -1 */
int jr_obj(struct jr *r);  /* consumes '{' */
int jr_arr(struct jr *r);  /* consumes '[' */
/* Next member: 1 with *key set (objects) and the cursor at its value, 0 at
 * the container's end (consumed) or on error. */
int jr_more(struct jr *r, const char **key, size_t *klen);
int jr_str(struct jr *r, const char **s, size_t *n); /* valid until next */
int jr_num(struct jr *r, double *v);
int jr_skip(struct jr *r);
/* Key comparison: k of length n equals the NUL-terminated lit. */
static inline int jr_is(const char *k, size_t n, const char *lit) {
  size_t i = 0;
  for (; i < n && lit[i] && k[i] == lit[i]; i++) {
  }
  return i == n && !lit[i];
}

/* A comparison pair by pair (zam/compare.c), read by the report writers
 * (report/write.c). Arrays are parallel, one entry a pair, in the order
 * the pairs were added; the decision fields hold the aggregation over the
 * first `decided` pairs and are made again when pairs were added since. */
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
  struct ana__watch *probes; /* ana_cmp_watch (probe.c) */
  unsigned nprobes;
};
/* Measures the probes in pair's trace of side 0 (old) or 1 (new). */
void ana__cmp_measure(struct ana_cmp *c, unsigned pair, int side,
                      const struct ana_timeline *tl,
                      const struct ana_figures *fig);
void ana__cmp_unwatch(struct ana_cmp *c);
/* Makes the aggregation over every pair added, unless it is up to date. */
void ana__cmp_aggregate(struct ana_cmp *c);

#endif
