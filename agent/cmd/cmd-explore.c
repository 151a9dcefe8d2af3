/* zamcap explore FLOW --old A --new B: which inputs expose the regression
 * (seed 003's input search). The flow declares parameters; a search
 * (scenarios/search.c) proposes their values, each candidate is measured
 * with one interleaved pair (its fitness: the objective's new - old), the
 * best few are measured again with pairs of their own for an interval,
 * and the worst input is then compared as the main command compares
 * (OUT/worst/). A candidate whose flow fails is recorded with its reason
 * and never counted. The search is scenarios'; capture, statistics and
 * reports are the rooms': the session runs the pairs, ana_cmp_objective
 * reads the fitness, analysis/report/explore.c writes the reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "scn.h"
#include "session.h"
#include "zc-out.h"

enum {
  CONFIRM_PAIRS = 3, /* pairs of each of the best few, measured again */
  CONFIRM_MOST = 3,  /* how many of the best */
};

struct cand {
  char **values; /* one per parameter of the flow */
  long order;    /* tried in this order, from 1 */
  long id;       /* in the search */
  char *reason;  /* failed: why */
  double screen; /* the screening pair's Δ */
  double old_ms, new_ms;
  struct ana_stat conf; /* the pairs measured again (n 0: none) */
};

struct explore {
  const struct agent_args *a;
  struct agent_args args; /* the session's: a, with its retries changed */
  struct agent_session *s;
  struct scn_scenario *base; /* the flow with its first values */
  struct scn_param *fp;      /* the parameters searched (not --param's) */
  size_t nfp, *fix;          /* fix[k]: fp[k]'s index in base->params */
  struct ana_objective obj;
  char label[300]; /* the objective in words */
  struct cand *c;
  size_t nc;
  unsigned runs, confirm; /* traced runs made; candidates to measure again */
  double t0;
  const char *stopped;
};

/* --objective: scripting, wall, step:N, cause:NAME, lcp or inp. */
static int parse_objective(struct explore *x, const char *s) {
  struct ana_objective *o = &x->obj;
  if (!s || !strcmp(s, "scripting")) {
    o->kind = ANA_OBJ_SCRIPTING;
    snprintf(x->label, sizeof x->label, "CPU time in JavaScript");
  } else if (!strcmp(s, "wall")) {
    o->kind = ANA_OBJ_WALL;
    snprintf(x->label, sizeof x->label, "the scenario's wall time");
  } else if (!strcmp(s, "lcp") || !strcmp(s, "inp")) {
    o->kind = s[0] == 'l' ? ANA_OBJ_LCP : ANA_OBJ_INP;
    snprintf(x->label, sizeof x->label, "%s", s[0] == 'l' ? "LCP" : "INP");
  } else if (!strncmp(s, "step:", 5) && agent_parse_uint(s + 5, &o->step) &&
             o->step >= 1) {
    o->kind = ANA_OBJ_STEP;
    snprintf(x->label, sizeof x->label, "step %u's wall time", o->step);
  } else if (!strncmp(s, "cause:", 6) && s[6]) {
    o->kind = ANA_OBJ_CAUSE;
    o->name = s + 6;
    snprintf(x->label, sizeof x->label, "%s's time with its callees", s + 6);
  } else {
    return agent_usage_error("explore",
                             "--objective wants scripting, wall, step:N, "
                             "cause:NAME, lcp or inp, not '%s'",
                             s);
  }
  return 0;
}

/* The parameters to search: the flow's, but those --param fixes. */
static void searched(struct explore *x) {
  x->fp = zc_xcalloc(x->base->nparams + 1, sizeof *x->fp);
  x->fix = zc_xcalloc(x->base->nparams + 1, sizeof *x->fix);
  for (size_t k = 0; k < x->base->nparams; k++) {
    const char *name = x->base->params[k].name;
    int fixed = 0;
    for (unsigned i = 0; i < x->a->nparams && !fixed; i++)
      fixed = !strncmp(x->a->params[i], name, strlen(name)) &&
              x->a->params[i][strlen(name)] == '=';
    if (fixed) continue;
    x->fix[x->nfp] = k;
    x->fp[x->nfp++] = x->base->params[k]; /* borrowed: base owns it */
  }
}

