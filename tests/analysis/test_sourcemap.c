/* Tests of the source-map decoder, the naming rule and ana_symbolize. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ana.h"
#include "report/report.h"
#include "smap/smap.h"
#include "test.h"
#include "timeline.h"
#include "zam/zam.h"

static struct ana_smap *load(const char *rel, char **text) {
  char *json = zt_read(zt_data(rel));
  if (!json) {
    ZT_TRUE(!"map file missing");
    return NULL;
  }
  struct ana_smap *m = NULL;
  enum zc_err e = ana_smap_parse(json, strlen(json), NULL, &m);
  if (e) fprintf(stderr, "%s: %s\n", rel, zc_errmsg());
  ZT_INT(e, ZC_OK);
  if (text)
    *text = json;
  else
    free(json);
  return m;
}

/* Every position the npm source-map package gave (expect.mjs) is found the
 * same: source, original line and name. */
static void check_expect(const char *map_rel) {
  struct ana_smap *m = load(map_rel, NULL);
  if (!m) return;
  char exp_rel[512];
  snprintf(exp_rel, sizeof exp_rel, "%.*s.expect", (int)(strlen(map_rel) - 4),
           map_rel);
  FILE *f = fopen(zt_data(exp_rel), "r");
  ZT_TRUE(f != NULL);
  if (!f) {
    ana_smap_free(m);
    return;
  }
  char line[4096];
  unsigned n = 0, bad = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned gl, gc;
    int ol;
    char src[2048], name[1024];
    if (sscanf(line, "%u\t%u\t%2047[^\t]\t%d\t%1023[^\t\n]", &gl, &gc, src, &ol,
               name) != 5)
      continue;
    n++;
    struct ana_smap_pos p;
    int got = ana_smap_lookup(m, gl, gc, &p);
    const char *want_src = strcmp(src, "-") ? src : NULL;
    const char *want_name = strcmp(name, "-") ? name : NULL;
    const char *gs = got ? p.source : NULL;
    const char *gn = got ? p.name : NULL;
    int ok = (gs && want_src ? !strcmp(gs, want_src) : gs == want_src) &&
             (!want_src || p.line == ol) &&
             (gn && want_name ? !strcmp(gn, want_name) : gn == want_name);
    if (!ok && bad++ < 3)
      fprintf(stderr, "%s %u:%u: want %s:%d %s, got %s:%d %s\n", map_rel, gl,
              gc, src, ol, name, gs ? gs : "-", got ? p.line : -1,
              gn ? gn : "-");
  }
  fclose(f);
  ZT_TRUE(n > 100);
  ZT_INT(bad, 0);
  ana_smap_free(m);
}

static void test_real_maps(void) {
  static const char *maps[] = {
      "sourcemaps/jquery-3.8.0.min.map",
      "sourcemaps/popper-2.11.8.min.js.map",
      "sourcemaps/preact-10.29.8.min.js.map",
      "sourcemaps/rxjs-7.8.2-Subject.js.map",
      "../agent/bundles/esbuild/old/assets/main-6YZMCLM4.js.map",
      "../agent/bundles/esbuild/new/assets/main-QWVESZII.js.map",
      "../agent/bundles/terser/old/js/app.min.js.map",
      "../agent/bundles/terser/new/js/app.min.js.map",
      "../agent/bundles/webpack/old/static/js/"
      "main.8d4d2767ead513abdbf3.js.map",
      "../agent/bundles/webpack/new/static/js/"
      "main.b2c38936117bfe65c4e0.js.map",
      /* index maps: a prelude section, then rollup's map at line 1 */
      "../agent/bundles/rollup/old/assets/index-605s09jw.js.map",
      "../agent/bundles/rollup/new/assets/index-CT7tXQFM.js.map",
  };
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
    check_expect(maps[i]);
}

static struct ana_smap *parse(const char *json, const char *url) {
  struct ana_smap *m = NULL;
  if (ana_smap_parse(json, strlen(json), url, &m)) return NULL;
  return m;
}

static void test_sources(void) {
  /* sourceRoot joins the source; the map's URL resolves the result. */
  struct ana_smap *m =
      parse("{\"version\":3,\"sourceRoot\":\"../src/\",\"sources\":[\"a/x.ts\","
            "\"webpack://app/./y.ts\",\"/abs/z.ts\"],\"names\":[\"f\"],"
            "\"mappings\":\"AAAAA,ECAA,ECAA\"}",
            "http://h:8/assets/js/m.js.map");
  ZT_TRUE(m != NULL);
  if (!m) return;
  struct ana_smap_pos p;
  ZT_TRUE(ana_smap_lookup(m, 0, 0, &p));
  ZT_STR(p.source, "http://h:8/assets/src/a/x.ts");
  ZT_STR(p.name, "f");
  ZT_TRUE(ana_smap_lookup(m, 0, 2, &p));
  ZT_STR(p.source, "webpack://app/y.ts"); /* absolute: root not joined */
  ZT_TRUE(ana_smap_lookup(m, 0, 4, &p));
  ZT_STR(p.source, "http://h:8/abs/z.ts");
  ana_smap_free(m);
  char *j = ana_url_join("http://h/a/b/c.js", "../../../x.map");
  ZT_STR(j, "http://h/x.map");
  free(j);
  j = ana_url_join("http://h/a/c.js?v=1", "c.js.map");
  ZT_STR(j, "http://h/a/c.js.map");
  free(j);
}

