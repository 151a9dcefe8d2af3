/* Private to analysis/: the report writers (report/) that agent/ does not
 * call: the critical graph as DOT, the text summary and summary.md,
 * report.json's parts, report.html from a parsed report.json, and the
 * allocation's and web vitals' parts of every report. Text from a page or
 * a trace is escaped for where it goes (ana_md_text, ana_html_text).
 *
 * Ownership: the writers borrow what they are given and write to the
 * caller's FILE or path; a cJSON they return is the caller's, freed with
 * cJSON_Delete. Arguments are borrowed. */
#ifndef ANA_REPORT_H
#define ANA_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "zam/zam.h"

/* ---- the critical graph and the summaries (report.c) ---- */

/* Graphviz DOT: leaves (regression-causes) grey-filled; each label has the
 * name, file:line and old → new (Δ) ms (DESIGN.md, output folder). */
enum zc_err ana_write_dot(const struct ana_graph *g, const char *title,
                          FILE *f);
/* "name (file:line:col)" of a spread-out cause. */
void ana_spread_where(const struct ana_ctx *c, const struct ana_spread *s,
                      char *out, size_t cap);

/* The short text summary: each regression-cause's path with its Δ, then
 * the spread-out ones with their costliest paths (sp may be NULL). */
void ana_write_summary(const struct ana_graph *g, const struct ana_spreads *sp,
                       double mu, FILE *f);
/* summary.md: a few lines for an issue comment — the verdict (when given,
 * else one made from the graph), the top regression-causes with Δ, Δ per
 * pair, place and call path, and the end-to-end change (e2e may be NULL).
 * Everything from the page is escaped for Markdown. */
void ana_write_summary_md(const struct ana_graph *g,
                          const struct ana_spreads *sp, double mu,
                          const char *verdict, const struct ana_e2e *e2e,
                          FILE *f);
/* The headline, the same in every report (terminal, summary.md,
 * report.html): "2 regression-causes (slower by ≥ 50 ms in all 3 pairs)",
 * "Inconclusive (1 candidate undecided after 3 pairs)" (no cause, some
 * undecided),
 * "No regression-cause (no function got slower by ≥ 50 ms in the one
 * pair)". causes < 0: unknown; mu NAN or npairs 0: left out; a quorum below
 * npairs says "in at least K of N pairs". Returns what snprintf does. */
int ana_headline(char *out, size_t cap, long causes, long undecided, double mu,
                 unsigned npairs, unsigned quorum);

/* Text from a page or a trace, escaped: as Markdown prose (ana_md_text),
 * as an inline code span (ana_md_code), as HTML text or a quoted
 * attribute value (ana_html_text). */
void ana_md_text(FILE *f, const char *s);
void ana_md_code(FILE *f, const char *s);
void ana_html_text(FILE *f, const char *s);

/* "name (file:line:col)" of a node, for messages and reports. */
void ana_gnode_where(const struct ana_graph *g, uint32_t i, char *out,
                     size_t cap);

/* Everything report.json holds about one comparison. */
struct ana_report {
  const char *version; /* zamcap's */
  const char *commit;  /* the git commit it was built from, or "unknown" */
  const char *command; /* "compare" */
  const struct ana_opts *opts;
  int drop_markers;
  unsigned npairs;
  const char *const *old_files, *const *new_files; /* npairs each */
  const uint32_t *old_nodes, *new_nodes; /* pruned timeline sizes per pair */
  struct ana_graph *const *pairs;        /* npairs critical graphs */
  const struct ana_graph *agg;
  struct ana_bottomup *bu;
  const struct ana_spreads *spread; /* may be NULL */
  const struct ana_stats *stats;
  double elapsed_ms;
  uint32_t bottomup_max; /* rows kept in the bottom-up table */
};
/* The report.json document (schema in README.md), for the caller to add
 * to and write; free with cJSON_Delete. */
struct cJSON;
struct cJSON *ana_report_json(const struct ana_report *r);
/* An end-to-end or web-vitals row in words ("scenario wall time", "the
 * wall time of step 6 (click)", "INP, step 6 click"). */
struct ana_e2e_row;
void ana_row_words(const struct ana_e2e_row *r, char *out, size_t cap);

/* report.json's regression_causes of a graph, its keys in the graph's
 * unit (delta_ms, delta_kb). */
struct cJSON *ana_causes_json(const struct ana_graph *g);
/* The minor causes (ana_graph_mark_minor), largest Δ first: where, Δ and
 * call path, no rank; then the minor spread-out ones of sp (or NULL):
 * where, Δ, measure ("spread self", "spread inclusive"), call_paths. */
struct ana_spreads;
struct cJSON *ana_minor_json(const struct ana_graph *g,
                             const struct ana_spreads *sp);

/* ---- report.html (html.c; ana_write_html_from in ana.h) ---- */

/* Writes report.html to path (under path + ".part", renamed when whole)
 * from report, the parsed report.json. svg_path is critical-graph.svg, or
 * NULL when there is none; one that cannot be read or is too large is
 * left out (the graph is then drawn as a tree). Fields that are missing,
 * null or of the wrong type are left out; a report that is not a JSON
 * object is ZC_E_PARSE. On error the message names the file. */
enum zc_err ana_write_html(const struct cJSON *report, const char *svg_path,
                           const char *path);

/* ---- the allocation and the web vitals (memory.c, vitals.c) ---- */

/* Allocation per call path (report/memory.c): a comparison of heap
 * profiles (unit bytes) reported beside the time comparison it is set on
 * (ana_cmp_set_memory): report.json's allocation, lines in summary.md and
 * on the terminal, old.heapprofile and new.heapprofile. m is aggregated
 * first (ana__cmp_aggregate). */
struct cJSON *ana__alloc_json(struct ana_cmp *m);
void ana__alloc_text(struct ana_cmp *m, FILE *f);
void ana__alloc_md(struct ana_cmp *m, FILE *f);
enum zc_err ana__alloc_trees(struct ana_cmp *m, const char *out);
/* An allocation comparison reported alone (compare given heap profiles
 * and no trace): its outcome, from its critical graph's causes, and its
 * one-line verdict. */
void ana__alloc_outcome(struct ana_cmp *m, struct ana_outcome *oc);
void ana__alloc_verdict(struct ana_cmp *m, const struct ana_outcome *oc,
                        char *out, size_t cap);
/* Web vitals (report/vitals.c): report.json's vitals and
 * vitals_warnings, each run's whole-run values (runs[].vitals, and
 * pairs[].old_vitals and new_vitals), and the lines of the terminal and
 * summary.md. c is aggregated first. */
void ana__vitals_doc(struct ana_cmp *c, struct cJSON *doc);
void ana__vitals_text(const struct ana_cmp *c, FILE *f);
void ana__vitals_md(const struct ana_cmp *c, FILE *f);
/* The one-line warnings, on stderr. */
void ana__vitals_warn(const struct ana_cmp *c);
/* A release's changes ranked by their impact sets (report/changes.c,
 * from ana_cmp_changes_json): report.json's changes[] and changes_range,
 * the lines of the terminal and summary.md; nothing without changes. */
void ana__changes_doc(struct ana_cmp *c, struct cJSON *doc);
void ana__changes_text(const struct ana_cmp *c, FILE *f);
void ana__changes_md(const struct ana_cmp *c, FILE *f);

#endif
