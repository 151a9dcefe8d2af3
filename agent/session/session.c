/* The session (session.h): serve N builds, start Chrome once, compare
 * any two of them pair by pair, write the reports, upload them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "capture.h"
#include "maps.h"
#include "session.h"
#include "zc-out.h"

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

struct agent_session {
  const struct agent_args *a;
  char **given; /* each build as the command line gave it */
  unsigned n;
  struct scn_scenario *scn;
  char *out;
  char *home; /* the first folder: Chrome's log, whatever the flow */
  struct agent_server **srv; /* per build: its server, or NULL (a URL) */
  struct cap_runs runs;      /* the builds' URLs and every run */
  struct agent_maps *maps;   /* NULL with --no-source-maps */
  struct cdp_browser *browser;
  cJSON *environment;
  struct progress pg;
  agent_cmp_fn *on_cmp; /* agent_session_on_cmp */
  void *on_cmp_arg;
  struct ana_io *last_io; /* agent_session_take_io's */
};

/* report.json's inputs for a comparison of builds ia and ib. */
static void add_inputs(cJSON *extra, const struct agent_session *s, unsigned ia,
                       unsigned ib) {
  const struct agent_args *a = s->a;
  const struct scn_scenario *scn = s->scn;
  cJSON *inp = cJSON_AddObjectToObject(extra, "inputs");
  cJSON_AddStringToObject(inp, "scenario", a->operands[0]);
  cJSON_AddStringToObject(inp, "title", scn->title);
  cJSON_AddStringToObject(inp, "old", s->given[ia]);
  cJSON_AddStringToObject(inp, "new", s->given[ib]);
  cJSON_AddStringToObject(inp, "old_url", s->runs.build[ia].base);
  cJSON_AddStringToObject(inp, "new_url", s->runs.build[ib].base);
  /* A parameterised flow's values (--param's, or explore's candidate) */
  if (scn->nparams) {
    cJSON *pv = cJSON_AddObjectToObject(inp, "parameters");
    for (size_t i = 0; i < scn->nparams; i++)
      cJSON_AddStringToObject(pv, scn->params[i].name, scn->values[i]);
  }
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
  const struct cap_preset *ps = cap_preset_find(a->preset);
  if (ps) {
    cJSON *o = cJSON_AddObjectToObject(inp, "preset");
    cJSON_AddStringToObject(o, "name", ps->name);
    cJSON_AddNumberToObject(o, "width", ps->width);
    cJSON_AddNumberToObject(o, "height", ps->height);
    cJSON_AddNumberToObject(o, "device_scale_factor", ps->dpr);
    cJSON_AddBoolToObject(o, "mobile", ps->mobile);
    if (ps->ua) cJSON_AddStringToObject(o, "user_agent", ps->ua);
    cJSON_AddNumberToObject(o, "latency_ms", ps->latency_ms);
    cJSON_AddNumberToObject(o, "download_bytes_per_s", ps->down_bps);
    cJSON_AddNumberToObject(o, "upload_bytes_per_s", ps->up_bps);
    cJSON_AddNumberToObject(o, "cpu_slowdown", ps->cpu);
  } else {
    cJSON_AddNullToObject(inp, "preset");
  }
  if (a->cpu_throttle > 1)
    cJSON_AddNumberToObject(inp, "cpu_throttle", a->cpu_throttle);
  else if (ps && ps->cpu > 1)
    cJSON_AddNumberToObject(inp, "cpu_throttle", ps->cpu);
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
  }
}

/* Says once per session that the flow throttles the network. */
static void say_network(const struct scn_scenario *scn) {
  for (size_t i = 0; i < scn->n; i++) {
    const struct scn_step *st = &scn->steps[i];
    if (st->type != SCN_EMULATE_NETWORK) continue;
    zc_log(1,
           "step %u throttles the network (download %.0f B/s, upload "
           "%.0f B/s, latency %.0f ms): both builds run with it",
           st->index + 1, st->download, st->upload, st->latency);
  }
}

/* One run of report.json's runs. */
static cJSON *run_json(const struct cap_runs *rs, const struct cap_record *r) {
  cJSON *run = cJSON_CreateObject();
  cJSON_AddNumberToObject(run, "pair", r->pair);
  cJSON_AddStringToObject(run, "build", rs->build[r->build].name);
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
  add_str_or_null(run, "navigated_away", r->away);
  return run;
}

