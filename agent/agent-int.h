/* Private to the zamcap command: capturing runs (record.c), shared by
 * record and the one command (run.c). */
#ifndef AGENT_INT_H
#define AGENT_INT_H

#include <stdint.h>

#include "agent.h"
#include "cdp.h"
#include "scn.h"

/* One run in a fresh browser context (record.c): the scenario's steps (or
 * just a navigation to base), traced from zamcap.recordFrom, until the
 * page settles; the trace goes to trace_base + ".json.gz" (or ".json"). */
struct agent_capture_opts {
  const struct scn_scenario *scn; /* NULL: navigate to base */
  const char *base;
  double settle_ms, timeout_ms;
  const char *categories; /* NULL: the default */
  int compress, trace;
  double cpu_throttle; /* > 1 slows the CPU that many times */
  struct scn_replay_opts replay;
  const char *next_base; /* the next run's build, for agent_spare */
};
struct agent_capture_result {
  char *file; /* the trace (caller frees), NULL untraced */
  uint64_t bytes;
  double settled_ms; /* first traced step to settled */
  double work_ms;    /* the browser's work: replaying the steps and
                        settling, without contexts and traces */
};
/* The next run's page, made ready while Chrome flushes this run's trace:
 * opened with the same options and, when o->next_base is set, its steps
 * before recordFrom replayed on that build. */
struct agent_spare {
  struct cdp_page *page; /* NULL: none; the caller closes what is left */
  const char *base;      /* the build its first steps ran on */
  double prefix_ms;
  int prefixed;
};
/* spare may be NULL. The run takes spare->page if there is one, and when
 * it traces, prepares the next. */
enum zc_err agent_capture(struct cdp_conn *conn,
                          const struct agent_capture_opts *o,
                          const char *trace_base,
                          struct agent_capture_result *res,
                          struct agent_spare *spare);
double agent_cpu_ms(void);  /* this process's CPU time */
double agent_peak_mb(void); /* its peak RSS */

#endif
