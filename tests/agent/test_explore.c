/* zamcap explore and --changes, end to end in headless Chromium: on the
 * explore demo (tests/agent/exploreapp: the new build is slower only for
 * a query of two words on a table of more than 800 rows), explore finds
 * that combination within a small budget and the worst input's report
 * names the slowed function; an A/A explore names nothing; a flow whose
 * click target exists for some inputs only records those as failed, with
 * their reason, and never counts them; bad parameters are one line and
 * exit 2. --changes ranks a release's changes on a git repository made
 * here (three releases): the slowed function's change first, its changed
 * caller below it, an unchanged slow function nowhere, a change never
 * run "not reached". No measured time is compared with a constant:
 * orderings, significance, names and what the pages guarantee.
 *
 * Budgets: the demo 24 traced runs, A/A 12, the tabs 16, the changes 3
 * pairs; about two minutes in all (docs/cmd/zamcap-explore.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "test.h"
#include "zc.h"

static const char *app(const char *f) {
  return zt_agent_app("exploreapp", f);
}

static const cJSON *get(const cJSON *o, const char *k) {
  return zt_jget(o, k);
}

static double num(const cJSON *o, const char *k) {
  return zt_jnum(o, k);
}

static const char *str(const cJSON *o, const char *k) {
  return zt_jstr(o, k);
}

/* What the demo's page makes slow, by construction: a query of two words
 * and more than 800 rows. */
static int slow_input(const cJSON *values) {
  return strchr(str(values, "query"), ' ') && num(values, "rows") > 800;
}

/* Whether report.json names fn among its regression-causes' paths. */
static int names(const cJSON *rep, const char *fn) {
  const cJSON *c, *p;
  cJSON_ArrayForEach(c, get(rep, "regression_causes")) {
    if (!strcmp(str(c, "name"), fn)) return 1;
    cJSON_ArrayForEach(
        p, get(c, "path")) if (cJSON_IsString(p) &&
                               !strcmp(p->valuestring, fn)) return 1;
  }
  return 0;
}

/* explore.json's own promises: candidates sorted by Δ, the failed last,
 * tried and runs within the budget. */
static void check_doc(const cJSON *doc, unsigned budget) {
  ZT_STR(str(doc, "schema"), "zamcap-explore/1");
  ZT_TRUE(num(doc, "runs") <= budget);
  const cJSON *c;
  double last = 1e300;
  int failed_seen = 0, n = 0;
  cJSON_ArrayForEach(c, get(doc, "candidates")) {
    n++;
    const cJSON *d = get(c, "delta_ms");
    if (!cJSON_IsNumber(d)) {
      failed_seen = 1;
      ZT_STR(str(c, "status"), "failed");
      continue;
    }
    ZT_TRUE(!failed_seen); /* no measured one after a failed one */
    ZT_TRUE(d->valuedouble <= last);
    last = d->valuedouble;
  }
  ZT_INT(n, (int)num(doc, "tried"));
}

