/* A flow's parameters without a browser: specs read and refused (one
 * line each), {{name}}s replaced (percent-encoded in a URL), --param's
 * assignments, expansions; and the searches over them: reproducible for
 * a seed, never a candidate twice, the covering design's pairs, the
 * genetic algorithm's generations, a finite space run out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scn.h"
#include "test.h"

#define NAV "{\"type\":\"navigate\",\"url\":\"http://h/x?q={{query}}\"}"
#define CHANGE(v)                                                              \
  "{\"type\":\"change\",\"selectors\":[[\"#s-{{rows}}\"],\"aria/x\"],"         \
  "\"value\":\"" v "\"}"
#define PARAMS                                                                 \
  "\"zamcap\":{\"parameters\":{\"query\":{\"choice\":[\"shoes\",\"red "        \
  "shoes\",\"a\"]},\"rows\":{\"int\":[10,2000],\"scale\":\"log\"},"            \
  "\"note\":{\"string\":{\"length\":[2,40],\"alphabet\":\"ab -\"}}}}"

static struct scn_scenario *load(const char *text, const char *const *assign,
                                 size_t n, enum zc_err *e) {
  const char *path = zt_tmp("flow.json");
  zt_write_str(path, text);
  struct scn_scenario *s = NULL;
  *e = scn_load_with(path, assign, n, &s);
  return s;
}

static void test_bad_specs(void) {
  static const char *const cases[][2] = {
      {"{\"x\":{\"float\":[1,2]}}", "x: unknown type \"float\" (known: choice"},
      {"{\"x\":{\"int\":[5,1]}}", "x: the range [5, 1] is empty"},
      {"{\"x\":{\"choice\":[]}}", "x: \"choice\" must list 1 to"},
      {"{\"x\":{\"string\":{\"length\":[3,1],\"alphabet\":\"ab\"}}}",
       "x: the length range [3, 1] is empty"},
      {"{\"x\":{\"string\":{\"length\":[1,3],\"alphabet\":\"\"}}}",
       "x: \"alphabet\" must be a non-empty string"},
      {"{\"x\":{\"int\":[0,9],\"scale\":\"log\"}}",
       "x: a log scale wants a range from 1 up"},
      {"{\"x\":{\"int\":[1,9],\"choice\":[\"a\"]}}", "give one type, not both"},
      {"{\"x\":{}}", "x: no type"},
      {"{\"x y\":{\"int\":[1,2]}}", "\"x y\" is no name for {{name}}"},
      {"{\"x\":{\"int\":[1.5,2]}}", "\"int\" must be [LOW, HIGH]"},
      {"{}", "zamcap.parameters: must be an object of 1 to"},
  };
  for (size_t i = 0; i < ZC_ARRAY_LEN(cases); i++) {
    char text[1024];
    snprintf(text, sizeof text,
             "{\"steps\":[" NAV "],\"zamcap\":{\"parameters\":%s}}",
             cases[i][0]);
    enum zc_err e;
    struct scn_scenario *s = load(text, NULL, 0, &e);
    ZT_INT(e, ZC_E_USAGE);
    ZT_HAS(zc_errmsg(), cases[i][1]);
    ZT_TRUE(!strchr(zc_errmsg(), '\n'));
    scn_free(s);
  }
  /* a {{name}} that names none, with the names there are */
  enum zc_err e;
  struct scn_scenario *s =
      load("{\"steps\":[" NAV "," CHANGE("{{undefined}}") "]," PARAMS "}", NULL,
           0, &e);
  ZT_INT(e, ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "step 2 (change): {{undefined}} names no parameter "
                      "(declared: query, rows, note)");
  scn_free(s);
}

