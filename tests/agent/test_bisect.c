/* zamcap bisect, end to end in headless Chromium with real git: on build
 * series and commit histories made here from tests/agent/bisectapp (a
 * click runs parseRows, renderRows and warmCache; each build's app.js sets
 * how much each works): one regression, two at two commits with a commit
 * that does not build and an improvement between (never blamed), an A/A
 * series; and the bad inputs, each a one-line error and exit 2. The
 * bisection with commits is recorded in the history beside OUT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "history.h"
#include "test.h"

static const char *app(const char *f) {
  return zt_agent_app("bisectapp", f);
}

/* app.js with extra work (million-step loops) in parseRows and renderRows,
 * warmCache's own, and a comment that makes a commit without a change. */
static void write_app(const char *dir, int parse, int render, int cache,
                      const char *note) {
  char p[4200], js[4096];
  snprintf(js, sizeof js,
           "// bisect test app %s\n"
           "function spinWork(units) {\n"
           "  let s = 0;\n"
           "  for (let i = 0; i < units * 1000000; i++) s += Math.sqrt(i) %% "
           "7;\n"
           "  return s;\n"
           "}\n"
           "function parseRows() {\n"
           "  let s = spinWork(1);\n"
           "  for (let i = 0; i < %d * 1000000; i++) s += Math.sqrt(i) %% 5;\n"
           "  return s;\n"
           "}\n"
           "function renderRows() {\n"
           "  let s = spinWork(1);\n"
           "  for (let i = 0; i < %d * 1000000; i++) s += Math.sqrt(i) %% 3;\n"
           "  return s;\n"
           "}\n"
           "function warmCache() {\n"
           "  return spinWork(%d);\n"
           "}\n"
           "document.getElementById('run').addEventListener('click', "
           "function onRun() {\n"
           "  const total = parseRows() + renderRows() + warmCache();\n"
           "  const out = document.getElementById('out');\n"
           "  out.textContent = 'done ' + Math.round(total);\n"
           "  out.className = 'done';\n"
           "});\n",
           note, parse, render, cache);
  mkdir(dir, 0755);
  snprintf(p, sizeof p, "%s/app.js", dir);
  zt_write_str(p, js);
  ZT_INT(zt_sh(NULL, "cp '%s' '%s/'", app("index.html"), dir), 0);
}

static cJSON *load(const char *out) {
  char p[4200];
  snprintf(p, sizeof p, "%s/report.json", out);
  char *t = zt_read(p);
  cJSON *j = t ? cJSON_Parse(t) : NULL;
  free(t);
  ZT_TRUE(j != NULL);
  return j;
}

static double num(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItem(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static const char *str(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItem(o, k);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* The culprit whose cause's path holds fn, or NULL. */
static const cJSON *culprit_of(const cJSON *rep, const char *fn) {
  const cJSON *c, *p;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "culprits")) {
    cJSON_ArrayForEach(
        p,
        cJSON_GetObjectItem(cJSON_GetObjectItem(c, "cause"),
                            "path")) if (cJSON_IsString(p) &&
                                         !strcmp(p->valuestring, fn)) return c;
  }
  return NULL;
}

/* Six builds, the regression from build 3 on: build 3 is the culprit,
 * after build 2, in at most 60 traced runs. */
static void test_builds_one(void) {
  char b[6][4200], out[4200], *log = NULL;
  for (int k = 0; k < 6; k++) {
    snprintf(b[k], sizeof b[k], "%s/b%d", zt_tmp("one"), k);
    mkdir(zt_tmp("one"), 0755);
    write_app(b[k], 0, 0, 1, "");
    if (k >= 3) write_app(b[k], 12, 0, 1, "");
  }
  snprintf(out, sizeof out, "%s/out", zt_tmp("one"));
  int rc = zt_sh(&log,
                 "'%s' bisect '%s' --builds '%s' '%s' '%s' '%s' '%s' '%s' "
                 "--out '%s'",
                 zt_zamcap(), app("bisect.json"), b[0], b[1], b[2], b[3], b[4],
                 b[5], out);
  ZT_INT(rc, 1);
  ZT_HAS(log, "comparing build");
  cJSON *rep = load(out);
  ZT_STR(str(rep, "schema"), "zamcap-bisect/1");
  ZT_INT(cJSON_GetArraySize(cJSON_GetObjectItem(rep, "culprits")), 1);
  const cJSON *c = culprit_of(rep, "parseRows");
  ZT_TRUE(c != NULL);
  ZT_INT((int)num(c, "index"), 3);
  ZT_INT((int)num(c, "previous"), 2);
  ZT_TRUE(num(c, "delta_ms") > 50);
  const cJSON *v = cJSON_GetObjectItem(rep, "verdict");
  ZT_INT((int)num(v, "exit_code"), 1);
  ZT_TRUE(num(v, "traced_runs") > 0 && num(v, "traced_runs") <= 60);
  char p[4300];
  snprintf(p, sizeof p, "%s/summary.md", out);
  char *md = zt_read(p);
  ZT_HAS(md, "**Build 3**");
  free(md);
  snprintf(p, sizeof p, "%s/confirm/report.json", out);
  char *conf = zt_read(p);
  ZT_TRUE(conf != NULL);
  free(conf);
  cJSON_Delete(rep);
  if (rc != 1) fprintf(stderr, "%s\n", log);
  free(log);
}

/* The fingerprints of the causes of OUT/confirm/report.json recorded as
 * a night's run in a history of its own, space-separated into fps. */
static void night_fps(const char *out, char *fps, size_t cap) {
  char p[4300], db[4300];
  snprintf(p, sizeof p, "%s/confirm", out);
  snprintf(db, sizeof db, "%s/night.db", out);
  cJSON *conf = load(p), *q = NULL;
  struct agent_history *h = NULL;
  struct agent_history_meta m = {.command = "run"};
  if (conf && ZT_INT(agent_history_open(db, &h), ZC_OK) &&
      ZT_INT(agent_history_add(h, conf, &m, NULL), ZC_OK) &&
      ZT_INT(agent_history_query(h, NULL, 0, 3, &q), ZC_OK)) {
    const cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(q, "regressions")) {
      size_t n = strlen(fps);
      snprintf(fps + n, cap - n, "%s ", str(g, "fingerprint"));
    }
  }
  cJSON_Delete(q);
  cJSON_Delete(conf);
  agent_history_close(h);
}

