/* zamcap record: capture traced runs of a page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <unistd.h>

#include "agent-int.h"
#include "cdp.h"
#include "scn.h"

double agent_cpu_ms(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3 +
         (double)ru.ru_stime.tv_sec * 1e3 + (double)ru.ru_stime.tv_usec / 1e3;
}

double agent_peak_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

int agent_exit_for(enum zc_err e) {
  switch (e) {
  case ZC_OK: return ZC_EXIT_NONE;
  case ZC_E_INTERRUPTED: return 128 + (cdp_interrupted ? cdp_interrupted : 2);
  case ZC_E_USAGE: return ZC_EXIT_USAGE;
  case ZC_E_INTERNAL: return ZC_EXIT_INTERNAL;
  default: return ZC_EXIT_CAPTURE;
  }
}

/* A fresh page for a run: its own browser context, the scenario's needs
 * (the accessibility tree) and the CPU throttling set. */
static enum zc_err open_page(struct cdp_conn *conn,
                             const struct agent_capture_opts *o,
                             struct cdp_page **out) {
  struct cdp_page *p = NULL;
  enum zc_err e = cdp_page_open(conn, &p);
  if (e) return e;
  if (o->scn) e = scn_prepare(p, o->scn);
  if (!e && o->cpu_throttle > 1) {
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "rate", o->cpu_throttle);
    e = cdp_call(conn, cdp_page_session(p), "Emulation.setCPUThrottlingRate",
                 a, 0, NULL);
  }
  if (e) {
    cdp_page_close(p);
    p = NULL;
  }
  *out = p;
  return e;
}

/* The spare's page, opened unless there is one; 0 (logged) if it could
 * not be. */
static int spare_page(struct cdp_conn *conn, const struct agent_capture_opts *o,
                      struct agent_spare *sp) {
  if (sp->page || !open_page(conn, o, &sp->page)) return 1;
  zc_log(2, "opening the next run's page early: %s", zc_errmsg());
  return 0;
}

struct spare_open {
  struct cdp_conn *conn;
  const struct agent_capture_opts *o;
  struct agent_spare *sp;
  double t, t_end; /* when it began and ended; 0: it did not */
};

/* The next run's page, opened while this run's page settles (idle): a
 * renderer starting takes CPU the page is not using then. Only in runs
 * that are not traced: a renderer that starts while Chrome traces can
 * hold up the end of the trace by 5 s (Chrome 156 waits that long for
 * its flush), so a traced run's successor opens while Chrome flushes. */
static void open_spare_idle(void *arg) {
  struct spare_open *so = arg;
  struct zc_errsave sv;
  zc_err_save(&sv);
  so->t = zc_now_ms();
  if (spare_page(so->conn, so->o, so->sp)) {
    /* Its crash must not end this run's settling. */
    cdp_page_passive(so->sp->page, 1);
    zc_log(3, "opened the next run's page while this one settled: %.0f ms",
           zc_now_ms() - so->t);
  }
  so->t_end = zc_now_ms();
  zc_err_restore(&sv);
}

static void prepare_spare(struct cdp_conn *conn,
                          const struct agent_capture_opts *o,
                          struct agent_spare *sp) {
  struct zc_errsave sv;
  zc_err_save(&sv);
  sp->prefixed = 0;
  if (!spare_page(conn, o, sp)) {
    zc_err_restore(&sv);
    return;
  }
  cdp_page_passive(sp->page, 0); /* its own steps wait on it */
  const struct scn_scenario *scn = o->scn;
  if (!o->next_base || !scn || !scn->record_from) goto out;
  /* No failure files: a step that fails here fails again, for the record,
   * in the next run itself. */
  struct scn_replay_opts ro = o->replay;
  ro.base_url = o->next_base;
  ro.fail_dir = NULL;
  double t = zc_now_ms();
  if (scn_replay(sp->page, scn, 0, scn->record_from, &ro)) {
    zc_log(2, "the next run's first steps, early: %s", zc_errmsg());
    cdp_page_close(sp->page);
    sp->page = NULL;
  } else {
    sp->prefixed = 1;
    sp->prefix_ms = zc_now_ms() - t;
    sp->base = o->next_base;
  }
out:
  /* Held while this run's trace is collected: its crash must not end
   * that. */
  if (sp->page) cdp_page_passive(sp->page, 1);
  zc_err_restore(&sv);
}

