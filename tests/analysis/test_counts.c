/* The call counts' rules (analysis/zam/calls.c) on call trees written as
 * text (harness/treefile.h) and count files written by hand: each case a
 * regression whose shape only the counts tell, and the one beside it that
 * the same rule must leave alone. The trees' times are made up, so what
 * is asserted is the name each rule gives, never a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "test.h"
#include "treefile.h"
#include "zam/zam.h"

#define PAIRS 3
#define URL   "http://127.0.0.1:8000/app.js"
#define LIB   "http://127.0.0.1:8000/lib.js"

/* One function of a count file: its name, the tree's line of it, its
 * calls a run, its code's hash. */
struct fn {
  const char *name;
  int line;
  double calls;
  const char *hash;
  int lib; /* in lib.js, not app.js */
  int end; /* the tree's line it ends on (0: its own): the functions
            * between are inside it */
};

/* A zamcap-calls/1 file of fns (the name NULL ends them), at path: one
 * script for app.js, one for lib.js, the latter with the whole text's
 * hash lib_hash where it is not NULL. */
static void calls_file(const char *path, const struct fn *fns,
                       const char *lib_hash) {
  FILE *f = fopen(path, "w");
  if (!ZT_TRUE(f != NULL)) return;
  fprintf(f, "{\"schema\":\"zamcap-calls/1\",\"scripts\":[");
  for (int lib = 0; lib < 2; lib++) {
    fprintf(f, "%s{\"url\":\"%s\",", lib ? "," : "", lib ? LIB : URL);
    if (lib && lib_hash) fprintf(f, "\"hash\":\"%s\",", lib_hash);
    fprintf(f, "\"functions\":[");
    int first = 1;
    for (const struct fn *x = fns; x->name; x++) {
      if (x->lib != lib) continue;
      fprintf(f,
              "%s{\"name\":\"%s\",\"line\":%d,\"col\":0,\"end_line\":%d,"
              "\"end_col\":80,\"calls\":%.0f,\"hash\":\"%s\"}",
              first ? "" : ",", x->name, x->line - 1,
              (x->end ? x->end : x->line) - 1, x->calls, x->hash);
      first = 0;
    }
    fprintf(f, "]}");
  }
  fprintf(f, "]}\n");
  fclose(f);
}

/* The tree text with every "%g" a time, each scaled by k (the pairs
 * differ a little, as real ones do). */
static char *tree(const char *fmt, const double *ms, int n, double k) {
  size_t cap = strlen(fmt) + 64 * (size_t)n + 1;
  char *out = zc_xmalloc(cap), *o = out;
  int i = 0;
  for (const char *p = fmt; *p; p++) {
    if (p[0] == '%' && p[1] == 'g' && i < n) {
      o += snprintf(o, cap - (size_t)(o - out), "%g", ms[i++] * k);
      p++;
    } else {
      *o++ = *p;
    }
  }
  *o = '\0';
  return out;
}

struct shape {
  const char *old_tree, *new_tree; /* trees, "%g" for each time */
  double old_ms[8], new_ms[8];
  int nold, nnew;
  struct fn old_calls[8], new_calls[8];
  const char *lib_hash[2]; /* lib.js's whole text, per side (or NULL) */
};

/* The evidence of the last causes_in's causes, joined by '|'. */
static char last_words[4096];

/* The causes' names, last frame of each path, joined by ',' (by rank);
 * with whole, their paths as the report gives them. */
static void causes_in(const struct shape *s, const char *tag, int whole,
                      char *out, size_t cap) {
  struct ana_opts o;
  ana_opts_default(&o);
  /* the counts' rules name causes of any size: none is minor here (a
   * small cause beside a large one is test_critical's minor) */
  o.minor_share = 0;
  struct ana_cmp *c = ana_cmp_new(&o, 0, NULL, 0, 9);
  for (int p = 0; p < PAIRS; p++) {
    double k = 1 + 0.02 * p;
    char *ot = tree(s->old_tree, s->old_ms, s->nold, k);
    char *nt = tree(s->new_tree, s->new_ms, s->nnew, 1.01 * k);
    struct ana_timeline *a = zt_tree_parse(c->ctx, "old", ot),
                        *b = zt_tree_parse(c->ctx, "new", nt);
    free(ot);
    free(nt);
    if (!ZT_TRUE(a && b)) return;
    ZT_INT(ana__cmp_add_tl(c, a, b, zc_now_ms()), ZC_OK);
  }
  char op[4096], np[4200];
  snprintf(op, sizeof op, "%s", zt_tmp(tag));
  snprintf(np, sizeof np, "%s.new", op);
  calls_file(op, s->old_calls, s->lib_hash[0]);
  calls_file(np, s->new_calls, s->lib_hash[1]);
  ZT_INT(ana_cmp_add_calls(c, op, np), ZC_OK);
  struct ana_probe *pr = NULL;
  unsigned n = ana_cmp_probes(c, &pr);
  out[0] = '\0';
  for (unsigned i = 0; i < n; i++) {
    if (pr[i].kind != ANA_PROBE_PATH) continue;
    size_t l = strlen(out);
    snprintf(out + l, cap - l, "%s%s", l ? "," : "",
             whole ? pr[i].label : pr[i].name[pr[i].depth - 1]);
  }
  ana_probes_free(pr, n);
  last_words[0] = '\0';
  for (uint32_t i = 0; c->agg && c->agg->calls && i < c->agg->n; i++) {
    size_t l = strlen(last_words);
    if (c->agg->nodes[i].cause && c->agg->calls[i].words)
      snprintf(last_words + l, sizeof last_words - l, "%s%s", l ? "|" : "",
               c->agg->calls[i].words);
  }
  ana_cmp_free(c);
}

static void causes_of(const struct shape *s, const char *tag, char *out,
                      size_t cap) {
  causes_in(s, tag, 0, out, cap);
}

/* A new walk: the new resolve visits the whole document through a new
 * visit, whose _visit runs 1 000 times per call and does the work itself.
 * The entry of the new code, resolve, is named, not the walk's step. */
