/* Every report of a comparison, written from the one object that holds
 * it (ana_cmp): pairs/pair-<i>.dot, critical-graph.dot and .svg, the
 * merged trees, summary.md, report.json, report.html and the terminal
 * summary. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report.h"
#include "zc-out.h"

static const struct {
  const char *name;
  unsigned bit;
} formats[] = {
    {"text", ANA_FMT_TEXT},
    {"json", ANA_FMT_JSON},
    {"md", ANA_FMT_MD},
    {"html", ANA_FMT_HTML},
    {"dot", ANA_FMT_DOT},
    {"folded", ANA_FMT_FOLDED},
    {"cpuprofile", ANA_FMT_CPUPROFILE},
    {"all", ANA_FMT_ALL},
};

int ana_parse_formats(const char *s, unsigned *out) {
  unsigned bits = 0;
  while (*s) {
    size_t n = strcspn(s, ",");
    unsigned b = 0;
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
      if (strlen(formats[i].name) == n && !strncmp(s, formats[i].name, n))
        b = formats[i].bit;
    if (!b) return 0;
    bits |= b;
    s += n;
    if (*s == ',') s++;
  }
  if (!bits) return 0;
  *out = bits;
  return 1;
}

struct dot_arg {
  const struct ana_graph *g;
  const char *title;
};

static enum zc_err dot_fn(void *arg, FILE *f) {
  const struct dot_arg *d = arg;
  return ana_write_dot(d->g, d->title, f);
}

static enum zc_err write_dot(const struct ana_graph *g, const char *path,
                             const char *title) {
  struct dot_arg d = {.g = g, .title = title};
  return zc_write_atomic(path, dot_fn, &d);
}

struct md_arg {
  const struct ana_graph *g;
  const struct ana_spreads *sp;
  double mu;
  const char *verdict;
  const struct ana_e2e *e2e;
  struct ana_cmp *mem; /* allocation, or NULL */
  const struct ana_cmp *c;
};

static enum zc_err md_fn(void *arg, FILE *f) {
  const struct md_arg *d = arg;
  ana_write_summary_md(d->g, d->sp, d->mu, d->verdict, d->e2e, f);
  ana__vitals_md(d->c, f);
  if (d->mem) ana__alloc_md(d->mem, f);
  return ZC_OK;
}

struct tree_arg {
  const struct ana_bottomup *bu;
  int side, cpuprofile;
};

static enum zc_err tree_fn(void *arg, FILE *f) {
  const struct tree_arg *t = arg;
  return t->cpuprofile ? ana_bu_write_cpuprofile(t->bu, t->side, f)
                       : ana_bu_write_folded(t->bu, t->side, f);
}

/* old.folded, new.folded, old.cpuprofile, new.cpuprofile, as asked. */
static enum zc_err write_trees(const struct ana_bottomup *bu, unsigned fmt,
                               const char *out) {
  static const char *const side[2] = {"old", "new"};
  enum zc_err e = ZC_OK;
  for (int k = 0; !e && k < 4; k++) {
    struct tree_arg t = {.bu = bu, .side = k & 1, .cpuprofile = k >= 2};
    if (!(fmt & (t.cpuprofile ? ANA_FMT_CPUPROFILE : ANA_FMT_FOLDED))) continue;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.%s", out, side[t.side],
             t.cpuprofile ? "cpuprofile" : "folded");
    e = zc_write_atomic(path, tree_fn, &t);
  }
  return e;
}

/* A path as one argv element that no program reads as an option. */
static void arg_path(char *dst, size_t cap, const char *dir, const char *f) {
  snprintf(dst, cap, "%s%s/%s", dir[0] == '-' ? "./" : "", dir, f);
}

/* Runs Graphviz's dot on critical-graph.dot into critical-graph.svg, as a
 * child with an argv (no shell, so the output folder's name may hold any
 * character): a crash or a hang of the layout on a hostile graph costs the
 * picture, never the report, and a graph that takes longer than
 * ZC_DOT_SECONDS (default 120) is given up. Returns 1 if it was drawn; the
 * report works without. */