static void test_sections(void) {
  /* Two sections on one line (the second at column 10) and one two lines
   * down; each with its own sources and names. */
  struct ana_smap *m = parse(
      "{\"version\":3,\"sections\":["
      "{\"offset\":{\"line\":0,\"column\":0},\"map\":{\"version\":3,"
      "\"sources\":[\"a.js\"],\"names\":[\"one\"],\"mappings\":\"AAAAA\"}},"
      "{\"offset\":{\"line\":0,\"column\":10},\"map\":{\"version\":3,"
      "\"sources\":[\"b.js\"],\"names\":[\"two\"],\"mappings\":\"AACAA,EAAC\"}}"
      ","
      "{\"offset\":{\"line\":2,\"column\":0},\"map\":{\"version\":3,"
      "\"sources\":[\"c.js\"],\"names\":[],\"mappings\":\";AAEA\"}}]}",
      NULL);
  ZT_TRUE(m != NULL);
  if (!m) return;
  struct ana_smap_pos p;
  ZT_TRUE(ana_smap_lookup(m, 0, 5, &p));
  ZT_STR(p.source, "a.js");
  ZT_STR(p.name, "one");
  ZT_TRUE(ana_smap_lookup(m, 0, 10, &p));
  ZT_STR(p.source, "b.js");
  ZT_INT(p.line, 1);
  ZT_STR(p.name, "two");
  ZT_TRUE(ana_smap_lookup(m, 0, 12, &p));
  ZT_TRUE(p.name == NULL);
  ZT_TRUE(!ana_smap_lookup(m, 2, 0, &p)); /* line 2 of the map is empty */
  ZT_TRUE(ana_smap_lookup(m, 3, 7, &p));
  ZT_STR(p.source, "c.js");
  ZT_INT(p.line, 2);
  ana_smap_free(m);
}

/* JSON members have no order: a section may give its map first. */
static void test_sections_map_first(void) {
  struct ana_smap *m = parse(
      "{\"version\":3,\"sections\":["
      "{\"map\":{\"version\":3,\"sources\":[\"a.js\"],\"names\":[\"one\"],"
      "\"mappings\":\"AAAAA\"},\"offset\":{\"line\":0,\"column\":0}},"
      "{\"map\":{\"version\":3,\"sources\":[\"b.js\"],\"names\":[\"two\"],"
      "\"mappings\":\"AACAA\"},\"offset\":{\"column\":10,\"line\":0},"
      "\"x\":[1]},"
      "{\"offset\":{\"line\":2,\"column\":0},\"map\":{\"version\":3,"
      "\"sources\":[\"c.js\"],\"names\":[],\"mappings\":\";AAEA\"}}]}",
      NULL);
  ZT_TRUE(m != NULL);
  if (!m) return;
  struct ana_smap_pos p;
  ZT_TRUE(ana_smap_lookup(m, 0, 5, &p));
  ZT_STR(p.source, "a.js");
  ZT_STR(p.name, "one");
  ZT_TRUE(ana_smap_lookup(m, 0, 11, &p));
  ZT_STR(p.source, "b.js");
  ZT_INT(p.line, 1);
  ZT_STR(p.name, "two");
  ZT_TRUE(ana_smap_lookup(m, 3, 7, &p));
  ZT_STR(p.source, "c.js");
  ana_smap_free(m);
  /* A map with no offset at all is still refused. */
  static const char nooff[] =
      "{\"version\":3,\"sections\":[{\"map\":{\"version\":3,"
      "\"sources\":[],\"names\":[],\"mappings\":\"\"}}]}";
  m = NULL;
  ZT_TRUE(ana_smap_parse(nooff, strlen(nooff), NULL, &m) != ZC_OK);
  ZT_TRUE(m == NULL);
}

static void test_broken(void) {
  static const char *bad[] = {
      "",
      "{}",
      "{\"version\":2,\"sources\":[],\"names\":[],\"mappings\":\"\"}",
      "{\"version\":3,\"sources\":[\"a\"],\"names\":[],\"mappings\":\"A!AA\"}",
      /* a number beyond 32 bits */
      "{\"version\":3,\"sources\":[\"a\"],\"names\":[],"
      "\"mappings\":\"gggggggggggggggB\"}",
      /* a negative column */
      "{\"version\":3,\"sources\":[\"a\"],\"names\":[],\"mappings\":\"D\"}",
      /* 2 fields, 6 fields */
      "{\"version\":3,\"sources\":[\"a\"],\"names\":[],\"mappings\":\"AA\"}",
      "{\"version\":3,\"sources\":[\"a\"],\"names\":[],"
      "\"mappings\":\"AAAAAA\"}",
      /* sections: nested too deep, a url, out of order */
      "{\"version\":3,\"sections\":[{\"offset\":{\"line\":0,\"column\":0},"
      "\"map\":{\"version\":3,\"sections\":[{\"offset\":{\"line\":0,"
      "\"column\":0},\"map\":{\"version\":3,\"sections\":[{\"offset\":{"
      "\"line\":0,\"column\":0},\"map\":{\"version\":3,\"sections\":[{"
      "\"offset\":{\"line\":0,\"column\":0},\"map\":{\"version\":3,"
      "\"sections\":[]}}]}}]}}]}}]}",
      "{\"version\":3,\"sections\":[{\"offset\":{\"line\":0,\"column\":0},"
      "\"url\":\"x.map\"}]}",
      "{\"version\":3,\"sections\":[{\"offset\":{\"line\":5,\"column\":0},"
      "\"map\":{\"version\":3,\"sources\":[],\"names\":[],\"mappings\":"
      "\";\"}},{\"offset\":{\"line\":1,\"column\":0},\"map\":{\"version\":3,"
      "\"sources\":[],\"names\":[],\"mappings\":\"\"}}]}",
      "{\"version\":3,\"sources\":[\"a\"],\"names\":[],\"mappings\":\"AAAA\"}x",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    struct ana_smap *m = NULL;
    enum zc_err e = ana_smap_parse(bad[i], strlen(bad[i]), NULL, &m);
    if (!e) fprintf(stderr, "accepted: %s\n", bad[i]);
    ZT_TRUE(e != ZC_OK);
    ZT_TRUE(m == NULL);
    ZT_TRUE(*zc_errmsg() != '\0');
  }
  /* Indexes out of range and segments out of order are survivable. */
  struct ana_smap *m =
      parse("{\"version\":3,\"sources\":[\"a\"],\"names\":[\"n\"],"
            "\"mappings\":\"KAAAC,LAAAD,SCAA\"}",
            NULL);
  ZT_TRUE(m != NULL);
  if (!m) return;
  struct ana_smap_pos p;
  ZT_TRUE(ana_smap_lookup(m, 0, 0, &p)); /* the one at column 0, sorted */
  ZT_INT((int)p.gcol, 0);
  ZT_STR(p.name, "n");
  ZT_TRUE(ana_smap_lookup(m, 0, 5, &p)); /* names[1]: none */
  ZT_INT((int)p.gcol, 5);
  ZT_TRUE(p.name == NULL);
  ZT_TRUE(ana_smap_lookup(m, 0, 9, &p)); /* sources[1]: none */
  ZT_TRUE(p.source == NULL);
  ana_smap_free(m);
}