/* report.json's runs (this comparison's, from run `first` on) and
 * dropped_pairs. */
static void add_runs(cJSON *extra, const struct cap_runs *rs, size_t first,
                     const struct cap_outcome *oc) {
  cJSON *runs = cJSON_AddArrayToObject(extra, "runs");
  for (size_t k = first; k < rs->nruns; k++)
    cJSON_AddItemToArray(runs, run_json(rs, &rs->runs[k]));
  cJSON *dl = cJSON_AddArrayToObject(extra, "dropped_pairs");
  for (unsigned i = 0; i < oc->dropped; i++)
    cJSON_AddItemToArray(dl, cJSON_CreateNumber(oc->dropped_pair[i]));
}

static void add_sampling(cJSON *extra, const struct agent_args *a,
                         const struct cap_outcome *oc) {
  cJSON *smp = cJSON_AddObjectToObject(extra, "sampling");
  cJSON_AddStringToObject(smp, "mode", a->pairs ? "fixed" : "auto");
  cJSON_AddNumberToObject(smp, "pairs", oc->ran);
  cJSON_AddNumberToObject(smp, "complete", oc->complete);
  if (!a->pairs) {
    cJSON_AddNumberToObject(smp, "max_pairs", a->max_pairs);
    if (a->time_budget_s > 0)
      cJSON_AddNumberToObject(smp, "time_budget_s", a->time_budget_s);
  }
  cJSON_AddStringToObject(smp, "stopped", oc->stop ? oc->stop : "");
}

static void session_free(struct agent_session *s) {
  if (!s) return;
  cdp_browser_free(s->browser);
  for (unsigned k = 0; k < s->n; k++) {
    agent_server_free(s->srv[k]);
    free(s->given[k]);
  }
  free(s->srv);
  free(s->given);
  agent_maps_free(s->maps);
  cap_runs_clear(&s->runs);
  cJSON_Delete(s->environment);
  scn_free(s->scn);
  ana_io_free(s->last_io);
  free(s->out);
  free(s->home);
  free(s);
}

/* Where build k's source maps come from: its folder when zamcap serves
 * it, else its own origin. */
static void build_maps(struct agent_session *s, unsigned k) {
  if (s->maps && s->srv[k])
    agent_maps_root(s->maps, s->runs.build[k].base, s->given[k]);
  else if (s->maps) /* a URL build: its maps from its own origin only */
    agent_maps_fetch_from(s->maps, s->runs.build[k].base);
}

/* Serves a build (a folder on a port of its own: N origins, as N
 * deployments are) and reads its source maps from its folder. */
static enum zc_err add_build(struct agent_session *s,
                             const struct agent_build *b) {
  if (s->n >= CAP_MAX_BUILDS)
    return zc_fail(ZC_E_USAGE, "%s: more than %d builds", b->arg,
                   CAP_MAX_BUILDS);
  const char *base = NULL;
  struct agent_server *srv = NULL;
  agent_url_secrets(b->opt, b->arg);
  enum zc_err e = agent_build_base(b->opt, b->arg, &srv, &base);
  if (e) return e;
  s->srv = zc_xreallocarray(s->srv, s->n + 1, sizeof *s->srv);
  s->given = zc_xreallocarray(s->given, s->n + 1, sizeof *s->given);
  s->srv[s->n] = srv;
  s->given[s->n] = zc_xstrdup(b->arg);
  cap_runs_build(&s->runs, b->name, base);
  build_maps(s, s->n);
  s->n++;
  return ZC_OK;
}

/* The output folder (its traces/ made) and the source maps' store in it:
 * read from the build folders zamcap serves, fetched for URL builds, kept
 * in OUT/sourcemaps/. */
static enum zc_err session_outdir(struct agent_session *s) {
  char path[4200];
  free(s->out);
  s->out = NULL;
  enum zc_err e = agent_outdir(s->a->out, &s->out);
  if (!e && s->scn) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_TRACES, s->out);
    e = zc_mkdirs(path);
  }
  agent_maps_free(s->maps);
  s->maps = NULL;
  if (!e && !s->a->no_source_maps) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_SOURCEMAPS, s->out);
    s->maps = agent_maps_new(path, 1);
  }
  return e;
}

