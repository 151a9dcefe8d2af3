/* After the reports (cmd.h): the history, the tracker, the upload, in
 * that order, for every command that compares. */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "histdb.h"
#include "history.h"
#include "outbox.h"
#include "session.h"
#include "zc-out.h"

void agent_args_secrets(const struct agent_args *a) {
  agent_args_url_secrets(a);
  agent_outbox_secrets(a);
}

int agent_history_check(const char *cmd, const struct agent_args *a) {
  if (a->history && agent_db_spec_check(a->history))
    return agent_usage_error(cmd, "%s", zc_errmsg());
  /* the tracker cannot work without its history: said before anything
   * runs rather than after the night */
  char *def = NULL;
  if (a->tracker && !a->history && !a->no_history && a->out &&
      !(def = agent_history_default(a->out)))
    return agent_usage_error(cmd, "--tracker: %s", zc_errmsg());
  free(def);
  return 0;
}

long long agent_record(const struct agent_args *a, const char *out,
                       const char *from, const char *command) {
  if (a->no_history) return 0;
  char *spec = a->history ? zc_xstrdup(a->history) : agent_history_default(out);
  if (!spec) {
    zc_log(0, "warning: %s; this run is not in the history", zc_errmsg());
    return 0;
  }
  int two = a->noperands == 2 && !strcmp(command, "compare");
  struct agent_history_meta m = {
      .command = command,
      .old_build = two    ? a->operands[0]
                   : from ? NULL
                          : a->old,
      .new_build = two    ? a->operands[1]
                   : from ? NULL
                          : a->new_,
      .old_label = a->old_label,
      .new_label = a->new_label,
  };
  /* report.json was written for the history when not asked for */
  long long id =
      agent_history_record(spec, out, from, &m, !!(a->formats & ANA_FMT_HTML),
                           !!(a->formats & ANA_FMT_JSON));
  free(spec);
  return id;
}

long long agent_record_bisect(const struct agent_args *a, const char *out,
                              const struct cJSON *doc) {
  if (a->no_history) return 0;
  char *spec = a->history ? zc_xstrdup(a->history) : agent_history_default(out);
  if (!spec) {
    zc_log(0, "warning: %s; this bisection is not in the history", zc_errmsg());
    return 0;
  }
  long long id = agent_history_record_bisect(spec, out, doc);
  free(spec);
  return id;
}

int agent_upload(const struct agent_args *a, const char *out, int rc) {
  if (!a->attach) return rc;
  enum zc_err e = agent_attach_stoppable(a->attach, a->headers, a->nheaders,
                                         out, &zc_interrupted);
  if (!e) return rc;
  zc_error("%s (the report stays in %s/)", zc_errmsg(), out);
  if (e == ZC_E_INTERRUPTED) return zc_exit_for(e, ZC_STAGE_CAPTURE);
  /* A failed upload turns "nothing found" into a failure (3), and never
   * hides a regression's exit code. */
  return rc == ZC_EXIT_NONE ? ZC_EXIT_CAPTURE : rc;
}

int agent_publish(struct agent_session *s, const struct agent_args *a, int rc) {
  const char *out = agent_session_out(s);
  long long id = agent_record(a, out, NULL, "run");
  rc = agent_tracker_after(a, out, id, rc);
  return agent_upload(a, out, rc);
}
