/* The comparison pair by pair (ana_cmp): pairs added as they come give
 * the verdict at any point, the same as the whole analysis of those pairs;
 * and probes follow a cause's path into every trace. On the real traces of
 * tests/data/real (the demo app before and after slowChecksum). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "report/report.h"
#include "test.h"

static void pair_path(char *out, size_t cap, const char *side, int i) {
  char rel[64];
  snprintf(rel, sizeof rel, "real/%s/run-%d.json.gz", side, i);
  snprintf(out, cap, "%s", zt_data(rel));
}

static struct ana_cmp *cmp_of(int npairs, const struct ana_probe *watch,
                              unsigned nwatch) {
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_cmp *c = ana_cmp_new(&o, 0, NULL, 0, 9);
  if (watch) ana_cmp_watch(c, watch, nwatch);
  for (int i = 1; i <= npairs; i++) {
    char op[4096], np[4096];
    pair_path(op, sizeof op, "old", i);
    pair_path(np, sizeof np, "new", i);
    ZT_INT(ana_cmp_add(c, op, np), ZC_OK);
  }
  return c;
}

/* The verdict at any point: after one pair, after three; asking does not
 * change what the next pair gives. */
static void test_any_point(void) {
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_cmp *c = ana_cmp_new(&o, 0, NULL, 0, 9);
  struct ana_outcome oc;
  ana_cmp_outcome(c, -1, 5, &oc);
  ZT_INT(oc.state, ANA_NO_REGRESSION); /* nothing yet */
  for (int i = 1; i <= 3; i++) {
    char op[4096], np[4096];
    pair_path(op, sizeof op, "old", i);
    pair_path(np, sizeof np, "new", i);
    ZT_INT(ana_cmp_add(c, op, np), ZC_OK);
    ZT_INT(ana_cmp_pairs(c), (unsigned)i);
    ana_cmp_outcome(c, -1, 5, &oc);
    ZT_INT(oc.state, ANA_REGRESSION);
    ZT_INT(oc.causes, 1);
  }
  /* the same as three pairs added at once, never asked */
  struct ana_cmp *all = cmp_of(3, NULL, 0);
  struct ana_outcome oa;
  ana_cmp_outcome(all, -1, 5, &oa);
  ZT_INT(oa.state, oc.state);
  ZT_INT(oa.causes, oc.causes);
  ZT_INT(oa.undecided, oc.undecided);
  ZT_INT(oa.e2e, oc.e2e);
  /* a trace that cannot be read adds nothing */
  ZT_INT(ana_cmp_add(c, "/nonexistent/old.json", "/nonexistent/new.json"),
         ZC_E_IO);
  ZT_INT(ana_cmp_pairs(c), 3);
  ana_cmp_free(all);
  ana_cmp_free(c);
}

/* Probes: the cause's path from the thread down; measured in every pair,
 * its new - old is the cause's Δ in the graph, pair by pair. */
static void test_probes(void) {
  struct ana_cmp *c = cmp_of(3, NULL, 0);
  struct ana_probe *p = NULL;
  unsigned n = ana_cmp_probes(c, &p);
  ZT_INT(n, 1);
  ZT_INT(p[0].kind, ANA_PROBE_PATH);
  ZT_STR(p[0].label, "CrRendererMain > main > renderList > buildRows > "
                     "formatRow > slowChecksum");
  ZT_STR(p[0].component[5], "/app.js");
  struct ana_cmp *w = cmp_of(3, p, n);
  const double *ov, *nv;
  ZT_INT(ana_cmp_probe_values(w, 0, &ov, &nv), 3);
  /* the stored traces' figures, exact (tests/data/real) */
  static const double want[3] = {109.203, 111.494, 102.017};
  double sum = 0;
  for (int i = 0; i < 3; i++) {
    ZT_NEAR(ov[i], 0, 1e-9); /* new in the new build */
    ZT_NEAR(nv[i], want[i], 0.0005);
    sum += nv[i] - ov[i];
  }
  /* the graph's mean Δ, as compare says (samples weighed by CPU share) */
  ZT_NEAR(sum / 3, 107.57, 0.06);
  ana_cmp_free(w);
  ana_probes_free(p, n);
  ana_cmp_free(c);
  /* A/A: no cause, so the probe is the scenario's time */
  struct ana_opts o;
  ana_opts_default(&o);
  c = ana_cmp_new(&o, 0, NULL, 0, 9);
  char op[4096];
  pair_path(op, sizeof op, "old", 1);
  ZT_INT(ana_cmp_add(c, op, op), ZC_OK);
  n = ana_cmp_probes(c, &p);
  ZT_INT(n, 1);
  ZT_INT(p[0].kind, ANA_PROBE_SCENARIO);
  ana_probes_free(p, n);
  ana_cmp_free(c);
}

