/* zamcap SCENARIO --old URL|DIR --new URL|DIR: the one command, the
 * command line around a session of two builds (session.h): check the
 * options, compare old with new, upload when asked. */
#include <stdio.h>

#include "cmd.h"
#include "outbox.h"
#include "session.h"
#include "zc-out.h"

int agent_run_check(const char *cmd, const struct agent_args *a) {
  int rc = agent_outbox_check(cmd, a);
  if (rc) return rc;
  if (!a->old || !a->new_)
    return agent_usage_error(cmd, "give both --old URL|DIR and --new URL|DIR");
  unsigned least = agent_pairs_span(a).least;
  if (a->ana.quorum > least)
    return agent_usage_error(cmd, "--quorum %u is more than the %u pairs%s",
                             a->ana.quorum, least,
                             a->pairs ? "" : " --pairs auto starts with");
  if (a->cdp.chrome && a->cdp.browser_url)
    return agent_usage_error(cmd, "--chrome and --browser-url exclude each "
                                  "other");
  return 0;
}

/* The options that need each other, checked before anything starts. */
static int check_args(const struct agent_args *a) {
  if (a->noperands != 1)
    return agent_usage_error(NULL, "give one SCENARIO, and --old and --new");
  return agent_run_check(NULL, a);
}

static int run_exec(const struct agent_args *a) {
  int rc = check_args(a);
  if (rc) return rc;
  const struct agent_build builds[2] = {
      {.opt = "--old", .arg = a->old, .name = ZC_OUT_OLD},
      {.opt = "--new", .arg = a->new_, .name = ZC_OUT_NEW},
  };
  struct agent_session *s = NULL;
  if ((rc = agent_session_open(a, builds, 2, &s))) return rc;
  int reported = 0;
  rc = agent_session_compare(s, 0, 1, NULL, &reported, NULL);
  if (reported) rc = agent_publish(s, a, rc);
  agent_session_close(s, reported);
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
    .after = NULL,
    .exec = run_exec,
};
