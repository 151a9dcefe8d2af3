/* zamcap bisect: which build, which commit made a cause slower. The ends
 * are compared as the main command does; each regression-cause (or the
 * scenario's time, when only that regressed) is then followed on its own
 * call path into the builds between, each tested against the good end in
 * interleaved pairs until its verdict is decided, halving the range; the
 * culprit pair of adjacent builds is verified with fresh pairs (a failed
 * verification widens the search once), and with --git the culprit's
 * changed functions are ranked by their self-time change (seed 003).
 *
 * The search is this command's own; capture, statistics and reports are
 * the rooms': the session runs the pairs, ana_cmp's probes measure the
 * causes, analysis/report/bisect.c writes the reports. An I/O cause
 * (issue 36) is followed in I/O pairs of its own, its metric its requests,
 * writes or KB on its call path (ana_io's probes). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "outbox.h"
#include "session.h"
#include "zc-out.h"

/* A build is tested against the good end; its verdict per cause. */
enum { BV_UNTESTED, BV_GOOD, BV_BAD, BV_UNDECIDED };
static const char *const bv_name[] = {"untested", "good", "bad", "undecided"};
/* A cause's search. */
enum { BS_SEARCH, BS_FOUND, BS_VERIFIED, BS_INCONCLUSIVE };

struct bbuild {
  char *label;  /* as given; with --git the short commit */
  char *commit; /* --git: the full SHA */
  char *serve;  /* the folder or URL served */
  char *wt;     /* --git: its worktree, removed at the end */
  int sidx;     /* in the session; -1 not yet; -2 does not build */
  int tested;
  unsigned pairs;
  double *mean, *lo, *hi; /* per cause: its Δ against the good end */
  int *v;                 /* per cause: BV_* */
};

struct bcause {
  unsigned good, bad;
  int state;
  unsigned widened;
  double vmean, vlo, vhi; /* the verification's Δ */
  unsigned vpairs;
  cJSON *changed;  /* --git: the ranked changed functions */
  const char *why; /* inconclusive: why */
};

struct bisect {
  const struct agent_args *a;
  struct agent_session *s;
  struct bbuild *b;
  unsigned n;
  struct ana_probe *pr;
  unsigned np, nt; /* probes; the first nt are time's, the rest I/O's */
  struct bcause *c;
  char *wtdir; /* --git: OUT/worktrees */
  cJSON *steps;
  size_t run0; /* the session's runs before the bisection */
  double t0;   /* when it began, for --time-budget */
  const char *stopped;
};

static unsigned runs_made(const struct bisect *x) {
  return (unsigned)(agent_session_runs(x->s)->nruns - x->run0);
}

/* A step's comparisons: the timed pairs' (time causes), the I/O pairs'
 * (I/O causes); either may be NULL. */
struct bstep {
  struct ana_cmp *cmp;
  struct ana_io *io;
};

static void bstep_free(struct bstep *st) {
  ana_cmp_free(st->cmp);
  ana_io_free(st->io);
}

static unsigned bstep_pairs(const struct bstep *st) {
  return st->cmp ? ana_cmp_pairs(st->cmp) : ana_io_pairs(st->io);
}

/* Cause k's values per pair in the step. */
static unsigned probe_values(const struct bisect *x, const struct bstep *bs,
                             unsigned k, const double **ov, const double **nv) {
  if (k >= x->nt)
    return bs->io ? ana_io_probe_values(bs->io, k - x->nt, ov, nv) : 0;
  return bs->cmp ? ana_cmp_probe_values(bs->cmp, k, ov, nv) : 0;
}

/* Δs new - old of cause k over a step's pairs into *st; the verdict
 * against half the ends' Δ. */
static int classify(const struct bisect *x, const struct bstep *bs, unsigned k,
                    double ends, struct ana_stat *st) {
  const double *ov = NULL, *nv = NULL;
  unsigned n = probe_values(x, bs, k, &ov, &nv);
  double *d = zc_xcalloc(n + 1, sizeof *d);
  for (unsigned i = 0; i < n; i++)
    d[i] = nv[i] - ov[i];
  ana_stat(d, n, st);
  free(d);
  double t = ends / 2;
  if (st->n < 2 || isnan(st->lo) || isnan(t)) return BV_UNDECIDED;
  return st->lo > t ? BV_BAD : st->hi < t ? BV_GOOD : BV_UNDECIDED;
}

/* Whether cause k's range holds build m (only those are decided on m). */
static int in_range(const struct bisect *x, unsigned k, unsigned m) {
  return x->c[k].state == BS_SEARCH && m > x->c[k].good && m < x->c[k].bad;
}

struct step_ctx {
  struct bisect *x;
  unsigned *ks; /* the causes it decides */
  unsigned nk;
};

/* More pairs while a cause the step decides is undecided, within the
 * bisection's runs. */
static int step_more(void *arg, struct ana_cmp *cmp, const char **why) {
  struct step_ctx *sc = arg;
  *why = "decided";
  if (runs_made(sc->x) + 2 > sc->x->a->max_runs) {
    *why = "--max-runs reached";
    return 0;
  }
  struct bstep bs = {.cmp = cmp};
  for (unsigned i = 0; i < sc->nk; i++) {
    struct ana_stat st;
    unsigned k = sc->ks[i];
    if (k < sc->x->nt &&
        classify(sc->x, &bs, k, sc->x->pr[k].delta, &st) == BV_UNDECIDED)
      return 1;
  }
  return 0;
}

/* The step's timed pairs of two builds with the time causes watched;
 * NULL when they could not be run (the error printed). */
static struct ana_cmp *compare_time(struct bisect *x, unsigned i, unsigned j,
                                    struct step_ctx *sc) {
  struct ana_cmp *cmp = agent_session_cmp(x->s, 0, 2);
  ana_cmp_watch(cmp, x->pr, x->nt);
  struct agent_span span = agent_pairs_span(x->a);
  struct agent_pairs p = {.a = (unsigned)x->b[i].sidx,
                          .b = (unsigned)x->b[j].sidx,
                          .pairs = span.most,
                          .min_pairs = span.least,
                          .more = step_more,
                          .more_arg = sc};
  struct cap_outcome oc;
  enum zc_err e = agent_session_pairs(x->s, &p, cmp, &oc);
  if (e || !ana_cmp_pairs(cmp)) {
    zc_error("comparing build %u with %u: %s", j, i,
             e ? zc_errmsg() : "no pair was captured");
    ana_cmp_free(cmp);
    return NULL;
  }
  return cmp;
}