static void test_new_walk(void) {
  struct shape s = {
      .old_tree = "main@app.js:1 %g\n"
                  "  toJSON@app.js:2 %g\n",
      .old_ms = {60, 50},
      .nold = 2,
      .new_tree = "main@app.js:1 %g\n"
                  "  toJSON@app.js:2 %g\n"
                  "    resolve@app.js:3 %g\n"
                  "      visit@app.js:4 %g\n"
                  "        _visit@app.js:5 %g\n",
      .new_ms = {460, 450, 400, 398, 396},
      .nnew = 5,
      .old_calls = {{"main", 1, 1, "a1"}, {"toJSON", 2, 765, "a2"}},
      .new_calls = {{"main", 1, 1, "a1"},
                    {"toJSON", 2, 765, "b2"},
                    {"resolve", 3, 765, "b3"},
                    {"visit", 4, 765, "b4"},
                    {"_visit", 5, 765000, "b5"}},
  };
  char got[512];
  causes_of(&s, "walk", got, sizeof got);
  ZT_STR(got, "resolve");
  /* Beside it: new code called once per call of its new callers does its
   * own work, and is itself named (lodash 4.16's shuffleSelf). */
  s.new_calls[4].calls = 765;
  causes_of(&s, "walk1", got, sizeof got);
  ZT_STR(got, "_visit");
}

/* Old code inside new code: the new memoized hands lodash's isEqual, its
 * code the same and called as often, a bigger input, so isEqual's loop
 * runs 40 times more. Its loop's owner has the same code: the new
 * function stays the cause. */
static void test_owner_same_code(void) {
  struct shape s = {
      .old_tree = "render@app.js:1 %g\n"
                  "  isEqual@app.js:2 %g\n"
                  "    assocIndexOf@app.js:3 %g\n",
      .old_ms = {30, 20, 10},
      .nold = 3,
      .new_tree = "render@app.js:1 %g\n"
                  "  memoized@app.js:4 %g\n"
                  "    isEqual@app.js:2 %g\n"
                  "      assocIndexOf@app.js:3 %g\n",
      .new_ms = {420, 410, 405, 395},
      .nnew = 4,
      .old_calls = {{"render", 1, 123, "a1"},
                    {"isEqual", 2, 123, "a2"},
                    {"assocIndexOf", 3, 46812, "a3"}},
      .new_calls = {{"render", 1, 123, "b1"},
                    {"isEqual", 2, 123, "a2"},
                    {"assocIndexOf", 3, 1919292, "a3"},
                    {"memoized", 4, 246, "b4"}},
  };
  char got[512];
  causes_of(&s, "owner", got, sizeof got);
  ZT_STR(got, "memoized");
  /* Beside it: the owner's own code changed (it lost a cache), and it is
   * named, inside the new code. */
  s.new_calls[1].hash = "b2";
  causes_of(&s, "owner1", got, sizeof got);
  ZT_STR(got, "isEqual");
}

/* A function named inside new code stands at the call path that ran,
 * through the frames between: not right under the new function. */
static void test_inside_path(void) {
  struct shape s = {
      .old_tree = "render@app.js:1 %g\n"
                  "  compare@app.js:5 %g\n"
                  "    isEqual@app.js:2 %g\n"
                  "      assocIndexOf@app.js:3 %g\n",
      .old_ms = {40, 30, 20, 10},
      .nold = 4,
      .new_tree = "render@app.js:1 %g\n"
                  "  memoized@app.js:4 %g\n"
                  "    compare@app.js:5 %g\n"
                  "      isEqual@app.js:2 %g\n"
                  "        assocIndexOf@app.js:3 %g\n",
      .new_ms = {430, 420, 410, 405, 395},
      .nnew = 5,
      .old_calls = {{"render", 1, 123, "a1"},
                    {"isEqual", 2, 123, "a2"},
                    {"assocIndexOf", 3, 46812, "a3"},
                    {"compare", 5, 123, "a5"}},
      .new_calls = {{"render", 1, 123, "b1"},
                    {"isEqual", 2, 123, "b2"},
                    {"assocIndexOf", 3, 1919292, "a3"},
                    {"memoized", 4, 246, "b4"},
                    {"compare", 5, 123, "a5"}},
  };
  char got[512];
  causes_in(&s, "path", 1, got, sizeof got);
  ZT_STR(got, "CrRendererMain > render > memoized > compare > isEqual");
}

/* A function named inside new code meets the graph's bar: its time grew
 * by mu in every pair. isEqual (its code changed) calls assocIndexOf 41
 * times as often, but its own time grew by 20 ms a pair: the new
 * memoized, which holds the rest of the growth, stays the cause. */
static void test_inside_under_mu(void) {
  struct shape s = {
      .old_tree = "render@app.js:1 %g\n"
                  "  isEqual@app.js:2 %g\n"
                  "    assocIndexOf@app.js:3 %g\n",
      .old_ms = {30, 20, 10},
      .nold = 3,
      .new_tree = "render@app.js:1 %g\n"
                  "  memoized@app.js:4 %g\n"
                  "    isEqual@app.js:2 %g\n"
                  "      assocIndexOf@app.js:3 %g\n",
      .new_ms = {420, 410, 40, 30},
      .nnew = 4,
      .old_calls = {{"render", 1, 123, "a1"},
                    {"isEqual", 2, 123, "a2"},
                    {"assocIndexOf", 3, 46812, "a3"}},
      .new_calls = {{"render", 1, 123, "b1"},
                    {"isEqual", 2, 123, "b2"},
                    {"assocIndexOf", 3, 1919292, "a3"},
                    {"memoized", 4, 246, "b4"}},
  };
  char got[512];
  causes_of(&s, "undermu", got, sizeof got);
  ZT_STR(got, "memoized");
  /* Beside it: the same shape with isEqual's time grown by 5 mu is
   * named. */
  s.new_ms[1] = 420;
  s.new_ms[2] = 270;
  s.new_ms[3] = 250;
  causes_of(&s, "overmu", got, sizeof got);
  ZT_STR(got, "isEqual");
}

/* Two functions of one name in one file (the key is name and file):
 * their texts the same on both sides is the same code. isEqual's loop's
 * owner is then old code given a bigger input, and the new memoized that
 * gives it stays the cause, as with one isEqual. */