enum zc_err agent_capture(struct cdp_conn *conn,
                          const struct agent_capture_opts *o,
                          const char *trace_base,
                          struct agent_capture_result *res,
                          struct agent_spare *spare) {
  memset(res, 0, sizeof *res);
  double cpur = agent_cpu_ms(), topen = zc_now_ms();
  struct cdp_page *p = NULL;
  enum zc_err e = ZC_OK;
  const struct scn_scenario *scn = o->scn;
  int prefixed = 0;
  if (spare && spare->page) {
    p = spare->page;
    spare->page = NULL;
    cdp_page_passive(p, 0);
    /* Its steps before recordFrom ran for this build: they count as this
     * run's work. Made for the other build, or crashed while it waited,
     * it gives way to a fresh page. */
    int crashed = cdp_page_crashed(p);
    if (crashed)
      zc_log(2, "the page made ready for this run crashed; opening another");
    if (crashed || (spare->prefixed && strcmp(spare->base, o->base))) {
      cdp_page_close(p);
      p = NULL;
    } else if (spare->prefixed) {
      prefixed = 1;
      res->work_ms = spare->prefix_ms;
    }
    spare->prefixed = 0;
  }
  if (!p && (e = open_page(conn, o, &p))) return e;
  double tready = zc_now_ms(), ttraced = 0;
  const char *s = cdp_page_session(p);
  if (scn && (e = zc_mkdirs(o->replay.fail_dir))) goto out;
  /* Steps before zamcap.recordFrom (a login, say) stay out of the trace. */
  double tw = zc_now_ms();
  if (!prefixed && scn && scn->record_from &&
      (e = scn_replay(p, scn, 0, scn->record_from, &o->replay)))
    goto out;
  double tstart = zc_now_ms();
  if (!prefixed) res->work_ms = tstart - tw;
  if (o->trace && (e = cdp_trace_start(conn, s, o->categories, o->compress)))
    goto out;
  double t0 = zc_now_ms();
  ttraced = t0 - tstart; /* Tracing.start */
  if (scn)
    e = scn_replay(p, scn, scn->record_from, scn->n, &o->replay);
  else
    e = cdp_page_navigate(p, o->base, o->timeout_ms);
  double quiet = scn && scn->settle_ms >= 0 ? scn->settle_ms : o->settle_ms;
  struct spare_open so = {conn, o, spare, 0, 0};
  if (!e) {
    int early = spare && !spare->page && o->next_base && !o->trace;
    e = cdp_page_settle_idle(p, quiet, o->timeout_ms,
                             early ? open_spare_idle : NULL, &so);
  }
  if (e) goto out;
  double tsettled = zc_now_ms();
  res->settled_ms = tsettled - t0;
  res->work_ms += res->settled_ms;
  /* Opening the next page began half-way through the quiet time: what it
   * took beyond the other half may have held the settling up, and is not
   * the run's own time (the page's own work after it still is). */
  if (so.t > 0) {
    double held = (so.t_end - so.t) - quiet / 2;
    double tail = tsettled - (so.t + quiet / 2);
    if (held > 0 && tail > 0) res->work_ms -= held < tail ? held : tail;
  }
  double cpus = agent_cpu_ms();
  if (o->trace) {
    /* While Chrome flushes the trace (hundreds of ms), the next run's page
     * is made ready: its context created and its steps before recordFrom,
     * which are not traced, replayed. Tracing has ended, so none of it is
     * in this trace, and the next trace starts only once this one is
     * complete. */
    struct cdp_trace *tr;
    if ((e = cdp_trace_end(conn, s, o->timeout_ms, &tr))) goto out;
    /* This run's page is done: if it crashes now, its steps and settling
     * are over, and the trace is still collected (Chrome says when data
     * was lost). */
    cdp_page_passive(p, 1);
    if (spare && o->next_base) prepare_spare(conn, o, spare);
    if ((e = cdp_trace_collect(tr, trace_base, o->timeout_ms, &res->file,
                               &res->bytes)))
      goto out;
  }
  double tstop = zc_now_ms();
  if (o->trace)
    zc_log(2, "trace streamed in %.0f ms (%.0f MB/s); zamcap CPU %.0f ms in "
           "the run, %.0f ms of it streaming", tstop - tsettled,
           (double)res->bytes / 1e3 / (tstop - tsettled + 1e-9),
           agent_cpu_ms() - cpur, agent_cpu_ms() - cpus);
out:
  {
    double tclose = zc_now_ms();
    cdp_page_close(p);
    zc_log(2, "run: context %.0f ms, steps and settling %.0f ms, starting "
           "the trace %.0f ms, closing %.0f ms", tready - topen, res->work_ms,
           ttraced, zc_now_ms() - tclose);
  }
  return e;
}

