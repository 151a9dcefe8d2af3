/* Tests of the two matchers: LCS (against a quadratic reference) and the
 * alternate hash matcher. */
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "test.h"
#include "timeline.h"
#include "zam/zam.h"

/* Reference LCS length by dynamic programming. */
static uint32_t dp_lcs(const uint32_t *a, uint32_t n, const uint32_t *b,
                       uint32_t m) {
  uint32_t *row = calloc((size_t)m + 1, sizeof *row);
  for (uint32_t i = 1; i <= n; i++) {
    uint32_t diag = 0;
    for (uint32_t j = 1; j <= m; j++) {
      uint32_t up = row[j];
      row[j] = a[i - 1] == b[j - 1]  ? diag + 1
               : row[j] > row[j - 1] ? row[j]
                                     : row[j - 1];
      diag = up;
    }
  }
  uint32_t r = row[m];
  free(row);
  return r;
}

/* Checks old_of is a common subsequence; returns its length. */
static uint32_t check_cs(const uint32_t *a, uint32_t n, const uint32_t *b,
                         uint32_t m, const uint32_t *old_of) {
  uint32_t len = 0;
  int64_t last = -1;
  for (uint32_t j = 0; j < m; j++) {
    if (old_of[j] == ANA_NONE) continue;
    if (!ZT_TRUE(old_of[j] < n && (int64_t)old_of[j] > last &&
                 a[old_of[j]] == b[j]))
      return 0;
    last = old_of[j];
    len++;
  }
  return len;
}

static uint32_t run_lcs(const uint32_t *a, uint32_t n, const uint32_t *b,
                        uint32_t m) {
  uint32_t *o = malloc(((size_t)m + 1) * sizeof *o);
  ZT_INT(ana_lcs(a, n, b, m, 10000, o), ZC_OK);
  uint32_t len = check_cs(a, n, b, m, o);
  free(o);
  return len;
}

static void test_lcs_edges(void) {
  uint32_t a[] = {1, 2, 3, 4}, b[] = {5, 6, 7}, r[] = {4, 3, 2, 1};
  uint32_t rep1[] = {1, 1, 1, 2, 1}, rep2[] = {1, 2, 1, 1};
  ZT_INT(run_lcs(a, 0, b, 0), 0);       /* empty, empty */
  ZT_INT(run_lcs(a, 4, b, 0), 0);       /* empty new */
  ZT_INT(run_lcs(a, 0, b, 3), 0);       /* empty old */
  ZT_INT(run_lcs(a, 4, a, 4), 4);       /* identical */
  ZT_INT(run_lcs(a, 4, b, 3), 0);       /* disjoint */
  ZT_INT(run_lcs(a, 4, r, 4), 1);       /* reversed */
  ZT_INT(run_lcs(rep1, 5, rep2, 4), 3); /* repeats: 1 2 1 */
  uint32_t ins[] = {1, 9, 2, 3, 8, 4};  /* insertions */
  ZT_INT(run_lcs(a, 4, ins, 6), 4);
  uint32_t rot[] = {2, 3, 4, 1}; /* a rotation */
  ZT_INT(run_lcs(a, 4, rot, 4), 3);
  /* With identical sequences every element matches its twin. */
  uint32_t o[4];
  ana_lcs(a, 4, a, 4, 1000, o);
  for (uint32_t j = 0; j < 4; j++)
    ZT_INT(o[j], j);
}

static uint64_t rng = 88172645463325252ULL;
static uint32_t rnd(uint32_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng % n);
}

static void test_lcs_random(void) {
  uint32_t a[300], b[300];
  for (int round = 0; round < 400; round++) {
    uint32_t n = rnd(120), m = rnd(120), alpha = 1 + rnd(round % 3 ? 8 : 60);
    for (uint32_t i = 0; i < n; i++)
      a[i] = rnd(alpha);
    if (round % 2) { /* b: an edited copy of a, as between builds */
      m = 0;
      for (uint32_t i = 0; i < n; i++) {
        if (rnd(10) == 0) continue;
        if (rnd(10) == 0) b[m++] = rnd(alpha);
        b[m++] = a[i];
      }
    } else {
      for (uint32_t j = 0; j < m; j++)
        b[j] = rnd(alpha);
    }
    if (!ZT_INT(run_lcs(a, n, b, m), dp_lcs(a, n, b, m))) break;
  }
}

static void test_lcs_budget(void) {
  /* Two long sequences with nothing in common cost O(N^2): a zero budget
   * gives up instead. */
  uint32_t n = 200000;
  uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  uint32_t *o = malloc(n * sizeof *o);
  for (uint32_t i = 0; i < n; i++)
    a[i] = i, b[i] = n + i;
  /* (The wall time is the budget's to keep, so none is asserted here: a
   * loaded machine or a sanitizer build would make it a coin toss; the
   * benchmark, tests/bench, prints the speed.) */
  ZT_INT(ana_lcs(a, n, b, n, 0, o), ZC_E_TIMEOUT);
  /* Similar long sequences are fast: O((N+M)D) with small D, well inside
   * a budget of a minute even under ASan on a busy machine. */
  for (uint32_t i = 0; i < n; i++)
    b[i] = i % 1000 == 0 ? n + i : a[i];
  ZT_INT(ana_lcs(a, n, b, n, 60000, o), ZC_OK);
  ZT_INT(check_cs(a, n, b, n, o), n - n / 1000);
  free(a);
  free(b);
  free(o);
}

static void test_alternate(void) {
  /* Each new node takes the earliest unused old node with its key. */
  uint32_t a[] = {7, 5, 7, 9, 7}, b[] = {7, 9, 7, 4, 7, 7};
  uint32_t o[6];
  ana_match_alternate(a, 5, b, 6, o);
  ZT_INT(o[0], 0);
  ZT_INT(o[1], 3);
  ZT_INT(o[2], 2);
  ZT_INT(o[3], ANA_NONE);
  ZT_INT(o[4], 4);
  ZT_INT(o[5], ANA_NONE); /* old 7s used up */
  /* Reordered keys match whatever the order (where LCS could not). */
  uint32_t x[] = {1, 2, 3}, y[] = {3, 1, 2};
  ana_match_alternate(x, 3, y, 3, o);
  ZT_INT(o[0], 2);
  ZT_INT(o[1], 0);
  ZT_INT(o[2], 1);
  ana_match_alternate(x, 0, y, 3, o);
  ZT_INT(o[0], ANA_NONE);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"lcs_edges", test_lcs_edges},
      {"lcs_random", test_lcs_random},
      {"lcs_budget", test_lcs_budget},
      {"alternate", test_alternate},
  };
  return ZT_RUN(cases, argc, argv);
}