static int draw_svg(const char *out) {
  char dot[4200], part[4200], svg[4200], oarg[4210], err[512];
  arg_path(dot, sizeof dot, out, ZC_OUT_GRAPH_DOT);
  arg_path(part, sizeof part, out, ZC_OUT_GRAPH_SVG ".part");
  arg_path(svg, sizeof svg, out, ZC_OUT_GRAPH_SVG);
  snprintf(oarg, sizeof oarg, "-o%s", part);
  const char *sec = getenv("ZC_DOT_SECONDS");
  double limit = (sec && atof(sec) > 0 ? atof(sec) : 120) * 1000;
  char *const argv[] = {"dot", "-Tsvg", oarg, dot, NULL};
  int status = -1;
  enum zc_err e = zc_spawn_wait(argv, limit, &status, err, sizeof err);
  /* Drawn under a .part name: a full disk leaves no empty picture. */
  if (e) {
    zc_log(0, "warning: no critical-graph.svg: %s", zc_errmsg());
  } else if (status == 127 && !err[0]) {
    zc_log(1, "no critical-graph.svg: Graphviz's dot is not installed "
              "(report.html shows the graph as a tree)");
  } else if (status != 0) {
    zc_log(0, "warning: no critical-graph.svg: dot failed (%s)%s%s",
           status > 0 ? "exit code" : "killed", err[0] ? ": " : "", err);
  } else if (rename(part, svg) != 0) {
    zc_log(0, "warning: no critical-graph.svg: %s: %s", svg, strerror(errno));
  } else {
    zc_log(2, "drew %s", svg);
    return 1;
  }
  remove(part);
  return 0;
}

/* Every string in the report with zc_scrub's masks. */
static void scrub_json(cJSON *o) {
  for (; o; o = o->next) {
    if (cJSON_IsString(o)) zc_scrub(o->valuestring);
    scrub_json(o->child);
  }
}

/* An end-to-end or web-vitals row in words: "scenario wall time", "the
 * wall time of step 6 (click)", "INP, step 6 click", "LCP, whole run". */
void ana_row_words(const struct ana_e2e_row *r, char *out, size_t cap) {
  if (!strcmp(r->name, "step_ms"))
    snprintf(out, cap, "the wall time of step %u (%s)", r->step, r->type);
  else if (r->step)
    snprintf(out, cap, "%s, step %u %s", r->name, r->step, r->type);
  else if (!strcmp(r->unit, "ms") && r->label && strcmp(r->name, "LCP") &&
           strcmp(r->name, "INP") && strcmp(r->name, "TBT"))
    snprintf(out, cap, "%s", r->label);
  else
    snprintf(out, cap, "%s, whole run", r->name);
}

/* Why an inconclusive verdict is one, after the words before it. */
static size_t doubt_words(const struct ana_outcome *oc,
                          const struct ana_e2e_row *sc, const char *d,
                          unsigned npairs, char *o, size_t room) {
  size_t n = 0;
  if (oc->doubt & ANA_DOUBT_E2E && sc && n < room) {
    char more[96] = "";
    if (oc->pairs_needed > npairs)
      snprintf(more, sizeof more,
               "; about %u pairs in all would likely settle it (--pairs %u)",
               oc->pairs_needed, oc->pairs_needed);
    n += (size_t)snprintf(o + n, room - n,
                          " The %s changed by %s: its interval holds the "
                          "threshold (%.1f ms), so it could hide a "
                          "regression that size%s.",
                          sc->label, d, oc->threshold_ms, more);
  }
  if (oc->doubt & ANA_DOUBT_STARVED && n < room)
    n += (size_t)snprintf(o + n, room - n,
                          " The runs' main thread had %.0f %% of a core "
                          "while it worked (the median run): the machine "
                          "was too busy to measure on; run again on a "
                          "quieter one.",
                          100 * oc->cpu_share);
  return n;
}