static void test_same_name_texts(void) {
  struct shape s = {
      .old_tree = "render@app.js:1 %g\n"
                  "  isEqual@app.js:2 %g\n"
                  "    assocIndexOf@app.js:3 %g\n",
      .old_ms = {30, 20, 10},
      .nold = 3,
      .new_tree = "render@app.js:1 %g\n"
                  "  memoized@app.js:4 %g\n"
                  "    isEqual@app.js:2 %g\n"
                  "      assocIndexOf@app.js:3 %g\n",
      .new_ms = {420, 410, 405, 395},
      .nnew = 4,
      .old_calls = {{"render", 1, 123, "a1"},
                    {"isEqual", 2, 123, "a2"},
                    {"assocIndexOf", 3, 46812, "a3"},
                    {"isEqual", 7, 40, "a7"}},
      .new_calls = {{"render", 1, 123, "b1"},
                    {"isEqual", 2, 123, "a2"},
                    {"assocIndexOf", 3, 1919292, "a3"},
                    {"memoized", 4, 246, "b4"},
                    {"isEqual", 7, 40, "a7"}},
  };
  char got[512];
  causes_of(&s, "texts", got, sizeof got);
  ZT_STR(got, "memoized");
  /* Beside it: one of the two changed, and which one cannot be told: the
   * owner is named, as with a changed isEqual. */
  s.new_calls[4].hash = "b7";
  causes_of(&s, "texts1", got, sizeof got);
  ZT_STR(got, "isEqual");
}

/* A root named upstream of a consequence stands at the call path where
 * its new work ran: the new cloneNodes runs under the old prepare, and
 * patch, its code the same, is slower per call after it. */
static void test_upstream_path(void) {
  struct shape s = {
      .old_tree = "render@app.js:1 %g\n"
                  "  prepare@app.js:2 %g\n"
                  "  patch@app.js:3 %g\n",
      .old_ms = {60, 10, 40},
      .nold = 3,
      .new_tree = "render@app.js:1 %g\n"
                  "  prepare@app.js:2 %g\n"
                  "    cloneNodes@app.js:4 %g\n"
                  "  patch@app.js:3 %g\n",
      .new_ms = {300, 40, 30, 250},
      .nnew = 4,
      .old_calls = {{"render", 1, 3, "a1"},
                    {"prepare", 2, 3, "a2"},
                    {"patch", 3, 900, "a3"}},
      .new_calls = {{"render", 1, 3, "b1"},
                    {"prepare", 2, 3, "a2"},
                    {"patch", 3, 900, "a3"},
                    {"cloneNodes", 4, 900, "b4"}},
  };
  char got[512];
  causes_in(&s, "upstream", 1, got, sizeof got);
  ZT_STR(got, "CrRendererMain > render > prepare > cloneNodes,"
              "CrRendererMain > render > patch");
}

/* A loop's owner with the same code as before: patch, called as often,
 * calls patchVnode 100 times as often, because the new cloneNodes that
 * runs before it defeats its short cut. Its loop runs more for what it
 * is given: cloneNodes is named, and patch ranks after it. */
static void test_owner_given(void) {
  struct shape s = {
      .old_tree = "render@app.js:1 %g\n"
                  "  prepare@app.js:2 %g\n"
                  "  patch@app.js:3 %g\n"
                  "    patchVnode@app.js:5 %g\n",
      .old_ms = {60, 10, 40, 30},
      .nold = 4,
      .new_tree = "render@app.js:1 %g\n"
                  "  prepare@app.js:2 %g\n"
                  "    cloneNodes@app.js:4 %g\n"
                  "  patch@app.js:3 %g\n"
                  "    patchVnode@app.js:5 %g\n",
      .new_ms = {600, 40, 30, 550, 530},
      .nnew = 5,
      .old_calls = {{"render", 1, 3, "a1"},
                    {"prepare", 2, 3, "a2"},
                    {"patch", 3, 900, "a3"},
                    {"patchVnode", 5, 900, "a5"}},
      .new_calls = {{"render", 1, 3, "b1"},
                    {"prepare", 2, 3, "a2"},
                    {"patch", 3, 900, "a3"},
                    {"cloneNodes", 4, 900, "b4"},
                    {"patchVnode", 5, 90000, "a5"}},
  };
  char got[512];
  causes_of(&s, "owner_given", got, sizeof got);
  ZT_STR(got, "cloneNodes,patch");
  /* Beside it: patch's own code changed (it lost the short cut itself):
   * it owns the loop, and nothing upstream is asked. */
  s.new_calls[2].hash = "b3";
  causes_of(&s, "owner_given1", got, sizeof got);
  ZT_STR(got, "patch");
}

/* A loop's owner with the same code as before and no new work above it:
 * findSnake, called as often, calls advance 100 times as often, because
 * the changed build above it no longer passes a limit down. The nearest
 * caller whose code changed, build, is named in its place: findSnake,
 * on build's own path, is where build's time landed, no cause of its
 * own. */
static void test_owner_changed_caller(void) {
  struct shape s = {
      .old_tree = "compare@app.js:1 %g\n"
                  "  build@app.js:2 %g\n"
                  "    findSnake@app.js:3 %g\n"
                  "      advance@app.js:4 %g\n",
      .old_ms = {70, 60, 50, 40},
      .nold = 4,
      .new_tree = "compare@app.js:1 %g\n"
                  "  build@app.js:2 %g\n"
                  "    findSnake@app.js:3 %g\n"
                  "      advance@app.js:4 %g\n",
      .new_ms = {640, 630, 620, 600},
      .nnew = 4,
      .old_calls = {{"compare", 1, 3, "a1"},
                    {"build", 2, 3, "a2"},
                    {"findSnake", 3, 3, "a3"},
                    {"advance", 4, 300, "a4"}},
      .new_calls = {{"compare", 1, 3, "a1"},
                    {"build", 2, 3, "b2"},
                    {"findSnake", 3, 3, "a3"},
                    {"advance", 4, 30000, "a4"}},
  };
  char got[512];
  causes_of(&s, "owner_caller", got, sizeof got);
  ZT_STR(got, "build");
  ZT_HAS(last_words, "findSnake");
  /* Beside it: nothing above findSnake changed either; it stays. */
  s.new_calls[1].hash = "a2";
  causes_of(&s, "owner_caller1", got, sizeof got);
  ZT_STR(got, "findSnake");
}