/* The step's I/O pairs (as many as the ends had: I/O hardly varies) with
 * the I/O causes watched; NULL when they could not be run (printed). */
static struct ana_io *compare_io(struct bisect *x, unsigned i, unsigned j) {
  const struct agent_args *a = x->a;
  struct ana_io *io =
      ana_io_new(&a->ana, a->io_mu_requests, a->io_mu_kb, NULL, 3);
  ana_io_watch(io, x->pr + x->nt, x->np - x->nt);
  unsigned got = 0;
  enum zc_err e = agent_session_io_pairs(x->s, (unsigned)x->b[i].sidx,
                                         (unsigned)x->b[j].sidx, 3, io, &got);
  if (e || !got) {
    zc_error("comparing build %u with %u in I/O pairs: %s", j, i,
             e ? zc_errmsg() : "no pair was captured");
    ana_io_free(io);
    return NULL;
  }
  return io;
}

/* One step: the pairs its causes need, time's and I/O's; -1 when they
 * could not be run (the error printed). */
static int compare(struct bisect *x, unsigned i, unsigned j,
                   struct step_ctx *sc, struct bstep *bs) {
  int time = 0, io = 0;
  for (unsigned q = 0; q < sc->nk; q++) {
    time |= sc->ks[q] < x->nt;
    io |= sc->ks[q] >= x->nt;
  }
  bs->cmp = NULL;
  bs->io = NULL;
  if (time && !(bs->cmp = compare_time(x, i, j, sc))) return -1;
  if (io && !(bs->io = compare_io(x, i, j))) {
    bstep_free(bs);
    return -1;
  }
  return 0;
}

/* A step of the report and its progress line. */
static void note_step(struct bisect *x, const char *kind, unsigned i,
                      unsigned j, const struct bstep *bs, const unsigned *ks,
                      unsigned nk, const int *v, const struct ana_stat *st) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "kind", kind);
  cJSON *bj = cJSON_AddArrayToObject(o, "builds");
  cJSON_AddItemToArray(bj, cJSON_CreateNumber(i));
  cJSON_AddItemToArray(bj, cJSON_CreateNumber(j));
  cJSON_AddNumberToObject(o, "pairs", bstep_pairs(bs));
  cJSON *cs = cJSON_AddArrayToObject(o, "causes");
  for (unsigned q = 0; q < nk; q++) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddNumberToObject(c, "cause", ks[q]);
    cJSON_AddNumberToObject(c, "delta_ms", round(st[q].mean * 1000) / 1000);
    const char *unit = x->pr[ks[q]].unit ? x->pr[ks[q]].unit : "ms";
    cJSON_AddStringToObject(c, "unit", unit);
    cJSON *ci = cJSON_AddArrayToObject(c, "ci95");
    if (!isnan(st[q].lo)) {
      cJSON_AddItemToArray(ci,
                           cJSON_CreateNumber(round(st[q].lo * 1000) / 1e3));
      cJSON_AddItemToArray(ci,
                           cJSON_CreateNumber(round(st[q].hi * 1000) / 1e3));
    }
    cJSON_AddStringToObject(c, "verdict", bv_name[v[q]]);
    cJSON_AddItemToArray(cs, c);
    char ci95[80] = "one pair, no interval";
    if (!isnan(st[q].lo))
      snprintf(ci95, sizeof ci95, "95 %% CI %+.1f to %+.1f", st[q].lo,
               st[q].hi);
    zc_log(1, "comparing build %u with %u: %u pairs, %+.1f %s on %s (%s), %s",
           j, i, bstep_pairs(bs), st[q].mean, unit, x->pr[ks[q]].label, ci95,
           bv_name[v[q]]);
  }
  cJSON_AddItemToArray(x->steps, o);
}

/* ---- builds: given, or commits built in worktrees of their own ---- */

/* git -C repo ARGS..., its stdout in *out, its stderr appended to log
 * (NULL: dropped); the exit code, -1 when it could not run. */
static int git_log(const struct bisect *x, const char *log, char **out,
                   const char *a1, const char *a2, const char *a3,
                   const char *a4, const char *a5, const char *a6) {
  const char *repo = x->a->repo ? x->a->repo : ".";
  char *argv[] = {"git",      "-C",       (char *)repo, (char *)a1, (char *)a2,
                  (char *)a3, (char *)a4, (char *)a5,   (char *)a6, NULL};
  int st = -1;
  if (agent_exec(argv, NULL, NULL, log, out, 64u << 20, &st)) {
    if (out) *out = zc_xstrdup("");
    return -1;
  }
  return st;
}

static int git(const struct bisect *x, char **out, const char *a1,
               const char *a2, const char *a3, const char *a4, const char *a5) {
  return git_log(x, NULL, out, a1, a2, a3, a4, a5, NULL);
}

/* The last line of a log that is not empty (git's reason), into line. */
static void last_line(const char *path, char *line, size_t cap) {
  char *t = NULL;
  size_t n = 0;
  line[0] = '\0';
  if (zc_read_file(path, 64u << 20, &t, &n)) return;
  while (n && (t[n - 1] == '\n' || t[n - 1] == '\r'))
    t[--n] = '\0';
  char *l = strrchr(t, '\n');
  snprintf(line, cap, "%s", l ? l + 1 : t);
  for (char *p = line; *p; p++)
    if ((unsigned char)*p < 0x20) *p = ' ';
  free(t);
}

/* A place of this bisection's own for commit k's worktree and its log,
 * under OUT/worktrees: <sha12>, else <sha12>-2 ..., never one that exists
 * (issue 38: a link there to the user's checkout made the build run and
 * write in it, and its HEAD was measured as the commit). */
