/* --tracker: one issue per regression. 30 scripted nights (two
 * regressions appear, persist, recover, return) against GitHub, GitLab and
 * Jira stand-ins (tracker_server.py, their documented APIs): exactly one
 * issue per regression, a comment for each recurrence and recovery,
 * closed and reopened with --close-recovered; a bad token (401), a
 * validation error (422), a rate limit (429 with Retry-After) and a 503;
 * a dry run; two processes that see one fingerprint at once (SQLite, and
 * a throwaway PostgreSQL: pgserver.sh) file one issue; the command line;
 * and a real Redmine from Debian (redmine.sh): an issue filed with the
 * report attached, commented on, and closed once recovered; and one
 * Redmine per text formatting (Textile, Markdown, CommonMark) that shows
 * a page's markup as text. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "histdb.h"
#include "history.h"
#include "test.h"
#include "tracker.h"

#define TOKEN "trk-s3cret-7781"

static char base[64];
static int srv = -1;

/* Starts tracker_server.py (args after the token: extra); its base URL
 * in base. */
static int server_start(const char *extra, int *pid, char *url, size_t cap) {
  char cmd[2048];
  FILE *out = NULL;
  snprintf(cmd, sizeof cmd,
           "exec python3 '%s/../agent/tracker_server.py' %s %s",
           getenv("ZC_DATA"), TOKEN, extra);
  *pid = zt_spawn(cmd, &out);
  char line[64] = "";
  if (*pid < 0 || !fgets(line, sizeof line, out)) return 0;
  snprintf(url, cap, "http://127.0.0.1:%d", atoi(line));
  return atoi(line) > 0;
}

static int server(void) {
  if (srv > 0) return 1;
  return server_start("", &srv, base, sizeof base);
}

/* The stand-in's state (GET /_state). */
static cJSON *state_of(const char *url) {
  char *out = NULL;
  zt_sh(&out, "curl -sf '%s/_state'", url);
  cJSON *j = cJSON_Parse(out ? out : "");
  free(out);
  return j;
}

static const cJSON *field(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The stand-in's issues of kind in where, in the order filed. */
static int issues_in(const cJSON *st, const char *kind, const char *where,
                     const cJSON *out[8]) {
  int n = 0;
  const cJSON *i;
  cJSON_ArrayForEach(i, field(field(st, "issues"), kind)) {
    if (n < 8 && !strcmp(cJSON_GetStringValue(field(i, "where")), where))
      out[n++] = i;
  }
  return n;
}

/* How many of the requests went to paths that end in tail. */
static int requests_to(const cJSON *st, const char *method, const char *tail) {
  int n = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, field(st, "requests")) {
    const char *m = cJSON_GetStringValue(cJSON_GetArrayItem(r, 0));
    const char *p = cJSON_GetStringValue(cJSON_GetArrayItem(r, 1));
    size_t l = strlen(p), t = strlen(tail);
    n += !strcmp(m, method) && l >= t && !strcmp(p + l - t, tail);
  }
  return n;
}

/* A cause of a night's report.json. */
static void cause(char *out, size_t cap, int rank, const char *name,
                  const char *file, int day, double delta) {
  size_t l = strlen(out);
  snprintf(out + l, cap - l,
           "%s{\"rank\": %d, \"name\": \"%s\", \"file\": \"/js/%s.%08x.js\", "
           "\"line\": 4, \"old_ms\": 1, \"new_ms\": %g, \"delta_ms\": %g, "
           "\"path\": [\"CrRendererMain\", \"main\", \"%s\"]}",
           l ? ", " : "", rank, name, file, (unsigned)day * 2654435761u,
           delta + 1, delta, name);
}

/* Night day of the flow "checkout": slowChecksum (delta a, none at 0)
 * and renderRows (b); bundles renamed every night. */
static cJSON *night(int day, double a, double b) {
  char causes[2048] = "", txt[4096];
  if (a > 0) cause(causes, sizeof causes, 1, "slowChecksum", "app", day, a);
  if (b > 0) cause(causes, sizeof causes, 2, "renderRows", "list", day, b);
  snprintf(txt, sizeof txt,
           "{\"zamcap_version\": \"0.1.0\", \"regression_causes\": [%s], "
           "\"spread_causes\": [], \"verdict\": {\"exit_code\": %d, "
           "\"state\": \"x\", \"pairs\": 3}, \"inputs\": {\"title\": "
           "\"checkout\"}}",
           causes, a > 0 || b > 0);
  return cJSON_Parse(txt);
}

static long long add_night(struct agent_history *h, int day, double a,
                           double b) {
  char at[32];
  snprintf(at, sizeof at, "2026-11-%02dT02:30:00Z", day);
  cJSON *doc = night(day, a, b);
  struct agent_history_meta m = {.command = "run", .recorded_at = at};
  long long id = 0;
  ZT_INT(agent_history_add(h, doc, &m, &id), ZC_OK);
  cJSON_Delete(doc);
  return id;
}

/* A report folder: summary.md with Markdown a page could have put there,
 * report.html, report.json. */
static const char *reports(void) {
  const char *dir = zt_tmp("rep");
  zt_sh(NULL, "mkdir -p '%s'", dir);
  zt_write_str(zt_tmp("rep/summary.md"),
               "### zamcap: 1 regression-cause\n\n| function | delta |\n|---|"
               "---|\n| `slowChecksum` | +101 ms |\n");
  zt_write_str(zt_tmp("rep/report.html"), "<!doctype html><p>report</p>\n");
  zt_write_str(zt_tmp("rep/report.json"), "{\"schema\": \"x\"}\n");
  return dir;
}

static struct agent_tracker tracker(const char *spec, const char *api,
                                    int close) {
  struct agent_tracker t;
  char why[256];
  if (!ZT_TRUE(agent_tracker_parse(spec, api, &t, why, sizeof why)))
    fprintf(stderr, "  %s\n", why);
  t.token = TOKEN;
  t.close_recovered = close;
  t.backoff_s = 0.2;
  return t;
}

static int count_has(const cJSON *arr, const char *needle) {
  int n = 0;
  const cJSON *c;
  cJSON_ArrayForEach(c, arr) {
    n += strstr(c->valuestring, needle) != NULL;
  }
  return n;
}

/* Nights 6-12 and 18-30 slowChecksum, 20-25 renderRows, recovered after 3
 * clean runs: two issues; slowChecksum's 6 + 12 recurrences, its recovery
 * (night 15) and return (18); renderRows' 5 and its recovery (28). */
