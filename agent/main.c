/* zamcap: which function made the web app slower. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdp.h"
#include "cmd.h"

/* The first SIGINT, SIGTERM, SIGHUP (the terminal closed, an ssh session
 * dropped) or SIGQUIT asks every wait to stop, so that the normal
 * path ends Chrome and removes its profile; a second one ends Chrome
 * and the children's process groups at once and exits. */
static void on_signal(int sig) {
  if (zc_interrupted) {
    cdp_kill_all_now();
    zc_children_kill(); /* a --build, dot, git: none left orphaned */
    _exit(128 + sig);
  }
  zc_interrupted = sig;
}

static const char usage[] =
    "usage: zamcap SCENARIO --old URL|DIR --new URL|DIR [OPTIONS]\n"
    "       zamcap COMMAND [OPTIONS]\n"
    "\n"
    "The first form replays a DevTools Recorder scenario on both builds in\n"
    "interleaved pairs and names the functions that got slower ('zamcap\n"
    "run --help' tells more).\n"
    "\n"
    "Commands:\n"
    "  run-all FLOW.json... --old URL|DIR --new URL|DIR [--shard I/N]\n"
    "                            many flows, one summary (a night's share)\n"
    "  compare OLD_DIR NEW_DIR   compare saved traces of two builds (ZAM)\n"
    "  record --url URL          record traced runs of a page in Chrome\n"
    "  tree TRACE                print one trace's pruned call tree and its\n"
    "                            end-to-end figures\n"
    "  html OUT                  write OUT/report.html again from report.json\n"
    "  check SCENARIO            validate a scenario and show what it runs\n"
    "  bisect SCENARIO --builds B0 ... Bn | --git GOOD..BAD --build CMD\n"
    "                            find the build or commit that made it slower\n"
    "  history [SCENARIO]        the regressions recorded night after night\n"
    "  dashboard --out DIR       a static site of the history: a page per\n"
    "                            scenario, its series and regressions\n"
    "\n"
    "Options for every command: -h/--help, -q (quiet), -v (verbose).\n"
    "'zamcap COMMAND --help' describes a command. zamcap --version prints\n"
    "the version.\n"
    "\n";

/* The usage, then the exit codes from the one exit table (exits.c). */
static void print_usage(FILE *f) {
  fputs(usage, f);
  agent_exit_help(f, NULL);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stderr);
    return ZC_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
    print_usage(stdout);
    return 0;
  }
  if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
    printf("zamcap %s (commit %s)\n", ZAMCAP_VERSION, zc_commit);
    return 0;
  }
  /* Secrets the environment gives are taken out of it before any child
   * can start: Chrome, dot, git, and every --build command (the code of
   * each commit bisected) would inherit them. */
  zc_env_take("ZAMCAP_TRACKER_TOKEN");
  zc_env_take("PGPASSWORD");
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sigaction(SIGQUIT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  /* A command's name wins over a file of that name in the working folder
   * ('zamcap run tree' runs a scenario called tree); anything else that
   * names a file is the main command's SCENARIO. */
  const struct agent_cmd *c = NULL;
  for (size_t i = 0; agent_cmds[i] && !c; i++)
    if (!strcmp(name, agent_cmds[i]->name)) c = agent_cmds[i];
  if (c)
    argc--, argv++;
  else if (name[0] != '-' && access(name, F_OK) == 0)
    c = &agent_cmd_run;
  if (!c) {
    zc_error("unknown command '%s'", name);
    fputs("try 'zamcap --help'\n", stderr);
    return ZC_EXIT_USAGE;
  }
  struct agent_args a;
  agent_args_init(&a);
  int rc = agent_getopt(c, argc, argv, &a);
  if (rc >= 0) return rc;
  /* Before anything is printed: every command's output is masked. */
  agent_args_secrets(&a);
  agent_mask_stdout();
  if ((rc = agent_history_check(c->name, &a))) return rc;
  rc = c->exec(&a);
  /* Asked to stop: 128 + the signal, whatever step the command was at
   * when it saw it (a tracker's retry, a build, the reports). */
  return zc_interrupted ? 128 + zc_interrupted : rc;
}