/* A function with the same code, called more often and slower per call
 * too: indexOf searches a longer list (what it is given) 50 times as
 * often. Its calls grew in a loop above it: get, called as often, calls
 * depend 50 times as often per call of its own, and is named. */
static void test_owner_mixed(void) {
  struct shape s = {
      .old_tree = "flush@app.js:1 %g\n"
                  "  get@app.js:2 %g\n"
                  "    depend@app.js:3 %g\n"
                  "      indexOf@app.js:4 %g\n",
      .old_ms = {70, 60, 50, 40},
      .nold = 4,
      .new_tree = "flush@app.js:1 %g\n"
                  "  get@app.js:2 %g\n"
                  "    depend@app.js:3 %g\n"
                  "      indexOf@app.js:4 %g\n",
      .new_ms = {3030, 3020, 3010, 3000},
      .nnew = 4,
      .old_calls = {{"flush", 1, 3, "a1"},
                    {"get", 2, 300, "a2"},
                    {"depend", 3, 300, "a3"},
                    {"indexOf", 4, 300, "a4"}},
      .new_calls = {{"flush", 1, 3, "a1"},
                    {"get", 2, 300, "b2"},
                    {"depend", 3, 15000, "a3"},
                    {"indexOf", 4, 15000, "a4"}},
  };
  char got[512];
  causes_of(&s, "owner_mixed", got, sizeof got);
  ZT_STR(got, "get");
  ZT_HAS(last_words, "calls depend 50 times as often per call of its own");
  /* Beside it: indexOf's own code changed; its slowdown per call is its
   * own doing, and it stays. */
  s.new_calls[3].hash = "b4";
  causes_of(&s, "owner_mixed1", got, sizeof got);
  ZT_STR(got, "indexOf");
}

/* A library whose whole text is the same in both builds holds the same
 * code, also in a function the old build never ran: the new write hands
 * lib.js a new kind of input, whose trap (never called before) calls
 * getArch 180 times as often, on two paths. The trap is no root; the new
 * write, which gives it that input, stays the cause. */
static void test_same_script(void) {
  struct shape s = {
      .old_tree = "reducer@app.js:1 %g\n"
                  "  getArch@lib.js:2 %g\n",
      .old_ms = {40, 10},
      .nold = 2,
      .new_tree = "reducer@app.js:1 %g\n"
                  "  write@app.js:3 %g\n"
                  "    trap@lib.js:5 %g\n"
                  "      getArch@lib.js:2 %g\n"
                  "    batch@app.js:4 %g\n"
                  "      trap@lib.js:5 %g\n"
                  "        getArch@lib.js:2 %g\n",
      .new_ms = {430, 400, 40, 30, 45, 40, 30},
      .nnew = 7,
      .old_calls = {{"reducer", 1, 7, "a1"}, {"getArch", 2, 6309, "a2", 1}},
      .new_calls = {{"reducer", 1, 907, "b1"},
                    {"write", 3, 900, "b3"},
                    {"batch", 4, 900, "b4"},
                    {"trap", 5, 1351800, "a5", 1},
                    {"getArch", 2, 1182024, "a2", 1}},
      .lib_hash = {"0badf00d", "0badf00d"},
  };
  char got[512];
  causes_of(&s, "script", got, sizeof got);
  ZT_STR(got, "write");
  /* Beside it: lib.js's text changed, and trap, never run before, may
   * be new code: it is named, as before. */
  s.lib_hash[1] = "0badf00e";
  causes_of(&s, "script1", got, sizeof got);
  ZT_STR(got, "trap");
}

/* Old code, newly called: the new redraw calls reRender on every call,
 * where the old one called it only when the table's height changed. The
 * old build had reRender and renderRows, uncalled, with the same text
 * (count files list a function that never ran, with 0 calls): the time
 * landed in old code, and redraw, which calls it where it did not, is
 * named. */
static void test_uncalled_code(void) {
  struct shape s = {
      .old_tree = "toggle@app.js:1 %g\n"
                  "  redraw@app.js:2 %g\n"
                  "    adjust@app.js:4 %g\n",
      .old_ms = {40, 30, 20},
      .nold = 3,
      .new_tree = "toggle@app.js:1 %g\n"
                  "  redraw@app.js:2 %g\n"
                  "    adjust@app.js:4 %g\n"
                  "    reRender@app.js:3 %g\n"
                  "      renderRows@app.js:5 %g\n",
      .new_ms = {440, 430, 20, 400, 395},
      .nnew = 5,
      .old_calls = {{"toggle", 1, 3, "a1"},
                    {"redraw", 2, 3, "a2"},
                    {"adjust", 4, 3, "a4"},
                    {"reRender", 3, 0, "a3"},
                    {"renderRows", 5, 0, "a5"}},
      .new_calls = {{"toggle", 1, 3, "a1"},
                    {"redraw", 2, 3, "b2"},
                    {"adjust", 4, 3, "a4"},
                    {"reRender", 3, 3, "a3"},
                    {"renderRows", 5, 3, "a5"}},
  };
  char got[512];
  causes_of(&s, "uncalled", got, sizeof got);
  ZT_STR(got, "redraw");
  /* Beside it: the old build's renderRows read otherwise, so it is new
   * code, and named, as before. */
  s.old_calls[4].hash = "c5";
  causes_of(&s, "uncalled1", got, sizeof got);
  ZT_STR(got, "renderRows");
  /* And beside that: redraw's code is the same, and so are its calls:
   * what it is given changed, and the counts do not move the cause. */
  s.old_calls[4].hash = "a5";
  s.new_calls[1].hash = "a2";
  causes_of(&s, "uncalled2", got, sizeof got);
  ZT_STR(got, "renderRows");
}

