/* A release's changes ranked by their impact sets (seed 003 §3.3,
 * Alg. 2): for each function the diff between two releases changed, the
 * time of what ran through it, per pair and side, and the changes ranked
 * by its Δ with a 95 % interval over the pairs.
 *
 * The impact set of a change is its function and everything under it on
 * the call paths through it, in both builds (PERFImpACT's callers on the
 * stack are left out: they would share every callee's time), but for
 * what runs under another changed function, which is that change's own.
 * Otherwise a changed function near the top of the tree (an event
 * handler touched by the same release) would take the Δ of every change
 * below it and rank above the one that made the difference; its Δ with
 * the nested changes in is reported beside it. Measured on whole
 * timelines before pruning, so an anonymous callback's time counts for
 * the named function around it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "timeline.h"
#include "zam.h"

#define NONE UINT32_MAX

struct chg {
  char *file, *fn;
  int32_t line, end;
  struct ana_hunk *h;
  unsigned nh;
  char **commits;
  unsigned ncommits;
  double *own[2], *full[2]; /* per pair, in ms */
  unsigned cap;
  int reached;
  uint32_t *keys; /* the impact set: functions seen in it, both builds */
  size_t nkeys, capkeys;
  uint32_t *nested; /* changes seen under it */
  size_t nnested, capnested;
};

struct ana__changes {
  struct chg *v;
  unsigned n;
  char *range, *strip;
  struct zc_htab memo; /* a function's key -> slot in memo_v */
  uint32_t *memo_key, *memo_v;
  size_t nmemo, capmemo;
};

void ana_cmp_set_changes(struct ana_cmp *c, const struct ana_change *v,
                         unsigned n, const char *range, const char *strip) {
  ana__changes_free(c->changes);
  struct ana__changes *ch = zc_xcalloc(1, sizeof *ch);
  ch->v = zc_xcalloc(n + 1, sizeof *ch->v);
  ch->n = n;
  ch->range = zc_xstrdup(range ? range : "");
  ch->strip = strip ? zc_xstrdup(strip) : NULL;
  zc_htab_init(&ch->memo, 256);
  for (unsigned i = 0; i < n; i++) {
    struct chg *d = &ch->v[i];
    d->file = zc_xstrdup(v[i].file);
    d->fn = v[i].function ? zc_xstrdup(v[i].function) : NULL;
    d->line = v[i].line;
    d->end = v[i].end;
    d->nh = v[i].nhunks;
    d->h = zc_xcalloc(d->nh + 1, sizeof *d->h);
    for (unsigned k = 0; k < d->nh; k++)
      d->h[k] = (struct ana_hunk){.file = d->file,
                                  .first = v[i].hunks[k].first,
                                  .last = v[i].hunks[k].last};
    d->ncommits = v[i].ncommits;
    d->commits = zc_xcalloc(d->ncommits + 1, sizeof *d->commits);
    for (unsigned k = 0; k < d->ncommits; k++)
      d->commits[k] = zc_xstrdup(v[i].commits[k]);
  }
  c->changes = ch;
}

void ana__changes_free(struct ana__changes *ch) {
  if (!ch) return;
  for (unsigned i = 0; i < ch->n; i++) {
    struct chg *d = &ch->v[i];
    free(d->file);
    free(d->fn);
    free(d->h);
    for (unsigned k = 0; k < d->ncommits; k++)
      free(d->commits[k]);
    free(d->commits);
    for (int s = 0; s < 2; s++) {
      free(d->own[s]);
      free(d->full[s]);
    }
    free(d->keys);
    free(d->nested);
  }
  free(ch->v);
  free(ch->range);
  free(ch->strip);
  zc_htab_free(&ch->memo);
  free(ch->memo_key);
  free(ch->memo_v);
  free(ch);
}

/* Whether a node's name is the change's function: the same, or ending in
 * "." and it (V8's "obj.handler" for "obj.handler = function () {}"). */
static int same_name(const char *node, const char *fn) {
  size_t a = strlen(node), b = strlen(fn);
  return !strcmp(node, fn) ||
         (a > b + 1 && node[a - b - 1] == '.' && !strcmp(node + a - b, fn));
}

/* The change whose function a function (by key) is, or NONE; each key
 * is looked for once. */
