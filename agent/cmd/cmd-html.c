/* zamcap html OUT: report.html again from report.json. */
#include <stdio.h>

#include "ana.h"
#include "cmd.h"

static int html_exec(const struct agent_args *a) {
  if (a->noperands != 1)
    return agent_usage_error("html", "html wants one OUT folder");
  enum zc_err e = ana_write_html_from(a->operands[0]);
  if (e) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  printf("%s/report.html\n", a->operands[0]);
  return 0;
}

const struct agent_cmd agent_cmd_html = {
    .name = "html",
    .bit = AGENT_HTML,
    .usage = "usage: zamcap html OUT",
    .about = "Writes OUT/report.html again from OUT/report.json (and\n"
             "OUT/critical-graph.svg when there is one), e.g. after editing "
             "the\nreport or with a newer zamcap.\n",
    .after = NULL,
    .exec = html_exec,
};
