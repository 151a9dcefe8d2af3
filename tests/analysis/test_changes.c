/* A release's changes without a browser: where a script's functions are
 * (names, lines, through strings, templates, regular expressions and
 * comments), which function holds a hunk, and the ranking by impact
 * sets on CPU profiles written here, three pairs: the slowed function's
 * change first with an interval above 0, its changed caller not credited
 * with it, an unchanged slow function nowhere, a change never run "not
 * reached", a hunk outside functions unranked; explore's objectives
 * read off the same pairs; and explore's reports with a flow's hostile
 * names and values, which are text in every one of them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ana.h"
#include "test.h"

static const char *js =
    "// a comment with function fake() {\n"              /* 1 */
    "'use strict';\n"                                    /* 2 */
    "var top = 1;\n"                                     /* 3 */
    "function render(rows) {\n"                          /* 4 */
    "  var s = '}{ not a brace';\n"                      /* 5 */
    "  var t = `tpl ${rows.map(r => { return r; })}`;\n" /* 6 */
    "  var re = /[}{]+/g;\n"                             /* 7 */
    "  return filterRows(rows);\n"                       /* 8 */
    "}\n"                                                /* 9 */
    "const filterRows = (rows) => {\n"                   /* 10 */
    "  return rows.filter(function (r) {\n"              /* 11 */
    "    return r;\n"                                    /* 12 */
    "  });\n"                                            /* 13 */
    "};\n"                                               /* 14 */
    "class Table {\n"                                    /* 15 */
    "  sortBy(key) {\n"                                  /* 16 */
    "    if (key) { return 1; }\n"                       /* 17 */
    "  }\n"                                              /* 18 */
    "}\n"                                                /* 19 */
    "obj.handler = function () {\n"                      /* 20 */
    "  /* } */ return { a: 1 };\n"                       /* 21 */
    "};\n"                                               /* 22 */
    "var o = { exportCsv: async function () {} };\n";    /* 23 */

static long find_fn(const struct ana_js_fn *v, unsigned n, const char *name) {
  for (unsigned i = 0; i < n; i++)
    if (!strcmp(v[i].name, name)) return (long)i;
  return -1;
}

static void test_functions(void) {
  struct ana_js_fn *v;
  unsigned n = ana_js_functions(js, strlen(js), &v);
  static const struct {
    const char *name;
    int line, end;
  } want[] = {{"render", 4, 9},
              {"filterRows", 10, 14},
              {"sortBy", 16, 18},
              {"handler", 20, 22},
              {"exportCsv", 23, 23}};
  ZT_INT(n, ZC_ARRAY_LEN(want)); /* fake, the anonymous ones: none */
  for (size_t k = 0; k < ZC_ARRAY_LEN(want); k++) {
    long i = find_fn(v, n, want[k].name);
    if (!ZT_TRUE(i >= 0)) continue;
    ZT_INT(v[i].line, want[k].line);
    ZT_INT(v[i].end, want[k].end);
  }
  long at[8];
  int outside;
  /* a line in an anonymous callback: the named function around it */
  ZT_INT(ana_js_holders(v, n, 12, 12, 0, at, 8, &outside), 1);
  ZT_STR(v[at[0]].name, "filterRows");
  ZT_INT(outside, 0);
  /* a hunk over two functions; one over the top level and a function */
  ZT_INT(ana_js_holders(v, n, 8, 10, 0, at, 8, &outside), 2);
  ZT_INT(outside, 0);
  ZT_INT(ana_js_holders(v, n, 3, 4, 0, at, 8, &outside), 1);
  ZT_STR(v[at[0]].name, "render");
  ZT_INT(outside, 1);
  /* a deletion between two lines of sortBy; one at the top level */
  ZT_INT(ana_js_holders(v, n, 16, 16, 1, at, 8, &outside), 1);
  ZT_STR(v[at[0]].name, "sortBy");
  ZT_INT(ana_js_holders(v, n, 3, 3, 1, at, 8, &outside), 0);
  ZT_INT(outside, 1);
  ana_js_functions_free(v, n);
}

/* ---- CPU profiles written from a small tree ---- */

struct pnode {
  const char *name;
  int parent, line;
  double self_ms;
};