/* The output folder, the source maps' store and the builds. */
static enum zc_err session_builds(struct agent_session *s,
                                  const struct agent_build *builds,
                                  unsigned n) {
  enum zc_err e = session_outdir(s);
  if (!e) s->home = zc_xstrdup(s->out);
  for (unsigned k = 0; !e && k < n; k++)
    e = add_build(s, &builds[k]);
  return e;
}

int agent_session_add(struct agent_session *s, const struct agent_build *b) {
  enum zc_err e = add_build(s, b);
  if (e) {
    zc_error("%s", zc_errmsg());
    return -1;
  }
  return (int)s->n - 1;
}

int agent_session_open(const struct agent_args *a,
                       const struct agent_build *builds, unsigned n,
                       struct agent_session **out) {
  *out = NULL;
  struct agent_session *s = zc_xcalloc(1, sizeof *s);
  s->a = a;
  s->pg = (struct progress){.t0 = zc_now_ms(), .tty = isatty(2)};
  cap_runs_init(&s->runs);
  if (a->preset && !cap_preset_find(a->preset)) {
    session_free(s);
    return agent_usage_error(NULL, "--preset %s: give mobile or desktop",
                             a->preset);
  }
  /* No operand: a session that waits for its first flow (run-all). */
  enum zc_err e =
      a->noperands ? agent_load_scenario(a, a->operands[0], &s->scn) : ZC_OK;
  if (e) {
    zc_error("%s", zc_errmsg());
    session_free(s);
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  char *chrome = a->cdp.browser_url ? NULL : cdp_find_chrome(a->cdp.chrome);
  if (!a->cdp.browser_url && !chrome) {
    zc_error("%s", zc_errmsg());
    session_free(s);
    return ZC_EXIT_CAPTURE;
  }
  free(chrome);
  if ((e = session_builds(s, builds, n))) {
    zc_error("%s", zc_errmsg());
    session_free(s);
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  if (s->scn) say_network(s->scn);
  *out = s;
  return 0;
}

int agent_session_flow(struct agent_session *s, const struct agent_args *a,
                       int restart) {
  struct scn_scenario *scn = NULL;
  enum zc_err e = agent_load_scenario(a, a->operands[0], &scn);
  if (e) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  scn_free(s->scn);
  s->scn = scn;
  s->a = a;
  if (restart) { /* a failed capture may have left Chrome unusable */
    cdp_browser_free(s->browser);
    s->browser = NULL;
    cJSON_Delete(s->environment);
    s->environment = NULL;
  }
  /* The same builds, served as they were, with no run yet: warm-ups
   * again (the flow's own code paths) and traces numbered from 1. */
  struct cap_runs fresh;
  cap_runs_init(&fresh);
  for (unsigned k = 0; k < s->n; k++)
    cap_runs_build(&fresh, s->runs.build[k].name, s->runs.build[k].base);
  fresh.work_ms = s->runs.work_ms; /* the session's, for its closing line */
  cap_runs_clear(&s->runs);
  s->runs = fresh;
  if ((e = session_outdir(s))) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  for (unsigned k = 0; k < s->n; k++)
    build_maps(s, k);
  say_network(s->scn);
  return 0;
}

void agent_session_set_scenario(struct agent_session *s,
                                struct scn_scenario *scn) {
  if (scn == s->scn) return;
  scn_free(s->scn);
  s->scn = scn;
}

const struct scn_scenario *
agent_session_scenario(const struct agent_session *s) {
  return s->scn;
}

void agent_session_on_cmp(struct agent_session *s, agent_cmp_fn *fn,
                          void *arg) {
  s->on_cmp = fn;
  s->on_cmp_arg = arg;
}

const struct cap_runs *agent_session_runs(const struct agent_session *s) {
  return &s->runs;
}

const char *agent_session_title(const struct agent_session *s) {
  return s->scn ? s->scn->title : NULL;
}

const char *agent_session_out(const struct agent_session *s) {
  return s->out;
}

/* Chrome, once per session. */
static int session_browser(struct agent_session *s) {
  if (s->browser) return 0;
  char logp[4200];
  snprintf(logp, sizeof logp, "%s/" ZC_OUT_CHROME_LOG, s->home);
  struct cdp_opts co = s->a->cdp;
  if (!co.browser_url) co.log_path = logp;
  progress(&s->pg, 0, "starting Chrome");
  enum zc_err e = cdp_browser_start(&co, &s->browser);
  if (e) {
    progress_end(&s->pg, 0);
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_CAPTURE);
  }
  s->environment = environment(s->browser);
  return 0;
}

/* A comparison under way: the session, its analysis, its report's
 * fields. */
struct cmp_run {
  struct agent_session *s;
  struct ana_cmp *cmp;
  const char *out;
  enum zc_err err; /* the first pair the analysis could not read */
  agent_more_fn *more;
  void *more_arg;
};

/* After each complete pair: into the analysis, read once; and with
 * --pairs auto, whether anything is still undecided. */
static int pair_done(void *arg, unsigned pair, const char *ta, const char *tb,
                     int ask, const char **why) {
  struct cmp_run *r = arg;
  const struct agent_args *a = r->s->a;
  if (!r->err && (r->err = ana_cmp_add(r->cmp, ta, tb))) {
    progress_end(&r->s->pg, 0);
    zc_log(0, "warning: pair %u left out of the analysis: %s", pair,
           zc_errmsg());
  }
  if (!ask || r->err) return 1;
  unsigned n = ana_cmp_pairs(r->cmp);
  if (r->more) return r->more(r->more_arg, r->cmp, why);
  struct ana_outcome oc;
  ana_cmp_outcome(r->cmp, a->threshold_ms, a->threshold_pct, &oc);
  /* A wall time or vital above its threshold with no function named: at
   * 3 pairs its interval has 2 degrees of freedom, and an A/A under a
   * sanitizer build once saw the scenario +45, +32, +31 ms there. */
  int more = oc.undecided || oc.e2e == ANA_E2E_UNDECIDED ||
             (oc.unexplained && !oc.causes && n < AGENT_AUTO_UNEXPLAINED);
  char need[64] = "";
  if (more && oc.pairs_needed > n)
    snprintf(need, sizeof need, "; about %u in all would settle it",
             oc.pairs_needed);
  progress(&r->s->pg, 1, "after %u pairs: %s%s, %u undecided, end-to-end %s%s",
           n, ana_state_name(oc.state),
           oc.causes ? " (regression-causes found)" : "", oc.undecided,
           ana_e2e_state_name(oc.e2e), need);
  *why = "decided";
  return more;
}

/* The reports of a comparison whose pairs are in; returns the exit
 * code. */
static int report(struct cmp_run *r, const struct cap_outcome *oc, cJSON *extra,
                  int *reported) {
  struct agent_session *s = r->s;
  const struct agent_args *a = s->a;
  unsigned formats = a->formats;
  if (a->attach) formats |= ANA_FMT_JSON | ANA_FMT_MD; /* what it sends */
  if (!a->no_history) formats |= ANA_FMT_JSON;         /* what it records */
  add_sampling(extra, a, oc);
  struct ana_report_in in = {
      .command = "run",
      .formats = formats,
      .extra = extra,
      .planned = oc->ran,
      .dropped = oc->dropped,
      .threshold_ms = a->threshold_ms,
      .threshold_pct = a->threshold_pct,
  };
  unsigned n = ana_cmp_pairs(r->cmp);
  progress(&s->pg, 0, "comparing %u pair%s ...", n, n == 1 ? "" : "s");
  progress_end(&s->pg, 1);
  if (!a->pairs)
    zc_log(1, "%u pair%s (%s)", oc->ran, oc->ran == 1 ? "" : "s",
           oc->stop ? oc->stop : "");
  struct ana_outcome res;
  enum zc_err e = r->err ? r->err : ana_cmp_write(r->cmp, r->out, &in, &res);
  if (s->maps && agent_maps_save(s->maps))
    zc_log(1, "warning: %s; source maps were used but not kept", zc_errmsg());
  if (e) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_CAPTURE);
  }
  *reported = 1;
  if (oc->dropped)
    zc_error(
        "capture incomplete: %u of %u pairs dropped (see %s/" ZC_OUT_FAILURES
        "/); the report covers the other %u",
        oc->dropped, oc->ran, r->out, oc->complete);
  return oc->dropped ? ZC_EXIT_CAPTURE : ana_exit_code(&res);
}