static void thirty(const char *kind, const char *where, const char *api,
                   int close) {
  char spec[128], db[64];
  snprintf(spec, sizeof spec, "%s:%s", kind, where);
  snprintf(db, sizeof db, "%s.db", kind);
  unlink(zt_tmp(db));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp(db), &h), ZC_OK)) return;
  struct agent_tracker t = tracker(spec, api, close);
  const char *rep = reports();
  for (int day = 1; day <= 30; day++) {
    int on = (day >= 6 && day <= 12) || day >= 18;
    long long id =
        add_night(h, day, on ? 100 + day : 0, day >= 20 && day <= 25 ? 70 : 0);
    if (!ZT_INT(agent_tracker_night(&t, h, id, rep), ZC_OK))
      fprintf(stderr, "  night %d: %s\n", day, zc_errmsg());
  }
  cJSON *st = state_of(base), *doc = NULL;
  const cJSON *is[8];
  if (!ZT_INT(issues_in(st, kind, where, is), 2)) {
    cJSON_Delete(st);
    agent_history_close(h);
    return;
  }
  const cJSON *a = is[0], *b = is[1];
  ZT_HAS(cJSON_GetStringValue(field(a, "title")),
         "slowChecksum in checkout: +106.0 ms");
  ZT_HAS(cJSON_GetStringValue(field(b, "title")), "renderRows in checkout");
  ZT_HAS(cJSON_GetStringValue(field(a, "body")), "| `slowChecksum` |");
  ZT_INT(cJSON_GetArraySize(field(a, "comments")), 6 + 1 + 1 + 12);
  ZT_INT(count_has(field(a, "comments"), "Seen again"), 18);
  ZT_INT(count_has(field(a, "comments"), "Recovered"), 1);
  ZT_INT(count_has(field(a, "comments"), "Back in run 18"), 1);
  ZT_INT(cJSON_GetArraySize(field(b, "comments")), 5 + 1);
  ZT_INT(count_has(field(b, "comments"), "Recovered"), 1);
  ZT_INT(cJSON_GetArraySize(field(a, "events")), close ? 2 : 0);
  ZT_STR(cJSON_GetStringValue(field(a, "state")), "open");
  ZT_STR(cJSON_GetStringValue(field(b, "state")), close ? "closed" : "open");
  if (!strcmp(kind, "jira"))
    ZT_INT(count_has(field(a, "files"), "report.html"), 1 + 6 + 1 + 12);
  if (!strcmp(kind, "gitlab"))
    ZT_HAS(cJSON_GetStringValue(field(a, "body")), "[report.html](/uploads/");
  /* zamcap history names each regression's issue */
  ZT_INT(agent_history_query(h, "checkout", 0, 3, &doc), ZC_OK);
  const cJSON *g;
  int with = 0;
  cJSON_ArrayForEach(g, field(doc, "regressions")) {
    with += cJSON_IsString(field(g, "issue"));
  }
  ZT_INT(with, 2);
  cJSON_Delete(doc);
  cJSON_Delete(st);
  agent_history_close(h);
}

static void test_github(void) {
  if (ZT_TRUE(server())) thirty("github", "zc/app", base, 1);
}

static void test_gitlab(void) {
  char api[128];
  snprintf(api, sizeof api, "%s/api/v4", base);
  if (ZT_TRUE(server())) thirty("gitlab", "zc/web/app", api, 0);
}

static void test_jira(void) {
  char api[128];
  snprintf(api, sizeof api, "%s/jira/", base);
  if (ZT_TRUE(server())) thirty("jira", "ZC", api, 1);
}

/* Specs that parse and specs that do not, with the reason. */
static void test_parse(void) {
  struct agent_tracker t;
  char why[256];
  ZT_TRUE(agent_tracker_parse("github:zc/app", NULL, &t, why, sizeof why));
  ZT_STR(t.api, "https://api.github.com");
  ZT_STR(t.where, "zc/app");
  ZT_TRUE(agent_tracker_parse("gitlab:a/b/c", "https://git.example/api/v4/", &t,
                              why, sizeof why));
  ZT_STR(t.api, "https://git.example/api/v4");
  ZT_STR(agent_tracker_kind(&t), "gitlab");
  ZT_TRUE(agent_tracker_parse("jira:ZC2", "https://j.example", &t, why,
                              sizeof why));
  ZT_TRUE(agent_tracker_parse("redmine:web-app", "http://127.0.0.1:3000", &t,
                              why, sizeof why));
  static const char *const bad[][2] = {
      {"github:zc", "github:OWNER/REPO"},
      {"github:a/b/c", "github:OWNER/REPO"},
      {"gitlab:app", "gitlab:GROUP/PROJECT"},
      {"jira:zc", "jira:PROJECTKEY"},
      {"redmine:Web App", "redmine:PROJECT"},
      {"bugzilla:x", "--tracker wants"},
      {"github", "--tracker wants"},
      {"jira:ZC", "give --tracker-url"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ZT_TRUE(!agent_tracker_parse(bad[i][0], NULL, &t, why, sizeof why));
    ZT_HAS(why, bad[i][1]);
  }
  ZT_TRUE(!agent_tracker_parse("github:a/b", "ftp://x", &t, why, sizeof why));
  ZT_HAS(why, "--tracker-url");
}

/* The row of a fingerprint's issue state, for the failure cases. */
static void no_claim_left(struct agent_history *h) {
  struct agent_rows r;
  ZT_INT(agent_db_run(h->db,
                      "SELECT count(*) FROM regressions WHERE issue_state "
                      "IS NOT NULL",
                      0, NULL, &r),
         ZC_OK);
  ZT_STR(agent_rows_get(&r, 0, 0), "0");
  agent_rows_free(&r);
}

/* 401, 422: an error that names the request and the answer, nothing
 * claimed, no retry; 429 and 503 are retried; a later night files. */
static void test_failures(void) {
  if (!ZT_TRUE(server())) return;
  const char *rep = reports();
  unlink(zt_tmp("fail.db"));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp("fail.db"), &h), ZC_OK)) return;
  struct agent_tracker t = tracker("github:zc/tok", base, 0);
  t.token = "wrong-token-123";
  zc_secret_add(t.token, strlen(t.token));
  ZT_INT(agent_tracker_night(&t, h, add_night(h, 1, 90, 0), rep), ZC_E_IO);
  ZT_HAS(zc_errmsg(), "HTTP 401");
  ZT_HAS(zc_errmsg(), "Bad credentials");
  ZT_HAS(zc_errmsg(), "/repos/zc/tok/issues");
  ZT_TRUE(!strstr(zc_errmsg(), "wrong-token"));
  no_claim_left(h);
  t.token = TOKEN;
  ZT_INT(agent_tracker_night(&t, h, add_night(h, 2, 90, 0), rep), ZC_OK);
  cJSON *st = state_of(base);
  const cJSON *is[8];
  ZT_INT(issues_in(st, "github", "zc/tok", is), 1);
  ZT_INT(requests_to(st, "POST", "/repos/zc/tok/issues"), 2);
  cJSON_Delete(st);
  agent_history_close(h);

  static const char *const cases[][4] = {
      /* spec, api suffix, expected error ("" none), create path */
      {"github:zc/invalid", "", "HTTP 422", "/repos/zc/invalid/issues"},
      {"gitlab:zc/invalid", "/api/v4", "HTTP 422", "zc%2Finvalid/issues"},
      {"jira:INVALID", "/jira", "HTTP 400", "/rest/api/2/issue"},
      {"github:zc/ratelimited", "", "", "/repos/zc/ratelimited/issues"},
      {"gitlab:zc/flaky", "/api/v4", "", "zc%2Fflaky/issues"},
      /* a 500 may come after the issue was made: not sent again */
      {"github:zc/broken", "", "HTTP 500", "/repos/zc/broken/issues"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char api[128], db[32];
    snprintf(api, sizeof api, "%s%s", base, cases[i][1]);
    snprintf(db, sizeof db, "fail%zu.db", i);
    unlink(zt_tmp(db));
    if (!ZT_INT(agent_history_open(zt_tmp(db), &h), ZC_OK)) continue;
    t = tracker(cases[i][0], api, 0);
    cJSON *before = state_of(base);
    int n0 = requests_to(before, "POST", cases[i][3]);
    cJSON_Delete(before);
    enum zc_err e = agent_tracker_night(&t, h, add_night(h, 1, 90, 0), rep);
    st = state_of(base);
    int n = requests_to(st, "POST", cases[i][3]) - n0;
    cJSON_Delete(st);
    if (cases[i][2][0]) {
      ZT_INT(e, ZC_E_IO);
      ZT_HAS(zc_errmsg(), cases[i][2]);
      ZT_INT(n, 1); /* not retried */
      no_claim_left(h);
    } else {
      ZT_INT(e, ZC_OK);
      ZT_INT(n, 2); /* once refused, once filed */
    }
    agent_history_close(h);
  }
}