/* The one-line verdict, first in every report. */
static void verdict(struct ana_cmp *c, const struct ana_outcome *oc,
                    const struct ana_report_in *in, char *out, size_t cap) {
  const struct ana_graph *agg = c->agg;
  const struct ana_spreads *sp = &c->sp;
  double mu = c->o.mu;
  size_t n = 0;
  if (in->dropped)
    n = (size_t)snprintf(out, cap,
                         "Capture incomplete: %u of %u pairs "
                         "dropped; from the other %u: ",
                         in->dropped, in->planned, agg->npairs);
  if (n >= cap) return;
  char *o = out + n;
  size_t room = cap - n;
  struct ana_cause *cs;
  uint32_t nc = ana_causes(agg, &cs);
  const struct ana_e2e_row *sc = ana_e2e_main(c->e2e);
  char d[160] = "", where[512];
  if (sc) ana_e2e_delta_text(sc, d, sizeof d);
  const char *in_all = agg->npairs > 1 ? "in every pair" : "in the pair";
  const struct ana_e2e_row *ux[64];
  double uthr[64];
  unsigned nux =
      ana_cmp_unexplained(c, in->threshold_ms, in->threshold_pct, ux, uthr, 64);
  if (nc) {
    /* Named: the largest; every cause is a function ((program) and GC
     * never are, issue 25). */
    ana_gnode_where(agg, cs[0].node, where, sizeof where);
    uint32_t ne = 0;
    for (uint32_t k = 0; k < nc; k++)
      ne += cs[k].effect != 0;
    n = (size_t)snprintf(o, room,
                         "%u regression-cause%s (slower by %g ms "
                         "or more %s); %s: %s, %+.1f ms.",
                         nc, nc == 1 ? "" : "s", mu, in_all,
                         ne ? "the largest root" : "the largest function",
                         where, cs[0].delta_ms);
    if (ne && n < room)
      n += (size_t)snprintf(o + n, room - n,
                            " %u of them %s more of the same work, likely "
                            "its consequence%s (ranked after it).",
                            ne, ne == 1 ? "does" : "do", ne == 1 ? "" : "s");
    if (sp->n && n < room)
      n += (size_t)snprintf(o + n, room - n,
                            " Also %u spread out over "
                            "call paths (see below).",
                            sp->n);
    if (sc && n < room)
      snprintf(o + n, room - n, " The %s changed by %s.", sc->label, d);
  } else if (sp->n) {
    /* No call path passed μ alone, yet a function did over all of its. */
    ana_spread_where(agg->ctx, &sp->v[0], where, sizeof where);
    n = (size_t)snprintf(o, room,
                         "%u spread-out regression-cause%s: no "
                         "single call path got slower by %g ms or more %s, "
                         "but the largest, %s, did by %+.1f ms over its %u "
                         "call paths.",
                         sp->n, sp->n == 1 ? "" : "s", mu, in_all, where,
                         sp->v[0].delta_ms, sp->v[0].npaths);
    if (sc && n < room)
      snprintf(o + n, room - n, " The %s changed by %s.", sc->label, d);
  } else if (nux) {
    char what[256], ud[160];
    ana_row_words(ux[0], what, sizeof what);
    ana_e2e_delta_text(ux[0], ud, sizeof ud);
    n = (size_t)snprintf(o, room,
                         "A regression no function explains: %s got slower "
                         "by %s, beyond its threshold (%.1f %s)",
                         what, ud, uthr[0], ux[0]->unit);
    if (nux > 1 && n < room)
      n += (size_t)snprintf(o + n, room - n, ", and %u more figure%s", nux - 1,
                            nux == 2 ? "" : "s");
    if (n < room)
      snprintf(o + n, room - n,
               ". No function got slower by %g ms or more %s: the time went "
               "to waiting (timers, the network, rendering) or is spread "
               "thinner than that.",
               mu, in_all);
  } else if (oc->undecided) {
    char more[96] = "";
    if (oc->pairs_needed > agg->npairs)
      snprintf(more, sizeof more,
               "; about %u pairs in all would likely "
               "settle it (--pairs %u)",
               oc->pairs_needed, oc->pairs_needed);
    n = (size_t)snprintf(o, room,
                         "Inconclusive: %u candidate%s slower by "
                         "%g ms or more %s varied too widely over the %u "
                         "pairs to decide%s.",
                         oc->undecided, oc->undecided == 1 ? "" : "s", mu,
                         in_all, agg->npairs, more);
    if (sc && n < room && !(oc->doubt & ANA_DOUBT_E2E))
      n += (size_t)snprintf(o + n, room - n, " The %s changed by %s.",
                            sc->label, d);
    if (n < room) doubt_words(oc, sc, d, agg->npairs, o + n, room - n);
  } else if (oc->doubt) {
    n = (size_t)snprintf(o, room,
                         "Inconclusive: no function got slower by %g ms or "
                         "more %s, but that does not show it is not slower.",
                         mu, in_all);
    if (n < room) doubt_words(oc, sc, d, agg->npairs, o + n, room - n);
  } else if (sc && sc->significant && sc->delta.mean > 0) {
    snprintf(o, room,
             "No single function got slower by %g ms or more %s, "
             "yet the %s got slower by %s: the regression is spread out or "
             "below %g ms; see the bottom-up table.",
             mu, in_all, sc->label, d, mu);
  } else {
    n = (size_t)snprintf(o, room,
                         "No regression-cause: no function got "
                         "slower by %g ms or more %s.",
                         mu, in_all);
    if (sc && n < room)
      snprintf(o + n, room - n, " The %s %s: %s.", sc->label,
               sc->significant ? "changed" : "did not change significantly", d);
  }
  free(cs);
}