/* A repository of commits made by write_app: c0 good; c1 a comment; c2
 * parseRows works more; c3 does not build (BROKEN); c4 builds again and
 * warmCache works less (an improvement); c5 renderRows works more; c6 a
 * comment. Returns the folder; shas[k] gets commit k's SHA. */
static const char *make_repo(const char *name, char shas[7][64]) {
  const char *repo = zt_tmp(name);
  static const int parse[7] = {0, 0, 12, 12, 12, 12, 12};
  static const int render[7] = {0, 0, 0, 0, 0, 12, 12};
  static const int cache[7] = {12, 12, 12, 12, 1, 1, 1};
  ZT_INT(zt_sh(NULL,
               "rm -rf '%s' && mkdir -p '%s' && cd '%s' && git init -q "
               "&& git config user.email t@example.com && git config "
               "user.name t",
               repo, repo, repo),
         0);
  for (int k = 0; k < 7; k++) {
    char note[16];
    snprintf(note, sizeof note, "c%d", k);
    write_app(repo, parse[k], render[k], cache[k], note);
    ZT_INT(zt_sh(NULL, "cd '%s' && %s && git add -A && git commit -qm %s", repo,
                 k == 3 ? "touch BROKEN" : "rm -f BROKEN", note),
           0);
    char *sha = NULL;
    zt_sh(&sha, "git -C '%s' rev-parse HEAD", repo);
    snprintf(shas[k], 64, "%.40s", sha ? sha : "");
    free(sha);
  }
  return repo;
}

/* Two regressions at two commits, a commit that does not build between
 * and an improvement: each cause gets its own culprit, the commit that
 * does not build is skipped, the improvement is never blamed, and the
 * culprit's changed function is ranked with its self-time change. */