static int check_args(struct explore *x) {
  const struct agent_args *a = x->a;
  if (a->noperands != 1)
    return agent_usage_error("explore", "give one FLOW, and --old and --new");
  enum scn_strategy k;
  if (a->search && !scn_strategy_parse(a->search, &k))
    return agent_usage_error(
        "explore", "--search wants cover, ga or random, not '%s'", a->search);
  int rc = parse_objective(x, a->objective);
  if (rc) return rc;
  if (!a->old || !a->new_)
    return agent_usage_error("explore",
                             "give both --old URL|DIR and --new URL|DIR");
  if (a->cdp.chrome && a->cdp.browser_url)
    return agent_usage_error("explore", "--chrome and --browser-url exclude "
                                        "each other");
  return 0;
}

/* The flow, refused without parameters to search. */
static int load_flow(struct explore *x) {
  enum zc_err e = agent_load_scenario(x->a, x->a->operands[0], &x->base);
  if (e) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  if (!x->base->nparams)
    return agent_usage_error(
        "explore",
        "%s declares no parameters to search: add \"zamcap\": "
        "{\"parameters\": {\"NAME\": {\"choice\": [\"a\", \"b\"]}}} and use "
        "{{NAME}} in a step's value, url, expression or selectors",
        x->a->operands[0]);
  searched(x);
  if (!x->nfp)
    return agent_usage_error("explore",
                             "--param fixes every parameter of "
                             "%s: nothing is left to search",
                             x->a->operands[0]);
  return 0;
}

/* ---- measuring a candidate ---- */

/* Its values for every parameter: the searched ones, and --param's. */
static char **full_values(const struct explore *x, const char *const *v) {
  char **all = zc_xcalloc(x->base->nparams + 1, sizeof *all);
  for (size_t k = 0; k < x->base->nparams; k++)
    all[k] = zc_xstrdup(x->base->values[k]);
  for (size_t k = 0; k < x->nfp; k++) {
    free(all[x->fix[k]]);
    all[x->fix[k]] = zc_xstrdup(v[k]);
  }
  return all;
}

static void free_values(char **v, size_t n) {
  for (size_t k = 0; v && k < n; k++)
    free(v[k]);
  free(v);
}

/* Why the runs from `first` on failed: the last one's error. */
static char *fail_reason(const struct explore *x, size_t first) {
  const struct cap_runs *rs = agent_session_runs(x->s);
  for (size_t k = rs->nruns; k-- > first;)
    if (!rs->runs[k].ok && rs->runs[k].error)
      return zc_xstrdup(rs->runs[k].error);
  return zc_xstrdup("no pair was complete");
}

/* Pairs of the candidate's flow; the objective's Δ of each into d (*n).
 * Returns 0, 1 when it failed (*why, caller frees), or an error that
 * stops the search (Chrome gone, interrupted: printed). */
static int measure(struct explore *x, struct cand *c, unsigned pairs, double *d,
                   unsigned *n, double *om, double *nm, char **why) {
  struct scn_scenario *scn = NULL;
  *n = 0;
  *why = NULL;
  if (scn_expand(x->base, (const char *const *)c->values, &scn)) {
    *why = zc_xstrdup(zc_errmsg());
    return 1;
  }
  agent_session_set_scenario(x->s, scn);
  struct ana_cmp *cmp = agent_session_cmp(x->s, pairs, 9);
  struct agent_pairs p = {.a = 0, .b = 1, .pairs = pairs, .min_pairs = pairs};
  struct cap_outcome oc;
  size_t first = agent_session_runs(x->s)->nruns;
  enum zc_err e = agent_session_pairs(x->s, &p, cmp, &oc);
  /* a run that failed before any was recorded (a warm-up) counts too */
  unsigned made = (unsigned)(agent_session_runs(x->s)->nruns - first);
  x->runs += made ? made : e != ZC_OK;
  if (e == ZC_E_INTERRUPTED || e == ZC_E_BROWSER || zc_interrupted) {
    zc_error("%s", zc_errmsg());
    ana_cmp_free(cmp);
    return -1;
  }
  double o[CAP_MAX_PAIRS], w[CAP_MAX_PAIRS];
  unsigned k = e ? 0 : ana_cmp_objective(cmp, &x->obj, o, w, CAP_MAX_PAIRS);
  *om = *nm = 0;
  for (unsigned i = 0; i < k; i++)
    if (!isnan(o[i]) && !isnan(w[i])) {
      d[(*n)++] = w[i] - o[i];
      *om += o[i];
      *nm += w[i];
    }
  if (*n) *om /= *n, *nm /= *n;
  if (e)
    *why = zc_xstrdup(zc_errmsg());
  else if (!ana_cmp_pairs(cmp))
    *why = fail_reason(x, first);
  else if (!*n)
    *why = zc_xstrdup("the traces do not give the objective (no such step, "
                      "no LCP or INP, no such function)");
  ana_cmp_free(cmp);
  return *why ? 1 : 0;
}