/* The regressions no function explains, after the causes (none when a
 * function is named). */
static void print_unexplained(struct ana_cmp *c, const struct ana_report_in *in,
                              FILE *f) {
  const struct ana_e2e_row *rows[64];
  double thr[64];
  unsigned n = ana_cmp_unexplained(c, in->threshold_ms, in->threshold_pct, rows,
                                   thr, 64);
  if (!n) return;
  fprintf(f, "%u regression%s no function explains (beyond the threshold):\n",
          n, n == 1 ? "" : "s");
  for (unsigned k = 0; k < n; k++) {
    char what[256], d[160];
    ana_row_words(rows[k], what, sizeof what);
    ana_e2e_delta_text(rows[k], d, sizeof d);
    fprintf(f, "  %s: %s (threshold %.1f %s)\n", what, d, thr[k],
            rows[k]->unit);
  }
}

/* The end-to-end table on stdout, after the causes. */
static void print_e2e(const struct ana_e2e *e, FILE *f) {
  if (!e || !e->nmetrics) return;
  fprintf(f, "end to end, old -> new (mean of %u pair%s):\n", e->npairs,
          e->npairs == 1 ? "" : "s");
  for (unsigned i = 0; i < e->nmetrics; i++) {
    const struct ana_e2e_row *r = &e->rows[i];
    if (!r->delta.n) continue;
    char d[160];
    ana_e2e_delta_text(r, d, sizeof d);
    fprintf(f, "  %-40s %9.1f -> %9.1f  %s%s\n", r->label, r->old.mean,
            r->new_.mean, d, r->significant ? "  *" : "");
  }
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* pairs/pair-<i>.dot for the pairs added since the last call. */
static enum zc_err write_pair_dots(struct ana_cmp *c, const char *out) {
  char path[4200], title[512];
  snprintf(path, sizeof path, "%s/" ZC_OUT_PAIRS, out);
  enum zc_err e = c->dots < c->n ? zc_mkdirs(path) : ZC_OK;
  for (; !e && c->dots < c->n; c->dots++) {
    unsigned p = c->dots;
    snprintf(path, sizeof path, "%s/" ZC_OUT_PAIRS "/" ZC_OUT_PAIR_FMT, out,
             p + 1);
    snprintf(title, sizeof title, "pair %u: %s vs %s (mu = %g ms)", p + 1,
             base_name(c->old_files[p]), base_name(c->new_files[p]), c->o.mu);
    e = write_dot(c->graphs[p], path, title);
  }
  return e;
}

/* critical-graph.dot and, with Graphviz, its picture; *svg says whether
 * there is one. */
static enum zc_err write_graph(const struct ana_cmp *c, const char *out,
                               int *svg) {
  char path[4200], title[256];
  unsigned n = c->n;
  snprintf(path, sizeof path, "%s/" ZC_OUT_GRAPH_DOT, out);
  snprintf(title, sizeof title, "critical graph: %u pair%s, mu = %g ms%s", n,
           n == 1 ? "" : "s", c->o.mu,
           c->o.quorum && c->o.quorum < n ? ", quorum" : "");
  enum zc_err e = write_dot(c->agg, path, title);
  if (!e) *svg = draw_svg(out);
  return e;
}

/* report.json's verdict object. */
static void add_verdict(cJSON *doc, const struct ana_cmp *c,
                        const struct ana_report_in *in,
                        const struct ana_outcome *oc, const char *vtext) {
  cJSON *v = cJSON_AddObjectToObject(doc, "verdict");
  cJSON_AddNumberToObject(v, "exit_code",
                          in->dropped ? ZC_EXIT_CAPTURE : ana_exit_code(oc));
  cJSON_AddStringToObject(v, "state", ana_state_name(oc->state));
  cJSON_AddNumberToObject(v, "pairs", c->n);
  cJSON_AddNumberToObject(v, "undecided", oc->undecided);
  if (oc->pairs_needed)
    cJSON_AddNumberToObject(v, "pairs_needed", oc->pairs_needed);
  else
    cJSON_AddNullToObject(v, "pairs_needed");
  cJSON *ev = cJSON_AddObjectToObject(v, "end_to_end");
  cJSON_AddStringToObject(ev, "state", ana_e2e_state_name(oc->e2e));
  if (isnan(oc->threshold_ms))
    cJSON_AddNullToObject(ev, "threshold_ms");
  else
    cJSON_AddNumberToObject(ev, "threshold_ms",
                            round(oc->threshold_ms * 1000) / 1000);
  cJSON_AddStringToObject(v, "text", vtext);
  if (!isnan(oc->cpu_share))
    cJSON_AddNumberToObject(v, "cpu_share", round(oc->cpu_share * 1000) / 1000);
  cJSON *why = cJSON_AddArrayToObject(v, "inconclusive_because");
  if (oc->doubt & ANA_DOUBT_CAUSES)
    cJSON_AddItemToArray(why, cJSON_CreateString("candidates undecided"));
  if (oc->doubt & ANA_DOUBT_E2E)
    cJSON_AddItemToArray(why, cJSON_CreateString("end to end undecided"));
  if (oc->doubt & ANA_DOUBT_STARVED)
    cJSON_AddItemToArray(why, cJSON_CreateString("starved machine"));
}

/* report.json's unexplained_causes: the end-to-end and web-vitals rows
 * that regressed beyond their threshold with no function named (issue
 * 34). Each is a regression of its own for the exit code, the history
 * and the tracker, known by its metric and step. */
static cJSON *unexplained_json(struct ana_cmp *c,
                               const struct ana_report_in *in) {
  const struct ana_e2e_row *rows[64];
  double thr[64];
  unsigned n = ana_cmp_unexplained(c, in->threshold_ms, in->threshold_pct, rows,
                                   thr, 64);
  cJSON *arr = cJSON_CreateArray();
  for (unsigned k = 0; k < n; k++) {
    const struct ana_e2e_row *r = rows[k];
    cJSON *o = cJSON_CreateObject();
    char words[256];
    ana_row_words(r, words, sizeof words);
    cJSON_AddNumberToObject(o, "rank", k + 1);
    cJSON_AddStringToObject(o, "name", words);
    cJSON_AddStringToObject(o, "metric", r->name);
    cJSON_AddNumberToObject(o, "step", r->step);
    cJSON_AddStringToObject(o, "type", r->type);
    cJSON_AddStringToObject(o, "unit", r->unit);
    cJSON_AddNumberToObject(o, "old", round(r->old.mean * 1000) / 1000);
    cJSON_AddNumberToObject(o, "new", round(r->new_.mean * 1000) / 1000);
    cJSON_AddNumberToObject(o, "delta", round(r->delta.mean * 1000) / 1000);
    cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
    cJSON_AddItemToArray(ci,
                         cJSON_CreateNumber(round(r->delta.lo * 1000) / 1000));
    cJSON_AddItemToArray(ci,
                         cJSON_CreateNumber(round(r->delta.hi * 1000) / 1000));
    cJSON_AddNumberToObject(o, "threshold", round(thr[k] * 1000) / 1000);
    cJSON *pp = cJSON_AddArrayToObject(o, "delta_per_pair");
    for (unsigned i = 0; i < r->nv; i++)
      cJSON_AddItemToArray(
          pp, isnan(r->new_v[i] - r->old_v[i])
                  ? cJSON_CreateNull()
                  : cJSON_CreateNumber(
                        round((r->new_v[i] - r->old_v[i]) * 1000) / 1000));
    cJSON_AddStringToObject(o, "explained_by", "no function");
    cJSON_AddItemToArray(arr, o);
  }
  return arr;
}

/* The report.json document: the analysis, the verdict, the source maps
 * and the caller's fields, every string scrubbed of secrets. */
static cJSON *report_doc(struct ana_cmp *c, const struct ana_report_in *in,
                         const struct ana_outcome *oc, const char *vtext) {
  struct ana_opts o = c->o;
  if (o.quorum > c->n) o.quorum = c->n;
  struct ana_report r = {
      .version = ZAMCAP_VERSION,
      .commit = zc_commit,
      .command = in->command,
      .opts = &o,
      .drop_markers = c->drop,
      .npairs = c->n,
      .old_files = (const char *const *)c->old_files,
      .new_files = (const char *const *)c->new_files,
      .old_nodes = c->old_nodes,
      .new_nodes = c->new_nodes,
      .pairs = c->graphs,
      .agg = c->agg,
      .bu = c->bu,
      .spread = &c->sp,
      .stats = &c->stats,
      .elapsed_ms = c->work_ms,
      .bottomup_max = 500,
  };
  cJSON *doc = ana_report_json(&r);
  add_verdict(doc, c, in, oc, vtext);
  cJSON *e2e = ana_e2e_json(c->e2e);
  cJSON_AddItemToObject(doc, "end_to_end", e2e);
  if (c->mem) {
    /* Retained memory: rows of the memory pairs, beside the time rows. */
    cJSON *mj = ana_e2e_json(c->mem->e2e);
    cJSON *rows = cJSON_GetObjectItem(mj, "metrics");
    cJSON *dst = cJSON_GetObjectItem(e2e, "metrics");
    for (cJSON *x = rows ? rows->child : NULL; x; x = x->next) {
      cJSON_AddNumberToObject(x, "pairs", c->mem->n);
      cJSON_AddItemToArray(dst, cJSON_Duplicate(x, 1));
    }
    cJSON_Delete(mj);
    cJSON_AddItemToObject(doc, "allocation", ana__alloc_json(c->mem));
  }
  cJSON *smj = cJSON_AddObjectToObject(doc, "source_maps");
  cJSON_AddNumberToObject(smj, "scripts", c->sym.scripts);
  cJSON_AddNumberToObject(smj, "mapped", c->sym.mapped);
  cJSON_AddNumberToObject(smj, "functions", c->sym.frames);
  cJSON_AddNumberToObject(smj, "renamed", c->sym.renamed);
  cJSON_AddNumberToObject(smj, "placed", c->sym.sourced);
  for (cJSON *x = in->extra ? in->extra->child : NULL; x; x = x->next)
    cJSON_AddItemToObject(doc, x->string, cJSON_Duplicate(x, 1));
  ana__vitals_doc(c, doc); /* after the caller's runs, which it adds to */
  ana__calls_json(c, doc);
  cJSON_AddItemToObject(doc, "unexplained_causes", unexplained_json(c, in));
  scrub_json(doc); /* the URLs' passwords and tokens (zc_url_secrets) */
  return doc;
}

/* report.json and report.html, as fmt asks. */
static enum zc_err write_doc(struct ana_cmp *c, const char *out, unsigned fmt,
                             const struct ana_report_in *in,
                             const struct ana_outcome *oc, const char *vtext,
                             int svg) {
  if (!(fmt & (ANA_FMT_JSON | ANA_FMT_HTML))) return ZC_OK;
  char path[4200], svgp[4200];
  cJSON *doc = report_doc(c, in, oc, vtext);
  enum zc_err e = ZC_OK;
  if (fmt & ANA_FMT_JSON) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_REPORT, out);
    e = ana_write_json(doc, path);
  }
  if (!e && fmt & ANA_FMT_HTML) {
    snprintf(svgp, sizeof svgp, "%s/" ZC_OUT_GRAPH_SVG, out);
    snprintf(path, sizeof path, "%s/" ZC_OUT_HTML, out);
    e = ana_write_html(doc, svg ? svgp : NULL, path);
  }
  cJSON_Delete(doc);
  return e;
}