static void test_finds_combination(void) {
  const char *out = zt_tmp("demo");
  char *log = NULL;
  int rc = zt_run_zamcap(&log,
                         "explore '%s' --old '%s' --new '%s' --budget 24 "
                         "--pairs 3 --counts 0 --out '%s' 2>&1",
                         app("explore.json"), app("old"), app("new"), out);
  ZT_INT(rc, 1);
  cJSON *doc = zt_json("%s/explore.json", out);
  check_doc(doc, 24);
  const cJSON *w = get(doc, "worst");
  /* the worst input is the combination, measured again; the comparison
   * there (its own pairs and stopping rule) decides it is slower, and the
   * verdict says so (three pairs' interval alone straddles 0 on a loaded
   * machine: seen at load 6 on 2 cores) */
  ZT_TRUE(slow_input(get(w, "values")));
  ZT_INT(cJSON_GetArraySize(get(w, "ci95")), 2);
  ZT_INT((int)num(w, "exit"), 1);
  ZT_TRUE(!strncmp(str(get(doc, "verdict"), "text"), "Slower: ", 8));
  /* the first candidate ranked is a slow one; every slow one measured
   * again lies above every other measured again */
  ZT_TRUE(
      slow_input(get(cJSON_GetArrayItem(get(doc, "candidates"), 0), "values")));
  const cJSON *c;
  double lo_slow = 1e300, hi_other = -1e300;
  cJSON_ArrayForEach(c, get(doc, "candidates")) {
    if (!cJSON_IsTrue(get(c, "measured_again"))) continue;
    double d = num(c, "delta_ms");
    if (slow_input(get(c, "values")))
      lo_slow = d < lo_slow ? d : lo_slow;
    else
      hi_other = d > hi_other ? d : hi_other;
  }
  ZT_TRUE(hi_other < lo_slow);
  /* the comparison at the worst input names the slowed functions */
  cJSON *rep = zt_json("%s/worst/report.json", out);
  ZT_STR(str(rep, "verdict.state"), "regression");
  ZT_TRUE(names(rep, "scoreProximity") || names(rep, "rankRelevance"));
  ZT_TRUE(get(get(rep, "inputs"), "parameters") != NULL);
  cJSON_Delete(rep);
  char p[4300];
  snprintf(p, sizeof p, "%s/report.html", out);
  char *html = zt_read(p);
  ZT_HAS(html, "<svg class=plot");
  ZT_HAS(html, "Δ against rows");
  ZT_HAS(html, "worst/report.html");
  free(html);
  snprintf(p, sizeof p, "%s/summary.md", out);
  char *md = zt_read(p);
  ZT_HAS(md, "The worst input: `query` = `");
  free(md);
  if (rc != 1) fprintf(stderr, "%s\n", log);
  cJSON_Delete(doc);
  free(log);
}

static void test_aa(void) {
  const char *out = zt_tmp("aa");
  char *log = NULL;
  int rc = zt_run_zamcap(&log,
                         "explore '%s' --old '%s' --new '%s' --budget 12 "
                         "--pairs 3 --counts 0 --out '%s' 2>&1",
                         app("explore.json"), app("old"), app("old"), out);
  ZT_TRUE(rc == 0 || rc == 5);
  cJSON *doc = zt_json("%s/explore.json", out);
  check_doc(doc, 12);
  /* no input exposes anything: the verdict says so */
  ZT_TRUE(!strncmp(str(get(doc, "verdict"), "text"),
                   rc ? "Undecided" : "No input was found slower", 9));
  cJSON *rep = zt_json("%s/worst/report.json", out);
  ZT_INT(cJSON_GetArraySize(get(rep, "regression_causes")), 0);
  ZT_INT(cJSON_GetArraySize(get(rep, "spread_causes")), 0);
  if (rc != 0 && rc != 5) fprintf(stderr, "%s\n", log);
  cJSON_Delete(rep);
  cJSON_Delete(doc);
  free(log);
}

/* tabs.json clicks #tab-{{tab}}: the page has #tab-all and #tab-sale, no
 * #tab-new. */
static void test_some_inputs_fail(void) {
  const char *out = zt_tmp("tabs");
  char *log = NULL;
  int rc = zt_run_zamcap(&log,
                         "explore '%s' --old '%s' --new '%s' --budget 16 "
                         "--pairs 2 --counts 0 --out '%s' 2>&1",
                         app("tabs.json"), app("old"), app("new"), out);
  ZT_TRUE(rc == 0 || rc == 1 || rc == 5);
  cJSON *doc = zt_json("%s/explore.json", out);
  check_doc(doc, 16);
  const cJSON *c;
  int failed = 0;
  cJSON_ArrayForEach(c, get(doc, "candidates")) {
    int is_new = !strcmp(str(get(c, "values"), "tab"), "new");
    ZT_INT(!strcmp(str(c, "status"), "failed"), is_new);
    if (!is_new) continue;
    failed++;
    ZT_HAS(str(c, "reason"), "#tab-new");
    ZT_TRUE(cJSON_IsNull(get(c, "delta_ms")));
  }
  ZT_TRUE(failed >= 1);
  ZT_INT((int)num(doc, "failed"), failed);
  ZT_TRUE(strcmp(str(get(get(doc, "worst"), "values"), "tab"), "new"));
  if (!failed) fprintf(stderr, "%s\n", log);
  cJSON_Delete(doc);
  free(log);
}

