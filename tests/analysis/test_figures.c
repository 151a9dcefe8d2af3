/* End-to-end statistics: Student's t intervals, the paired change, which
 * metrics and steps the table has. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "test.h"
#include "zam/zam.h"

static void test_stat(void) {
  ZT_NEAR(ana_t95(1), 12.706, 1e-9);
  ZT_NEAR(ana_t95(2), 4.303, 1e-9);
  ZT_NEAR(ana_t95(1000), 1.960, 1e-9);
  ZT_TRUE(isnan(ana_t95(0)));
  struct ana_stat s;
  const double v[] = {1, 2, 3, NAN};
  ana_stat(v, 4, &s); /* NAN is left out: n 3, sd 1 */
  ZT_INT(s.n, 3);
  ZT_NEAR(s.mean, 2, 1e-12);
  ZT_NEAR(s.hi - s.mean, 4.303 / sqrt(3), 1e-9);
  ZT_NEAR(s.mean - s.lo, 4.303 / sqrt(3), 1e-9);
  ana_stat(v, 1, &s);
  ZT_INT(s.n, 1);
  ZT_TRUE(isnan(s.lo) && isnan(s.hi));
  ana_stat(v + 3, 1, &s);
  ZT_INT(s.n, 0);
  ZT_TRUE(isnan(s.mean));
}

static struct ana_figures fig(double scenario, double script, double s1,
                              double s2) {
  struct ana_figures f;
  memset(&f, 0, sizeof f);
  f.scenario_ms = scenario;
  f.scripting_ms = script;
  f.gc_ms = f.native_ms = f.style_layout_ms = f.long_tasks = f.blocking_ms =
      NAN;
  f.nsteps = 2;
  f.steps = calloc(2, sizeof *f.steps);
  f.steps[0].step = 3;
  strcpy(f.steps[0].type, "click");
  f.steps[0].ms = s1;
  f.steps[1].step = 4;
  strcpy(f.steps[1].type, "change");
  f.steps[1].ms = s2;
  return f;
}

/* The change is judged on per-pair differences: a drift both builds
 * shared (pair 3 is slow on both sides) does not hide a steady +100. */
static void test_e2e(void) {
  struct ana_figures o[3] = {fig(100, 50, 10, 90), fig(110, 50, 10, 100),
                             fig(300, 50, 10, 290)};
  struct ana_figures n[3] = {fig(200, 51, 10, 190), fig(212, 49, 10, 202),
                             fig(398, 50, 10, 388)};
  struct ana_e2e *e = ana_e2e_new(o, n, 3);
  ZT_INT(e->nmetrics, 2); /* the all-NAN metrics are left out */
  ZT_INT(e->n, 4);        /* and two steps */
  const struct ana_e2e_row *sc = ana_e2e_find(e, "scenario_ms");
  if (ZT_TRUE(sc != NULL)) {
    ZT_NEAR(sc->delta.mean, 100, 1e-9);
    ZT_TRUE(sc->significant);
    ZT_NEAR(sc->pct, 100 * 100 / (510.0 / 3), 1e-9);
    /* Unpaired, the drift would swamp it: the old runs' own interval
     * spans more than the change. */
    ZT_TRUE(sc->old.hi - sc->old.lo > 200);
  }
  const struct ana_e2e_row *sp = ana_e2e_find(e, "scripting_ms");
  if (ZT_TRUE(sp != NULL)) ZT_TRUE(!sp->significant);
  ZT_INT(e->rows[2].step, 3);
  ZT_STR(e->rows[3].type, "change");
  ZT_TRUE(e->rows[3].significant);
  ZT_TRUE(!e->rows[2].significant); /* 10 -> 10: no spread, no change */
  ZT_TRUE(ana_e2e_find(e, "gc_ms") == NULL);
  ana_e2e_free(e);
  /* One pair: a change, but no interval and never significant. */
  e = ana_e2e_new(o, n, 1);
  sc = ana_e2e_find(e, "scenario_ms");
  if (ZT_TRUE(sc != NULL)) {
    ZT_NEAR(sc->delta.mean, 100, 1e-9);
    ZT_TRUE(!sc->significant && isnan(sc->delta.lo));
  }
  ana_e2e_free(e);
  for (int i = 0; i < 3; i++) {
    ana_figures_clear(&o[i]);
    ana_figures_clear(&n[i]);
  }
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"stat", test_stat},
      {"e2e", test_e2e},
  };
  return ZT_RUN(cases, argc, argv);
}
