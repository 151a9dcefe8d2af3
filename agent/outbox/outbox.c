/* The outbox's options, checked and masked for the command line
 * (outbox.h). */
#include "outbox.h"

int agent_outbox_check(const char *cmd, const struct agent_args *a) {
  char why[512];
  if (a->attach && !agent_attach_url_ok(a->attach, why, sizeof why))
    return agent_usage_error(cmd, "%s", why);
  for (unsigned i = 0; i < a->nheaders; i++)
    if (!agent_attach_header_ok(a->headers[i], why, sizeof why))
      return agent_usage_error(cmd, "%s", why);
  if (a->nheaders && !a->attach)
    return agent_usage_error(cmd, "--attach-header without --attach URL");
  struct agent_tracker t;
  if (!agent_tracker_from_args(a, &t, why, sizeof why))
    return agent_usage_error(cmd, "%s", why);
  return 0;
}

void agent_outbox_secrets(const struct agent_args *a) {
  agent_url_secrets("--attach", a->attach);
  agent_tracker_secrets(a);
  for (unsigned i = 0; i < a->nheaders; i++)
    agent_attach_header_secrets(a->headers[i]);
}
