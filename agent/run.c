/* zamcap SCENARIO --old URL|DIR --new URL|DIR: the one command. Checks the
 * inputs, serves build folders, starts Chrome, has the capture room run
 * the plan of pairs, then the analysis write every report, and uploads
 * them when asked. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "agent.h"
#include "attach.h"
#include "capture.h"
#include "maps.h"

/* Progress on stderr: on a terminal, one status line rewritten in place
 * while a run goes, and a line kept per finished run; elsewhere (a log, a
 * nightly job's mail) only the kept lines, one per event. */
struct progress {
  double t0;
  int tty, open; /* a status line is showing */
  double work;   /* the runs' own time, for the overhead figure */
};

static void progress(struct progress *p, int keep, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void progress(struct progress *p, int keep, const char *fmt, ...) {
  if (zc_verbosity < 1 || (!keep && !p->tty)) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  zc_scrub(msg);
  if (p->tty) fputs("\r\033[K", stderr);
  fprintf(stderr, "zamcap: [%6.1f s] ", (zc_now_ms() - p->t0) / 1e3);
  zc_term_put(stderr, msg, SIZE_MAX); /* it may quote the page */
  if (keep) fputc('\n', stderr);
  p->open = !keep && p->tty;
  fflush(stderr);
}

/* Ends a status line left showing, before an error or the results: with
 * clear, it is wiped instead of kept. */
static void progress_end(struct progress *p, int clear) {
  if (!p->open) return;
  fputs(clear ? "\r\033[K" : "\n", stderr);
  p->open = 0;
}

static void progress_cb(void *arg, int keep, const char *msg) {
  progress(arg, keep, "%s", msg);
}

/* The closing line: wall time, zamcap's own CPU and memory, and (-vv) the
 * overhead beyond the runs' own time. */
static void report_time(const struct progress *pg) {
  double wall = zc_now_ms() - pg->t0;
  zc_log(1, "done in %.1f s; zamcap itself: %.1f s CPU, peak memory %.1f MB",
         wall / 1e3, zc_cpu_ms() / 1e3, zc_peak_mb());
  zc_log(2,
         "the runs' own time (replaying and settling): %.1f s; zamcap's "
         "overhead beyond it (launch, contexts, traces, analysis, reports): "
         "%.1f s, %.1f %%",
         pg->work / 1e3, (wall - pg->work) / 1e3,
         100 * (wall - pg->work) / (pg->work + 1e-9));
}

static void add_str_or_null(cJSON *o, const char *k, const char *v) {
  if (v)
    cJSON_AddStringToObject(o, k, v);
  else
    cJSON_AddNullToObject(o, k);
}

/* report.json's environment: Chrome and the machine. */
static cJSON *environment(struct cdp_browser *b) {
  cJSON *env = cJSON_CreateObject();
  cJSON_AddStringToObject(env, "chrome", cdp_browser_version(b));
  const char *fl = cdp_browser_flags(b);
  if (fl[0]) {
    cJSON *a = cJSON_AddArrayToObject(env, "chrome_flags");
    while (*fl) {
      size_t n = strcspn(fl, "\n");
      char *one = zc_xstrndup(fl, n);
      cJSON_AddItemToArray(a, cJSON_CreateString(one));
      free(one);
      fl += n + (fl[n] == '\n');
    }
  } else {
    cJSON_AddStringToObject(env, "chrome_attached", cdp_browser_ws_url(b));
  }
  cJSON *m = cJSON_AddObjectToObject(env, "machine");
  struct utsname u;
  if (uname(&u) == 0) {
    char os[600];
    snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
    cJSON_AddStringToObject(m, "os", os);
    cJSON_AddStringToObject(m, "host", u.nodename);
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  if (cpus > 0) cJSON_AddNumberToObject(m, "cpus", (double)cpus);
  if (pages > 0 && psz > 0)
    cJSON_AddNumberToObject(m, "memory_mb",
                            (double)((long long)pages * psz / (1 << 20)));
  return env;
}

/* The options that need each other, checked before anything starts. */
static int check_args(const struct agent_args *a) {
  if (a->noperands != 1)
    return agent_usage_error(NULL, "give one SCENARIO, and --old and --new");
  if (!a->old || !a->new_)
    return agent_usage_error(NULL, "give both --old URL|DIR and --new URL|DIR");
  unsigned least = a->pairs ? a->pairs : 3;
  if (a->ana.quorum > least)
    return agent_usage_error(NULL, "--quorum %u is more than the %u pairs%s",
                             a->ana.quorum, least,
                             a->pairs ? "" : " --pairs auto starts with");
  if (a->cdp.chrome && a->cdp.browser_url)
    return agent_usage_error(NULL, "--chrome and --browser-url exclude each "
                                   "other");
  if (a->nheaders && !a->attach)
    return agent_usage_error(NULL, "--attach-header without --attach URL");
  return 0;
}

/* report.json's inputs. */
static void add_inputs(cJSON *extra, const struct agent_args *a,
                       const struct scn_scenario *scn,
                       const char *const base[2]) {
  cJSON *inp = cJSON_AddObjectToObject(extra, "inputs");
  cJSON_AddStringToObject(inp, "scenario", a->operands[0]);
  cJSON_AddStringToObject(inp, "title", scn->title);
  cJSON_AddStringToObject(inp, "old", a->old);
  cJSON_AddStringToObject(inp, "new", a->new_);
  cJSON_AddStringToObject(inp, "old_url", base[CAP_OLD]);
  cJSON_AddStringToObject(inp, "new_url", base[CAP_NEW]);
  /* The recorded origins mapped onto each build's URL. */
  cJSON *orig = cJSON_AddArrayToObject(inp, "origins");
  for (size_t i = 0; i < scn->norigins; i++)
    cJSON_AddItemToArray(orig, cJSON_CreateString(scn->origins[i]));
  if (a->pairs)
    cJSON_AddNumberToObject(inp, "pairs", a->pairs);
  else
    cJSON_AddStringToObject(inp, "pairs", "auto");
  cJSON_AddNumberToObject(inp, "warmup", a->warmup);
  cJSON_AddNumberToObject(inp, "retries", a->retries);
  if (a->cpu_throttle > 1)
    cJSON_AddNumberToObject(inp, "cpu_throttle", a->cpu_throttle);
  else
    cJSON_AddNullToObject(inp, "cpu_throttle");
  /* DevTools' throttling the Recorder kept: applied to both builds alike */
  cJSON *net = cJSON_AddArrayToObject(inp, "network_conditions");
  for (size_t i = 0; i < scn->n; i++) {
    const struct scn_step *st = &scn->steps[i];
    if (st->type != SCN_EMULATE_NETWORK) continue;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "step", st->index + 1);
    cJSON_AddNumberToObject(o, "download", st->download);
    cJSON_AddNumberToObject(o, "upload", st->upload);
    cJSON_AddNumberToObject(o, "latency", st->latency);
    cJSON_AddItemToArray(net, o);
    zc_log(1,
           "step %u throttles the network (download %.0f B/s, upload "
           "%.0f B/s, latency %.0f ms): both builds run with it",
           st->index + 1, st->download, st->upload, st->latency);
  }
}

/* report.json's runs and dropped_pairs: every run as it went. */
static void add_runs(cJSON *extra, const struct cap_outcome *oc) {
  cJSON *runs = cJSON_AddArrayToObject(extra, "runs");
  for (size_t k = 0; k < oc->nruns; k++) {
    const struct cap_record *r = &oc->runs[k];
    cJSON *run = cJSON_CreateObject();
    cJSON_AddNumberToObject(run, "pair", r->pair);
    cJSON_AddStringToObject(run, "build", cap_side_name[r->side]);
    cJSON_AddNumberToObject(run, "attempt", r->attempt);
    cJSON_AddStringToObject(run, "status", r->ok ? "ok" : "failed");
    add_str_or_null(run, "error", r->error);
    add_str_or_null(run, "trace", r->trace);
    cJSON_AddNumberToObject(run, "ms", r->ms);
    if (r->ok) cJSON_AddNumberToObject(run, "bytes", (double)r->bytes);
    add_str_or_null(run, "failure", r->shot);
    cJSON_AddNumberToObject(run, "dialogs", r->dialogs);
    if (r->ok) {
      cJSON_AddBoolToObject(run, "settled", !r->unsettled);
      if (r->unsettled)
        cJSON_AddNumberToObject(run, "busy_pct", round(r->busy_pct * 10) / 10);
    }
    add_str_or_null(run, "dialog", r->dialog);
    cJSON_AddItemToArray(runs, run);
  }
  cJSON *dl = cJSON_AddArrayToObject(extra, "dropped_pairs");
  for (unsigned i = 0; i < oc->dropped; i++)
    cJSON_AddItemToArray(dl, cJSON_CreateNumber(oc->dropped_pair[i]));
}

/* The complete pairs' traces; returns how many. */
static unsigned complete_pairs(const struct cap_outcome *oc, const char **of,
                               const char **nf) {
  unsigned n = 0;
  for (unsigned i = 0; i < oc->ran && i < CAP_MAX_PAIRS; i++)
    if (oc->file[CAP_OLD][i] && oc->file[CAP_NEW][i])
      of[n] = oc->file[CAP_OLD][i], nf[n++] = oc->file[CAP_NEW][i];
  return n;
}

static struct ana_report_in report_in(const struct agent_args *a,
                                      unsigned formats, cJSON *extra,
                                      unsigned planned, unsigned dropped) {
  struct ana_report_in in = {
      "run",           formats,          extra, planned, dropped,
      a->threshold_ms, a->threshold_pct, 0,     NULL};
  return in;
}

struct decide {
  const struct agent_args *a;
  struct progress *pg;
  struct ana_maps *maps;
};

/* --pairs auto: after each pair from the third on, the analysis of the
 * pairs so far (no report) says whether anything is still undecided. */
static int decide_more(void *arg, const struct cap_outcome *so_far,
                       const char **why) {
  const struct decide *d = arg;
  const char *of[CAP_MAX_PAIRS], *nf[CAP_MAX_PAIRS];
  unsigned n = complete_pairs(so_far, of, nf);
  struct ana_opts ao = d->a->ana;
  if (ao.quorum > n) ao.quorum = n;
  struct ana_report_in in = report_in(d->a, 0, NULL, n, 0);
  in.decide_only = 1;
  in.maps = d->maps;
  struct ana_outcome oc;
  if (ana_analyze(of, nf, n, &ao, 0, "", &in, &oc)) {
    zc_log(1, "after %u pairs: %s; going on", n, zc_errmsg());
    return 1;
  }
  int more = oc.undecided || oc.e2e == ANA_E2E_UNDECIDED;
  char need[64] = "";
  if (more && oc.pairs_needed > n)
    snprintf(need, sizeof need, "; about %u in all would settle it",
             oc.pairs_needed);
  progress(d->pg, 1, "after %u pairs: %s%s, %u undecided, end-to-end %s%s", n,
           ana_state_name(oc.state),
           oc.causes ? " (regression-causes found)" : "", oc.undecided,
           ana_e2e_state_name(oc.e2e), need);
  *why = "decided";
  return more;
}

/* The complete pairs into the analysis; returns the exit code. */
static int analyze(const struct agent_args *a, const struct cap_outcome *oc,
                   const char *out, cJSON *extra, struct progress *pg,
                   struct agent_maps *maps, int *reported) {
  const char *of[CAP_MAX_PAIRS], *nf[CAP_MAX_PAIRS];
  unsigned n = complete_pairs(oc, of, nf);
  struct ana_opts ao = a->ana;
  if (ao.quorum > n) ao.quorum = n;
  unsigned formats = a->formats;
  if (a->attach) formats |= ANA_FMT_JSON | ANA_FMT_MD; /* what it sends */
  cJSON *smp = cJSON_AddObjectToObject(extra, "sampling");
  cJSON_AddStringToObject(smp, "mode", a->pairs ? "fixed" : "auto");
  cJSON_AddNumberToObject(smp, "pairs", oc->ran);
  cJSON_AddNumberToObject(smp, "complete", oc->complete);
  if (!a->pairs) {
    cJSON_AddNumberToObject(smp, "max_pairs", a->pairs_max);
    if (a->time_budget_s > 0)
      cJSON_AddNumberToObject(smp, "time_budget_s", a->time_budget_s);
  }
  cJSON_AddStringToObject(smp, "stopped", oc->stop ? oc->stop : "");
  struct ana_report_in in = report_in(a, formats, extra, oc->ran, oc->dropped);
  in.maps = maps ? agent_maps_ana(maps) : NULL;
  progress(pg, 0, "comparing %u pair%s ...", n, n == 1 ? "" : "s");
  progress_end(pg, 1);
  if (!a->pairs)
    zc_log(1, "%u pair%s (%s)", oc->ran, oc->ran == 1 ? "" : "s",
           oc->stop ? oc->stop : "");
  struct ana_outcome res;
  enum zc_err e = ana_analyze(of, nf, n, &ao, 0, out, &in, &res);
  if (maps && agent_maps_save(maps))
    zc_log(1, "warning: %s; source maps were used but not kept", zc_errmsg());
  if (e) {
    zc_error("%s", zc_errmsg());
    return e == ZC_E_IO ? ZC_EXIT_CAPTURE : ZC_EXIT_USAGE;
  }
  *reported = 1;
  if (oc->dropped)
    zc_error("capture incomplete: %u of %u pairs dropped (see %s/failures/); "
             "the report covers the other %u",
             oc->dropped, oc->ran, out, oc->complete);
  return oc->dropped ? ZC_EXIT_CAPTURE : ana_exit_code(&res);
}

/* --attach: the upload, after the report is whole; rc as it changes. */
static int upload(const struct agent_args *a, const char *out, int rc) {
  enum zc_err e = agent_attach_stoppable(a->attach, a->headers, a->nheaders,
                                         out, &cdp_interrupted);
  if (!e) return rc;
  zc_error("%s (the report stays in %s/)", zc_errmsg(), out);
  if (e == ZC_E_INTERRUPTED) return agent_exit_for(e);
  return rc == ZC_EXIT_NONE ? ZC_EXIT_CAPTURE : rc;
}

/* Chrome, the plan of pairs, then the analysis; returns the exit code,
 * and *reported when the reports were written (some pairs may be missing). */
static int capture_and_analyze(const struct agent_args *a,
                               const struct scn_scenario *scn,
                               const char *const base[2], const char *out,
                               cJSON *extra, struct progress *pg,
                               struct agent_maps *maps, int *reported) {
  char logp[4200], faildir[4200];
  snprintf(logp, sizeof logp, "%s/chrome.log", out);
  snprintf(faildir, sizeof faildir, "%s/failures", out);
  struct cdp_opts co = a->cdp;
  if (!co.browser_url) co.log_path = logp;
  struct cdp_browser *b = NULL;
  progress(pg, 0, "starting Chrome");
  enum zc_err e = cdp_browser_start(&co, &b);
  if (e) {
    progress_end(pg, 0);
    zc_error("%s", zc_errmsg());
    return agent_exit_for(e);
  }
  cJSON_AddItemToObject(extra, "environment", environment(b));
  char pairs[64];
  if (a->pairs)
    snprintf(pairs, sizeof pairs, "%u pair%s", a->pairs,
             a->pairs == 1 ? "" : "s");
  else
    snprintf(pairs, sizeof pairs, "3 to %u pairs (auto)", a->pairs_max);
  progress(pg, 1, "%s; %s: %s, %u warm-up run%s per build; report in %s/",
           cdp_browser_version(b), scn->title[0] ? scn->title : a->operands[0],
           pairs, a->warmup, a->warmup == 1 ? "" : "s", out);
  struct decide dc = {a, pg, maps ? agent_maps_ana(maps) : NULL};
  struct cap_plan plan = {
      .scn = scn,
      .base = {base[CAP_OLD], base[CAP_NEW]},
      .pairs = a->pairs ? a->pairs : a->pairs_max,
      .min_pairs = a->pairs ? a->pairs : 3,
      .budget_ms = a->time_budget_s * 1e3,
      .more = a->pairs ? NULL : decide_more,
      .more_arg = &dc,
      .warmup = a->warmup,
      .retries = a->retries,
      .out = out,
      .progress = progress_cb,
      .progress_arg = pg,
      .run = {.settle_ms = a->settle_ms,
              .timeout_ms = co.timeout_ms,
              .settle_max_ms = a->settle_max_ms,
              .compress = 1,
              .trace = 1,
              .cpu_throttle = a->cpu_throttle,
              .replay = {.step_timeout_ms = a->step_timeout_ms,
                         .fail_dir = faildir}}};
  struct cap_outcome oc;
  e = cap_pairs(cdp_browser_conn(b), &plan, &oc);
  cdp_browser_free(b);
  add_runs(extra, &oc);
  int rc;
  if (e) {
    progress_end(pg, 0);
    zc_error("%s", zc_errmsg());
    rc = agent_exit_for(e);
  } else if (!oc.complete) {
    zc_error("no pair was captured (see %s/failures/)", out);
    rc = ZC_EXIT_CAPTURE;
  } else {
    rc = analyze(a, &oc, out, extra, pg, maps, reported);
    pg->work = oc.work_ms;
  }
  cap_outcome_clear(&oc);
  rmdir(faildir); /* only when empty: nothing failed */
  return rc;
}

static int run_exec(const struct agent_args *a) {
  int rc = check_args(a);
  if (rc) return rc;
  struct scn_scenario *scn = NULL;
  if (agent_load_scenario(a, a->operands[0], &scn)) {
    zc_error("%s", zc_errmsg());
    return ZC_EXIT_USAGE;
  }
  char *chrome = a->cdp.browser_url ? NULL : cdp_find_chrome(a->cdp.chrome);
  if (!a->cdp.browser_url && !chrome) {
    zc_error("%s", zc_errmsg());
    scn_free(scn);
    return ZC_EXIT_CAPTURE;
  }
  free(chrome);
  struct progress pg = {zc_now_ms(), isatty(2), 0, 0};
  char *out = NULL, path[4200];
  struct agent_server *srv[2] = {NULL, NULL};
  const char *base[2] = {NULL, NULL};
  cJSON *extra = cJSON_CreateObject();
  enum zc_err e = agent_outdir(a->out, &out);
  if (!e) {
    snprintf(path, sizeof path, "%s/traces", out);
    e = zc_mkdirs(path);
  }
  /* Each build on its own port: two origins, as two deployments are. */
  agent_url_secrets("--old", a->old);
  agent_url_secrets("--new", a->new_);
  if (!e) e = agent_build_base("--old", a->old, &srv[CAP_OLD], &base[CAP_OLD]);
  if (!e) e = agent_build_base("--new", a->new_, &srv[CAP_NEW], &base[CAP_NEW]);
  if (e) {
    zc_error("%s", zc_errmsg());
    rc = e == ZC_E_USAGE || e == ZC_E_IO ? ZC_EXIT_USAGE : ZC_EXIT_INTERNAL;
  } else {
    int reported = 0;
    add_inputs(extra, a, scn, base);
    /* Source maps: read from the build folders zamcap serves, fetched for
     * URL builds, kept in OUT/sourcemaps/. */
    struct agent_maps *maps = NULL;
    if (!a->no_source_maps) {
      snprintf(path, sizeof path, "%s/sourcemaps", out);
      maps = agent_maps_new(path, 1, 1);
      if (srv[CAP_OLD]) agent_maps_root(maps, base[CAP_OLD], a->old);
      if (srv[CAP_NEW]) agent_maps_root(maps, base[CAP_NEW], a->new_);
    }
    rc = capture_and_analyze(a, scn, base, out, extra, &pg, maps, &reported);
    agent_maps_free(maps);
    if (reported && a->attach) rc = upload(a, out, rc);
    if (reported) report_time(&pg);
  }
  agent_server_free(srv[CAP_OLD]);
  agent_server_free(srv[CAP_NEW]);
  cJSON_Delete(extra);
  scn_free(scn);
  free(out);
  return rc;
}

const struct agent_cmd agent_cmd_run = {
    .name = "run",
    .bit = AGENT_RUN,
    .usage = "usage: zamcap SCENARIO --old URL|DIR --new URL|DIR [OPTIONS]\n"
             "       zamcap run SCENARIO --old URL|DIR --new URL|DIR "
             "[OPTIONS]",
    .about =
        "Replays SCENARIO (a DevTools Recorder JSON export) on the old and "
        "the\nnew build in interleaved pairs (old, new, new, old, ...) in "
        "one\nheadless Chrome, records a trace of each run, and compares "
        "them: the\ncritical graph is the call paths down to the functions "
        "that got slower\nby MU ms or more in every pair. A folder is served "
        "by zamcap itself.\n",
    .after =
        "Exit: 0 no regression-cause, 1 regression-causes found, 2 usage or\n"
        "input error, 3 capture failed or incomplete (a pair was dropped; "
        "the\nothers are still analysed and reported) or the upload failed "
        "with no\nregression to report, 5 inconclusive (a candidate the "
        "pairs could not\ndecide), 130/143 interrupted.\n",
    .exec = run_exec,
};
