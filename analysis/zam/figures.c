/* End-to-end figures over repeated runs: means, 95 % confidence intervals
 * and the paired change between builds. The runs come in pairs recorded
 * back to back, so the change is judged on the per-pair differences (a
 * paired t interval), which cancels the drift both builds shared. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "zam.h"

/* Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom. */
static const double t95[] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

double ana_t95(unsigned df) {
  if (!df) return NAN;
  if (df <= sizeof t95 / sizeof *t95) return t95[df - 1];
  return df <= 60 ? 2.000 : df <= 120 ? 1.980 : 1.960;
}

void ana_stat(const double *v, unsigned n, struct ana_stat *out) {
  double sum = 0;
  unsigned k = 0;
  for (unsigned i = 0; i < n; i++)
    if (!isnan(v[i])) sum += v[i], k++;
  out->n = k;
  out->mean = k ? sum / k : NAN;
  out->lo = out->hi = NAN;
  if (k < 2) return;
  double ss = 0;
  for (unsigned i = 0; i < n; i++)
    if (!isnan(v[i])) ss += (v[i] - out->mean) * (v[i] - out->mean);
  double half = ana_t95(k - 1) * sqrt(ss / (k - 1)) / sqrt((double)k);
  out->lo = out->mean - half;
  out->hi = out->mean + half;
}

unsigned ana_pairs_needed(const double *v, unsigned n, double bound) {
  struct ana_stat st;
  ana_stat(v, n, &st);
  if (st.n < 2) return 0;
  double ss = 0;
  for (unsigned i = 0; i < n; i++)
    if (!isnan(v[i])) ss += (v[i] - st.mean) * (v[i] - st.mean);
  double sd = sqrt(ss / (st.n - 1)), gap = fabs(st.mean - bound);
  if (!(sd > 0)) return 0;
  for (unsigned k = 2; k < 1000; k++)
    if (ana_t95(k - 1) * sd / sqrt((double)k) < gap) return k;
  return 999;
}

void ana_figures_copy(struct ana_figures *dst, const struct ana_figures *src) {
  *dst = *src;
  dst->steps = NULL;
  if (src->nsteps) {
    dst->steps = zc_xmalloc(src->nsteps * sizeof *dst->steps);
    memcpy(dst->steps, src->steps, src->nsteps * sizeof *dst->steps);
  }
}

void ana_figures_clear(struct ana_figures *f) {
  free(f->steps);
  memset(f, 0, sizeof *f);
}

static void e2e_row(struct ana_e2e_row *r, const double *o, const double *nw,
                    unsigned n) {
  double *d = zc_xmalloc((n ? n : 1) * sizeof *d);
  for (unsigned i = 0; i < n; i++)
    d[i] = nw[i] - o[i]; /* NAN stays NAN */
  ana_stat(o, n, &r->old);
  ana_stat(nw, n, &r->new_);
  ana_stat(d, n, &r->delta);
  free(d);
  r->pct = r->old.mean > 0 ? 100 * r->delta.mean / r->old.mean : NAN;
  r->significant = r->delta.n >= 2 && (r->delta.lo > 0 || r->delta.hi < 0);
  r->old_v = zc_xmalloc((n ? n : 1) * sizeof *r->old_v);
  r->new_v = zc_xmalloc((n ? n : 1) * sizeof *r->new_v);
  memcpy(r->old_v, o, n * sizeof *o);
  memcpy(r->new_v, nw, n * sizeof *nw);
  r->nv = n;
}

static const struct {
  const char *name, *label, *unit;
  size_t off;
} metrics[] = {
    {"scenario_ms", "scenario wall time", "ms",
     offsetof(struct ana_figures, scenario_ms)},
    {"scripting_ms", "scripting (CPU samples in JavaScript)", "ms",
     offsetof(struct ana_figures, scripting_ms)},
    {"gc_ms", "garbage collection", "ms", offsetof(struct ana_figures, gc_ms)},
    {"native_ms", "browser work outside JavaScript ((program))", "ms",
     offsetof(struct ana_figures, native_ms)},
    {"style_layout_ms", "style and layout", "ms",
     offsetof(struct ana_figures, style_layout_ms)},
    {"long_tasks", "long tasks (over 50 ms)", "count",
     offsetof(struct ana_figures, long_tasks)},
    {"blocking_ms", "blocking time (long tasks beyond 50 ms)", "ms",
     offsetof(struct ana_figures, blocking_ms)},
};