/* Jira refuses the attachments after the issue or comment went: an
 * error, but what went is recorded, and is not sent again. */
static void test_attach_refused(void) {
  if (!ZT_TRUE(server())) return;
  const char *rep = reports();
  unlink(zt_tmp("noatt.db"));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp("noatt.db"), &h), ZC_OK)) return;
  char api[128];
  snprintf(api, sizeof api, "%s/jira", base);
  struct agent_tracker t = tracker("jira:NOATTACH", api, 0);
  long long one = add_night(h, 1, 90, 0), two = add_night(h, 2, 95, 0);
  for (int k = 0; k < 2; k++) {
    ZT_INT(agent_tracker_night(&t, h, one, rep), k ? ZC_OK : ZC_E_IO);
    if (!k) ZT_HAS(zc_errmsg(), "HTTP 413");
    ZT_INT(agent_tracker_night(&t, h, two, rep), k ? ZC_OK : ZC_E_IO);
  }
  cJSON *st = state_of(base);
  const cJSON *is[8];
  if (ZT_INT(issues_in(st, "jira", "NOATTACH", is), 1))
    ZT_INT(cJSON_GetArraySize(field(is[0], "comments")), 1);
  cJSON_Delete(st);
  agent_history_close(h);
}

/* A night done again (a retried job, the same run): nothing is filed or
 * commented twice. */
static void test_again(void) {
  if (!ZT_TRUE(server())) return;
  const char *rep = reports();
  unlink(zt_tmp("again.db"));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp("again.db"), &h), ZC_OK)) return;
  struct agent_tracker t = tracker("gitlab:zc/again", base, 0);
  snprintf(t.api, sizeof t.api, "%s/api/v4", base);
  long long one = add_night(h, 1, 90, 0), two = add_night(h, 2, 95, 0);
  for (int k = 0; k < 2; k++) {
    ZT_INT(agent_tracker_night(&t, h, one, rep), ZC_OK);
    ZT_INT(agent_tracker_night(&t, h, two, rep), ZC_OK);
  }
  cJSON *st = state_of(base);
  const cJSON *is[8];
  if (ZT_INT(issues_in(st, "gitlab", "zc/again", is), 1))
    ZT_INT(cJSON_GetArraySize(field(is[0], "comments")), 1);
  cJSON_Delete(st);
  struct agent_rows r;
  ZT_INT(agent_db_run(h->db,
                      "SELECT action, run_id FROM tracker_log ORDER BY id", 0,
                      NULL, &r),
         ZC_OK);
  ZT_INT(r.n, 2);
  ZT_STR(agent_rows_get(&r, 0, 0), "filed");
  ZT_STR(agent_rows_get(&r, 1, 0), "comment");
  agent_rows_free(&r);
  /* another --tracker leaves the issue filed elsewhere alone */
  struct agent_tracker other = tracker("github:zc/again", base, 0);
  st = state_of(base);
  int before = cJSON_GetArraySize(field(st, "requests"));
  cJSON_Delete(st);
  ZT_INT(agent_tracker_night(&other, h, add_night(h, 3, 99, 0), rep), ZC_OK);
  st = state_of(base);
  ZT_INT(cJSON_GetArraySize(field(st, "requests")), before + 1);
  ZT_INT(issues_in(st, "github", "zc/again", is), 0);
  cJSON_Delete(st);
  agent_history_close(h);
}

/* stdout into a file while f runs. */
static char *stdout_of(void (*f)(void *), void *arg) {
  fflush(stdout);
  int saved = dup(1);
  FILE *o = fopen(zt_tmp("stdout.txt"), "w");
  dup2(fileno(o), 1);
  fclose(o);
  f(arg);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  return zt_read(zt_tmp("stdout.txt"));
}