/* An error once some pairs are compared says where their graphs are. */
static enum zc_err fail_done(const struct ana_cmp *c, const char *out) {
  struct zc_errsave sv;
  zc_err_save(&sv);
  return zc_fail(sv.code,
                 "%s (the graphs of the %u pair%s done are in %s/" ZC_OUT_PAIRS
                 "/)",
                 sv.msg, c->n, c->n == 1 ? "" : "s", out);
}

void ana_cmp_set_memory(struct ana_cmp *c, struct ana_cmp *mem) {
  c->mem = mem && mem->n ? mem : NULL;
}

enum zc_err ana_cmp_write(struct ana_cmp *c, const char *out,
                          const struct ana_report_in *in,
                          struct ana_outcome *oc) {
  double t0 = zc_now_ms();
  ana_cmp_outcome(c, in->threshold_ms, in->threshold_pct, oc);
  if (c->mem) ana__cmp_aggregate(c->mem);
  if (!c->n) return zc_fail(ZC_E_USAGE, "no pair to report on");
  unsigned fmt = in->formats ? in->formats : ANA_FMT_ALL;
  const struct ana_sym_stats *sym = &c->sym;
  if (sym->mapped)
    zc_log(1,
           "source maps: %u of %u script%s mapped; %u "
           "function%s renamed, %u more placed in their sources",
           sym->mapped, sym->scripts, sym->scripts == 1 ? "" : "s",
           sym->renamed, sym->renamed == 1 ? "" : "s", sym->sourced);
  ana__vitals_warn(c);
  char vtext[2048], path[4200];
  verdict(c, oc, in, vtext, sizeof vtext);
  int svg = 0;
  enum zc_err e = ZC_OK;
  if (fmt & ANA_FMT_DOT && !(e = write_pair_dots(c, out)))
    e = write_graph(c, out, &svg);
  if (!e) e = write_trees(c->bu, fmt, out);
  if (!e && c->mem) e = ana__alloc_trees(c->mem, out);
  if (!e && fmt & ANA_FMT_MD) {
    struct md_arg d = {.g = c->agg,
                       .sp = &c->sp,
                       .mu = c->o.mu,
                       .verdict = vtext,
                       .e2e = c->e2e,
                       .mem = c->mem,
                       .c = c};
    snprintf(path, sizeof path, "%s/" ZC_OUT_SUMMARY, out);
    e = zc_write_atomic(path, md_fn, &d);
  }
  c->work_ms += zc_now_ms() - t0; /* report.json's elapsed_ms */
  t0 = zc_now_ms();
  if (!e) e = write_doc(c, out, fmt, in, oc, vtext, svg);
  c->work_ms += zc_now_ms() - t0;
  if (e) return fail_done(c, out);
  if (fmt & ANA_FMT_TEXT) {
    ana_write_summary(c->agg, &c->sp, c->o.mu, stdout);
    print_unexplained(c, in, stdout);
    print_e2e(c->e2e, stdout);
    ana__vitals_text(c, stdout);
    if (c->mem) ana__alloc_text(c->mem, stdout);
    fflush(stdout);
  }
  zc_log(1, "%s", vtext);
  zc_log(1, "report in %s/ (%.1f s)", out, c->work_ms / 1e3);
  return ZC_OK;
}

