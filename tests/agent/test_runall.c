/* zamcap run-all in headless Chromium, on the search demo: 6 variants of
 * its flow and one that does not parse, as 3 shards in 3 processes at
 * once writing one SQLite history. Each flow runs in exactly one shard,
 * the history holds each of them once, a shard's exit code is the worst
 * of its flows'; a bad --shard exits 2 before anything runs; a shard with
 * no flow exits 0; SIGTERM keeps the flows that finished and exits 143. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "histdb.h"
#include "test.h"

enum { NFLOWS = 6, NSHARDS = 3 };

/* The builds and the small plan every case uses. */
static const char *common(void) {
  static char s[9000];
  snprintf(s, sizeof s,
           "--old '%s' --new '%s' --pairs 1 --warmup 0 --settle 200 "
           "--format json",
           zt_demo("search/old"), zt_demo("search/new"));
  return s;
}

/* Writes the flows into dir: flow-<k>.json, variants of the search demo
 * (their own title; the odd ones without the hover step), and bad.json,
 * which does not parse. */
static void write_flows(const char *dir) {
  mkdir(dir, 0755);
  cJSON *doc = zt_json("%s", zt_demo("search.json"));
  if (!doc) return;
  for (int k = 0; k < NFLOWS; k++) {
    cJSON *v = cJSON_Duplicate(doc, 1);
    char title[64], path[4200];
    snprintf(title, sizeof title, "Search variant %d", k);
    cJSON_ReplaceItemInObject(v, "title", cJSON_CreateString(title));
    cJSON *steps = cJSON_GetObjectItem(v, "steps"), *st;
    int i = 0;
    cJSON_ArrayForEach(st, steps) {
      const char *t = cJSON_GetStringValue(cJSON_GetObjectItem(st, "type"));
      if (k % 2 && t && !strcmp(t, "hover")) break;
      i++;
    }
    if (i < cJSON_GetArraySize(steps)) cJSON_DeleteItemFromArray(steps, i);
    char *s = cJSON_Print(v);
    snprintf(path, sizeof path, "%s/flow-%d.json", dir, k);
    zt_write_str(path, s);
    free(s);
    cJSON_Delete(v);
  }
  cJSON_Delete(doc);
  char path[4200];
  snprintf(path, sizeof path, "%s/bad.json", dir);
  zt_write_str(path, "{\"title\": \"broken\", \"steps\": [");
}

/* The night's order of exit codes (README): 4, 2, 3, 1, 5, 0. */
static int worse(int a, int b) {
  static const int rank[] = {0, 3, 5, 4, 6, 2};
  int ra = a >= 0 && a <= 5 ? rank[a] : 7, rb = b >= 0 && b <= 5 ? rank[b] : 7;
  return ra >= rb ? a : b;
}

/* One shard's summary: its flows into seen[], checks of each, and its
 * exit code against the worst of its flows'. */
static void check_shard(const char *out, int rc, int seen[NFLOWS + 1]) {
  cJSON *sum = zt_json("%s/run-all.json", out);
  if (!sum) return;
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(sum, "schema")),
         "zamcap-run-all/1");
  ZT_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(sum, "exit_code")), rc);
  ZT_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(sum, "flows_given")),
         NFLOWS + 1);
  const cJSON *flows = cJSON_GetObjectItem(sum, "flows"), *f;
  /* 7 flows over 3 shards: 3, 2 and 2 */
  int n = cJSON_GetArraySize(flows);
  ZT_TRUE(n == 2 || n == 3);
  int worst = 0;
  cJSON_ArrayForEach(f, flows) {
    const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(f, "file"));
    int ec = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(f, "exit_code"));
    worst = worse(worst, ec);
    const char *base = file ? strrchr(file, '/') : NULL;
    base = base ? base + 1 : "";
    int k = -1;
    if (!strcmp(base, "bad.json")) {
      k = NFLOWS;
      ZT_INT(ec, 2);
      ZT_HAS(cJSON_GetStringValue(cJSON_GetObjectItem(f, "error")), "bad.json");
      ZT_TRUE(cJSON_IsNull(cJSON_GetObjectItem(f, "report_dir")));
    } else if (sscanf(base, "flow-%d.json", &k) == 1 && k >= 0 && k < NFLOWS) {
      ZT_TRUE(ec == 0 || ec == 1 || ec == 5);
      const char *dir =
          cJSON_GetStringValue(cJSON_GetObjectItem(f, "report_dir"));
      char p[8400], title[64];
      snprintf(p, sizeof p, "%s/%s", out, dir ? dir : "?");
      cJSON *rep = zt_json("%s/report.json", p);
      snprintf(title, sizeof title, "Search variant %d", k);
      ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(
                 cJSON_GetObjectItem(rep, "inputs"), "title")),
             title);
      ZT_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(
                 cJSON_GetObjectItem(rep, "verdict"), "exit_code")),
             ec);
      cJSON_Delete(rep);
    }
    if (ZT_TRUE(k >= 0)) seen[k]++;
  }
  ZT_INT(rc, worst);
  cJSON_Delete(sum);
}