/* A .cpuprofile of the nodes (node 0 the root), each sampled every
 * 0.5 ms for its self time. */
static void write_profile(const char *path, const struct pnode *v, int n) {
  cJSON *doc = cJSON_CreateObject(),
        *nodes = cJSON_AddArrayToObject(doc, "nodes");
  for (int i = 0; i < n; i++) {
    cJSON *o = cJSON_CreateObject(),
          *cf = cJSON_AddObjectToObject(o, "callFrame");
    cJSON_AddNumberToObject(o, "id", i + 1);
    cJSON_AddStringToObject(cf, "functionName", i ? v[i].name : "(root)");
    cJSON_AddStringToObject(cf, "url", i ? "http://127.0.0.1:9/app.js" : "");
    cJSON_AddStringToObject(cf, "scriptId", "1");
    cJSON_AddNumberToObject(cf, "lineNumber", v[i].line - 1);
    cJSON_AddNumberToObject(cf, "columnNumber", 0);
    cJSON *kids = cJSON_AddArrayToObject(o, "children");
    for (int k = 1; k < n; k++)
      if (v[k].parent == i)
        cJSON_AddItemToArray(kids, cJSON_CreateNumber(k + 1));
    cJSON_AddItemToArray(nodes, o);
  }
  cJSON *samples = cJSON_AddArrayToObject(doc, "samples");
  cJSON *deltas = cJSON_AddArrayToObject(doc, "timeDeltas");
  for (int i = 1; i < n; i++)
    for (int s = 0; s < (int)(v[i].self_ms * 2); s++) {
      cJSON_AddItemToArray(samples, cJSON_CreateNumber(i + 1));
      cJSON_AddItemToArray(deltas, cJSON_CreateNumber(500));
    }
  cJSON_AddNumberToObject(doc, "startTime", 0);
  cJSON_AddNumberToObject(doc, "endTime", 1e6);
  char *text = cJSON_PrintUnformatted(doc);
  zt_write_str(path, text);
  free(text);
  cJSON_Delete(doc);
}

/* The app: render calls filterRows (which calls normalize), formatDate
 * and heavyStable; the new build's filterRows calls normalize far more.
 * heavyStable is slow in both. */
static void write_pair(int pair, const char *old_path, const char *new_path) {
  double j = pair * 0.5; /* a little noise, pair to pair */
  struct pnode old[] = {{"(root)", -1, 0, 0},          {"main", 0, 1, 1},
                        {"render", 1, 4, 2 + j},       {"filterRows", 2, 10, 3},
                        {"normalize", 3, 30, 5 + j},   {"formatDate", 2, 40, 2},
                        {"heavyStable", 2, 50, 80 - j}};
  struct pnode new_[] = {{"(root)", -1, 0, 0},
                         {"main", 0, 1, 1},
                         {"render", 1, 4, 2.5},
                         {"filterRows", 2, 10, 4},
                         {"normalize", 3, 30, 60 + 2 * j},
                         {"formatDate", 2, 40, 2 + j / 2},
                         {"heavyStable", 2, 50, 80 + j}};
  write_profile(old_path, old, 7);
  write_profile(new_path, new_, 7);
}

static const cJSON *change_of(const cJSON *a, const char *fn) {
  const cJSON *o;
  cJSON_ArrayForEach(o, a) {
    const cJSON *f = cJSON_GetObjectItem(o, "function");
    if (cJSON_IsString(f) && !strcmp(f->valuestring, fn)) return o;
  }
  return NULL;
}

static const char *str(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItem(o, k);
  return cJSON_IsString(v) ? v->valuestring : "";
}