/* The naming rule on the checked-in bundles, at the columns V8 gives a
 * function: its parameter list's '('. */
static void resolve_at(const char *js_rel, const char *v8name,
                       const char *needle, const char *want,
                       const char *want_src, int want_line) {
  char map_rel[512];
  snprintf(map_rel, sizeof map_rel, "%s.map", js_rel);
  struct ana_smap *m = load(map_rel, NULL);
  char *js = zt_read(zt_data(js_rel));
  ZT_TRUE(js != NULL);
  if (!m || !js) {
    ana_smap_free(m);
    free(js);
    return;
  }
  /* needle ends at the '(': the line and column of that '(' */
  const char *at = strstr(js, needle);
  ZT_TRUE(at != NULL);
  if (at) {
    at += strlen(needle) - 1;
    uint32_t line = 0;
    const char *l0 = js;
    for (const char *q = js; q < at; q++)
      if (*q == '\n') line++, l0 = q + 1;
    const char *le = strchr(l0, '\n');
    size_t tn = le ? (size_t)(le - l0) : strlen(l0);
    struct ana_smap_pos p;
    ZT_TRUE(
        ana_smap_resolve(m, l0, tn, 1, v8name, line, (uint32_t)(at - l0), &p));
    if (want)
      ZT_STR(p.name ? p.name : "(none)", want);
    else
      ZT_TRUE(p.name == NULL);
    ZT_HAS(p.source ? p.source : "", want_src);
    ZT_INT(p.line, want_line);
    /* Without the text, "name(" is still found from the columns, and
     * where the name lies further ("name:function("), V8's is shown, as
     * it is when it is the same (not "obj.name=function(": V8's name
     * is then the whole "obj.name"). */
    if (want && *v8name && !strchr(v8name, '.')) {
      ZT_TRUE(ana_smap_resolve(m, NULL, 0, 1, v8name, line, (uint32_t)(at - l0),
                               &p));
      ZT_STR(p.name ? p.name : v8name, want);
    }
  }
  ana_smap_free(m);
  free(js);
}

static void vlq(struct zc_buf *b, int64_t v) {
  static const char d[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  uint64_t x = v < 0 ? ((uint64_t)-v << 1) | 1 : (uint64_t)v << 1;
  do {
    unsigned c = x & 31;
    x >>= 5;
    if (x) c |= 32;
    ZT_INT(zc_buf_addc(b, d[c]), ZC_OK);
  } while (x);
}

/* One line of about len bytes of filler (fill, a UTF-8 string repeated)
 * with nsites functions "n(" spread along it, and a map that names site i
 * "real_i" at its "n" and its "(": *cols gets each "("'s UTF-16 column. */
static char *long_line(size_t len, const char *fill, unsigned nsites,
                       char **mapjson, uint32_t *cols, size_t *tn) {
  struct zc_buf t, map, names;
  zc_buf_init(&t, (size_t)1 << 30);
  zc_buf_init(&map, (size_t)1 << 30);
  zc_buf_init(&names, (size_t)1 << 30);
  size_t fl = strlen(fill), gap = len / (nsites + 1);
  int64_t pcol = 0, pline = 0;
  uint32_t u = 0; /* UTF-16 units so far */
  ZT_INT(zc_buf_printf(&map, "{\"version\":3,\"sources\":[\"s.js\"],"
                             "\"mappings\":\""),
         ZC_OK);
  for (unsigned i = 0; i < nsites; i++) {
    for (size_t k = 0; k < gap / fl; k++) {
      ZT_INT(zc_buf_add(&t, fill, fl), ZC_OK);
      for (size_t b = 0; b < fl;) {
        unsigned char c = (unsigned char)fill[b];
        size_t w = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
        u += w == 4 ? 2 : 1;
        b += w;
      }
    }
    ZT_INT(zc_buf_add(&t, " n(", 3), ZC_OK);
    int64_t c2[2] = {u + 1, u + 2};
    cols[i] = u + 2;
    u += 3;
    for (int k = 0; k < 2; k++) {
      if (i || k) ZT_INT(zc_buf_addc(&map, ','), ZC_OK);
      vlq(&map, c2[k] - pcol);
      vlq(&map, 0);
      vlq(&map, (int64_t)i - pline);
      vlq(&map, 0);
      vlq(&map, i || k ? k ? 0 : 1 : 0);
      pcol = c2[k], pline = (int64_t)i;
    }
    ZT_INT(zc_buf_printf(&names, "%s\"real_%u\"", i ? "," : "", i), ZC_OK);
  }
  ZT_INT(zc_buf_printf(&map, "\",\"names\":[%s]}", names.ptr), ZC_OK);
  *mapjson = zc_buf_take(&map);
  zc_buf_free(&names);
  *tn = t.len;
  return zc_buf_take(&t);
}

/* Issue 26.7: a long line's UTF-16 columns are found through its index,
 * the same as by walking it: 1-, 2-, 3- and 4-byte characters. */
static void test_long_line_index(void) {
  uint32_t cols[40];
  char *mj;
  size_t tn;
  char *t = long_line(200000,
                      "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
                      "b",
                      40, &mj, cols, &tn);
  struct ana_smap *m = parse(mj, NULL);
  free(mj);
  if (!ZT_TRUE(m != NULL)) {
    free(t);
    return;
  }
  struct ana_smap_line l;
  ana_smap_line_init(&l, t, tn, 0);
  ZT_TRUE(l.nck > 100);
  char want[32];
  for (unsigned i = 0; i < 40; i++) {
    struct ana_smap_pos a, b;
    snprintf(want, sizeof want, "real_%u", i);
    ZT_TRUE(ana_smap_resolve_line(m, &l, "n", 0, cols[i], &a));
    ZT_STR(a.name ? a.name : "(none)", want);
    ZT_INT(a.how, ANA_SM_NAMED);
    ZT_TRUE(ana_smap_resolve(m, t, tn, 0, "n", 0, cols[i], &b));
    ZT_STR(b.name ? b.name : "(none)", want);
  }
  ana_smap_line_free(&l);
  ana_smap_free(m);
  free(t);
}

/* The ms ana_symbolize takes over frames at cols[0..n) of the long line
 * t, with a map of its own (nothing cached); *renamed gets how many it
 * renamed. */
static double symbolize_ms(const char *mj, const char *t, size_t tn,
                           const uint32_t *cols, unsigned n,
                           uint32_t *renamed) {
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = ana_tl_new(c, "long");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "main", NULL, -1, -1);
  for (unsigned i = 0; i < n; i++)
    ana_tl_sample(tl,
                  ana_tl_child(tl, th, ANA_FUNC, "n", "http://h/big.js", 0,
                               (int32_t)cols[i]),
                  (int64_t)i * 1000, 1000);
  struct ana_maps *ms = ana_maps_new(NULL, NULL);
  ana_maps_add(ms, "http://h/big.js", mj, strlen(mj), NULL, t, tn);
  struct ana_sym_stats st;
  double t0 = zc_now_ms();
  ana_symbolize(tl, ms, &st);
  double taken = zc_now_ms() - t0;
  *renamed = st.renamed;
  ana_maps_free(ms);
  ana_timeline_free(tl);
  ana_ctx_free(c);
  return taken;
}

