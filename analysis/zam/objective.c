/* The figure an input search makes worse (zamcap explore's fitness): one
 * value per run, read off what the comparison keeps of each pair (its
 * figures, its bottom-up view), so that no trace is read twice. */
#include <math.h>
#include <string.h>

#include "timeline.h"
#include "zam.h"

/* A step's wall time in a run's figures; NAN when it has no such step. */
static double step_ms(const struct ana_figures *f, unsigned step) {
  for (uint32_t i = 0; i < f->nsteps; i++)
    if (f->steps[i].step == step) return f->steps[i].ms;
  return NAN;
}

static double figure(const struct ana_figures *f,
                     const struct ana_objective *o) {
  switch (o->kind) {
  case ANA_OBJ_SCRIPTING: return f->scripting_ms;
  case ANA_OBJ_WALL: return f->scenario_ms;
  case ANA_OBJ_STEP: return step_ms(f, o->step);
  case ANA_OBJ_LCP: return f->vit.lcp_ms;
  case ANA_OBJ_INP: return f->vit.inp_ms;
  }
  return NAN;
}

/* A function's time with its callees per pair, every function of that
 * name summed (it may be in more than one file), into v[side][k]; NAN
 * in every pair when no timeline had it. */
static void cause(struct ana_cmp *c, const char *name, unsigned n, double *v0,
                  double *v1) {
  uint32_t id = ana_intern(c->ctx, name, strlen(name));
  uint32_t keys[64], nk = 0;
  for (uint32_t i = 0; i < ana_bu_npaths(c->bu) && nk < 64; i++) {
    uint32_t nm;
    uint8_t kind;
    uint32_t key = ana_bu_path_key(c->bu, i, &nm, &kind);
    if (nm != id || kind != ANA_FUNC) continue;
    uint32_t k = 0;
    while (k < nk && keys[k] != key)
      k++;
    if (k == nk) keys[nk++] = key;
  }
  for (unsigned p = 0; p < n; p++)
    v0[p] = v1[p] = nk ? 0 : NAN;
  double t[ANA_SPREAD_MAX_PAIRS];
  for (uint32_t k = 0; k < nk; k++)
    for (int side = 0; side < 2; side++) {
      unsigned m =
          ana_bu_incl_values(c->bu, keys[k], side, t, ANA_SPREAD_MAX_PAIRS);
      for (unsigned p = 0; p < m && p < n; p++)
        (side ? v1 : v0)[p] += t[p];
    }
}

unsigned ana_cmp_objective(struct ana_cmp *c, const struct ana_objective *o,
                           double *old_v, double *new_v, unsigned cap) {
  unsigned n = c->n < cap ? c->n : cap;
  if (o->kind == ANA_OBJ_CAUSE) {
    cause(c, o->name ? o->name : "", n, old_v, new_v);
    return n;
  }
  for (unsigned p = 0; p < n; p++) {
    old_v[p] = figure(&c->ofig[p], o);
    new_v[p] = figure(&c->nfig[p], o);
  }
  return n;
}
