/* The analysis and the reports, shared by zamcap compare and the one
 * command: trace pairs in; critical graphs, end-to-end figures, the
 * verdict and the report files out. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ana.h"

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
  struct dot_arg d = {g, title};
  return zc_write_atomic(path, dot_fn, &d);
}

struct md_arg {
  const struct ana_graph *g;
  const struct ana_spreads *sp;
  double mu;
  const char *verdict;
  const struct ana_e2e *e2e;
};

static enum zc_err md_fn(void *arg, FILE *f) {
  const struct md_arg *d = arg;
  ana_write_summary_md(d->g, d->sp, d->mu, d->verdict, d->e2e, f);
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
    struct tree_arg t = {bu, k & 1, k >= 2};
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
  arg_path(dot, sizeof dot, out, "critical-graph.dot");
  arg_path(part, sizeof part, out, "critical-graph.svg.part");
  arg_path(svg, sizeof svg, out, "critical-graph.svg");
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

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Loads and prunes one trace; a trace without CPU samples is an input
 * error, since there is nothing to compare. Its figures are copied out. */
static enum zc_err load_one(struct ana_ctx *ctx, const char *path,
                            int drop_markers, struct ana_bottomup *bu, int side,
                            struct ana_figures *fig, struct ana_maps *maps,
                            struct ana_sym_stats *sym,
                            struct ana_timeline **out) {
  double t0 = zc_now_ms();
  enum zc_err e = ana_load(ctx, path, out);
  if (e) return e;
  struct ana_timeline *tl = *out;
  if (!tl->samples) {
    zc_fail(ZC_E_PARSE,
            "%s: no CPU profile samples in this trace: it holds "
            "%s",
            path, tl->what ? tl->what : "nothing zamcap reads");
    ana_timeline_free(tl);
    *out = NULL;
    return ZC_E_PARSE;
  }
  ana_figures_copy(fig, &tl->fig);
  /* Original names before anything else reads them: the bottom-up table,
   * the pruning of one-letter names, the matching. */
  for (uint32_t i = 0; i < tl->nembedded; i++) {
    const struct ana_embedded_map *em = &tl->embedded[i];
    ana_maps_add(maps, em->url, em->map, em->mapn, em->map_url, NULL, 0);
  }
  if (maps) {
    struct ana_sym_stats st;
    ana_symbolize(tl, maps, &st);
    sym->frames += st.frames;
    sym->renamed += st.renamed;
    sym->sourced += st.sourced;
    sym->scripts = st.scripts;
    sym->mapped = st.mapped;
  }
  if (bu) ana_bu_add(bu, tl, side);
  ana_prune(tl, ANA_PRUNE_NAMES | (drop_markers ? ANA_PRUNE_MARKERS : 0u));
  zc_log(2, "%s: %.1f MB, %llu events, %llu samples, %u nodes, %.0f ms", path,
         (double)tl->bytes / 1e6, (unsigned long long)tl->events,
         (unsigned long long)tl->samples, tl->nnodes - tl->pruned_nodes,
         zc_now_ms() - t0);
  return ZC_OK;
}

/* Every string in the report with zc_scrub's masks. */
static void scrub_json(cJSON *o) {
  for (; o; o = o->next) {
    if (cJSON_IsString(o)) zc_scrub(o->valuestring);
    scrub_json(o->child);
  }
}

const char *ana_state_name(enum ana_state s) {
  switch (s) {
  case ANA_REGRESSION: return "regression";
  case ANA_INCONCLUSIVE: return "inconclusive";
  default: return "no regression";
  }
}

int ana_exit_code(const struct ana_outcome *oc) {
  return oc->state == ANA_REGRESSION     ? ZC_EXIT_FOUND
         : oc->state == ANA_INCONCLUSIVE ? ZC_EXIT_INCONCLUSIVE
                                         : ZC_EXIT_NONE;
}

const char *ana_e2e_state_name(enum ana_e2e_state s) {
  switch (s) {
  case ANA_E2E_UNDECIDED: return "undecided";
  case ANA_E2E_REGRESSED: return "regressed";
  case ANA_E2E_NOT: return "not regressed";
  default: return "unknown";
  }
}

