/* zamcap dashboard: a static site drawn from the history, a page per
 * scenario (cmd/dashboard/ writes it), from the history's reads
 * (history.h: the scenarios, their series, regressions and
 * bisections). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "dashboard.h"
#include "history.h"

/* Whether the operands (none: every scenario) name scenario. */
static int wanted(const struct agent_args *a, const char *scenario) {
  for (int i = 0; i < a->noperands; i++)
    if (!strcmp(a->operands[i], scenario)) return 1;
  return a->noperands == 0;
}

/* The regressions of scenario among all of them, by reference. */
static cJSON *regs_of(const cJSON *all, const char *scenario) {
  cJSON *arr = cJSON_CreateArray();
  const cJSON *g;
  cJSON_ArrayForEach(g, all) {
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(g, "scenario"));
    if (s && !strcmp(s, scenario))
      cJSON_AddItemReferenceToArray(arr, (cJSON *)g);
  }
  return arr;
}

/* One scenario's page. */
static enum zc_err one(struct agent_history *h, struct agent_dash *d,
                       const struct agent_args *a, const char *scenario,
                       const cJSON *regs) {
  cJSON *series = NULL, *bisects = NULL, *mine = NULL;
  enum zc_err e = agent_history_series(h, scenario, a->since_days, &series);
  if (!e) e = agent_history_bisects(h, scenario, a->since_days, &bisects);
  if (!e) {
    mine = regs_of(regs, scenario);
    e = agent_dash_scenario(d, series, mine, bisects);
  }
  cJSON_Delete(mine);
  cJSON_Delete(series);
  cJSON_Delete(bisects);
  return e;
}

/* Every scenario the operands want; *pages and *runs count them. */
static enum zc_err pages(struct agent_history *h, struct agent_dash *d,
                         const struct agent_args *a, size_t *npages,
                         double *nruns) {
  cJSON *scns = NULL, *q = NULL;
  enum zc_err e = agent_history_scenarios(h, a->since_days, &scns);
  if (!e) e = agent_history_query(h, NULL, a->since_days, a->recover_after, &q);
  const cJSON *s, *all = e ? NULL : scns;
  cJSON_ArrayForEach(s, all) {
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(s, "scenario"));
    if (!name || !wanted(a, name)) continue;
    if ((e = one(h, d, a, name, cJSON_GetObjectItem(q, "regressions")))) break;
    (*npages)++;
    *nruns += cJSON_GetNumberValue(cJSON_GetObjectItem(s, "runs"));
  }
  /* a scenario asked for by name that has no run: said, not fatal */
  for (int i = 0; !e && i < a->noperands; i++) {
    int found = 0;
    cJSON_ArrayForEach(s, scns) {
      const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(s, "scenario"));
      found |= n && !strcmp(n, a->operands[i]);
    }
    if (!found)
      zc_log(0, "warning: scenario '%s' has no run in the history%s",
             a->operands[i], a->since_days > 0 ? " in those days" : "");
  }
  cJSON_Delete(scns);
  cJSON_Delete(q);
  return e;
}

static int dashboard_exec(const struct agent_args *a) {
  if (!a->out)
    return agent_usage_error("dashboard", "dashboard wants --out DIR");
  const char *spec = a->history ? a->history : "zamcap-out/history.db";
  double t0 = zc_now_ms(), nruns = 0;
  size_t npages = 0;
  struct agent_history *h = NULL;
  struct agent_dash *d = NULL;
  char *index = NULL;
  struct agent_dash_opts o = {.out = a->out,
                              .since_days = a->since_days,
                              .recover_after = a->recover_after};
  /* the history first: one that is refused leaves no site behind */
  enum zc_err e = agent_history_open_existing(spec, &h);
  if (!e) e = agent_dash_new(&o, &d);
  if (!e) e = pages(h, d, a, &npages, &nruns);
  if (!e) e = agent_dash_finish(d, &index);
  agent_history_close(h);
  agent_dash_free(d);
  if (e) {
    zc_error("%s", zc_errmsg());
    free(index);
    return zc_exit_for(e, ZC_STAGE_INPUT);
  }
  zc_log(1, "dashboard: %zu scenario%s, %.0f run%s, in %.0f ms", npages,
         npages == 1 ? "" : "s", nruns, nruns == 1 ? "" : "s",
         zc_now_ms() - t0);
  printf("%s\n", index);
  free(index);
  return 0;
}

const struct agent_cmd agent_cmd_dashboard = {
    .name = "dashboard",
    .bit = AGENT_DASHBOARD,
    .usage = "usage: zamcap dashboard --out DIR [--history DB] [--since DAYS] "
             "[SCENARIO...]",
    .about = "Writes a static site of the history into DIR: index.html, "
             "every scenario\nwith its last verdict, open regressions and a "
             "sparkline of its last 30\nruns' end-to-end time; and a page per "
             "scenario with the series of its\nend-to-end figures, web "
             "vitals and memory night by night, their 95 %\nintervals as a "
             "band, the runs that found a regression marked, a card\nper "
             "point (builds, host, Chrome, a relative link to the run's\n"
             "report.html), its regressions and its bisections. The pages "
             "fetch\nnothing and need no server. SCENARIO (a flow's title) "
             "keeps only\nthose.\n",
    .after = NULL,
    .exec = dashboard_exec,
};