/* "query=\"red shoes\", rows=2000" */
static void values_line(const struct explore *x, char *const *v, char *out,
                        size_t cap) {
  size_t n = 0;
  out[0] = '\0';
  for (size_t k = 0; k < x->base->nparams && n < cap; k++) {
    const char *q = x->base->params[k].kind == SCN_PARAM_INT ? "" : "\"";
    n += (size_t)snprintf(out + n, cap - n, "%s%s=%s%s%s", k ? ", " : "",
                          x->base->params[k].name, q, v[k], q);
  }
}

/* ---- the search ---- */

/* Runs left for screening: the budget but the pairs of the best few. */
static unsigned screen_budget(const struct explore *x) {
  unsigned reserve = x->confirm * CONFIRM_PAIRS * 2;
  return x->a->budget > reserve ? x->a->budget - reserve : 0;
}

/* One candidate proposed, measured with one pair, told; returns 0 to go
 * on, 1 when the search is over, -1 when it must stop (printed). */
static int screen_one(struct explore *x, struct scn_search *sr) {
  if (x->runs + 2 > screen_budget(x)) {
    x->stopped = "--budget spent";
    return 1;
  }
  if (x->a->time_budget_s > 0 &&
      zc_now_ms() - x->t0 > x->a->time_budget_s * 1e3) {
    x->stopped = "--time-budget spent";
    return 1;
  }
  const char *const *v;
  long id = scn_search_next(sr, &v);
  if (id < 0) {
    x->stopped = "every combination tried";
    return 1;
  }
  x->c = zc_xreallocarray(x->c, x->nc + 1, sizeof *x->c);
  struct cand *c = &x->c[x->nc++];
  *c = (struct cand){.values = full_values(x, v),
                     .order = (long)x->nc,
                     .id = id,
                     .screen = NAN};
  double d[2];
  unsigned n;
  char line[1024], *why;
  values_line(x, c->values, line, sizeof line);
  int r = measure(x, c, 1, d, &n, &c->old_ms, &c->new_ms, &why);
  if (r < 0) return -1;
  c->reason = why;
  c->screen = r ? NAN : d[0];
  scn_search_tell(sr, id, c->screen);
  if (r)
    zc_log(1, "candidate %ld (%s): failed: %s", c->order, line, why);
  else
    zc_log(1, "candidate %ld (%s): %+.1f ms", c->order, line, c->screen);
  return 0;
}

static int by_screen(const void *pa, const void *pb) {
  const struct cand *a = *(const struct cand *const *)pa;
  const struct cand *b = *(const struct cand *const *)pb;
  if (a->screen != b->screen) return a->screen > b->screen ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order);
}

/* The best few by their screening pair, measured again with pairs of
 * their own (the screening pair left out: it was chosen for being large,
 * and would bias the interval up). */