/* Retained memory after the flow, from zamcap's heap profiles: rows only
 * where some run measured them. */
static const struct {
  const char *name, *label, *unit;
  size_t off;
} retained[] = {
    {"js_heap_used_kb", "JS heap used after a forced GC", "KB",
     offsetof(struct ana_figures, heap_used_kb)},
    {"dom_nodes", "DOM nodes after the flow", "count",
     offsetof(struct ana_figures, dom_nodes)},
    {"event_listeners", "event listeners after the flow", "count",
     offsetof(struct ana_figures, listeners)},
};

static double fig_get(const struct ana_figures *f, size_t off) {
  double v;
  memcpy(&v, (const char *)f + off, sizeof v);
  return v;
}

static double step_ms(const struct ana_figures *f, uint32_t step) {
  for (uint32_t i = 0; i < f->nsteps; i++)
    if (f->steps[i].step == step) return f->steps[i].ms;
  return NAN;
}

struct ana_e2e *ana_e2e_new(const struct ana_figures *old,
                            const struct ana_figures *new_, unsigned n) {
  struct ana_e2e *e = zc_xcalloc(1, sizeof *e);
  size_t nm = sizeof metrics / sizeof *metrics;
  e->npairs = n;
  /* The steps are the old runs' (the same scenario ran on both). */
  const struct ana_figures *ref = NULL;
  for (unsigned i = 0; i < n && !ref; i++)
    if (old[i].nsteps) ref = &old[i];
  for (unsigned i = 0; i < n && !ref; i++)
    if (new_[i].nsteps) ref = &new_[i];
  uint32_t nsteps = ref ? ref->nsteps : 0;
  int ret = 0;
  for (unsigned i = 0; i < n; i++)
    ret |= old[i].retained | new_[i].retained;
  size_t nr = ret ? sizeof retained / sizeof *retained : 0;
  e->rows = zc_xcalloc(nm + nr + nsteps, sizeof *e->rows);
  double *o = zc_xmalloc((n ? n : 1) * sizeof *o);
  double *w = zc_xmalloc((n ? n : 1) * sizeof *w);
  for (size_t m = 0; m < nm + nr; m++) {
    struct ana_e2e_row *r = &e->rows[e->n];
    const char *name = m < nm ? metrics[m].name : retained[m - nm].name;
    size_t off = m < nm ? metrics[m].off : retained[m - nm].off;
    for (unsigned i = 0; i < n; i++) {
      o[i] = old[i].retained || m < nm ? fig_get(&old[i], off) : NAN;
      w[i] = new_[i].retained || m < nm ? fig_get(&new_[i], off) : NAN;
    }
    r->name = name;
    r->label = m < nm ? metrics[m].label : retained[m - nm].label;
    r->unit = m < nm ? metrics[m].unit : retained[m - nm].unit;
    e2e_row(r, o, w, n);
    if (r->old.n || r->new_.n)
      e->n++, e->nmetrics++;
    else
      free(r->old_v), free(r->new_v), memset(r, 0, sizeof *r);
  }
  for (uint32_t s = 0; s < nsteps; s++) {
    struct ana_e2e_row *r = &e->rows[e->n++];
    for (unsigned i = 0; i < n; i++) {
      o[i] = step_ms(&old[i], ref->steps[s].step);
      w[i] = step_ms(&new_[i], ref->steps[s].step);
    }
    r->name = "step_ms";
    r->label = "step";
    r->unit = "ms";
    r->step = ref->steps[s].step;
    memcpy(r->type, ref->steps[s].type, sizeof r->type);
    e2e_row(r, o, w, n);
  }
  free(o);
  free(w);
  return e;
}

