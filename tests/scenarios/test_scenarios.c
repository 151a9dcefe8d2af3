/* Scenarios without a browser: loading, the validation of broken files
 * (each message names the file, the step and what is wrong), URL mapping,
 * and a hand-written DevTools Recorder export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scn.h"
#include "test.h"

static struct scn_scenario *load_text(const char *name, const char *text,
                                      enum zc_err *e) {
  const char *path = zt_tmp(name);
  zt_write_str(path, text);
  struct scn_scenario *s = NULL;
  *e = scn_load(path, &s);
  return s;
}

#define NAV "{\"type\":\"navigate\",\"url\":\"http://h/x\"}"

static void test_broken_files(void) {
  static const char *const cases[][2] = {
      {"{\"steps\": [" NAV ",]}", "not valid JSON (line 1, byte"},
      {"{\"title\": \"x\"}", "no \"steps\" list: is this a DevTools Recorder"},
      {"[1, 2]", "no \"steps\" list"},
      {"{\"steps\": []}", "the scenario has no steps"},
      {"{\"steps\": [" NAV ", {\"type\": \"teleport\"}]}",
       "step 2 (teleport): unknown step type"},
      {"{\"steps\": [" NAV ", {\"type\": \"customStep\", \"name\": \"x\"}]}",
       "step 2 (customStep): zamcap cannot replay this step type"},
      {"{\"steps\": [" NAV ", 42]}", "step 2 (?): a step must be an object"},
      {"{\"steps\": [" NAV ", {\"selectors\": [[\"#a\"]]}]}",
       "step 2 (?): no \"type\""},
      {"{\"steps\": [" NAV ", {\"type\": \"click\"}]}",
       "step 2 (click): no \"selectors\""},
      {"{\"steps\": [" NAV ", {\"type\": \"click\", \"selectors\": []}]}",
       "step 2 (click): \"selectors\" must be a non-empty list"},
      {"{\"steps\": [" NAV ", {\"type\": \"hover\", \"selectors\": [[\"#a\"], "
       "[7]]}]}",
       "step 2 (hover): selector 2 has an empty or non-string"},
      {"{\"steps\": [" NAV ", {\"type\": \"click\", \"selectors\": "
       "[\"xpath/\"]}]}",
       "\"xpath/\" has nothing after its kind"},
      {"{\"steps\": [{\"type\": \"navigate\"}]}",
       "step 1 (navigate): no \"url\""},
      {"{\"steps\": [{\"type\": \"navigate\", \"url\": \"http://h/a b\"}]}",
       "step 1 (navigate): bad URL \"http://h/a b\""},
      {"{\"steps\": [{\"type\": \"navigate\", \"url\": "
       "\"javascript:alert(1)\"}]}",
       "bad URL \"javascript:alert(1)\""},
      {"{\"steps\": [{\"type\": \"navigate\", \"url\": \"http:///path\"}]}",
       "bad URL"},
      {"{\"steps\": [" NAV ", {\"type\": \"change\", \"selectors\": "
       "[[\"#a\"]]}]}",
       "step 2 (change): no \"value\""},
      /* a flow with no navigate gets one more step, not one more number */
      {"{\"steps\": [{\"type\": \"keyDown\", \"key\": \"a\"}], "
       "\"zamcap\": {\"recordFrom\": 2}}",
       "zamcap.recordFrom must be a step number from 1 to 1"},
      {"{\"steps\": [" NAV ", {\"type\": \"click\", \"selectors\": "
       "[[\"#a\"]], \"deviceType\": \"finger\"}]}",
       "step 2 (click): \"deviceType\" must be mouse, pen or touch"},
      {"{\"steps\": [" NAV ", {\"type\": \"keyDown\", \"key\": \"Hyper\"}]}",
       "step 2 (keyDown): unknown key \"Hyper\""},
      {"{\"steps\": [{\"type\": \"setViewport\", \"height\": 5}]}",
       "step 1 (setViewport): \"width\" must be a number of pixels"},
      {"{\"steps\": [" NAV ", {\"type\": \"waitForElement\", \"selectors\": "
       "[[\"#a\"]], \"operator\": \">\"}]}",
       "\"operator\" must be \">=\", \"==\" or \"<=\""},
      {"{\"steps\": [" NAV ", {\"type\": \"waitForElement\", \"selectors\": "
       "[[\"#a\"]], \"attributes\": {\"n\": 1}}]}",
       "attribute \"n\" must be a string"},
      {"{\"steps\": [" NAV ", {\"type\": \"click\", \"target\": \"popup\", "
       "\"selectors\": [[\"#a\"]]}]}",
       "only the \"main\" target"},
      {"{\"steps\": [" NAV ", {\"type\": \"click\", \"selectors\": [[\"#a\"]],"
       " \"offsetX\": 3}]}",
       "\"offsetX\" and \"offsetY\" go together"},
      {"{\"steps\": [" NAV ", {\"type\": \"click\", \"selectors\": [[\"#a\"]],"
       " \"button\": \"left\"}]}",
       "\"button\" must be primary"},
      {"{\"steps\": [" NAV ", {\"type\": \"waitForExpression\"}]}",
       "step 2 (waitForExpression): no \"expression\""},
      {"{\"steps\": [" NAV "], \"timeout\": -5}", "\"timeout\" must be a "
                                                  "positive number"},
      {"{\"steps\": [" NAV "], \"zamcap\": {\"recordFrom\": 2}}",
       "zamcap.recordFrom must be a step number from 1 to 1"},
      {"{\"steps\": [" NAV "], \"zamcap\": {\"settle\": 2}}",
       "unknown field zamcap.settle (known: recordFrom, settleMs)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    enum zc_err e;
    char name[32];
    snprintf(name, sizeof name, "bad-%zu.json", i);
    struct scn_scenario *s = load_text(name, cases[i][0], &e);
    ZT_INT(e, ZC_E_USAGE);
    ZT_TRUE(s == NULL);
    ZT_HAS(zc_errmsg(), name);
    ZT_HAS(zc_errmsg(), cases[i][1]);
    scn_free(s);
  }
  struct scn_scenario *s = NULL;
  ZT_INT(scn_load(zt_tmp("missing.json"), &s), ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "missing.json: cannot read");
}