/* The history the 3 shards wrote: each variant once, its report folder
 * its shard's. */
static void check_history(const char *db) {
  struct agent_db *h = NULL;
  if (!ZT_INT(agent_db_open(db, &h), ZC_OK)) return;
  struct agent_rows r;
  if (ZT_INT(agent_db_run(h,
                          "SELECT scenario, count(*), min(report_dir) FROM "
                          "runs GROUP BY scenario ORDER BY scenario",
                          0, NULL, &r),
             ZC_OK)) {
    ZT_INT(r.n, NFLOWS);
    for (size_t i = 0; i < r.n; i++) {
      char want[64], dir[64];
      snprintf(want, sizeof want, "Search variant %zu", i);
      snprintf(dir, sizeof dir, "/flow-%zu", i);
      ZT_STR(agent_rows_get(&r, i, 0), want);
      ZT_STR(agent_rows_get(&r, i, 1), "1");
      ZT_HAS(agent_rows_get(&r, i, 2), dir);
    }
    agent_rows_free(&r);
  }
  agent_db_close(h);
  /* zamcap history over it: the whole night */
  char *log = NULL;
  ZT_INT(zt_run_zamcap(&log,
                       "history --history '%s' --since 1 --list-runs --format "
                       "json",
                       db),
         0);
  cJSON *doc = log ? cJSON_Parse(log) : NULL, *run;
  ZT_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(doc, "runs")), NFLOWS);
  const cJSON *list = cJSON_GetObjectItem(doc, "run_list");
  ZT_INT(cJSON_GetArraySize(list), NFLOWS);
  int shards[NSHARDS + 1] = {0};
  cJSON_ArrayForEach(run, list) {
    const char *d =
        cJSON_GetStringValue(cJSON_GetObjectItem(run, "report_dir"));
    const char *o = d ? strstr(d, "/out-") : NULL;
    int s = o ? atoi(o + 5) : 0;
    if (ZT_TRUE(s >= 1 && s <= NSHARDS)) shards[s]++;
  }
  /* 6 variants after bad.json: 2 in each shard */
  for (int s = 1; s <= NSHARDS; s++)
    ZT_INT(shards[s], 2);
  cJSON_Delete(doc);
  free(log);
}

static void test_shards(void) {
  const char *dir = zt_tmp("night"), *db = zt_tmp("night.db");
  write_flows(dir);
  /* 3 processes at once, as 3 machines would: one shard each */
  char cmd[40000] = "", *p = cmd;
  for (int s = 1; s <= NSHARDS; s++)
    p += snprintf(p, sizeof cmd - (size_t)(p - cmd),
                  "('%s' run-all '%s'/*.json %s --history '%s' --shard %d/%d "
                  "--out '%s/out-%d' > '%s/out-%d.txt' 2> '%s/err-%d.txt'; "
                  "echo $? > '%s/rc-%d') & ",
                  zt_zamcap(), dir, common(), db, s, NSHARDS, dir, s, dir, s,
                  dir, s, dir, s);
  snprintf(p, sizeof cmd - (size_t)(p - cmd), "wait");
  ZT_INT(zt_sh(NULL, "%s", cmd), 0);
  int seen[NFLOWS + 1] = {0};
  for (int s = 1; s <= NSHARDS; s++) {
    char path[4200], *t;
    snprintf(path, sizeof path, "%s/rc-%d", dir, s);
    t = zt_read(path);
    int rc = t ? atoi(t) : -1;
    free(t);
    snprintf(path, sizeof path, "%s/err-%d.txt", dir, s);
    t = zt_read(path);
    ZT_HAS(t, "run-all: ");
    free(t);
    snprintf(path, sizeof path, "%s/out-%d.txt", dir, s);
    t = zt_read(path);
    ZT_HAS(t, "flows (shard ");
    free(t);
    snprintf(path, sizeof path, "%s/out-%d", dir, s);
    check_shard(path, rc, seen);
  }
  /* each flow in exactly one shard, the broken one reported */
  for (int k = 0; k <= NFLOWS; k++)
    ZT_INT(seen[k], 1);
  check_history(db);
}

