/* zamcap history: what the history holds, one regression per fingerprint,
 * printed from the history's queries (history/history.h). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "history.h"

/* One line of the history's text: every value in it came from a page, a
 * flow or the database (a function named after a string, a title, a
 * planted row), so the whole line goes to the terminal harmlessly. */
static void put_line(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static void put_line(const char *fmt, ...) {
  struct zc_buf b;
  zc_buf_init(&b, 1 << 20);
  va_list ap;
  va_start(ap, fmt);
  if (zc_buf_vprintf(&b, fmt, ap)) {
    /* at the ceiling the line is cut */
  }
  va_end(ap);
  zc_term_put(stdout, b.ptr ? b.ptr : "", b.len);
  putchar('\n');
  zc_buf_free(&b);
}

/* o's string k, "-" when it is none (a row the database let be NULL) */
static const char *sv(const cJSON *o, const char *k) {
  const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(o, k));
  return v ? v : "-";
}

static void print_text(const cJSON *doc) {
  const cJSON *regs = cJSON_GetObjectItem(doc, "regressions"), *g;
  int n = cJSON_GetArraySize(regs);
  printf("%.0f runs recorded; %d regression%s\n",
         cJSON_GetNumberValue(cJSON_GetObjectItem(doc, "runs")), n,
         n == 1 ? "" : "s");
  cJSON_ArrayForEach(g, regs) {
    const cJSON *d = cJSON_GetObjectItem(g, "deltas");
    double last = cJSON_GetNumberValue(cJSON_GetObjectItem(
        cJSON_GetArrayItem(d, cJSON_GetArraySize(d) - 1), "delta"));
    const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(g, "file"));
    const char *scn = cJSON_GetStringValue(cJSON_GetObjectItem(g, "scenario"));
    const char *issue = cJSON_GetStringValue(cJSON_GetObjectItem(g, "issue"));
    put_line(
        "%s  %-9s %4.0f night%s  %s .. %s  %+.1f %s  %s%s%s%s  [%s] %s%s%s",
        sv(g, "fingerprint"), sv(g, "state"),
        cJSON_GetNumberValue(cJSON_GetObjectItem(g, "nights")),
        cJSON_GetNumberValue(cJSON_GetObjectItem(g, "nights")) == 1 ? " " : "s",
        sv(g, "first_seen"), sv(g, "last_seen"), isnan(last) ? 0 : last,
        cJSON_IsString(cJSON_GetObjectItem(g, "unit"))
            ? cJSON_GetStringValue(cJSON_GetObjectItem(g, "unit"))
            : "ms",
        sv(g, "function"), file ? " (" : "", file ? file : "", file ? ")" : "",
        sv(g, "kind"), scn && scn[0] ? scn : "-", issue ? "  " : "",
        issue ? issue : "");
  }
}

/* --list-runs as text: one line per run. */
static void print_runs(const cJSON *runs) {
  const cJSON *r;
  cJSON_ArrayForEach(r, runs) {
    const char *nl = cJSON_GetStringValue(cJSON_GetObjectItem(r, "new_label"));
    const char *host = cJSON_GetStringValue(cJSON_GetObjectItem(r, "host"));
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(r, "verdict"));
    const char *dir =
        cJSON_GetStringValue(cJSON_GetObjectItem(r, "report_dir"));
    char line[8192];
    snprintf(
        line, sizeof line,
        "run %.0f  %s  %s  %s%s%s  %s, exit %.0f, %.0f cause%s  %s",
        cJSON_GetNumberValue(cJSON_GetObjectItem(r, "id")),
        cJSON_GetStringValue(cJSON_GetObjectItem(r, "at")), host ? host : "-",
        nl ? "new " : "", nl ? nl : "", nl ? "  " : "", v ? v : "-",
        cJSON_GetNumberValue(cJSON_GetObjectItem(r, "exit_code")),
        cJSON_GetNumberValue(cJSON_GetObjectItem(r, "causes")),
        cJSON_GetNumberValue(cJSON_GetObjectItem(r, "causes")) == 1 ? "" : "s",
        dir ? dir : "-");
    /* the scenario is a flow's title: text from a file, shown harmlessly */
    printf("  ");
    zc_term_put(stdout, line, SIZE_MAX);
    printf("  [");
    zc_term_put(stdout,
                cJSON_GetStringValue(cJSON_GetObjectItem(r, "scenario")),
                SIZE_MAX);
    printf("]\n");
  }
}

static int history_exec(const struct agent_args *a) {
  if (a->noperands > 1)
    return agent_usage_error("history", "history wants at most one SCENARIO");
  const char *fmt = a->history_format ? a->history_format : "text";
  if (strcmp(fmt, "text") && strcmp(fmt, "json"))
    return agent_usage_error("history", "--format wants text or json, not '%s'",
                             fmt);
  const char *scenario = a->noperands ? a->operands[0] : NULL;
  const char *spec = a->history ? a->history : "zamcap-out/history.db";
  struct agent_history *h = NULL;
  cJSON *doc = NULL;
  enum zc_err e = ZC_OK;
  e = agent_history_open_existing(spec, &h);
  if (!e)
    e = agent_history_query(h, scenario, a->since_days, a->recover_after, &doc);
  cJSON *runs = NULL;
  if (!e && a->list_runs &&
      !(e = agent_history_runs(h, scenario, a->since_days, &runs)))
    cJSON_AddItemToObject(doc, "run_list", runs);
  agent_history_close(h);
  if (e) {
    zc_error("%s", zc_errmsg());
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  if (!strcmp(fmt, "json")) {
    char *s = cJSON_Print(doc);
    zc_scrub(s);
    puts(s);
    free(s);
  } else {
    print_text(doc);
    if (runs) print_runs(runs);
  }
  cJSON_Delete(doc);
  return 0;
}

const struct agent_cmd agent_cmd_history = {
    .name = "history",
    .bit = AGENT_HISTORY,
    .usage = "usage: zamcap history [SCENARIO] [OPTIONS]",
    .about = "What the history holds: how many runs are recorded and one "
             "regression\nper fingerprint (the scenario, the function and "
             "its file, the top-level\nfunction of its path, the kind), with "
             "the nights it was a cause in,\nits change (delta) on each, and "
             "whether it is open or recovered.\nSCENARIO (a flow's title) "
             "keeps only its runs.\n",
    .after = NULL,
    .exec = history_exec,
};