struct dry {
  struct agent_tracker *t;
  struct agent_history *h;
  long long id;
  enum zc_err e;
};
static void dry_night(void *arg) {
  struct dry *d = arg;
  d->e = agent_tracker_night(d->t, d->h, d->id, zt_tmp("rep"));
}

/* A dry run says what it would file and comment, and sends nothing. */
static void test_dry_run(void) {
  if (!ZT_TRUE(server())) return;
  reports();
  unlink(zt_tmp("dry.db"));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp("dry.db"), &h), ZC_OK)) return;
  struct agent_tracker t = tracker("github:zc/dry", base, 0);
  ZT_INT(agent_tracker_night(&t, h, add_night(h, 1, 80, 0), zt_tmp("rep")),
         ZC_OK);
  t.dry_run = 1;
  t.token = NULL;
  cJSON *st = state_of(base);
  int before = cJSON_GetArraySize(field(st, "requests"));
  cJSON_Delete(st);
  struct dry d = {&t, h, add_night(h, 2, 85, 60), ZC_OK};
  char *out = stdout_of(dry_night, &d);
  ZT_INT(d.e, ZC_OK);
  ZT_HAS(out ? out : "", "tracker github:zc/dry: would file \"renderRows in "
                         "checkout: +60.0 ms slower\"");
  ZT_HAS(out ? out : "", "would comment on https://github.example/zc/dry/"
                         "issues/1: seen again, +85.0 ms");
  free(out);
  st = state_of(base);
  /* only this /_state itself */
  ZT_INT(cJSON_GetArraySize(field(st, "requests")), before + 1);
  cJSON_Delete(st);
  agent_history_close(h);
}

/* Two processes record a night with the same new regression and run the
 * tracker at the same moment (the stand-in takes a second to file): one
 * issue, and one comment from the process that lost. */
