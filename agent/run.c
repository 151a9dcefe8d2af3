/* zamcap SCENARIO --old URL|DIR --new URL|DIR: the one command. Replays
 * the scenario on both builds in interleaved, counterbalanced pairs in one
 * browser, each run in a fresh context, then compares the traces. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "agent-int.h"
#include "ana.h"
#include "attach.h"

enum { OLD = 0, NEW = 1 };
static const char *const side_name[] = {"old", "new"};

/* Progress on stderr: on a terminal, one status line rewritten in place
 * while a run goes, and a line kept per finished run; elsewhere (a log, a
 * nightly job's mail) only the kept lines, one per event. */
struct progress {
  double t0;
  int tty, open; /* a status line is showing */
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
  if (p->tty) fputs("\r\033[K", stderr);
  fprintf(stderr, "zamcap: [%6.1f s] %s%s", (zc_now_ms() - p->t0) / 1e3, msg,
          keep ? "\n" : "");
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

/* The failure files a run left, as "failures/NAME-step-N.png", or NULL. */
static char *failure_file(const char *out, const char *name) {
  char dir[4200], *found = NULL;
  snprintf(dir, sizeof dir, "%s/failures", out);
  DIR *d = opendir(dir);
  if (!d) return NULL;
  size_t n = strlen(name);
  struct dirent *de;
  while ((de = readdir(d)))
    if (!strncmp(de->d_name, name, n) && de->d_name[n] == '-' &&
        strstr(de->d_name, ".png")) {
      size_t len = strlen(de->d_name) + 16;
      found = zc_xmalloc(len);
      snprintf(found, len, "failures/%s", de->d_name);
      break;
    }
  closedir(d);
  return found;
}

static void add_str_or_null(cJSON *o, const char *k, const char *v) {
  if (v) cJSON_AddStringToObject(o, k, v);
  else cJSON_AddNullToObject(o, k);
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

static int run_exec(const struct agent_args *a) {
  struct cdp_opts co = a->cdp;
  struct ana_opts ao = a->ana;
  const char *arg[2] = {a->old, a->new_}, *outarg = a->out;
  const char *attach = a->attach;
  const char *const *hdr = a->headers;
  unsigned nhdr = a->nheaders, formats = a->formats;
  unsigned pairs = a->pairs, warmup = a->warmup, retries = a->retries;
  double throttle = a->cpu_throttle, step_timeout = a->step_timeout_ms;
  double settle = a->settle_ms;
  if (a->noperands != 1)
    return agent_usage_error(NULL, "give one SCENARIO, and --old and --new");
  const char *scn_path = a->operands[0];
  if (!arg[OLD] || !arg[NEW])
    return agent_usage_error(NULL, "give both --old URL|DIR and --new URL|DIR");
  if (ao.quorum > pairs)
    return agent_usage_error(NULL, "--quorum %u is more than the %u pairs",
                             ao.quorum, pairs);
  if (co.chrome && co.browser_url)
    return agent_usage_error(NULL, "--chrome and --browser-url exclude each "
                             "other");
  if (nhdr && !attach)
    return agent_usage_error(NULL, "--attach-header without --attach URL");
  if (attach && !(formats & ANA_FMT_JSON && formats & ANA_FMT_MD))
    formats |= ANA_FMT_JSON | ANA_FMT_MD; /* what --attach sends */
  struct scn_scenario *scn = NULL;
  if (scn_load(scn_path, &scn)) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    return ZC_EXIT_USAGE;
  }
  if (!co.browser_url) {
    char *chrome = cdp_find_chrome(co.chrome);
    if (!chrome) {
      fprintf(stderr, "zamcap: %s\n", zc_errmsg());
      scn_free(scn);
      return ZC_EXIT_CAPTURE;
    }
    free(chrome);
  }

  struct progress pg = {zc_now_ms(), isatty(2), 0};
  char *out = NULL, path[4096], logp[4200], faildir[4200];
  struct agent_server *srv[2] = {NULL, NULL};
  const char *base[2] = {NULL, NULL};
  struct cdp_browser *b = NULL;
  struct agent_spare spare = {NULL, NULL, 0, 0}; /* the next run's page */
  char *file[2][100];
  memset(file, 0, sizeof file);
  unsigned complete = 0, dropped = 0, causes = 0;
  double work = 0; /* the runs' own time, for the overhead figure */
  int rc = ZC_EXIT_CAPTURE;
  cJSON *extra = cJSON_CreateObject();
  cJSON *runs = NULL, *droplist = NULL;
  enum zc_err e = agent_outdir(outarg, &out);
  if (!e) {
    snprintf(path, sizeof path, "%s/traces", out);
    e = zc_mkdirs(path);
  }
  /* Each build on its own port: two origins, as two deployments are. */
  if (!e) e = agent_build_base("--old", arg[OLD], &srv[OLD], &base[OLD]);
  if (!e) e = agent_build_base("--new", arg[NEW], &srv[NEW], &base[NEW]);
  if (e) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    rc = e == ZC_E_USAGE || e == ZC_E_IO ? ZC_EXIT_USAGE
                                         : ZC_EXIT_INTERNAL;
    goto out;
  }
  cJSON *inp = cJSON_AddObjectToObject(extra, "inputs");
  cJSON_AddStringToObject(inp, "scenario", scn_path);
  cJSON_AddStringToObject(inp, "title", scn->title);
  cJSON_AddStringToObject(inp, "old", arg[OLD]);
  cJSON_AddStringToObject(inp, "new", arg[NEW]);
  cJSON_AddStringToObject(inp, "old_url", base[OLD]);
  cJSON_AddStringToObject(inp, "new_url", base[NEW]);
  cJSON_AddNumberToObject(inp, "pairs", pairs);
  cJSON_AddNumberToObject(inp, "warmup", warmup);
  cJSON_AddNumberToObject(inp, "retries", retries);
  if (throttle > 1) cJSON_AddNumberToObject(inp, "cpu_throttle", throttle);
  else cJSON_AddNullToObject(inp, "cpu_throttle");
  runs = cJSON_AddArrayToObject(extra, "runs");
  droplist = cJSON_AddArrayToObject(extra, "dropped_pairs");