static int record_exec(const struct agent_args *a) {
  struct cdp_opts co = a->cdp;
  const char *url = a->url, *outarg = a->out, *cats = a->categories;
  unsigned runs = a->runs;
  double settle = a->settle_ms, step_timeout = a->step_timeout_ms;
  int notrace = a->no_trace, plain = a->no_compress;
  if (a->noperands > 1)
    return agent_usage_error("record", "unexpected argument '%s'",
                             a->operands[1]);
  const char *scnpath = a->noperands ? a->operands[0] : NULL;
  if (!url) return agent_usage_error("record", "record wants --url URL|DIR");
  if (co.chrome && co.browser_url)
    return agent_usage_error("record", "--chrome and --browser-url exclude "
                             "each other");
  /* The scenario is checked before any browser starts. */
  struct scn_scenario *scn = NULL;
  if (scnpath) {
    if (scn_load(scnpath, &scn)) {
      fprintf(stderr, "zamcap: %s\n", zc_errmsg());
      return ZC_EXIT_USAGE;
    }
  }
  struct agent_server *srv = NULL;
  const char *base = NULL;
  if (agent_build_base("--url", url, &srv, &base)) {
    scn_free(scn);
    return agent_usage_error("record", "%s", zc_errmsg());
  }

  /* A missing Chrome is found before any folder is made. */
  if (!co.browser_url) {
    char *chrome = cdp_find_chrome(co.chrome);
    if (!chrome) {
      fprintf(stderr, "zamcap: %s\n", zc_errmsg());
      agent_server_free(srv);
      scn_free(scn);
      return ZC_EXIT_CAPTURE;
    }
    free(chrome);
  }
  double t0 = zc_now_ms(), cpu0 = agent_cpu_ms();
  char *out = NULL, path[4096], logp[4096];
  enum zc_err e = agent_outdir(outarg, &out);
  if (!e) {
    snprintf(path, sizeof path, "%s/traces", out);
    e = zc_mkdirs(path);
  }
  if (e) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    agent_server_free(srv);
    free(out);
    scn_free(scn);
    return ZC_EXIT_USAGE;
  }
  char faildir[4200];
  snprintf(faildir, sizeof faildir, "%s/failures", out);
  struct scn_replay_opts ro = {base, step_timeout, faildir, NULL};
  char failname[32];
  snprintf(logp, sizeof logp, "%s/chrome.log", out);
  if (!co.browser_url) co.log_path = logp;

  struct cdp_browser *b = NULL;
  unsigned done = 0, started = 0;
  char **files = NULL;
  size_t nfiles = 0, capfiles = 0;
  if ((e = cdp_browser_start(&co, &b))) goto out;
  zc_log(1, "%s%s", cdp_browser_version(b),
         cdp_browser_pid(b) ? " (launched, headless)" : " (attached)");
  struct cdp_conn *conn = cdp_browser_conn(b);
  struct agent_capture_opts ca = {
      .scn = scn, .base = base, .settle_ms = settle,
      .timeout_ms = co.timeout_ms, .categories = cats, .compress = !plain,
      .trace = !notrace, .cpu_throttle = 0, .replay = ro};
  for (unsigned i = 1; i <= runs; i++) {
    started = i;
    double tr = zc_now_ms();
    snprintf(failname, sizeof failname, "run-%u", i);
    ca.replay.fail_name = failname;
    snprintf(path, sizeof path, "%s/traces/run-%u", out, i);
    struct agent_capture_result res;
    if ((e = agent_capture(conn, &ca, path, &res, NULL))) break;
    done = i;
    if (res.file) {
      ZC_GROW(files, capfiles, nfiles + 1);
      files[nfiles++] = res.file;
    }
    if (notrace)
      zc_log(1, "run %u/%u: settled %.0f ms after %s (not traced)", i, runs,
             res.settled_ms, scn ? "the first traced step" : "navigation");
    else
      zc_log(1, "run %u/%u: %s (%.1f MB), settled %.0f ms after %s, %.1f s "
             "in all", i, runs, res.file, (double)res.bytes / 1e6,
             res.settled_ms, scn ? "the first traced step" : "navigation",
             (zc_now_ms() - tr) / 1e3);
  }
