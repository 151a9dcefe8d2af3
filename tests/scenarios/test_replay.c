/* Scenario replay end to end in a real headless Chromium: every step type
 * against a page that logs what it receives (the assertions are the
 * scenario's own waitForExpression steps on that log), a hand-written
 * Recorder export replayed unchanged, failing steps with their screenshot,
 * selector errors, recordFrom, and a build folder served by zamcap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "test.h"
#include "zc.h"

/* A gzip trace's text (caller frees). */
static char *trace_text(const char *path) {
  gzFile g = gzopen(path, "rb");
  if (!g) return NULL;
  struct zc_buf b;
  zc_buf_init(&b, 1 << 28);
  char chunk[65536];
  int n;
  while ((n = gzread(g, chunk, sizeof chunk)) > 0)
    ZT_INT(zc_buf_add(&b, chunk, (size_t)n), ZC_OK);
  gzclose(g);
  return zc_buf_take(&b);
}

static void test_all_steps(void) {
  char *out = NULL;
  /* The page folder is served by zamcap itself. */
  int rc = zt_run_zamcap(&out,
                         "record '%s' --url '%s' --step-timeout 10000 "
                         "--out '%s' -v",
                         zt_tests("scenarios/all-steps.json"),
                         zt_tests("scenarios/page"), zt_tmp("all"));
  ZT_INT(rc, 0);
  ZT_HAS(out, "serving ");
  ZT_HAS(out, "step 70: waitForExpression");
  if (rc) fprintf(stderr, "%s\n", out);
  free(out);
  char *t = trace_text(zt_tmp("all/traces/run-1.json.gz"));
  /* Step boundaries are user-timing marks in the trace. */
  ZT_HAS(t, "\"zamcap:step:1:setViewport\"");
  ZT_HAS(t, "\"zamcap:step:4:click\"");
  ZT_HAS(t, "\"zamcap:step:70:waitForExpression\"");
  ZT_HAS(t, "\"zamcap:end\"");
  free(t);
  struct stat st;
  ZT_TRUE(stat(zt_tmp("all/failures"), &st) != 0); /* none failed */
}

static void test_recorder_export(void) {
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "record '%s' --url '%s' --out '%s'",
                         zt_tests("scenarios/recorder-export.json"),
                         zt_tests("scenarios/page"), zt_tmp("export"));
  ZT_INT(rc, 0);
  if (rc) fprintf(stderr, "%s\n", out);
  free(out);
}

static void test_step_failure(void) {
  zt_write_str(
      zt_tmp("fail.json"),
      "{\"title\": \"a selector that never appears\", \"steps\": ["
      "{\"type\": \"navigate\", \"url\": \"http://localhost:8080/index.html\"},"
      "{\"type\": \"click\", \"selectors\": [[\"#btn\"]]},"
      "{\"type\": \"click\", \"selectors\": [[\"#never\"], [\"aria/Never "
      "there\"], [\"#host\", \"#nope\"]], \"timeout\": 1500}]}");
  char *out = NULL;
  double t0 = zc_now_ms();
  int rc = zt_run_zamcap(&out, "record '%s' --url '%s' --out '%s'",
                         zt_tmp("fail.json"), zt_tests("scenarios/page"),
                         zt_tmp("fail"));
  ZT_INT(rc, 3);
  ZT_HAS(out, "run 1 of 1: step 3 (click, selectors #never | aria/Never there"
              " | #host >> #nope): no element matched in 1.5 s");
  ZT_HAS(out, "screenshot: ");
  ZT_TRUE(zc_now_ms() - t0 < 20000);
  free(out);
  char *png = zt_read(zt_tmp("fail/failures/run-1-step-3.png"));
  ZT_TRUE(png && !memcmp(png, "\x89PNG", 4));
  free(png);
  char *txt = zt_read(zt_tmp("fail/failures/run-1-step-3.txt"));
  ZT_HAS(txt, "url: http://127.0.0.1:");
  ZT_HAS(txt, "/index.html");
  ZT_HAS(txt, "no element matched");
  free(txt);
}

/* Each selector kind that is malformed says so, with the step. */
static void test_selector_errors(void) {
  static const char *const sels[][2] = {
      {"##bad", "is not a valid selector"},
      {"xpath///*[", "is not a valid XPath expression"},
  };
  for (size_t i = 0; i < 2; i++) {
    char json[512];
    snprintf(json, sizeof json,
             "{\"steps\": [{\"type\": \"navigate\", \"url\": \"index.html\"},"
             "{\"type\": \"click\", \"selectors\": [[\"%s\"]], \"timeout\": "
             "2000}]}",
             sels[i][0]);
    zt_write_str(zt_tmp("sel.json"), json);
    char *out = NULL;
    int rc = zt_run_zamcap(&out, "record '%s' --url '%s' --out '%s'",
                           zt_tmp("sel.json"), zt_tests("scenarios/page"),
                           zt_tmp("sel"));
    ZT_INT(rc, 3);
    ZT_HAS(out, "step 2 (click, selectors ");
    ZT_HAS(out, sels[i][1]);
    free(out);
  }
}