  snprintf(logp, sizeof logp, "%s/chrome.log", out);
  snprintf(faildir, sizeof faildir, "%s/failures", out);
  if (!co.browser_url) co.log_path = logp;
  progress(&pg, 0, "starting Chrome");
  if ((e = cdp_browser_start(&co, &b))) {
    progress_end(&pg, 0);
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    rc = agent_exit_for(e);
    goto out;
  }
  cJSON_AddItemToObject(extra, "environment", environment(b));
  progress(&pg, 1, "%s; %s: %u pair%s, %u warm-up run%s per build; report "
           "in %s/", cdp_browser_version(b),
           scn->title[0] ? scn->title : scn_path, pairs,
           pairs == 1 ? "" : "s", warmup, warmup == 1 ? "" : "s", out);
  struct cdp_conn *conn = cdp_browser_conn(b);
  struct agent_capture_opts ca = {
      .scn = scn, .settle_ms = settle, .timeout_ms = co.timeout_ms,
      .categories = NULL, .compress = 1, .trace = 1,
      .cpu_throttle = throttle,
      .replay = {NULL, step_timeout, faildir, NULL}};
  char failname[64];

  /* Warm-up runs: caches, JIT and the OS warm for both builds alike. A
   * build the scenario cannot run on stops everything here. */
  for (unsigned w = 1; w <= warmup; w++)
    for (int sd = 0; sd < 2; sd++) {
      double tr = zc_now_ms();
      struct agent_capture_result res;
      ca.base = ca.replay.base_url = base[sd];
      ca.trace = 0;
      ca.next_base = base[1 - sd]; /* the other build's, or pair 1's old */
      snprintf(failname, sizeof failname, "warmup-%u-%s", w, side_name[sd]);
      ca.replay.fail_name = failname;
      progress(&pg, 0, "warm-up %u/%u, %s build ...", w, warmup,
               side_name[sd]);
      e = agent_capture(conn, &ca, NULL, &res, &spare);
      work += res.work_ms;
      if (e) {
        progress_end(&pg, 0);
        fprintf(stderr, "zamcap: warm-up on the %s build: %s\n",
                side_name[sd], zc_errmsg());
        rc = agent_exit_for(e);
        goto out;
      }
      progress(&pg, 1, "warm-up %u/%u, %s build: %.1f s", w, warmup,
               side_name[sd], (zc_now_ms() - tr) / 1e3);
    }
  ca.trace = 1;

