/* The tracker: one issue per regression (--tracker KIND:WHERE). After a
 * run is in the history, each of its causes' fingerprints is filed as a
 * new issue (title: function, scenario, change; body: summary.md; the
 * report attached where the tracker takes files), or commented on when it
 * has one; a fingerprint not seen in its scenario's last K runs gets a
 * "recovered" comment (and is closed with --close-recovered), and one
 * that comes back is reopened. GitHub, GitLab, Jira and Redmine, through
 * their documented REST APIs.
 *
 * The history decides who files: a fingerprint's row is claimed with one
 * conditional UPDATE (its state from none to "filing") before anything is
 * sent, so of two processes that see it at once one files and the other
 * comments once the issue is there; tracker_log's unique (fingerprint,
 * run, action) keeps a retried night from commenting twice.
 *
 * Ownership: arguments are borrowed. */
#ifndef AGENT_TRACKER_H
#define AGENT_TRACKER_H

#include <stddef.h>

#include "cli.h"

struct agent_history;
struct agent_tracker_ops; /* one per tracker (tracker-int.h) */

struct agent_tracker {
  const struct agent_tracker_ops *ops;
  char spec[300];    /* KIND:WHERE as given */
  char where[256];   /* OWNER/REPO, GROUP/PROJECT, KEY, PROJECT */
  char api[1024];    /* the API's base URL, without a trailing '/' */
  const char *token; /* ZAMCAP_TRACKER_TOKEN; NULL in a dry run */
  int dry_run, close_recovered;
  unsigned recover_after;
  unsigned attempts; /* per request, with 429 and 5xx retried (5) */
  double backoff_s;  /* the first wait without Retry-After (1 s) */
  /* the retries' waits of this process in all, whatever Retry-After asks
   * (300 s): a night has other flows to run */
  double retry_budget_s;
};

/* The longest ZAMCAP_TRACKER_TOKEN taken (bytes). */
enum { AGENT_TRACKER_TOKEN_MAX = 4096 };

/* The tracker's kind as --tracker spells it ("gitlab"). */
const char *agent_tracker_kind(const struct agent_tracker *t);

/* Parses --tracker KIND:WHERE (and --tracker-url, NULL: the kind's
 * default, which Jira and Redmine do not have) into *t. Returns 1, or 0
 * with a one-line reason in why (cap bytes) fit to print after "zamcap: ". */
int agent_tracker_parse(const char *spec, const char *url,
                        struct agent_tracker *t, char *why, size_t cap);

/* The tracker options of a, checked before anything is captured: spec,
 * URL, a token in the environment unless a dry run, a history to record
 * in. Returns 1 with *t filled (a->tracker NULL: 1 and t->spec empty), or
 * 0 and why. */
int agent_tracker_from_args(const struct agent_args *a, struct agent_tracker *t,
                            char *why, size_t cap);

/* Files, comments, closes and reopens for the run run_id of h, whose
 * reports are in report_dir. Every action sent is recorded in the history
 * (regressions.issue, tracker_log); a dry run prints each on stdout and
 * changes nothing. On error zc_errmsg() names the tracker, the request and
 * the answer (ZC_E_IO); what was done before it stays done. */
enum zc_err agent_tracker_night(const struct agent_tracker *t,
                                struct agent_history *h, long long run_id,
                                const char *report_dir);

/* What run and compare call after agent_history_record: the night above
 * in the history the options name, when --tracker is given and the run
 * was recorded (run_id > 0). Returns the exit code: rc, or, when the
 * tracker failed, 3 in place of 0 (as --attach), 128 + the signal when
 * interrupted; the report stays where it is. */
int agent_tracker_after(const struct agent_args *a, const char *out,
                        long long run_id, int rc);

/* ZAMCAP_TRACKER_TOKEN, taken out of the environment the first time it is
 * asked for (zc_env_take): no child (Chrome, dot, a --build command, the
 * code of every commit bisected) inherits it. NULL when unset. */
const char *agent_tracker_token(void);

/* Registers ZAMCAP_TRACKER_TOKEN (as it is and in base64) and
 * --tracker-url's secrets when --tracker is given: no message, report or
 * output shows them. */
void agent_tracker_secrets(const struct agent_args *a);

#endif
