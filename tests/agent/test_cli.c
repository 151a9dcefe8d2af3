/* The zamcap command line, run as a user runs it: exit codes, messages,
 * output files. ZAMCAP is the binary under test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "ana.h"
#include "test.h"
#include "timeline.h"
#include "zc.h"

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* old/ and new/ folders of the real traces, under ZC_TMP. */
static void make_dirs(void) {
  const char *real = zt_data("real");
  zt_sh(NULL,
        "mkdir -p '%s' '%s' '%s' && cp '%s'/old/*.json.gz '%s' && "
        "cp '%s'/new/*.json.gz '%s' && cp '%s'/old/*.json.gz '%s'",
        zt_tmp("old"), zt_tmp("new"), zt_tmp("old2"), real, zt_tmp("old"), real,
        zt_tmp("new"), real, zt_tmp("old2"));
  /* The second old folder pairs each run with another recording. */
  zt_sh(NULL,
        "cd '%s' && mv run-1.json.gz x && mv run-2.json.gz run-1.json.gz"
        " && mv run-3.json.gz run-2.json.gz && mv x run-3.json.gz",
        zt_tmp("old2"));
}

static void test_regression(void) {
  make_dirs();
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "compare '%s' '%s' --out '%s'", zt_tmp("old"),
                         zt_tmp("new"), zt_tmp("out"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "1 regression-cause");
  ZT_HAS(out, "slowChecksum (/app.js:");
  ZT_HAS(out, "main > renderList > buildRows > formatRow > slowChecksum");
  ZT_HAS(out, "pair 3/3");
  free(out);
  ZT_TRUE(exists(zt_tmp("out/critical-graph.dot")));
  char *md = zt_read(zt_tmp("out/summary.md"));
  ZT_HAS(md, "| `slowChecksum` (new) | `/app.js`:");
  /* Plain text too: no backslash before "-", "(", "." in the verdict. */
  ZT_HAS(md, "1 regression-cause (slower by 50 ms or more in every pair)");
  ZT_TRUE(md && !strstr(md, "\\-") && !strstr(md, "\\(") && !strstr(md, "\\."));
  free(md);
  ZT_TRUE(exists(zt_tmp("out/pairs/pair-3.dot")));
  char *dot = zt_read(zt_tmp("out/critical-graph.dot"));
  ZT_HAS(dot, "slowChecksum\\n/app.js:");
  ZT_HAS(dot, "fillcolor=\"grey75\"");
  free(dot);
  char *json = zt_read(zt_tmp("out/report.json"));
  ZT_HAS(json, "\"schema\":\t\"zamcap-report/2\"");
  /* The commit zamcap was built from, beside its version. */
  char commit[128];
  snprintf(commit, sizeof commit, "\"zamcap_commit\":\t\"%s\"", zc_commit);
  ZT_HAS(json, commit);
  ZT_HAS(json, "\"regression_causes\"");
  ZT_HAS(json, "\"bottom_up\"");
  ZT_HAS(json, "\"delta_ms_per_pair\"");
  /* Three pairs: the cause passed the significance test, which was on. */
  ZT_HAS(json, "\"significance\":\ttrue");
  ZT_HAS(json, "\"not_significant\":");
  free(json);
  ZT_INT(zt_run_zamcap(NULL,
                       "compare -q '%s' '%s' --no-significance --format "
                       "json --out '%s'",
                       zt_tmp("old"), zt_tmp("new"), zt_tmp("out-nosig")),
         1);
  json = zt_read(zt_tmp("out-nosig/report.json"));
  ZT_HAS(json, "\"significance\":\tfalse");
  free(json);
  /* report.json is valid JSON (python3 is there wherever the tests run). */
  ZT_INT(
      zt_sh(NULL,
            "python3 -c 'import json,sys; r=json.load(open(sys.argv[1]));"
            " c=r[\"regression_causes\"]; assert "
            "c[0][\"name\"]==\"slowChecksum\";"
            " assert len(c[0][\"delta_ms_per_pair\"])==3;"
            " assert r[\"bottom_up\"][\"rows\"][0][\"name\"]==\"slowChecksum\"'"
            " '%s'",
            zt_tmp("out/report.json")),
      0);
}

/* Names from a page reach the terminal escaped: a function named with
 * escape sequences, a bell, CR/LF and a C1 control cannot retitle or clear
 * the terminal or forge a line of the log. */
/* Call counts that cannot be used (issue 35): count files that are not
 * zamcap-calls/1 beside the traces give a warning naming the pair, and
 * the causes are today's (those of the same traces without them). */
static void test_bad_counts(void) {
  make_dirs();
  zt_sh(
      NULL,
      "mkdir -p '%s' '%s' && cp '%s'/*.json.gz '%s' && cp '%s'/*.json.gz "
      "'%s' && echo '{\"schema\": \"not-calls\"}' > '%s/run-calls-1.calls.json'"
      " && echo '[1,' > '%s/run-calls-1.calls.json'",
      zt_tmp("cold"), zt_tmp("cnew"), zt_tmp("old"), zt_tmp("cold"),
      zt_tmp("new"), zt_tmp("cnew"), zt_tmp("cold"), zt_tmp("cnew"));
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "compare '%s' '%s' --out '%s'", zt_tmp("cold"),
                         zt_tmp("cnew"), zt_tmp("counts-bad"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "warning: count pair 1 left out:");
  ZT_HAS(out, "not a zamcap-calls/1 file");
  ZT_HAS(out, "slowChecksum (/app.js:");
  ZT_TRUE(out && !strstr(out, "calls: "));
  free(out);
  cJSON *rep = zt_json("%s/report.json", zt_tmp("counts-bad"));
  ZT_TRUE(zt_jget(rep, "counts") == NULL);
  ZT_STR(zt_jstr(rep, "regression_causes.0.name"), "slowChecksum");
  ZT_TRUE(zt_jget(rep, "regression_causes.0.calls") == NULL);
  cJSON_Delete(rep);
}