static void race(const char *db, const char *url) {
  char go[4200];
  snprintf(go, sizeof go, "%s", zt_tmp("race-go"));
  unlink(go);
  reports();
  pid_t kids[2];
  for (int w = 0; w < 2; w++) {
    if ((kids[w] = fork()) != 0) continue;
    struct agent_history *h = NULL;
    int bad = agent_history_open(db, &h) != ZC_OK;
    long long id = bad ? 0 : add_night(h, 1 + w, 120, 0);
    while (!bad && access(go, F_OK))
      nanosleep(&(struct timespec){0, 10000000}, NULL);
    struct agent_tracker t = tracker("github:zc/race", url, 0);
    if (!bad && agent_tracker_night(&t, h, id, zt_tmp("rep"))) bad = 1;
    if (bad) fprintf(stderr, "racer %d: %s\n", w, zc_errmsg());
    agent_history_close(h);
    _exit(bad);
  }
  nanosleep(&(struct timespec){0, 300000000}, NULL);
  zt_write_str(go, "go");
  for (int w = 0; w < 2; w++) {
    int st = -1;
    waitpid(kids[w], &st, 0);
    ZT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  cJSON *st = state_of(url);
  const cJSON *is[8];
  if (ZT_INT(issues_in(st, "github", "zc/race", is), 1)) {
    ZT_INT(cJSON_GetArraySize(field(is[0], "comments")), 1);
    ZT_HAS(
        cJSON_GetStringValue(cJSON_GetArrayItem(field(is[0], "comments"), 0)),
        "Seen again");
  }
  cJSON_Delete(st);
}

static void test_race_sqlite(void) {
  int pid = -1;
  char url[64];
  if (!ZT_TRUE(server_start("--delay-create 1", &pid, url, sizeof url))) return;
  const char *db = zt_tmp("race.db");
  unlink(db);
  struct agent_history *h = NULL;
  ZT_INT(agent_history_open(db, &h), ZC_OK);
  agent_history_close(h);
  race(db, url);
  zt_stop(pid);
}

static void test_race_postgres(void) {
  char tmpl[] = "/tmp/zc-pg-XXXXXX", *uri = NULL, script[4200], url[64];
  const char *dir = mkdtemp(tmpl);
  if (!ZT_TRUE(dir != NULL)) return;
  snprintf(script, sizeof script, "%s/../agent/pgserver.sh", getenv("ZC_DATA"));
  int rc = zt_sh(&uri, "sh '%s' start '%s'", script, dir), pid = -1;
  if (rc == 77) zt_skip("no PostgreSQL server installed");
  if (rc == 0 &&
      ZT_TRUE(server_start("--delay-create 1", &pid, url, sizeof url))) {
    uri[strcspn(uri, "\n")] = '\0';
    struct agent_history *h = NULL;
    ZT_INT(agent_history_open(uri, &h), ZC_OK);
    agent_history_close(h);
    race(uri, url);
    zt_stop(pid);
  } else if (rc != 77) {
    ZT_INT(rc, 0);
  }
  zt_sh(NULL, "sh '%s' stop '%s'; rm -rf '%s'", script, dir, dir);
  free(uri);
}

/* zamcap compare with --tracker: files, then comments; history shows
 * the issue; bad specs and a missing token exit 2 before anything; a
 * refused token keeps a regression's exit code, and turns a clean night's
 * 0 into 3; a dry run says what it would do. The token never shows. */
static void test_cli(void) {
  if (!ZT_TRUE(server())) return;
  const char *z = zt_zamcap(), *d = zt_tmp("cli"), *data = getenv("ZC_DATA");
  char *out = NULL, common[4096];
  zt_sh(NULL, "rm -rf '%s' && mkdir -p '%s'", d, d);
  snprintf(common, sizeof common,
           "-q --history '%s/h.db' --tracker github:zc/cli --tracker-url '%s'",
           d, base);
  for (int i = 1; i <= 2; i++)
    ZT_INT(zt_sh(NULL,
                 "ZAMCAP_TRACKER_TOKEN=" TOKEN " '%s' compare '%s/real/old' "
                 "'%s/real/new' --out '%s/r%d' %s >/dev/null",
                 z, data, data, d, i, common),
           1);
  cJSON *st = state_of(base);
  const cJSON *is[8];
  if (ZT_INT(issues_in(st, "github", "zc/cli", is), 1)) {
    ZT_HAS(cJSON_GetStringValue(field(is[0], "title")), "slowChecksum");
    ZT_INT(cJSON_GetArraySize(field(is[0], "comments")), 1);
  }
  cJSON_Delete(st);
  ZT_INT(zt_sh(&out, "'%s' history --history '%s/h.db' --format json", z, d),
         0);
  ZT_HAS(out ? out : "", "\"https://github.example/zc/cli/issues/1\"");
  free(out);
  ZT_INT(zt_sh(&out, "'%s' history --history '%s/h.db'", z, d), 0);
  ZT_HAS(out ? out : "", "slowChecksum (/app.js)  [time] -  "
                         "https://github.example/zc/cli/issues/1\n");
  free(out);
  ZT_INT(zt_sh(&out,
               "'%s' compare '%s/real/old' '%s/real/new' --tracker gitlab:app "
               "2>&1",
               z, data, data),
         2);
  ZT_HAS(out ? out : "", "gitlab:GROUP/PROJECT");
  free(out);
  ZT_INT(zt_sh(&out,
               "env -u ZAMCAP_TRACKER_TOKEN '%s' compare '%s/real/old' "
               "'%s/real/new' --out '%s/none' %s 2>&1",
               z, data, data, d, common),
         2);
  ZT_HAS(out ? out : "", "ZAMCAP_TRACKER_TOKEN");
  ZT_TRUE(access(zt_tmp("cli/none"), F_OK) != 0);
  free(out);
  /* run too refuses them before Chrome starts or a folder is made */
  static const char *const refused[][2] = {
      {"--tracker github:acme", "github:OWNER/REPO"},
      {"--tracker jira:ZC", "give --tracker-url"},
      {"--tracker redmine:web --tracker-url ftp://x", "--tracker-url"},
      {"--tracker-dry-run", "need --tracker"},
      {"--tracker github:a/b --no-history --tracker-dry-run", "--no-history"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    ZT_INT(zt_sh(&out,
                 "ZAMCAP_TRACKER_TOKEN=" TOKEN " '%s' run '%s/flow.json' "
                 "--old http://127.0.0.1:9/ --new http://127.0.0.1:9/ --out "
                 "'%s/run' %s 2>&1",
                 z, d, d, refused[i][0]),
           2);
    ZT_HAS(out ? out : "", refused[i][1]);
    free(out);
  }
  ZT_TRUE(access(zt_tmp("cli/run"), F_OK) != 0);
  /* a refused token: the regression's 1, and the report is there */
  ZT_INT(zt_sh(&out,
               "ZAMCAP_TRACKER_TOKEN=bad-tok-9917 '%s' compare '%s/real/old' "
               "'%s/real/new' --out '%s/r3' %s 2>&1",
               z, data, data, d, common),
         1);
  ZT_HAS(out ? out : "", "HTTP 401");
  ZT_HAS(out ? out : "", "the report stays in");
  ZT_TRUE(!strstr(out ? out : "", "bad-tok-9917"));
  ZT_TRUE(access(zt_tmp("cli/r3/report.html"), F_OK) == 0);
  free(out);
  /* a clean night: recovered after 1 run; a dry run says so */
  ZT_INT(zt_sh(&out,
               "'%s' compare '%s/real/old' '%s/real/old' --out '%s/r4' %s "
               "--recover-after 1 --tracker-dry-run",
               z, data, data, d, common),
         0);
  ZT_HAS(out ? out : "",
         "would comment on https://github.example/zc/cli/issues/1: recovered");
  free(out);
  ZT_INT(zt_sh(&out,
               "ZAMCAP_TRACKER_TOKEN=bad-tok-9917 '%s' compare '%s/real/old' "
               "'%s/real/old' --out '%s/r5' %s --recover-after 1 2>&1",
               z, data, data, d, common),
         3);
  ZT_HAS(out ? out : "", "HTTP 401");
  free(out);
}

/* A real Redmine (redmine.sh): zamcap files an issue with report.html and
 * report.json attached, comments on it the next night with the new
 * report, and closes it once recovered. */
static void test_redmine(void) {
  char tmpl[] = "/tmp/zc-rm-XXXXXX", *line = NULL, script[4200];
  const char *dir = mkdtemp(tmpl);
  if (!ZT_TRUE(dir != NULL)) return;
  snprintf(script, sizeof script, "%s/../agent/redmine.sh", getenv("ZC_DATA"));
  int rc = zt_sh(&line, "sh '%s' start '%s'", script, dir);
  char url[128] = "", key[128] = "";
  if (rc == 77) {
    zt_skip("no Redmine installed (apt-get install redmine redmine-sqlite)");
  } else if (ZT_INT(rc, 0) &&
             ZT_INT(sscanf(line, "%127s %127s", url, key), 2)) {
    const char *z = zt_zamcap(), *d = zt_tmp("rm"), *data = getenv("ZC_DATA");
    zt_sh(NULL, "rm -rf '%s' && mkdir -p '%s'", d, d);
    static const char *const nights[][3] = {
        {"new", "", "1"}, {"new", "", "1"}, {"old", "--close-recovered", "0"}};
    for (int i = 0; i < 3; i++) {
      char *out = NULL;
      int x =
          zt_sh(&out,
                "ZAMCAP_TRACKER_TOKEN=%s '%s' compare '%s/real/old' "
                "'%s/real/%s' -q --out '%s/r%d' --history '%s/h.db' "
                "--tracker redmine:zamcap --tracker-url '%s' "
                "--recover-after 1 %s 2>&1",
                key, z, data, data, nights[i][0], d, i, d, url, nights[i][1]);
      if (!ZT_INT(x, atoi(nights[i][2]))) fprintf(stderr, "%s\n", out);
      ZT_TRUE(!strstr(out ? out : "", key));
      free(out);
    }
    char *js = NULL;
    zt_sh(&js,
          "curl -sf -H 'X-Redmine-API-Key: %s' "
          "'%s/issues/1.json?include=attachments,journals'",
          key, url);
    cJSON *doc = cJSON_Parse(js ? js : ""), *iss = NULL;
    iss = cJSON_GetObjectItem(doc, "issue");
    const char *subj = cJSON_GetStringValue(field(iss, "subject"));
    const char *desc = cJSON_GetStringValue(field(iss, "description"));
    ZT_HAS(subj ? subj : "", "slowChecksum in");
    ZT_HAS(desc ? desc : "", "Filed by zamcap");
    ZT_INT(cJSON_GetArraySize(field(iss, "attachments")), 4);
    ZT_TRUE(cJSON_IsTrue(field(field(iss, "status"), "is_closed")));
    const cJSON *j;
    int again = 0, rec = 0;
    cJSON_ArrayForEach(j, field(iss, "journals")) {
      const char *notes = cJSON_GetStringValue(field(j, "notes"));
      again += notes && strstr(notes, "Seen again") != NULL;
      rec += notes && strstr(notes, "Recovered") != NULL;
    }
    ZT_INT(again, 1);
    ZT_INT(rec, 1);
    cJSON_Delete(doc);
    free(js);
    zt_sh(&js, "curl -sf -H 'X-Redmine-API-Key: %s' '%s/issues.json'", key,
          url);
    doc = cJSON_Parse(js ? js : "");
    ZT_INT((long long)cJSON_GetNumberValue(field(doc, "total_count")), 0);
    cJSON_Delete(doc);
    free(js);
  }
  zt_sh(NULL, "sh '%s' stop '%s'; rm -rf '%s'", script, dir, dir);
  free(line);
}

/* A transfer that fails (nothing listens): one message that names the
 * tracker once, the method and the whole address (issue 38: it was
 * formatted into its own buffer and read "tracker X: tracker X: 1:1/..."). */
static void test_transport_error(void) {
  int fd = -1, port = zt_refused_port(&fd);
  char api[64], want[160];
  snprintf(api, sizeof api, "http://127.0.0.1:%d", port);
  unlink(zt_tmp("down.db"));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp("down.db"), &h), ZC_OK)) return;
  struct agent_tracker t = tracker("github:zc/down", api, 0);
  ZT_TRUE(agent_tracker_night(&t, h, add_night(h, 1, 90, 0), reports()) !=
          ZC_OK);
  snprintf(want, sizeof want,
           "tracker github:zc/down: POST http://127.0.0.1:%d/repos/zc/down/"
           "issues: ",
           port);
  ZT_TRUE(!strncmp(zc_errmsg(), want, strlen(want)));
  ZT_TRUE(strstr(zc_errmsg() + 1, "tracker github") == NULL);
  if (strncmp(zc_errmsg(), want, strlen(want)))
    fprintf(stderr, "  %s\n", zc_errmsg());
  no_claim_left(h);
  agent_history_close(h);
  close(fd);
}