/* The same change, with renderRows a function inside reRender (lines 3 to
 * 5): V8 never compiled it in the old build, which never called
 * reRender, so the old count file does not list it. reRender's text is
 * the same, and so is renderRows', inside it: old code, and redraw is
 * named, as above. Beside it: reRender's text differs, so renderRows' is
 * not known to be old, and it is named, as new code. */
static void test_uncalled_inside(void) {
  struct shape s = {
      .old_tree = "toggle@app.js:1 %g\n"
                  "  redraw@app.js:2 %g\n"
                  "    adjust@app.js:6 %g\n",
      .old_ms = {40, 30, 20},
      .nold = 3,
      .new_tree = "toggle@app.js:1 %g\n"
                  "  redraw@app.js:2 %g\n"
                  "    adjust@app.js:6 %g\n"
                  "    reRender@app.js:3 %g\n"
                  "      renderRows@app.js:5 %g\n",
      .new_ms = {440, 430, 20, 400, 395},
      .nnew = 5,
      .old_calls = {{"toggle", 1, 3, "a1"},
                    {"redraw", 2, 3, "a2"},
                    {"adjust", 6, 3, "a6"},
                    {"reRender", 3, 0, "a3", 0, 5}},
      .new_calls = {{"toggle", 1, 3, "a1"},
                    {"redraw", 2, 3, "b2"},
                    {"adjust", 6, 3, "a6"},
                    {"reRender", 3, 3, "a3", 0, 5},
                    {"renderRows", 5, 3, "a5"}},
  };
  char got[512];
  causes_of(&s, "uinside", got, sizeof got);
  ZT_STR(got, "redraw");
  s.old_calls[3].hash = "c3";
  causes_of(&s, "uinside1", got, sizeof got);
  ZT_STR(got, "renderRows");
}

/* New code inside its caller's text: the new recompute defines a loop
 * closure, walk (line 3, inside recompute's lines 2 to 4), and calls it
 * 1 000 times a call. walk is new code never called before; recompute
 * ran as often before, and its text changed: walk is part of that
 * change, and recompute is named, walk where the time landed. Beside it:
 * walk defined elsewhere (line 6, its own text), and walk is named, as
 * new code, as before. */
static void test_new_inside_caller(void) {
  struct shape s = {
      .old_tree = "set@app.js:1 %g\n"
                  "  recompute@app.js:2 %g\n",
      .old_ms = {40, 30},
      .nold = 2,
      .new_tree = "set@app.js:1 %g\n"
                  "  recompute@app.js:2 %g\n"
                  "    walk@app.js:3 %g\n",
      .new_ms = {440, 430, 400},
      .nnew = 3,
      .old_calls = {{"set", 1, 3, "a1"}, {"recompute", 2, 3, "a2"}},
      .new_calls = {{"set", 1, 3, "a1"},
                    {"recompute", 2, 3, "b2", 0, 4},
                    {"walk", 3, 3000, "b3"}},
  };
  char got[512];
  causes_of(&s, "inside_caller", got, sizeof got);
  ZT_STR(got, "recompute");
  ZT_HAS(last_words, "walk, called 3000 times a run and never before, is "
                     "new code defined inside it");
  s.new_tree = "set@app.js:1 %g\n"
               "  recompute@app.js:2 %g\n"
               "    walk@app.js:6 %g\n";
  s.new_calls[1].end = 0;
  s.new_calls[2].line = 6;
  causes_of(&s, "inside_caller1", got, sizeof got);
  ZT_STR(got, "walk");
}

/* The same change, the time landing lower on the new path, in a function
 * the old build called too but so briefly that no sample saw it: format,
 * called 10 times as often, all of it under reRender, which the old
 * build never called. The path's top that was never called is reRender,
 * old code: redraw is named, and format is where the time landed, not a
 * cause of its own. */
static void test_uncalled_path(void) {
  struct shape s = {
      .old_tree = "toggle@app.js:1 %g\n"
                  "  redraw@app.js:2 %g\n"
                  "    adjust@app.js:4 %g\n",
      .old_ms = {40, 30, 20},
      .nold = 3,
      .new_tree = "toggle@app.js:1 %g\n"
                  "  redraw@app.js:2 %g\n"
                  "    adjust@app.js:4 %g\n"
                  "    reRender@app.js:3 %g\n"
                  "      format@app.js:6 %g\n",
      .new_ms = {440, 430, 20, 400, 395},
      .nnew = 5,
      .old_calls = {{"toggle", 1, 3, "a1"},
                    {"redraw", 2, 3, "a2"},
                    {"adjust", 4, 3, "a4"},
                    {"format", 6, 300, "a6"},
                    {"reRender", 3, 0, "a3"}},
      .new_calls = {{"toggle", 1, 3, "a1"},
                    {"redraw", 2, 3, "b2"},
                    {"adjust", 4, 3, "a4"},
                    {"format", 6, 3000, "a6"},
                    {"reRender", 3, 3, "a3"}},
  };
  char got[512];
  causes_of(&s, "upath", got, sizeof got);
  ZT_STR(got, "redraw");
  /* Beside it: reRender is new code (the old build's text differs), and
   * the counts do not look past it: redraw is not named. */
  s.old_calls[4].hash = "c3";
  causes_of(&s, "upath1", got, sizeof got);
  ZT_TRUE(strstr(got, "redraw") == NULL);
}

/* A caller renamed by the bundler: the new build's mount$$1 is the old
 * mount (rollup renamed it), so its call path is new and the graph's rule
 * for old code called from new code would give inject's time to it. The
 * counts say inject is called as often as before, slower per call, with
 * its own code changed: inject stays the cause, beside the new Tag that
 * mount$$1 also calls. */