static void test_bad_shard(void) {
  const char *dir = zt_tmp("bad-shard");
  write_flows(dir);
  static const char *const bad[] = {"0/3", "4/3",  "1/0", "3",
                                    "a/b", "1/3x", "-1/3"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *log = NULL, out[4200];
    snprintf(out, sizeof out, "%s/out-%zu", dir, i);
    int rc = zt_run_zamcap(&log,
                           "run-all '%s/flow-0.json' %s --shard '%s' "
                           "--out '%s' 2>&1",
                           dir, common(), bad[i], out);
    ZT_INT(rc, 2);
    ZT_HAS(log, "--shard wants I/N");
    ZT_HAS(log, bad[i]);
    ZT_TRUE(access(out, F_OK) != 0); /* nothing ran */
    free(log);
  }
}

/* More shards than flows: the last has none, and says so. */
static void test_empty_shard(void) {
  const char *dir = zt_tmp("empty-shard"), *out = zt_tmp("empty-out");
  write_flows(dir);
  char *log = NULL;
  int rc = zt_run_zamcap(&log,
                         "run-all '%s/flow-0.json' '%s/flow-1.json' %s "
                         "--no-history --shard 3/3 --out '%s'",
                         dir, dir, common(), out);
  ZT_INT(rc, 0);
  ZT_HAS(log, "run-all: 0 of 2 flows (shard 3/3), exit 0");
  free(log);
  cJSON *sum = zt_json("%s/run-all.json", out);
  ZT_INT(cJSON_GetArraySize(cJSON_GetObjectItem(sum, "flows")), 0);
  cJSON_Delete(sum);
}

/* A flow whose capture fails (a selector that never matches): its folder
 * keeps the screenshot, the next flow runs (in a fresh Chrome) and is
 * reported, and the night exits 3, above the other's 0, 1 or 5. The two
 * share a title, which run-all warns about. */
static void test_failed_capture(void) {
  const char *dir = zt_tmp("fail"), *out = zt_tmp("fail-out");
  write_flows(dir);
  char path[4200];
  cJSON *doc = zt_json("%s/flow-0.json", dir);
  if (!doc) return;
  /* the flow's click on the search box, on an element that is not there */
  cJSON *click = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "steps"), 3);
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(click, "type")), "click");
  cJSON_ReplaceItemInObject(click, "selectors",
                            cJSON_Parse("[[\"#no-such-element\"]]"));
  char *s = cJSON_Print(doc);
  snprintf(path, sizeof path, "%s/a-broken.json", dir);
  zt_write_str(path, s);
  free(s);
  cJSON_Delete(doc);
  char *log = NULL;
  int rc =
      zt_run_zamcap(&log,
                    "run-all '%s/a-broken.json' '%s/flow-0.json' %s "
                    "--retries 0 --step-timeout 1000 --no-history --out '%s' "
                    "2>&1",
                    dir, dir, common(), out);
  ZT_INT(rc, 3);
  ZT_HAS(log, "#no-such-element");
  /* it kept flow-0's title: one scenario in the history, said once */
  ZT_HAS(log, "flow-0.json has the title of");
  free(log);
  cJSON *sum = zt_json("%s/run-all.json", out);
  const cJSON *fl = cJSON_GetObjectItem(sum, "flows");
  const cJSON *bad = cJSON_GetArrayItem(fl, 0),
              *good = cJSON_GetArrayItem(fl, 1);
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(bad, "status")), "failed");
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(bad, "title")),
         "Search variant 0");
  ZT_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(bad, "exit_code")), 3);
  ZT_HAS(cJSON_GetStringValue(cJSON_GetObjectItem(bad, "error")),
         "#no-such-element");
  int ec = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(good, "exit_code"));
  ZT_TRUE(ec == 0 || ec == 1 || ec == 5);
  ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(good, "report_dir")),
         "flow-0");
  cJSON_Delete(sum);
  snprintf(path, sizeof path, "%s/a-broken/failures", out);
  ZT_TRUE(access(path, F_OK) == 0);
}

/* SIGTERM during the second flow: the first is kept, in the summary and
 * the history; the second is marked interrupted, the third not run. */
