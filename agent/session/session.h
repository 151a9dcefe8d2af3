/* The session: the one sequence of a capture-and-compare that the main
 * command runs, and that bisection and nightly runs reuse. It checks the
 * scenario, makes the output folder, serves N builds (folders on ports of
 * their own, URLs as they are), finds their source maps, launches or
 * attaches to Chrome once, and then compares any two of the builds:
 * warm-ups, pairs (fixed or decided as they come), the analysis pair by
 * pair, the reports, the upload. Every traced run is kept by build
 * (cap_runs), for the comparisons after.
 *
 * Ownership: the args and builds are borrowed for the session's life. */
#ifndef AGENT_SESSION_H
#define AGENT_SESSION_H

#include "capture.h"
#include "cli.h"
#include "serve.h"

/* A build as the command line gives it. */
struct agent_build {
  const char *opt;  /* the option it came from, for messages: "--old" */
  const char *arg;  /* a URL or a folder */
  const char *name; /* its traces' and progress lines' name: "old" */
};

struct agent_session;

/* Loads the scenario, makes the output folder, serves the builds and
 * finds Chrome. Returns 0, or the exit code after printing the error.
 * With no operand, there is no scenario until agent_session_flow. */
int agent_session_open(const struct agent_args *a,
                       const struct agent_build *builds, unsigned n,
                       struct agent_session **out);
/* Moves the session on to another flow (run-all): a's scenario
 * (a->operands[0]) and output folder (a->out), the same builds served as
 * they were and the same Chrome (a fresh one with restart), no run kept
 * from the flow before: warm-ups again, traces from 1. a is borrowed from
 * then on. Returns 0, or the exit code after printing the error (the
 * scenario does not load: the session stays on the flow before). */
int agent_session_flow(struct agent_session *s, const struct agent_args *a,
                       int restart);
/* The scenario's title as the flow file gives it ("" for none; NULL
 * before a session with no operand has its first flow). */
const char *agent_session_title(const struct agent_session *s);
/* The output folder (zamcap-out/<timestamp>/ or --out). */
const char *agent_session_out(const struct agent_session *s);

/* Adds a build once the session is open (a commit just built); returns
 * its index, or -1 after printing why it cannot be served. */
int agent_session_add(struct agent_session *s, const struct agent_build *b);
/* Every run of the session so far, by build. */
const struct cap_runs *agent_session_runs(const struct agent_session *s);

/* Compares build ia (the older) with ib: Chrome started on first use, the
 * plan of pairs, the analysis of each pair as it comes (--pairs auto asks
 * it after each pair whether more are needed), then every report in out
 * (NULL: the session's folder). Returns the exit code; *reported when the
 * reports were written (some pairs may be missing). keep (may be NULL)
 * gets the comparison, for the caller to read and free. */
int agent_session_compare(struct agent_session *s, unsigned ia, unsigned ib,
                          const char *out, int *reported,
                          struct ana_cmp **keep);

/* A comparison with the session's options and source maps (ana_cmp_new's
 * expect and say). */
struct ana_cmp *agent_session_cmp(struct agent_session *s, unsigned expect,
                                  int say);
/* After each complete pair from min_pairs on, whether to go on (1) or stop
 * (0, *why saying why). */
typedef int agent_more_fn(void *arg, struct ana_cmp *c, const char **why);
/* Pairs of two builds, for a command that decides itself: pairs (the
 * most) and min_pairs, 0 for the args' (--pairs, --max-pairs); more, NULL
 * for the args' rule. */
struct agent_pairs {
  unsigned a, b;
  unsigned pairs, min_pairs;
  agent_more_fn *more;
  void *more_arg;
};
/* Runs the pairs, each complete pair added to cmp as it comes; no report.
 * *oc says what capture did. Returns the error (not printed) or ZC_OK. */
enum zc_err agent_session_pairs(struct agent_session *s,
                                const struct agent_pairs *p,
                                struct ana_cmp *cmp, struct cap_outcome *oc);

/* The closing line (time, CPU, memory); then everything let go. */
void agent_session_close(struct agent_session *s, int reported);

/* Loads a scenario and adds --origin's origins to the app's; on error
 * zc_errmsg() says why (ZC_E_USAGE). */
struct scn_scenario;
enum zc_err agent_load_scenario(const struct agent_args *a, const char *path,
                                struct scn_scenario **out);

/* Runs argv[0] (found on PATH) with argv, no shell, in dir (NULL: here),
 * with env ("NAME=value", or NULL) added to its environment, stdin on
 * /dev/null, in a process group of its own; its stdout into *out
 * (NUL-terminated, at most cap bytes kept; out NULL: stdout goes with
 * stderr), its stderr appended to log_path (NULL: dropped; never opened
 * through a link). *status is its exit code, 127 when it is not
 * installed, -1 when a signal ended it. Fails when the child could not be
 * set up or its log opened, and with ZC_E_INTERRUPTED when zc_interrupted
 * turns non-zero while it runs: its group is then ended (SIGTERM, SIGKILL
 * 2 s later) and waited for. A child started once zamcap was asked to
 * stop (cleanup) runs to its end. */
enum zc_err agent_exec(char *const argv[], const char *dir, const char *env,
                       const char *log_path, char **out, size_t cap,
                       int *status);

/* git diff -U0 from..to in repo, into *out (caller frees), spelled the
 * same whatever the user's git config: "+++ b/PATH" and "@@ ... +N,M @@"
 * lines. */
enum zc_err agent_git_diff(const char *repo, const char *from, const char *to,
                           char **out);

#endif