static int confirm_best(struct explore *x) {
  struct cand **v = zc_xcalloc(x->nc + 1, sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < x->nc; i++)
    if (!x->c[i].reason) v[n++] = &x->c[i];
  qsort(v, n, sizeof *v, by_screen);
  int rc = 0;
  for (size_t i = 0; i < n && i < x->confirm && !rc; i++) {
    struct cand *c = v[i];
    double d[CONFIRM_PAIRS];
    unsigned k;
    char *why, line[1024];
    values_line(x, c->values, line, sizeof line);
    zc_log(1, "measuring candidate %ld again (%s): %u pairs", c->order, line,
           CONFIRM_PAIRS);
    int r = measure(x, c, CONFIRM_PAIRS, d, &k, &c->old_ms, &c->new_ms, &why);
    if (r < 0) rc = -1;
    if (r > 0) {
      zc_log(1, "candidate %ld failed when measured again: %s", c->order, why);
      free(why);
      continue;
    }
    ana_stat(d, k, &c->conf);
  }
  free(v);
  return rc;
}

/* The worst input: of those measured again, the largest mean Δ; else
 * the largest screening Δ; NULL when every candidate failed. */
static struct cand *worst(const struct explore *x) {
  struct cand *w = NULL;
  for (int pass = 0; pass < 2 && !w; pass++)
    for (size_t i = 0; i < x->nc; i++) {
      struct cand *c = &x->c[i];
      double d = pass ? c->screen : c->conf.n ? c->conf.mean : NAN;
      double wd = !w ? NAN : pass ? w->screen : w->conf.mean;
      if (!c->reason && !isnan(d) && (!w || d > wd)) w = c;
    }
  return w;
}

/* ---- explore.json ---- */

static cJSON *ms(double v) {
  return isnan(v) ? cJSON_CreateNull()
                  : cJSON_CreateNumber(round(v * 1000) / 1000);
}

/* A parameter's value as JSON: an integer as a number. */
static cJSON *value_json(const struct scn_param *p, const char *v) {
  return p->kind == SCN_PARAM_INT ? cJSON_CreateNumber(strtod(v, NULL))
                                  : cJSON_CreateString(v);
}

static cJSON *cand_json(const struct explore *x, const struct cand *c) {
  cJSON *o = cJSON_CreateObject();
  cJSON *vs = cJSON_AddObjectToObject(o, "values");
  cJSON *nums = cJSON_AddObjectToObject(o, "numbers");
  for (size_t k = 0; k < x->base->nparams; k++) {
    const struct scn_param *p = &x->base->params[k];
    cJSON_AddItemToObject(vs, p->name, value_json(p, c->values[k]));
    double num = scn_param_number(p, c->values[k]);
    if (!isnan(num)) cJSON_AddNumberToObject(nums, p->name, num);
  }
  cJSON_AddNumberToObject(o, "order", (double)c->order);
  cJSON_AddStringToObject(o, "status", c->reason ? "failed" : "ok");
  if (c->reason)
    cJSON_AddStringToObject(o, "reason", c->reason);
  else
    cJSON_AddNullToObject(o, "reason");
  int conf = c->conf.n > 0;
  cJSON_AddItemToObject(o, "delta_ms",
                        ms(c->reason ? NAN
                           : conf    ? c->conf.mean
                                     : c->screen));
  cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
  if (conf && !isnan(c->conf.lo)) {
    cJSON_AddItemToArray(ci, ms(c->conf.lo));
    cJSON_AddItemToArray(ci, ms(c->conf.hi));
  }
  cJSON_AddNumberToObject(o, "pairs", c->reason ? 0 : conf ? c->conf.n : 1);
  cJSON_AddBoolToObject(o, "measured_again", conf);
  cJSON_AddItemToObject(o, "screen_ms", ms(c->screen));
  cJSON_AddItemToObject(o, "old_ms", ms(c->reason ? NAN : c->old_ms));
  cJSON_AddItemToObject(o, "new_ms", ms(c->reason ? NAN : c->new_ms));
  cJSON_AddBoolToObject(o, "significant",
                        conf && !isnan(c->conf.lo) && c->conf.lo > 0);
  return o;
}

