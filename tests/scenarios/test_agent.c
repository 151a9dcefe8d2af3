/* The one command, end to end in headless Chromium: each demo app's
 * documented regression is found, an A/A run finds nothing, a build the
 * scenario cannot drive fails at warm-up, usage errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static const char *bin(void) {
  const char *b = getenv("ZAMCAP");
  return b ? b : "./zamcap";
}

static const char *demo(const char *rel) {
  static char p[4][4096];
  static int k;
  char *s = p[k++ & 3];
  snprintf(s, 4096, "%s/../../scenarios/demo/%s", zt_data(""), rel);
  return s;
}

static void expect_cause(const char *app, const char *name, const char *path) {
  char fn[128];
  snprintf(fn, sizeof fn, "%s (/app.js:", name);
  char scn[64], oldb[64], newb[64];
  snprintf(scn, sizeof scn, "%s.json", app);
  snprintf(oldb, sizeof oldb, "%s/old", app);
  snprintf(newb, sizeof newb, "%s/new", app);
  char *out = NULL;
  int rc = zt_sh(&out, "'%s' '%s' --old '%s' --new '%s' --pairs 2 --out '%s'",
                 bin(), demo(scn), demo(oldb), demo(newb), zt_tmp(app));
  ZT_INT(rc, 1);
  ZT_HAS(out, fn);
  ZT_HAS(out, path);
  /* Interleaved and counterbalanced: pair 2 runs the new build first. */
  const char *n2 = out ? strstr(out, "pair 2/2, new build") : NULL;
  const char *o2 = out ? strstr(out, "pair 2/2, old build") : NULL;
  ZT_TRUE(n2 && o2 && n2 < o2);
  ZT_HAS(out, "warm-up 1/1, old build");
  if (rc != 1) fprintf(stderr, "%s\n", out);
  free(out);
  char trace[4200];
  snprintf(trace, sizeof trace, "%s/traces/new-2.json.gz", zt_tmp(app));
  char *t = zt_read(trace);
  ZT_TRUE(t != NULL);
  free(t);
  snprintf(trace, sizeof trace, "%s/report.json", zt_tmp(app));
  t = zt_read(trace);
  char field[160];
  snprintf(field, sizeof field, "\"name\":\t\"%s\"", name);
  ZT_HAS(t, field);
  free(t);
}

static void test_todo(void) {
  expect_cause("todo", "dedupeTitles",
               "onFilterClick > applyFilter > renderList > dedupeTitles");
}

static void test_search(void) {
  expect_cause("search", "buildHighlightPattern",
               "highlightMatches > buildHighlightPattern");
}

static void test_aa(void) {
  char *out = NULL;
  int rc = zt_sh(&out, "'%s' '%s' --old '%s' --new '%s' --pairs 2 --out '%s'",
                 bin(), demo("todo.json"), demo("todo/old"), demo("todo/old"),
                 zt_tmp("aa"));
  ZT_INT(rc, 0);
  ZT_HAS(out, "no regression-cause");
  free(out);
}

/* A build the scenario cannot drive (the filter buttons are gone) stops
 * at warm-up with the step that failed, and its screenshot. */
static void test_broken_build(void) {
  zt_sh(NULL, "rm -rf '%s' && cp -r '%s' '%s' && sed -i "
        "'s/id=\"filter-active\"/id=\"gone\"/; s/>Active</>Gone</' '%s/index.html'",
        zt_tmp("broken"), demo("todo/new"), zt_tmp("broken"), zt_tmp("broken"));
  char *out = NULL;
  int rc = zt_sh(&out, "'%s' '%s' --old '%s' --new '%s' --pairs 1 "
                 "--step-timeout 2000 --out '%s'", bin(), demo("todo.json"),
                 demo("todo/old"), zt_tmp("broken"), zt_tmp("brokenout"));
  ZT_INT(rc, 3);
  ZT_HAS(out, "warm-up on the new build: step ");
  ZT_HAS(out, "no element matched in 2 s");
  free(out);
  ZT_INT(zt_sh(NULL, "ls '%s'/failures/warmup-1-new-step-*.png",
               zt_tmp("brokenout")), 0);
  ZT_INT(zt_sh(NULL, "ls '%s'/failures/warmup-1-old-*", zt_tmp("brokenout")),
         2); /* the old build's warm-up passed */
}

static void test_usage(void) {
  char *out = NULL;
  ZT_INT(zt_sh(&out, "'%s' '%s' --old '%s'", bin(), demo("todo.json"),
               demo("todo/old")), 2);
  ZT_HAS(out, "give both --old URL|DIR and --new URL|DIR");
  free(out);
  ZT_INT(zt_sh(&out, "'%s' run --help", bin()), 0);
  ZT_HAS(out, "interleaved pairs");
  free(out);
  ZT_INT(zt_sh(&out, "'%s' '%s' --old nowhere --new '%s' --chrome /none", bin(),
               demo("todo.json"), demo("todo/new")), 3);
  ZT_HAS(out, "--chrome /none: no executable there");
  free(out);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"todo", test_todo},
      {"search", test_search},
      {"aa", test_aa},
      {"broken_build", test_broken_build},
      {"usage", test_usage},
  };
  return ZT_RUN(cases, argc, argv);
}
