/* outbox: what leaves zamcap once the reports are written. attach.h
 * uploads the reports to any endpoint (--attach); tracker.h files one
 * issue per regression (--tracker). This header is what the command line
 * asks of them before anything is captured.
 *
 * Ownership: arguments are borrowed. */
#ifndef AGENT_OUTBOX_H
#define AGENT_OUTBOX_H

#include "attach.h"
#include "cli.h"
#include "tracker.h"

/* The outbox's options of a, checked before anything is captured:
 * --attach's URL, each --attach-header (and none without --attach), the
 * tracker's options. Returns 0, or 2 after printing the usage error for
 * command cmd (NULL: the main command). */
int agent_outbox_check(const char *cmd, const struct agent_args *a);

/* Registers the outbox's secrets, before anything is printed: --attach's
 * URL, every --attach-header's values and the tracker's token and URL. */
void agent_outbox_secrets(const struct agent_args *a);

#endif
