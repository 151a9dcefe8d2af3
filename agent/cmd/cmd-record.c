/* zamcap record: capture traced runs of a page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "cmd.h"
#include "session.h"
#include "zc-out.h"

/* What record has made ready before Chrome starts. */
struct rec {
  struct scn_scenario *scn; /* NULL: just load the page */
  struct agent_server *srv; /* a folder's server, or NULL */
  const char *base;
  char *out;
  char **files; /* the traces recorded */
  size_t nfiles, capfiles;
};

static void rec_free(struct rec *r) {
  scn_free(r->scn);
  agent_server_free(r->srv);
  for (size_t i = 0; i < r->nfiles; i++)
    free(r->files[i]);
  free(r->files);
  free(r->out);
}

/* The scenario, the build and Chrome are checked, and the output folder
 * made, before any browser starts; returns -1 to go on or the exit code. */
static int rec_prepare(const struct agent_args *a, struct rec *r) {
  if (a->noperands > 1)
    return agent_usage_error("record", "unexpected argument '%s'",
                             a->operands[1]);
  if (!a->url) return agent_usage_error("record", "record wants --url URL|DIR");
  if (a->cdp.chrome && a->cdp.browser_url)
    return agent_usage_error("record", "--chrome and --browser-url exclude "
                                       "each other");
  enum zc_err e;
  if (a->noperands && (e = agent_load_scenario(a, a->operands[0], &r->scn))) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  agent_url_secrets("--url", a->url);
  if (agent_build_base("--url", a->url, &r->srv, &r->base))
    return agent_usage_error("record", "%s", zc_errmsg());
  /* A missing Chrome is found before any folder is made. */
  if (!a->cdp.browser_url) {
    char *chrome = cdp_find_chrome(a->cdp.chrome);
    if (!chrome) {
      zc_error("%s", zc_errmsg());
      return ZC_EXIT_CAPTURE;
    }
    free(chrome);
  }
  char path[4200];
  e = agent_outdir(a->out, &r->out);
  if (!e) {
    snprintf(path, sizeof path, "%s/" ZC_OUT_TRACES, r->out);
    e = zc_mkdirs(path);
  }
  if (e) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  return -1;
}

/* The runs, one after the other; *started and *done count them. */
static enum zc_err record_runs(const struct agent_args *a, struct rec *r,
                               struct cdp_conn *conn, const char *faildir,
                               unsigned *started, unsigned *done) {
  const char *after = r->scn ? "the first traced step" : "navigation";
  char name[32], path[4200];
  struct cap_run_opts ca = {.scn = r->scn,
                            .base = r->base,
                            .settle_ms = a->settle_ms,
                            .settle_max_ms = a->settle_max_ms,
                            .timeout_ms = a->cdp.timeout_ms,
                            .categories = a->categories,
                            .compress = !a->no_compress,
                            .trace = !a->no_trace,
                            .replay = {.base_url = r->base,
                                       .step_timeout_ms = a->step_timeout_ms,
                                       .fail_dir = faildir,
                                       .fail_name = name}};
  for (unsigned i = 1; i <= a->runs; i++) {
    *started = i;
    double t = zc_now_ms();
    snprintf(name, sizeof name, ZC_OUT_RUN_FMT, i);
    snprintf(path, sizeof path, "%s/" ZC_OUT_TRACES "/%s", r->out, name);
    struct cap_run_result res;
    enum zc_err e = cap_run(conn, &ca, path, &res, NULL);
    if (e) return e;
    *done = i;
    if (res.file) {
      ZC_GROW(r->files, r->capfiles, r->nfiles + 1);
      r->files[r->nfiles++] = res.file;
    }
    if (a->no_trace)
      zc_log(1, "run %u/%u: settled %.0f ms after %s (not traced)", i, a->runs,
             res.settled_ms, after);
    else
      zc_log(1,
             "run %u/%u: %s (%.1f MB), settled %.0f ms after %s, %.1f s "
             "in all",
             i, a->runs, res.file, (double)res.bytes / 1e6, res.settled_ms,
             after, (zc_now_ms() - t) / 1e3);
  }
  return ZC_OK;
}

static int record_exec(const struct agent_args *a) {
  struct rec r;
  memset(&r, 0, sizeof r);
  int rc = rec_prepare(a, &r);
  if (rc >= 0) {
    rec_free(&r);
    return rc;
  }
  double t0 = zc_now_ms(), cpu0 = zc_cpu_ms();
  char faildir[4200], logp[4200];
  snprintf(faildir, sizeof faildir, "%s/" ZC_OUT_FAILURES, r.out);
  snprintf(logp, sizeof logp, "%s/" ZC_OUT_CHROME_LOG, r.out);
  struct cdp_opts co = a->cdp;
  if (!co.browser_url) co.log_path = logp;
  struct cdp_browser *b = NULL;
  unsigned done = 0, started = 0;
  enum zc_err e = cdp_browser_start(&co, &b);
  if (!e) {
    zc_log(1, "%s%s", cdp_browser_version(b),
           cdp_browser_pid(b) ? " (launched, headless)" : " (attached)");
    e = record_runs(a, &r, cdp_browser_conn(b), faildir, &started, &done);
  }
  if (e && !started) {
    zc_error("%s", zc_errmsg());
  } else if (e) {
    zc_error("run %u of %u: %s", started, a->runs, zc_errmsg());
    if (done)
      zc_error("the %u run%s recorded before are kept in %s/" ZC_OUT_TRACES "/",
               done, done == 1 ? "" : "s", r.out);
  }
  cdp_browser_free(b);
  rmdir(faildir); /* only when no step failed: it is empty then */
  double wall = zc_now_ms() - t0, cpu = zc_cpu_ms() - cpu0;
  if (started)
    zc_log(1,
           "%u run%s in %.1f s; zamcap itself: %.2f s CPU (%.1f%% of the "
           "time), peak memory %.1f MB",
           done, done == 1 ? "" : "s", wall / 1e3, cpu / 1e3,
           wall > 0 ? 100 * cpu / wall : 0, zc_peak_mb());
  for (size_t i = 0; !e && i < r.nfiles; i++)
    printf("%s\n", r.files[i]);
  rec_free(&r);
  return zc_exit_for(e, ZC_STAGE_CAPTURE);
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
    .after = NULL,
    .exec = record_exec,
};