/* A night whose one cause has the name fn (a page chose it: V8 names a
 * function expression after a string key). */
static long long add_named(struct agent_history *h, int day, const char *fn) {
  cJSON *doc = night(day, 100, 0);
  cJSON *c =
      cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "regression_causes"), 0);
  cJSON_ReplaceItemInObject(c, "name", cJSON_CreateString(fn));
  char at[32];
  snprintf(at, sizeof at, "2026-11-%02dT02:30:00Z", day);
  struct agent_history_meta m = {.command = "run", .recorded_at = at};
  long long id = 0;
  ZT_INT(agent_history_add(h, doc, &m, &id), ZC_OK);
  cJSON_Delete(doc);
  return id;
}

/* Whether a Jira text is one {noformat} block that nothing inside ends. */
static int one_block(const char *t) {
  static const char open[] = "{noformat}\n", close[] = "\n{noformat}";
  size_t n = t ? strlen(t) : 0;
  if (n < 2 * sizeof open || strncmp(t, open, sizeof open - 1) ||
      strcmp(t + n - (sizeof close - 1), close))
    return 0;
  for (size_t i = sizeof open - 1; i + sizeof close - 1 < n; i++)
    if (!strncasecmp(t + i, "{noformat", 9)) return 0;
  return 1;
}

/* Jira: a function named {no{noformat}format}, {NOFORMAT} and the like in
 * the comment, and the summary's own, stay inside the one {noformat}
 * block (issue 38: the one-pass strip made the first the closing tag,
 * and the page's text after it rendered as wiki markup). */
static void test_jira_noformat(void) {
  if (!ZT_TRUE(server())) return;
  const char *dir = zt_tmp("jnf");
  zt_sh(NULL, "mkdir -p '%s'", dir);
  char p[4300];
  snprintf(p, sizeof p, "%s/summary.md", dir);
  zt_write_str(p, "### {no{noformat}format}!http://evil.example/a.png! "
                  "[~admin] {{noformat}noformat}\n");
  unlink(zt_tmp("jnf.db"));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp("jnf.db"), &h), ZC_OK)) return;
  char api[128];
  snprintf(api, sizeof api, "%s/jira", base);
  struct agent_tracker t = tracker("jira:NOFMT", api, 0);
  static const char fn[] = "{no{noformat}format}!http://evil.example/b.png! "
                           "{NoFormat} {NOFORMAT:title=x}";
  ZT_INT(agent_tracker_night(&t, h, add_named(h, 1, fn), dir), ZC_OK);
  ZT_INT(agent_tracker_night(&t, h, add_named(h, 2, fn), dir), ZC_OK);
  cJSON *st = state_of(base);
  const cJSON *is[8];
  if (ZT_INT(issues_in(st, "jira", "NOFMT", is), 1)) {
    const char *body = cJSON_GetStringValue(field(is[0], "body"));
    ZT_TRUE(one_block(body));
    ZT_HAS(body ? body : "", "{no{ noformat}format}!http://evil");
    const cJSON *c = cJSON_GetArrayItem(field(is[0], "comments"), 0);
    ZT_TRUE(one_block(cJSON_GetStringValue(c)));
    ZT_HAS(cJSON_GetStringValue(c), "{ NoFormat} { NOFORMAT:title=x}");
  }
  cJSON_Delete(st);
  agent_history_close(h);
}

/* SIGTERM while a tracker's request is under way, and while it waits to
 * retry a 429: exit 143 within seconds, said as interrupted, the report
 * kept (issue 38: the stop became an I/O error, exit 1 or 3). */
