/* zc_htab: the one hash index of zamcap (zc.h). */
#include <stdlib.h>
#include <string.h>

#include "zc.h"

static size_t htab_cap_for(size_t n) {
  size_t cap = 16;
  while (cap < n * 2)
    cap *= 2;
  return cap;
}

void zc_htab_init(struct zc_htab *t, size_t n) {
  t->cap = htab_cap_for(n);
  t->slot = zc_xcalloc(t->cap, sizeof *t->slot);
  t->n = 0;
}

void zc_htab_free(struct zc_htab *t) {
  free(t->slot);
  memset(t, 0, sizeof *t);
}

void zc_htab_clear(struct zc_htab *t, size_t n) {
  size_t want = htab_cap_for(n);
  if (t->cap > want * 4 || t->cap < want) {
    free(t->slot);
    zc_htab_init(t, n);
    return;
  }
  memset(t->slot, 0, t->cap * sizeof *t->slot);
  t->n = 0;
}

/* Doubles the table; every slot moves by the hash bits it keeps. */
static void htab_grow(struct zc_htab *t) {
  size_t cap = t->cap * 2, mask = cap - 1;
  uint64_t *s = zc_xcalloc(cap, sizeof *s);
  for (size_t k = 0; k < t->cap; k++) {
    uint64_t v = t->slot[k];
    if (!v) continue;
    size_t p = (uint32_t)(v >> 32) & mask;
    while (s[p])
      p = (p + 1) & mask;
    s[p] = v;
  }
  free(t->slot);
  t->slot = s;
  t->cap = cap;
}

void zc_htab_add(struct zc_htab *t, uint64_t hash, size_t pos, uint32_t i) {
  /* An index of UINT32_MAX would read back as empty: the callers' arrays
   * are capped far below that (node and string ids are uint32_t). */
  t->slot[pos] = (uint64_t)zc_htab_bits(hash) << 32 | ((uint64_t)i + 1);
  if (++t->n * 2 > t->cap) htab_grow(t);
}