static void test_expand(void) {
  enum zc_err e;
  struct scn_scenario *s =
      load("{\"steps\":[" NAV
           "," CHANGE("{{ note }}/{{rows}} {{1+2}}") "]," PARAMS "}",
           NULL, 0, &e);
  if (!ZT_INT(e, ZC_OK)) return;
  ZT_INT(s->nparams, 3);
  /* the first values: first choice, low end, shortest in the first
   * character */
  ZT_STR(s->values[0], "shoes");
  ZT_STR(s->values[1], "10");
  ZT_STR(s->values[2], "aa");
  ZT_STR(s->steps[1].value, "aa/10 {{1+2}}");
  ZT_STR(s->steps[1].sel[0].part[0], "#s-10");
  const char *v[] = {"red shoes", "1500", "a -b"};
  struct scn_scenario *x = NULL;
  if (ZT_INT(scn_expand(s, v, &x), ZC_OK)) {
    ZT_STR(x->steps[0].url, "http://h/x?q=red%20shoes");
    ZT_STR(x->steps[1].value, "a -b/1500 {{1+2}}");
    ZT_STR(x->values[0], "red shoes");
  }
  scn_free(x);
  x = NULL;
  const char *bad[] = {"boots", "1500", "ab"};
  ZT_INT(scn_expand(s, bad, &x), ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "query: the value \"boots\": not one of its 3 choices");
  scn_free(x);
  char t[200];
  scn_param_text(&s->params[1], t, sizeof t);
  ZT_STR(t, "an integer from 10 to 2000, log scale");
  ZT_NEAR(scn_param_number(&s->params[2], "a -b"), 4, 0);
  ZT_TRUE(isnan(scn_param_number(&s->params[0], "a")));
  scn_free(s);
}

static void test_assign(void) {
  static const char *flow =
      "{\"steps\":[" NAV "," CHANGE("{{note}}") "]," PARAMS "}";
  const char *ok[] = {"rows=800", "note=b b"};
  enum zc_err e;
  struct scn_scenario *s = load(flow, ok, 2, &e);
  if (ZT_INT(e, ZC_OK)) {
    ZT_STR(s->values[1], "800");
    ZT_STR(s->steps[1].value, "b b");
  }
  scn_free(s);
  static const char *const bad[][2] = {
      {"rows=5000", "--param rows=5000: outside the range [10, 2000]; rows "
                    "is an integer from 10 to 2000, log scale"},
      {"rows=1e3", "not a whole number"},
      {"note=abc", "'c' is not in the alphabet \"ab -\""},
      {"note=a", "1 characters, not 2 to 40"},
      {"size=3", "--param size: "},
      {"rows", "--param rows: give NAME=VALUE"},
  };
  for (size_t i = 0; i < ZC_ARRAY_LEN(bad); i++) {
    s = load(flow, &bad[i][0], 1, &e);
    ZT_INT(e, ZC_E_USAGE);
    ZT_HAS(zc_errmsg(), bad[i][1]);
    scn_free(s);
  }
  /* --param on a flow without parameters */
  const char *one[] = {"rows=10"};
  s = load("{\"steps\":[" NAV "]}", one, 1, &e);
  ZT_INT(e, ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "declares no parameters");
  scn_free(s);
  /* without parameters, {{...}} is text */
  s = load("{\"steps\":[" NAV "]}", NULL, 0, &e);
  if (ZT_INT(e, ZC_OK)) ZT_STR(s->steps[0].url, "http://h/x?q={{query}}");
  scn_free(s);
}

/* A search's candidates as one string a line. */
static char *run_search(const struct scn_scenario *s, enum scn_strategy k,
                        uint64_t seed, unsigned n, double (*fit)(char **)) {
  struct scn_search *x = scn_search_new(s->params, s->nparams, k, seed, n);
  size_t cap = 1 << 16, len = 0;
  char *out = calloc(1, cap);
  for (unsigned i = 0; i < n; i++) {
    const char *const *v;
    long id = scn_search_next(x, &v);
    if (id < 0) break;
    for (size_t p = 0; p < s->nparams && len < cap - 200; p++)
      len += (size_t)snprintf(out + len, cap - len, "%s%s", p ? "|" : "", v[p]);
    len += (size_t)snprintf(out + len, cap - len, "\n");
    scn_search_tell(x, id, fit((char **)v));
  }
  scn_search_free(x);
  return out;
}

