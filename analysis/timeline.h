/* Private to analysis/: what a timeline is made of, and the context it
 * is made in. The ana_ctx interns names, URLs and (component, name) keys
 * to integers, so that matching compares integers; a timeline's nodes
 * (struct ana_node) form one top-down call tree per thread, built by hand
 * or from samples (ana_tl_*), loaded by trace/ (ana_load, in ana.h) and
 * pruned (zam/timeline.c). ana.h has the timeline itself, the figures, and
 * loading, pruning and printing one.
 *
 * Ownership: strings, keys and the ana_gen records are interned in the
 * ana_ctx and live as long as it does; a timeline borrows its ctx (free it
 * last) and owns its nodes, children and embedded maps. Arguments are
 * borrowed. */
#ifndef ANA_TIMELINE_H
#define ANA_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "ana.h"

#define ANA_NONE UINT32_MAX /* no node, no index, no match */

/* ---- interning: names, URLs and (component, name) keys to integers ---- */

/* (struct ana_ctx, ana_ctx_new and ana_ctx_free are in ana.h.) */
/* Samples weighed by the CPU their thread had (ana_load): set by
 * the comparisons, off by default (zamcap tree, the engine's figures). */
void ana_ctx_set_cpu_time(struct ana_ctx *c, int on);
int ana_ctx_cpu_time(const struct ana_ctx *c);
/* The requests read too (ana_load sets ana_timeline.io, zam/io.h): 1
 * beside the CPU profiles, 2 without them; 0 (the default): not read. */
void ana_ctx_set_io(struct ana_ctx *c, int mode);
int ana_ctx_io(const struct ana_ctx *c);
uint32_t ana_intern(struct ana_ctx *c, const char *s, size_t n);
/* A function's or thread's name, cut to at most ANA_NAME_MAX bytes: a
 * longer one keeps its first bytes (whole UTF-8 characters), then "…" and
 * 16 hex digits of the whole name's hash, so that two long names that
 * share their start stay distinct. URLs are interned whole (maps are
 * found by them). */
#define ANA_NAME_MAX 1024
uint32_t ana_intern_name(struct ana_ctx *c, const char *s, size_t n);
const char *ana_str(const struct ana_ctx *c, uint32_t id);
/* The matching key of a node: equal keys may match (DESIGN.md). */
uint32_t ana_key(struct ana_ctx *c, uint32_t component, uint32_t name);
/* Where a function a source map renamed was in the generated script: its
 * minified name, the script's URL and the 0-based position. Ids from 1;
 * 0 means "not renamed". */
struct ana_gen {
  uint32_t name, url;
  int32_t line, col;
};
uint32_t ana_gen_add(struct ana_ctx *c, const struct ana_gen *g);
const struct ana_gen *ana_gen_get(const struct ana_ctx *c, uint32_t id);

/* ---- the unit of a timeline's weights (enum ana_unit, ana.h) ---- */

struct ana_unit_desc {
  const char *name;  /* "time", "bytes", "count" */
  const char *shown; /* "ms", "KB", "" (after a number, with a space) */
  const char *key;   /* report.json's key suffix: delta_ms, delta_kb */
  double per;        /* raw weights per shown unit: 1000, 1024, 1 */
};
/* The unit's description; an unknown value is time's. */
const struct ana_unit_desc *ana_unit_desc(unsigned unit);

/* ---- nodes ---- */

enum ana_kind {
  ANA_ROOT,
  ANA_THREAD,
  ANA_FUNC,    /* a JavaScript (or native) function */
  ANA_PROGRAM, /* (program): browser work outside JavaScript */
  ANA_GC,      /* (garbage collector) */
  ANA_IDLE,    /* (idle): no work; never a regression-cause */
};

struct ana_node {                /* read-only for users */
  uint32_t name, url, component; /* string ids */
  uint32_t key;                  /* ana_key(component, name) */
  int32_t line, col;             /* 0-based as V8 gives them; -1 unknown */
  uint32_t gen;                  /* ana_gen_get: renamed by a source map */
  uint8_t kind;                  /* enum ana_kind */
  uint8_t pruned;                /* removed by ana_prune */
  uint32_t parent;
  uint32_t kid0, nkids; /* children: tl->kids[kid0 .. kid0+nkids) */
  int64_t total, self;  /* raw weights in the timeline's unit */
  int64_t first_us;     /* first sample in the subtree; INT64_MAX if none */
};

/* Source maps a trace file carries (DevTools' metadata.sourceMaps):
 * ana_timeline.embedded. */
struct ana_embedded_map {
  char *url, *map_url, *map; /* owned */
  size_t mapn;
};

/* ---- building, pruning ---- */

/* Building a timeline by hand (tests, the paper's example) or from
 * samples: add nodes under a parent (0 is the root); an equal sibling (same
 * kind, name, url, line, column) is returned instead of a new one.
 * ana_tl_sample adds a sample of dur_us at ts_us to a node's self time. */
struct ana_timeline *ana_tl_new(struct ana_ctx *c, const char *source);
uint32_t ana_tl_child(struct ana_timeline *tl, uint32_t parent,
                      enum ana_kind kind, const char *name, const char *url,
                      int32_t line, int32_t col);
/* The same with a name and a URL already interned (the loaders'). */
uint32_t ana__tl_child_ids(struct ana_timeline *tl, uint32_t parent,
                           enum ana_kind kind, uint32_t name, uint32_t url,
                           int32_t line, int32_t col);
void ana_tl_sample(struct ana_timeline *tl, uint32_t node, int64_t ts_us,
                   int64_t dur_us);
/* Computes totals, first samples and sorted children; call once. */
void ana_tl_finish(struct ana_timeline *tl);

/* Whether ANA_PRUNE_NAMES removes a node of this name (the bottom-up
 * view sees through the same functions). */
int ana_name_pruned(const struct ana_ctx *c, uint32_t name);
/* A name as DevTools shows it: "(anonymous)" for a function (func != 0)
 * V8 left unnamed, else the name as it is. */
const char *ana_shown_name(const struct ana_ctx *c, uint32_t name, int func);
/* Counts the nodes reachable from the root. */
uint32_t ana_tl_reachable(const struct ana_timeline *tl);

/* ---- loading (trace/): knobs for the tests and the fuzzer ---- */

/* Bytes ana_load asks of zlib per read (1 MiB). Only the fuzzer changes
 * it, to cut values across many buffer refills; not thread-safe. */
extern unsigned ana__ing_read;
/* The largest single JSON value ana_load holds (1 GiB); tests lower it. */
extern unsigned ana__ing_maxval;

#endif
