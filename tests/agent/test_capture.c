/* The capture room at its own level: plans of pairs over N builds, the
 * order of runs, retries and dropped pairs, auto-sampling's stop, and the
 * traces kept by build for a later comparison. A scripted runner stands
 * in for Chrome (cap_plan.runner); the real runs are test_agent's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "test.h"

/* The runner's script: which runs fail, and what it saw. */
struct script {
  char log[4096]; /* "w:URL t:URL ..." each run: w untraced, t traced */
  unsigned calls;
  unsigned fail_at[8]; /* 1-based call numbers that fail */
  unsigned nfail;
};
static struct script sc;

static enum zc_err fake_run(struct cdp_conn *conn, const struct cap_run_opts *o,
                            const char *trace_base, struct cap_run_result *res,
                            struct cap_spare *spare) {
  (void)conn;
  (void)spare;
  sc.calls++;
  size_t n = strlen(sc.log);
  snprintf(sc.log + n, sizeof sc.log - n, "%s%c:%s", n ? " " : "",
           o->trace ? 't' : 'w', o->base);
  res->work_ms = 1;
  for (unsigned i = 0; i < sc.nfail; i++)
    if (sc.fail_at[i] == sc.calls)
      return zc_fail(ZC_E_TIMEOUT, "step 2 (click): no element");
  if (trace_base) {
    size_t k = strlen(trace_base) + 9;
    res->file = zc_xmalloc(k);
    snprintf(res->file, k, "%s.json.gz", trace_base);
    res->bytes = 100;
  }
  return ZC_OK;
}

static void reset(void) {
  memset(&sc, 0, sizeof sc);
}

static struct cap_plan plan(unsigned a, unsigned b, unsigned pairs) {
  return (struct cap_plan){.a = a,
                           .b = b,
                           .pairs = pairs,
                           .warmup = 1,
                           .min_pairs = pairs,
                           .out = "OUT",
                           .runner = fake_run,
                           .run = {.trace = 1}};
}

static void three_builds(struct cap_runs *r) {
  cap_runs_init(r);
  ZT_INT(cap_runs_build(r, "b0", "http://127.0.0.1:1/"), 0);
  ZT_INT(cap_runs_build(r, "b1", "http://127.0.0.1:2/"), 1);
  ZT_INT(cap_runs_build(r, "b2", "http://127.0.0.1:3/"), 2);
}

/* A plan names two of N builds: only they are warmed and run, a first
 * and b second in odd pairs, swapped in even ones; each trace is named
 * after its build and kept by build. */
static void test_two_of_three(void) {
  reset();
  struct cap_runs r;
  three_builds(&r);
  struct cap_plan p = plan(0, 2, 3);
  struct cap_outcome oc;
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_OK);
  ZT_STR(sc.log, "w:http://127.0.0.1:1/ w:http://127.0.0.1:3/ "
                 "t:http://127.0.0.1:1/ t:http://127.0.0.1:3/ "
                 "t:http://127.0.0.1:3/ t:http://127.0.0.1:1/ "
                 "t:http://127.0.0.1:1/ t:http://127.0.0.1:3/");
  ZT_INT(oc.complete, 3);
  ZT_INT(oc.dropped, 0);
  ZT_STR(oc.stop, "planned pairs done");
  ZT_STR(oc.file[0][1], "OUT/traces/b0-2.json.gz");
  ZT_STR(oc.file[1][2], "OUT/traces/b2-3.json.gz");
  ZT_INT(r.build[0].kind[CAP_TRACE].n, 3);
  ZT_INT(r.build[1].kind[CAP_TRACE].n, 0);
  ZT_INT(r.build[2].kind[CAP_TRACE].n, 3);
  ZT_INT(r.nruns, 6);
  ZT_INT(r.runs[2].build, 2); /* pair 2 begins with b */
  ZT_STR(r.runs[2].trace, "traces/b2-2.json.gz");
  cap_runs_clear(&r);
}

/* A later comparison with a build already run: no second warm-up for it,
 * its trace numbers go on, and its traces of both comparisons are kept. */
static void test_reuse(void) {
  reset();
  struct cap_runs r;
  three_builds(&r);
  struct cap_plan p = plan(0, 2, 2);
  struct cap_outcome oc;
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_OK);
  memset(sc.log, 0, sizeof sc.log);
  p = plan(1, 2, 2);
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_OK);
  ZT_STR(sc.log, "w:http://127.0.0.1:2/ "
                 "t:http://127.0.0.1:2/ t:http://127.0.0.1:3/ "
                 "t:http://127.0.0.1:3/ t:http://127.0.0.1:2/");
  ZT_STR(oc.file[0][0], "OUT/traces/b1-1.json.gz");
  ZT_STR(oc.file[1][0], "OUT/traces/b2-3.json.gz");
  ZT_STR(oc.file[1][1], "OUT/traces/b2-4.json.gz");
  ZT_INT(r.build[2].kind[CAP_TRACE].n, 4);
  ZT_STR(r.build[2].kind[CAP_TRACE].v[0], "OUT/traces/b2-1.json.gz");
  ZT_INT(r.build[2].kind[CAP_TRACE].used, 4);
  cap_runs_clear(&r);
}

/* A run that fails is tried again; one that keeps failing drops its pair,
 * and the plan goes on with the next. */
