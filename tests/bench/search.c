/* The input searches (scenarios/search.c) against each other, on
 * landscapes whose slow inputs are known: how often each finds a slow
 * input within a number of candidates, how many candidates it takes, and
 * the largest true Δ it found. The fitness of a candidate is the
 * landscape's Δ plus Gaussian noise of a pair's spread (measured on the
 * explore demo: bench/search.sh), as zamcap explore's one screening pair
 * gives it. Figures only: docs/cmd/zamcap-explore.md quotes them.
 *
 *   zc_bench_search [SEEDS [CANDIDATES [NOISE_MS]]]   (1000 31 4) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scn.h"

/* The explore demo's parameters (tests/agent/exploreapp/explore.json). */
static const char *flow =
    "{\"steps\":[{\"type\":\"navigate\",\"url\":\"/?q={{query}}&rows={{rows}}&"
    "n={{note}}\"}],\"zamcap\":{\"parameters\":{"
    "\"query\":{\"choice\":[\"shoes\",\"red shoes\",\"boots\",\"hat\"]},"
    "\"rows\":{\"int\":[10,2000],\"scale\":\"log\"},"
    "\"note\":{\"string\":{\"length\":[0,30],\"alphabet\":\"abc -\"}}}}}";

static int spaced(const char *q) {
  return strchr(q, ' ') != NULL;
}

/* Each landscape: the true Δ (ms) of an input, and whether it is slow. */
static double needle(const char *const *v) { /* the demo's page */
  return spaced(v[0]) && atoi(v[1]) > 800 ? 150 : 0;
}
static double band(const char *const *v) { /* slow in the middle only */
  int r = atoi(v[1]);
  return spaced(v[0]) && r >= 600 && r <= 1000 ? 150 : 0;
}
static double graded(const char *const *v) { /* grows with the rows */
  return spaced(v[0]) ? atoi(v[1]) / 10.0 : 0;
}
static double three(const char *const *v) { /* three parameters at once */
  return spaced(v[0]) && atoi(v[1]) > 800 && strchr(v[2], '-') ? 150 : 0;
}

struct land {
  const char *name, *what;
  double (*delta)(const char *const *v);
  double slow; /* a true Δ at least this is a find */
};
static const struct land lands[] = {
    {"needle", "a space in the query and rows > 800", needle, 100},
    {"band", "a space and 600 <= rows <= 1000", band, 100},
    {"graded", "a space, Δ = rows / 10 ms", graded, 150},
    {"three", "a space, rows > 800 and a '-' in the note", three, 100},
};

static double rng_gauss(unsigned long long *st) {
  double u[2];
  for (int i = 0; i < 2; i++) {
    *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
    u[i] = ((double)(*st >> 11) + 0.5) * 0x1.0p-53;
  }
  return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

int main(int argc, char **argv) {
  unsigned seeds = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
  unsigned cands = argc > 2 ? (unsigned)atoi(argv[2]) : 31;
  double noise = argc > 3 ? atof(argv[3]) : 4;
  const char *path = "/tmp/zc-bench-search.json";
  FILE *f = fopen(path, "w");
  if (!f || fputs(flow, f) < 0 || fclose(f)) return 1;
  struct scn_scenario *s;
  if (scn_load(path, &s)) {
    fprintf(stderr, "%s\n", zc_errmsg());
    return 1;
  }
  printf("%u seeds, %u candidates each, noise sd %.1f ms\n\n", seeds, cands,
         noise);
  printf("%-8s %-7s %8s %14s %14s\n", "land", "search", "found",
         "to first (mean)", "best true Δ");
  for (size_t l = 0; l < sizeof lands / sizeof *lands; l++) {
    for (int k = 0; k < 3; k++) {
      unsigned found = 0;
      double first = 0, best = 0;
      for (unsigned seed = 1; seed <= seeds; seed++) {
        struct scn_search *x = scn_search_new(
            s->params, s->nparams, (enum scn_strategy)k, seed, cands);
        unsigned long long st = seed * 0x9e3779b97f4a7c15ULL;
        double top = -1, topfit = -HUGE_VAL;
        unsigned at = 0;
        for (unsigned i = 1; i <= cands; i++) {
          const char *const *v;
          long id = scn_search_next(x, &v);
          if (id < 0) break;
          double d = lands[l].delta(v);
          double fit = d + noise * rng_gauss(&st);
          if (fit > topfit) topfit = fit, top = d;
          if (!at && d >= lands[l].slow) at = i;
          scn_search_tell(x, id, fit);
        }
        found += at > 0;
        first += at;
        best += top;
        scn_search_free(x);
      }
      printf("%-8s %-7s %7.1f%% %14.1f %11.1f ms\n", lands[l].name,
             scn_strategy_name((enum scn_strategy)k), 100.0 * found / seeds,
             found ? first / found : NAN, best / seeds);
    }
  }
  printf("\n");
  for (size_t l = 0; l < sizeof lands / sizeof *lands; l++)
    printf("%-8s %s\n", lands[l].name, lands[l].what);
  scn_free(s);
  return 0;
}
