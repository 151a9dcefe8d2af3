/* Probes: one figure measured in every trace of a comparison, for what
 * has to follow one cause across builds (bisection): a regression-cause's
 * inclusive weight on its call path, a spread-out cause's self weight over
 * all its paths, or the scenario's wall time. A path is matched level by
 * level by key (component, name), thread by name, summing over siblings
 * of one key, as the matcher pairs them; source-mapped names match across
 * builds whose bundles were renamed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "zam.h"

/* A probe as a comparison measures it: its keys interned in the
 * comparison's ctx, and its value per pair and side (shown unit; NAN where
 * the trace cannot say). */
struct ana__watch {
  int kind;
  unsigned depth;
  uint32_t *key; /* per frame: ana_key, or the thread's name id */
  double *v[2];
  unsigned cap;
};

static void probe_clear(struct ana_probe *p) {
  for (unsigned i = 0; i < p->depth; i++) {
    free(p->name[i]);
    free(p->component[i]);
  }
  free(p->name);
  free(p->component);
  free(p->label);
  memset(p, 0, sizeof *p);
}

void ana_probes_free(struct ana_probe *p, unsigned n) {
  for (unsigned i = 0; p && i < n; i++)
    probe_clear(&p[i]);
  free(p);
}

static void probe_frame(struct ana_probe *p, const struct ana_ctx *c,
                        uint32_t name, uint32_t component) {
  unsigned i = p->depth++;
  p->name = zc_xreallocarray(p->name, p->depth, sizeof *p->name);
  p->component = zc_xreallocarray(p->component, p->depth, sizeof *p->component);
  p->name[i] = zc_xstrdup(ana_str(c, name));
  p->component[i] = zc_xstrdup(ana_str(c, component));
}

/* "CrRendererMain > render > parseRows" */
static char *path_label(const struct ana_probe *p) {
  size_t n = 1;
  for (unsigned i = 0; i < p->depth; i++)
    n += strlen(p->name[i]) + 3;
  char *s = zc_xmalloc(n);
  s[0] = '\0';
  for (unsigned i = 0; i < p->depth; i++) {
    if (i) strcat(s, " > ");
    strcat(s, p->name[i]);
  }
  return s;
}

/* A regression-cause's path from its thread down. */
static void probe_path(struct ana_probe *p, const struct ana_graph *g,
                       uint32_t node) {
  uint32_t chain[4096], n = 0;
  for (uint32_t i = node; i && i != ANA_NONE && n < 4096;
       i = g->nodes[i].parent)
    chain[n++] = i;
  p->kind = ANA_PROBE_PATH;
  while (n--)
    probe_frame(p, g->ctx, g->nodes[chain[n]].name,
                g->nodes[chain[n]].component);
  p->label = path_label(p);
}

unsigned ana_cmp_probes(struct ana_cmp *c, struct ana_probe **out) {
  *out = NULL;
  if (!c->n) return 0;
  ana__cmp_aggregate(c);
  struct ana_cause *cs = NULL;
  uint32_t nc = ana_causes(c->agg, &cs);
  unsigned n = nc + c->sp.n;
  struct ana_probe *v = zc_xcalloc(n + 1, sizeof *v);
  for (uint32_t k = 0; k < nc; k++) {
    probe_path(&v[k], c->agg, cs[k].node);
    v[k].delta = cs[k].delta_ms;
    v[k].line = c->agg->nodes[cs[k].node].line;
  }
  free(cs);
  for (uint32_t k = 0; k < c->sp.n; k++) {
    struct ana_probe *p = &v[nc + k];
    p->kind = ANA_PROBE_SELF;
    probe_frame(p, c->ctx, c->sp.v[k].fn.name, c->sp.v[k].fn.component);
    size_t ln = strlen(p->name[0]) + 32;
    p->label = zc_xmalloc(ln);
    snprintf(p->label, ln, "%s (self, all paths)", p->name[0]);
    p->delta = c->sp.v[k].delta_ms;
    p->line = c->sp.v[k].fn.line;
  }
  if (!n) {
    /* No cause: what regressed, if anything, is the scenario's time. */
    v[0].kind = ANA_PROBE_SCENARIO;
    v[0].label = zc_xstrdup("scenario wall time");
    v[0].line = -1;
    const struct ana_e2e_row *r = ana_e2e_main(c->e2e);
    v[0].delta = r && r->delta.n ? r->delta.mean : NAN;
    n = 1;
  }
  *out = v;
  return n;
}