  /* Pairs, counterbalanced: old then new, new then old, and so on, so
   * that drift over time weighs on both builds alike. */
  for (unsigned i = 1; i <= pairs; i++) {
    int ok = 1;
    for (int k = 0; k < 2 && ok; k++) {
      int sd = i % 2 ? k : 1 - k;
      ca.base = ca.replay.base_url = base[sd];
      for (unsigned attempt = 0;; attempt++) {
        double tr = zc_now_ms();
        struct agent_capture_result res;
        snprintf(path, sizeof path, "%s/traces/%s-%u", out, side_name[sd], i);
        snprintf(failname, sizeof failname, "%s-%u-try-%u", side_name[sd], i,
                 attempt + 1);
        ca.replay.fail_name = failname;
        progress(&pg, 0, "pair %u/%u, %s build%s ...", i, pairs,
                 side_name[sd], attempt ? " (retry)" : "");
        /* The run after this one, if this one succeeds: the other build
         * of the pair, or the first of the next pair. */
        ca.next_base = k == 0 ? base[1 - sd] : i < pairs ? base[sd] : NULL;
        e = agent_capture(conn, &ca, path, &res, &spare);
        work += res.work_ms;
        cJSON *run = cJSON_CreateObject();
        cJSON_AddNumberToObject(run, "pair", i);
        cJSON_AddStringToObject(run, "build", side_name[sd]);
        cJSON_AddNumberToObject(run, "attempt", attempt + 1);
        cJSON_AddStringToObject(run, "status", e ? "failed" : "ok");
        add_str_or_null(run, "error", e ? zc_errmsg() : NULL);
        const char *rel = !e && res.file ? strrchr(res.file, '/') : NULL;
        char tr_rel[300];
        if (rel) snprintf(tr_rel, sizeof tr_rel, "traces/%s", rel + 1);
        add_str_or_null(run, "trace", rel ? tr_rel : NULL);
        cJSON_AddNumberToObject(run, "ms", zc_now_ms() - tr);
        if (!e) cJSON_AddNumberToObject(run, "bytes", (double)res.bytes);
        char *ff = e ? failure_file(out, failname) : NULL;
        add_str_or_null(run, "failure", ff);
        free(ff);
        cJSON_AddItemToArray(runs, run);
        if (!e) {
          file[sd][i - 1] = res.file;
          progress(&pg, 1, "pair %u/%u, %s build: %.1f s (%.1f MB trace)", i,
                   pairs, side_name[sd], (zc_now_ms() - tr) / 1e3,
                   (double)res.bytes / 1e6);
          break;
        }
        if (e == ZC_E_INTERRUPTED) {
          progress_end(&pg, 0);
          fprintf(stderr, "zamcap: %s\n", zc_errmsg());
          rc = agent_exit_for(e);
          goto out;
        }
        progress(&pg, 1, "pair %u/%u, %s build failed (try %u of %u): %s", i,
                 pairs, side_name[sd], attempt + 1, retries + 1, zc_errmsg());
        if (attempt >= retries) {
          ok = 0;
          break;
        }
      }
    }
    if (ok) complete++;
    else {
      dropped++;
      cJSON_AddItemToArray(droplist, cJSON_CreateNumber(i));
      progress(&pg, 1, "pair %u dropped; its traces that were recorded stay "
               "in %s/traces/", i, out);
    }
  }
  cdp_page_close(spare.page);
  spare.page = NULL;
  cdp_browser_free(b);
  b = NULL;
  if (!complete) {
    fprintf(stderr, "zamcap: no pair was captured (see %s/failures/)\n", out);
    rc = ZC_EXIT_CAPTURE;
    goto out;
  }
  {
    const char *of[100], *nf[100];
    unsigned n = 0;
    for (unsigned i = 0; i < pairs; i++)
      if (file[OLD][i] && file[NEW][i]) of[n] = file[OLD][i], nf[n++] = file[NEW][i];
    if (ao.quorum > n) ao.quorum = n;
    struct ana_report_in in = {"run", formats, extra, pairs, dropped};
    progress(&pg, 0, "comparing %u pair%s ...", n, n == 1 ? "" : "s");
    progress_end(&pg, 1);
    if ((e = ana_analyze(of, nf, n, &ao, 0, out, &in, &causes))) {
      fprintf(stderr, "zamcap: %s\n", zc_errmsg());
      rc = e == ZC_E_IO ? ZC_EXIT_CAPTURE : ZC_EXIT_USAGE;
      goto out;
    }
  }
  if (dropped)
    fprintf(stderr, "zamcap: capture incomplete: %u of %u pairs dropped "
            "(see %s/failures/); the report covers the other %u\n", dropped,
            pairs, out, complete);
  rc = dropped ? ZC_EXIT_CAPTURE
       : causes ? ZC_EXIT_FOUND
                : ZC_EXIT_NONE;
  if (attach) {
    if ((e = agent_attach_stoppable(attach, hdr, nhdr, out,
                                    &cdp_interrupted))) {
      fprintf(stderr, "zamcap: %s (the report stays in %s/)\n", zc_errmsg(),
              out);
      if (e == ZC_E_INTERRUPTED) rc = agent_exit_for(e);
      else if (rc == ZC_EXIT_NONE) rc = ZC_EXIT_CAPTURE;
    }
  }
  double wall = zc_now_ms() - pg.t0;
  zc_log(1, "done in %.1f s; zamcap itself: %.1f s CPU, peak memory %.1f MB",
         wall / 1e3, agent_cpu_ms() / 1e3, agent_peak_mb());
  zc_log(2, "the runs' own time (replaying and settling): %.1f s; zamcap's "
         "overhead beyond it (launch, contexts, traces, analysis, reports): "
         "%.1f s, %.1f %%", work / 1e3, (wall - work) / 1e3,
         100 * (wall - work) / (work + 1e-9));
out:
  cdp_page_close(spare.page);
  cdp_browser_free(b);
  agent_server_free(srv[OLD]);
  agent_server_free(srv[NEW]);
  rmdir(faildir); /* only when empty: nothing failed */
  for (int sd = 0; sd < 2; sd++)
    for (unsigned i = 0; i < pairs; i++) free(file[sd][i]);
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
        "with no\nregression to report, 130/143 interrupted.\n",
    .exec = run_exec,
};