/* The vitals, as rows: name, unit, offset in struct ana_vitals. */
static const struct {
  const char *name, *label, *unit;
  size_t off;
  unsigned why;
} vitals[] = {
    {"LCP", "largest contentful paint", "ms",
     offsetof(struct ana_vitals, lcp_ms), ANA_VW_NO_NAV | ANA_VW_NO_LCP},
    {"CLS", "cumulative layout shift", "", offsetof(struct ana_vitals, cls),
     ANA_VW_NO_LOADING},
    {"INP", "interaction to next paint", "ms",
     offsetof(struct ana_vitals, inp_ms), ANA_VW_NO_INPUT},
    {"TBT", "total blocking time", "ms", offsetof(struct ana_vitals, tbt_ms),
     ANA_VW_NO_TASKS},
};
#define NVITALS (sizeof vitals / sizeof *vitals)

static double vit_get(const struct ana_vitals *v, size_t off) {
  double d;
  memcpy(&d, (const char *)v + off, sizeof d);
  return d;
}

/* A step's vitals in a run; NULL if the run has no such step. */
static const struct ana_vitals *step_vit(const struct ana_figures *f,
                                         uint32_t step) {
  for (uint32_t i = 0; i < f->nsteps; i++)
    if (f->steps[i].step == step) return &f->steps[i].vit;
  return NULL;
}

/* Why runs lack a whole-run vital, in words (the reasons their bits say,
 * over the runs). */
static const char *vit_reason(unsigned why) {
  if (why & ANA_VW_NO_LOADING)
    return "no event of the \"loading\" category: the trace was recorded "
           "without it, so CLS cannot be told";
  if (why & ANA_VW_NO_TASKS)
    return "no RunTask event: the trace was recorded without "
           "disabled-by-default-devtools.timeline";
  if (why & ANA_VW_NO_NAV)
    return "no main-frame navigation in the recording (one that starts "
           "after it, at a later zamcap.recordFrom step, has no LCP)";
  if (why & ANA_VW_NO_LCP) return "no largest contentful paint was reported";
  if (why & ANA_VW_NO_INPUT)
    return "no interaction: no Event Timing entry with an interaction id";
  return "not in the trace";
}

static void vit_warn(char ***warn, unsigned *nwarn, const struct ana_e2e_row *r,
                     unsigned miss, unsigned runs, unsigned why) {
  char line[512];
  char where[48] = "the whole run", t[sizeof r->type];
  /* The step's type is the trace's mark: page data, letters kept. */
  size_t j = 0;
  for (; r->type[j] && j + 1 < sizeof t; j++)
    t[j] =
        (r->type[j] | 32) >= 'a' && (r->type[j] | 32) <= 'z' ? r->type[j] : '?';
  t[j] = '\0';
  if (r->step) snprintf(where, sizeof where, "step %u (%s)", r->step, t);
  snprintf(line, sizeof line, "%s of %s: missing in %u of %u runs (%s)",
           r->name, where, miss, runs,
           r->step ? "the step did not give it in every run" : vit_reason(why));
  *warn = zc_xrealloc(*warn, (*nwarn + 1) * sizeof **warn);
  (*warn)[(*nwarn)++] = zc_xstrdup(line);
}

/* One vitals row over the pairs: step 0 is the whole run's. */
static int vit_row(struct ana_e2e_row *r, const struct ana_figures *old,
                   const struct ana_figures *new_, unsigned n, size_t k,
                   uint32_t step, const char *type, double *o, double *w,
                   unsigned *why) {
  unsigned have = 0;
  for (unsigned i = 0; i < n; i++) {
    const struct ana_vitals *a = step ? step_vit(&old[i], step) : &old[i].vit;
    const struct ana_vitals *b = step ? step_vit(&new_[i], step) : &new_[i].vit;
    o[i] = a ? vit_get(a, vitals[k].off) : NAN;
    w[i] = b ? vit_get(b, vitals[k].off) : NAN;
    have += (unsigned)(!isnan(o[i]) + !isnan(w[i]));
    if (!step) *why |= (old[i].vit_why | new_[i].vit_why) & vitals[k].why;
  }
  /* A step row only where some run had something: a value other than 0
   * (a step with no shift and no long task in any run says nothing). */
  int some = 0;
  for (unsigned i = 0; step && i < n; i++)
    some |= (!isnan(o[i]) && o[i] != 0) || (!isnan(w[i]) && w[i] != 0);
  if (step && (!have || !some)) return 0;
  r->name = vitals[k].name;
  r->label = vitals[k].label;
  r->unit = vitals[k].unit;
  r->step = step;
  if (type) memcpy(r->type, type, sizeof r->type);
  e2e_row(r, o, w, n);
  return 1;
}

