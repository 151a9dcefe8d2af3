/* capture: plans of runs over N builds: warm-ups on each build not yet
 * warmed, then interleaved, counterbalanced pairs of two builds, each run
 * retried, a pair dropped when one of its runs keeps failing. Every trace
 * is kept by build, for later comparisons. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "zc-out.h"

void cap_runs_init(struct cap_runs *r) {
  memset(r, 0, sizeof *r);
}

unsigned cap_runs_build(struct cap_runs *r, const char *name,
                        const char *base) {
  r->build = zc_xreallocarray(r->build, r->nbuilds + 1, sizeof *r->build);
  struct cap_build *b = &r->build[r->nbuilds];
  memset(b, 0, sizeof *b);
  b->name = zc_xstrdup(name);
  b->base = zc_xstrdup(base);
  return r->nbuilds++;
}

void cap_runs_clear(struct cap_runs *r) {
  for (unsigned k = 0; k < r->nbuilds; k++) {
    struct cap_build *b = &r->build[k];
    for (int kd = 0; kd < CAP_KINDS; kd++) {
      for (size_t i = 0; i < b->kind[kd].n; i++)
        free(b->kind[kd].v[i]);
      free(b->kind[kd].v);
    }
    free(b->name);
    free(b->base);
  }
  free(r->build);
  for (size_t i = 0; i < r->nruns; i++) {
    free(r->runs[i].error);
    free(r->runs[i].trace);
    free(r->runs[i].shot);
    free(r->runs[i].dialog);
    free(r->runs[i].away);
  }
  free(r->runs);
  memset(r, 0, sizeof *r);
}

/* The plan as it runs: the plan, the session's runs, and where this
 * plan's trace numbers start for each of its two builds. */
struct cap_ctx {
  struct cdp_conn *conn;
  const struct cap_plan *pl;
  struct cap_runs *runs;
  struct cap_run_opts ro;
  struct cap_spare spare; /* the next run's page */
  unsigned build[2];      /* a, b */
  unsigned first[2];      /* trace numbers before this plan's */
};