/* Bad parameters, flows and options: exit 2, one "zamcap:" line naming
 * what is wrong, before any server or browser. */
static void test_bad_inputs(void) {
  static const char *const cases[][3] = {
      {"{\"q\": {\"regex\": \"a+\"}}", "", "q: unknown type \"regex\""},
      {"{\"rows\": {\"int\": [2000, 10]}}", "",
       "rows: the range [2000, 10] is empty"},
      {"{\"q\": {\"choice\": [\"a\"]}}", "{{undefined}}",
       "{{undefined}} names no parameter (declared: q)"},
      {NULL, "", "declares no parameters to search: add \"zamcap\""},
      {"{\"q\": {\"choice\": [\"a\"]}}", "--param q=b",
       "--param q=b: not one of its 1 choices"},
      {"{\"q\": {\"choice\": [\"a\"]}}", "--objective fps",
       "--objective wants scripting, wall"},
      {"{\"q\": {\"choice\": [\"a\"]}}", "--changes r1",
       "--changes wants GOOD..BAD, not 'r1'"},
  };
  for (size_t i = 0; i < ZC_ARRAY_LEN(cases); i++) {
    char flow[2048], path[64];
    int opt = !strncmp(cases[i][1], "--", 2);
    snprintf(flow, sizeof flow,
             "{\"steps\": [{\"type\": \"navigate\", \"url\": \"/index.html\"},"
             " {\"type\": \"change\", \"value\": \"%s\", \"selectors\": "
             "[[\"#search\"]]}]%s%s%s}",
             opt ? "x" : cases[i][1],
             cases[i][0] ? ", \"zamcap\": "
                           "{\"parameters\": "
                         : "",
             cases[i][0] ? cases[i][0] : "", cases[i][0] ? "}" : "");
    snprintf(path, sizeof path, "bad-%zu.json", i);
    zt_write_str(zt_tmp(path), flow);
    char *log = NULL;
    int rc = zt_sh(&log, "'%s' explore '%s' --old '%s' --new '%s' %s 2>&1",
                   zt_zamcap(), zt_tmp(path), app("old"), app("new"),
                   opt ? cases[i][1] : "");
    ZT_INT(rc, 2);
    ZT_HAS(log, cases[i][2]);
    int lines = 0;
    for (const char *l = log; l && *l; l = strchr(l, '\n') + 1) {
      lines += !strncmp(l, "zamcap:", 7);
      if (!strchr(l, '\n')) break;
    }
    ZT_INT(lines, 1);
    ZT_TRUE(!strstr(log, "Chrome"));
    free(log);
  }
}

/* ---- --changes on a repository of three releases ---- */

/* app.js and README.md of a commit: r2 touches render (a comment),
 * formatDate and a top-level constant; slow makes filterRows call
 * normalize with 200 times the work (the regression); csv changes
 * exportCsv, which never runs, and the README. normalize and heavyStable
 * never change; heavyStable is slow in both builds. formatDate spins too,
 * the same in both: long enough to be sampled in every run (a function
 * no profile holds is "not reached"), its Δ near 0. */