struct ana_e2e *ana_vitals_new(const struct ana_figures *old,
                               const struct ana_figures *new_, unsigned n,
                               char ***warn, unsigned *nwarn) {
  struct ana_e2e *e = zc_xcalloc(1, sizeof *e);
  e->npairs = n;
  const struct ana_figures *ref = NULL;
  for (unsigned i = 0; i < n && !ref; i++)
    if (old[i].nsteps) ref = &old[i];
  for (unsigned i = 0; i < n && !ref; i++)
    if (new_[i].nsteps) ref = &new_[i];
  uint32_t nsteps = ref ? ref->nsteps : 0;
  e->rows = zc_xcalloc(NVITALS * (1 + (size_t)nsteps), sizeof *e->rows);
  double *o = zc_xmalloc((n ? n : 1) * sizeof *o);
  double *w = zc_xmalloc((n ? n : 1) * sizeof *w);
  for (uint32_t s = 0; s <= nsteps; s++)
    for (size_t k = 0; k < NVITALS; k++) {
      struct ana_e2e_row *r = &e->rows[e->n];
      unsigned why = 0;
      uint32_t step = s ? ref->steps[s - 1].step : 0;
      if (!vit_row(r, old, new_, n, k, step, s ? ref->steps[s - 1].type : NULL,
                   o, w, &why))
        continue;
      e->n++;
      if (!s) e->nmetrics++;
      unsigned miss = 2 * n - r->old.n - r->new_.n;
      if (miss && warn) vit_warn(warn, nwarn, r, miss, 2 * n, why);
    }
  free(o);
  free(w);
  return e;
}

/* A vital's number: CLS needs more places than milliseconds do. */
static cJSON *vnum(double v) {
  return isnan(v) || isinf(v) ? cJSON_CreateNull()
                              : cJSON_CreateNumber(round(v * 1e6) / 1e6);
}

struct cJSON *ana_vitals_json(const struct ana_e2e *v) {
  cJSON *a = cJSON_CreateArray();
  for (unsigned i = 0; v && i < v->n; i++) {
    const struct ana_e2e_row *r = &v->rows[i];
    cJSON *o = cJSON_CreateObject();
    if (r->step) {
      cJSON_AddNumberToObject(o, "step", r->step);
      cJSON_AddStringToObject(o, "type", r->type);
    } else {
      cJSON_AddNullToObject(o, "step");
    }
    cJSON_AddStringToObject(o, "metric", r->name);
    cJSON_AddStringToObject(o, "unit", r->unit);
    cJSON_AddItemToObject(o, "old", vnum(r->old.mean));
    cJSON_AddItemToObject(o, "new", vnum(r->new_.mean));
    cJSON_AddItemToObject(o, "delta", vnum(r->delta.mean));
    if (isnan(r->delta.lo)) {
      cJSON_AddNullToObject(o, "ci95");
    } else {
      cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
      cJSON_AddItemToArray(ci, vnum(r->delta.lo));
      cJSON_AddItemToArray(ci, vnum(r->delta.hi));
    }
    cJSON_AddBoolToObject(o, "significant", r->significant);
    cJSON_AddNumberToObject(o, "pairs", r->delta.n);
    cJSON *ov = cJSON_AddArrayToObject(o, "old_values");
    cJSON *nv = cJSON_AddArrayToObject(o, "new_values");
    for (unsigned k = 0; k < r->nv; k++) {
      cJSON_AddItemToArray(ov, vnum(r->old_v[k]));
      cJSON_AddItemToArray(nv, vnum(r->new_v[k]));
    }
    cJSON_AddItemToArray(a, o);
  }
  return a;
}