static int fresh_place(const struct bisect *x, const struct bbuild *b, char *wt,
                       size_t wcap, char *logp, size_t lcap) {
  struct stat st;
  for (unsigned i = 1; i < 100; i++) {
    if (i == 1)
      snprintf(wt, wcap, "%s/%.12s", x->wtdir, b->commit);
    else
      snprintf(wt, wcap, "%s/%.12s-%u", x->wtdir, b->commit, i);
    snprintf(logp, lcap, "%s.log", wt);
    if (lstat(wt, &st) != 0 && lstat(logp, &st) != 0) return 0;
  }
  return -1;
}

/* Checks out commit k in a fresh worktree under OUT/worktrees (removed when
 * the bisection ends) and builds it there with sh -c CMD; 0 when its
 * folder can be served, -1 when not, -3 when zamcap was asked to stop. */
static int build_commit(struct bisect *x, unsigned k) {
  struct bbuild *b = &x->b[k];
  char wt[4200], logp[4300], env[200], dist[8400], why[300];
  struct stat st;
  if (fresh_place(x, b, wt, sizeof wt, logp, sizeof logp)) {
    zc_log(1, "build %u (%s): no free place for its worktree in %s; skipped", k,
           b->label, x->wtdir);
    return -1;
  }
  /* --force: a worktree of an earlier bisection whose OUT was removed is
   * still registered in the repository, and git refuses its path */
  if (git_log(x, logp, NULL, "worktree", "add", "--force", "--detach", wt,
              b->commit)) {
    if (zc_interrupted) return -3;
    last_line(logp, why, sizeof why);
    zc_log(1, "build %u (%s): git worktree add failed (%s; see %s); skipped", k,
           b->label, why[0] ? why : "no reason given", logp);
    return -1;
  }
  b->wt = zc_xstrdup(wt);
  snprintf(env, sizeof env, "ZAMCAP_COMMIT=%s", b->commit);
  char *argv[] = {"sh", "-c", (char *)x->a->build_cmd, NULL};
  int status = -1;
  zc_log(1, "build %u (%s): building ...", k, b->label);
  enum zc_err e = agent_exec(argv, wt, env, logp, NULL, 0, &status);
  if (e == ZC_E_INTERRUPTED) {
    zc_error("interrupted while building build %u (%s); its process group "
             "was ended",
             k, b->label);
    return -3;
  }
  if (e || status != 0) {
    zc_log(1, "build %u (%s): the build failed (%s %d, see %s); skipped", k,
           b->label, e ? zc_errmsg() : "exit", status, logp);
    return -1;
  }
  snprintf(dist, sizeof dist, "%s/%s", wt, x->a->dist);
  if (stat(dist, &st) != 0 || !S_ISDIR(st.st_mode)) {
    zc_log(1, "build %u (%s): no folder %s after the build; skipped", k,
           b->label, x->a->dist);
    return -1;
  }
  b->serve = zc_xstrdup(dist);
  return 0;
}

/* The session's index of build k, serving (and with --git building) it
 * first; -1 when it cannot be had, -3 when zamcap was asked to stop. */
static int need_build(struct bisect *x, unsigned k) {
  struct bbuild *b = &x->b[k];
  if (b->sidx >= 0 || b->sidx == -2) return b->sidx >= 0 ? b->sidx : -1;
  if (zc_interrupted) return -3; /* nothing new starts */
  int r = b->commit ? build_commit(x, k) : 0;
  if (r == -3) return -3;
  if (r) {
    b->sidx = -2;
    return -1;
  }
  char name[32];
  snprintf(name, sizeof name, "b%u", k);
  struct agent_build ab = {
      .opt = b->commit ? "--git" : "--builds", .arg = b->serve, .name = name};
  b->sidx = agent_session_add(x->s, &ab);
  if (b->sidx < 0) b->sidx = -2;
  return b->sidx >= 0 ? b->sidx : -1;
}