static void test_sigterm(void) {
  const char *dir = zt_tmp("term"), *out = zt_tmp("term-out");
  const char *db = zt_tmp("term.db"), *err = zt_tmp("term-err.txt");
  write_flows(dir);
  char cmd[12000];
  snprintf(cmd, sizeof cmd,
           "exec '%s' run-all '%s/flow-0.json' '%s/flow-1.json' "
           "'%s/flow-2.json' %s --history '%s' --out '%s' 2> '%s'",
           zt_zamcap(), dir, dir, dir, common(), db, out, err);
  FILE *so = NULL;
  int pid = zt_spawn(cmd, &so);
  if (!ZT_TRUE(pid > 0)) return;
  int started = 0;
  for (int i = 0; i < 1200 && !started; i++) {
    char *t = zt_read(err);
    const char *second = t ? strstr(t, "flow 2 of 3: ") : NULL;
    started = second && strstr(second, "pair 1/1"); /* a run of it done */
    free(t);
    if (!started) zc_sleep_ms(50);
  }
  int st = 0;
  if (started) kill(pid, SIGTERM);
  char buf[4096];
  while (so && fgets(buf, sizeof buf, so))
    ;
  if (so) fclose(so);
  if (!ZT_TRUE(started)) { /* the second flow never started: say why */
    zt_stop(pid);
    char *t = zt_read(err);
    fprintf(stderr, "%s", t ? t : "");
    free(t);
    return;
  }
  waitpid(pid, &st, 0);
  ZT_TRUE(WIFEXITED(st));
  ZT_INT(WEXITSTATUS(st), 143);
  ZT_INT(zt_group_alive(pid, 5000), 0); /* Chrome went with it */
  cJSON *sum = zt_json("%s/run-all.json", out);
  const cJSON *fl = cJSON_GetObjectItem(sum, "flows");
  ZT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(sum, "interrupted")));
  ZT_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(sum, "exit_code")), 143);
  static const char *const want[] = {NULL, "interrupted", "not run"};
  for (int k = 0; k < 3; k++) {
    const char *s = cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetArrayItem(fl, k), "status"));
    if (want[k])
      ZT_STR(s, want[k]);
    else
      ZT_TRUE(s && strcmp(s, "interrupted") && strcmp(s, "not run"));
  }
  cJSON_Delete(sum);
  char *log = NULL;
  ZT_INT(zt_run_zamcap(&log, "history --history '%s' --format json", db), 0);
  cJSON *doc = log ? cJSON_Parse(log) : NULL;
  ZT_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(doc, "runs")), 1);
  cJSON_Delete(doc);
  free(log);
}

/* --history's password is masked from start-up on, also when no flow
 * opened the history (issue 38: an empty shard, or flows that do not
 * parse, left it in clear in run-all.json). */
static void test_history_secret(void) {
  const char *dir = zt_tmp("hsecret"), *out = zt_tmp("hsecret-out");
  write_flows(dir);
  char *log = NULL;
  int rc = zt_sh(&log,
                 "'%s' run-all '%s/flow-0.json' '%s/bad.json' %s --shard 1/2 "
                 "--history 'postgresql://night:pg-pw-4471@127.0.0.1:9/zc' "
                 "--out '%s' 2>&1",
                 zt_zamcap(), dir, dir, common(), out);
  if (rc == 3 && log && strstr(log, "Chrome")) {
    zt_skip("no Chrome to run");
    free(log);
    return;
  }
  ZT_INT(rc, 2); /* bad.json, the shard's one flow, does not parse */
  ZT_TRUE(log && !strstr(log, "pg-pw-4471"));
  free(log);
  char p[4300];
  static const char *const files[] = {"run-all.json", "run-all.md"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(p, sizeof p, "%s/%s", out, files[i]);
    char *t = zt_read(p);
    ZT_TRUE(t != NULL);
    ZT_TRUE(t && !strstr(t, "pg-pw-4471"));
    if (i == 0) ZT_HAS(t ? t : "", "postgresql://****************@127");
    free(t);
  }
}

/* Flows whose folder names meet: a/x.json, b/x.json, x-2.json, and one
 * named like run-all's own file: each its own folder, the same on every
 * shard (issue 38: two flows got x-2/, the later one overwriting the
 * earlier's reports, and the history pointed both at one folder). No
 * browser: --chrome /bin/false fails each flow's capture, which still
 * makes its folder. */