void ana_cmp_watch(struct ana_cmp *c, const struct ana_probe *p, unsigned n) {
  c->probes = zc_xcalloc(n ? n : 1, sizeof *c->probes);
  c->nprobes = n;
  for (unsigned k = 0; k < n; k++) {
    struct ana__watch *w = &c->probes[k];
    w->kind = p[k].kind;
    w->depth = p[k].depth;
    w->key = zc_xcalloc(p[k].depth + 1, sizeof *w->key);
    for (unsigned i = 0; i < p[k].depth; i++) {
      const char *nm = p[k].name[i], *cp = p[k].component[i];
      uint32_t name = ana_intern(c->ctx, nm, strlen(nm));
      uint32_t comp = ana_intern(c->ctx, cp, strlen(cp));
      /* the thread is matched by its name alone */
      w->key[i] = i == 0 && w->kind == ANA_PROBE_PATH
                      ? name
                      : ana_key(c->ctx, comp, name);
    }
  }
}

/* The summed inclusive weight of the nodes on path w, raw. */
static double path_weight(const struct ana_timeline *tl,
                          const struct ana__watch *w) {
  uint32_t *cur = zc_xmalloc(((size_t)tl->nnodes + 1) * sizeof *cur);
  uint32_t *next = zc_xmalloc(((size_t)tl->nnodes + 1) * sizeof *next);
  uint32_t nc = 1, nn;
  cur[0] = 0;
  for (unsigned lv = 0; lv < w->depth && nc; lv++, nc = nn) {
    nn = 0;
    for (uint32_t j = 0; j < nc; j++) {
      const struct ana_node *p = &tl->nodes[cur[j]];
      for (uint32_t k = 0; k < p->nkids; k++) {
        uint32_t kid = tl->kids[p->kid0 + k];
        const struct ana_node *d = &tl->nodes[kid];
        int hit = lv == 0 ? d->kind == ANA_THREAD && d->name == w->key[0]
                          : d->key == w->key[lv];
        if (hit) next[nn++] = kid;
      }
    }
    uint32_t *t = cur;
    cur = next;
    next = t;
  }
  double s = 0;
  for (uint32_t j = 0; j < nc; j++)
    s += (double)tl->nodes[cur[j]].total;
  free(cur);
  free(next);
  return s;
}

/* The self weight of every node of the function, raw. */
static double self_weight(const struct ana_timeline *tl,
                          const struct ana__watch *w) {
  double s = 0;
  for (uint32_t i = 1; i < tl->nnodes; i++)
    if (tl->nodes[i].key == w->key[0]) s += (double)tl->nodes[i].self;
  return s;
}

void ana__cmp_measure(struct ana_cmp *c, unsigned pair, int side,
                      const struct ana_timeline *tl,
                      const struct ana_figures *fig) {
  double per = ana_unit_desc(tl->unit)->per;
  for (unsigned k = 0; k < c->nprobes; k++) {
    struct ana__watch *w = &c->probes[k];
    if (w->cap <= pair) {
      unsigned cap = w->cap ? w->cap * 2 : 8;
      while (cap <= pair)
        cap *= 2;
      for (int s = 0; s < 2; s++)
        w->v[s] = zc_xreallocarray(w->v[s], cap, sizeof *w->v[s]);
      w->cap = cap;
    }
    double v = w->kind == ANA_PROBE_PATH   ? path_weight(tl, w) / per
               : w->kind == ANA_PROBE_SELF ? self_weight(tl, w) / per
                                           : fig->scenario_ms;
    w->v[side ? 1 : 0][pair] = v;
  }
}

unsigned ana_cmp_probe_values(const struct ana_cmp *c, unsigned k,
                              const double **old, const double **new_) {
  if (k >= c->nprobes) return 0;
  *old = c->probes[k].v[0];
  *new_ = c->probes[k].v[1];
  return c->n;
}

void ana__cmp_unwatch(struct ana_cmp *c) {
  for (unsigned k = 0; k < c->nprobes; k++) {
    free(c->probes[k].key);
    free(c->probes[k].v[0]);
    free(c->probes[k].v[1]);
  }
  free(c->probes);
  c->probes = NULL;
  c->nprobes = 0;
}