struct alloc_md_arg {
  struct ana_cmp *m;
  const char *verdict;
};

static enum zc_err alloc_md_fn(void *arg, FILE *f) {
  const struct alloc_md_arg *d = arg;
  fputs("### zamcap: ", f);
  ana_md_text(f, d->verdict);
  fputs("\n", f);
  ana__alloc_md(d->m, f);
  return ZC_OK;
}

/* A comparison of heap profiles alone (compare given no trace): the
 * allocation's causes make the verdict; report.json holds the options,
 * the verdict, the retained rows of the profiles zamcap recorded and
 * allocation; summary.md and the terminal its lines; and the merged
 * profiles. */
static enum zc_err write_alloc_only(struct ana_cmp *m, const char *out,
                                    const struct ana_report_in *in,
                                    struct ana_outcome *oc) {
  unsigned fmt = in->formats ? in->formats : ANA_FMT_ALL;
  char vtext[2048], path[4200];
  ana__alloc_outcome(m, oc);
  ana__alloc_verdict(m, oc, vtext, sizeof vtext);
  enum zc_err e = ana__alloc_trees(m, out);
  if (!e && fmt & ANA_FMT_MD) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_SUMMARY, out);
    struct alloc_md_arg d = {.m = m, .verdict = vtext};
    e = zc_write_atomic(path, alloc_md_fn, &d);
  }
  if (!e && fmt & (ANA_FMT_JSON | ANA_FMT_HTML)) {
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", "zamcap-report/2");
    cJSON_AddStringToObject(doc, "zamcap_version", ZAMCAP_VERSION);
    cJSON_AddStringToObject(doc, "zamcap_commit", zc_commit);
    cJSON_AddStringToObject(doc, "command", in->command);
    cJSON *op = cJSON_AddObjectToObject(doc, "options");
    cJSON_AddNumberToObject(op, "mu_kb", m->o.mu);
    cJSON_AddNumberToObject(op, "quorum", m->agg->quorum);
    cJSON_AddBoolToObject(op, "significance", m->o.significance);
    add_verdict(doc, m, in, oc, vtext);
    cJSON *e2e = ana_e2e_json(m->e2e);
    cJSON *rows = cJSON_GetObjectItem(e2e, "metrics");
    for (cJSON *x = rows ? rows->child : NULL; x; x = x->next)
      cJSON_AddNumberToObject(x, "pairs", m->n);
    cJSON_AddItemToObject(doc, "end_to_end", e2e);
    cJSON_AddItemToObject(doc, "allocation", ana__alloc_json(m));
    for (cJSON *x = in->extra ? in->extra->child : NULL; x; x = x->next)
      cJSON_AddItemToObject(doc, x->string, cJSON_Duplicate(x, 1));
    scrub_json(doc);
    snprintf(path, sizeof path, "%s/" ZC_OUT_REPORT, out);
    if (fmt & ANA_FMT_JSON) e = ana_write_json(doc, path);
    snprintf(path, sizeof path, "%s/" ZC_OUT_HTML, out);
    if (!e && fmt & ANA_FMT_HTML) e = ana_write_html(doc, NULL, path);
    cJSON_Delete(doc);
  }
  if (e) return e;
  if (fmt & ANA_FMT_TEXT) {
    ana__alloc_text(m, stdout);
    fflush(stdout);
  }
  zc_log(1, "%s", vtext);
  zc_log(1, "report in %s/", out);
  return ZC_OK;
}