/* A trace whose CPU profile stops while the page's main thread goes on
 * with long tasks (V8 lost the later samples: seen under load, a 2 s run
 * whose profile holds its first 30 ms) measures nothing of those tasks:
 * its run failed. A trace that cannot be read is the comparison's to
 * report. */
static int trace_check(void *arg, const char *trace) {
  const struct agent_args *a = arg;
  struct ana_ctx *ctx = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  int bad = 0;
  if (ana_load(ctx, trace, &tl) == ZC_OK) {
    double lost = tl->fig.profile_lost_ms;
    if (lost >= a->ana.mu) {
      zc_fail(ZC_E_BROWSER,
              "%s: its CPU profile ends %.0f ms of long tasks before the run "
              "does (V8 lost the later samples)",
              trace, lost);
      bad = 1;
    }
  }
  ana_timeline_free(tl);
  ana_ctx_free(ctx);
  return bad;
}

/* The plan of pairs p asks for: its own counts, else the args'. */
static struct cap_plan plan_for(struct agent_session *s,
                                const struct agent_pairs *p,
                                const char *faildir, struct cmp_run *r) {
  const struct agent_args *a = s->a;
  struct agent_span span = agent_pairs_span(a);
  unsigned most = p->pairs ? p->pairs : span.most;
  unsigned least = p->min_pairs ? p->min_pairs : span.least;
  return (struct cap_plan){
      .scn = s->scn,
      .a = p->a,
      .b = p->b,
      .pairs = most,
      .min_pairs = least < most ? least : most,
      .decides = p->more ? least < most : span.decides,
      .budget_ms = a->time_budget_s * 1e3,
      .pair_done = pair_done,
      .pair_arg = r,
      .check = trace_check,
      .check_arg = (void *)a,
      .warmup = a->warmup,
      .retries = a->retries,
      .out = s->out,
      .progress = progress_cb,
      .progress_arg = &s->pg,
      .run = {.preset = cap_preset_find(a->preset),
              .settle_ms = a->settle_ms,
              .timeout_ms = a->cdp.timeout_ms,
              .settle_max_ms = a->settle_max_ms,
              .compress = 1,
              .trace = 1,
              .cpu_throttle = a->cpu_throttle > 1 ? a->cpu_throttle
                              : a->preset ? cap_preset_find(a->preset)->cpu
                                          : 1,
              .replay = {.step_timeout_ms = a->step_timeout_ms,
                         .fail_dir = faildir}}};
}