static uint32_t change_of(struct ana_cmp *c, const struct ana_node *nd) {
  struct ana__changes *ch = c->changes;
  uint64_t hv = zc_mix64(nd->key);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&ch->memo, hv, &pos, &i))
    if (ch->memo_key[i] == nd->key) return ch->memo_v[i];
  uint32_t found = NONE;
  const char *name = ana_str(c->ctx, nd->name);
  const char *comp = ana_str(c->ctx, nd->component);
  for (unsigned k = 0; k < ch->n && found == NONE; k++)
    if (ch->v[k].fn && same_name(name, ch->v[k].fn) &&
        ana__same_file(comp, ch->v[k].file, ch->strip))
      found = k;
  size_t cap = ch->capmemo;
  ZC_GROW(ch->memo_key, cap, ch->nmemo + 1);
  cap = ch->capmemo;
  ZC_GROW(ch->memo_v, cap, ch->nmemo + 1);
  ch->capmemo = cap;
  ch->memo_key[ch->nmemo] = nd->key;
  ch->memo_v[ch->nmemo] = found;
  zc_htab_add(&ch->memo, hv, pos, (uint32_t)ch->nmemo++);
  return found;
}

static void add_unique(uint32_t **v, size_t *n, size_t *cap, uint32_t x) {
  for (size_t i = 0; i < *n; i++)
    if ((*v)[i] == x) return;
  ZC_GROW(*v, *cap, *n + 1);
  (*v)[(*n)++] = x;
}

/* Room for pair's values in every change, that pair's set to 0. */
static void changes_room(struct ana__changes *ch, unsigned pair, int side) {
  for (unsigned k = 0; k < ch->n; k++) {
    struct chg *d = &ch->v[k];
    if (d->cap <= pair) {
      unsigned cap = d->cap ? d->cap * 2 : 8;
      while (cap <= pair)
        cap *= 2;
      for (int s = 0; s < 2; s++) {
        d->own[s] = zc_xreallocarray(d->own[s], cap, sizeof *d->own[s]);
        d->full[s] = zc_xreallocarray(d->full[s], cap, sizeof *d->full[s]);
      }
      d->cap = cap;
    }
    d->own[side][pair] = d->full[side][pair] = 0;
  }
}

void ana__changes_measure(struct ana_cmp *c, unsigned pair, int side,
                          const struct ana_timeline *tl) {
  struct ana__changes *ch = c->changes;
  if (!ch || !ch->n) return;
  side = side ? 1 : 0;
  changes_room(ch, pair, side);
  double per = ana_unit_desc(tl->unit)->per;
  uint32_t nn = tl->nnodes;
  /* chain[i]: the nearest node at or above i that is a changed function
   * (parents come before their children); at[i]: its change */
  uint32_t *chain = zc_xmalloc(((size_t)nn + 1) * sizeof *chain);
  uint32_t *at = zc_xmalloc(((size_t)nn + 1) * sizeof *at);
  uint32_t *stamp = zc_xcalloc(ch->n + 1, sizeof *stamp);
  chain[0] = at[0] = NONE;
  for (uint32_t i = 1; i < nn; i++) {
    const struct ana_node *nd = &tl->nodes[i];
    uint32_t up = chain[nd->parent];
    at[i] = nd->kind == ANA_FUNC ? change_of(c, nd) : NONE;
    chain[i] = at[i] != NONE ? i : up;
    if (at[i] != NONE) {
      struct chg *d = &ch->v[at[i]];
      d->reached = 1;
      if (up != NONE && at[up] != at[i]) {
        struct chg *o = &ch->v[at[up]];
        add_unique(&o->nested, &o->nnested, &o->capnested, at[i]);
      }
    }
    if (chain[i] == NONE) continue;
    double w = (double)nd->self / per;
    struct chg *own = &ch->v[at[chain[i]]];
    own->own[side][pair] += w;
    if (nd->kind == ANA_FUNC)
      add_unique(&own->keys, &own->nkeys, &own->capkeys, nd->key);
    /* with the nested changes in: every change on the path, once */
    for (uint32_t x = chain[i]; x != NONE; x = chain[tl->nodes[x].parent])
      if (stamp[at[x]] != i) {
        stamp[at[x]] = i;
        ch->v[at[x]].full[side][pair] += w;
      }
  }
  free(chain);
  free(at);
  free(stamp);
}

/* ---- the ranking ---- */

enum { RANKED, NOT_REACHED, OUTSIDE };
static const char *const status_name[] = {"ranked", "not reached",
                                          "outside functions"};

struct row {
  unsigned k;
  int status;
  struct ana_stat d; /* the impact set's Δ per pair */
  double old_ms, new_ms, full_ms;
};

static double mean(const double *v, unsigned n) {
  double s = 0;
  for (unsigned i = 0; i < n; i++)
    s += v[i];
  return n ? s / n : NAN;
}

static int row_cmp(const void *pa, const void *pb) {
  const struct row *a = pa, *b = pb;
  if (a->status != b->status) return a->status - b->status;
  if (a->status == RANKED && a->d.mean != b->d.mean)
    return a->d.mean > b->d.mean ? -1 : 1;
  return (a->k > b->k) - (a->k < b->k);
}