static void test_renamed_caller(void) {
  struct shape s = {
      .old_tree = "place@app.js:1 %g\n"
                  "  mount@lib.js:2 %g\n"
                  "    inject@lib.js:3 %g\n",
      .old_ms = {60, 50, 10},
      .nold = 3,
      .new_tree = "place@app.js:1 %g\n"
                  "  mount$$1@lib.js:4 %g\n"
                  "    inject@lib.js:3 %g\n"
                  "    mountTo@lib.js:5 %g\n"
                  "      Tag@lib.js:6 %g\n",
      .new_ms = {560, 550, 400, 95, 90},
      .nnew = 5,
      .old_calls = {{"place", 1, 450, "a1"},
                    {"mount", 2, 450, "a2", 1},
                    {"inject", 3, 450, "a3", 1}},
      .new_calls = {{"place", 1, 450, "a1"},
                    {"mount$$1", 4, 450, "b4", 1},
                    {"inject", 3, 450, "b3", 1},
                    {"mountTo", 5, 450, "b5", 1},
                    {"Tag", 6, 450, "b6", 1}},
  };
  char got[512];
  causes_of(&s, "renamed", got, sizeof got);
  ZT_STR(got, "inject,Tag");
  /* Beside it: inject's code is the same; the new caller gives it more
   * to do, and the rule stands: its time is the new caller's, which is
   * no leaf, and Tag alone is named. */
  s.new_calls[2].hash = "a3";
  causes_of(&s, "renamed1", got, sizeof got);
  ZT_STR(got, "Tag");
}

/* A spread-out cause is a cause too: peek, whose own time grew most, is
 * no leaf (token below it grew as well), so it stands apart from the
 * graph. It is called as often as before with the same code, slower per
 * call: what it is given changed, and lookup above it, whose code
 * changed, is named as the root; token stays. */
static void test_spread_input(void) {
  struct shape s = {
      .old_tree = "lint@app.js:1 %g\n"
                  "  lookup@app.js:2 %g\n"
                  "    peek@lib.js:3 %g\n"
                  "      token@lib.js:4 %g\n",
      .old_ms = {60, 50, 40, 10},
      .nold = 4,
      .new_tree = "lint@app.js:1 %g\n"
                  "  lookup@app.js:2 %g\n"
                  "    peek@lib.js:3 %g\n"
                  "      token@lib.js:4 %g\n",
      .new_ms = {700, 690, 680, 120},
      .nnew = 4,
      .old_calls = {{"lint", 1, 3, "a1"},
                    {"lookup", 2, 300, "a2"},
                    {"peek", 3, 3000, "a3", 1},
                    {"token", 4, 300, "a4", 1}},
      .new_calls = {{"lint", 1, 3, "a1"},
                    {"lookup", 2, 300, "b2"},
                    {"peek", 3, 3000, "a3", 1},
                    {"token", 4, 300, "b4", 1}},
  };
  char got[512];
  causes_in(&s, "spread_input", 1, got, sizeof got);
  ZT_STR(got, "CrRendererMain > lint > lookup,"
              "CrRendererMain > lint > lookup > peek > token");
  /* Beside it: lookup's code is the same too; nothing on the path
   * changed, so the counts name no root and token alone is named. */
  s.new_calls[1].hash = "a2";
  causes_of(&s, "spread_input1", got, sizeof got);
  ZT_STR(got, "token");
  /* Called ten times as often at the old time a call, by lookup, called
   * as often as before: lookup owns the loop. */
  s.new_ms[0] = 500, s.new_ms[1] = 490, s.new_ms[2] = 420;
  s.new_calls[2].calls = 30000;
  causes_of(&s, "spread_input2", got, sizeof got);
  ZT_STR(got, "lookup,token");
}

/* Per-element calls: layout now calls measure once per item, and the
 * time lands in parse under it. layout is named; its evidence names the
 * call that grew (measure's) and where the time landed (parse). */
static void test_owner_callee(void) {
  struct shape s = {
      .old_tree = "draw@app.js:1 %g\n"
                  "  layout@app.js:2 %g\n"
                  "    measure@app.js:3 %g\n"
                  "      parse@app.js:4 %g\n",
      .old_ms = {40, 30, 10, 8},
      .nold = 4,
      .new_tree = "draw@app.js:1 %g\n"
                  "  layout@app.js:2 %g\n"
                  "    measure@app.js:3 %g\n"
                  "      parse@app.js:4 %g\n",
      .new_ms = {1040, 1030, 1010, 800},
      .nnew = 4,
      .old_calls = {{"draw", 1, 3, "a1"},
                    {"layout", 2, 3, "a2"},
                    {"measure", 3, 3, "a3"},
                    {"parse", 4, 3, "a4"}},
      .new_calls = {{"draw", 1, 3, "a1"},
                    {"layout", 2, 3, "b2"},
                    {"measure", 3, 300, "a3"},
                    {"parse", 4, 300, "a4"}},
  };
  char got[512];
  causes_of(&s, "callee", got, sizeof got);
  ZT_STR(got, "layout");
  ZT_HAS(last_words, "layout (called 3 times a run, 3 before) calls measure "
                     "100 times as often");
  ZT_HAS(last_words, "the time landed in parse");
  /* Beside it: parse's own code changed too. The change can be in it as
   * well as in layout's loop (zxcvbn-ts 3.0's defaultMatch, its text
   * changed, run once per new spelling of a password): it stays named
   * after layout. With its text the same, layout alone (above): the
   * same code cannot be the change. */
  s.new_calls[3].hash = "b4";
  causes_of(&s, "callee1", got, sizeof got);
  ZT_STR(got, "layout,parse");
  ZT_HAS(last_words, "called more often: 300 times a run instead of 3");
  ZT_HAS(last_words, "its code changed too");
}

/* A loop over a loop: load lost its cache and parses every import again,
 * and parse's own loop over primary runs over more text. parse calls
 * primary more often per call of its own, but parse is called more often
 * too: its loop is above it. The walk goes on to load, which is called as
 * often as before and calls parse more often: load is named. */
