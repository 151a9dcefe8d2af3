/* Private to analysis/: source maps (smap/sourcemap.c) and renaming a
 * timeline's functions through them (smap/symbolize.c). A map is decoded
 * once (ECMA-426, "Source Map v3"; index maps flattened) within a run's
 * budget, and looked up by generated line and column; the registry of a
 * run's maps (struct ana_maps, in ana.h) finds them by script URL.
 *
 * Ownership: an ana_smap is the caller's, freed with ana_smap_free;
 * _free(NULL) is a no-op. What a lookup fills in (struct ana_smap_pos)
 * points into the map, or into the pos itself: it lives as long as both.
 * An ana_smap_line borrows its text and owns its index (ana_smap_line_free).
 * Arguments are borrowed. */
#ifndef ANA_SMAP_H
#define ANA_SMAP_H

#include <stddef.h>
#include <stdint.h>

#include "ana.h"

/* One decoded source map (v3, index maps with "sections" flattened).
 * Columns are UTF-16 code units, lines and columns 0-based. */
struct ana_smap;
/* Parses a map; map_url (may be NULL) is what relative sources resolve
 * against. On error zc_errmsg() says what is wrong (no file name). The
 * map has a run's budget to itself (ana_smap_budget_init). */
enum zc_err ana_smap_parse(const char *json, size_t n, const char *map_url,
                           struct ana_smap **out);
/* What all the maps of a run may decode to (issue 26: a 150-byte index
 * map whose section starts at line 4 000 000 000 is no reason to allocate
 * 16 GB). Each map may also decode to no more lines than its bytes and
 * its generated script's lines say (plus 64 K), no more segments than it
 * has bytes, and no more sections than a sixteenth of them. */
struct ana_smap_budget {
  uint64_t lines, segments, sections; /* public: what is left */
  uint64_t content; /* public: bytes of sourcesContent (and its index) */
};
/* A run's budget: 32 M lines, 16 M segments, 64 K sections, 256 MB of
 * sourcesContent. A source's text over what is left of the map's share
 * (its own bytes) or of the run's is not kept: the map is still used,
 * without the names read from that text. */
void ana_smap_budget_init(struct ana_smap_budget *b);
/* ana_smap_parse within *b (gen_lines: the generated script's lines, 0
 * when it is not at hand); what the map decoded to is taken from *b. A
 * map over budget is ZC_E_PARSE ("over the source-map budget of ..."). */
enum zc_err ana_smap_parse_within(const char *json, size_t n,
                                  const char *map_url, size_t gen_lines,
                                  struct ana_smap_budget *b,
                                  struct ana_smap **out);
void ana_smap_free(struct ana_smap *m);
size_t ana_smap_segments(const struct ana_smap *m);
size_t ana_smap_bytes(const struct ana_smap *m); /* memory held */
/* Sources' texts kept, and those not kept for the budget. */
size_t ana_smap_texts(const struct ana_smap *m, size_t *dropped);
enum ana_sm_how {
  ANA_SM_SOURCE = 1, /* original source and line; V8's name kept */
  ANA_SM_NAMED,      /* the name at V8's name's own position */
  ANA_SM_PAREN,      /* the name of the segment at the '(' */
  ANA_SM_ORIGINAL,   /* the name the original text declares there */
};
#define ANA_SM_NAMEMAX 255 /* longest name read from an original text */
struct ana_smap_pos {
  const char *source;           /* resolved against the map's URL; NULL: none */
  int32_t line;                 /* original, 0-based */
  const char *name;             /* original name, or NULL (may be own) */
  uint32_t gcol;                /* the segment's generated column */
  int how;                      /* enum ana_sm_how (resolve only) */
  char own[ANA_SM_NAMEMAX + 1]; /* private: name, for ANA_SM_ORIGINAL */
};
/* The last segment on line at or before col: 0 if there is none. */
int ana_smap_lookup(const struct ana_smap *m, uint32_t line, uint32_t col,
                    struct ana_smap_pos *p);
/* Names a V8 frame (its minified name, 0-based line and column): first
 * the name its original text declares at the segment's original position
 * ("function realName(", "realName(...) {"), when the map carries that
 * text (issue 26.11, as DevTools names frames); else the rule of issue
 * 14, right on 69 of ~70 functions of real bundles where "the nearest
 * named segment" is right on 43-58. text is the generated
 * line (NULL when the script is not at hand; ascii when it is all ASCII).
 * Returns 0 where the map says nothing (top-level code, no segment). */
int ana_smap_resolve(const struct ana_smap *m, const char *text, size_t tn,
                     int ascii, const char *v8name, uint32_t line, uint32_t col,
                     struct ana_smap_pos *p);
/* A generated line with an index of its UTF-16 columns, so that finding a
 * column costs a few KB of walking, not the line up to it: built once
 * (ana_smap_line_init, O(n)) for each long line that is not all ASCII.
 * text is borrowed. */
struct ana_smap_line {
  const char *text; /* read-only */
  size_t n;         /* read-only */
  int ascii;        /* read-only */
  size_t *ckb;      /* private: checkpoint k's byte offset, >= k*ANA_SM_CK */
  uint32_t *cku;    /* private: its UTF-16 column */
  size_t nck;       /* private */
};
#define ANA_SM_CK 1024
void ana_smap_line_init(struct ana_smap_line *l, const char *text, size_t n,
                        int ascii);
void ana_smap_line_free(struct ana_smap_line *l);
/* ana_smap_resolve on an indexed line (l may be NULL: no text). */
int ana_smap_resolve_line(const struct ana_smap *m,
                          const struct ana_smap_line *l, const char *v8name,
                          uint32_t line, uint32_t col, struct ana_smap_pos *p);

/* ---- the run's maps (struct ana_maps, ana.h) ---- */

/* Adds one script's map (copied); a later add for the same URL is
 * ignored. */
void ana_maps_add(struct ana_maps *s, const char *script_url, const char *map,
                  size_t mapn, const char *map_url, const char *text,
                  size_t textn);
struct ana_sym_stats {
  uint32_t scripts, mapped; /* scripts seen, of them with a usable map */
  uint32_t frames, renamed, sourced; /* functions; renamed; only placed */
};
/* Renames the function nodes of tl whose script has a map: name, URL,
 * component, line and column become the original ones, the key follows,
 * and gen keeps the generated ones. Call after ana_load, before
 * ana_prune. A map that is missing, broken or over the run's budget
 * (ana_smap_budget) is warned about once. Stops early, leaving names
 * as they are, once zc_interrupted is set. */
void ana_symbolize(struct ana_timeline *tl, struct ana_maps *s,
                   struct ana_sym_stats *st);

#endif