static void test_retries_and_drops(void) {
  reset();
  struct cap_runs r;
  three_builds(&r);
  struct cap_plan p = plan(0, 1, 3);
  p.retries = 1;
  /* calls: 1-2 warm-ups; pair 1: 3, 4 fails, 5 retried; pair 2: 6 fails,
   * 7 fails again: dropped; pair 3: 8, 9 */
  sc.fail_at[0] = 4;
  sc.fail_at[1] = 6;
  sc.fail_at[2] = 7;
  sc.nfail = 3;
  struct cap_outcome oc;
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_OK);
  ZT_INT(sc.calls, 9);
  ZT_INT(oc.ran, 3);
  ZT_INT(oc.complete, 2);
  ZT_INT(oc.dropped, 1);
  ZT_INT(oc.dropped_pair[0], 2);
  ZT_TRUE(oc.file[0][1] == NULL && oc.file[1][1] == NULL);
  ZT_INT(r.runs[1].attempt, 1);
  ZT_INT(r.runs[1].ok, 0);
  ZT_HAS(r.runs[1].error, "no element");
  ZT_INT(r.runs[2].attempt, 2);
  ZT_INT(r.runs[2].ok, 1);
  ZT_STR(oc.file[0][2], "OUT/traces/b0-3.json.gz");
  cap_runs_clear(&r);
}

/* A warm-up that fails ends the plan and names the build. */
static void test_warmup_fails(void) {
  reset();
  struct cap_runs r;
  three_builds(&r);
  struct cap_plan p = plan(0, 1, 3);
  sc.fail_at[0] = 2;
  sc.nfail = 1;
  struct cap_outcome oc;
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_E_TIMEOUT);
  ZT_HAS(zc_errmsg(), "warm-up on the b1 build: step 2 (click)");
  ZT_INT(oc.ran, 0);
  cap_runs_clear(&r);
}

struct decide {
  unsigned calls, asked, stop_after;
  int fail;
};

static int decide(void *arg, unsigned pair, const char *ta, const char *tb,
                  int ask, const char **why) {
  struct decide *d = arg;
  d->calls++;
  ZT_TRUE(ta && tb);
  ZT_INT(pair, d->calls);
  if (d->fail) return zc_fail(ZC_E_PARSE, "trace unreadable"), -1;
  if (!ask) return 1;
  d->asked++;
  *why = "decided";
  return pair < d->stop_after;
}

/* Auto-sampling: every complete pair is heard, a stop is asked for only
 * from min_pairs on, and the plan ends when the answer is in; an error
 * there ends it too. */
static void test_decides(void) {
  reset();
  struct cap_runs r;
  three_builds(&r);
  struct cap_plan p = plan(0, 1, 10);
  p.decides = 1;
  p.min_pairs = 3;
  struct decide d = {.stop_after = 4};
  p.pair_done = decide;
  p.pair_arg = &d;
  struct cap_outcome oc;
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_OK);
  ZT_INT(d.calls, 4);
  ZT_INT(d.asked, 2); /* after pairs 3 and 4 */
  ZT_INT(oc.complete, 4);
  ZT_STR(oc.stop, "decided");
  cap_runs_clear(&r);
  three_builds(&r);
  d = (struct decide){.fail = 1};
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_E_PARSE);
  ZT_INT(d.calls, 1);
  ZT_HAS(zc_errmsg(), "trace unreadable");
  cap_runs_clear(&r);
  /* a plan between a build and itself, or one that is not there */
  p = plan(1, 1, 2);
  three_builds(&r);
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_E_INTERNAL);
  p = plan(0, 3, 2);
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_E_INTERNAL);
  cap_runs_clear(&r);
}

/* The check after each traced run: the first trace of the new build's
 * first pair fails it (its profile lost samples, say), and that run is
 * tried again; the trace kept is the retry's, and the failed run is on
 * record with the check's words. */
static unsigned checked;
static int fail_first_check(void *arg, const char *trace) {
  (void)arg;
  if (checked++ == 1)
    return zc_fail(ZC_E_BROWSER, "%s: its CPU profile ends early", trace), 1;
  return 0;
}

static void test_check_retries(void) {
  reset();
  checked = 0;
  struct cap_runs r;
  three_builds(&r);
  struct cap_plan p = plan(0, 1, 2);
  p.retries = 1;
  p.check = fail_first_check;
  struct cap_outcome oc;
  ZT_INT(cap_pairs(NULL, &p, &r, &oc), ZC_OK);
  ZT_INT(sc.calls, 7); /* 2 warm-ups, 4 runs, 1 retry */
  ZT_INT(checked, 5);  /* warm-ups are not checked */
  ZT_INT(oc.complete, 2);
  ZT_INT(oc.dropped, 0);
  ZT_INT(r.runs[1].ok, 0);
  ZT_HAS(r.runs[1].error, "b1-1.json.gz: its CPU profile ends early");
  ZT_INT(r.runs[2].ok, 1);
  ZT_INT(r.runs[2].attempt, 2);
  ZT_STR(oc.file[1][0], "OUT/traces/b1-1.json.gz");
  ZT_INT(r.build[1].kind[CAP_TRACE].n, 2);
  cap_runs_clear(&r);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"two_of_three", test_two_of_three},
      {"reuse", test_reuse},
      {"retries_and_drops", test_retries_and_drops},
      {"warmup_fails", test_warmup_fails},
      {"decides", test_decides},
      {"check_retries", test_check_retries},
  };
  return ZT_RUN(cases, argc, argv);
}