static void test_owner_above_loop(void) {
  struct shape s = {
      .old_tree = "import@app.js:1 %g\n"
                  "  load@app.js:2 %g\n"
                  "    parse@app.js:3 %g\n"
                  "      primary@app.js:4 %g\n",
      .old_ms = {100, 95, 90, 60},
      .nold = 4,
      .new_tree = "import@app.js:1 %g\n"
                  "  load@app.js:2 %g\n"
                  "    parse@app.js:3 %g\n"
                  "      primary@app.js:4 %g\n",
      .new_ms = {600, 595, 590, 560},
      .nnew = 4,
      .old_calls = {{"import", 1, 3, "a1"},
                    {"load", 2, 3, "a2"},
                    {"parse", 3, 54, "a3"},
                    {"primary", 4, 138, "a4"}},
      .new_calls = {{"import", 1, 3, "a1"},
                    {"load", 2, 3, "b2"},
                    {"parse", 3, 258, "a3"},
                    {"primary", 4, 1599, "a4"}},
  };
  char got[512];
  causes_of(&s, "above_loop", got, sizeof got);
  ZT_STR(got, "load");
  ZT_HAS(last_words, "the time landed in primary");
  /* Beside it: every caller above parse is called more often too, as
   * often per call of its own caller as before (the page imports five
   * times as much): no caller above keeps its count, and parse, the
   * first that calls more per call of its own, is named as before. With
   * load's code changed, parse (the same code) runs its loop more for
   * what load gives it: load, above it on its path, is named in its
   * place. */
  s.new_calls[0].calls = 15;
  s.new_calls[1].calls = 15;
  causes_of(&s, "above_loop1", got, sizeof got);
  ZT_STR(got, "load");
  ZT_HAS(last_words, "parse");
  s.new_calls[1].hash = "a2";
  causes_of(&s, "above_loop2", got, sizeof got);
  ZT_STR(got, "parse");
}

/* Old code under new code: the new tint calls multiply, which the old
 * build had with the same text but never called. multiply does the work,
 * but none of it is a change of its own: the entry of the new code, tint,
 * is named. */
static void test_uncalled_under_new(void) {
  struct shape s = {
      .old_tree = "draw@app.js:1 %g\n",
      .old_ms = {40},
      .nold = 1,
      .new_tree = "draw@app.js:1 %g\n"
                  "  tint@app.js:2 %g\n"
                  "    multiply@app.js:3 %g\n",
      .new_ms = {400, 360, 340},
      .nnew = 3,
      .old_calls = {{"draw", 1, 3, "a1"}, {"multiply", 3, 0, "a3"}},
      .new_calls = {{"draw", 1, 3, "b1"},
                    {"tint", 2, 300, "b2"},
                    {"multiply", 3, 300, "a3"}},
  };
  char got[512];
  causes_of(&s, "under_new", got, sizeof got);
  ZT_STR(got, "tint");
  ZT_HAS(last_words, "code the old build had but never called");
  /* draw, above it, changed and calls it where it did not: the words
   * say so, for a fix may go to either */
  ZT_HAS(last_words, "; its caller draw, whose code changed (called 3 "
                     "times a run, 3 before), calls it where it did not");
  /* with draw's code the same, they do not */
  s.new_calls[0].hash = "a1";
  causes_of(&s, "under_new0", got, sizeof got);
  ZT_STR(got, "tint");
  ZT_TRUE(strstr(last_words, "its caller") == NULL);
  s.new_calls[0].hash = "b1";
  /* Beside it: multiply's text is new too; it does work of its own, and
   * stays the cause. */
  s.new_calls[2].hash = "b3";
  causes_of(&s, "under_new1", got, sizeof got);
  ZT_STR(got, "multiply");
}

/* Old code newly called under old code called more, under new code
 * (trumbowyg 2.28): the new redraw runs jQuery's each over its handles,
 * each calls css, which the old build had but never called, and css
 * calls style, never called before either. style does the work, with the
 * same text as before: redraw, which calls the chain where nothing did,
 * is named. With style's text changed, style stays. */
static void test_uncalled_chain_under_new(void) {
  struct shape s = {
      .old_tree = "onKey@app.js:1 %g\n"
                  "  each@lib.js:10 %g\n",
      .old_ms = {40, 20},
      .nold = 2,
      .new_tree = "onKey@app.js:1 %g\n"
                  "  redraw@app.js:2 %g\n"
                  "    each@lib.js:10 %g\n"
                  "      css@lib.js:11 %g\n"
                  "        style@lib.js:12 %g\n",
      .new_ms = {420, 400, 390, 370, 350},
      .nnew = 5,
      .old_calls = {{"onKey", 1, 3, "a1"},
                    {"each", 10, 30, "f10", 1},
                    {"css", 11, 0, "f11", 1},
                    {"style", 12, 0, "f12", 1}},
      .new_calls = {{"onKey", 1, 3, "b1"},
                    {"redraw", 2, 36, "b2"},
                    {"each", 10, 600, "f10", 1},
                    {"css", 11, 3000, "f11", 1},
                    {"style", 12, 30000, "f12", 1}},
  };
  char got[512];
  causes_of(&s, "chain_under_new", got, sizeof got);
  ZT_STR(got, "redraw");
  ZT_HAS(last_words, "style called 30000 times a run, never before");
  s.new_calls[4].hash = "e12";
  causes_of(&s, "chain_under_new1", got, sizeof got);
  ZT_STR(got, "style");
}

/* A recursion in new code (@vue/reactivity 3.5): the new trigger calls
 * the new notify 6 times a run, and notify calls itself through the
 * computeds' diamond, a million times a run over all its levels. The
 * count says nothing of a loop in trigger: notify, which does the work,
 * stays named. Without the recursion, the same counts are trigger's
 * loop, and trigger is named. */
static void test_new_recursion(void) {
  struct shape s = {
      .old_tree = "edit@app.js:1 %g\n",
      .old_ms = {40},
      .nold = 1,
      .new_tree = "edit@app.js:1 %g\n"
                  "  trigger@app.js:2 %g\n"
                  "    notify@app.js:3 %g\n"
                  "      notify@app.js:3 %g\n",
      .new_ms = {420, 400, 390, 30},
      .nnew = 4,
      .old_calls = {{"edit", 1, 3, "a1"}},
      .new_calls = {{"edit", 1, 3, "b1"},
                    {"trigger", 2, 6, "b2"},
                    {"notify", 3, 1000000, "b3"}},
  };
  char got[512];
  causes_of(&s, "new_recursion", got, sizeof got);
  ZT_STR(got, "notify");
  s.new_tree = "edit@app.js:1 %g\n"
               "  trigger@app.js:2 %g\n"
               "    notify@app.js:3 %g\n";
  s.nnew = 3;
  causes_of(&s, "new_recursion1", got, sizeof got);
  ZT_STR(got, "trigger");
}