/* The heap profiles' comparison, or NULL when there are none; on error
 * *e is set (the message names the file). */
static struct ana_cmp *alloc_pairs(const struct ana_opts *o,
                                   const struct ana_report_in *in,
                                   enum zc_err *e) {
  *e = ZC_OK;
  if (!in->mem_pairs) return NULL;
  struct ana_opts mo = *o;
  mo.mu = in->mem_mu > 0 ? in->mem_mu : 256;
  struct ana_cmp *m = ana_cmp_new(&mo, 0, in->maps, in->mem_pairs, 1);
  for (unsigned p = 0; !*e && p < in->mem_pairs; p++)
    *e = ana_cmp_add(m, in->mem_old[p], in->mem_new[p]);
  if (!*e && zc_interrupted)
    *e = zc_fail(ZC_E_INTERRUPTED, "interrupted before the report");
  if (*e) {
    ana_cmp_free(m);
    return NULL;
  }
  return m;
}

enum zc_err ana_analyze(const char *const *oldf, const char *const *newf,
                        unsigned npairs, const struct ana_opts *o, int drop,
                        const char *out, const struct ana_report_in *in,
                        struct ana_outcome *oc) {
  memset(oc, 0, sizeof *oc);
  unsigned fmt = in->formats ? in->formats : ANA_FMT_ALL;
  struct ana_cmp *c = ana_cmp_new(o, drop, in->maps, npairs, 1);
  enum zc_err e = ZC_OK;
  /* Each pair's graph is written as soon as it is made: an error on a
   * later pair leaves those done. */
  for (unsigned p = 0; !e && p < npairs; p++)
    if (!(e = ana_cmp_add(c, oldf[p], newf[p])) && fmt & ANA_FMT_DOT)
      e = write_pair_dots(c, out);
  for (unsigned p = 0; !e && npairs && p < in->calls_pairs; p++)
    if (ana_cmp_add_calls(c, in->calls_old[p], in->calls_new[p]))
      zc_log(0, "warning: count pair %u left out: %s", p + 1, zc_errmsg());
  struct ana_cmp *mem = NULL;
  if (!e) mem = alloc_pairs(o, in, &e);
  if (!e && zc_interrupted)
    e = zc_fail(ZC_E_INTERRUPTED, "interrupted before the report");
  if (!e && !npairs && mem) {
    e = write_alloc_only(mem, out, in, oc);
  } else if (!e) {
    ana_cmp_set_memory(c, mem);
    e = ana_cmp_write(c, out, in, oc);
  } else if (c->n) {
    e = fail_done(c, out);
  }
  ana_cmp_free(c);
  ana_cmp_free(mem);
  return e;
}