static void test_ranking(void) {
  struct ana_hunk h[] = {{"app.js", 5, 5},
                         {"app.js", 11, 12},
                         {"app.js", 41, 41},
                         {"app.js", 71, 72},
                         {"README.md", 1, 3}};
  const char *commits[] = {"1111111111111111111111111111111111111111"};
  struct ana_change ch[] = {
      {"app.js", "render", 4, 9, &h[0], 1, commits, 1},
      {"app.js", "filterRows", 10, 25, &h[1], 1, commits, 1},
      {"app.js", "formatDate", 40, 45, &h[2], 1, NULL, 0},
      {"app.js", "exportCsv", 70, 80, &h[3], 1, NULL, 0},
      {"README.md", NULL, 0, 0, &h[4], 1, NULL, 0},
  };
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_cmp *c = ana_cmp_new(&o, 0, NULL, 3, 9);
  ana_cmp_set_changes(c, ch, 5, "r1..r3", NULL);
  for (int p = 1; p <= 3; p++) {
    char op[64], np[64];
    snprintf(op, sizeof op, "old-%d.cpuprofile", p);
    snprintf(np, sizeof np, "new-%d.cpuprofile", p);
    write_pair(p, zt_tmp(op), zt_tmp(np));
    ZT_INT(ana_cmp_add(c, zt_tmp(op), zt_tmp(np)), ZC_OK);
  }
  /* explore's objectives on the same pairs: filterRows' time with its
   * callees is larger in the new build in every pair (normalize under it
   * works 12 times the old's, by construction); a step no profile has,
   * or a function none has, is no number */
  double ov[3], nv[3];
  struct ana_objective ob = {.kind = ANA_OBJ_CAUSE, .name = "filterRows"};
  ZT_INT(ana_cmp_objective(c, &ob, ov, nv, 3), 3);
  for (int p = 0; p < 3; p++)
    ZT_TRUE(nv[p] > ov[p]);
  ob = (struct ana_objective){.kind = ANA_OBJ_STEP, .step = 4};
  ZT_INT(ana_cmp_objective(c, &ob, ov, nv, 3), 3);
  ZT_TRUE(isnan(ov[0]) && isnan(nv[0]));
  ob = (struct ana_objective){.kind = ANA_OBJ_CAUSE, .name = "nowhere"};
  ana_cmp_objective(c, &ob, ov, nv, 3);
  ZT_TRUE(isnan(ov[0]) && isnan(nv[0]));
  cJSON *a = ana_cmp_changes_json(c);
  if (!ZT_TRUE(a != NULL)) return;
  ZT_INT(cJSON_GetArraySize(a), 5);
  const cJSON *first = cJSON_GetArrayItem(a, 0);
  ZT_STR(str(first, "function"), "filterRows");
  ZT_INT(cJSON_GetObjectItem(first, "rank")->valueint, 1);
  ZT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(first, "significant")));
  ZT_INT(cJSON_GetObjectItem(first, "impact_set")->valueint, 2);
  const cJSON *cm =
      cJSON_GetArrayItem(cJSON_GetObjectItem(first, "commits"), 0);
  ZT_TRUE(cJSON_IsString(cm) && !strcmp(cm->valuestring, commits[0]));
  /* render holds filterRows' change: its own Δ is below filterRows', its
   * Δ with the nested change in is not */
  const cJSON *r = change_of(a, "render");
  double fd = cJSON_GetObjectItem(first, "delta_ms")->valuedouble;
  ZT_TRUE(r && cJSON_GetObjectItem(r, "delta_ms")->valuedouble < fd);
  ZT_TRUE(r &&
          cJSON_GetObjectItem(r, "delta_with_nested_ms")->valuedouble > fd);
  const cJSON *ne =
      r ? cJSON_GetArrayItem(cJSON_GetObjectItem(r, "nested"), 0) : NULL;
  ZT_TRUE(cJSON_IsString(ne) && !strcmp(ne->valuestring, "filterRows"));
  ZT_STR(str(change_of(a, "exportCsv"), "status"), "not reached");
  ZT_TRUE(
      cJSON_IsNull(cJSON_GetObjectItem(change_of(a, "exportCsv"), "delta_ms")));
  ZT_STR(str(cJSON_GetArrayItem(a, 4), "status"), "outside functions");
  ZT_STR(str(cJSON_GetArrayItem(a, 4), "file"), "README.md");
  ZT_TRUE(change_of(a, "heavyStable") == NULL);
  ZT_TRUE(change_of(a, "normalize") == NULL);
  cJSON_Delete(a);
  ana_cmp_free(c);
}

/* explore.json's text is the flow's and the page's: a parameter's name
 * and values, a failed candidate's reason (a selector, Chrome's message)
 * and the title are data in report.html and summary.md, never markup,
 * and no control character reaches either. */
