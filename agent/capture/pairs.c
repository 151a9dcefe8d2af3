/* capture: the main command's plan of runs: warm-ups on both builds, then
 * interleaved, counterbalanced pairs, each run retried, a pair dropped
 * when one of its runs keeps failing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

const char *const cap_side_name[2] = {"old", "new"};

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
 * build the scenario cannot run on stops everything here. */
static enum zc_err warm_up(struct cdp_conn *conn, const struct cap_plan *pl,
                           struct cap_run_opts *ro, struct cap_spare *spare,
                           struct cap_outcome *out) {
  char name[64];
  ro->trace = 0;
  for (unsigned w = 1; w <= pl->warmup; w++)
    for (int sd = 0; sd < 2; sd++) {
      double t = zc_now_ms();
      struct cap_run_result res;
      ro->base = ro->replay.base_url = pl->base[sd];
      ro->next_base = pl->base[1 - sd]; /* the other build, or pair 1's */
      snprintf(name, sizeof name, "warmup-%u-%s", w, cap_side_name[sd]);
      ro->replay.fail_name = name;
      say(pl, 0, "warm-up %u/%u, %s build ...", w, pl->warmup,
          cap_side_name[sd]);
      enum zc_err e = cap_run(conn, ro, NULL, &res, spare);
      out->work_ms += res.work_ms;
      if (e && e != ZC_E_INTERRUPTED) {
        char why[1024]; /* zc_fail writes what zc_errmsg reads */
        snprintf(why, sizeof why, "%s", zc_errmsg());
        return zc_fail(e, "warm-up on the %s build: %s", cap_side_name[sd],
                       why);
      }
      if (e) return e;
      say(pl, 1, "warm-up %u/%u, %s build: %.1f s", w, pl->warmup,
          cap_side_name[sd], (zc_now_ms() - t) / 1e3);
    }
  ro->trace = 1;
  return ZC_OK;
}

/* "pair 2/3", or "pair 2" when auto-sampling decides how many. */
static void pair_name(const struct cap_plan *pl, unsigned i, char *out,
                      size_t cap) {
  if (pl->more)
    snprintf(out, cap, "pair %u", i);
  else
    snprintf(out, cap, "pair %u/%u", i, pl->pairs);
}

/* One traced run of pair i on build sd, kept in out->runs. */
static enum zc_err one_run(struct cdp_conn *conn, const struct cap_plan *pl,
                           struct cap_run_opts *ro, struct cap_spare *spare,
                           unsigned i, int sd, unsigned attempt,
                           struct cap_outcome *out) {
  char path[4200], name[64];
  double t = zc_now_ms();
  struct cap_run_result res;
  snprintf(path, sizeof path, "%s/traces/%s-%u", pl->out, cap_side_name[sd], i);
  snprintf(name, sizeof name, "%s-%u-try-%u", cap_side_name[sd], i,
           attempt + 1);
  ro->replay.fail_name = name;
  char pn[32];
  pair_name(pl, i, pn, sizeof pn);
  say(pl, 0, "%s, %s build%s ...", pn, cap_side_name[sd],
      attempt ? " (retry)" : "");
  enum zc_err e = cap_run(conn, ro, path, &res, spare);
  out->work_ms += res.work_ms;
  ZC_GROW(out->runs, out->capruns, out->nruns + 1);
  struct cap_record *r = &out->runs[out->nruns++];
  memset(r, 0, sizeof *r);
  r->pair = i;
  r->side = sd;
  r->attempt = attempt + 1;
  r->ok = !e;
  r->ms = zc_now_ms() - t;
  r->dialogs = res.dialogs;
  r->unsettled = res.unsettled;
  r->busy_pct = res.busy_pct;
  r->dialog = res.dialogs ? zc_xstrdup(res.dialog) : NULL;
  if (e) {
    r->error = zc_xstrdup(zc_errmsg());
    r->shot = rel_to("failures", res.shot);
    return e;
  }
  r->bytes = res.bytes;
  r->trace = res.file ? rel_to("traces", res.file) : NULL;
  out->file[sd][i - 1] = res.file;
  say(pl, 1, "%s, %s build: %.1f s (%.1f MB trace)", pn, cap_side_name[sd],
      r->ms / 1e3, (double)res.bytes / 1e6);
  return ZC_OK;
}