/* Issue 26.7: naming frames on one long line that is not all ASCII is
 * linear in the line, not frames x line: 400 frames on a 16 MB line took
 * 14 s when each walked the line to its column, 50 ms with the index.
 * Measured against one frame at the line's end on the same machine (one
 * pass over the line either way): 400 frames cost about as much, where a
 * walk per frame would cost some 200 times more. No ms figure is
 * assumed. */
static void test_long_line_linear(void) {
  enum { N = 400 };
  static uint32_t cols[N];
  char *mj;
  size_t tn;
  char *t =
      long_line((size_t)16 << 20, "\xc3\xa9xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", N,
                &mj, cols, &tn);
  uint32_t one = 0, all = 0;
  double ms_one = symbolize_ms(mj, t, tn, &cols[N - 1], 1, &one);
  double ms_all = symbolize_ms(mj, t, tn, cols, N, &all);
  ZT_INT(one, 1);
  ZT_INT(all, N);
  if (!ZT_TRUE(ms_all < 20 * ms_one))
    fprintf(stderr, "  %u frames on a %zu MB line: %.0f ms, 1 frame %.0f ms\n",
            N, tn >> 20, ms_all, ms_one);
  free(mj);
  free(t);
}

static void test_resolve(void) {
  const char *esb = "../agent/bundles/esbuild/old/assets/main-6YZMCLM4.js";
  resolve_at(esb, "l", "function l(", "checksum", "src/cells.js", 1);
  resolve_at(esb, "c", "function c(", "formatCell", "src/cells.js", 10);
  resolve_at(esb, "i", "function i(", "buildRows", "src/table.js", 2);
  const char *ter = "../agent/bundles/terser/new/js/app.min.js";
  resolve_at(ter, "t", "function t(", "formatCell", "src/cells.js", 17);
  /* checksum inlined as an anonymous function: its source and line, no
   * borrowed name */
  resolve_at(ter, "", "=function(", NULL, "src/cells.js", 2);
  const char *rol = "../agent/bundles/rollup/new/assets/index-CT7tXQFM.js";
  resolve_at(rol, "n", "function n(", "buildRows", "src/table.js", 2);
  /* top-level code is not a function */
  struct ana_smap *m =
      load("../agent/bundles/esbuild/old/assets/main-6YZMCLM4.js.map", NULL);
  struct ana_smap_pos p;
  if (m) ZT_TRUE(!ana_smap_resolve(m, NULL, 0, 1, "", 0, 0, &p));
  ana_smap_free(m);
}

/* Names as DevTools gives them (issue 26.11), on the published bundles
 * and maps of two libraries (tests/data/sourcemaps/SOURCES.md): where
 * V8's name is what the minifier made (a property "fn", a variable "d",
 * nothing for a function it inlined), the name the library's own source
 * declares at the function's original position. Each expected name was
 * read from the map's sourcesContent at that line. */
/* A map without source text (terser's default): the segment at the
 * function's name token, or at an anonymous function's start, names it
 * (issue 35.2); an inferred "obj.prop" name is looked for by its last
 * part. */
static void test_scope_names(void) {
  const char *d3 = "sourcemaps/d3-force-3.0.1.terser.min.js";
  resolve_at(d3, "i", "\"use strict\";function i(", "constant", "d3-force.js",
             48);
  resolve_at(d3, "u", "function u(", "jiggle", "d3-force.js", 54);
  /* inlined where it was used once: V8 infers "n.forceSimulation"; the
   * declaration's name is gone from the map, the property's is not */
  resolve_at(d3, "n.forceSimulation", "n.forceSimulation=function(",
             "forceSimulation", "d3-force.js", 291);
}

