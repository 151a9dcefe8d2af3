/* Matching one level of two call trees: LCS (Myers, linear space, with a
 * time budget) and the alternate hash matcher (seed 000 Algorithm 3). */
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "zam.h"

struct lcs {
  const uint32_t *a, *b;
  uint32_t *old_of;
  int64_t *vf, *vb; /* furthest x per diagonal, forward and backward */
  int64_t off;
  double deadline;
  uint64_t work;
  int timed_out;
};

static int lcs_late(struct lcs *s, uint64_t units) {
  s->work += units;
  if (s->work < 65536) return s->timed_out;
  s->work = 0;
  if (zc_now_ms() > s->deadline) s->timed_out = 1;
  return s->timed_out;
}

/* Myers' middle snake of a[a0..a1) vs b[b0..b1), both non-empty. Sets the
 * snake's start (x, y) and end (u, v), relative to a0 and b0. Returns the
 * edit distance D, or -1 on time-out. */
static int64_t lcs_snake(struct lcs *s, int64_t a0, int64_t a1, int64_t b0,
                         int64_t b1, int64_t *x, int64_t *y, int64_t *u,
                         int64_t *v) {
  const uint32_t *a = s->a + a0, *b = s->b + b0;
  int64_t n = a1 - a0, m = b1 - b0, delta = n - m, odd = delta & 1;
  int64_t dmax = (n + m + 1) / 2, o = s->off;
  int64_t *vf = s->vf, *vb = s->vb;
  vf[o + 1] = 0;
  vb[o + 1] = 0;
  for (int64_t d = 0; d <= dmax; d++) {
    if (lcs_late(s, (uint64_t)(2 * d + 1))) return -1;
    for (int64_t k = -d; k <= d; k += 2) {
      int64_t xs = k == -d || (k != d && vf[o + k - 1] < vf[o + k + 1])
                       ? vf[o + k + 1]
                       : vf[o + k - 1] + 1;
      int64_t ys = xs - k, xe = xs, ye = ys;
      while (xe < n && ye < m && a[xe] == b[ye])
        xe++, ye++;
      vf[o + k] = xe;
      int64_t kr = delta - k;
      if (odd && kr >= -(d - 1) && kr <= d - 1 && xe + vb[o + kr] >= n) {
        *x = xs, *y = ys, *u = xe, *v = ye;
        return 2 * d - 1;
      }
    }
    for (int64_t kr = -d; kr <= d; kr += 2) {
      int64_t xs = kr == -d || (kr != d && vb[o + kr - 1] < vb[o + kr + 1])
                       ? vb[o + kr + 1]
                       : vb[o + kr - 1] + 1;
      int64_t ys = xs - kr, xe = xs, ye = ys;
      while (xe < n && ye < m && a[n - 1 - xe] == b[m - 1 - ye])
        xe++, ye++;
      vb[o + kr] = xe;
      int64_t k = delta - kr;
      if (!odd && k >= -d && k <= d && xe + vf[o + k] >= n) {
        *x = n - xe, *y = m - ye, *u = n - xs, *v = m - ys;
        return 2 * d;
      }
    }
  }
  return -1; /* not reached for valid input */
}

static void lcs_run(struct lcs *s, int64_t a0, int64_t a1, int64_t b0,
                    int64_t b1) {
  while (!s->timed_out) {
    /* Common prefix and suffix cost nothing to match. */
    while (a0 < a1 && b0 < b1 && s->a[a0] == s->b[b0])
      s->old_of[b0++] = (uint32_t)a0++;
    while (a0 < a1 && b0 < b1 && s->a[a1 - 1] == s->b[b1 - 1])
      s->old_of[--b1] = (uint32_t)--a1;
    if (a0 == a1 || b0 == b1) return;
    int64_t x, y, u, v;
    int64_t d = lcs_snake(s, a0, a1, b0, b1, &x, &y, &u, &v);
    if (d < 0) {
      s->timed_out = 1;
      return;
    }
    for (int64_t i = 0; i < u - x; i++)
      s->old_of[b0 + y + i] = (uint32_t)(a0 + x + i);
    /* Recurse on the smaller side, loop on the other: the stack stays
     * logarithmic. */
    if (x + y < (a1 - a0 - u) + (b1 - b0 - v)) {
      lcs_run(s, a0, a0 + x, b0, b0 + y);
      a0 += u, b0 += v;
    } else {
      lcs_run(s, a0 + u, a1, b0 + v, b1);
      a1 = a0 + x, b1 = b0 + y;
    }
  }
}

enum zc_err ana_lcs(const uint32_t *a, uint32_t n, const uint32_t *b,
                    uint32_t m, double budget_ms, uint32_t *old_of) {
  for (uint32_t j = 0; j < m; j++)
    old_of[j] = ANA_NONE;
  if (!n || !m) return ZC_OK;
  if (budget_ms <= 0) return ZC_E_TIMEOUT; /* "always use the alternate" */
  struct lcs s = {.a = a, .b = b, .old_of = old_of};
  int64_t dmax = ((int64_t)n + m + 1) / 2;
  s.off = dmax + 1;
  size_t len = (size_t)(2 * dmax + 3);
  s.vf = zc_xmalloc(len * sizeof *s.vf);
  s.vb = zc_xmalloc(len * sizeof *s.vb);
  s.deadline = zc_now_ms() + budget_ms;
  lcs_run(&s, 0, n, 0, m);
  free(s.vf);
  free(s.vb);
  return s.timed_out ? ZC_E_TIMEOUT : ZC_OK;
}

/* The group of a's indices with key k, or ANA_NONE; *pos is where the
 * probe ended, for adding it. */
static uint32_t group_of(const struct zc_htab *t, const uint32_t *a,
                         const uint32_t *first, uint32_t k, size_t *pos) {
  uint32_t g;
  *pos = ZC_HTAB_START;
  while (zc_htab_next(t, zc_mix64(k), pos, &g))
    if (a[first[g]] == k) return g;
  return ANA_NONE;
}

void ana_match_alternate(const uint32_t *a, uint32_t n, const uint32_t *b,
                         uint32_t m, uint32_t *old_of) {
  /* Each key of a has a queue of its indices in order (first, then next[]
   * links); each b[j] takes the head of its key's queue. */
  struct zc_htab t;
  zc_htab_init(&t, n);
  size_t sz = ((size_t)n + 1) * sizeof(uint32_t);
  uint32_t *first = zc_xmalloc(sz), *head = zc_xmalloc(sz);
  uint32_t *tail = zc_xmalloc(sz), *next = zc_xmalloc(sz);
  uint32_t ng = 0;
  size_t pos;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t g = group_of(&t, a, first, a[i], &pos);
    next[i] = ANA_NONE;
    if (g == ANA_NONE) {
      first[ng] = head[ng] = tail[ng] = i;
      zc_htab_add(&t, zc_mix64(a[i]), pos, ng++);
    } else {
      next[tail[g]] = i;
      tail[g] = i;
    }
  }
  for (uint32_t j = 0; j < m; j++) {
    uint32_t g = group_of(&t, a, first, b[j], &pos);
    old_of[j] = ANA_NONE;
    if (g != ANA_NONE && head[g] != ANA_NONE) {
      old_of[j] = head[g];
      head[g] = next[head[g]];
    }
  }
  zc_htab_free(&t);
  free(first);
  free(head);
  free(tail);
  free(next);
}