/* Sorted by Δ, largest first; the failed last, in their order. */
static int by_delta(const void *pa, const void *pb) {
  const cJSON *a = *(const cJSON *const *)pa, *b = *(const cJSON *const *)pb;
  const cJSON *da = cJSON_GetObjectItem(a, "delta_ms");
  const cJSON *db = cJSON_GetObjectItem(b, "delta_ms");
  int na = cJSON_IsNumber(da), nb = cJSON_IsNumber(db);
  if (na != nb) return nb - na;
  if (na && da->valuedouble != db->valuedouble)
    return da->valuedouble > db->valuedouble ? -1 : 1;
  double oa = cJSON_GetObjectItem(a, "order")->valuedouble;
  double ob = cJSON_GetObjectItem(b, "order")->valuedouble;
  return (oa > ob) - (oa < ob);
}

static cJSON *candidates_json(const struct explore *x) {
  cJSON **v = zc_xcalloc(x->nc + 1, sizeof *v);
  for (size_t i = 0; i < x->nc; i++)
    v[i] = cand_json(x, &x->c[i]);
  if (x->nc) qsort(v, x->nc, sizeof *v, by_delta);
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < x->nc; i++)
    cJSON_AddItemToArray(a, v[i]);
  free(v);
  return a;
}

static cJSON *params_json(const struct explore *x) {
  cJSON *a = cJSON_CreateArray();
  static const char *const kind[] = {"choice", "int", "string"};
  for (size_t k = 0; k < x->base->nparams; k++) {
    const struct scn_param *p = &x->base->params[k];
    char t[600], axis[300];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", p->name);
    cJSON_AddStringToObject(o, "kind", kind[p->kind]);
    scn_param_text(p, t, sizeof t);
    cJSON_AddStringToObject(o, "text", t);
    int searched = 0;
    for (size_t i = 0; i < x->nfp; i++)
      searched |= x->fix[i] == k;
    cJSON_AddBoolToObject(o, "searched", searched);
    cJSON_AddBoolToObject(o, "numeric", p->kind != SCN_PARAM_CHOICE);
    if (p->kind == SCN_PARAM_CHOICE) {
      cJSON_AddItemToArray(a, o);
      continue;
    }
    int in = p->kind == SCN_PARAM_INT;
    cJSON_AddNumberToObject(o, "low", in ? (double)p->lo : p->minlen);
    cJSON_AddNumberToObject(o, "high", in ? (double)p->hi : p->maxlen);
    cJSON_AddBoolToObject(o, "log", in && p->log);
    snprintf(axis, sizeof axis, in ? "%s" : "length of %s", p->name);
    cJSON_AddStringToObject(o, "axis", axis);
    cJSON_AddItemToArray(a, o);
  }
  return a;
}

/* The verdict in words. Whether the new build is slower at the worst
 * input is what the comparison there decided (rc, with its own pairs and
 * stopping rule), as the exit code says; the 3 pairs measured again give
 * the interval beside it. Three pairs alone straddle 0 on a loaded
 * machine (seen: +490 ms, 95 % CI -45 to +1025, where the comparison
 * found the regression), and would call an A/A's luckiest input slower
 * one time in 40. */
static void verdict(const struct explore *x, const struct cand *w, int rc,
                    char *out, size_t cap) {
  char line[1024];
  size_t failed = 0;
  for (size_t i = 0; i < x->nc; i++)
    failed += x->c[i].reason != NULL;
  if (!w) {
    snprintf(out, cap, "No candidate could be measured: all %zu failed.",
             x->nc);
    return;
  }
  values_line(x, w->values, line, sizeof line);
  const char *what = rc == ZC_EXIT_FOUND  ? "Slower"
                     : rc == ZC_EXIT_NONE ? "No input was found slower"
                     : rc == ZC_EXIT_INCONCLUSIVE
                         ? "Undecided (the comparison at the worst input "
                           "could not decide)"
                         : "Not compared (the comparison at the worst input "
                           "failed)";
  if (w->conf.n && !isnan(w->conf.lo))
    snprintf(out, cap,
             "%s: %s, %+.1f ms (95 %% CI %+.1f to %+.1f over %u pairs) at "
             "%s, the worst input of %zu tried (%zu failed).",
             what, x->label, w->conf.mean, w->conf.lo, w->conf.hi, w->conf.n,
             line, x->nc, failed);
  else
    snprintf(out, cap,
             "%s: %s, %+.1f ms in one pair at %s, the worst input of %zu "
             "tried (%zu failed); not measured again.",
             what, x->label, w->screen, line, x->nc, failed);
}