static void test_original_names(void) {
  const char *pop = "sourcemaps/popper-2.11.8.min.js";
  /* inlined where it was called once: anonymous to V8 */
  resolve_at(pop, "", "c=r(n)&&function(", "isElementScaled",
             "src/dom-utils/getCompositeRect.js", 11);
  resolve_at(pop, "", "osition)?n:i||function(", "getContainingBlock",
             "src/dom-utils/getOffsetParent.js", 23);
  /* exported under another name: { fn: popperOffsets } */
  resolve_at(pop, "fn", "phase:\"read\",fn:function(", "popperOffsets",
             "src/modifiers/popperOffsets.js", 4);
  resolve_at(pop, "d", "var s,p,d=function(", "orderModifiers",
             "src/utils/orderModifiers.js", 46);
  /* a named function expression with Flow's type parameters */
  resolve_at(pop, "", ";return function(", "createPopper",
             "src/createPopper.js", 40);
  /* a method: setOptions(setOptionsAction) { */
  resolve_at(pop, "setOptions", "setOptions:function(", "setOptions",
             "src/createPopper.js", 63);
  /* an arrow in the source ("fn: () => {}"): the segment at V8's own
   * name "fn" names it, the same; a callback: no name is borrowed */
  resolve_at(pop, "fn", "phase:\"write\",fn:function(", "fn",
             "src/modifiers/eventListeners.js", 50);
  resolve_at(pop, "", ".brands.map((function(", NULL, "src/utils/userAgent.js",
             14);
  const char *pre = "sourcemaps/preact-10.29.8.min.js";
  resolve_at(pre, "M", "function M(", "assign", "src/util.js", 11);
  resolve_at(pre, "__e", "t={__e:function(", "_catchError",
             "src/diff/catch-error.js", 11);
  resolve_at(pre, "createContext", "createContext:function(", "createContext",
             "src/create-context.js", 5);
  /* "BaseComponent.prototype.setState = function (update, callback)":
   * the segment at V8's own name names it, the same */
  resolve_at(pre, "setState", "prototype.setState=function(", "setState",
             "src/component.js", 27);
  /* over a whole bundle: every "function NAME(" of preact is named from
   * its source, as the segment's own name would name it too */
  struct ana_smap *m = load("sourcemaps/preact-10.29.8.min.js.map", NULL);
  char *js = zt_read(zt_data(pre));
  if (m && js) {
    size_t dropped = 9;
    ZT_INT((int)ana_smap_texts(m, &dropped), 13);
    ZT_INT((int)dropped, 0);
    unsigned n = 0, orig = 0, same = 0;
    for (const char *q = js; (q = strstr(q, "function ")); q++) {
      const char *nm = q + 9, *e = nm;
      while (
          *e &&
          strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$_", *e))
        e++;
      if (*e != '(' || e == nm) continue;
      char v8[16];
      snprintf(v8, sizeof v8, "%.*s", (int)(e - nm), nm);
      struct ana_smap_pos p, seg;
      if (!ana_smap_resolve(m, js, strlen(js), 1, v8, 0, (uint32_t)(e - js),
                            &p))
        continue;
      n++;
      orig += p.how == ANA_SM_ORIGINAL;
      /* the segment at V8's name carries the same name */
      if (ana_smap_lookup(m, 0, (uint32_t)(nm - js), &seg) && seg.name &&
          p.name && !strcmp(seg.name, p.name))
        same++;
    }
    ZT_INT(n, 30); /* "function NAME(" in preact.min.js */
    ZT_INT(orig, n);
    ZT_INT(same, n);
  }
  free(js);
  ana_smap_free(m);
}

/* A map built around one source text: "mappings" puts segment k of line
 * 0 at generated column 10*k, at original line 0, column cols[k]. */
static struct ana_smap *text_map(const char *content, const uint32_t *cols,
                                 size_t ncols, const char *names_json,
                                 int name0, struct ana_smap_budget *b) {
  struct zc_buf mj;
  zc_buf_init(&mj, 64u << 20);
  enum zc_err e =
      zc_buf_printf(&mj,
                    "{\"version\":3,\"sources\":[\"s.js\"],\"names\":%s,"
                    "\"sourcesContent\":[%s],\"mappings\":\"",
                    names_json, content);
  uint32_t prev = 0;
  for (size_t k = 0; k < ncols; k++) {
    if (k && zc_buf_addc(&mj, ',')) break;
    vlq(&mj, 10);
    vlq(&mj, 0);
    vlq(&mj, 0);
    vlq(&mj, (int64_t)cols[k] - (int64_t)prev);
    if (name0 >= 0) vlq(&mj, k ? 0 : name0);
    prev = cols[k];
  }
  if (e || zc_buf_printf(&mj, "\"}")) {
    zc_buf_free(&mj);
    return NULL;
  }
  struct ana_smap *m = NULL;
  struct ana_smap_budget local;
  if (!b) ana_smap_budget_init(&local);
  if (ana_smap_parse_within(mj.ptr, mj.len, NULL, 0, b ? b : &local, &m))
    fprintf(stderr, "text_map: %s\n", zc_errmsg());
  zc_buf_free(&mj);
  return m;
}

static const char *name_at(const struct ana_smap *m, uint32_t col,
                           struct ana_smap_pos *p) {
  if (!ana_smap_resolve(m, NULL, 0, 1, "", 0, col, p)) return "(unmapped)";
  return p->how == ANA_SM_ORIGINAL ? p->name : "(none)";
}

/* Hostile sources' texts: markup where a name would be, bidi controls,
 * a call that looks like a declaration, no text at all, JSON that is not
 * a string, bytes that are not UTF-8, and texts over the budget. */
static void test_original_hostile(void) {
  struct ana_smap_pos p;
  /* 0: markup after "function"; 1: "function a<b>(" is a with type
   * parameters; 2: a call followed by a block; 3: a method; 4: a
   * name with a right-to-left override; 5: a keyword */
  const char *src = "\"function <img src=x onerror=alert(1)>(n){} "
                    "function a<b>(x){} run(x); {} "
                    "class K { m\\u00e9th(x) { } } "
                    "function e\\u202Evil(x){} if (x) {}\"";
  const char *text = "function <img src=x onerror=alert(1)>(n){} "
                     "function a<b>(x){} run(x); {} "
                     "class K { m\xc3\xa9th(x) { } } "
                     "function e\xe2\x80\xaevil(x){} if (x) {}";
  const char *at[] = {"function <img", "function a<", "run(",
                      "m\xc3\xa9th",   "function e",  "if ("};
  uint32_t cols[6];
  for (int k = 0; k < 6; k++) {
    const char *q = strstr(text, at[k]);
    /* the columns are UTF-16: é is one unit, U+202E one */
    uint32_t c = 0;
    for (const char *r = text; r < q; r++)
      c += ((unsigned char)*r & 0xC0) != 0x80;
    cols[k] = c;
  }
  struct ana_smap *m =
      text_map(src, cols, 6, "[\"<script>alert(2)</script>\"]", -1, NULL);
  if (!ZT_TRUE(m != NULL)) return;
  ZT_STR(name_at(m, 10, &p), "(none)");
  ZT_STR(name_at(m, 20, &p), "a");
  ZT_STR(name_at(m, 30, &p), "(none)");
  ZT_STR(name_at(m, 40, &p), "m\xc3\xa9th");
  ZT_STR(name_at(m, 50, &p), "(none)");
  ZT_STR(name_at(m, 60, &p), "(none)");
  ana_smap_free(m);

  /* A 2 MB text in a map given 1 MB of the run's budget: the map is used,
   * the text is not kept, and names come from the segments as before. */
  struct zc_buf big;
  zc_buf_init(&big, 8u << 20);
  enum zc_err e = zc_buf_add(&big, "\"function realName(n){}", 23);
  for (int i = 0; i < (2 << 20) / 8; i++)
    e |= zc_buf_add(&big, "/*....*/", 8);
  e |= zc_buf_add(&big, "\"", 2); /* with its NUL */
  ZT_INT(e, ZC_OK);
  uint32_t c0 = 0;
  struct ana_smap_budget b;
  ana_smap_budget_init(&b);
  b.content = 1u << 20;
  m = text_map(big.ptr, &c0, 1, "[\"segName\"]", 0, &b);
  if (ZT_TRUE(m != NULL)) {
    size_t dropped = 0;
    ZT_INT((int)ana_smap_texts(m, &dropped), 0);
    ZT_INT((int)dropped, 1);
    ZT_INT((int)b.content, 1 << 20); /* nothing taken */
    ZT_TRUE(ana_smap_bytes(m) < (1u << 20));
    struct ana_smap_pos q;
    ZT_TRUE(ana_smap_lookup(m, 0, 10, &q));
    ZT_STR(q.name ? q.name : "-", "segName");
    ZT_STR(name_at(m, 10, &p), "(none)");
  }
  ana_smap_free(m);
  /* the same within budget: kept, named from it, and taken from b */
  b.content = 64u << 20;
  m = text_map(big.ptr, &c0, 1, "[\"segName\"]", 0, &b);
  if (ZT_TRUE(m != NULL)) {
    ZT_STR(name_at(m, 10, &p), "realName");
    ZT_TRUE(b.content < (62u << 20));
  }
  ana_smap_free(m);
  zc_buf_free(&big);

  /* Bytes that are not UTF-8 become 3-byte U+FFFDs: 1 MB of them would
   * decode to 3 MB, more than the map's own bytes, so it is not kept. */
  zc_buf_init(&big, 8u << 20);
  e = zc_buf_addc(&big, '"');
  for (int i = 0; i < 1 << 20; i++)
    e |= zc_buf_addc(&big, '\xff');
  e |= zc_buf_add(&big, "\"", 2);
  ZT_INT(e, ZC_OK);
  m = text_map(big.ptr, &c0, 1, "[]", -1, NULL);
  if (ZT_TRUE(m != NULL)) {
    size_t dropped = 0;
    ZT_INT((int)ana_smap_texts(m, &dropped), 0);
    ZT_INT((int)dropped, 1);
    ZT_TRUE(ana_smap_bytes(m) < (1u << 20));
  }
  ana_smap_free(m);
  zc_buf_free(&big);

  /* Not strings: null, numbers, objects, arrays, more entries than
   * sources; and a "sourcesContent" that is not an array. None of them
   * is a text, and the map stays usable. */
  static const char *odd[] = {
      "null, 1, {\"a\": [\"function x(){}\"]}, [\"function y(){}\"], "
      "\"function z(){}\"",
      "1e999", "{}", "\"\"", "\"function"};
  for (size_t k = 0; k < ZC_ARRAY_LEN(odd); k++) {
    m = text_map(odd[k], &c0, 1, "[]", -1, NULL);
    if (k < 4) {
      if (!ZT_TRUE(m != NULL)) continue;
      ZT_STR(name_at(m, 10, &p), "(none)");
    } else {
      ZT_TRUE(m == NULL); /* an unterminated string: bad JSON */
    }
    ana_smap_free(m);
  }
  const char *notarr = "{\"version\":3,\"sources\":[\"s.js\"],\"names\":[],"
                       "\"sourcesContent\":\"function q(){}\","
                       "\"mappings\":\"UAAA\"}";
  m = parse(notarr, NULL);
  if (ZT_TRUE(m != NULL)) ZT_STR(name_at(m, 10, &p), "(none)");
  ana_smap_free(m);
}

/* A name with markup reaches the reports only as data: from a map's
 * "names" (the '(' rule) it is escaped in the DOT graph and in
 * summary.md; a source text's markup is never read as a name. */
static struct ana_timeline *one_fn(struct ana_ctx *c, struct ana_maps *mp,
                                   int64_t us) {
  struct ana_timeline *tl = ana_tl_new(c, "t");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", NULL, -1, -1);
  uint32_t top = ana_tl_child(tl, th, ANA_FUNC, "main", "http://h/m.js", 0, 9);
  uint32_t f = ana_tl_child(tl, top, ANA_FUNC, "aa", "http://h/a.js", 0, 11);
  ana_tl_sample(tl, top, 0, 1000);
  ana_tl_sample(tl, f, 1000, us);
  ana_tl_finish(tl);
  ana_symbolize(tl, mp, NULL);
  ana_prune(tl, ANA_PRUNE_NAMES);
  return tl;
}

static void test_markup_names(void) {
  /* generated: function aa(n){}; its '(' at column 11 maps to the '('
   * after "</b>" in the source, with names[0] */
  const char *map = "{\"version\":3,\"sources\":[\"s.js\"],"
                    "\"names\":[\"<img src=x onerror=\\\"alert(1)\\\">\"],"
                    "\"sourcesContent\":[\"function <b>x</b>(n){}\"],"
                    "\"mappings\":\"AAAA,WAAiBA\"}";
  const char *js = "function aa(n){}";
  struct ana_ctx *c = ana_ctx_new();
  struct ana_maps *mp = ana_maps_new(NULL, NULL);
  ana_maps_add(mp, "http://h/a.js", map, strlen(map), NULL, js, strlen(js));
  struct ana_timeline *o = one_fn(c, mp, 1000), *n = one_fn(c, mp, 90000);
  struct ana_opts opts;
  ana_opts_default(&opts);
  opts.mu = 50;
  struct ana_stats st;
  struct ana_graph *g = NULL;
  if (ZT_INT(ana_critical(o, n, &opts, &st, &g), ZC_OK) &&
      ZT_INT(ana_graph_causes(g), 1)) {
    FILE *f = fopen(zt_tmp("markup.dot"), "w");
    ZT_INT(ana_write_dot(g, "t", f), ZC_OK);
    fclose(f);
    f = fopen(zt_tmp("markup.md"), "w");
    ana_write_summary_md(g, NULL, 50, "1 regression-cause", NULL, f);
    fclose(f);
    char *dot = zt_read(zt_tmp("markup.dot")),
         *md = zt_read(zt_tmp("markup.md"));
    ZT_HAS(dot, "onerror=\\\"alert(1)\\\""); /* quoted in its label */
    ZT_TRUE(dot && !strstr(dot, "=\"alert"));
    ZT_HAS(md, "`<img src=x onerror=\"alert(1)\">`"); /* a code span */
    ZT_TRUE(md && !strstr(md, "<b>x"));
    free(dot);
    free(md);
  }
  ana_graph_free(g);
  ana_timeline_free(o);
  ana_timeline_free(n);
  ana_maps_free(mp);
  ana_ctx_free(c);
}

static int find_none(void *arg, const char *url, struct ana_map_src *src) {
  (void)src;
  (*(int *)arg)++;
  ZT_TRUE(url != NULL);
  return 0;
}

/* Two builds' timelines, minified differently, get equal keys. */
static void test_symbolize(void) {
  struct ana_ctx *c = ana_ctx_new();
  int asked = 0;
  struct ana_maps *mp = ana_maps_new(find_none, &asked);
  const char *url[2] = {"http://a:1/assets/main-6YZMCLM4.js",
                        "http://b:2/assets/main-QWVESZII.js"};
  const char *js[2] = {"../agent/bundles/esbuild/old/assets/main-6YZMCLM4.js",
                       "../agent/bundles/esbuild/new/assets/main-QWVESZII.js"};
  uint32_t key[2] = {0, 0};
  for (int b = 0; b < 2; b++) {
    char rel[512];
    snprintf(rel, sizeof rel, "%s.map", js[b]);
    char *map = zt_read(zt_data(rel)), *text = zt_read(zt_data(js[b]));
    ZT_TRUE(map && text);
    if (!map || !text) return;
    ana_maps_add(mp, url[b], map, strlen(map), NULL, text, strlen(text));
    free(map);
    /* checksum is "l" in the old build and "u" in the new */
    const char *nm = b ? "u" : "l";
    const char *at = strstr(text, b ? "function u(" : "function l(");
    int32_t col = (int32_t)(at - text) + 10;
    free(text);
    struct ana_timeline *tl = ana_tl_new(c, "t");
    uint32_t th =
        ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", NULL, -1, -1);
    uint32_t f = ana_tl_child(tl, th, ANA_FUNC, nm, url[b], 0, col);
    uint32_t other = ana_tl_child(tl, th, ANA_FUNC, "x", "http://c/u.js", 0, 4);
    ana_tl_sample(tl, f, 1, 1000);
    ana_tl_finish(tl);
    struct ana_sym_stats st;
    ana_symbolize(tl, mp, &st);
    ZT_STR(ana_str(c, tl->nodes[f].name), "checksum");
    ZT_HAS(ana_str(c, tl->nodes[f].url), "/src/cells.js");
    const struct ana_gen *g = ana_gen_get(c, tl->nodes[f].gen);
    ZT_TRUE(g != NULL);
    if (g) ZT_STR(ana_str(c, g->name), nm);
    ZT_STR(ana_str(c, tl->nodes[other].name), "x"); /* no map: kept */
    ZT_INT(tl->nodes[other].gen, 0);
    ZT_INT((int)st.renamed, 1);
    key[b] = tl->nodes[f].key;
    ana_timeline_free(tl);
  }
  ZT_INT(key[0], key[1]);
  ZT_INT(asked, 1); /* http://c/u.js, asked once */
  ana_maps_free(mp);
  ana_ctx_free(c);
}

/* A DevTools export that carries its maps (metadata.sourceMaps): read as
 * the file is, and used without the script (V8's name before its '('). */
static void test_embedded(void) {
  char *map = zt_read(
      zt_data("../agent/bundles/esbuild/old/assets/main-6YZMCLM4.js.map"));
  if (!ZT_TRUE(map != NULL)) return;
  const char *url = "https://app.example/assets/main-6YZMCLM4.js";
  size_t cap = strlen(map) + 4096;
  char *t = zc_xmalloc(cap);
  snprintf(t, cap,
           "{\"traceEvents\": [{\"ph\": \"P\", \"name\": \"Profile\", "
           "\"id\": \"0x1\", \"pid\": 1, \"tid\": 1, \"ts\": 1000, "
           "\"args\": {\"data\": {\"startTime\": 1000}}}, {\"ph\": \"P\", "
           "\"name\": \"ProfileChunk\", \"id\": \"0x1\", \"pid\": 1, "
           "\"tid\": 2, \"ts\": 2000, \"args\": {\"data\": {\"cpuProfile\": "
           "{\"nodes\": [{\"id\": 1, \"callFrame\": {\"functionName\": "
           "\"(root)\"}}, {\"id\": 2, \"parent\": 1, \"callFrame\": "
           "{\"functionName\": \"l\", \"url\": \"%s\", \"lineNumber\": 0, "
           "\"columnNumber\": 10}}], \"samples\": [2, 2, 2]}, "
           "\"timeDeltas\": [100, 100, 100]}}}], \"metadata\": {\"source\": "
           "\"DevTools\", \"sourceMaps\": [{\"url\": \"%s\", "
           "\"sourceMapUrl\": \"%s.map\", \"sourceMap\": %s}]}}",
           url, url, url, map);
  free(map);
  zt_write_str(zt_tmp("embedded.json"), t);
  free(t);
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = NULL;
  if (ZT_INT(ana_load(c, zt_tmp("embedded.json"), &tl), ZC_OK)) {
    ZT_INT((int)tl->nembedded, 1);
    struct ana_maps *mp = ana_maps_new(NULL, NULL);
    for (uint32_t i = 0; i < tl->nembedded; i++)
      ana_maps_add(mp, tl->embedded[i].url, tl->embedded[i].map,
                   tl->embedded[i].mapn, tl->embedded[i].map_url, NULL, 0);
    struct ana_sym_stats st;
    ana_symbolize(tl, mp, &st);
    ZT_INT((int)st.renamed, 1);
    int found = 0;
    for (uint32_t i = 0; i < tl->nnodes; i++)
      if (!strcmp(ana_str(c, tl->nodes[i].name), "checksum")) {
        found = 1;
        ZT_STR(ana_str(c, tl->nodes[i].url),
               "https://app.example/src/cells.js");
      }
    ZT_TRUE(found);
    ana_maps_free(mp);
    ana_timeline_free(tl);
  }
  ana_ctx_free(c);
}

/* A 150-byte index map whose section starts at line 4 000 000 000: the
 * decoder allocated 16 GB for the empty lines before it (issue 26). Under
 * a 512 MB address-space cap, in a child, it is now refused by the
 * budget; and a trace that carries it still symbolizes (the map warned
 * about, the name kept). */
#define BOMB                                                                   \
  "{\"version\":3,\"sections\":[{\"offset\":{\"line\":4000000000,"             \
  "\"column\":0},\"map\":{\"version\":3,\"sources\":[\"a.js\"],"               \
  "\"names\":[\"x\"],\"mappings\":\"AAAAA\"}}]}"

static int bomb_child(void) {
  struct rlimit rl = {.rlim_cur = 512u << 20, .rlim_max = 512u << 20};
  if (!ZT_ASAN && setrlimit(RLIMIT_AS, &rl) != 0) return 3;
  struct ana_smap *m = NULL;
  if (ana_smap_parse(BOMB, strlen(BOMB), NULL, &m) != ZC_E_PARSE) return 1;
  if (!strstr(zc_errmsg(), "budget of lines")) return 2;
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = ana_tl_new(c, "t");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", NULL, -1, -1);
  uint32_t f = ana_tl_child(tl, th, ANA_FUNC, "l", "http://h/a.js", 0, 4);
  ana_tl_sample(tl, f, 1, 1000);
  ana_tl_finish(tl);
  struct ana_maps *mp = ana_maps_new(NULL, NULL);
  ana_maps_add(mp, "http://h/a.js", BOMB, strlen(BOMB), NULL, NULL, 0);
  struct ana_sym_stats st;
  ana_symbolize(tl, mp, &st);
  /* and whatever the cap, nothing near the 16 GB was ever touched */
  int ok = st.mapped == 0 && !strcmp(ana_str(c, tl->nodes[f].name), "l") &&
           zc_peak_mb() < 512;
  ana_maps_free(mp);
  ana_timeline_free(tl);
  ana_ctx_free(c);
  return ok ? 0 : 4;
}

static void test_bomb(void) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(bomb_child());
  int status = 0;
  ZT_INT(waitpid(pid, &status, 0), pid);
  ZT_TRUE(WIFEXITED(status));
  ZT_INT(WEXITSTATUS(status), 0);
}