/* Fails with a one-line message (exit 2). */
static int bad_input(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static int bad_input(const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  zc_error("%s", msg);
  return ZC_EXIT_USAGE;
}

/* The full SHA of rev into sha (41 bytes); 0 when it is a commit. */
static int commit_of(const struct bisect *x, const char *rev, char *sha) {
  char spec[600], *out = NULL;
  snprintf(spec, sizeof spec, "%s^{commit}", rev);
  int bad = git(x, &out, "rev-parse", "--verify", "-q", spec, NULL) != 0 ||
            strlen(out) < 40;
  if (!bad) snprintf(sha, 41, "%.40s", out);
  free(out);
  return bad;
}

/* GOOD..BAD's checks; 0 or the exit code, printed. */
static int check_range(const struct bisect *x, const char *good,
                       const char *bad, char *gsha, char *bsha) {
  const char *repo = x->a->repo ? x->a->repo : ".";
  if (commit_of(x, good, gsha))
    return bad_input("--git: %s is no commit of %s", good, repo);
  if (commit_of(x, bad, bsha))
    return bad_input("--git: %s is no commit of %s", bad, repo);
  char *out = NULL;
  int dirty = git(x, &out, "status", "--porcelain", "--untracked-files=no",
                  NULL, NULL) == 0 &&
              out[0];
  free(out);
  if (dirty)
    return bad_input("--git: %s has uncommitted changes; it is left as it "
                     "is (commit or stash them)",
                     repo);
  if (git(x, NULL, "merge-base", "--is-ancestor", gsha, bsha, NULL))
    return bad_input("--git: %s is not an ancestor of %s", good, bad);
  return 0;
}

/* The commits GOOD, then GOOD..BAD in order, after the checks. */
static int git_builds(struct bisect *x) {
  const char *r = x->a->git_range, *dots = strstr(r, "..");
  if (!dots || dots == r || !dots[2] || dots[2] == '.')
    return bad_input("--git %s: give GOOD..BAD", r);
  char *good = zc_xstrndup(r, (size_t)(dots - r)), *bad = zc_xstrdup(dots + 2);
  char gsha[41], bsha[41], *out = NULL;
  int rc = check_range(x, good, bad, gsha, bsha);
  if (!rc &&
      git(x, &out, "rev-list", "--reverse", "--ancestry-path", r, NULL) != 0)
    rc = bad_input("--git %s: git rev-list failed", r);
  if (!rc) {
    unsigned n = 1;
    for (const char *p = out; *p; p++)
      n += *p == '\n';
    x->b = zc_xcalloc(n + 1, sizeof *x->b);
    x->b[x->n++].commit = zc_xstrdup(gsha);
    for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n"))
      if (strlen(l) >= 40) x->b[x->n++].commit = zc_xstrndup(l, 40);
    if (x->n < 2) rc = bad_input("--git %s: no commit in that range", r);
  }
  free(out);
  for (unsigned k = 0; k < x->n; k++) {
    x->b[k].label = zc_xstrndup(x->b[k].commit, 12);
    x->b[k].sidx = -1;
  }
  free(good);
  free(bad);
  return rc;
}

static int given_builds(struct bisect *x) {
  const struct agent_args *a = x->a;
  unsigned n = 1 + (unsigned)(a->noperands - 1);
  if (n < 2)
    return bad_input("bisect wants 2 builds or more: --builds B0 B1 ... Bn");
  x->b = zc_xcalloc(n, sizeof *x->b);
  for (unsigned k = 0; k < n; k++) {
    const char *v = k ? a->operands[k] : a->builds;
    x->b[k].label = zc_xstrdup(v);
    x->b[k].serve = zc_xstrdup(v);
    x->b[k].sidx = -1;
  }
  x->n = n;
  return 0;
}

/* ---- the search ---- */

static void untest(struct bbuild *b) {
  free(b->mean);
  free(b->lo);
  free(b->hi);
  free(b->v);
  b->mean = b->lo = b->hi = NULL;
  b->v = NULL;
  b->tested = 0;
  b->pairs = 0;
}

/* Build m against the good end, until every cause whose range holds it is
 * decided; 0 done, -1 it does not build, -2 capture failed (printed). */
static int test_build(struct bisect *x, unsigned m) {
  struct bbuild *b = &x->b[m];
  int have = need_build(x, m);
  if (have < 0) return have == -3 ? -2 : -1;
  unsigned *ks = zc_xcalloc(x->np, sizeof *ks), nk = 0;
  for (unsigned k = 0; k < x->np; k++)
    if (in_range(x, k, m)) ks[nk++] = k;
  struct step_ctx sc = {.x = x, .ks = ks, .nk = nk};
  struct bstep bs;
  if (compare(x, 0, m, &sc, &bs)) {
    free(ks);
    return -2;
  }
  b->mean = zc_xcalloc(x->np, sizeof *b->mean);
  b->lo = zc_xcalloc(x->np, sizeof *b->lo);
  b->hi = zc_xcalloc(x->np, sizeof *b->hi);
  b->v = zc_xcalloc(x->np, sizeof *b->v);
  struct ana_stat *st = zc_xcalloc(x->np, sizeof *st);
  int *v = zc_xcalloc(x->np, sizeof *v);
  for (unsigned k = 0; k < x->np; k++) {
    b->v[k] = classify(x, &bs, k, x->pr[k].delta, &st[k]);
    b->mean[k] = st[k].mean;
    b->lo[k] = st[k].lo;
    b->hi[k] = st[k].hi;
  }
  for (unsigned q = 0; q < nk; q++) {
    v[q] = b->v[ks[q]];
    st[q] = (struct ana_stat){
        .n = 2, .mean = b->mean[ks[q]], .lo = b->lo[ks[q]], .hi = b->hi[ks[q]]};
  }
  b->tested = 1;
  b->pairs = bstep_pairs(&bs);
  note_step(x, "test", 0, m, &bs, ks, nk, v, st);
  free(st);
  free(v);
  free(ks);
  bstep_free(&bs);
  return 0;
}

/* Narrows every range that holds m by m's verdicts. */
static void apply(struct bisect *x, unsigned m) {
  for (unsigned k = 0; k < x->np; k++) {
    if (!in_range(x, k, m)) continue;
    if (x->b[m].v[k] == BV_BAD)
      x->c[k].bad = m;
    else if (x->b[m].v[k] == BV_GOOD)
      x->c[k].good = m;
  }
}

/* The build nearest the middle of cause k's range still worth testing;
 * -1 when none is (*undecided: because some stayed undecided). */
static int candidate(const struct bisect *x, unsigned k, int *undecided) {
  const struct bcause *c = &x->c[k];
  double mid = (c->good + c->bad) / 2.0;
  int best = -1;
  *undecided = 0;
  for (unsigned m = c->good + 1; m < c->bad; m++) {
    if (x->b[m].sidx == -2) continue;
    if (x->b[m].tested && x->b[m].v[k] == BV_UNDECIDED) {
      *undecided = 1;
      continue;
    }
    if (best < 0 || fabs(m - mid) < fabs(best - mid)) best = (int)m;
  }
  return best;
}

/* Halves the ranges until each cause's culprit is found (or cannot be);
 * returns 0, or an exit code when the capture failed. */
static int search(struct bisect *x) {
  for (;;) {
    if (zc_interrupted) return 128 + zc_interrupted;
    int busy = 0;
    for (unsigned k = 0; k < x->np && !busy; k++) {
      if (x->c[k].state != BS_SEARCH) continue;
      int und, m = candidate(x, k, &und);
      if (m < 0) {
        x->c[k].state = und ? BS_INCONCLUSIVE : BS_FOUND;
        if (und) x->c[k].why = "a build in its range stayed undecided";
        continue;
      }
      busy = 1;
      if (!x->b[m].tested) {
        if (runs_made(x) + 6 > x->a->max_runs) {
          x->stopped = "--max-runs reached";
          break;
        }
        if (x->a->time_budget_s > 0 &&
            zc_now_ms() - x->t0 > x->a->time_budget_s * 1e3) {
          x->stopped = "--time-budget spent";
          break;
        }
        int r = test_build(x, (unsigned)m);
        if (zc_interrupted) return 128 + zc_interrupted;
        if (r == -2) return ZC_EXIT_CAPTURE;
        if (r == -1) continue;
      }
      apply(x, (unsigned)m);
    }
    if (!busy || x->stopped) break;
  }
  for (unsigned k = 0; k < x->np; k++)
    if (x->c[k].state == BS_SEARCH) {
      x->c[k].state = BS_INCONCLUSIVE;
      x->c[k].why = x->stopped ? x->stopped : "no build left to test";
    }
  return 0;
}

/* A culprit that did not hold up: the search widens once to the nearest
 * decided builds around it, with its two builds tested afresh. */
static void widen(struct bisect *x, unsigned k) {
  struct bcause *c = &x->c[k];
  if (c->widened++) {
    c->state = BS_INCONCLUSIVE;
    c->why = "the culprit did not hold up when verified, twice";
    return;
  }
  if (c->good > 0) untest(&x->b[c->good]);
  if (c->bad < x->n - 1) untest(&x->b[c->bad]);
  unsigned g = 0, b = x->n - 1;
  for (unsigned m = 1; m < c->good; m++)
    if (x->b[m].tested && x->b[m].v[k] == BV_GOOD) g = m;
  for (unsigned m = x->n - 1; m-- > c->bad + 1;)
    if (x->b[m].tested && x->b[m].v[k] == BV_BAD) b = m;
  c->good = g;
  c->bad = b;
  c->state = BS_SEARCH;
}

/* ---- verification and the culprit's change ---- */

/* The hunks of git diff -U0 (new side), their files pointing into text. */
static unsigned parse_hunks(char *text, struct ana_hunk **out) {
  struct ana_hunk *h = NULL;
  size_t n = 0, cap = 0;
  const char *file = NULL;
  for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
    if (!strncmp(l, "+++ ", 4)) {
      file = !strncmp(l + 4, "b/", 2) ? l + 6 : NULL; /* /dev/null: gone */
      continue;
    }
    long first, count = 1;
    char *p = strstr(l, " +");
    if (strncmp(l, "@@ ", 3) || !file || !p) continue;
    first = strtol(p + 2, &p, 10);
    if (*p == ',') count = strtol(p + 1, NULL, 10);
    ZC_GROW(h, cap, n + 1);
    h[n++] =
        (struct ana_hunk){.file = file,
                          .first = (int32_t)first,
                          .last = (int32_t)(first + (count ? count : 1) - 1)};
  }
  *out = h;
  return (unsigned)n;
}

