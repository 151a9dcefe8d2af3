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

#include "agent.h"

/* A build as the command line gives it. */
struct agent_build {
  const char *opt;  /* the option it came from, for messages: "--old" */
  const char *arg;  /* a URL or a folder */
  const char *name; /* its traces' and progress lines' name: "old" */
};

struct agent_session;

/* Loads the scenario, makes the output folder, serves the builds and
 * finds Chrome. Returns 0, or the exit code after printing the error. */
int agent_session_open(const struct agent_args *a,
                       const struct agent_build *builds, unsigned n,
                       struct agent_session **out);
/* The output folder (zamcap-out/<timestamp>/ or --out). */
const char *agent_session_out(const struct agent_session *s);

/* Compares build ia (the older) with ib: Chrome started on first use, the
 * plan of pairs, the analysis of each pair as it comes (--pairs auto asks
 * it after each pair whether more are needed), then every report in out
 * (NULL: the session's folder). Returns the exit code; *reported when the
 * reports were written (some pairs may be missing). */
int agent_session_compare(struct agent_session *s, unsigned ia, unsigned ib,
                          const char *out, int *reported);

/* --attach: uploads the reports in out; returns rc as the upload changes
 * it. */
int agent_session_upload(struct agent_session *s, const char *out, int rc);

/* The closing line (time, CPU, memory); then everything let go. */
void agent_session_close(struct agent_session *s, int reported);

#endif