out:
  if (e && !started) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
  } else if (e) {
    fprintf(stderr, "zamcap: run %u of %u: %s\n", started, runs, zc_errmsg());
    if (done)
      fprintf(stderr, "zamcap: the %u run%s recorded before are kept in "
              "%s/traces/\n", done, done == 1 ? "" : "s", out);
  }
  cdp_browser_free(b);
  agent_server_free(srv);
  rmdir(faildir); /* only when no step failed: it is empty then */
  scn_free(scn);
  double wall = zc_now_ms() - t0, cpu = agent_cpu_ms() - cpu0;
  if (started)
    zc_log(1, "%u run%s in %.1f s; zamcap itself: %.2f s CPU (%.1f%% of the "
           "time), peak memory %.1f MB", done, done == 1 ? "" : "s",
           wall / 1e3, cpu / 1e3, wall > 0 ? 100 * cpu / wall : 0,
           agent_peak_mb());
  for (size_t i = 0; i < nfiles; i++) {
    if (!e) printf("%s\n", files[i]);
    free(files[i]);
  }
  free(files);
  free(out);
  return agent_exit_for(e);
}

const struct agent_cmd agent_cmd_record = {
    .name = "record",
    .bit = AGENT_RECORD,
    .usage = "usage: zamcap record [SCENARIO] --url URL|DIR [OPTIONS]",
    .about =
        "Opens URL in Chrome, each run in a fresh browser context, and "
        "records a\ntrace from before navigation until the page has settled "
        "(load event,\nthen no request and no long task for --settle ms). "
        "With SCENARIO (a\nDevTools Recorder JSON export) it replays the user "
        "flow against URL\ninstead, tracing from its zamcap.recordFrom step "
        "(default: the first).\nA folder given as --url is served by zamcap "
        "on 127.0.0.1. Traces go to\nOUT/traces/run-<i>.json.gz (gzip, as "
        "DevTools saves traces), which\nDevTools, Perfetto and zamcap "
        "compare all load.\n",
    .after = "Exit: 0 recorded, 2 usage error, 3 capture failed (the runs "
             "already\nrecorded are kept), 130/143 interrupted.\n",
    .exec = record_exec,
};