static void test_hostile_names(void) {
  make_dirs();
  zt_sh(NULL,
        "mkdir -p '%s' && for f in '%s'/*.json.gz; do zcat \"$f\" | "
        "sed 's/\"slowChecksum\"/\"\\\\u001b]0;pwned\\\\u0007\\\\u001b[2J\\\\r"
        "\\\\nforged: +999.0 ms fake() \\\\u009b31m\\\\u202e\"/g' > '%s'/"
        "$(basename \"$f\" .gz); done",
        zt_tmp("evil"), zt_tmp("new"), zt_tmp("evil"));
  char *out = NULL;
  int rc = zt_sh(&out,
                 "'%s' compare '%s' '%s' --out '%s' && '%s' tree "
                 "--min 20 '%s'/run-1.json",
                 zt_zamcap(), zt_tmp("old"), zt_tmp("evil"), zt_tmp("evilout"),
                 zt_zamcap(), zt_tmp("evil"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "\\e]0;pwned\\x07\\e[2J\\r\\nforged: +999.0 ms fake() "
              "\\u009B31m\\u202E (/app.js:");
  ZT_TRUE(out && !strchr(out, '\033') && !strchr(out, '\a') &&
          !strchr(out, '\r') && !strstr(out, "\xc2\x9b") &&
          !strstr(out, "\nforged"));
  free(out);
  /* the files keep the name as it was */
  ZT_INT(zt_sh(NULL,
               "python3 -c 'import json,sys; r=json.load(open("
               "sys.argv[1])); assert r[\"regression_causes\"][0][\"name\"]"
               ".startswith(\"\\x1b]0;pwned\\x07\")' '%s'",
               zt_tmp("evilout/report.json")),
         0);
}

/* A call path 12 000 calls deep (V8 goes that deep): report.json stays a
 * flat list that Python's json and zamcap html read, of a size linear in
 * the nodes, and the terminal shows the path's ends. */
static void test_deep_path(void) {
  zt_sh(NULL,
        "mkdir -p '%s/old' '%s/new' && python3 '%s'"
        " 12000 100 '%s/old/run-1.cpuprofile' && python3 "
        "'%s' 12000 300 '%s/new/run-1.cpuprofile'",
        zt_tmp("deep"), zt_tmp("deep"), zt_tests("agent/deepprof.py"),
        zt_tmp("deep"), zt_tests("agent/deepprof.py"), zt_tmp("deep"));
  char *out = NULL;
  int rc = zt_run_zamcap(&out,
                         "compare '%s/old' '%s/new' --format text,json,md "
                         "--out '%s/out'",
                         zt_tmp("deep"), zt_tmp("deep"), zt_tmp("deep"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "main > main > walk > walk");
  ZT_HAS(out, "... 11972 more > walk");
  ZT_TRUE(out && strlen(out) < 4000);
  free(out);
  ZT_INT(
      zt_sh(NULL,
            "python3 -c 'import json,sys,os; r=json.load(open("
            "sys.argv[1])); n=r[\"aggregate\"][\"critical_graph\"][\"nodes\"];"
            " assert len(n)==12003, len(n); assert n[12002][\"parent\"]=="
            "12001; assert n[12002][\"name\"]==\"leafWork\";"
            " assert os.path.getsize(sys.argv[1]) < 1000 * 3 * 12003' "
            "'%s/out/report.json'",
            zt_tmp("deep")),
      0);
  ZT_INT(zt_run_zamcap(&out, "html '%s/out'", zt_tmp("deep")), 0);
  free(out);
  char *html = zt_read(zt_tmp("deep/out/report.html"));
  ZT_HAS(html, "deeper levels in report.json");
  free(html);
}

/* A function named with 20 000 bytes: the graph is still drawn (dot
 * refuses labels past 16 KB), summary.md stays far below a comment's
 * 65 536 characters. */
static void test_long_name(void) {
  zt_sh(NULL,
        "mkdir -p '%s/old' '%s/new' && python3 '%s'"
        " 3 100 '%s/old/run-1.cpuprofile' 20000 && python3 "
        "'%s' 3 300 '%s/new/run-1.cpuprofile' 20000",
        zt_tmp("long"), zt_tmp("long"), zt_tests("agent/deepprof.py"),
        zt_tmp("long"), zt_tests("agent/deepprof.py"), zt_tmp("long"));
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "compare '%s/old' '%s/new' --out '%s/out'",
                         zt_tmp("long"), zt_tmp("long"), zt_tmp("long"));
  ZT_INT(rc, 1);
  ZT_TRUE(out && !strstr(out, "dot"));
  free(out);
  struct stat st;
  ZT_TRUE(stat(zt_tmp("long/out/critical-graph.svg"), &st) == 0);
  ZT_TRUE(stat(zt_tmp("long/out/summary.md"), &st) == 0 && st.st_size < 4000);
  char *dot = zt_read(zt_tmp("long/out/critical-graph.dot"));
  ZT_HAS(dot, "leafWork____");
  ZT_HAS(dot, "_\xe2\x80\xa6\\n/app.js:10");
  ZT_TRUE(dot && strlen(dot) < 4000);
  free(dot);
}

/* A helper called from 20 call sites, each slower by 6 ms: no call path
 * passes μ, the helper does over all of them (seed 000 §6.1's misses); an
 * A/A run of the same shape reports nothing. */
static void test_spread_out(void) {
  const char *d = zt_tmp("spread");
  zt_sh(NULL,
        "mkdir -p '%s/old' '%s/new' '%s/old2' && for i in 1 2 3; do "
        "python3 '%s' 20 2 o$i '%s/old'/run-$i.cpuprofile"
        " && python3 '%s' 20 8 n$i "
        "'%s/new'/run-$i.cpuprofile && python3 '%s' 20 2"
        " a$i '%s/old2'/run-$i.cpuprofile; done",
        d, d, d, zt_tests("agent/spreadprof.py"), d,
        zt_tests("agent/spreadprof.py"), d, zt_tests("agent/spreadprof.py"), d);
  char *out = NULL;
  int rc =
      zt_run_zamcap(&out, "compare '%s/old' '%s/new' --out '%s/out'", d, d, d);
  ZT_INT(rc, 1);
  ZT_HAS(out, "1 regression-cause (slower by ≥ 50 ms in all 3 pairs):\n"
              "1 spread-out regression-cause");
  ZT_HAS(out, "+120.0 ms  helper (/app.js:4:1)  over 20 call paths");
  ZT_HAS(out, "+6.0 ms  main > site0 > helper");
  ZT_HAS(out, "1 spread-out regression-cause: no single call path got "
              "slower by 50 ms or more in every pair, but the largest, "
              "helper (/app.js:4:1), did by +120.0 ms over its 20 call paths");
  free(out);
  char *md = zt_read(zt_tmp("spread/out/summary.md"));
  ZT_HAS(md, "| +120.0 ms | `helper` | `/app.js`:4 | 20 | `main` › `site0` "
             "› `helper` |");
  free(md);
  char *html = zt_read(zt_tmp("spread/out/report.html"));
  ZT_HAS(html, "<h2>Spread-out regression-causes</h2>");
  free(html);
  ZT_INT(zt_sh(NULL,
               "python3 -c 'import json,sys; r=json.load(open("
               "sys.argv[1])); s=r[\"spread_causes\"]; assert len(s)==1;"
               " s=s[0]; assert s[\"name\"]==\"helper\" and s[\"call_paths\"]"
               "==20, s; assert s[\"delta_ms_per_pair\"]==[120,120,120], s;"
               " assert s[\"costliest_paths\"][0][\"path\"]==[\"main\","
               "\"site0\",\"helper\"], s; assert r[\"verdict\"][\"exit_code\"]"
               "==1' '%s/out/report.json'",
               d),
         0);
  rc = zt_run_zamcap(&out, "compare '%s/old' '%s/old2' --out '%s/aa'", d, d, d);
  /* names nothing; three pairs leave the end-to-end figure undecided */
  ZT_INT(rc, 5);
  ZT_TRUE(out && !strstr(out, "spread-out"));
  free(out);
}

/* The merged call trees for other tools: folded stacks that parse back
 * and sum to the .cpuprofile's time, which zamcap itself reads again with
 * the same self times. */
static void test_exports(void) {
  make_dirs();
  const char *o = zt_tmp("exports");
  ZT_INT(zt_run_zamcap(NULL,
                       "compare -q '%s' '%s' --format json,folded,"
                       "cpuprofile --out '%s'",
                       zt_tmp("old"), zt_tmp("new"), o),
         1);
  ZT_INT(zt_sh(NULL,
               "python3 - '%s' <<'EOF'\n"
               "import json, re, sys\n"
               "d = sys.argv[1]\n"
               "for side in ('old', 'new'):\n"
               "    total, by = 0, {}\n"
               "    for line in open(d + '/' + side + '.folded'):\n"
               "        m = re.fullmatch(r'([^;\\n]+(?:;[^;\\n]+)*) "
               "(\\d+)\\n', line)\n"
               "        assert m, line\n"
               "        total += int(m.group(2))\n"
               "        leaf = m.group(1).split(';')[-1].split(' (')[0]\n"
               "        by[leaf] = by.get(leaf, 0) + int(m.group(2))\n"
               "    p = json.load(open(d + '/' + side + '.cpuprofile'))\n"
               "    assert p['endTime'] == total, (p['endTime'], total)\n"
               "    assert len(p['samples']) == len(p['timeDeltas'])\n"
               "    r = json.load(open(d + '/report.json'))\n"
               "    rows = {x['name']: x for x in r['bottom_up']['rows']}\n"
               "    key = side + '_self_ms'\n"
               "    want = rows['slowChecksum'][key] * 3 * 1000\n"
               "    assert abs(by.get('slowChecksum', 0) - want) < 5, "
               "(by.get('slowChecksum'), want)\n"
               "EOF\n",
               o),
         0);
  char *out = NULL;
  ZT_INT(zt_run_zamcap(&out, "tree '%s/new.cpuprofile' --min 100", o), 0);
  ZT_HAS(out, "slowChecksum  ");
  free(out);
}

/* A slowdown that swings widely over the pairs (+60, +80, +300 ms) is
 * neither a regression nor none: inconclusive, exit 5, with how many pairs
 * would likely settle it; --no-significance calls it a regression. */
static void test_inconclusive(void) {
  const char *d = zt_tmp("noisy");
  static const int new_ms[3] = {160, 180, 400};
  for (int i = 0; i < 3; i++)
    zt_sh(NULL,
          "mkdir -p '%s/old' '%s/new' && python3 "
          "'%s' 3 100 '%s/old/run-%d.cpuprofile' && "
          "python3 '%s' 3 %d '%s/new/run-%d.cpuprofile'",
          d, d, zt_tests("agent/deepprof.py"), d, i + 1,
          zt_tests("agent/deepprof.py"), new_ms[i], d, i + 1);
  char *out = NULL;
  int rc =
      zt_run_zamcap(&out, "compare '%s/old' '%s/new' --out '%s/out'", d, d, d);
  ZT_INT(rc, 5);
  ZT_HAS(out, "Inconclusive (1 candidate undecided after 3 pairs)\n");
  ZT_HAS(out, "Inconclusive: 1 candidate slower by 50 ms or more in every "
              "pair varied too widely over the 3 pairs to decide; about 6 "
              "pairs in all would likely settle it (--pairs 6)");
  free(out);
  ZT_INT(zt_sh(NULL,
               "python3 -c 'import json,sys; v=json.load(open("
               "sys.argv[1]))[\"verdict\"]; assert v[\"state\"]=="
               "\"inconclusive\" and v[\"exit_code\"]==5 and v[\"pairs\"]==3"
               " and v[\"undecided\"]==1 and v[\"pairs_needed\"]==6, v' "
               "'%s/out/report.json'",
               d),
         0);
  ZT_INT(zt_run_zamcap(NULL,
                       "compare -q '%s/old' '%s/new' --no-significance "
                       "--format json --out '%s/out2'",
                       d, d, d),
         1);
}

/* zamcap check: valid scenarios list their steps and where each build
 * takes the app's origin, exit 0; invalid ones one line, exit 2; no
 * browser either way. */
/* Issue 15: a real trace (rspack's --profile, a Node process's chunks,
 * whose endTime was once read in the wrong clock) against a copy shifted
 * in time by a constant is A/A: nothing is reported. */
static void test_shifted_aa(void) {
  const char *a = zt_tmp("shift-old"), *b = zt_tmp("shift-new");
  zt_sh(NULL, "rm -rf '%s' '%s'; mkdir -p '%s' '%s'", a, b, a, b);
  int rc = zt_sh(NULL,
                 "python3 - '%s' '%s/trace.json' '%s/trace.json' <<'EOF'\n"
                 "import gzip, json, sys\n"
                 "d = json.load(gzip.open(sys.argv[1]))\n"
                 "ev = d['traceEvents'] if isinstance(d, dict) else d\n"
                 "json.dump(d, open(sys.argv[2], 'w'))\n"
                 "K = 123456789\n"
                 "for e in ev:\n"
                 "    if 'ts' in e: e['ts'] += K\n"
                 "    x = e.get('args', {}).get('data', {})\n"
                 "    if isinstance(x, dict):\n"
                 "        for k in ('startTime', 'endTime'):\n"
                 "            if k in x: x[k] += K\n"
                 "        cp = x.get('cpuProfile', {})\n"
                 "        for k in ('startTime', 'endTime'):\n"
                 "            if isinstance(cp, dict) and k in cp: cp[k] += K\n"
                 "json.dump(d, open(sys.argv[3], 'w'))\n"
                 "EOF\n",
                 zt_data("real-traces/rspack-profile-chunk.json.gz"), a, b);
  ZT_INT(rc, 0);
  char *out = NULL;
  rc = zt_run_zamcap(&out, "compare '%s' '%s' --out '%s'", a, b,
                     zt_tmp("shift-out"));
  ZT_INT(rc, 0);
  ZT_HAS(out, "No regression-cause");
  if (rc) fprintf(stderr, "%s\n", out);
  free(out);
}

/* The corpus of real Recorder exports (tests/data/recorder): every flow
 * that @puppeteer/replay's parse() accepts, zamcap check accepts. */
static void test_recorder_corpus(void) {
  char *list = zt_read(zt_data("recorder/replay-parse.txt"));
  ZT_TRUE(list != NULL);
  if (!list) return;
  unsigned ok = 0, refused = 0;
  for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
    if (strncmp(line, "ok ", 3) != 0) continue;
    char *out = NULL, rel[512];
    snprintf(rel, sizeof rel, "recorder/%s", line + 3);
    int rc = zt_run_zamcap(&out, "check '%s'", zt_data(rel));
    if (rc == 0 && out && strstr(out, "scenario "))
      ok++;
    else {
      refused++;
      fprintf(stderr, "refused %s: %s\n", line + 3, out ? out : "");
    }
    free(out);
  }
  free(list);
  ZT_TRUE(ok >= 40);
  ZT_INT(refused, 0);
}