static void test_sigterm(void) {
  if (!ZT_TRUE(server())) return;
  const char *z = getenv("ZAMCAP"), *data = getenv("ZC_DATA");
  static const char *const repos[] = {"zc/waitlong", "zc/sleepy"};
  for (size_t i = 0; i < 2; i++) {
    char cmd[30000], out[4200], err[4200], tail[64];
    snprintf(out, sizeof out, "%s/term-%zu", zt_tmp("term"), i);
    snprintf(err, sizeof err, "%s/term-%zu.err", zt_tmp("term"), i);
    zt_sh(NULL, "mkdir -p '%s'; rm -rf '%s'", zt_tmp("term"), out);
    snprintf(cmd, sizeof cmd,
             "ZAMCAP_TRACKER_TOKEN=" TOKEN " exec '%s' compare '%s/real/old' "
             "'%s/real/new' --out '%s' --history '%s.db' --tracker "
             "github:%s --tracker-url '%s' 2>'%s' >/dev/null",
             z, data, data, out, out, repos[i], base, err);
    FILE *so = NULL;
    int pid = zt_spawn(cmd, &so);
    if (so) fclose(so);
    snprintf(tail, sizeof tail, "/repos/%s/issues", repos[i]);
    int sent = 0;
    for (int k = 0; k < 600 && !sent; k++) {
      cJSON *st = state_of(base);
      char *e = zt_read(err);
      /* the request has arrived; with waitlong, its retry wait began */
      sent = requests_to(st, "POST", tail) > 0 &&
             (i || (e && strstr(e, "trying again in 60 s")));
      free(e);
      cJSON_Delete(st);
      if (!sent) zc_sleep_ms(50);
    }
    if (!ZT_TRUE(pid > 0 && sent)) {
      zt_stop(pid);
      continue;
    }
    kill(pid, SIGTERM);
    int ws = 0, rc = -1;
    for (int k = 0; k < 200 && rc < 0; k++) {
      if (waitpid(pid, &ws, WNOHANG) == pid)
        rc = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
      else
        zc_sleep_ms(50);
    }
    if (rc < 0) zt_stop(pid);
    ZT_INT(rc, 143);
    char *e = zt_read(err);
    ZT_HAS(e ? e : "", "interrupted (the report stays in");
    free(e);
    char p[4300];
    snprintf(p, sizeof p, "%s/report.html", out);
    ZT_TRUE(access(p, F_OK) == 0);
  }
}

/* A night of the flow titled title with one cause named fn. */
static long long add_titled(struct agent_history *h, int day, const char *title,
                            const char *fn) {
  cJSON *doc = night(day, 100, 0);
  cJSON *c =
      cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "regression_causes"), 0);
  cJSON_ReplaceItemInObject(c, "name", cJSON_CreateString(fn));
  cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "inputs"), "title",
                            cJSON_CreateString(title));
  char at[32];
  snprintf(at, sizeof at, "2026-11-%02dT02:30:00Z", day);
  struct agent_history_meta m = {.command = "run", .recorded_at = at};
  long long id = 0;
  ZT_INT(agent_history_add(h, doc, &m, &id), ZC_OK);
  cJSON_Delete(doc);
  return id;
}

/* A comment puts the flow's title in a code span (a mention or a link in
 * it neither pings nor renders) and names the report folder by its name
 * alone, not the runner's path (issue 38, Low). */
static void test_comment_text(void) {
  if (!ZT_TRUE(server())) return;
  const char *rep = reports();
  unlink(zt_tmp("ctext.db"));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp("ctext.db"), &h), ZC_OK)) return;
  struct agent_tracker t = tracker("github:zc/ctext", base, 0);
  static const char title[] = "@org/team [x](http://evil.example) `q`";
  for (int day = 1; day <= 2; day++)
    ZT_INT(agent_tracker_night(&t, h, add_titled(h, day, title, "renderRows"),
                               rep),
           ZC_OK);
  cJSON *st = state_of(base);
  const cJSON *is[8];
  if (ZT_INT(issues_in(st, "github", "zc/ctext", is), 1)) {
    const char *body = cJSON_GetStringValue(field(is[0], "body"));
    const char *c =
        cJSON_GetStringValue(cJSON_GetArrayItem(field(is[0], "comments"), 0));
    ZT_HAS(c, "of `@org/team [x](http://evil.example) 'q'` (");
    ZT_HAS(c, "Report folder: `rep`.");
    ZT_HAS(body, "Report folder: `rep`.");
    char parent[4300];
    snprintf(parent, sizeof parent, "%s", rep);
    *strrchr(parent, '/') = '\0';
    ZT_TRUE(!strstr(c ? c : "", parent) && !strstr(body ? body : "", parent));
  }
  cJSON_Delete(st);
  agent_history_close(h);
}

/* The tracker's answers a night cannot trust: a 2xx that names no issue
 * (filed perhaps: not filed again the next night), a javascript: address
 * (stored as the tracker and key, not as given), and Retry-After waits
 * past the night's budget (given up, said) (issue 38, Low). */
static void test_answers(void) {
  if (!ZT_TRUE(server())) return;
  const char *rep = reports();
  unlink(zt_tmp("nokey.db"));
  struct agent_history *h = NULL;
  if (!ZT_INT(agent_history_open(zt_tmp("nokey.db"), &h), ZC_OK)) return;
  struct agent_tracker t = tracker("github:zc/nokey", base, 0);
  ZT_INT(agent_tracker_night(&t, h, add_night(h, 1, 90, 0), rep), ZC_E_IO);
  ZT_HAS(zc_errmsg(), "names no issue");
  ZT_HAS(zc_errmsg(), "files this regression");
  ZT_INT(agent_tracker_night(&t, h, add_night(h, 2, 95, 0), rep), ZC_OK);
  cJSON *st = state_of(base);
  ZT_INT(requests_to(st, "POST", "/repos/zc/nokey/issues"), 1);
  cJSON_Delete(st);
  agent_history_close(h);

  unlink(zt_tmp("jsurl.db"));
  if (!ZT_INT(agent_history_open(zt_tmp("jsurl.db"), &h), ZC_OK)) return;
  t = tracker("github:zc/jsurl", base, 0);
  ZT_INT(agent_tracker_night(&t, h, add_night(h, 1, 90, 0), rep), ZC_OK);
  cJSON *doc = NULL;
  ZT_INT(agent_history_query(h, "checkout", 0, 3, &doc), ZC_OK);
  const cJSON *g = cJSON_GetArrayItem(field(doc, "regressions"), 0);
  ZT_STR(cJSON_GetStringValue(field(g, "issue")), "github:zc/jsurl#1");
  cJSON_Delete(doc);
  agent_history_close(h);

  unlink(zt_tmp("budget.db"));
  if (!ZT_INT(agent_history_open(zt_tmp("budget.db"), &h), ZC_OK)) return;
  t = tracker("github:zc/waitlong", base, 0);
  t.retry_budget_s = 30;
  double t0 = zc_now_ms();
  ZT_INT(agent_tracker_night(&t, h, add_night(h, 1, 90, 0), rep), ZC_E_IO);
  ZT_TRUE(zc_now_ms() - t0 < 20000);
  ZT_HAS(zc_errmsg(), "HTTP 429, and waiting 60 s more would pass the 30 s");
  no_claim_left(h);
  agent_history_close(h);
}