static void write_app(const char *dir, int r2, int slow, int csv) {
  char js[4096], p[4200];
  snprintf(
      js, sizeof js,
      "// changes test app\n"
      "const VERSION = %d;\n"
      "function spin(units) {\n"
      "  let s = 0;\n"
      "  for (let i = 0; i < units * 100000; i++) s += Math.sqrt(i) %% 7;\n"
      "  return s;\n"
      "}\n"
      "function normalize(units) {\n"
      "  return spin(units);\n"
      "}\n"
      "function filterRows() {\n"
      "  return normalize(%d);\n"
      "}\n"
      "function formatDate(d) {\n"
      "  spin(20);\n"
      "  return %s + d;\n"
      "}\n"
      "function heavyStable() {\n"
      "  return spin(400);\n"
      "}\n"
      "function exportCsv(rows) {\n"
      "  return rows.join('%s');\n"
      "}\n"
      "function render() {\n"
      "%s"
      "  return filterRows() + heavyStable() + formatDate(VERSION).length;\n"
      "}\n"
      "document.getElementById('run').addEventListener('click', "
      "function onRun() {\n"
      "  const out = document.getElementById('out');\n"
      "  out.textContent = 'done ' + Math.round(render());\n"
      "  out.className = 'done';\n"
      "});\n",
      r2 ? 2 : 1, slow ? 400 : 2, r2 ? "'on '" : "'at '", csv ? ";" : ",",
      r2 ? "  // drawn in one pass since r2\n" : "");
  snprintf(p, sizeof p, "%s/app.js", dir);
  zt_write_str(p, js);
  snprintf(p, sizeof p, "%s/README.md", dir);
  zt_write_str(p, csv ? "# app\n\nRelease 3.\n" : "# app\n");
}

/* The repository: c0 (tag r1); c1 (tag r2); c2, the regression; c3,
 * exportCsv and the README (tag r3). sha[k] gets commit k's. */
static const char *make_repo(char sha[4][48]) {
  const char *repo = zt_tmp("repo");
  ZT_INT(zt_sh(NULL,
               "rm -rf '%s' && mkdir -p '%s' && cd '%s' && git init -q && "
               "git config user.email t@example.com && git config user.name "
               "t && cp '%s' .",
               repo, repo, repo, zt_agent_app("bisectapp", "index.html")),
         0);
  static const int r2[4] = {0, 1, 1, 1}, slow[4] = {0, 0, 1, 1},
                   csv[4] = {0, 0, 0, 1}, tag[4] = {1, 2, 0, 3};
  for (int k = 0; k < 4; k++) {
    write_app(repo, r2[k], slow[k], csv[k]);
    ZT_INT(zt_sh(NULL, "cd '%s' && git add -A && git commit -qm c%d", repo, k),
           0);
    if (tag[k]) zt_sh(NULL, "git -C '%s' tag r%d", repo, tag[k]);
    char *out = NULL;
    zt_sh(&out, "git -C '%s' rev-parse HEAD", repo);
    snprintf(sha[k], 48, "%.40s", out ? out : "");
    free(out);
  }
  return repo;
}

static const cJSON *change_named(const cJSON *a, const char *fn) {
  const cJSON *c;
  cJSON_ArrayForEach(c, a) if (!strcmp(str(c, "function"), fn)) return c;
  return NULL;
}

static int has_commit(const cJSON *c, const char *sha) {
  const cJSON *e;
  cJSON_ArrayForEach(
      e, get(c, "commits")) if (cJSON_IsString(e) &&
                                !strcmp(e->valuestring, sha)) return 1;
  return 0;
}