static void test_git_two(void) {
  char shas[7][64], out[4200], *log = NULL;
  const char *repo = make_repo("repo", shas);
  snprintf(out, sizeof out, "%s/out", zt_tmp("git"));
  int rc = zt_sh(&log,
                 "'%s' bisect '%s' --git HEAD~6..HEAD --repo '%s' --build "
                 "'test ! -e BROKEN' --dist . --out '%s'",
                 zt_zamcap(), app("bisect.json"), repo, out);
  ZT_INT(rc, 1);
  cJSON *rep = load(out);
  const cJSON *cp = culprit_of(rep, "parseRows");
  const cJSON *cr = culprit_of(rep, "renderRows");
  ZT_TRUE(cp && cr);
  ZT_STR(str(cp, "commit"), shas[2]);
  ZT_STR(str(cr, "commit"), shas[5]);
  const cJSON *c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "culprits")) {
    ZT_TRUE(strcmp(str(c, "commit"), shas[4]) != 0); /* the improvement */
    ZT_TRUE(num(c, "delta_ms") > 0);
  }
  const cJSON *b3 = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "builds"), 3);
  ZT_STR(str(b3, "status"), "unbuildable");
  ZT_STR(str(b3, "commit"), shas[3]);
  const cJSON *ch =
      cJSON_GetArrayItem(cJSON_GetObjectItem(cp, "changed_functions"), 0);
  ZT_STR(str(ch, "name"), "parseRows");
  ZT_TRUE(num(ch, "delta_ms") > 50);
  /* recorded in the history beside OUT: each culprit with its commit,
   * and the cause's fingerprint as a night's run gives it (the ends'
   * comparison, confirm/, recorded as one) */
  char db[4300], fps[4096] = "";
  snprintf(db, sizeof db, "%s/history.db", zt_tmp("git"));
  struct agent_history *h = NULL;
  cJSON *bs = NULL;
  night_fps(out, fps, sizeof fps);
  if (ZT_INT(agent_history_open_existing(db, &h), ZC_OK) &&
      ZT_INT(agent_history_bisects(h, "bisect test app: one click", 0, &bs),
             ZC_OK)) {
    ZT_INT(cJSON_GetArraySize(bs), 1);
    const cJSON *b = cJSON_GetArrayItem(bs, 0), *bc;
    ZT_STR(str(b, "good"),
           str(cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "builds"), 0),
               "build"));
    int found = 0;
    cJSON_ArrayForEach(bc, cJSON_GetObjectItem(b, "causes")) {
      if (strcmp(str(bc, "state"), "culprit")) continue;
      const char *want = !strcmp(str(bc, "name"), "parseRows")    ? shas[2]
                         : !strcmp(str(bc, "name"), "renderRows") ? shas[5]
                                                                  : "?";
      ZT_STR(str(bc, "commit"), want);
      ZT_INT((long long)strlen(str(bc, "fingerprint")), 16);
      ZT_HAS(fps, str(bc, "fingerprint"));
      found++;
    }
    ZT_TRUE(found >= 2);
  }
  cJSON_Delete(bs);
  agent_history_close(h);
  /* the user's worktree is as it was */
  char *st = NULL;
  zt_sh(&st, "git -C '%s' status --porcelain --untracked-files=no", repo);
  ZT_STR(st, "");
  free(st);
  cJSON_Delete(rep);
  if (rc != 1) fprintf(stderr, "%s\n", log);
  free(log);
}

/* Three copies of one build: nothing to bisect, exit 0. */
static void test_aa(void) {
  char b[3][4200], out[4200], *log = NULL;
  mkdir(zt_tmp("aa"), 0755);
  for (int k = 0; k < 3; k++) {
    snprintf(b[k], sizeof b[k], "%s/b%d", zt_tmp("aa"), k);
    write_app(b[k], 0, 0, 1, "");
  }
  snprintf(out, sizeof out, "%s/out", zt_tmp("aa"));
  int rc = zt_sh(&log, "'%s' bisect '%s' --builds '%s' '%s' '%s' --out '%s'",
                 zt_zamcap(), app("bisect.json"), b[0], b[1], b[2], out);
  ZT_INT(rc, 0);
  ZT_HAS(log, "nothing to bisect");
  if (rc) fprintf(stderr, "%s\n", log);
  free(log);
}

/* Each a one-line error and exit 2, before any browser starts; a dirty
 * worktree is left exactly as it was. */
static void test_bad_inputs(void) {
  char shas[7][64], *log = NULL;
  const char *repo = make_repo("badrepo", shas);
  const char *scn = app("bisect.json");
  struct {
    const char *args, *says;
  } cases[] = {
      {"--builds only-one", "2 builds or more"},
      {"--git HEAD..HEAD --build true --dist .", "no commit in that range"},
      {"--git HEAD..HEAD~2 --build true --dist .", "is not an ancestor"},
      {"--git nosuch..HEAD --build true --dist .", "is no commit"},
      {"--git HEAD~2..HEAD", "--git wants --build CMD and --dist PATH"},
      {"--builds a b --git HEAD~1..HEAD", "either --builds"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int git = strstr(cases[i].args, "--git") != NULL;
    int rc = zt_sh(&log, "'%s' bisect '%s' %s%s%s%s --out '%s'", zt_zamcap(),
                   scn, cases[i].args, git ? " --repo '" : "", git ? repo : "",
                   git ? "'" : "", zt_tmp("badout"));
    ZT_INT(rc, 2);
    ZT_HAS(log, cases[i].says);
    free(log);
    log = NULL;
  }
  /* a tracked file changed and not committed */
  char p[4200];
  snprintf(p, sizeof p, "%s/app.js", repo);
  char *before = zt_read(p);
  ZT_INT(zt_sh(NULL, "echo '// local edit' >> '%s'", p), 0);
  char *edited = zt_read(p);
  int rc = zt_sh(&log,
                 "'%s' bisect '%s' --git HEAD~2..HEAD --repo '%s' --build true "
                 "--dist . --out '%s'",
                 zt_zamcap(), scn, repo, zt_tmp("dirtyout"));
  ZT_INT(rc, 2);
  ZT_HAS(log, "uncommitted changes");
  char *after = zt_read(p);
  ZT_STR(after, edited);
  ZT_TRUE(before && edited && strcmp(before, edited) != 0);
  free(before);
  free(edited);
  free(after);
  free(log);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"bad_inputs", test_bad_inputs},
      {"aa", test_aa},
      {"builds_one", test_builds_one},
      {"git_two", test_git_two},
  };
  return ZT_RUN(cases, argc, argv);
}