/* The changes' rows, in the report's order (caller frees). */
static struct row *rank_rows(const struct ana_cmp *c) {
  const struct ana__changes *ch = c->changes;
  struct row *r = zc_xcalloc(ch->n + 1, sizeof *r);
  double *d = zc_xcalloc(c->n + 1, sizeof *d), *f = zc_xcalloc(c->n + 1, 8);
  for (unsigned k = 0; k < ch->n; k++) {
    const struct chg *x = &ch->v[k];
    r[k].k = k;
    r[k].status = !x->fn ? OUTSIDE : x->reached && c->n ? RANKED : NOT_REACHED;
    if (r[k].status != RANKED) continue;
    for (unsigned p = 0; p < c->n; p++) {
      d[p] = x->own[1][p] - x->own[0][p];
      f[p] = x->full[1][p] - x->full[0][p];
    }
    ana_stat(d, c->n, &r[k].d);
    r[k].old_ms = mean(x->own[0], c->n);
    r[k].new_ms = mean(x->own[1], c->n);
    r[k].full_ms = mean(f, c->n);
  }
  free(d);
  free(f);
  if (ch->n) qsort(r, ch->n, sizeof *r, row_cmp);
  return r;
}

static cJSON *ms(double v) {
  return isnan(v) ? cJSON_CreateNull()
                  : cJSON_CreateNumber(round(v * 1000) / 1000);
}

static cJSON *change_json(const struct ana_cmp *c, const struct row *r,
                          unsigned rank) {
  const struct ana__changes *ch = c->changes;
  const struct chg *x = &ch->v[r->k];
  cJSON *o = cJSON_CreateObject();
  if (r->status == RANKED)
    cJSON_AddNumberToObject(o, "rank", rank);
  else
    cJSON_AddNullToObject(o, "rank");
  cJSON_AddStringToObject(o, "status", status_name[r->status]);
  cJSON_AddStringToObject(o, "file", x->file);
  if (x->fn) {
    cJSON_AddStringToObject(o, "function", x->fn);
    cJSON_AddNumberToObject(o, "line", x->line);
    cJSON_AddNumberToObject(o, "end", x->end);
  } else {
    cJSON_AddNullToObject(o, "function");
  }
  cJSON *hs = cJSON_AddArrayToObject(o, "hunks");
  for (unsigned i = 0; i < x->nh; i++) {
    cJSON *h = cJSON_CreateArray();
    cJSON_AddItemToArray(h, cJSON_CreateNumber(x->h[i].first));
    cJSON_AddItemToArray(h, cJSON_CreateNumber(x->h[i].last));
    cJSON_AddItemToArray(hs, h);
  }
  cJSON *cs = cJSON_AddArrayToObject(o, "commits");
  for (unsigned i = 0; i < x->ncommits; i++)
    cJSON_AddItemToArray(cs, cJSON_CreateString(x->commits[i]));
  int ranked = r->status == RANKED;
  cJSON_AddItemToObject(o, "delta_ms", ms(ranked ? r->d.mean : NAN));
  cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
  if (ranked && !isnan(r->d.lo)) {
    cJSON_AddItemToArray(ci, ms(r->d.lo));
    cJSON_AddItemToArray(ci, ms(r->d.hi));
  }
  cJSON_AddBoolToObject(o, "significant", ranked && r->d.lo > 0);
  cJSON_AddItemToObject(o, "old_ms", ms(ranked ? r->old_ms : NAN));
  cJSON_AddItemToObject(o, "new_ms", ms(ranked ? r->new_ms : NAN));
  cJSON_AddNumberToObject(o, "pairs", ranked ? c->n : 0);
  cJSON_AddNumberToObject(o, "impact_set", (double)x->nkeys);
  cJSON *im = cJSON_AddArrayToObject(o, "impact");
  for (size_t i = 0; i < x->nkeys && i < 20; i++) {
    const struct ana_bu_row *br = ana_bu_row(c->bu, x->keys[i]);
    if (br)
      cJSON_AddItemToArray(im, cJSON_CreateString(ana_str(c->ctx, br->name)));
  }
  cJSON *ne = cJSON_AddArrayToObject(o, "nested");
  for (size_t i = 0; i < x->nnested; i++)
    cJSON_AddItemToArray(ne, cJSON_CreateString(ch->v[x->nested[i]].fn));
  cJSON_AddItemToObject(o, "delta_with_nested_ms",
                        ms(ranked ? r->full_ms : NAN));
  return o;
}

struct cJSON *ana_cmp_changes_json(const struct ana_cmp *c) {
  if (!c->changes) return NULL;
  struct row *r = rank_rows(c);
  cJSON *a = cJSON_CreateArray();
  for (unsigned i = 0; i < c->changes->n; i++)
    cJSON_AddItemToArray(a, change_json(c, &r[i], i + 1));
  free(r);
  return a;
}

const char *ana__changes_range(const struct ana_cmp *c) {
  return c->changes ? c->changes->range : NULL;
}