/* --git: the culprit's diff against its parent build, its functions
 * ranked by their self-time Δ in the verification's pairs. */
static cJSON *changed_functions(struct bisect *x, unsigned g, unsigned b,
                                struct ana_cmp *cmp) {
  char *diff = NULL;
  if (agent_git_diff(x->a->repo ? x->a->repo : ".", x->b[g].commit,
                     x->b[b].commit, &diff)) {
    zc_log(1, "warning: %s; no changed functions", zc_errmsg());
    free(diff);
    return cJSON_CreateArray();
  }
  struct ana_hunk *h = NULL;
  unsigned nh = parse_hunks(diff, &h);
  cJSON *arr = ana_cmp_rank_changes(cmp, h, nh, x->a->dist);
  free(h);
  free(diff);
  return arr;
}

/* Fresh pairs of each culprit's two builds (Pinpoint's sandwich): a cause
 * whose Δ there lies above half the ends' is verified; one that does not
 * widens its search. Returns 0, or an exit code when capture failed. */
static int verify(struct bisect *x) {
  for (unsigned k = 0; k < x->np; k++) {
    if (x->c[k].state != BS_FOUND) continue;
    unsigned g = x->c[k].good, b = x->c[k].bad, nk = 0;
    unsigned *ks = zc_xcalloc(x->np, sizeof *ks);
    for (unsigned q = k; q < x->np; q++)
      if (x->c[q].state == BS_FOUND && x->c[q].good == g && x->c[q].bad == b)
        ks[nk++] = q;
    struct step_ctx sc = {.x = x, .ks = ks, .nk = nk};
    struct bstep bs;
    if (compare(x, g, b, &sc, &bs)) {
      free(ks);
      return zc_interrupted ? 128 + zc_interrupted : ZC_EXIT_CAPTURE;
    }
    struct ana_stat *st = zc_xcalloc(nk, sizeof *st);
    int *v = zc_xcalloc(nk, sizeof *v);
    for (unsigned q = 0; q < nk; q++) {
      struct bcause *c = &x->c[ks[q]];
      v[q] = classify(x, &bs, ks[q], x->pr[ks[q]].delta, &st[q]);
      c->vmean = st[q].mean;
      c->vlo = st[q].lo;
      c->vhi = st[q].hi;
      c->vpairs = bstep_pairs(&bs);
      if (v[q] != BV_BAD) {
        widen(x, ks[q]);
        continue;
      }
      c->state = BS_VERIFIED;
      if (x->b[g].commit && bs.cmp)
        c->changed = changed_functions(x, g, b, bs.cmp);
    }
    note_step(x, "verify", g, b, &bs, ks, nk, v, st);
    free(st);
    free(v);
    free(ks);
    bstep_free(&bs);
  }
  return 0;
}

/* ---- the report ---- */

static cJSON *num_or_null(double v) {
  return isnan(v) ? cJSON_CreateNull()
                  : cJSON_CreateNumber(round(v * 1000) / 1000);
}

static cJSON *ci_json(double lo, double hi) {
  cJSON *a = cJSON_CreateArray();
  if (!isnan(lo) && !isnan(hi)) {
    cJSON_AddItemToArray(a, num_or_null(lo));
    cJSON_AddItemToArray(a, num_or_null(hi));
  }
  return a;
}