static cJSON *explore_doc(const struct explore *x, const struct cand *w,
                          int rc) {
  cJSON *d = cJSON_CreateObject();
  cJSON_AddStringToObject(d, "schema", "zamcap-explore/1");
  cJSON_AddStringToObject(d, "version", ZAMCAP_VERSION);
  cJSON_AddStringToObject(d, "commit", zc_commit);
  cJSON_AddStringToObject(d, "flow", x->a->operands[0]);
  cJSON_AddStringToObject(d, "title", x->base->title);
  cJSON_AddStringToObject(d, "old", x->a->old);
  cJSON_AddStringToObject(d, "new", x->a->new_);
  cJSON *ob = cJSON_AddObjectToObject(d, "objective");
  cJSON_AddStringToObject(ob, "name",
                          x->a->objective ? x->a->objective : "scripting");
  cJSON_AddStringToObject(ob, "label", x->label);
  cJSON_AddStringToObject(ob, "unit", "ms");
  cJSON_AddStringToObject(d, "search", x->a->search ? x->a->search : "cover");
  cJSON_AddNumberToObject(d, "seed", x->a->seed);
  cJSON_AddNumberToObject(d, "budget", x->a->budget);
  cJSON_AddItemToObject(d, "parameters", params_json(x));
  size_t failed = 0;
  for (size_t i = 0; i < x->nc; i++)
    failed += x->c[i].reason != NULL;
  cJSON_AddNumberToObject(d, "tried", (double)x->nc);
  cJSON_AddNumberToObject(d, "failed", (double)failed);
  cJSON_AddNumberToObject(d, "runs", x->runs);
  cJSON_AddStringToObject(d, "stopped", x->stopped ? x->stopped : "");
  cJSON_AddNumberToObject(d, "elapsed_s",
                          round((zc_now_ms() - x->t0) / 100) / 10);
  cJSON_AddItemToObject(d, "candidates", candidates_json(x));
  if (w) {
    cJSON *wo = cand_json(x, w);
    cJSON_AddStringToObject(wo, "report", ZC_OUT_WORST "/" ZC_OUT_REPORT);
    cJSON_AddNumberToObject(wo, "exit", rc);
    cJSON_AddItemToObject(d, "worst", wo);
  } else {
    cJSON_AddNullToObject(d, "worst");
  }
  char text[2048];
  verdict(x, w, rc, text, sizeof text);
  cJSON_AddStringToObject(cJSON_AddObjectToObject(d, "verdict"), "text", text);
  return d;
}

/* ---- the command ---- */

/* The full comparison at the worst input, into OUT/worst/, as the main
 * command compares; its exit code. */
static int compare_worst(struct explore *x, const struct cand *w) {
  char out[4200], line[1024];
  snprintf(out, sizeof out, "%s/" ZC_OUT_WORST, agent_session_out(x->s));
  if (zc_mkdirs(out)) {
    zc_error("%s", zc_errmsg());
    return ZC_EXIT_USAGE;
  }
  struct scn_scenario *scn = NULL;
  if (scn_expand(x->base, (const char *const *)w->values, &scn)) {
    zc_error("%s", zc_errmsg());
    return ZC_EXIT_INTERNAL;
  }
  agent_session_set_scenario(x->s, scn);
  values_line(x, w->values, line, sizeof line);
  zc_log(1, "comparing the builds at the worst input (%s) into %s/", line, out);
  int reported = 0;
  return agent_session_compare(x->s, 0, 1, out, &reported, NULL);
}

/* Screens candidates until the budget is spent, measures the best few
 * again and compares at the worst; the exit code. */
