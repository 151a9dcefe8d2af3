/* zamcap tree: one trace's pruned call tree and its end-to-end figures. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "ana.h"
#include "cmd.h"

/* A vital's value, or "missing". */
static void print_vital(const char *name, double v, const char *unit) {
  if (isnan(v))
    printf("%s%s missing", *name == 'L' ? " " : ", ", name);
  else
    printf("%s%s %.*f%s", *name == 'L' ? " " : ", ", name, *unit ? 1 : 4, v,
           unit);
}

static void print_vitals(const char *what, const struct ana_vitals *v) {
  printf("%s:", what);
  print_vital("LCP", v->lcp_ms, " ms");
  print_vital("CLS", v->cls, "");
  print_vital("INP", v->inp_ms, " ms");
  print_vital("TBT", v->tbt_ms, " ms");
  printf("\n");
}

/* The end-to-end figures of one trace, after its tree. */
static void print_figures(const struct ana_figures *f) {
  if (isnan(f->scripting_ms) && !f->marks) return;
  print_vitals("web vitals", &f->vit);
  printf("main thread: scripting %.1f ms, GC %.1f ms, style and layout "
         "%.1f ms, %.0f long task%s (%.1f ms blocking)\n",
         f->scripting_ms, f->gc_ms, f->style_layout_ms, f->long_tasks,
         f->long_tasks == 1 ? "" : "s", f->blocking_ms);
  if (!f->nsteps) return;
  if (isnan(f->scenario_ms))
    printf("scenario: no zamcap:end mark\n");
  else
    printf("scenario: %.1f ms from step %u to the end\n", f->scenario_ms,
           f->steps[0].step);
  for (uint32_t i = 0; i < f->nsteps; i++) {
    /* the type is the trace's (a mark's name): shown harmlessly */
    printf("  step %u ", f->steps[i].step);
    zc_term_put(stdout, f->steps[i].type, sizeof f->steps[i].type);
    printf(": %.1f ms\n", f->steps[i].ms);
    print_vitals("    vitals", &f->steps[i].vit);
  }
}

static int tree_exec(const struct agent_args *a) {
  if (a->noperands != 1)
    return agent_usage_error("tree", "tree wants one TRACE file");
  const char *path = a->operands[0];
  struct ana_ctx *ctx = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  enum zc_err e = ana_load(ctx, path, &tl);
  if (e) {
    zc_error("%s", zc_errmsg());
    ana_ctx_free(ctx);
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  if (!tl->samples) {
    /* as compare says: nothing to show a call tree of */
    zc_error("%s: no CPU profile samples in this trace: it holds %s", path,
             tl->what ? tl->what : "nothing zamcap reads");
    ana_timeline_free(tl);
    ana_ctx_free(ctx);
    return ZC_EXIT_USAGE;
  }
  ana_prune(tl, (a->no_prune ? 0u : ANA_PRUNE_NAMES) |
                    (a->drop_markers ? ANA_PRUNE_MARKERS : 0u));
  ana_tl_print(tl, a->min_ms, stdout);
  print_figures(&tl->fig);
  ana_timeline_free(tl);
  ana_ctx_free(ctx);
  return 0;
}

const struct agent_cmd agent_cmd_tree = {
    .name = "tree",
    .bit = AGENT_TREE,
    .usage = "usage: zamcap tree TRACE [OPTIONS]",
    .about = "Prints the pruned call tree zamcap builds from one trace: per "
             "thread,\nthe top-down aggregated calls with total and self "
             "milliseconds.\n",
    .after = NULL,
    .exec = tree_exec,
};
