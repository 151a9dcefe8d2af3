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
};
struct agent_capture_result {
  char *file; /* the trace (caller frees), NULL untraced */
  uint64_t bytes;
  double settled_ms; /* first traced step to settled */
  double work_ms;    /* the browser's work: replaying the steps and
                        settling, without contexts and traces */
};
/* spare (may be NULL): a page opened ahead for the next run with the
 * same options. The run takes *spare if set, and when it traces, opens the
 * next one while Chrome flushes the trace; the caller closes what is left
 * with cdp_page_close. */
enum zc_err agent_capture(struct cdp_conn *conn,
                          const struct agent_capture_opts *o,
                          const char *trace_base,
                          struct agent_capture_result *res,
                          struct cdp_page **spare);
double agent_cpu_ms(void);  /* this process's CPU time */
double agent_peak_mb(void); /* its peak RSS */

#endif