static void test_folder_names(void) {
  const char *dir = zt_tmp("names"), *out = zt_tmp("names-out");
  char *s = zt_read(zt_demo("search.json"));
  zt_sh(NULL, "rm -rf '%s' '%s' && mkdir -p '%s/a' '%s/b'", dir, out, dir, dir);
  static const char *const files[] = {"a/x.json", "b/x.json", "x-2.json",
                                      "chrome.log.json"};
  char list[20000] = "", p[4300];
  for (size_t i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, files[i]);
    zt_write_str(p, s ? s : "");
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, " '%s'", p);
  }
  free(s);
  ZT_INT(zt_sh(NULL,
               "'%s' run-all%s %s --chrome /bin/false --no-history --out '%s' "
               ">/dev/null 2>&1",
               zt_zamcap(), list, common(), out),
         3);
  cJSON *sum = zt_json("%s/run-all.json", out);
  const cJSON *f;
  const char *want[] = {"x-1", "x-2-2", "chrome.log-3", "x-2"};
  int k = 0;
  cJSON_ArrayForEach(f, cJSON_GetObjectItem(sum, "flows")) {
    const char *d = cJSON_GetStringValue(cJSON_GetObjectItem(f, "report_dir"));
    if (k < 4) ZT_STR(d, want[k]);
    k++;
  }
  ZT_INT(k, 4);
  cJSON_Delete(sum);
  /* shard 2/2 alone names its flows as the whole night does */
  zt_sh(NULL, "rm -rf '%s'", out);
  zt_sh(NULL,
        "'%s' run-all%s %s --chrome /bin/false --no-history --shard 2/2 "
        "--out '%s' >/dev/null 2>&1",
        zt_zamcap(), list, common(), out);
  sum = zt_json("%s/run-all.json", out);
  const char *want2[] = {"x-2-2", "x-2"};
  k = 0;
  cJSON_ArrayForEach(f, cJSON_GetObjectItem(sum, "flows")) {
    if (k < 2)
      ZT_STR(cJSON_GetStringValue(cJSON_GetObjectItem(f, "report_dir")),
             want2[k]);
    k++;
  }
  ZT_INT(k, 2);
  cJSON_Delete(sum);
}

/* The pipes of a Markdown table row that split it (GFM: a pipe after an
 * even run of backslashes). */
static int row_pipes(const char *l, size_t n) {
  int pipes = 0;
  size_t bs = 0;
  for (size_t i = 0; i < n; i++) {
    if (l[i] == '|' && bs % 2 == 0) pipes++;
    bs = l[i] == '\\' ? bs + 1 : 0;
  }
  return pipes;
}

/* run-all.md quotes a flow's title as a code span in its cell: a link, an
 * image, HTML, an @mention, pipes after backslashes and backticks neither
 * render nor break the row (issue 38, Low: only | and line breaks were
 * escaped). */
static void test_md_title(void) {
  const char *dir = zt_tmp("mdt"), *out = zt_tmp("mdt-out");
  char *s = zt_read(zt_demo("search.json"));
  cJSON *doc = s ? cJSON_Parse(s) : NULL;
  free(s);
  if (!ZT_TRUE(doc != NULL)) return;
  static const char title[] = "![x](http://evil.example/p.png) @org/team "
                              "<img src=x onerror=alert(1)> a|b c\\|d "
                              "e\\\\|f ``g`` [l](javascript:x)";
  cJSON_ReplaceItemInObject(doc, "title", cJSON_CreateString(title));
  char *txt = cJSON_Print(doc), p[4300];
  cJSON_Delete(doc);
  zt_sh(NULL, "rm -rf '%s' '%s' && mkdir -p '%s'", dir, out, dir);
  snprintf(p, sizeof p, "%s/hostile.json", dir);
  zt_write_str(p, txt);
  free(txt);
  zt_sh(NULL,
        "'%s' run-all '%s' %s --chrome /bin/false --no-history --out '%s' "
        ">/dev/null 2>&1",
        zt_zamcap(), p, common(), out);
  snprintf(p, sizeof p, "%s/run-all.md", out);
  char *md = zt_read(p);
  const char *row = md ? strstr(md, "\n| `") : NULL;
  if (!ZT_TRUE(row != NULL)) {
    free(md);
    return;
  }
  row++;
  size_t n = strcspn(row, "\n");
  ZT_INT(row_pipes(row, n), 7);
  /* the title's cell: one code span, fenced by three backticks */
  const char *cell = strstr(row, "| ``` ![x](");
  ZT_TRUE(cell != NULL && cell < row + n);
  ZT_TRUE(cell && strstr(cell, "[l](javascript:x) ``` |") != NULL);
  free(md);
}

int main(int argc, char **argv) {
  zt_need_chrome();
  static const struct zt_case cases[] = {
      {"md_title", test_md_title},
      {"folder_names", test_folder_names},
      {"history_secret", test_history_secret},
      {"bad_shard", test_bad_shard},
      {"empty_shard", test_empty_shard},
      {"shards", test_shards},
      {"failed_capture", test_failed_capture},
      {"sigterm", test_sigterm},
  };
  return ZT_RUN(cases, argc, argv);
}