void ana_e2e_free(struct ana_e2e *e) {
  if (!e) return;
  for (unsigned i = 0; i < e->n; i++) {
    free(e->rows[i].old_v);
    free(e->rows[i].new_v);
  }
  free(e->rows);
  free(e);
}

const struct ana_e2e_row *ana_e2e_find(const struct ana_e2e *e,
                                       const char *name) {
  for (unsigned i = 0; e && i < e->nmetrics; i++)
    if (!strcmp(e->rows[i].name, name) && e->rows[i].delta.n)
      return &e->rows[i];
  return NULL;
}

void ana_e2e_delta_text(const struct ana_e2e_row *r, char *out, size_t cap) {
  int n = snprintf(out, cap, "%+.1f %s", r->delta.mean, r->unit);
  if (n < 0 || (size_t)n >= cap) return;
  if (!isnan(r->pct))
    n += snprintf(out + n, cap - (size_t)n, " (%+.1f %%", r->pct);
  else
    n += snprintf(out + n, cap - (size_t)n, " (");
  if (n < 0 || (size_t)n >= cap) return;
  if (!isnan(r->delta.lo))
    snprintf(out + n, cap - (size_t)n, "%s95 %% CI %+.1f to %+.1f)",
             isnan(r->pct) ? "" : ", ", r->delta.lo, r->delta.hi);
  else
    snprintf(out + n, cap - (size_t)n, "%sone pair, no interval)",
             isnan(r->pct) ? "" : ", ");
}

static cJSON *num(double v) {
  return isnan(v) || isinf(v) ? cJSON_CreateNull()
                              : cJSON_CreateNumber(round(v * 1000) / 1000);
}

static cJSON *stat_json(const struct ana_stat *s, const double *v, unsigned nv,
                        double pct) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddItemToObject(o, "mean", num(s->mean));
  if (isnan(s->lo)) {
    cJSON_AddNullToObject(o, "ci95");
  } else {
    cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
    cJSON_AddItemToArray(ci, num(s->lo));
    cJSON_AddItemToArray(ci, num(s->hi));
  }
  if (v) {
    cJSON *a = cJSON_AddArrayToObject(o, "values");
    for (unsigned i = 0; i < nv; i++)
      cJSON_AddItemToArray(a, num(v[i]));
  } else {
    cJSON_AddItemToObject(o, "pct", num(pct));
  }
  return o;
}

static cJSON *row_json(const struct ana_e2e_row *r) {
  cJSON *o = cJSON_CreateObject();
  if (r->step) {
    cJSON_AddNumberToObject(o, "step", r->step);
    cJSON_AddStringToObject(o, "type", r->type);
  } else {
    cJSON_AddStringToObject(o, "name", r->name);
    cJSON_AddStringToObject(o, "label", r->label);
    cJSON_AddStringToObject(o, "unit", r->unit);
  }
  cJSON_AddItemToObject(o, "old", stat_json(&r->old, r->old_v, r->nv, 0));
  cJSON_AddItemToObject(o, "new", stat_json(&r->new_, r->new_v, r->nv, 0));
  cJSON_AddItemToObject(o, "delta", stat_json(&r->delta, NULL, 0, r->pct));
  cJSON_AddBoolToObject(o, "significant", r->significant);
  return o;
}

struct cJSON *ana_e2e_json(const struct ana_e2e *e) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "pairs", e->npairs);
  cJSON *m = cJSON_AddArrayToObject(o, "metrics");
  cJSON *s = cJSON_AddArrayToObject(o, "steps");
  for (unsigned i = 0; i < e->n; i++)
    cJSON_AddItemToArray(i < e->nmetrics ? m : s, row_json(&e->rows[i]));
  return o;
}

const struct ana_e2e_row *ana_e2e_main(const struct ana_e2e *e2e) {
  const struct ana_e2e_row *sc = ana_e2e_find(e2e, "scenario_ms");
  return sc ? sc : ana_e2e_find(e2e, "scripting_ms");
}