static cJSON *cause_json(const struct ana_probe *p) {
  static const char *const kind[] = {"path", "self", "scenario", "io"};
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "kind", kind[p->kind]);
  cJSON_AddStringToObject(o, "label", p->label);
  if (p->depth) {
    cJSON_AddStringToObject(o, "name", p->name[p->depth - 1]);
    cJSON_AddStringToObject(o, "url", p->component[p->depth - 1]);
  } else {
    cJSON_AddNullToObject(o, "name");
    cJSON_AddNullToObject(o, "url");
  }
  if (p->line >= 0)
    cJSON_AddNumberToObject(o, "line", p->line + 1);
  else
    cJSON_AddNullToObject(o, "line");
  cJSON *path = cJSON_AddArrayToObject(o, "path");
  for (unsigned i = 0; p->kind == ANA_PROBE_PATH && i < p->depth; i++)
    cJSON_AddItemToArray(path, cJSON_CreateString(p->name[i]));
  cJSON_AddItemToObject(o, "ends_delta_ms", num_or_null(p->delta));
  if (p->kind == ANA_PROBE_IO) { /* its Δs are in its unit, not ms */
    cJSON_AddStringToObject(o, "measure", p->measure);
    cJSON_AddStringToObject(o, "unit", p->unit);
  }
  return o;
}

static cJSON *build_json(const struct bisect *x, unsigned k) {
  const struct bbuild *b = &x->b[k];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "index", k);
  cJSON_AddStringToObject(o, "build", b->commit ? b->label : b->serve);
  if (b->commit)
    cJSON_AddStringToObject(o, "commit", b->commit);
  else
    cJSON_AddNullToObject(o, "commit");
  cJSON_AddStringToObject(o, "status",
                          b->sidx == -2  ? "unbuildable"
                          : b->tested    ? "tested"
                          : b->sidx >= 0 ? "served"
                                         : "untouched");
  return o;
}

/* One culprit: the build, its parent, the causes it made slower. */
static cJSON *culprit_json(const struct bisect *x, unsigned k0) {
  const struct bcause *c0 = &x->c[k0];
  unsigned g = c0->good, b = c0->bad;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "index", b);
  cJSON_AddStringToObject(o, "build",
                          x->b[b].commit ? x->b[b].label : x->b[b].serve);
  if (x->b[b].commit)
    cJSON_AddStringToObject(o, "commit", x->b[b].commit);
  else
    cJSON_AddNullToObject(o, "commit");
  cJSON_AddNumberToObject(o, "previous", g);
  cJSON *sk = cJSON_AddArrayToObject(o, "skipped");
  for (unsigned m = g + 1; m < b; m++)
    cJSON_AddItemToArray(sk, cJSON_CreateNumber(m));
  cJSON_AddItemToObject(o, "cause", cause_json(&x->pr[k0]));
  cJSON_AddStringToObject(o, "unit", x->pr[k0].unit ? x->pr[k0].unit : "ms");
  cJSON_AddItemToObject(o, "delta_ms", num_or_null(c0->vmean));
  cJSON_AddItemToObject(o, "ci95", ci_json(c0->vlo, c0->vhi));
  cJSON_AddNumberToObject(o, "pairs", c0->vpairs);
  cJSON *all = cJSON_AddArrayToObject(o, "causes");
  for (unsigned k = k0; k < x->np; k++) {
    const struct bcause *c = &x->c[k];
    if (c->state != BS_VERIFIED || c->good != g || c->bad != b) continue;
    cJSON *e = cause_json(&x->pr[k]);
    if (!x->pr[k].unit) cJSON_AddStringToObject(e, "unit", "ms");
    cJSON_AddItemToObject(e, "delta_ms", num_or_null(c->vmean));
    cJSON_AddItemToObject(e, "ci95", ci_json(c->vlo, c->vhi));
    cJSON_AddItemToArray(all, e);
  }
  if (c0->changed)
    cJSON_AddItemToObject(o, "changed_functions",
                          cJSON_Duplicate(c0->changed, 1));
  return o;
}

/* Whether cause k is the first verified one of its culprit. */
static int first_of_culprit(const struct bisect *x, unsigned k) {
  for (unsigned q = 0; q < k; q++)
    if (x->c[q].state == BS_VERIFIED && x->c[q].good == x->c[k].good &&
        x->c[q].bad == x->c[k].bad)
      return 0;
  return x->c[k].state == BS_VERIFIED;
}

static cJSON *runs_json(const struct bisect *x) {
  const struct cap_runs *rs = agent_session_runs(x->s);
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = x->run0; i < rs->nruns; i++) {
    const struct cap_record *r = &rs->runs[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "build", rs->build[r->build].name);
    cJSON_AddNumberToObject(o, "pair", r->pair);
    cJSON_AddNumberToObject(o, "attempt", r->attempt);
    cJSON_AddStringToObject(o, "status", r->ok ? "ok" : "failed");
    if (r->trace)
      cJSON_AddStringToObject(o, "trace", r->trace);
    else
      cJSON_AddNullToObject(o, "trace");
    cJSON_AddNumberToObject(o, "ms", round(r->ms));
    cJSON_AddItemToArray(arr, o);
  }
  return arr;
}

/* The verdict: the exit code and its one line. */
static int verdict(const struct bisect *x, char *text, size_t cap) {
  unsigned found = 0, open = 0;
  size_t n = 0;
  text[0] = '\0';
  for (unsigned k = 0; k < x->np; k++) {
    const struct bcause *c = &x->c[k];
    if (c->state == BS_INCONCLUSIVE) open++;
    if (!first_of_culprit(x, k) || n >= cap) continue;
    found++;
    const char *u = x->pr[k].unit ? x->pr[k].unit : "ms";
    n += (size_t)snprintf(text + n, cap - n,
                          "%sbuild %u (%s) made %s %s by %+.1f %s "
                          "(95 %% CI %+.1f to %+.1f, %u fresh pairs against "
                          "build %u)",
                          n ? "; " : "", c->bad, x->b[c->bad].label,
                          x->pr[k].label, x->pr[k].unit ? "ask more" : "slower",
                          c->vmean, u, c->vlo, c->vhi, c->vpairs, c->good);
  }
  for (unsigned k = 0; k < x->np && n < cap; k++) {
    const struct bcause *c = &x->c[k];
    if (c->state != BS_INCONCLUSIVE) continue;
    n += (size_t)snprintf(text + n, cap - n,
                          "%s%s: undecided between builds %u and %u (%s)",
                          n ? "; " : "", x->pr[k].label, c->good, c->bad,
                          c->why ? c->why : "undecided");
  }
  if (n < cap) snprintf(text + n, cap - n, ".");
  return found ? ZC_EXIT_FOUND : open ? ZC_EXIT_INCONCLUSIVE : ZC_EXIT_NONE;
}