static int explore_run(struct explore *x, const struct cand **wp) {
  enum scn_strategy k = SCN_SEARCH_COVER;
  if (x->a->search) scn_strategy_parse(x->a->search, &k);
  x->confirm = x->a->budget / (4 * CONFIRM_PAIRS);
  if (x->confirm > CONFIRM_MOST) x->confirm = CONFIRM_MOST;
  struct scn_search *sr =
      scn_search_new(x->fp, x->nfp, k, x->a->seed, screen_budget(x) / 2);
  zc_log(1,
         "explore: %zu parameter%s searched (%s, seed %u), %u traced runs "
         "at most; the best %u measured again with %u pairs each",
         x->nfp, x->nfp == 1 ? "" : "s", scn_strategy_name(k), x->a->seed,
         x->a->budget, x->confirm, CONFIRM_PAIRS);
  x->args.retries = 0; /* a screening run that fails: the input's fault */
  int r = 0;
  while (!(r = screen_one(x, sr)))
    ;
  scn_search_free(sr);
  x->args.retries = x->a->retries;
  if (r > 0) r = confirm_best(x);
  if (r < 0 || zc_interrupted) {
    x->stopped = "interrupted";
    return zc_interrupted ? 128 + zc_interrupted : ZC_EXIT_CAPTURE;
  }
  const struct cand *w = worst(x);
  *wp = w;
  if (!w) {
    zc_error("no candidate could be measured: each one's reason is in "
             "explore.json");
    return ZC_EXIT_CAPTURE;
  }
  return compare_worst(x, w);
}

static void explore_free(struct explore *x) {
  for (size_t i = 0; i < x->nc; i++) {
    free_values(x->c[i].values, x->base->nparams);
    free(x->c[i].reason);
  }
  free(x->c);
  free(x->fp);
  free(x->fix);
  scn_free(x->base);
}

static int explore_exec(const struct agent_args *a) {
  struct explore x = {.a = a, .args = *a, .t0 = zc_now_ms()};
  int rc = check_args(&x);
  if (!rc) rc = load_flow(&x);
  if (rc) {
    explore_free(&x);
    return rc;
  }
  const struct agent_build builds[2] = {
      {.opt = "--old", .arg = a->old, .name = ZC_OUT_OLD},
      {.opt = "--new", .arg = a->new_, .name = ZC_OUT_NEW},
  };
  struct agent_changes *ch = NULL;
  rc = agent_changes_read(&x.args, &builds[1], &ch);
  if (!rc) rc = agent_session_open(&x.args, builds, 2, &x.s);
  agent_changes_attach(ch, x.s);
  if (!rc) {
    const struct cand *w = NULL;
    rc = explore_run(&x, &w);
    cJSON *doc = explore_doc(&x, w, rc);
    if (ana_write_explore(doc, agent_session_out(x.s))) {
      zc_error("%s", zc_errmsg());
      rc = ZC_EXIT_CAPTURE;
    }
    zc_log(1, "%s",
           cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "verdict"), "text")
               ->valuestring);
    zc_log(1, "%zu candidates, %u traced runs; report in %s/", x.nc, x.runs,
           agent_session_out(x.s));
    cJSON_Delete(doc);
  }
  agent_session_close(x.s, rc != ZC_EXIT_USAGE);
  agent_changes_free(ch);
  explore_free(&x);
  if (zc_interrupted) rc = 128 + zc_interrupted;
  return rc;
}

const struct agent_cmd agent_cmd_explore = {
    .name = "explore",
    .bit = AGENT_EXPLORE,
    .usage = "usage: zamcap explore FLOW --old URL|DIR --new URL|DIR "
             "[OPTIONS]",
    .about =
        "Searches the values of FLOW's parameters (its \"zamcap\": "
        "{\"parameters\"})\nfor the input that makes the new build slowest "
        "against the old: each\ncandidate is measured with one interleaved "
        "pair, the best 3 again with\n3 pairs each for an interval, and the "
        "builds are then compared at the\nworst input as the main command "
        "compares (OUT/worst/). OUT/explore.json\nranks every input tried; "
        "a candidate whose flow fails is recorded with\nits reason and never "
        "counted.\n",
    .after = NULL,
    .exec = explore_exec,
};