/* The scenario's wall time when the marks give it, else scripting. */
static const struct ana_e2e_row *e2e_main(const struct ana_e2e *e2e) {
  const struct ana_e2e_row *sc = ana_e2e_find(e2e, "scenario_ms");
  return sc ? sc : ana_e2e_find(e2e, "scripting_ms");
}

/* The three-way outcome from the aggregated graph, the spread-out causes
 * and the end-to-end figure. */
static void outcome(const struct ana_graph *agg, unsigned nspread,
                    unsigned spread_undecided, unsigned spread_needed,
                    const struct ana_e2e *e2e, const struct ana_report_in *in,
                    struct ana_outcome *oc) {
  memset(oc, 0, sizeof *oc);
  oc->causes = ana_graph_causes(agg) + nspread;
  oc->undecided = agg->noisy_causes + spread_undecided;
  oc->pairs_needed =
      agg->pairs_needed > spread_needed ? agg->pairs_needed : spread_needed;
  oc->state = oc->causes      ? ANA_REGRESSION
              : oc->undecided ? ANA_INCONCLUSIVE
                              : ANA_NO_REGRESSION;
  oc->threshold_ms = NAN;
  const struct ana_e2e_row *r = e2e_main(e2e);
  if (!r || r->delta.n < 2 || isnan(r->delta.lo)) return;
  double thr =
      in->threshold_ms >= 0
          ? in->threshold_ms
          : (in->threshold_pct > 0 ? in->threshold_pct : 5) / 100 * r->old.mean;
  if (isnan(thr)) return;
  oc->threshold_ms = thr;
  oc->e2e = r->delta.lo > thr   ? ANA_E2E_REGRESSED
            : r->delta.hi < thr ? ANA_E2E_NOT
                                : ANA_E2E_UNDECIDED;
  if (oc->e2e == ANA_E2E_UNDECIDED) {
    double *d = zc_xmalloc((r->nv ? r->nv : 1) * sizeof *d);
    for (unsigned i = 0; i < r->nv; i++)
      d[i] = r->new_v[i] - r->old_v[i];
    unsigned k = ana_pairs_needed(d, r->nv, thr);
    free(d);
    if (k > oc->pairs_needed) oc->pairs_needed = k;
  }
}