static void say_start(struct agent_session *s) {
  const struct agent_args *a = s->a;
  char pairs[64];
  struct agent_span span = agent_pairs_span(a);
  agent_span_text(&span, pairs, sizeof pairs);
  progress(&s->pg, 1, "%s; %s: %s, %u warm-up run%s per build; report in %s/",
           cdp_browser_version(s->browser),
           s->scn->title[0] ? s->scn->title : a->operands[0], pairs, a->warmup,
           a->warmup == 1 ? "" : "s", s->out);
}

struct ana_cmp *agent_session_cmp(struct agent_session *s, unsigned expect,
                                  int say) {
  struct ana_opts ao = s->a->ana;
  return ana_cmp_new(&ao, 0, s->maps ? agent_maps_ana(s->maps) : NULL, expect,
                     say);
}

/* The pairs into r->cmp; *first gets the first run of this comparison. */
static enum zc_err run_pairs(struct agent_session *s,
                             const struct agent_pairs *p, struct cmp_run *r,
                             struct cap_outcome *oc, size_t *first) {
  char faildir[4200];
  snprintf(faildir, sizeof faildir, "%s/" ZC_OUT_FAILURES, s->out);
  struct cap_plan plan = plan_for(s, p, faildir, r);
  *first = s->runs.nruns;
  enum zc_err e = cap_pairs(cdp_browser_conn(s->browser), &plan, &s->runs, oc);
  s->pg.work = s->runs.work_ms;
  rmdir(faildir); /* only when empty: nothing failed */
  if (!e && r->err) e = r->err;
  return e;
}

enum zc_err agent_session_pairs(struct agent_session *s,
                                const struct agent_pairs *p,
                                struct ana_cmp *cmp, struct cap_outcome *oc) {
  memset(oc, 0, sizeof *oc);
  if (session_browser(s)) return ZC_E_BROWSER;
  struct cmp_run r = {
      .s = s, .cmp = cmp, .more = p->more, .more_arg = p->more_arg};
  size_t first;
  return run_pairs(s, p, &r, oc, &first);
}

/* Pairs of one instrument's runs after the timed ones (kind: heap
 * profiles, call counts), so that no instrument weighs on a timed run: n
 * interleaved pairs of builds ia and ib, no warm-up, each complete pair
 * handed to done(arg). *oc says what capture did, *ms how long the pairs
 * took; returns capture's error. */