/* Pair i, old then new or new then old; 0 when it is dropped. */
static enum zc_err one_pair(struct cdp_conn *conn, const struct cap_plan *pl,
                            struct cap_run_opts *ro, struct cap_spare *spare,
                            unsigned i, struct cap_outcome *out, int *ok) {
  *ok = 1;
  for (int k = 0; k < 2 && *ok; k++) {
    /* Counterbalanced: drift over time weighs on both builds alike. */
    int sd = i % 2 ? k : 1 - k;
    ro->base = ro->replay.base_url = pl->base[sd];
    /* The run after this one, if this one succeeds: the other build of
     * the pair, or the first of the next pair. */
    ro->next_base = k == 0          ? pl->base[1 - sd]
                    : i < pl->pairs ? pl->base[sd]
                                    : NULL;
    for (unsigned attempt = 0;; attempt++) {
      enum zc_err e = one_run(conn, pl, ro, spare, i, sd, attempt, out);
      if (!e) break;
      if (e == ZC_E_INTERRUPTED) return e;
      char pn[32];
      pair_name(pl, i, pn, sizeof pn);
      say(pl, 1, "%s, %s build failed (try %u of %u): %s", pn,
          cap_side_name[sd], attempt + 1, pl->retries + 1, zc_errmsg());
      if (attempt >= pl->retries) {
        *ok = 0;
        break;
      }
    }
  }
  return ZC_OK;
}

enum zc_err cap_pairs(struct cdp_conn *conn, const struct cap_plan *pl,
                      struct cap_outcome *out) {
  memset(out, 0, sizeof *out);
  struct cap_run_opts ro = pl->run;
  struct cap_spare spare = {NULL, NULL, 0, 0}; /* the next run's page */
  ro.scn = pl->scn;
  enum zc_err e = warm_up(conn, pl, &ro, &spare, out);
  unsigned last = pl->pairs < CAP_MAX_PAIRS ? pl->pairs : CAP_MAX_PAIRS;
  out->stop = pl->more ? "--max-pairs reached" : "planned pairs done";
  double t0 = zc_now_ms();
  for (unsigned i = 1; !e && i <= last; i++) {
    /* A pair takes about what the pairs so far took on average. */
    double spent = zc_now_ms() - t0;
    if (pl->more && pl->budget_ms > 0 && i > pl->min_pairs &&
        spent + spent / (i - 1) > pl->budget_ms) {
      out->stop = "--time-budget";
      break;
    }
    int ok;
    out->ran = i;
    if ((e = one_pair(conn, pl, &ro, &spare, i, out, &ok))) break;
    if (ok) {
      out->complete++;
      const char *why = NULL;
      if (pl->more && i < last && out->complete >= pl->min_pairs &&
          !pl->more(pl->more_arg, out, &why)) {
        out->stop = why ? why : "decided";
        break;
      }
      continue;
    }
    out->dropped_pair[out->dropped++] = i;
    say(pl, 1,
        "pair %u dropped; its traces that were recorded stay in "
        "%s/traces/",
        i, pl->out);
  }
  struct zc_errsave sv;
  zc_err_save(&sv);
  cdp_page_close(spare.page);
  zc_err_restore(&sv);
  return e;
}

void cap_outcome_clear(struct cap_outcome *o) {
  for (int sd = 0; sd < 2; sd++)
    for (unsigned i = 0; i < CAP_MAX_PAIRS; i++)
      free(o->file[sd][i]);
  for (size_t i = 0; i < o->nruns; i++) {
    free(o->runs[i].error);
    free(o->runs[i].trace);
    free(o->runs[i].shot);
    free(o->runs[i].dialog);
  }
  free(o->runs);
  memset(o, 0, sizeof *o);
}