static void test_load_all_steps(void) {
  const char *path = zt_tests("scenarios/all-steps.json");
  struct scn_scenario *s = NULL;
  if (!ZT_INT(scn_load(path, &s), ZC_OK)) return;
  ZT_INT(s->n, 70);
  ZT_STR(s->origin, "https://app.example.com");
  ZT_NEAR(s->timeout_ms, 10000, 0);
  ZT_INT(s->record_from, 0);
  ZT_TRUE(s->settle_ms < 0);
  int seen[SCN_WAIT_EXPRESSION + 1] = {0};
  for (size_t i = 0; i < s->n; i++)
    seen[s->steps[i].type]++;
  for (int t = 0; t <= SCN_WAIT_EXPRESSION; t++)
    if (!seen[t]) ZT_STR(scn_type_name((enum scn_type)t), "(in the file)");
  const struct scn_step *c = &s->steps[3];
  ZT_INT(c->type, SCN_CLICK);
  ZT_INT(c->has_offset, 1);
  ZT_NEAR(c->offset_x, 5, 0);
  ZT_STR(s->steps[36].match,
         "{\"attributes\":{\"id\":\"name\"},\"properties\":{\"tagName\":"
         "\"INPUT\",\"dataset\":{}}}");
  const struct scn_step *chain = &s->steps[41];
  if (ZT_INT(chain->type, SCN_CLICK) && ZT_TRUE(chain->nsel > 0)) {
    ZT_INT(chain->sel[0].n, 2);
    ZT_STR(chain->sel[0].part[1], "#inner");
  }
  ZT_INT(s->steps[47].nframe, 1);
  ZT_INT(s->steps[7].button, 2);
  ZT_STR(s->steps[49].op, "==");
  ZT_INT(s->steps[49].count, 3);
  ZT_STR(s->steps[31].key, "KeyQ");
  scn_free(s);
}

static void test_recorder_export(void) {
  const char *path = zt_tests("scenarios/recorder-export.json");
  struct scn_scenario *s = NULL;
  if (!ZT_INT(scn_load(path, &s), ZC_OK)) return;
  ZT_INT(s->n, 10);
  ZT_STR(s->title, "Recording 21/11/2026 at 22:14:03");
  ZT_INT(s->steps[2].nsel, 5);
  ZT_STR(s->steps[2].sel[4].part[0], "text/Press");
  ZT_NEAR(s->steps[2].offset_x, 21.328125, 1e-9);
  ZT_STR(s->steps[4].value, "Ada");
  ZT_INT(s->steps[1].wait_load, 0); /* navigate waits for load anyway */
  scn_free(s);
}