/* The one-line verdict, first in every report. */
static void verdict(const struct ana_graph *agg, const struct ana_spreads *sp,
                    const struct ana_e2e *e2e, const struct ana_outcome *oc,
                    double mu, const struct ana_report_in *in, char *out,
                    size_t cap) {
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
  const struct ana_e2e_row *sc = e2e_main(e2e);
  char d[160] = "", where[512];
  if (sc) ana_e2e_delta_text(sc, d, sizeof d);
  const char *in_all = agg->npairs > 1 ? "in every pair" : "in the pair";
  if (nc) {
    /* Named: the largest function; (program) or GC only when alone. */
    uint32_t top = 0;
    while (top < nc && agg->nodes[cs[top].node].kind != ANA_FUNC)
      top++;
    if (top == nc) top = 0;
    ana_gnode_where(agg, cs[top].node, where, sizeof where);
    n = (size_t)snprintf(o, room,
                         "%u regression-cause%s (slower by %g ms "
                         "or more %s); the largest%s: %s, %+.1f ms.",
                         nc, nc == 1 ? "" : "s", mu, in_all,
                         agg->nodes[cs[top].node].kind == ANA_FUNC ? " function"
                                                                   : "",
                         where, cs[top].delta_ms);
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
    if (sc && n < room)
      snprintf(o + n, room - n, " The %s changed by %s.", sc->label, d);
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

enum zc_err ana_analyze(const char *const *oldf, const char *const *newf,
                        unsigned npairs, const struct ana_opts *o, int drop,
                        const char *out, const struct ana_report_in *in,
                        struct ana_outcome *oc) {
  memset(oc, 0, sizeof *oc);
  unsigned fmt = in->decide_only ? 0 : in->formats ? in->formats : ANA_FMT_ALL;
  int say = !in->decide_only;
  unsigned np1 = npairs ? npairs : 1;
  struct ana_ctx *ctx = ana_ctx_new();
  struct ana_bottomup *bu = ana_bu_new(ctx, npairs);
  struct ana_spreads sp = {bu, NULL, 0};
  struct ana_graph **graphs = zc_xcalloc(np1, sizeof *graphs);
  struct ana_figures *ofig = zc_xcalloc(np1, sizeof *ofig);
  struct ana_figures *nfig = zc_xcalloc(np1, sizeof *nfig);
  struct ana_graph *agg = NULL;
  struct ana_e2e *e2e = NULL;
  cJSON *doc = NULL;
  uint32_t *onodes = zc_xcalloc(np1, sizeof *onodes);
  uint32_t *nnodes = zc_xcalloc(np1, sizeof *nnodes);
  struct ana_timeline *ot = NULL, *nt = NULL;
  struct ana_stats stats = {0, 0, 0};
  struct ana_sym_stats sym;
  memset(&sym, 0, sizeof sym);
  /* Maps the traces carry (a DevTools export's metadata.sourceMaps) need
   * somewhere to go even when the caller gave none. */
  struct ana_maps *own = in->maps ? NULL : ana_maps_new(NULL, NULL);
  struct ana_maps *maps = in->maps ? in->maps : own;
  unsigned done = 0;
  double t0 = zc_now_ms();
  char path[4096], vtext[2048];
  snprintf(path, sizeof path, "%s/pairs", out);
  enum zc_err e = fmt & ANA_FMT_DOT ? zc_mkdirs(path) : ZC_OK;
  for (unsigned p = 0; !e && p < npairs; p++) {
    double tp = zc_now_ms();
    if ((e = load_one(ctx, oldf[p], drop, bu, 0, &ofig[p], maps, &sym, &ot)) ||
        (e = load_one(ctx, newf[p], drop, bu, 1, &nfig[p], maps, &sym, &nt)))
      break;
    onodes[p] = ana_tl_reachable(ot);
    nnodes[p] = ana_tl_reachable(nt);
    if ((e = ana_critical(ot, nt, o, &stats, &graphs[p]))) break;
    ana_timeline_free(ot);
    ana_timeline_free(nt);
    ot = nt = NULL;
    done = p + 1;
    char title[512];
    snprintf(path, sizeof path, "%s/pairs/pair-%u.dot", out, p + 1);
    snprintf(title, sizeof title, "pair %u: %s vs %s (mu = %g ms)", p + 1,
             base_name(oldf[p]), base_name(newf[p]), o->mu_ms);
    if (fmt & ANA_FMT_DOT && (e = write_dot(graphs[p], path, title))) break;
    zc_log(say ? 1 : 9, "pair %u/%u: %s vs %s: %u regression-cause%s (%.1f s)",
           p + 1, npairs, base_name(oldf[p]), base_name(newf[p]),
           ana_graph_causes(graphs[p]),
           ana_graph_causes(graphs[p]) == 1 ? "" : "s",
           (zc_now_ms() - tp) / 1e3);
  }
  int svg = 0;
  if (!e && sym.mapped)
    zc_log(say ? 1 : 9,
           "source maps: %u of %u script%s mapped; %u "
           "function%s renamed, %u more placed in their sources",
           sym.mapped, sym.scripts, sym.scripts == 1 ? "" : "s", sym.renamed,
           sym.renamed == 1 ? "" : "s", sym.sourced);
  if (!e) {
    agg = ana_aggregate(graphs, npairs, o->quorum, o->significance);
    struct ana_spread *v = NULL;
    unsigned sp_und, sp_need;
    sp.n = ana_bu_spread(bu, o->mu_ms, o->quorum, o->significance, agg, &v,
                         &sp_und, &sp_need);
    sp.v = v;
    e2e = ana_e2e_new(ofig, nfig, npairs);
    outcome(agg, sp.n, sp_und, sp_need, e2e, in, oc);
    verdict(agg, &sp, e2e, oc, o->mu_ms, in, vtext, sizeof vtext);
    if (fmt & ANA_FMT_DOT) {
      char title[256];
      snprintf(path, sizeof path, "%s/critical-graph.dot", out);
      snprintf(title, sizeof title, "critical graph: %u pair%s, mu = %g ms%s",
               npairs, npairs == 1 ? "" : "s", o->mu_ms,
               o->quorum && o->quorum < npairs ? ", quorum" : "");
      e = write_dot(agg, path, title);
      if (!e) svg = draw_svg(out);
    }
  }
  if (!e) e = write_trees(bu, fmt, out);
  if (!e && fmt & ANA_FMT_MD) {
    struct md_arg d = {agg, &sp, o->mu_ms, vtext, e2e};
    snprintf(path, sizeof path, "%s/summary.md", out);
    e = zc_write_atomic(path, md_fn, &d);
  }
  if (!e && fmt & (ANA_FMT_JSON | ANA_FMT_HTML)) {
    struct ana_report r = {
        .version = ZAMCAP_VERSION,
        .command = in->command,
        .opts = o,
        .drop_markers = drop,
        .npairs = npairs,
        .old_files = oldf,
        .new_files = newf,
        .old_nodes = onodes,
        .new_nodes = nnodes,
        .pairs = graphs,
        .agg = agg,
        .bu = bu,
        .spread = &sp,
        .stats = &stats,
        .elapsed_ms = zc_now_ms() - t0,
        .bottomup_max = 500,
    };
    doc = ana_report_json(&r);
    cJSON *v = cJSON_AddObjectToObject(doc, "verdict");
    cJSON_AddNumberToObject(v, "exit_code",
                            in->dropped ? ZC_EXIT_CAPTURE : ana_exit_code(oc));
    cJSON_AddStringToObject(v, "state", ana_state_name(oc->state));
    cJSON_AddNumberToObject(v, "pairs", npairs);
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
    cJSON_AddItemToObject(doc, "end_to_end", ana_e2e_json(e2e));
    cJSON *smj = cJSON_AddObjectToObject(doc, "source_maps");
    cJSON_AddNumberToObject(smj, "scripts", sym.scripts);
    cJSON_AddNumberToObject(smj, "mapped", sym.mapped);
    cJSON_AddNumberToObject(smj, "functions", sym.frames);
    cJSON_AddNumberToObject(smj, "renamed", sym.renamed);
    cJSON_AddNumberToObject(smj, "placed", sym.sourced);
    for (cJSON *x = in->extra ? in->extra->child : NULL; x; x = x->next)
      cJSON_AddItemToObject(doc, x->string, cJSON_Duplicate(x, 1));
    scrub_json(doc); /* the URLs' passwords and tokens (zc_url_secrets) */
    if (fmt & ANA_FMT_JSON) {
      snprintf(path, sizeof path, "%s/report.json", out);
      e = ana_write_json(doc, path);
    }
  }
  if (!e && fmt & ANA_FMT_HTML) {
    char svgp[4200];
    snprintf(svgp, sizeof svgp, "%s/critical-graph.svg", out);
    snprintf(path, sizeof path, "%s/report.html", out);
    e = ana_write_html(doc, svg ? svgp : NULL, path);
  }
  if (!e) {
    if (fmt & ANA_FMT_TEXT) {
      ana_write_summary(agg, &sp, o->mu_ms, stdout);
      print_e2e(e2e, stdout);
      fflush(stdout);
    }
    zc_log(say ? 1 : 9, "%s", vtext);
    zc_log(say ? 1 : 9, "report in %s/ (%.1f s)", out,
           (zc_now_ms() - t0) / 1e3);
  } else if (done) {
    struct zc_errsave sv;
    zc_err_save(&sv);
    zc_fail(sv.code, "%s (the graphs of the %u pair%s done are in %s/pairs/)",
            sv.msg, done, done == 1 ? "" : "s", out);
  }
  cJSON_Delete(doc);
  ana_e2e_free(e2e);
  ana_timeline_free(ot);
  ana_timeline_free(nt);
  for (unsigned p = 0; p < npairs; p++) {
    ana_graph_free(graphs[p]);
    ana_figures_clear(&ofig[p]);
    ana_figures_clear(&nfig[p]);
  }
  free(graphs);
  free(ofig);
  free(nfig);
  ana_graph_free(agg);
  free(onodes);
  free(nnodes);
  free((void *)sp.v);
  ana_bu_free(bu);
  ana_maps_free(own);
  ana_ctx_free(ctx);
  return e;
}
