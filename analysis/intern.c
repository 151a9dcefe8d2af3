/* Interning of strings and (component, name) keys, so that matching
 * compares integers. Open addressing, power-of-two tables. */
#include <stdlib.h>
#include <string.h>

#include "ana.h"

struct ana_str {
  const char *s;
  uint32_t len;
  uint64_t hash;
};

struct ana_ctx {
  struct zc_arena *arena;
  struct ana_str *strs;
  size_t nstrs, capstrs;
  uint32_t *stab; /* string ids + 1; 0 is empty */
  size_t stabcap;
  uint64_t *keys; /* (component << 32 | name) per key id */
  size_t nkeys, capkeys;
  uint32_t *ktab;
  size_t ktabcap;
};

struct ana_ctx *ana_ctx_new(void) {
  struct ana_ctx *c = zc_xcalloc(1, sizeof *c);
  c->arena = zc_arena_new();
  c->stabcap = 1024;
  c->stab = zc_xcalloc(c->stabcap, sizeof *c->stab);
  c->ktabcap = 1024;
  c->ktab = zc_xcalloc(c->ktabcap, sizeof *c->ktab);
  ana_intern(c, "", 0); /* id 0 is the empty string */
  return c;
}

void ana_ctx_free(struct ana_ctx *c) {
  if (!c) return;
  zc_arena_free(c->arena);
  free(c->strs);
  free(c->stab);
  free(c->keys);
  free(c->ktab);
  free(c);
}

static void ana__srehash(struct ana_ctx *c) {
  size_t cap = c->stabcap * 2;
  uint32_t *t = zc_xcalloc(cap, sizeof *t);
  for (size_t i = 0; i < c->nstrs; i++) {
    size_t h = (size_t)c->strs[i].hash & (cap - 1);
    while (t[h]) h = (h + 1) & (cap - 1);
    t[h] = (uint32_t)i + 1;
  }
  free(c->stab);
  c->stab = t;
  c->stabcap = cap;
}

uint32_t ana_intern(struct ana_ctx *c, const char *s, size_t n) {
  if (n > UINT32_MAX) n = UINT32_MAX;
  uint64_t hv = zc_hash(s, n, 0);
  size_t mask = c->stabcap - 1, h = (size_t)hv & mask;
  for (uint32_t id; (id = c->stab[h]) != 0; h = (h + 1) & mask) {
    const struct ana_str *e = &c->strs[id - 1];
    if (e->hash == hv && e->len == n && memcmp(e->s, s, n) == 0)
      return id - 1;
  }
  ZC_GROW(c->strs, c->capstrs, c->nstrs + 1);
  struct ana_str *e = &c->strs[c->nstrs];
  e->s = zc_arena_strndup(c->arena, s, n);
  e->len = (uint32_t)n;
  e->hash = hv;
  c->stab[h] = (uint32_t)++c->nstrs;
  if (c->nstrs * 2 > c->stabcap) ana__srehash(c);
  return (uint32_t)(c->nstrs - 1);
}

const char *ana_str(const struct ana_ctx *c, uint32_t id) {
  return id < c->nstrs ? c->strs[id].s : "";
}

static size_t ana__khash(uint64_t k, size_t cap) {
  return (size_t)zc_mix64(k) & (cap - 1);
}

uint32_t ana_key(struct ana_ctx *c, uint32_t component, uint32_t name) {
  uint64_t k = (uint64_t)component << 32 | name;
  size_t mask = c->ktabcap - 1, h = ana__khash(k, c->ktabcap);
  for (uint32_t id; (id = c->ktab[h]) != 0; h = (h + 1) & mask)
    if (c->keys[id - 1] == k) return id - 1;
  ZC_GROW(c->keys, c->capkeys, c->nkeys + 1);
  c->keys[c->nkeys] = k;
  c->ktab[h] = (uint32_t)++c->nkeys;
  if (c->nkeys * 2 > c->ktabcap) {
    size_t cap = c->ktabcap * 2;
    uint32_t *t = zc_xcalloc(cap, sizeof *t);
    for (size_t i = 0; i < c->nkeys; i++) {
      size_t j = ana__khash(c->keys[i], cap);
      while (t[j]) j = (j + 1) & (cap - 1);
      t[j] = (uint32_t)i + 1;
    }
    free(c->ktab);
    c->ktab = t;
    c->ktabcap = cap;
  }
  return (uint32_t)(c->nkeys - 1);
}