static void test_check(void) {
  char *out = NULL;
  const char *scn = zt_demo("todo.json");
  int rc = zt_sh(&out,
                 "CHROME_PATH=/nonexistent PATH=/usr/bin:/bin '%s' "
                 "check '%s' --old dist-old/ --new https://staging.example/",
                 zt_zamcap(), scn);
  ZT_INT(rc, 0);
  ZT_HAS(out, ": 15 steps, traced from step 5\n");
  ZT_HAS(out,
         "    2  navigate                 http://localhost:8080/index.html");
  ZT_HAS(out, "   13  keyDown                  Enter\n");
  ZT_HAS(out, "  old: http://localhost:8080 -> dist-old/\n");
  ZT_HAS(out, "  new: http://localhost:8080 -> https://staging.example/\n");
  free(out);
  zt_sh(NULL,
        "printf '{\"title\": \"t\", \"steps\": [{\"type\": \"navigate\", "
        "\"url\": \"http://a/\"}, {\"type\": \"click\"}]}' > '%s'",
        zt_tmp("bad-check.json"));
  rc = zt_run_zamcap(&out, "check '%s'", zt_tmp("bad-check.json"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "bad-check.json: step 2 (click): ");
  free(out);
  zt_sh(NULL,
        "printf '{\"title\": \"t\", \"steps\": [{\"type\": \"close\"}]}'"
        " > '%s'",
        zt_tmp("nonav.json"));
  /* a flow that never navigates (recorded on an open page) is accepted,
   * as @puppeteer/replay accepts it: each run loads the build's URL */
  rc = zt_run_zamcap(&out, "check '%s'", zt_tmp("nonav.json"));
  ZT_INT(rc, 0);
  ZT_HAS(out, ": 1 step, traced from step 1");
  ZT_HAS(out, "the build's URL  (added: the flow never navigates)");
  free(out);
}

/* Issue 26.6: zamcap check prints no form of a URL's secrets: not the
 * --old it was given, nor the percent-encoded form in the scenario's own
 * URLs; every command's stdout goes through the masks. */
static void test_check_secrets(void) {
  zt_sh(NULL,
        "printf '{\"title\": \"t\", \"steps\": [{\"type\": \"navigate\", "
        "\"url\": \"http://admin:Mail%%%%40Pass4242@app.example/"
        "?token=T0k%%%%7Ben%%%%7D42\"}]}' > '%s'",
        zt_tmp("secret-check.json"));
  char *out = NULL;
  int rc = zt_run_zamcap(
      &out,
      "check '%s' --old "
      "'http://admin:Mail@Pass4242@127.0.0.1:9/app/?token=T0k{en}42'"
      " --new 'http://admin:pw@host/?token=abcdef'",
      zt_tmp("secret-check.json"));
  ZT_INT(rc, 0);
  ZT_HAS(out, "origins:");
  ZT_HAS(out, "********");
  static const char *const forms[] = {"Mail@Pass4242", "Mail%40Pass4242",
                                      "T0k{en}42",     "T0k%7Ben%7D42",
                                      "admin:pw",      "abcdef"};
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
    if (!ZT_TRUE(out && !strstr(out, forms[i])))
      fprintf(stderr, "  printed: %s\n", forms[i]);
  free(out);
}

/* compare RUN_DIR: a run's folder, old-<i> paired with new-<i> by number
 * (10 after 9), a pair missing one side left out with a word. */
static void test_run_dir(void) {
  make_dirs();
  const char *run = zt_tmp("run");
  zt_sh(NULL,
        "rm -rf '%s' && mkdir -p '%s/traces' && cd '%s/traces' && "
        "cp '%s/run-1.json.gz' old-1.json.gz && cp '%s/run-1.json.gz' "
        "new-1.json.gz && cp '%s/run-2.json.gz' old-10.json.gz && "
        "cp '%s/run-2.json.gz' new-10.json.gz && cp '%s/run-3.json.gz' "
        "new-3.json.gz && cp new-3.json.gz old-+3.json.gz",
        run, run, run, zt_tmp("old"), zt_tmp("new"), zt_tmp("old"),
        zt_tmp("new"), zt_tmp("new"));
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "compare '%s' --format json --out '%s'", run,
                         zt_tmp("run-cmp"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "pair 3 has only its new trace: left out");
  ZT_HAS(out, "pair 2/2: old-10.json.gz vs new-10.json.gz");
  ZT_HAS(out, "pair 1/2: old-1.json.gz vs new-1.json.gz");
  ZT_TRUE(out && !strstr(out, "pair 3/3")); /* old-+3 is no run's name */
  free(out);
  /* The traces/ folder itself works too; a folder with no such pair is a
   * usage error naming it. */
  ZT_INT(zt_run_zamcap(NULL, "compare -q '%s/traces' --format json --out '%s'",
                       run, zt_tmp("run-cmp2")),
         1);
  rc = zt_run_zamcap(&out, "compare '%s' --out '%s'", zt_tmp("old"),
                     zt_tmp("run-cmp3"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "no pair of old-<i> and new-<i> traces");
  free(out);
}

static void test_aa_and_options(void) {
  make_dirs();
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "compare -q '%s' '%s' --out '%s'", zt_tmp("old"),
                         zt_tmp("old2"), zt_tmp("aa"));
  /* An A/A names nothing; three pairs of these traces cannot show that
   * the scripting did not grow by 5 %, so the verdict is inconclusive
   * (issue 34: exit 0 means "not slower"), not "no regression". */
  ZT_INT(rc, 5);
  ZT_HAS(out, "No regression-cause (no function got slower by ≥ 50 ms in all "
              "3 pairs)");
  char *aa = zt_read(zt_tmp("aa/report.json"));
  ZT_HAS(aa, "\"end to end undecided\"");
  free(aa);
  free(out);
  /* --pairs limits, --mu raises the bar past the regression. */
  rc = zt_run_zamcap(&out, "compare '%s' '%s' --pairs 1 --mu 500 --out '%s'",
                     zt_tmp("old"), zt_tmp("new"), zt_tmp("mu"));
  ZT_INT(rc, 0);
  ZT_HAS(out, "pair 1/1");
  free(out);
  ZT_TRUE(!exists(zt_tmp("mu/pairs/pair-2.dot")));
  /* The default output folder and its "latest" link. */
  rc = zt_sh(
      &out,
      "cd '%s' && '%s' compare -q old new --pairs 1 && "
      "test -L zamcap-out/latest && test -f zamcap-out/latest/report.json",
      zt_tmp(""), zt_zamcap());
  ZT_INT(rc, 1);
  free(out);
}

/* ---- sampling heap profiles (.heapprofile) given to compare ---- */

static double jnum_at(const cJSON *arr, int i) {
  return cJSON_GetNumberValue(cJSON_GetArrayItem(arr, i));
}

/* The stored profiles (tests/data/memapp-*-mem-1, where the new build's
 * cloneRecords copies each record 12 times), as a run keeps them:
 * DIR/traces/{old,new}-mem-<i>.heapprofile, plain; with the real traces
 * beside them as {old,new}-<i>.json.gz when traces is set. */
static void make_heap_run(const char *dir, int traces) {
  zt_sh(NULL,
        "rm -rf '%s' && mkdir -p '%s/traces' && cd '%s/traces' && "
        "zcat '%s' > old-mem-1.heapprofile && zcat '%s' > "
        "new-mem-1.heapprofile",
        dir, dir, dir, zt_data("memapp-old-mem-1.heapprofile.gz"),
        zt_data("memapp-new-mem-1.heapprofile.gz"));
  if (traces)
    zt_sh(NULL,
          "cd '%s/traces' && for i in 1 2 3; do cp '%s'/old/run-$i.json.gz "
          "old-$i.json.gz && cp '%s'/new/run-$i.json.gz new-$i.json.gz; done",
          dir, zt_data("real"), zt_data("real"));
}

/* The allocation cause named cloneRecords in report.json's allocation,
 * and the same path in its flame graph (in KB, a regression-cause there,
 * with the cause's KB per run). */
static void check_alloc(const cJSON *doc) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(doc, "allocation");
  ZT_STR(cJSON_GetStringValue(zt_jget(a, "unit")), "KB");
  const cJSON *rc = zt_jget(a, "regression_causes");
  if (!ZT_INT(cJSON_GetArraySize(rc), 1)) return;
  const cJSON *c = cJSON_GetArrayItem(rc, 0);
  ZT_STR(cJSON_GetStringValue(zt_jget(c, "name")), "cloneRecords");
  double o = cJSON_GetNumberValue(zt_jget(c, "old_kb"));
  double n = cJSON_GetNumberValue(zt_jget(c, "new_kb"));
  double d = cJSON_GetNumberValue(zt_jget(c, "delta_kb"));
  ZT_NEAR(d, 35176.691, 0.0005); /* the stored profiles' (tests/data) */
  ZT_NEAR(d, n - o, 0.01);
  const cJSON *fl = zt_jget(a, "flame");
  ZT_STR(cJSON_GetStringValue(zt_jget(fl, "unit")), "KB");
  ZT_TRUE(zt_jget(fl, "old_ms") == NULL && zt_jget(fl, "new_ms") == NULL);
  const cJSON *names = zt_jget(fl, "names"), *name = zt_jget(fl, "name");
  int found = 0;
  for (int i = 0; i < cJSON_GetArraySize(name); i++) {
    int k = (int)jnum_at(name, i);
    const char *s = cJSON_GetStringValue(cJSON_GetArrayItem(names, k));
    if (!s || strcmp(s, "cloneRecords")) continue;
    found++;
    ZT_INT(jnum_at(zt_jget(fl, "flag"), i), 3); /* on a path, a cause */
    ZT_NEAR(jnum_at(zt_jget(fl, "new_kb"), i), n, 0.01);
    ZT_NEAR(jnum_at(zt_jget(fl, "old_kb"), i), o, 0.01);
  }
  ZT_INT(found, 1);
}