static enum zc_err instrument_pairs(struct agent_session *s, unsigned ia,
                                    unsigned ib, unsigned n, enum cap_kind kind,
                                    cap_pair_fn *done, void *arg,
                                    struct cap_outcome *oc, double *ms) {
  const struct agent_args *a = s->a;
  char faildir[4200];
  snprintf(faildir, sizeof faildir, "%s/" ZC_OUT_FAILURES, s->out);
  struct cmp_run r = {.s = s};
  struct agent_pairs p = {.a = ia, .b = ib, .pairs = n, .min_pairs = n};
  struct cap_plan plan = plan_for(s, &p, faildir, &r);
  plan.warmup = 0;
  plan.decides = 0;
  plan.kind = kind;
  plan.pair_done = done;
  plan.pair_arg = arg;
  plan.run.trace = kind == CAP_IO; /* an I/O run is traced */
  if (kind == CAP_HEAP) plan.run.heap_interval = a->memory_interval;
  if (kind == CAP_CALLS) plan.run.calls = 1;
  if (kind == CAP_IO) plan.run.io = 1;
  double t0 = zc_now_ms();
  enum zc_err e = cap_pairs(cdp_browser_conn(s->browser), &plan, &s->runs, oc);
  rmdir(faildir);
  s->pg.work = s->runs.work_ms;
  *ms = zc_now_ms() - t0;
  return e;
}

/* A memory pair into the allocation comparison. */
static int mem_pair_done(void *arg, unsigned pair, const char *ta,
                         const char *tb, int ask, const char **why) {
  (void)ask;
  (void)why;
  if (ana_cmp_add(arg, ta, tb))
    zc_log(0, "warning: memory pair %u left out of the analysis: %s", pair,
           zc_errmsg());
  return 1;
}

/* Memory pairs of builds ia and ib after the timed ones, so that the
 * heap profiler never weighs on a timed run: n interleaved pairs, each
 * run a sampling heap profile; the allocation comparison, or NULL when
 * none could be made (a warning says why). */
static struct ana_cmp *memory_pairs(struct agent_session *s, unsigned ia,
                                    unsigned ib, unsigned n, cJSON *extra) {
  const struct agent_args *a = s->a;
  struct ana_opts ao = a->ana;
  ao.mu = a->memory_mu_kb;
  struct ana_cmp *mem =
      ana_cmp_new(&ao, 0, s->maps ? agent_maps_ana(s->maps) : NULL, n, 2);
  progress(&s->pg, 1, "memory: %u pair%s, heap sampled every %u bytes", n,
           n == 1 ? "" : "s", a->memory_interval);
  struct cap_outcome oc;
  double ms;
  enum zc_err e =
      instrument_pairs(s, ia, ib, n, CAP_HEAP, mem_pair_done, mem, &oc, &ms);
  cJSON *inp = cJSON_GetObjectItem(extra, "inputs");
  cJSON *mj = cJSON_AddObjectToObject(inp ? inp : extra, "memory");
  cJSON_AddNumberToObject(mj, "pairs", oc.complete);
  cJSON_AddNumberToObject(mj, "interval_bytes", a->memory_interval);
  cJSON_AddNumberToObject(mj, "mu_kb", a->memory_mu_kb);
  cJSON_AddNumberToObject(mj, "wall_ms", round(ms));
  if (e || !ana_cmp_pairs(mem)) {
    progress_end(&s->pg, 0);
    zc_log(0, "warning: no allocation comparison: %s",
           e ? zc_errmsg() : "no memory pair was complete");
    ana_cmp_free(mem);
    return NULL;
  }
  progress(&s->pg, 1, "memory: %u pair%s in %.1f s", ana_cmp_pairs(mem),
           ana_cmp_pairs(mem) == 1 ? "" : "s", ms / 1e3);
  return mem;
}

/* A count pair into the comparison: the counts of calls explain the
 * timed pairs' time. */
static int calls_pair_done(void *arg, unsigned pair, const char *ta,
                           const char *tb, int ask, const char **why) {
  (void)ask;
  (void)why;
  if (ana_cmp_add_calls(arg, ta, tb))
    zc_log(0, "warning: count pair %u left out of the analysis: %s", pair,
           zc_errmsg());
  return 1;
}