static void test_changes(void) {
  char sha[4][48];
  const char *repo = make_repo(sha);
  const char *old = zt_tmp("rel-old"), *new_ = zt_tmp("rel-new");
  const char *out = zt_tmp("changes");
  ZT_INT(zt_sh(NULL,
               "rm -rf '%s' '%s' && mkdir -p '%s' '%s' && git -C '%s' archive "
               "r1 | tar -x -C '%s' && git -C '%s' archive r3 | tar -x -C '%s'",
               old, new_, old, new_, repo, old, repo, new_),
         0);
  char *log = NULL;
  int rc = zt_run_zamcap(
      &log,
      "'%s' --old '%s' --new '%s' --changes r1..r3 --repo '%s' "
      "--pairs 3 --counts 0 --no-history --out '%s' 2>&1",
      zt_agent_app("bisectapp", "bisect.json"), old, new_, repo, out);
  ZT_INT(rc, 1);
  cJSON *rep = zt_json("%s/report.json", out);
  ZT_STR(str(rep, "changes_range"), "r1..r3");
  const cJSON *a = get(rep, "changes"), *first = cJSON_GetArrayItem(a, 0);
  /* the slowed function's change first, significant, its commit named */
  ZT_STR(str(first, "function"), "filterRows");
  ZT_TRUE(cJSON_IsTrue(get(first, "significant")));
  ZT_TRUE(has_commit(first, sha[2]));
  ZT_TRUE(!has_commit(first, sha[3]));
  /* its caller changed too, and ranks below it, filterRows nested */
  const cJSON *c, *r = change_named(a, "render");
  ZT_STR(str(r, "status"), "ranked");
  ZT_TRUE(num(r, "rank") > 1);
  ZT_TRUE(has_commit(r, sha[1]));
  int nested = 0;
  cJSON_ArrayForEach(c, get(r, "nested")) nested +=
      cJSON_IsString(c) && !strcmp(c->valuestring, "filterRows");
  ZT_INT(nested, 1);
  ZT_STR(str(change_named(a, "formatDate"), "status"), "ranked");
  /* never run: not reached, not ranked */
  const cJSON *x = change_named(a, "exportCsv");
  ZT_STR(str(x, "status"), "not reached");
  ZT_TRUE(cJSON_IsNull(get(x, "rank")));
  ZT_TRUE(has_commit(x, sha[3]));
  /* unchanged functions, however slow: never blamed */
  ZT_TRUE(change_named(a, "heavyStable") == NULL);
  ZT_TRUE(change_named(a, "normalize") == NULL);
  ZT_TRUE(change_named(a, "spin") == NULL);
  /* the README and the constant: outside functions */
  int readme = 0, top = 0;
  cJSON_ArrayForEach(c, a) {
    if (strcmp(str(c, "status"), "outside functions")) continue;
    readme += !strcmp(str(c, "file"), "README.md");
    top += !strcmp(str(c, "file"), "app.js");
  }
  ZT_INT(readme, 1);
  ZT_INT(top, 1);
  char p[4300];
  snprintf(p, sizeof p, "%s/summary.md", out);
  char *md = zt_read(p);
  ZT_HAS(md, "by their impact set's time");
  free(md);
  snprintf(p, sizeof p, "%s/report.html", out);
  char *html = zt_read(p);
  ZT_HAS(html, "<section id=\"changes\">");
  free(html);
  /* a bad range: one line, exit 2 */
  char *bad = NULL;
  ZT_INT(zt_sh(&bad,
               "'%s' '%s' --old '%s' --new '%s' --changes r1..nope --repo "
               "'%s' 2>&1",
               zt_zamcap(), zt_agent_app("bisectapp", "bisect.json"), old, new_,
               repo),
         2);
  ZT_HAS(bad, "--changes: nope is no commit of");
  ZT_TRUE(bad && !strncmp(bad, "zamcap: --changes", 17) &&
          !strstr(bad + 1, "zamcap:")); /* one line, before any server */
  if (rc != 1) fprintf(stderr, "%s\n", log);
  free(bad);
  cJSON_Delete(rep);
  free(log);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"bad_inputs", test_bad_inputs},
      {"finds_combination", test_finds_combination},
      {"aa", test_aa},
      {"some_inputs_fail", test_some_inputs_fail},
      {"changes", test_changes},
  };
  return ZT_RUN(cases, argc, argv);
}