static void test_url_mapping(void) {
  enum zc_err e;
  struct scn_scenario *s =
      load_text("map.json",
                "{\"steps\": [{\"type\": \"navigate\", \"url\": "
                "\"https://app.example.com:8443/start?x=1\"}]}",
                &e);
  if (!ZT_INT(e, ZC_OK)) return;
  ZT_STR(s->origin, "https://app.example.com:8443");
  static const char *const cases[][3] = {
      /* url, base, expected */
      {"https://app.example.com:8443/start?x=1", "http://127.0.0.1:4000/",
       "http://127.0.0.1:4000/start?x=1"},
      {"https://app.example.com:8443/a/b#frag", "http://127.0.0.1:4000/",
       "http://127.0.0.1:4000/a/b#frag"},
      {"https://app.example.com:8443", "http://127.0.0.1:4000/",
       "http://127.0.0.1:4000"},
      {"https://cdn.example.com/lib.js", "http://127.0.0.1:4000/",
       "https://cdn.example.com/lib.js"},
      {"https://app.example.com/other-port", "http://127.0.0.1:4000/",
       "https://app.example.com/other-port"},
      {"/login", "http://127.0.0.1:4000/app/index.html",
       "http://127.0.0.1:4000/login"},
      {"page2.html?q=2", "http://127.0.0.1:4000/app/index.html",
       "http://127.0.0.1:4000/app/page2.html?q=2"},
      {"page2.html", "http://127.0.0.1:4000",
       "http://127.0.0.1:4000/page2.html"},
      {"?q=3", "http://127.0.0.1:4000/app/index.html?old=1",
       "http://127.0.0.1:4000/app/index.html?q=3"},
      {"//other.host/x", "https://127.0.0.1:4000/", "https://other.host/x"},
      {"about:blank", "http://127.0.0.1:4000/", "about:blank"},
      /* issue 26.8: the navigate added to a flow that never navigates is
       * the build's URL itself, file, query and fragment kept */
      {"", "http://127.0.0.1:4000/app/index.html?build=42",
       "http://127.0.0.1:4000/app/index.html?build=42"},
      {"", "http://127.0.0.1:4000/app/index.html?build=42#/route",
       "http://127.0.0.1:4000/app/index.html?build=42#/route"},
      {"", "http://127.0.0.1:4000", "http://127.0.0.1:4000"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *m = scn_map_url(s, cases[i][0], cases[i][1]);
    ZT_STR(m, cases[i][2]);
    free(m);
  }
  scn_free(s);
  /* Issue 16: a flow over two development hosts is one app; a public
   * host stays, unless --origin names it (scn_add_origin). */
  s = load_text(
      "origins.json",
      "{\"steps\": [{\"type\": \"navigate\", \"url\": "
      "\"http://frontend:3000/\"}, {\"type\": \"navigate\", \"url\": "
      "\"http://localhost:3000/x\"}, {\"type\": \"navigate\", \"url\": "
      "\"https://accounts.example.com/login\"}, {\"type\": \"navigate\", "
      "\"url\": \"http://u@[::1]:8080/y\"}]}",
      &e);
  if (!ZT_INT(e, ZC_OK)) return;
  ZT_INT((int)s->norigins, 3);
  static const char *const two[][2] = {
      {"http://frontend:3000/a", "http://127.0.0.1:9/a"},
      {"http://localhost:3000/x?y=1", "http://127.0.0.1:9/x?y=1"},
      {"http://u@[::1]:8080/y", "http://127.0.0.1:9/y"},
      {"https://accounts.example.com/login",
       "https://accounts.example.com/login"},
  };
  for (size_t i = 0; i < sizeof two / sizeof two[0]; i++) {
    char *m = scn_map_url(s, two[i][0], "http://127.0.0.1:9/");
    ZT_STR(m, two[i][1]);
    free(m);
  }
  ZT_INT(scn_add_origin(s, "https://accounts.example.com/anything"), 1);
  ZT_INT(scn_add_origin(s, "about:blank"), 0);
  char *m = scn_map_url(s, "https://accounts.example.com/login",
                        "http://127.0.0.1:9/");
  ZT_STR(m, "http://127.0.0.1:9/login");
  free(m);
  scn_free(s);
}

/* Genuine Recorder output zamcap used to refuse: a recording begun on a
 * new tab, DevTools' network throttling, a close step at the end. */
static void test_recorder_extras(void) {
  const char *path = zt_tmp("extras.json");
  FILE *f = fopen(path, "w");
  if (!ZT_TRUE(f != NULL)) return;
  fputs("{\"title\": \"x\", \"steps\": ["
        "{\"type\": \"navigate\", \"url\": \"chrome://new-tab-page/\"},"
        "{\"type\": \"emulateNetworkConditions\", \"download\": 50000,"
        " \"upload\": 20000, \"latency\": 400},"
        "{\"type\": \"navigate\", \"url\": \"http://localhost:3000/\"},"
        "{\"type\": \"close\"}]}",
        f);
  fclose(f);
  struct scn_scenario *s = NULL;
  if (ZT_INT(scn_load(path, &s), ZC_OK)) {
    ZT_INT(s->n, 4);
    ZT_INT(s->steps[0].start_page, 1);
    ZT_STR(s->origin, "http://localhost:3000"); /* not the new tab's */
    ZT_INT(s->steps[1].type, SCN_EMULATE_NETWORK);
    ZT_NEAR(s->steps[1].download, 50000, 0);
    ZT_NEAR(s->steps[1].latency, 400, 0);
    ZT_INT(s->steps[3].type, SCN_CLOSE);
    ZT_STR(scn_type_name(s->steps[1].type), "emulateNetworkConditions");
  }
  scn_free(s);
  /* every key name of the Recorder's schema loads; others do not */
  static const char *const good[] = {
      "AltGraph", "CapsLock", "KeyW",       "Digit1", "Numpad5", "F13",
      "Space",    "Quote",    "ShiftRight", "é",      "!",       "MetaRight"};
  static const char *const bad[] = {"KeyAA", "F25", "Digit", "Shift+A"};
  for (int pass = 0; pass < 2; pass++) {
    const char *const *list = pass ? bad : good;
    size_t n = pass ? ZC_ARRAY_LEN(bad) : ZC_ARRAY_LEN(good);
    for (size_t i = 0; i < n; i++) {
      f = fopen(path, "w");
      fprintf(f,
              "{\"title\": \"k\", \"steps\": [{\"type\": \"navigate\", "
              "\"url\": \"http://h/\"}, {\"type\": \"keyDown\", \"key\": "
              "\"%s\"}]}",
              list[i]);
      fclose(f);
      s = NULL;
      enum zc_err e = scn_load(path, &s);
      if (!ZT_INT(e, pass ? ZC_E_USAGE : ZC_OK))
        fprintf(stderr, "  key %s\n", list[i]);
      scn_free(s);
    }
  }
  /* the new tab alone loads no app: the build's URL is loaded after it */
  f = fopen(path, "w");
  fputs("{\"title\": \"x\", \"steps\": [{\"type\": \"navigate\", \"url\": "
        "\"chrome://new-tab-page/\"}, {\"type\": \"close\"}], "
        "\"zamcap\": {\"recordFrom\": 2}}",
        f);
  fclose(f);
  s = NULL;
  ZT_INT(scn_load(path, &s), ZC_OK);
  if (s) {
    ZT_INT((int)s->n, 3);
    ZT_TRUE(s->steps[0].start_page);
    ZT_TRUE(s->steps[1].implicit && s->steps[1].type == SCN_NAVIGATE);
    ZT_STR(s->steps[1].url, "");
    ZT_INT((int)s->steps[2].index, 1); /* the close, still step 2 */
    ZT_INT((int)s->record_from, 2);    /* recordFrom 2 is the close */
  }
  scn_free(s);
  /* other chrome:// pages stay refused, and throughput must be numbers */
  f = fopen(path, "w");
  fputs("{\"title\": \"x\", \"steps\": [{\"type\": \"navigate\", \"url\": "
        "\"http://h/\"}, {\"type\": \"emulateNetworkConditions\", "
        "\"download\": \"fast\", \"upload\": 1, \"latency\": 0}]}",
        f);
  fclose(f);
  s = NULL;
  ZT_INT(scn_load(path, &s), ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "step 2 (emulateNetworkConditions): \"download\"");
  scn_free(s);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"recorder_extras", test_recorder_extras},
      {"broken_files", test_broken_files},
      {"load_all_steps", test_load_all_steps},
      {"recorder_export", test_recorder_export},
      {"url_mapping", test_url_mapping},
  };
  return ZT_RUN(cases, argc, argv);
}