static void say(const struct cap_plan *pl, int keep, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(const struct cap_plan *pl, int keep, const char *fmt, ...) {
  if (!pl->progress) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pl->progress(pl->progress_arg, keep, msg);
}

static const char *bname(const struct cap_ctx *x, int sd) {
  return x->runs->build[x->build[sd]].name;
}

static const char *bbase(const struct cap_ctx *x, int sd) {
  return x->runs->build[x->build[sd]].base;
}

static enum zc_err run_one(struct cap_ctx *x, const char *trace_base,
                           struct cap_run_result *res) {
  cap_run_fn *run = x->pl->runner ? x->pl->runner : cap_run;
  memset(res, 0, sizeof *res);
  enum zc_err e = run(x->conn, &x->ro, trace_base, res, &x->spare);
  x->runs->work_ms += res->work_ms;
  return e;
}

/* "failures/NAME.png" of a kept screenshot's path, or NULL. */
static char *rel_to(const char *folder, const char *path) {
  const char *b = strrchr(path, '/');
  if (!path[0]) return NULL;
  size_t n = strlen(folder) + strlen(b ? b + 1 : path) + 2;
  char *r = zc_xmalloc(n);
  snprintf(r, n, "%s/%s", folder, b ? b + 1 : path);
  return r;
}

/* Warm-up runs: caches, JIT and the OS warm for both builds alike. A
 * build the scenario cannot run on stops everything here. A build warmed
 * by an earlier plan of the session is not warmed again. */
static enum zc_err warm_up(struct cap_ctx *x) {
  const struct cap_plan *pl = x->pl;
  char name[300];
  x->ro.trace = 0;
  for (unsigned w = 1; w <= pl->warmup; w++)
    for (int sd = 0; sd < 2; sd++) {
      struct cap_build *b = &x->runs->build[x->build[sd]];
      if (b->warm >= w) continue;
      double t = zc_now_ms();
      struct cap_run_result res;
      x->ro.base = x->ro.replay.base_url = bbase(x, sd);
      x->ro.next_base = bbase(x, 1 - sd); /* the other build, or pair 1's */
      snprintf(name, sizeof name, "warmup-%u-%s", w, b->name);
      x->ro.replay.fail_name = name;
      say(pl, 0, "warm-up %u/%u, %s build ...", w, pl->warmup, b->name);
      enum zc_err e = run_one(x, NULL, &res);
      if (e && e != ZC_E_INTERRUPTED) {
        char why[1024]; /* zc_fail writes what zc_errmsg reads */
        snprintf(why, sizeof why, "%s", zc_errmsg());
        return zc_fail(e, "warm-up on the %s build: %s", b->name, why);
      }
      if (e) return e;
      b->warm = w;
      say(pl, 1, "warm-up %u/%u, %s build: %.1f s", w, pl->warmup, b->name,
          (zc_now_ms() - t) / 1e3);
    }
  x->ro.trace = pl->run.trace;
  return ZC_OK;
}

/* "pair 2/3", or "pair 2" when auto-sampling decides how many. */
static void pair_name(const struct cap_plan *pl, unsigned i, char *out,
                      size_t cap) {
  if (pl->decides)
    snprintf(out, cap, "pair %u", i);
  else
    snprintf(out, cap, "pair %u/%u", i, pl->pairs);
}

/* The record of a run, kept in the session's runs. */
static struct cap_record *record(struct cap_ctx *x, unsigned i, int sd,
                                 unsigned attempt, double ms,
                                 const struct cap_run_result *res) {
  struct cap_runs *rs = x->runs;
  ZC_GROW(rs->runs, rs->capruns, rs->nruns + 1);
  struct cap_record *r = &rs->runs[rs->nruns++];
  *r = (struct cap_record){
      .pair = i,
      .build = x->build[sd],
      .attempt = attempt + 1,
      .ms = ms,
      .dialogs = res->dialogs,
      .unsettled = res->unsettled,
      .busy_pct = res->busy_pct,
      .dialog = res->dialogs ? zc_xstrdup(res->dialog) : NULL,
      .away = res->away[0] ? zc_xstrdup(res->away) : NULL,
  };
  return r;
}

/* One traced run of pair i on build sd (0: a, 1: b); its trace is kept. */
static enum zc_err one_run(struct cap_ctx *x, unsigned i, int sd,
                           unsigned attempt, struct cap_outcome *out) {
  const struct cap_plan *pl = x->pl;
  char path[4200], name[300], pn[32];
  double t = zc_now_ms();
  struct cap_run_result res;
  unsigned num = x->first[sd] + i;
  static const char *const what[CAP_KINDS] = {"trace", "heap profile",
                                              "call counts", "I/O trace"};
  if (pl->kind == CAP_HEAP)
    snprintf(name, sizeof name, ZC_OUT_MEM_FMT, bname(x, sd), num);
  else if (pl->kind == CAP_CALLS)
    snprintf(name, sizeof name, ZC_OUT_CALLS_FMT, bname(x, sd), num);
  else if (pl->kind == CAP_IO)
    snprintf(name, sizeof name, ZC_OUT_IO_FMT, bname(x, sd), num);
  else
    snprintf(name, sizeof name, ZC_OUT_TRACE_FMT, bname(x, sd), num);
  snprintf(path, sizeof path, "%s/" ZC_OUT_TRACES "/%s", pl->out, name);
  size_t nl = strlen(name);
  snprintf(name + nl, sizeof name - nl, "-try-%u", attempt + 1);
  x->ro.replay.fail_name = name;
  pair_name(pl, i, pn, sizeof pn);
  say(pl, 0, "%s, %s build%s ...", pn, bname(x, sd), attempt ? " (retry)" : "");
  enum zc_err e = run_one(x, path, &res);
  struct cap_record *r = record(x, i, sd, attempt, zc_now_ms() - t, &res);
  if (e) {
    r->error = zc_xstrdup(zc_errmsg());
    r->shot = rel_to(ZC_OUT_FAILURES, res.shot);
    free(res.file);
    return e;
  }
  if (pl->check && res.file && pl->kind == CAP_TRACE &&
      pl->check(pl->check_arg, res.file)) {
    r->error = zc_xstrdup(zc_errmsg());
    free(res.file);
    return ZC_E_BROWSER;
  }
  r->ok = 1;
  r->bytes = res.bytes;
  r->trace = res.file ? rel_to(ZC_OUT_TRACES, res.file) : NULL;
  if (res.file) {
    struct cap_files *f = &x->runs->build[x->build[sd]].kind[pl->kind];
    ZC_GROW(f->v, f->cap, f->n + 1);
    f->v[f->n++] = res.file;
    out->file[sd][i - 1] = res.file;
  }
  say(pl, 1, "%s, %s build: %.1f s (%.1f MB %s)", pn, bname(x, sd), r->ms / 1e3,
      (double)res.bytes / 1e6, what[pl->kind]);
  return ZC_OK;
}

/* Pair i, a then b or b then a; *ok 0 when it is dropped. */
static enum zc_err one_pair(struct cap_ctx *x, unsigned i,
                            struct cap_outcome *out, int *ok) {
  const struct cap_plan *pl = x->pl;
  *ok = 1;
  for (int k = 0; k < 2 && *ok; k++) {
    /* Counterbalanced: drift over time weighs on both builds alike. */
    int sd = i % 2 ? k : 1 - k;
    x->ro.base = x->ro.replay.base_url = bbase(x, sd);
    /* The run after this one, if this one succeeds: the other build of
     * the pair, or the first of the next pair. */
    x->ro.next_base = k == 0          ? bbase(x, 1 - sd)
                      : i < pl->pairs ? bbase(x, sd)
                                      : NULL;
    for (unsigned attempt = 0;; attempt++) {
      enum zc_err e = one_run(x, i, sd, attempt, out);
      if (!e) break;
      if (e == ZC_E_INTERRUPTED) return e;
      char pn[32];
      pair_name(pl, i, pn, sizeof pn);
      say(pl, 1, "%s, %s build failed (try %u of %u): %s", pn, bname(x, sd),
          attempt + 1, pl->retries + 1, zc_errmsg());
      if (attempt >= pl->retries) {
        *ok = 0;
        break;
      }
    }
  }
  return ZC_OK;
}

/* After complete pair i: pair_done's word; 1 to go on. */
static int go_on(struct cap_ctx *x, unsigned i, unsigned last,
                 struct cap_outcome *out, enum zc_err *e) {
  const struct cap_plan *pl = x->pl;
  if (!pl->pair_done) return 1;
  const char *why = NULL;
  int ask = pl->decides && i < last && out->complete >= pl->min_pairs;
  int more = pl->pair_done(pl->pair_arg, i, out->file[0][i - 1],
                           out->file[1][i - 1], ask, &why);
  if (more < 0) {
    struct zc_errsave sv;
    zc_err_save(&sv);
    *e = sv.code ? sv.code : ZC_E_INTERNAL;
    return 0;
  }
  if (more || !ask) return 1;
  out->stop = why ? why : "decided";
  return 0;
}

static enum zc_err plan_pairs(struct cap_ctx *x, struct cap_outcome *out) {
  const struct cap_plan *pl = x->pl;
  unsigned last = pl->pairs < CAP_MAX_PAIRS ? pl->pairs : CAP_MAX_PAIRS;
  out->stop = pl->decides ? "--max-pairs reached" : "planned pairs done";
  double t0 = zc_now_ms();
  enum zc_err e = ZC_OK;
  for (unsigned i = 1; !e && i <= last; i++) {
    /* A pair takes about what the pairs so far took on average. */
    double spent = zc_now_ms() - t0;
    if (pl->decides && pl->budget_ms > 0 && i > pl->min_pairs &&
        spent + spent / (i - 1) > pl->budget_ms) {
      out->stop = "--time-budget";
      break;
    }
    int ok;
    out->ran = i;
    if ((e = one_pair(x, i, out, &ok))) break;
    if (ok) {
      out->complete++;
      if (!go_on(x, i, last, out, &e)) break;
      continue;
    }
    out->dropped_pair[out->dropped++] = i;
    say(pl, 1,
        "pair %u dropped; its traces that were recorded stay in "
        "%s/" ZC_OUT_TRACES "/",
        i, pl->out);
  }
  return e;
}

enum zc_err cap_pairs(struct cdp_conn *conn, const struct cap_plan *pl,
                      struct cap_runs *runs, struct cap_outcome *out) {
  memset(out, 0, sizeof *out);
  if (pl->a >= runs->nbuilds || pl->b >= runs->nbuilds || pl->a == pl->b)
    return zc_fail(ZC_E_INTERNAL,
                   "a plan of pairs between builds %u and %u "
                   "of %u",
                   pl->a, pl->b, runs->nbuilds);
  struct cap_ctx x = {
      .conn = conn,
      .pl = pl,
      .runs = runs,
      .ro = pl->run,
      .build = {pl->a, pl->b},
      .first = {runs->build[pl->a].kind[pl->kind].used,
                runs->build[pl->b].kind[pl->kind].used},
  };
  x.ro.scn = pl->scn;
  enum zc_err e = warm_up(&x);
  if (!e) e = plan_pairs(&x, out);
  for (int sd = 0; sd < 2; sd++)
    runs->build[x.build[sd]].kind[pl->kind].used = x.first[sd] + out->ran;
  struct zc_errsave sv;
  zc_err_save(&sv);
  cdp_page_close(x.spare.page);
  zc_err_restore(&sv);
  return e;
}