static cJSON *report_doc(const struct bisect *x, int rc, const char *text) {
  cJSON *d = cJSON_CreateObject();
  cJSON_AddStringToObject(d, "schema", "zamcap-bisect/1");
  cJSON_AddStringToObject(d, "zamcap_version", ZAMCAP_VERSION);
  cJSON_AddStringToObject(d, "scenario", x->a->operands[0]);
  cJSON *bs = cJSON_AddArrayToObject(d, "builds");
  for (unsigned k = 0; k < x->n; k++)
    cJSON_AddItemToArray(bs, build_json(x, k));
  cJSON *cs = cJSON_AddArrayToObject(d, "causes");
  for (unsigned k = 0; k < x->np; k++)
    cJSON_AddItemToArray(cs, cause_json(&x->pr[k]));
  cJSON *cu = cJSON_AddArrayToObject(d, "culprits");
  for (unsigned k = 0; k < x->np; k++)
    if (first_of_culprit(x, k)) cJSON_AddItemToArray(cu, culprit_json(x, k));
  cJSON *un = cJSON_AddArrayToObject(d, "undecided");
  for (unsigned k = 0; k < x->np; k++) {
    if (x->c[k].state != BS_INCONCLUSIVE) continue;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "cause", k);
    cJSON_AddNumberToObject(o, "good", x->c[k].good);
    cJSON_AddNumberToObject(o, "bad", x->c[k].bad);
    cJSON_AddStringToObject(o, "why", x->c[k].why ? x->c[k].why : "");
    cJSON_AddItemToArray(un, o);
  }
  cJSON_AddItemToObject(d, "steps", cJSON_Duplicate(x->steps, 1));
  cJSON_AddItemToObject(d, "runs", runs_json(x));
  cJSON_AddStringToObject(d, "confirm", "confirm/" ZC_OUT_REPORT);
  cJSON *v = cJSON_AddObjectToObject(d, "verdict");
  cJSON_AddNumberToObject(v, "exit_code", rc);
  cJSON_AddNumberToObject(v, "traced_runs", runs_made(x));
  cJSON_AddStringToObject(v, "text", text);
  return d;
}

/* ---- the command ---- */

static int check_args(const struct agent_args *a) {
  if (a->noperands < 1)
    return agent_usage_error("bisect", "give a SCENARIO, and --builds or "
                                       "--git");
  if (!a->builds == !a->git_range)
    return agent_usage_error("bisect", "give either --builds B0 B1 ... Bn "
                                       "or --git GOOD..BAD");
  if (a->git_range && (!a->build_cmd || !a->dist))
    return agent_usage_error("bisect", "--git wants --build CMD and "
                                       "--dist PATH");
  if (!a->git_range && (a->build_cmd || a->dist || a->repo))
    return agent_usage_error("bisect", "--build, --dist and --repo go with "
                                       "--git");
  if (a->git_range && a->noperands > 1)
    return agent_usage_error("bisect", "with --git, give no build "
                                       "operands");
  if (a->cdp.chrome && a->cdp.browser_url)
    return agent_usage_error("bisect", "--chrome and --browser-url exclude "
                                       "each other");
  return agent_outbox_check("bisect", a);
}

/* The ends compared as the main command does, into OUT/confirm/: the
 * causes to follow, or the exit code when there is nothing to bisect. */
static int confirm(struct bisect *x) {
  char out[4200];
  snprintf(out, sizeof out, "%s/confirm", agent_session_out(x->s));
  if (zc_mkdirs(out)) {
    zc_error("%s", zc_errmsg());
    return ZC_EXIT_USAGE;
  }
  zc_log(1, "confirming: build 0 (%s) against build %u (%s)", x->b[0].label,
         x->n - 1, x->b[x->n - 1].label);
  int reported = 0;
  struct ana_cmp *cmp = NULL;
  int rc = agent_session_compare(x->s, (unsigned)x->b[0].sidx,
                                 (unsigned)x->b[x->n - 1].sidx, out, &reported,
                                 &cmp);
  struct ana_outcome oc;
  if (cmp) ana_cmp_outcome(cmp, x->a->threshold_ms, x->a->threshold_pct, &oc);
  struct ana_io *io = agent_session_take_io(x->s);
  if (reported && (rc == ZC_EXIT_FOUND || oc.e2e == ANA_E2E_REGRESSED)) {
    x->np = x->nt = ana_cmp_probes(cmp, &x->pr);
    /* the scenario's time is followed when it, not only I/O, regressed */
    if (x->nt == 1 && x->pr[0].kind == ANA_PROBE_SCENARIO && !oc.causes &&
        oc.e2e != ANA_E2E_REGRESSED)
      ana_probes_free(x->pr, x->np), x->pr = NULL, x->np = x->nt = 0;
    struct ana_probe *ip = NULL;
    unsigned ni = ana_io_probes(io, &ip);
    x->pr = zc_xreallocarray(x->pr, x->np + ni + 1, sizeof *x->pr);
    if (ni) memcpy(x->pr + x->np, ip, ni * sizeof *ip);
    x->np += ni;
    free(ip); /* its probes are x->pr's now */
    rc = 0;
  } else if (reported && rc == ZC_EXIT_NONE) {
    zc_log(1,
           "no regression between build 0 and build %u: nothing to "
           "bisect",
           x->n - 1);
  } else if (reported && rc == ZC_EXIT_INCONCLUSIVE) {
    zc_log(1,
           "build 0 against build %u is inconclusive (%s): nothing "
           "bisected; see %s/report.json",
           x->n - 1,
           oc.doubt & ANA_DOUBT_STARVED ? "the machine was too busy"
           : oc.doubt & ANA_DOUBT_E2E   ? "the end-to-end interval holds the "
                                          "threshold"
                                        : "a candidate undecided",
           out);
  }
  ana_cmp_free(cmp);
  ana_io_free(io);
  return rc;
}