/* Two heap profiles alone: the allocation is the comparison, its cause
 * the verdict and the exit code; every report says so in KB, and the
 * merged profiles hold the bytes read. An A/A finds nothing. */
static void test_heap_compare(void) {
  const char *o = zt_data("memapp-old-mem-1.heapprofile.gz");
  const char *n = zt_data("memapp-new-mem-1.heapprofile.gz");
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "compare '%s' '%s' --memory-mu 1024 --out '%s'",
                         o, n, zt_tmp("heap"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "allocation: 1 allocation regression-cause (≥ 1024 KB more");
  ZT_HAS(out, "  cloneRecords (/app.js:11:");
  free(out);
  cJSON *doc = zt_json("%s/report.json", zt_tmp("heap"));
  check_alloc(doc);
  ZT_INT(cJSON_GetNumberValue(zt_jget(doc, "verdict.exit_code")), 1);
  ZT_HAS(cJSON_GetStringValue(zt_jget(doc, "verdict.text")),
         "the largest: cloneRecords (/app.js:11:");
  ZT_NEAR(cJSON_GetNumberValue(zt_jget(doc, "options.mu_kb")), 1024, 0);
  ZT_TRUE(zt_jget(doc, "regression_causes") == NULL);
  cJSON_Delete(doc);
  char *md = zt_read(zt_tmp("heap/summary.md"));
  ZT_HAS(md, "### zamcap: 1 allocation regression-cause");
  ZT_HAS(md, "| `cloneRecords` | `/app.js`:11 |");
  free(md);
  char *html = zt_read(zt_tmp("heap/report.html"));
  ZT_HAS(html, "<title>zamcap: 1 allocation regression-cause");
  ZT_HAS(html, "<div id=\"alloc-flame\" class=\"flame\">");
  ZT_HAS(html, "\"unit\":\"KB\"");
  ZT_HAS(html, "script-src 'nonce-");
  ZT_TRUE(html && !strstr(html, "id=\"flame\"") &&
          !strstr(html, "id=\"causes\""));
  free(html);
  /* The merged profiles: what was read, byte for byte. */
  struct ana_ctx *c = ana_ctx_new();
  const char *src[2] = {o, n},
             *dst[2] = {"heap/old.heapprofile", "heap/new.heapprofile"};
  for (int k = 0; k < 2; k++) {
    struct ana_timeline *a = NULL, *b = NULL;
    ZT_INT(ana_load(c, src[k], &a), ZC_OK);
    ZT_INT(ana_load(c, zt_tmp(dst[k]), &b), ZC_OK);
    if (a && b) ZT_INT(b->nodes[0].total, a->nodes[0].total);
    ana_timeline_free(a);
    ana_timeline_free(b);
  }
  ana_ctx_free(c);
  rc = zt_run_zamcap(&out, "compare -q '%s' '%s' --out '%s'", o, o,
                     zt_tmp("heap-aa"));
  ZT_INT(rc, 0);
  ZT_HAS(out, "No allocation regression-cause (no function allocated ≥ 256 KB "
              "more in the one pair)");
  free(out);
}