/* Count pairs of builds ia and ib after the timed ones (precise coverage
 * changes how V8 optimizes, so it never runs in a timed run): n
 * interleaved pairs, each run's call counts into cmp. Counts hardly vary,
 * so few pairs do. A warning when none could be taken: the comparison
 * stands without them. */
static void count_pairs(struct agent_session *s, struct ana_cmp *cmp,
                        unsigned ia, unsigned ib, unsigned n, cJSON *extra) {
  progress(&s->pg, 1, "counts: %u pair%s, calls counted by V8", n,
           n == 1 ? "" : "s");
  struct cap_outcome oc;
  double ms;
  enum zc_err e =
      instrument_pairs(s, ia, ib, n, CAP_CALLS, calls_pair_done, cmp, &oc, &ms);
  cJSON *inp = cJSON_GetObjectItem(extra, "inputs");
  cJSON *cj = cJSON_AddObjectToObject(inp ? inp : extra, "counts");
  cJSON_AddNumberToObject(cj, "pairs", ana_cmp_calls_pairs(cmp));
  cJSON_AddNumberToObject(cj, "wall_ms", round(ms));
  if (e || !ana_cmp_calls_pairs(cmp)) {
    progress_end(&s->pg, 0);
    /* a dropped pair's run left its error: say it, not just the drop */
    zc_log(0,
           "warning: no call counts: %s%s%s; the causes are named without "
           "them",
           e ? zc_errmsg() : "no count pair was complete",
           !e && oc.dropped ? ", the last run's error: " : "",
           !e && oc.dropped ? zc_errmsg() : "");
    return;
  }
  progress(&s->pg, 1, "counts: %u pair%s in %.1f s", ana_cmp_calls_pairs(cmp),
           ana_cmp_calls_pairs(cmp) == 1 ? "" : "s", ms / 1e3);
  const char *un = ana_cmp_uncounted(cmp);
  if (un)
    zc_log(0,
           "warning: no call counts for %s (a worker's script? V8's "
           "coverage of the page does not reach it); its causes are named "
           "without them",
           un);
}

/* An I/O pair into the I/O comparison. */
static int io_pair_done(void *arg, unsigned pair, const char *ta,
                        const char *tb, int ask, const char **why) {
  (void)ask;
  (void)why;
  if (ana_io_add(arg, ta, tb))
    zc_log(0, "warning: I/O pair %u left out of the analysis: %s", pair,
           zc_errmsg());
  return 1;
}

/* n I/O pairs of builds ia and ib into io; *first gets the first run
 * they made, *ms their time. */
static enum zc_err io_plan(struct agent_session *s, unsigned ia, unsigned ib,
                           unsigned n, struct ana_io *io, size_t *first,
                           struct cap_outcome *oc, double *ms) {
  *first = s->runs.nruns;
  return instrument_pairs(s, ia, ib, n, CAP_IO, io_pair_done, io, oc, ms);
}

enum zc_err agent_session_io_pairs(struct agent_session *s, unsigned ia,
                                   unsigned ib, unsigned n, struct ana_io *io,
                                   unsigned *complete) {
  *complete = 0;
  if (session_browser(s)) return ZC_E_BROWSER;
  size_t first;
  struct cap_outcome oc;
  double ms;
  enum zc_err e = io_plan(s, ia, ib, n, io, &first, &oc, &ms);
  *complete = ana_io_pairs(io);
  return e;
}

struct ana_io *agent_session_take_io(struct agent_session *s) {
  struct ana_io *io = s->last_io;
  s->last_io = NULL;
  return io;
}

/* I/O pairs of builds ia and ib after the timed ones, so that the
 * storage wrapper never weighs on a timed run: n interleaved pairs, each
 * run traced with its requests' and writes' stacks beside the trace; the
 * I/O comparison, or NULL when none could be made (a warning says why). */