/* Confirm, search, verify; the exit code. */
static int bisect_run(struct bisect *x) {
  if (need_build(x, 0) < 0 || need_build(x, x->n - 1) < 0) {
    if (zc_interrupted) return 128 + zc_interrupted;
    zc_error("the %s end cannot be built or served: no answer is possible",
             x->b[0].sidx == -2 ? "good" : "bad");
    return ZC_EXIT_CAPTURE;
  }
  x->run0 = agent_session_runs(x->s)->nruns;
  x->t0 = zc_now_ms();
  int rc = confirm(x);
  if (rc || !x->np) return rc;
  x->c = zc_xcalloc(x->np, sizeof *x->c);
  for (unsigned k = 0; k < x->np; k++)
    x->c[k] = (struct bcause){.good = 0, .bad = x->n - 1, .state = BS_SEARCH};
  for (int round = 0; round < 3; round++) {
    if ((rc = search(x)) || (rc = verify(x))) return rc;
    int again = 0;
    for (unsigned k = 0; k < x->np; k++)
      again |= x->c[k].state == BS_SEARCH;
    if (!again) break;
  }
  return 0;
}

/* The bisection's worktrees removed, and unregistered from the user's
 * repository (issue 38: they stayed registered after every bisect); their
 * build logs stay in OUT/worktrees/. Run after a stop too. */
static void remove_worktrees(struct bisect *x) {
  for (unsigned k = 0; k < x->n; k++) {
    if (!x->b[k].wt) continue;
    if (git(x, NULL, "worktree", "remove", "--force", x->b[k].wt, NULL))
      zc_log(0,
             "warning: git worktree remove %s failed; 'git worktree prune' "
             "in the repository clears it",
             x->b[k].wt);
  }
}

static void bisect_free(struct bisect *x) {
  for (unsigned k = 0; k < x->n; k++) {
    untest(&x->b[k]);
    free(x->b[k].label);
    free(x->b[k].commit);
    free(x->b[k].serve);
    free(x->b[k].wt);
  }
  free(x->b);
  for (unsigned k = 0; x->c && k < x->np; k++)
    cJSON_Delete(x->c[k].changed);
  free(x->c);
  ana_probes_free(x->pr, x->np);
  cJSON_Delete(x->steps);
  free(x->wtdir);
}

/* OUT/worktrees, a folder of this bisection's (not a link elsewhere). */
static int make_wtdir(struct bisect *x) {
  size_t n = strlen(agent_session_out(x->s)) + 16;
  x->wtdir = zc_xmalloc(n);
  snprintf(x->wtdir, n, "%s/worktrees", agent_session_out(x->s));
  struct stat st;
  if (zc_mkdirs(x->wtdir)) {
    zc_error("%s", zc_errmsg());
    return ZC_EXIT_USAGE;
  }
  if (lstat(x->wtdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    zc_error("%s: not a folder of its own (a link?); zamcap builds commits "
             "only in a folder it made",
             x->wtdir);
    return ZC_EXIT_USAGE;
  }
  return 0;
}

static int bisect_exec(const struct agent_args *a) {
  int rc = check_args(a);
  if (rc) return rc;
  struct bisect x = {.a = a, .steps = cJSON_CreateArray()};
  rc = a->git_range ? git_builds(&x) : given_builds(&x);
  if (!rc) rc = agent_session_open(a, NULL, 0, &x.s);
  if (!rc && a->git_range) rc = make_wtdir(&x);
  if (!rc) {
    rc = bisect_run(&x);
    if (zc_interrupted) rc = 128 + zc_interrupted; /* no report then */
    if (!rc && x.np) {
      char text[4096];
      rc = verdict(&x, text, sizeof text);
      cJSON *doc = report_doc(&x, rc, text);
      if (ana_write_bisect(doc, agent_session_out(x.s))) {
        zc_error("%s", zc_errmsg());
        rc = ZC_EXIT_CAPTURE;
      } else {
        agent_record_bisect(x.a, agent_session_out(x.s), doc);
        rc = agent_upload(x.a, agent_session_out(x.s), rc);
      }
      cJSON_Delete(doc);
      zc_log(1, "%s", text);
      zc_log(1, "%u traced runs; report in %s/", runs_made(&x),
             agent_session_out(x.s));
    }
  }
  agent_session_close(x.s, 0);
  remove_worktrees(&x);
  bisect_free(&x);
  if (zc_interrupted) rc = 128 + zc_interrupted;
  return rc;
}

const struct agent_cmd agent_cmd_bisect = {
    .name = "bisect",
    .bit = AGENT_BISECT,
    .usage = "usage: zamcap bisect SCENARIO --builds B0 B1 ... Bn [OPTIONS]\n"
             "       zamcap bisect SCENARIO --git GOOD..BAD --build CMD "
             "--dist PATH\n"
             "                     [--repo DIR] [OPTIONS]",
    .about = "Finds which build, or which commit, made the scenario's "
             "regression-\ncauses slower. B0 is good and Bn bad: they are "
             "compared first, as\nthe main command does (OUT/confirm/); each "
             "cause is then followed on\nits own call path into the builds "
             "between, each tested against B0\nin interleaved pairs until "
             "decided, and the culprit (the first bad\nbuild after a good "
             "one) is verified with fresh pairs. With --git,\neach commit is "
             "checked out in a worktree of its own under OUT and\nbuilt with "
             "CMD; a commit that does not build is skipped, and the\n"
             "culprit's changed functions are ranked by their self-time\n"
             "change. The bisection is recorded in the history (--history):\n"
             "each culprit, its commit and the causes it made slower.\n",
    .after = NULL,
    .exec = bisect_exec,
};