/* A loop in the event loop (pdf.js 1.7.316): the changed next walks the
 * page tree one fetch at a time, each step re-entered from a promise
 * callback the matching prunes, so next stands right under the thread.
 * fetch, with the same code, is called 225 times as often, one call per
 * call of next: no caller on the path calls more per call of its own.
 * next, called more itself with its code changed, is named. With next's
 * code the same, fetch stays. */
static void test_async_owner(void) {
  struct shape s = {
      .old_tree = "next@app.js:1 %g\n"
                  "  fetch@lib.js:10 %g\n",
      .old_ms = {40, 30},
      .nold = 2,
      .new_tree = "next@app.js:1 %g\n"
                  "  fetch@lib.js:10 %g\n",
      .new_ms = {400, 380},
      .nnew = 2,
      .old_calls = {{"next", 1, 100, "a1"}, {"fetch", 10, 100, "f10", 1}},
      .new_calls = {{"next", 1, 22500, "b1"}, {"fetch", 10, 22500, "f10", 1}},
  };
  char got[512];
  causes_of(&s, "async_owner", got, sizeof got);
  ZT_STR(got, "next");
  s.new_calls[0].hash = "a1";
  causes_of(&s, "async_owner1", got, sizeof got);
  ZT_STR(got, "fetch");
}

/* A built-in slower per call: fill has no script, so V8 counts none of
 * its calls, and the browser's code is the same in both runs. Under a
 * caller called as often as before, it was given something else: the new
 * style, run before it, is named as the root (under mu itself), and fill
 * after it as the consequence. */
static void test_builtin_given(void) {
  struct shape s = {
      .old_tree = "render@app.js:1 %g\n"
                  "  fill %g\n",
      .old_ms = {60, 40},
      .nold = 2,
      .new_tree = "render@app.js:1 %g\n"
                  "  style@app.js:2 %g\n"
                  "  fill %g\n",
      .new_ms = {400, 30, 330},
      .nnew = 3,
      .old_calls = {{"render", 1, 300, "a1"}},
      .new_calls = {{"render", 1, 300, "b1"}, {"style", 2, 300, "b2"}},
  };
  char got[512];
  causes_in(&s, "builtin", 1, got, sizeof got);
  ZT_STR(got, "CrRendererMain > render > style,"
              "CrRendererMain > render > fill");
  /* Beside it: render is called ten times as often; fill's growth may be
   * more calls, and it stays the only cause. */
  s.new_calls[0].calls = 3000;
  causes_of(&s, "builtin1", got, sizeof got);
  ZT_STR(got, "fill");
}

/* Changed code below a cause slower per call with the same code: render
 * is called as often, its text is the same, and it is slower per call
 * because the step it calls through four helpers changed, each path
 * under mu, the step's time over them all over mu. The step is named in
 * render's place. */
static void test_changed_below(void) {
  struct shape s = {
      .old_tree = "render@app.js:1 %g\n"
                  "  a@app.js:3 10\n    step@app.js:2 5\n"
                  "  b@app.js:4 10\n    step@app.js:2 5\n"
                  "  c@app.js:5 10\n    step@app.js:2 5\n"
                  "  d@app.js:6 10\n    step@app.js:2 5\n",
      .old_ms = {100},
      .nold = 1,
      .new_tree = "render@app.js:1 %g\n"
                  "  a@app.js:3 50\n    step@app.js:2 45\n"
                  "  b@app.js:4 50\n    step@app.js:2 45\n"
                  "  c@app.js:5 50\n    step@app.js:2 45\n"
                  "  d@app.js:6 50\n    step@app.js:2 45\n",
      .new_ms = {260},
      .nnew = 1,
      .old_calls = {{"render", 1, 10, "a1"},
                    {"step", 2, 40, "a2"},
                    {"a", 3, 10, "a3"},
                    {"b", 4, 10, "a4"},
                    {"c", 5, 10, "a5"},
                    {"d", 6, 10, "a6"}},
      .new_calls = {{"render", 1, 10, "a1"},
                    {"step", 2, 40, "b2"},
                    {"a", 3, 10, "a3"},
                    {"b", 4, 10, "a4"},
                    {"c", 5, 10, "a5"},
                    {"d", 6, 10, "a6"}},
  };
  char got[512];
  causes_of(&s, "below", got, sizeof got);
  ZT_STR(got, "step");
  ZT_HAS(last_words, "above it, render is slower per call with the same code");
  /* Beside it: the step's text is the same too; nothing under render
   * changed, so render stays (what it is given changed). */
  s.new_calls[1].hash = "a2";
  causes_of(&s, "below1", got, sizeof got);
  ZT_STR(got, "render");
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"new_walk", test_new_walk},
      {"owner_same_code", test_owner_same_code},
      {"inside_path", test_inside_path},
      {"inside_under_mu", test_inside_under_mu},
      {"same_name_texts", test_same_name_texts},
      {"upstream_path", test_upstream_path},
      {"owner_given", test_owner_given},
      {"same_script", test_same_script},
      {"uncalled_code", test_uncalled_code},
      {"uncalled_path", test_uncalled_path},
      {"uncalled_inside", test_uncalled_inside},
      {"new_inside_caller", test_new_inside_caller},
      {"renamed_caller", test_renamed_caller},
      {"spread_input", test_spread_input},
      {"owner_callee", test_owner_callee},
      {"owner_above_loop", test_owner_above_loop},
      {"uncalled_under_new", test_uncalled_under_new},
      {"uncalled_chain_under_new", test_uncalled_chain_under_new},
      {"new_recursion", test_new_recursion},
      {"async_owner", test_async_owner},
      {"builtin_given", test_builtin_given},
      {"changed_below", test_changed_below},
      {"owner_changed_caller", test_owner_changed_caller},
      {"owner_mixed", test_owner_mixed},
  };
  return ZT_RUN(cases, argc, argv);
}