static void test_explore_report(void) {
  static const char hostile[] = "<img src=x onerror=alert(1)> `a`|b\x1b[31m";
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddStringToObject(doc, "schema", "zamcap-explore/1");
  cJSON_AddStringToObject(doc, "title", "</h1><script>alert(2)</script>");
  cJSON *ps = cJSON_AddArrayToObject(doc, "parameters");
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "name", "q<b>|`");
  cJSON_AddStringToObject(p, "kind", "string");
  cJSON_AddBoolToObject(p, "numeric", 1);
  cJSON_AddNumberToObject(p, "low", 1);
  cJSON_AddNumberToObject(p, "high", 40);
  cJSON_AddStringToObject(p, "axis", "length of q<b>|`");
  cJSON_AddItemToArray(ps, p);
  cJSON *cs = cJSON_AddArrayToObject(doc, "candidates");
  for (int k = 0; k < 2; k++) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(cJSON_AddObjectToObject(c, "values"), "q<b>|`",
                            hostile);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(c, "numbers"), "q<b>|`",
                            30);
    cJSON_AddStringToObject(c, "status", k ? "failed" : "ok");
    if (k) {
      cJSON_AddStringToObject(c, "reason", "no <i>#tab-new</i>\x1b]0;t\x07");
      cJSON_AddNullToObject(c, "delta_ms");
    } else {
      cJSON_AddNumberToObject(c, "delta_ms", 12.5);
    }
    cJSON_AddItemToArray(cs, c);
  }
  cJSON *w = cJSON_Duplicate(cJSON_GetArrayItem(cs, 0), 1);
  cJSON_AddItemToObject(doc, "worst", w);
  cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "objective"), "label",
                          "<u>x</u>'s time with its callees");
  cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "verdict"), "text",
                          "Slower at q<b>|`=\"<img src=x onerror=alert(1)>\"");
  const char *out = zt_tmp("explore-report");
  zt_sh(NULL, "mkdir -p '%s'", out);
  ZT_INT(ana_write_explore(doc, out), ZC_OK);
  char path[4300];
  snprintf(path, sizeof path, "%s/report.html", out);
  char *html = zt_read(path);
  snprintf(path, sizeof path, "%s/summary.md", out);
  char *md = zt_read(path);
  if (ZT_TRUE(html && md)) {
    ZT_TRUE(!strstr(html, "<img"));
    ZT_TRUE(!strstr(html, "<script"));
    ZT_TRUE(!strstr(html, "<b>") && !strstr(html, "<i>") &&
            !strstr(html, "<u>"));
    ZT_HAS(html, "&lt;img src=x onerror=alert(1)&gt;");
    ZT_TRUE(!strchr(html, '\x1b') && !strchr(html, '\x07'));
    /* Markdown: prose escaped, values in code spans (where nothing is
     * markup), a backtick in a value fenced by two */
    ZT_HAS(md, "\\</h1\\>\\<script\\>");
    ZT_HAS(md, "\\<u\\>x\\</u\\>'s time");
    ZT_HAS(md, "``<img src=x onerror=alert(1)> `a`\\|b [31m``");
    ZT_TRUE(!strstr(md, "<u>") && !strstr(md, "\n<script"));
    ZT_TRUE(!strchr(md, '\x1b') && !strchr(md, '\x07'));
    /* every table row keeps its cells: no pipe from a value ends one */
    int rows = 0;
    for (const char *l = md; (l = strstr(l, "\n| ")); l++) {
      const char *e = strchr(l + 1, '\n');
      int cells = 0;
      for (const char *q = l + 1; q < e; q++)
        cells += *q == '|' && q[-1] != '\\';
      ZT_INT(cells, 4); /* #, the parameter, Δ: 3 cells, 4 bars */
      rows++;
    }
    ZT_INT(rows, 3); /* the header and two candidates */
  }
  free(html);
  free(md);
  cJSON_Delete(doc);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"functions", test_functions},
      {"ranking", test_ranking},
      {"explore_report", test_explore_report},
  };
  return ZT_RUN(cases, argc, argv);
}
