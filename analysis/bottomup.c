/* The bottom-up view: self time per function, summed over whole timelines.
 * It finds what the critical graph cannot: a regression spread thin over
 * many functions, none of which passes μ alone (seed 000 §5.3 RQ6, §6.1). */
#include <stdlib.h>
#include <string.h>

#include "ana.h"

struct ana_bottomup {
  struct ana_ctx *ctx;
  struct ana_bu_row *rows; /* in first-seen order, matching sum[] */
  struct ana_bu_row *sorted; /* what ana_bu_rows last returned */
  double *sum[2]; /* µs per row and side */
  size_t n, cap, capsum;
  struct zc_htab tab; /* key -> row */
  unsigned count[2]; /* timelines added per side */
};

struct ana_bottomup *ana_bu_new(struct ana_ctx *c) {
  struct ana_bottomup *b = zc_xcalloc(1, sizeof *b);
  b->ctx = c;
  zc_htab_init(&b->tab, 512);
  return b;
}

void ana_bu_free(struct ana_bottomup *b) {
  if (!b) return;
  free(b->rows);
  free(b->sorted);
  free(b->sum[0]);
  free(b->sum[1]);
  zc_htab_free(&b->tab);
  free(b);
}

static uint32_t bu_row(struct ana_bottomup *b, const struct ana_node *nd) {
  uint64_t hv = zc_mix64(nd->key);
  size_t pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&b->tab, hv, &pos, &i))
    if (b->rows[i].key == nd->key) return i;
  ZC_GROW(b->rows, b->cap, b->n + 1);
  size_t cs = b->capsum;
  ZC_GROW(b->sum[0], cs, b->n + 1);
  cs = b->capsum;
  ZC_GROW(b->sum[1], cs, b->n + 1);
  b->capsum = cs;
  struct ana_bu_row *r = &b->rows[b->n];
  memset(r, 0, sizeof *r);
  r->key = nd->key;
  r->name = nd->name;
  r->component = nd->component;
  r->url = nd->url;
  r->line = nd->line;
  r->col = nd->col;
  r->kind = nd->kind;
  b->sum[0][b->n] = b->sum[1][b->n] = 0;
  zc_htab_add(&b->tab, hv, pos, (uint32_t)b->n);
  return (uint32_t)b->n++;
}

void ana_bu_add(struct ana_bottomup *b, const struct ana_timeline *tl,
                int side) {
  side = side ? 1 : 0;
  /* Every node counts, pruned or not: self time is where the CPU was. */
  for (uint32_t i = 1; i < tl->nnodes; i++) {
    const struct ana_node *nd = &tl->nodes[i];
    if (nd->kind == ANA_THREAD || nd->kind == ANA_IDLE || !nd->self_us)
      continue;
    uint32_t r = bu_row(b, nd);
    b->sum[side][r] += (double)nd->self_us;
  }
  b->count[side]++;
}

static int bu_cmp(const void *pa, const void *pb) {
  const struct ana_bu_row *a = pa, *b = pb;
  if (a->delta_ms != b->delta_ms) return a->delta_ms > b->delta_ms ? -1 : 1;
  return a->key < b->key ? -1 : a->key > b->key;
}

uint32_t ana_bu_rows(struct ana_bottomup *b, const struct ana_bu_row **rows) {
  double d0 = b->count[0] ? b->count[0] * 1e3 : 1;
  double d1 = b->count[1] ? b->count[1] * 1e3 : 1;
  free(b->sorted);
  b->sorted = zc_xmalloc((b->n + 1) * sizeof *b->sorted);
  for (size_t i = 0; i < b->n; i++) {
    struct ana_bu_row *r = &b->sorted[i];
    *r = b->rows[i];
    r->old_ms = b->sum[0][i] / d0;
    r->new_ms = b->sum[1][i] / d1;
    r->delta_ms = r->new_ms - r->old_ms;
  }
  qsort(b->sorted, b->n, sizeof *b->sorted, bu_cmp);
  *rows = b->sorted;
  return (uint32_t)b->n;
}