/* The needle: a query with a space and more than 800 rows. */
static double needle(char **v) {
  return (strchr(v[0], ' ') && atoi(v[1]) > 800) ? 200 : atoi(v[1]) / 1000.0;
}

static void test_search(void) {
  enum zc_err e;
  struct scn_scenario *s = load(
      "{\"steps\":[" NAV "," CHANGE("{{note}}") "]," PARAMS "}", NULL, 0, &e);
  if (!ZT_INT(e, ZC_OK)) return;
  for (int k = 0; k < 3; k++) {
    char *a = run_search(s, (enum scn_strategy)k, 7, 60, needle);
    char *b = run_search(s, (enum scn_strategy)k, 7, 60, needle);
    char *c = run_search(s, (enum scn_strategy)k, 8, 60, needle);
    ZT_STR(a, b);          /* the same seed, the same candidates */
    ZT_TRUE(strcmp(a, c)); /* another seed, others */
    /* never twice, every value valid */
    int lines = 0, dup = 0, bad = 0;
    for (char *l = a; *l; l = strchr(l, '\n') + 1) {
      size_t n = strcspn(l, "\n");
      lines++;
      for (char *m = strchr(l, '\n') + 1; *m; m = strchr(m, '\n') + 1)
        dup += strcspn(m, "\n") == n && !strncmp(l, m, n);
      char line[512], *f[3], why[128];
      snprintf(line, sizeof line, "%.*s", (int)n, l);
      f[0] = strtok(line, "|");
      f[1] = strtok(NULL, "|");
      f[2] = strtok(NULL, "|");
      for (int p = 0; p < 3; p++)
        bad += !f[p] || !scn_param_valid(&s->params[p], f[p], why, sizeof why);
    }
    ZT_INT(lines, 60);
    ZT_INT(dup, 0);
    ZT_INT(bad, 0);
    free(a);
    free(b);
    free(c);
  }
  /* cover's design (3 x 4 x 4 levels: 16 rows or so) tries every choice
   * with the range's top end, whatever the seed */
  for (uint64_t seed = 1; seed <= 20; seed++) {
    char *a = run_search(s, SCN_SEARCH_COVER, seed, 40, needle);
    int line = 0, first = 0;
    for (char *l = a; *l && !first; l = strchr(l, '\n') + 1, line++)
      if (!strncmp(l, "red shoes|2000|", 15)) first = line + 1;
    ZT_TRUE(first >= 1 && first <= 20);
    free(a);
  }
  scn_free(s);
}

static void test_search_exhausted(void) {
  enum zc_err e;
  struct scn_scenario *s = load(
      "{\"steps\":[" NAV "],\"zamcap\":{\"parameters\":{\"query\":{\"choice\":"
      "[\"a\",\"b\"]},\"rows\":{\"int\":[1,3]}}}}",
      NULL, 0, &e);
  if (!ZT_INT(e, ZC_OK)) return;
  for (int k = 0; k < 3; k++) {
    char *a = run_search(s, (enum scn_strategy)k, 3, 100, needle);
    int lines = 0;
    for (char *l = a; *l; l = strchr(l, '\n') + 1)
      lines++;
    ZT_INT(lines, 6); /* 2 x 3, then none */
    free(a);
  }
  enum scn_strategy k;
  ZT_TRUE(scn_strategy_parse("ga", &k) && k == SCN_SEARCH_GA);
  ZT_TRUE(!scn_strategy_parse("annealing", &k));
  scn_free(s);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"bad_specs", test_bad_specs},
      {"expand", test_expand},
      {"assign", test_assign},
      {"search", test_search},
      {"search_exhausted", test_search_exhausted},
  };
  return ZT_RUN(cases, argc, argv);
}