/* Count pairs come after the timed pairs, and the verdict may have been
 * asked for in between (zamcap's --pairs auto asks after every pair):
 * the counts then change the graph as they do where nothing was asked.
 * The stored traces of a wrapper V8 inlined on some samples, whose cause
 * the counts move to barWidth (tests/data/counts/wrapper-inlined). */
static struct ana_cmp *counted(int ask) {
  static const char dir[] = "data/counts/wrapper-inlined/traces";
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_cmp *c = ana_cmp_new(&o, 0, NULL, 0, 9);
  for (int i = 1; i <= 3; i++) {
    ZT_INT(ana_cmp_add(c, zt_tests("%s/old-%d.json.gz", dir, i),
                       zt_tests("%s/new-%d.json.gz", dir, i)),
           ZC_OK);
    struct ana_outcome oc;
    if (ask) ana_cmp_outcome(c, -1, 5, &oc);
  }
  ZT_INT(ana_cmp_add_calls(c, zt_tests("%s/old-calls-1.calls.json", dir),
                           zt_tests("%s/new-calls-1.calls.json", dir)),
         ZC_OK);
  return c;
}

static const char *last_part(const char *label) {
  const char *s = strrchr(label, '>');
  return s ? s + 2 : label;
}

static void test_counts_after_asking(void) {
  struct ana_cmp *never = counted(0), *asked = counted(1);
  struct ana_probe *pn = NULL, *pa = NULL;
  unsigned nn = ana_cmp_probes(never, &pn), na = ana_cmp_probes(asked, &pa);
  ZT_INT(nn, 1);
  ZT_INT(na, nn);
  if (nn == 1 && na == 1) {
    ZT_STR(last_part(pn[0].label), "barWidth");
    ZT_STR(pa[0].label, pn[0].label);
  }
  ana_probes_free(pn, nn);
  ana_probes_free(pa, na);
  ana_cmp_free(never);
  ana_cmp_free(asked);
}

/* A page's name as summary.md writes it (ana_md_code), in a table cell:
 * every pipe in it follows an odd run of backslashes, so that GFM, which
 * splits the row first, never ends the cell (and with it the code span)
 * inside the name; the span's fence outruns its backticks. Issue 38's
 * class: every text from a page escaped for its sink. */
static void test_md_escape(void) {
  static const char *const names[] = {
      "a|b", "c\\|![i](http://evil.example/p.png)", "e\\\\|f", "``g``",
      "h\\\\\\|<img src=x>"};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ana_md_code(f, names[k]);
    fclose(f);
    size_t bs = 0, pipes = 0, odd = 0;
    for (size_t i = 0; i < n; i++) {
      if (buf[i] == '|') pipes++, odd += bs % 2;
      bs = buf[i] == '\\' ? bs + 1 : 0;
    }
    ZT_INT(odd, pipes);
    if (odd != pipes) fprintf(stderr, "  %s\n", buf);
    free(buf);
  }
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"md_escape", test_md_escape},
      {"any_point", test_any_point},
      {"probes", test_probes},
      {"counts_after_asking", test_counts_after_asking},
  };
  return ZT_RUN(cases, argc, argv);
}