/* A run's folder (or two folders) holding traces and heap profiles:
 * both compared, time as ever and allocation beside it; a memory pair
 * missing a side is left out with a word. */
static void test_heap_run_dir(void) {
  const char *run = zt_tmp("heaprun");
  make_heap_run(run, 1);
  zt_sh(NULL,
        "cp '%s/traces/old-mem-1.heapprofile' "
        "'%s/traces/old-mem-2.heapprofile'",
        run, run);
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "compare '%s' --memory-mu 1024 --out '%s'", run,
                         zt_tmp("heaprun-out"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "memory pair 2 has only its old heap profile: left out");
  ZT_HAS(out, "pair 3/3: old-3.json.gz vs new-3.json.gz");
  ZT_HAS(out, "slowChecksum (/app.js:");
  ZT_HAS(out, "allocation: 1 allocation regression-cause");
  free(out);
  cJSON *doc = zt_json("%s/report.json", zt_tmp("heaprun-out"));
  check_alloc(doc);
  const cJSON *rcs = zt_jget(doc, "regression_causes");
  ZT_INT(cJSON_GetArraySize(rcs), 1);
  ZT_STR(cJSON_GetStringValue(zt_jget(cJSON_GetArrayItem(rcs, 0), "name")),
         "slowChecksum");
  ZT_INT(cJSON_GetArraySize(zt_jget(doc, "allocation.profiles")), 1);
  cJSON_Delete(doc);
  char *html = zt_read(zt_tmp("heaprun-out/report.html"));
  ZT_HAS(html, "<section id=\"flame\" class=\"flame\">");
  ZT_HAS(html, "<div id=\"alloc-flame\" class=\"flame\">");
  int scripts = 0;
  for (const char *p = html; p && (p = strstr(p, "<script nonce=")); p++)
    scripts++;
  ZT_INT(scripts, 1); /* one script draws both */
  free(html);
  /* OLD_DIR and NEW_DIR of both kinds: each kind paired with its own. */
  zt_sh(NULL,
        "mkdir -p '%s/o' '%s/n' && cd '%s/traces' && cp old-1.json.gz "
        "old-mem-1.heapprofile ../o && cp new-1.json.gz new-mem-1.heapprofile "
        "../n",
        run, run, run);
  char od[4200], nd[4200];
  snprintf(od, sizeof od, "%s/o", run);
  snprintf(nd, sizeof nd, "%s/n", run);
  rc = zt_run_zamcap(&out, "compare '%s' '%s' --memory-mu 1024 --out '%s'", od,
                     nd, zt_tmp("heapdirs-out"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "pair 1/1: old-1.json.gz vs new-1.json.gz");
  ZT_HAS(out, "pair 1/1: old-mem-1.heapprofile vs new-mem-1.heapprofile");
  ZT_HAS(out, "allocation: 1 allocation regression-cause");
  free(out);
  /* Traces on one side and heap profiles on the other: nothing to pair. */
  zt_sh(NULL, "rm '%s/o/old-mem-1.heapprofile' '%s/n/new-1.json.gz'", run, run);
  rc = zt_run_zamcap(&out, "compare '%s' '%s' --out '%s'", od, nd,
                     zt_tmp("heapdirs-out2"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "no trace or heap profile of the same kind on both sides");
  free(out);
}

/* A broken or empty heap profile: one line naming the file, exit 2 (as
 * a broken trace); with traces beside it, their pairs' graphs are kept. */
static void test_heap_bad(void) {
  static const struct {
    const char *text, *says;
  } bad[] = {
      {"", "empty file"},
      {"{\"head\":{\"callFrame\":{\"functionName\":\"f\"},\"children\":[",
       "byte 54: not a sampling heap profile"},
      {"{\"samples\":[]}", "a heap profile without its \"head\" tree"},
      {"{\"head\":{\"callFrame\":{},\"selfSize\":0,\"children\":[]},"
       "\"samples\":[]}",
       "no allocation sampled in this heap profile"},
  };
  const char *run = zt_tmp("heapbad");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    make_heap_run(run, i == 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/traces/new-mem-1.heapprofile", run);
    zt_write_str(path, bad[i].text);
    char *out = NULL, want[4400];
    int rc = zt_run_zamcap(&out, "compare -q '%s' --out '%s'", run,
                           zt_tmp("heapbad-out"));
    ZT_INT(rc, 2);
    snprintf(want, sizeof want, "zamcap: %s: %s", path, bad[i].says);
    ZT_HAS(out, want);
    if (i == 0) ZT_HAS(out, "(the graphs of the 3 pairs done are in");
    int lines = 0;
    for (const char *p = out; p && *p; p++)
      lines += *p == '\n';
    ZT_INT(lines, 1);
    free(out);
  }
}

/* A real profile DevTools saved (tests/data/real-heap/chrome69): against
 * itself no cause; against a copy in which surveyPhase1 allocates ten
 * times its 115224 bytes, that function, by what was added. */
static void test_heap_devtools(void) {
  const char *real = zt_data("real-heap/chrome69.heapprofile.gz");
  const char *more = zt_tmp("chrome69-more.heapprofile");
  zt_sh(NULL,
        "zcat '%s' | sed 's/\"selfSize\":115224,/\"selfSize\":1152240,/' > "
        "'%s'",
        real, more);
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "compare -q '%s' '%s' --out '%s'", real, real,
                         zt_tmp("devtools-aa"));
  ZT_INT(rc, 0);
  ZT_HAS(out, "No allocation regression-cause");
  free(out);
  rc = zt_run_zamcap(&out, "compare -q '%s' '%s' --out '%s'", real, more,
                     zt_tmp("devtools"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "surveyPhase1 (/js/contentscript.js:2022:32)");
  free(out);
  cJSON *doc = zt_json("%s/report.json", zt_tmp("devtools"));
  const cJSON *rcs = zt_jget(doc, "allocation.regression_causes");
  if (ZT_INT(cJSON_GetArraySize(rcs), 1)) {
    const cJSON *c = cJSON_GetArrayItem(rcs, 0);
    ZT_STR(cJSON_GetStringValue(zt_jget(c, "name")), "surveyPhase1");
    ZT_NEAR(cJSON_GetNumberValue(zt_jget(c, "delta_kb")),
            (1152240 - 115224) / 1024.0, 0.001);
    ZT_NEAR(cJSON_GetNumberValue(zt_jget(c, "old_kb")), 115224 / 1024.0, 0.001);
  }
  cJSON_Delete(doc);
}

static void test_usage_errors(void) {
  char *out = NULL;
  ZT_INT(zt_run_zamcap(&out, "--help"), 0);
  ZT_HAS(out, "compare OLD_DIR NEW_DIR");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "compare --help"), 0);
  ZT_HAS(out, "--quorum");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "--version"), 0);
  ZT_HAS(out, "zamcap 0.");
  /* and the commit it was built from: this test's own (the same build) */
  ZT_HAS(out, "(commit ");
  ZT_HAS(out, zc_commit);
  free(out);
  ZT_INT(zt_run_zamcap(&out, "frobnicate"), 2);
  ZT_HAS(out, "unknown command 'frobnicate'");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "compare"), 2);
  ZT_HAS(out, "try 'zamcap compare --help'");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "compare a b c"), 2);
  ZT_HAS(out, "compare wants OLD_DIR and NEW_DIR, or a run's RUN_DIR");
  free(out);
  /* One argument is a run's folder. */
  ZT_INT(zt_run_zamcap(&out, "compare /nonexistent-run"), 2);
  ZT_HAS(out, "/nonexistent-run: No such file or directory");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "compare a b --mu fast"), 2);
  ZT_HAS(out, "--mu wants milliseconds > 0, not 'fast'");
  free(out);
  make_dirs();
  ZT_INT(zt_run_zamcap(&out, "compare '%s' '%s' --quorum 4", zt_tmp("old"),
                       zt_tmp("new")),
         2);
  ZT_HAS(out, "--quorum 4 is more than the 3 pairs");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "compare /nonexistent '%s'", zt_tmp("new")), 2);
  ZT_HAS(out, "/nonexistent: No such file or directory");
  free(out);
  zt_sh(NULL, "mkdir -p '%s'", zt_tmp("empty"));
  ZT_INT(
      zt_run_zamcap(&out, "compare '%s' '%s'", zt_tmp("empty"), zt_tmp("new")),
      2);
  ZT_HAS(out, "no trace files");
  free(out);
}