/* A token of 3 KB reaches Jira whole (issue 38, Low: the header cut it
 * near 1 KB, a 401 with no reason); one over 4096 bytes is refused
 * before anything runs. */
static void test_long_token(void) {
  static char tok[3001];
  memset(tok, 'k', 3000);
  char url[64], api[128], cmd[4000], line[64] = "";
  FILE *out = NULL;
  snprintf(cmd, sizeof cmd, "exec python3 '%s/../agent/tracker_server.py' %s",
           getenv("ZC_DATA"), tok);
  int pid = zt_spawn(cmd, &out);
  if (!ZT_TRUE(pid > 0 && fgets(line, sizeof line, out) && atoi(line) > 0))
    return;
  snprintf(url, sizeof url, "http://127.0.0.1:%d", atoi(line));
  snprintf(api, sizeof api, "%s/jira", url);
  const char *rep = reports();
  unlink(zt_tmp("longtok.db"));
  struct agent_history *h = NULL;
  if (ZT_INT(agent_history_open(zt_tmp("longtok.db"), &h), ZC_OK)) {
    struct agent_tracker t = tracker("jira:LONG", api, 0);
    t.token = tok;
    ZT_INT(agent_tracker_night(&t, h, add_night(h, 1, 90, 0), rep), ZC_OK);
    agent_history_close(h);
  }
  zt_stop(pid);
  char *o = NULL;
  ZT_INT(zt_sh(&o,
               "ZAMCAP_TRACKER_TOKEN=$(head -c 5000 /dev/zero | tr '\\0' k) "
               "'%s' compare '%s/real/old' '%s/real/new' --out '%s' "
               "--tracker jira:LONG --tracker-url http://127.0.0.1:9 2>&1",
               getenv("ZAMCAP"), getenv("ZC_DATA"), getenv("ZC_DATA"),
               zt_tmp("longtok-out")),
         2);
  ZT_HAS(o ? o : "", "ZAMCAP_TRACKER_TOKEN is 5000 bytes");
  free(o);
}

/* A real Redmine set to each text formatting (redmine.sh FORMAT): an
 * issue and a comment whose page text holds Textile, Markdown and
 * Redmine's own markup (images, links, @mentions, macros) render none of
 * it: the issue's page has no image or link to the page's host, and no
 * mention (issue 38, Low: with Textile, page text rendered as markup). */
static void redmine_formatted(const char *format) {
  char tmpl[] = "/tmp/zc-rmf-XXXXXX", *line = NULL, script[4200];
  const char *dir = mkdtemp(tmpl);
  if (!ZT_TRUE(dir != NULL)) return;
  snprintf(script, sizeof script, "%s/../agent/redmine.sh", getenv("ZC_DATA"));
  int rc = zt_sh(&line, "sh '%s' start '%s' %s", script, dir, format);
  char url[128] = "", key[128] = "";
  if (rc == 77) {
    zt_skip("no Redmine installed (apt-get install redmine redmine-sqlite)");
  } else if (ZT_INT(rc, 0) &&
             ZT_INT(sscanf(line, "%127s %127s", url, key), 2)) {
    const char *rep = zt_tmp("rmf");
    char p[4300], db[4300];
    zt_sh(NULL, "rm -rf '%s' && mkdir -p '%s'", rep, rep);
    snprintf(p, sizeof p, "%s/summary.md", rep);
    zt_write_str(p, "### !http://evil.example/s.png! @admin [[Wiki]] "
                    "\"x\":http://evil.example/l ![i](http://evil.example/"
                    "m.png) <img src=http://evil.example/h.png> {{toc}}\n\n"
                    "    indented http://evil.example/code\n");
    snprintf(db, sizeof db, "%s/h-%s.db", rep, format);
    struct agent_history *h = NULL;
    if (ZT_INT(agent_history_open(db, &h), ZC_OK)) {
      struct agent_tracker t = tracker("redmine:zamcap", url, 0);
      t.token = key;
      static const char fn[] = "fn!http://evil.example/f.png! @admin "
                               "*b* [l](http://evil.example/n) user:admin";
      for (int day = 1; day <= 2; day++)
        ZT_INT(agent_tracker_night(
                   &t, h,
                   add_titled(h, day, "@admin !http://evil.example/t.png!", fn),
                   rep),
               ZC_OK);
      agent_history_close(h);
    }
    char *html = NULL;
    zt_sh(&html, "curl -sf '%s/issues/1'", url);
    ZT_HAS(html ? html : "", "Seen again");
    ZT_HAS(html ? html : "", "evil.example");
    ZT_TRUE(html && !strstr(html, "=\"http://evil.example"));
    ZT_TRUE(html && !strstr(html, "user-mention"));
    ZT_TRUE(html && !strstr(html, "<strong>b</strong>"));
    if (html && strstr(html, "=\"http://evil.example"))
      fprintf(stderr, "  %s: %.200s\n", format,
              strstr(html, "=\"http://evil.example") - 100);
    free(html);
  }
  zt_sh(NULL, "sh '%s' stop '%s'; rm -rf '%s'", script, dir, dir);
  free(line);
}

static void test_redmine_textile(void) {
  redmine_formatted("textile");
}

static void test_redmine_markdown(void) {
  redmine_formatted("markdown");
}

static void test_redmine_commonmark(void) {
  redmine_formatted("common_mark");
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"redmine_textile", test_redmine_textile},
      {"redmine_markdown", test_redmine_markdown},
      {"redmine_commonmark", test_redmine_commonmark},
      {"comment_text", test_comment_text},
      {"answers", test_answers},
      {"long_token", test_long_token},
      {"sigterm", test_sigterm},
      {"jira_noformat", test_jira_noformat},
      {"transport_error", test_transport_error},
      {"parse", test_parse},
      {"github", test_github},
      {"gitlab", test_gitlab},
      {"jira", test_jira},
      {"failures", test_failures},
      {"dry_run", test_dry_run},
      {"again", test_again},
      {"attach_refused", test_attach_refused},
      {"race_sqlite", test_race_sqlite},
      {"race_postgres", test_race_postgres},
      {"cli", test_cli},
      {"redmine", test_redmine},
  };
  int rc = ZT_RUN(cases, argc, argv);
  if (srv > 0) zt_stop(srv);
  return rc;
}