/* The budget is the run's: what one map decoded to is taken from it, and
 * a map over what is left is refused; lines, segments and sections
 * alike, each also bounded by the map's own bytes. */
static void test_budget(void) {
  const char *four = "{\"version\":3,\"sources\":[\"a.js\"],\"names\":[],"
                     "\"mappings\":\"AAAA,CAAA;AAAA,CAAA\"}";
  struct ana_smap_budget b = {.lines = 100, .segments = 6, .sections = 10};
  struct ana_smap *m = NULL;
  ZT_INT(ana_smap_parse_within(four, strlen(four), NULL, 0, &b, &m), ZC_OK);
  ZT_INT(b.segments, 2);
  ZT_INT(b.lines, 98);
  ana_smap_free(m);
  m = NULL;
  ZT_INT(ana_smap_parse_within(four, strlen(four), NULL, 0, &b, &m),
         ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "budget of segments");
  ZT_TRUE(m == NULL);
  /* sections of "A," over the sections left */
  const char *secs =
      "{\"version\":3,\"sections\":["
      "{\"offset\":{\"line\":0,\"column\":0},\"map\":{\"version\":3,"
      "\"sources\":[],\"names\":[],\"mappings\":\"A,A\"}},"
      "{\"offset\":{\"line\":1,\"column\":0},\"map\":{\"version\":3,"
      "\"sources\":[],\"names\":[],\"mappings\":\"A,A\"}},"
      "{\"offset\":{\"line\":2,\"column\":0},\"map\":{\"version\":3,"
      "\"sources\":[],\"names\":[],\"mappings\":\"A,A\"}}]}";
  b = (struct ana_smap_budget){.lines = 100, .segments = 100, .sections = 2};
  ZT_INT(ana_smap_parse_within(secs, strlen(secs), NULL, 0, &b, &m),
         ZC_E_PARSE);
  ZT_HAS(zc_errmsg(), "budget of sections");
  ana_smap_budget_init(&b);
  ZT_INT(ana_smap_parse_within(secs, strlen(secs), NULL, 0, &b, &m), ZC_OK);
  ZT_INT(ana_smap_segments(m), 6);
  ana_smap_free(m);
  /* a section far below the map's bytes and its script's lines: within
   * the map's own share when the script has that many lines */
  const char *far = "{\"version\":3,\"sections\":[{\"offset\":{\"line\":"
                    "200000,\"column\":0},\"map\":{\"version\":3,"
                    "\"sources\":[],\"names\":[],\"mappings\":\"A\"}}]}";
  ana_smap_budget_init(&b);
  m = NULL;
  ZT_INT(ana_smap_parse_within(far, strlen(far), NULL, 0, &b, &m), ZC_E_PARSE);
  ZT_INT(ana_smap_parse_within(far, strlen(far), NULL, 300000, &b, &m), ZC_OK);
  ana_smap_free(m);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"bomb", test_bomb},
      {"budget", test_budget},
      {"real_maps", test_real_maps},
      {"sources", test_sources},
      {"sections", test_sections},
      {"long_line_index", test_long_line_index},
      {"long_line_linear", test_long_line_linear},
      {"sections_map_first", test_sections_map_first},
      {"broken", test_broken},
      {"resolve", test_resolve},
      {"original_names", test_original_names},
      {"scope_names", test_scope_names},
      {"original_hostile", test_original_hostile},
      {"markup_names", test_markup_names},
      {"symbolize", test_symbolize},
      {"embedded", test_embedded},
  };
  return ZT_RUN(cases, argc, argv);
}