static void test_bad_traces(void) {
  make_dirs();
  char *out = NULL;
  /* A truncated trace: one line naming the file and the byte, exit 2, and
   * the pairs already done are kept. */
  zt_sh(NULL,
        "mkdir -p '%s' && cp '%s'/*.json.gz '%s' && "
        "zcat '%s'/run-3.json.gz | head -c 300000 > '%s'/run-3.json && "
        "rm '%s'/run-3.json.gz",
        zt_tmp("cut"), zt_tmp("old"), zt_tmp("cut"), zt_tmp("old"),
        zt_tmp("cut"), zt_tmp("cut"));
  int rc = zt_run_zamcap(&out, "compare -q '%s' '%s' --out '%s'", zt_tmp("cut"),
                         zt_tmp("new"), zt_tmp("cutout"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "cut/run-3.json: truncated");
  ZT_HAS(out, "byte 300000");
  ZT_HAS(out, "the graphs of the 2 pairs done are in");
  free(out);
  ZT_TRUE(exists(zt_tmp("cutout/pairs/pair-2.dot")));
  /* A trace without CPU samples. */
  zt_sh(NULL,
        "mkdir -p '%s' && echo '[{\"ph\":\"X\",\"name\":\"RunTask\"}]' > "
        "'%s'/a.json",
        zt_tmp("nosamples"), zt_tmp("nosamples"));
  rc = zt_run_zamcap(&out, "compare '%s' '%s' --out '%s'", zt_tmp("nosamples"),
                     zt_tmp("new"), zt_tmp("nsout"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "a.json: no CPU profile samples");
  free(out);
  /* one rule: tree says the same and exits the same */
  rc = zt_run_zamcap(&out, "tree '%s'/a.json", zt_tmp("nosamples"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "a.json: no CPU profile samples in this trace: it holds ");
  free(out);
  /* gzip told by its bytes, not the name: trace.gz, p.cpuprofile.gz; a
   * .gz that is no gzip (notes.gz) is not taken for a trace */
  zt_sh(NULL,
        "mkdir -p '%s' '%s' && cp '%s'/run-1.json.gz '%s'/trace.gz && "
        "cp '%s'/run-1.json.gz '%s'/p.cpuprofile.gz && echo x > '%s'/notes.gz",
        zt_tmp("gzold"), zt_tmp("gznew"), zt_tmp("old"), zt_tmp("gzold"),
        zt_tmp("new"), zt_tmp("gznew"), zt_tmp("gzold"));
  rc = zt_run_zamcap(&out, "compare '%s' '%s' --format json --out '%s'",
                     zt_tmp("gzold"), zt_tmp("gznew"), zt_tmp("gzout"));
  ZT_INT(rc, 1);
  ZT_HAS(out, "trace.gz vs p.cpuprofile.gz");
  free(out);
  /* An output folder that cannot be written. */
  zt_sh(NULL, "touch '%s'", zt_tmp("afile"));
  rc = zt_run_zamcap(&out, "compare '%s' '%s' --out '%s/sub'", zt_tmp("old"),
                     zt_tmp("new"), zt_tmp("afile"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "afile");
  free(out);
}

static void test_tree(void) {
  char *out = NULL;
  ZT_INT(zt_run_zamcap(&out, "tree '%s' --min 20",
                       zt_data("real/new/run-1.json.gz")),
         0);
  ZT_HAS(out, "CrRendererMain");
  ZT_HAS(out, "          formatRow  ");
  ZT_HAS(out, "slowChecksum");
  free(out);
  ZT_INT(zt_run_zamcap(&out, "tree /nonexistent.json"), 2);
  ZT_HAS(out, "/nonexistent.json: cannot open");
  free(out);
}

/* Files named like commands in the working folder do not turn a command
 * into a scenario run. */
/* zamcap tree shows a step's type (a mark's name, the trace's) harmlessly
 * on the terminal: issue 38's class, every text from a page escaped for
 * its sink (a mark named with a screen clear reached it raw). */
static void test_tree_mark_name(void) {
  char *t = zt_read(zt_data("../fuzz/corpus/ingest/figures-marks.json"));
  if (!ZT_TRUE(t != NULL)) return;
  char *at = strstr(t, "zamcap:step:2:click");
  if (!ZT_TRUE(at != NULL)) {
    free(t);
    return;
  }
  size_t n = strlen(t);
  char *u = zc_xmalloc(n + 16);
  size_t head = (size_t)(at - t) + strlen("zamcap:step:2:");
  memcpy(u, t, head);
  strcpy(u + head, "\\u001b[2J");
  strcat(u, t + head + strlen("click"));
  zt_write_str(zt_tmp("esc-marks.json"), u);
  free(u);
  free(t);
  char *out = NULL;
  ZT_INT(zt_sh(&out, "'%s' tree '%s'", zt_zamcap(), zt_tmp("esc-marks.json")),
         0);
  ZT_HAS(out ? out : "", "  step 2 \\e[2J: ");
  ZT_TRUE(out && !strchr(out, 0x1b));
  free(out);
}

static void test_command_over_file(void) {
  char *out = NULL;
  zt_sh(NULL, "mkdir -p '%s' && cd '%s' && touch tree html compare",
        zt_tmp("cwd"), zt_tmp("cwd"));
  ZT_INT(zt_sh(&out, "cd '%s' && '%s' tree '%s' --min 20", zt_tmp("cwd"),
               zt_zamcap(), zt_data("real/new/run-1.json.gz")),
         0);
  ZT_HAS(out, "slowChecksum");
  free(out);
  ZT_INT(zt_sh(&out, "cd '%s' && '%s' html", zt_tmp("cwd"), zt_zamcap()), 2);
  ZT_HAS(out, "html wants one OUT folder");
  free(out);
}

/* critical-graph.svg: drawn by Graphviz's dot run with an argv, so any
 * output folder name works; a dot that fails, hangs or is missing costs
 * the picture only, with a word on stderr. */
static void test_svg(void) {
  make_dirs();
  char *out = NULL;
  /* A quote and a leading dash in the folder's name. */
  ZT_INT(zt_sh(&out, "cd '%s' && '%s' compare old new -q --out=\"-it's\"",
               zt_tmp(""), zt_zamcap()),
         1);
  free(out);
  char *svg = zt_read(zt_tmp("-it's/critical-graph.svg"));
  ZT_HAS(svg, "slowChecksum");
  free(svg);
  ZT_TRUE(!exists(zt_tmp("-it's/critical-graph.svg.part")));
  /* A dot that fails: its first line of stderr, with its controls made
   * harmless, and no picture. */
  zt_sh(NULL,
        "mkdir -p '%s' && printf '#!/bin/sh\\nprintf \"Error: "
        "boom\\\\033]0;x\\\\nmore\\\\n\" >&2; exit 3\\n' > '%s' && "
        "chmod +x '%s'",
        zt_tmp("faildot"), zt_tmp("faildot/dot"), zt_tmp("faildot/dot"));
  ZT_INT(zt_sh(&out, "PATH='%s':\"$PATH\" '%s' compare '%s' '%s' --out '%s'",
               zt_tmp("faildot"), zt_zamcap(), zt_tmp("old"), zt_tmp("new"),
               zt_tmp("out-faildot")),
         1);
  ZT_HAS(out,
         "no critical-graph.svg: dot failed (exit code): Error: boom?]0;x");
  ZT_TRUE(out && !strchr(out, '\033'));
  free(out);
  ZT_TRUE(!exists(zt_tmp("out-faildot/critical-graph.svg")));
  ZT_TRUE(exists(zt_tmp("out-faildot/report.html")));
  /* One that hangs is given up after ZC_DOT_SECONDS. */
  zt_sh(NULL,
        "mkdir -p '%s' && printf '#!/bin/sh\\nexec sleep 600\\n' > "
        "'%s' && chmod +x '%s'",
        zt_tmp("hangdot"), zt_tmp("hangdot/dot"), zt_tmp("hangdot/dot"));
  ZT_INT(zt_sh(&out,
               "ZC_DOT_SECONDS=1 PATH='%s':\"$PATH\" '%s' compare '%s' "
               "'%s' --out '%s'",
               zt_tmp("hangdot"), zt_zamcap(), zt_tmp("old"), zt_tmp("new"),
               zt_tmp("out-hangdot")),
         1);
  ZT_HAS(out, "no critical-graph.svg: dot failed (killed)");
  free(out);
  ZT_TRUE(exists(zt_tmp("out-hangdot/report.html")));
  /* None on PATH: said once, the report as before. */
  ZT_INT(zt_sh(&out, "PATH='%s' '%s' compare '%s' '%s' --out '%s'",
               zt_tmp("empty"), zt_zamcap(), zt_tmp("old"), zt_tmp("new"),
               zt_tmp("out-nodot")),
         1);
  ZT_HAS(out, "Graphviz's dot is not installed");
  free(out);
  ZT_TRUE(exists(zt_tmp("out-nodot/report.html")));
  ZT_TRUE(!exists(zt_tmp("out-nodot/critical-graph.svg")));
}

/* SIGTERM in the middle of `zamcap compare` (1000 pairs, some 20 s of
 * analysis): exit 143 within moments, no report (issue 26: the analysis
 * ran on and exited 0 or 1 with a full report). */
static void test_sigterm_compare(void) {
  const char *d = zt_tmp("sigterm");
  const char *real = zt_data("real");
  ZT_INT(zt_sh(NULL,
               "rm -rf '%s' && mkdir -p '%s/old' '%s/new' && cd '%s' && "
               "for i in $(seq 1 334); do for k in 1 2 3; do "
               "ln -s '%s/old/run-'$k.json.gz old/r$i-$k.json.gz; "
               "ln -s '%s/new/run-'$k.json.gz new/r$i-$k.json.gz; done; done",
               d, d, d, d, real, real),
         0);
  char *out = NULL;
  double t0 = zc_now_ms();
  int rc = zt_sh(&out,
                 "cd '%s' && '%s' compare -q old new --out out & "
                 "pid=$!; sleep 1; kill -TERM $pid; wait $pid",
                 d, zt_zamcap());
  double ms = zc_now_ms() - t0;
  ZT_INT(rc, 143);
  ZT_TRUE(ms < 6000);
  ZT_HAS(out, "interrupted");
  ZT_TRUE(!exists(zt_tmp("sigterm/out/report.json")));
  free(out);
}

/* A DevTools export whose metadata carries a 150-byte map bomb (an index
 * map's section at line 4 000 000 000), compared under a 1 GB
 * address-space cap: a warning, and the report (issue 26: 16 GB, then
 * out of memory and no report). */
static void test_map_bomb(void) {
  const char *d = zt_tmp("bomb");
  ZT_INT(zt_sh(NULL, "rm -rf '%s' && mkdir -p '%s/old' '%s/new'", d, d, d), 0);
  const char *trace =
      "{\"traceEvents\": [{\"ph\": \"P\", \"name\": \"Profile\", "
      "\"id\": \"0x1\", \"pid\": 1, \"tid\": 1, \"ts\": 1000, "
      "\"args\": {\"data\": {\"startTime\": 1000}}}, {\"ph\": \"P\", "
      "\"name\": \"ProfileChunk\", \"id\": \"0x1\", \"pid\": 1, "
      "\"tid\": 2, \"ts\": 2000, \"args\": {\"data\": {\"cpuProfile\": "
      "{\"nodes\": [{\"id\": 1, \"callFrame\": {\"functionName\": "
      "\"(root)\"}}, {\"id\": 2, \"parent\": 1, \"callFrame\": "
      "{\"functionName\": \"l\", \"url\": \"http://h/a.js\", "
      "\"lineNumber\": 0, \"columnNumber\": 10}}], \"samples\": [2, 2, "
      "2]}, \"timeDeltas\": [100, 100, 100]}}}], \"metadata\": "
      "{\"source\": \"DevTools\", \"sourceMaps\": [{\"url\": "
      "\"http://h/a.js\", \"sourceMapUrl\": \"http://h/a.js.map\", "
      "\"sourceMap\": {\"version\":3,\"sections\":[{\"offset\":{"
      "\"line\":4000000000,\"column\":0},\"map\":{\"version\":3,"
      "\"sources\":[\"a.js\"],\"names\":[\"x\"],\"mappings\":"
      "\"AAAAA\"}}]}}]}}";
  char path[4200];
  snprintf(path, sizeof path, "%s/old/t.json", d);
  zt_write_str(path, trace);
  snprintf(path, sizeof path, "%s/new/t.json", d);
  zt_write_str(path, trace);
  char *out = NULL;
  /* A 1 GB cap: on the address space, or under AddressSanitizer (whose
   * shadow needs terabytes of it) on the resident size. */
  const char *cap = ZT_ASAN ? "ASAN_OPTIONS=\"$ASAN_OPTIONS:hard_rss_limit_mb="
                              "1024\" && export ASAN_OPTIONS"
                            : "ulimit -v 1048576";
  int rc = zt_sh(&out,
                 "%s && '%s' compare '%s/old' '%s/new' --out '%s/out' "
                 "--format json",
                 cap, zt_zamcap(), d, d, d);
  ZT_INT(rc, 0);
  ZT_HAS(out, "budget of lines");
  snprintf(path, sizeof path, "%s/out/report.json", d);
  ZT_TRUE(exists(path));
  free(out);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"sigterm_compare", test_sigterm_compare},
      {"map_bomb", test_map_bomb},
      {"regression", test_regression},
      {"bad_counts", test_bad_counts},
      {"aa_and_options", test_aa_and_options},
      {"run_dir", test_run_dir},
      {"heap_compare", test_heap_compare},
      {"heap_run_dir", test_heap_run_dir},
      {"heap_bad", test_heap_bad},
      {"heap_devtools", test_heap_devtools},
      {"usage_errors", test_usage_errors},
      {"bad_traces", test_bad_traces},
      {"tree", test_tree},
      {"tree_mark_name", test_tree_mark_name},
      {"command_over_file", test_command_over_file},
      {"svg", test_svg},
      {"hostile_names", test_hostile_names},
      {"deep_path", test_deep_path},
      {"long_name", test_long_name},
      {"spread_out", test_spread_out},
      {"exports", test_exports},
      {"inconclusive", test_inconclusive},
      {"check", test_check},
      {"check_secrets", test_check_secrets},
      {"recorder_corpus", test_recorder_corpus},
      {"shifted_aa", test_shifted_aa},
  };
  return ZT_RUN(cases, argc, argv);
}
