/* Interning of strings and (component, name) keys, so that matching
 * compares integers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

struct ana_str {
  const char *s;
  uint32_t len;
  uint64_t hash;
};

struct ana_ctx {
  struct zc_arena *arena;
  struct ana_str *strs;
  size_t nstrs, capstrs;
  struct zc_htab stab; /* string hash -> string id */
  uint64_t *keys;      /* (component << 32 | name) per key id */
  size_t nkeys, capkeys;
  struct zc_htab ktab; /* key -> key id */
  struct ana_gen *gens;
  size_t ngens, capgens;
  int cpu_time; /* ana_ctx_cpu_time */
};

struct ana_ctx *ana_ctx_new(void) {
  struct ana_ctx *c = zc_xcalloc(1, sizeof *c);
  c->arena = zc_arena_new();
  zc_htab_init(&c->stab, 512);
  zc_htab_init(&c->ktab, 512);
  ana_intern(c, "", 0); /* id 0 is the empty string */
  return c;
}

void ana_ctx_set_cpu_time(struct ana_ctx *c, int on) {
  c->cpu_time = on;
}

int ana_ctx_cpu_time(const struct ana_ctx *c) {
  return c->cpu_time;
}

void ana_ctx_free(struct ana_ctx *c) {
  if (!c) return;
  zc_arena_free(c->arena);
  free(c->strs);
  zc_htab_free(&c->stab);
  free(c->keys);
  zc_htab_free(&c->ktab);
  free(c->gens);
  free(c);
}

uint32_t ana_intern(struct ana_ctx *c, const char *s, size_t n) {
  if (n > UINT32_MAX) n = UINT32_MAX;
  uint64_t hv = zc_hash(s, n, 0);
  size_t pos = ZC_HTAB_START;
  uint32_t id;
  while (zc_htab_next(&c->stab, hv, &pos, &id)) {
    const struct ana_str *e = &c->strs[id];
    if (e->hash == hv && e->len == n && memcmp(e->s, s, n) == 0) return id;
  }
  ZC_GROW(c->strs, c->capstrs, c->nstrs + 1);
  struct ana_str *e = &c->strs[c->nstrs];
  e->s = zc_arena_strndup(c->arena, s, n);
  e->len = (uint32_t)n;
  e->hash = hv;
  zc_htab_add(&c->stab, hv, pos, (uint32_t)c->nstrs);
  return (uint32_t)c->nstrs++;
}

uint32_t ana_intern_name(struct ana_ctx *c, const char *s, size_t n) {
  if (n <= ANA_NAME_MAX) return ana_intern(c, s, n);
  char b[ANA_NAME_MAX + 1];
  size_t keep = 0; /* room for "…" (3 bytes) and 16 hex digits */
  while (keep < n) {
    uint32_t cp;
    size_t k = zc_utf8_char((const unsigned char *)s + keep, n - keep, &cp);
    if (!k) k = 1; /* a stray byte: cut it as it is */
    if (keep + k > ANA_NAME_MAX - 19) break;
    keep += k;
  }
  memcpy(b, s, keep);
  int w = snprintf(b + keep, sizeof b - keep, "\xe2\x80\xa6%016llx",
                   (unsigned long long)zc_hash(s, n, 0x6e616d65));
  return ana_intern(c, b, keep + (size_t)w);
}

const char *ana_str(const struct ana_ctx *c, uint32_t id) {
  return id < c->nstrs ? c->strs[id].s : "";
}

uint32_t ana_key(struct ana_ctx *c, uint32_t component, uint32_t name) {
  uint64_t k = (uint64_t)component << 32 | name, hv = zc_mix64(k);
  size_t pos = ZC_HTAB_START;
  uint32_t id;
  while (zc_htab_next(&c->ktab, hv, &pos, &id))
    if (c->keys[id] == k) return id;
  ZC_GROW(c->keys, c->capkeys, c->nkeys + 1);
  c->keys[c->nkeys] = k;
  zc_htab_add(&c->ktab, hv, pos, (uint32_t)c->nkeys);
  return (uint32_t)c->nkeys++;
}

uint32_t ana_gen_add(struct ana_ctx *c, const struct ana_gen *g) {
  ZC_GROW(c->gens, c->capgens, c->ngens + 1);
  c->gens[c->ngens++] = *g;
  return (uint32_t)c->ngens; /* ids from 1 */
}

const struct ana_gen *ana_gen_get(const struct ana_ctx *c, uint32_t id) {
  return id && id <= c->ngens ? &c->gens[id - 1] : NULL;
}