static struct ana_io *io_pairs(struct agent_session *s, unsigned ia,
                               unsigned ib, unsigned n, cJSON *extra) {
  const struct agent_args *a = s->a;
  struct ana_io *io = ana_io_new(&a->ana, a->io_mu_requests, a->io_mu_kb,
                                 s->maps ? agent_maps_ana(s->maps) : NULL, n);
  progress(&s->pg, 1,
           "I/O: %u pair%s, requests and storage writes per call "
           "path",
           n, n == 1 ? "" : "s");
  struct cap_outcome oc;
  size_t first;
  double ms;
  enum zc_err e = io_plan(s, ia, ib, n, io, &first, &oc, &ms);
  /* report.json's runs: the I/O runs too (runs[].io gets their figures) */
  cJSON *runs = cJSON_GetObjectItem(extra, "runs");
  for (size_t k = first; runs && k < s->runs.nruns; k++) {
    cJSON *rj = run_json(&s->runs, &s->runs.runs[k]);
    cJSON_AddStringToObject(rj, "kind", "io");
    cJSON_AddItemToArray(runs, rj);
  }
  cJSON *inp = cJSON_GetObjectItem(extra, "inputs");
  cJSON *ij = cJSON_AddObjectToObject(inp ? inp : extra, "io");
  cJSON_AddNumberToObject(ij, "pairs", ana_io_pairs(io));
  cJSON_AddNumberToObject(ij, "mu_requests", a->io_mu_requests);
  cJSON_AddNumberToObject(ij, "mu_kb", a->io_mu_kb);
  cJSON_AddNumberToObject(ij, "wall_ms", round(ms));
  if (e || !ana_io_pairs(io)) {
    progress_end(&s->pg, 0);
    zc_log(0, "warning: no I/O comparison: %s",
           e ? zc_errmsg() : "no I/O pair was complete");
    ana_io_free(io);
    return NULL;
  }
  progress(&s->pg, 1, "I/O: %u pair%s in %.1f s", ana_io_pairs(io),
           ana_io_pairs(io) == 1 ? "" : "s", ms / 1e3);
  return io;
}

int agent_session_compare(struct agent_session *s, unsigned ia, unsigned ib,
                          const char *out, int *reported,
                          struct ana_cmp **keep) {
  *reported = 0;
  if (keep) *keep = NULL;
  int rc = session_browser(s);
  if (rc) return rc;
  const struct agent_args *a = s->a;
  say_start(s);
  struct cmp_run r = {
      .s = s,
      .cmp = agent_session_cmp(s, a->pairs, 1),
      .out = out ? out : s->out,
  };
  if (s->on_cmp) s->on_cmp(s->on_cmp_arg, r.cmp);
  cJSON *extra = cJSON_CreateObject();
  add_inputs(extra, s, ia, ib);
  cJSON_AddItemToObject(extra, "environment",
                        cJSON_Duplicate(s->environment, 1));
  struct agent_pairs p = {.a = ia, .b = ib};
  struct cap_outcome oc;
  size_t first;
  enum zc_err e = run_pairs(s, &p, &r, &oc, &first);
  add_runs(extra, &s->runs, first, &oc);
  struct ana_cmp *mem = NULL;
  if (!e && a->memory && oc.complete)
    mem = memory_pairs(s, ia, ib, oc.complete < 5 ? oc.complete : 5, extra);
  if (!e && a->counts && oc.complete)
    count_pairs(s, r.cmp, ia, ib, a->counts, extra);
  struct ana_io *io = NULL;
  if (!e && a->io && oc.complete)
    io = io_pairs(s, ia, ib, oc.complete < 3 ? oc.complete : 3, extra);
  ana_cmp_set_memory(r.cmp, mem);
  ana_cmp_set_io(r.cmp, io);
  if (e && e != r.err) {
    progress_end(&s->pg, 0);
    zc_error("%s", zc_errmsg());
    rc = zc_exit_for(e, ZC_STAGE_CAPTURE);
  } else if (!oc.complete) {
    zc_error("no pair was captured (see %s/" ZC_OUT_FAILURES "/)", s->out);
    rc = ZC_EXIT_CAPTURE;
  } else {
    rc = report(&r, &oc, extra, reported);
  }
  ana_cmp_set_memory(r.cmp, NULL);
  ana_cmp_set_io(r.cmp, NULL);
  ana_cmp_free(mem);
  ana_io_free(s->last_io);
  s->last_io = keep ? io : NULL; /* bisect follows its causes */
  if (!keep) ana_io_free(io);
  if (keep)
    *keep = r.cmp;
  else
    ana_cmp_free(r.cmp);
  cJSON_Delete(extra);
  return rc;
}

void agent_session_close(struct agent_session *s, int reported) {
  if (!s) return;
  /* Chrome goes first: its exit is part of the time reported. */
  cdp_browser_free(s->browser);
  s->browser = NULL;
  if (reported) report_time(&s->pg);
  session_free(s);
}
