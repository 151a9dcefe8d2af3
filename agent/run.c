/* zamcap SCENARIO --old URL|DIR --new URL|DIR: the one command. Replays
 * the scenario on both builds in interleaved, counterbalanced pairs in one
 * browser, each run in a fresh context, then compares the traces. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent-int.h"
#include "ana.h"

static const char run_usage[] =
    "usage: zamcap SCENARIO --old URL|DIR --new URL|DIR [OPTIONS]\n"
    "\n"
    "Replays SCENARIO (a DevTools Recorder JSON export) on the old and the\n"
    "new build in interleaved pairs (old, new, new, old, ...) in one\n"
    "headless Chrome, records a trace of each run, and compares them: the\n"
    "critical graph is the call paths down to the functions that got slower\n"
    "by MU ms or more in every pair. A folder is served by zamcap itself.\n"
    "\n"
    "  --old URL|DIR       the old build\n"
    "  --new URL|DIR       the new build\n"
    "  --pairs N           pairs of runs (default 3)\n"
    "  --warmup N          unrecorded runs per build first (default 1)\n"
    "  --mu MS             smallest regression reported (default 50)\n"
    "  --quorum K          keep what K pairs agree on (default: all)\n"
    "  --retries N         retries of a failed run (default 1)\n"
    "  --cpu-throttle X    slow the CPU X times, both builds alike\n"
    "  --out DIR           output folder (default zamcap-out/<UTC time>/)\n"
    "  --step-timeout MS   a step's limit (default 30000)\n"
    "  --settle MS         quiet time that ends a run (default 500)\n"
    "  --timeout MS        longest wait for Chrome (default 30000)\n"
    "  --chrome PATH       the Chrome to launch\n"
    "  --browser-url URL   attach to a running Chrome instead\n"
    "  -q, -v              quieter, more verbose\n"
    "\n"
    "Exit: 0 no regression-cause, 1 regression-causes found, 2 usage or\n"
    "input error, 3 capture failed or incomplete (a pair was dropped; the\n"
    "others are still analysed and reported), 130/143 interrupted.\n";

enum { OLD = 0, NEW = 1 };
static const char *const side_name[] = {"old", "new"};

int agent_run(int argc, char **argv) {
  static const struct option opts[] = {
      {"old", required_argument, NULL, 'O'},
      {"new", required_argument, NULL, 'N'},
      {"pairs", required_argument, NULL, 'p'},
      {"warmup", required_argument, NULL, 'w'},
      {"mu", required_argument, NULL, 'm'},
      {"quorum", required_argument, NULL, 'k'},
      {"retries", required_argument, NULL, 'r'},
      {"cpu-throttle", required_argument, NULL, 'x'},
      {"out", required_argument, NULL, 'o'},
      {"step-timeout", required_argument, NULL, 'T'},
      {"settle", required_argument, NULL, 's'},
      {"timeout", required_argument, NULL, 't'},
      {"chrome", required_argument, NULL, 'c'},
      {"browser-url", required_argument, NULL, 'b'},
      {"quiet", no_argument, NULL, 'q'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  struct cdp_opts co;
  cdp_opts_default(&co);
  struct ana_opts ao;
  ana_opts_default(&ao);
  const char *arg[2] = {NULL, NULL}, *outarg = NULL;
  unsigned pairs = 3, warmup = 1, retries = 1;
  double throttle = 0, step_timeout = 30000, settle = 500;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "qvh", opts, NULL)) != -1) {
    switch (c) {
    case 'O': arg[OLD] = optarg; break;
    case 'N': arg[NEW] = optarg; break;
    case 'p':
      if (!agent_parse_uint(optarg, &pairs) || !pairs || pairs > 100)
        return agent_usage_error(NULL, "--pairs wants 1 to 100, not '%s'",
                                 optarg);
      break;
    case 'w':
      if (!agent_parse_uint(optarg, &warmup) || warmup > 100)
        return agent_usage_error(NULL, "--warmup wants a count, not '%s'",
                                 optarg);
      break;
    case 'm':
      if (!agent_parse_ms(optarg, &ao.mu_ms) || ao.mu_ms <= 0)
        return agent_usage_error(NULL, "--mu wants milliseconds > 0, not "
                                 "'%s'", optarg);
      break;
    case 'k':
      if (!agent_parse_uint(optarg, &ao.quorum) || !ao.quorum)
        return agent_usage_error(NULL, "--quorum wants a count >= 1, not "
                                 "'%s'", optarg);
      break;
    case 'r':
      if (!agent_parse_uint(optarg, &retries) || retries > 20)
        return agent_usage_error(NULL, "--retries wants 0 to 20, not '%s'",
                                 optarg);
      break;
    case 'x':
      if (!agent_parse_ms(optarg, &throttle) || throttle < 1 || throttle > 100)
        return agent_usage_error(NULL, "--cpu-throttle wants a rate from 1 "
                                 "to 100, not '%s'", optarg);
      break;
    case 'o': outarg = optarg; break;
    case 'T':
      if (!agent_parse_ms(optarg, &step_timeout) || step_timeout < 1)
        return agent_usage_error(NULL, "--step-timeout wants milliseconds, "
                                 "not '%s'", optarg);
      break;
    case 's':
      if (!agent_parse_ms(optarg, &settle))
        return agent_usage_error(NULL, "--settle wants milliseconds, not "
                                 "'%s'", optarg);
      break;
    case 't':
      if (!agent_parse_ms(optarg, &co.timeout_ms) || co.timeout_ms < 1)
        return agent_usage_error(NULL, "--timeout wants milliseconds, not "
                                 "'%s'", optarg);
      break;
    case 'c': co.chrome = optarg; break;
    case 'b': co.browser_url = optarg; break;
    case 'q': zc_verbosity = 0; break;
    case 'v': zc_verbosity++; break;
    case 'h': fputs(run_usage, stdout); return 0;
    default: return agent_usage_error(NULL, "bad option");
    }
  }
  if (argc - optind != 1)
    return agent_usage_error(NULL, "give one SCENARIO, and --old and --new");
  if (!arg[OLD] || !arg[NEW])
    return agent_usage_error(NULL, "give both --old URL|DIR and --new URL|DIR");
  if (ao.quorum > pairs)
    return agent_usage_error(NULL, "--quorum %u is more than the %u pairs",
                             ao.quorum, pairs);
  if (co.chrome && co.browser_url)
    return agent_usage_error(NULL, "--chrome and --browser-url exclude each "
                             "other");
  struct scn_scenario *scn = NULL;
  if (scn_load(argv[optind], &scn)) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    return AGENT_EXIT_USAGE;
  }
  if (!co.browser_url) {
    char *chrome = cdp_find_chrome(co.chrome);
    if (!chrome) {
      fprintf(stderr, "zamcap: %s\n", zc_errmsg());
      scn_free(scn);
      return AGENT_EXIT_CAPTURE;
    }
    free(chrome);
  }

  double t0 = zc_now_ms();
  char *out = NULL, path[4096], logp[4200], faildir[4200];
  struct agent_server *srv[2] = {NULL, NULL};
  const char *base[2] = {NULL, NULL};
  struct cdp_browser *b = NULL;
  char *file[2][100];
  memset(file, 0, sizeof file);
  unsigned complete = 0, dropped = 0, causes = 0;
  int rc = AGENT_EXIT_CAPTURE;
  enum zc_err e = agent_outdir(outarg, &out);
  if (!e) {
    snprintf(path, sizeof path, "%s/traces", out);
    e = agent_mkdirs(path);
  }
  /* Each build on its own port: two origins, as two deployments are. */
  if (!e) e = agent_build_base("--old", arg[OLD], &srv[OLD], &base[OLD]);
  if (!e) e = agent_build_base("--new", arg[NEW], &srv[NEW], &base[NEW]);
  if (e) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    rc = e == ZC_E_USAGE || e == ZC_E_IO ? AGENT_EXIT_USAGE
                                         : AGENT_EXIT_INTERNAL;
    goto out;
  }
  snprintf(logp, sizeof logp, "%s/chrome.log", out);
  snprintf(faildir, sizeof faildir, "%s/failures", out);
  if (!co.browser_url) co.log_path = logp;
  if ((e = cdp_browser_start(&co, &b))) {
    fprintf(stderr, "zamcap: %s\n", zc_errmsg());
    rc = agent_exit_for(e);
    goto out;
  }
  zc_log(1, "%s; %s: %u pair%s, %u warm-up run%s per build", cdp_browser_version(b),
         scn->title[0] ? scn->title : argv[optind], pairs,
         pairs == 1 ? "" : "s", warmup, warmup == 1 ? "" : "s");
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
      snprintf(failname, sizeof failname, "warmup-%u-%s", w, side_name[sd]);
      ca.replay.fail_name = failname;
      if ((e = agent_capture(conn, &ca, NULL, &res))) {
        fprintf(stderr, "zamcap: warm-up on the %s build: %s\n",
                side_name[sd], zc_errmsg());
        rc = agent_exit_for(e);
        goto out;
      }
      zc_log(1, "warm-up %u/%u, %s build: %.1f s", w, warmup, side_name[sd],
             (zc_now_ms() - tr) / 1e3);
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
        e = agent_capture(conn, &ca, path, &res);
        if (!e) {
          file[sd][i - 1] = res.file;
          zc_log(1, "pair %u/%u, %s build: %.1f s (%.1f MB trace, settled "
                 "%.0f ms after the first traced step)", i, pairs,
                 side_name[sd], (zc_now_ms() - tr) / 1e3,
                 (double)res.bytes / 1e6, res.settled_ms);
          break;
        }
        if (e == ZC_E_INTERRUPTED) {
          fprintf(stderr, "zamcap: %s\n", zc_errmsg());
          rc = agent_exit_for(e);
          goto out;
        }
        zc_log(1, "pair %u/%u, %s build failed (try %u of %u): %s", i, pairs,
               side_name[sd], attempt + 1, retries + 1, zc_errmsg());
        if (attempt >= retries) {
          ok = 0;
          break;
        }
      }
    }
    if (ok) complete++;
    else {
      dropped++;
      zc_log(1, "pair %u dropped; its traces that were recorded stay in "
             "%s/traces/", i, out);
    }
  }
  cdp_browser_free(b);
  b = NULL;
  if (!complete) {
    fprintf(stderr, "zamcap: no pair was captured (see %s/failures/)\n", out);
    rc = AGENT_EXIT_CAPTURE;
    goto out;
  }
  {
    const char *of[100], *nf[100];
    unsigned n = 0;
    for (unsigned i = 0; i < pairs; i++)
      if (file[OLD][i] && file[NEW][i]) of[n] = file[OLD][i], nf[n++] = file[NEW][i];
    if (ao.quorum > n) ao.quorum = n;
    if ((e = agent_analyze(of, nf, n, &ao, 0, out, &causes))) {
      fprintf(stderr, "zamcap: %s\n", zc_errmsg());
      rc = AGENT_EXIT_USAGE;
      goto out;
    }
  }
  if (dropped)
    fprintf(stderr, "zamcap: capture incomplete: %u of %u pairs dropped "
            "(see %s/failures/); the report covers the other %u\n", dropped,
            pairs, out, complete);
  rc = dropped ? AGENT_EXIT_CAPTURE
       : causes ? AGENT_EXIT_FOUND
                : AGENT_EXIT_NONE;
  zc_log(1, "done in %.1f s; zamcap itself: %.1f s CPU, peak memory %.1f MB",
         (zc_now_ms() - t0) / 1e3, agent_cpu_ms() / 1e3, agent_peak_mb());
out:
  cdp_browser_free(b);
  agent_server_free(srv[OLD]);
  agent_server_free(srv[NEW]);
  rmdir(faildir); /* only when empty: nothing failed */
  for (int sd = 0; sd < 2; sd++)
    for (unsigned i = 0; i < pairs; i++) free(file[sd][i]);
  scn_free(scn);
  free(out);
  return rc;
}