static void test_record_from(void) {
  zt_write_str(
      zt_tmp("from.json"),
      "{\"steps\": ["
      "{\"type\": \"navigate\", \"url\": \"http://localhost:8080/index.html\"},"
      "{\"type\": \"click\", \"selectors\": [[\"#btn\"]]},"
      "{\"type\": \"click\", \"selectors\": [[\"#btn2\"]]},"
      "{\"type\": \"waitForExpression\", \"expression\": \"__saw('click:btn2')"
      "\"}], \"zamcap\": {\"recordFrom\": 3, \"settleMs\": 200}}");
  char *out = NULL;
  int rc = zt_run_zamcap(&out, "record '%s' --url '%s' --out '%s'",
                         zt_tmp("from.json"), zt_tests("scenarios/page"),
                         zt_tmp("from"));
  ZT_INT(rc, 0);
  free(out);
  char *t = trace_text(zt_tmp("from/traces/run-1.json.gz"));
  ZT_TRUE(t && !strstr(t, "zamcap:step:2:click"));
  ZT_HAS(t, "\"zamcap:step:3:click\"");
  ZT_HAS(t, "\"zamcap:end\"");
  free(t);
}

static void test_validation_before_browser(void) {
  zt_write_str(zt_tmp("broken.json"),
               "{\"steps\": [{\"type\": \"navigate\","
               " \"url\": \"http://h/x\"}, {\"type\": \"tap\"}]}");
  char *out = NULL;
  /* --chrome points nowhere: validation must fail first, with exit 2. */
  int rc = zt_run_zamcap(&out, "record '%s' --url '%s' --chrome /nonexistent",
                         zt_tmp("broken.json"), zt_tests("scenarios/page"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "broken.json: step 2 (tap): unknown step type");
  free(out);
  zt_write_str(zt_tmp("nonav.json"), "{\"steps\": [{\"type\": \"keyDown\", "
                                     "\"key\": \"a\"}]}");
  /* A flow that never navigates runs on the build's URL, loaded first. */
  rc = zt_run_zamcap(&out, "record '%s' --url '%s' --out '%s' -v",
                     zt_tmp("nonav.json"), zt_tests("scenarios/page"),
                     zt_tmp("nonav-out"));
  ZT_INT(rc, 0);
  ZT_HAS(out, "step 1: navigate (added: the build's URL)");
  if (rc) fprintf(stderr, "%s\n", out);
  free(out);
  rc = zt_run_zamcap(&out, "record '%s' --url not-a-url-or-dir",
                     zt_tests("scenarios/all-steps.json"));
  ZT_INT(rc, 2);
  ZT_HAS(out, "--url not-a-url-or-dir: neither a URL nor a folder");
  free(out);
}

/* The demo apps' Recorder scenarios replay against both builds (the
 * regression each hides is for the agent's tests to find). */
static void test_demo_apps(void) {
  const char *apps[] = {"todo", "search"};
  for (int a = 0; a < 2; a++)
    for (int nb = 0; nb < 2; nb++) {
      const char *scn = zt_demo("%s.json", apps[a]);
      const char *build = zt_demo("%s/%s", apps[a], nb ? "new" : "old");
      char outd[4096];
      snprintf(outd, sizeof outd, "%s-%s", zt_tmp(apps[a]), nb ? "new" : "old");
      char *out = NULL;
      int rc = zt_run_zamcap(&out, "record '%s' --url '%s' --out '%s' -v", scn,
                             build, outd);
      ZT_INT(rc, 0);
      ZT_HAS(out, "run 1/1: ");
      if (rc) fprintf(stderr, "%s\n", out);
      free(out);
    }
}

int main(int argc, char **argv) {
  zt_need_chrome();
  static const struct zt_case cases[] = {
      {"all_steps", test_all_steps},
      {"recorder_export", test_recorder_export},
      {"step_failure", test_step_failure},
      {"selector_errors", test_selector_errors},
      {"record_from", test_record_from},
      {"validation_before_browser", test_validation_before_browser},
      {"demo_apps", test_demo_apps},
  };
  return ZT_RUN(cases, argc, argv);
}
