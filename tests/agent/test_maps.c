/* The source-map store (agent/maps.c): a script's map found in a build
 * folder, kept under the store folder by content hash with index.json,
 * and read back from there; what is not found, and what a folder's
 * dot-segments and links lead to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "maps.h"
#include "test.h"

/* A script whose function "a" (its '(' at column 10) the map names
 * "hello" in src/app.ts. */
#define SCRIPT_BODY "function a(){return 1}\n"
#define MAP                                                                    \
  "{\"version\":3,\"sources\":[\"src/app.ts\"],\"names\":[\"hello\"],"         \
  "\"mappings\":\"SAASA\"}"
#define URL "http://127.0.0.1:9/app.js"

/* What symbolizing one function of url (line 0, column 10) through m
 * gave: the stats, and the function's name after. */
struct sym {
  struct ana_sym_stats st;
  char name[64];
};

static struct sym symbolize(struct agent_maps *m, const char *url) {
  struct sym r;
  struct ana_ctx *c = ana_ctx_new();
  struct ana_timeline *tl = ana_tl_new(c, "t");
  uint32_t th = ana_tl_child(tl, 0, ANA_THREAD, "CrRendererMain", NULL, -1, -1);
  uint32_t f = ana_tl_child(tl, th, ANA_FUNC, "a", url, 0, 10);
  ana_tl_sample(tl, f, 1, 1000);
  ana_tl_finish(tl);
  ana_symbolize(tl, agent_maps_ana(m), &r.st);
  snprintf(r.name, sizeof r.name, "%s", ana_str(c, tl->nodes[f].name));
  ana_timeline_free(tl);
  ana_ctx_free(c);
  return r;
}

/* A fresh folder under ZC_TMP. */
static const char *fresh(const char *name) {
  const char *d = zt_tmp(name);
  ZT_INT(zt_sh(NULL, "rm -rf '%s' && mkdir -p '%s'", d, d), 0);
  return d;
}

static const char *at(const char *dir, const char *name) {
  static char b[8][4200];
  static int k;
  char *p = b[k++ % 8];
  snprintf(p, sizeof b[0], "%s/%s", dir, name);
  return p;
}

/* The store's file name for these bytes (maps.c: hash, then extension). */
static const char *stored_name(const char *bytes, const char *ext) {
  static char b[2][40];
  static int k;
  char *p = b[k++ % 2];
  snprintf(p, sizeof b[0], "%016llx.%s",
           (unsigned long long)zc_hash(bytes, strlen(bytes), 0x5a4d), ext);
  return p;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Files in dir, "-1" when it is absent. */
static int count_files(const char *dir) {
  char *out = NULL;
  if (zt_sh(&out, "ls -A '%s' | wc -l", dir) != 0) {
    free(out);
    return -1;
  }
  int n = atoi(out);
  free(out);
  return n;
}

/* app.js names app.js.map; both are found in the folder and kept in the
 * store, and a later run reads them from the store alone. */
static void test_found(void) {
  fresh("found");
  const char *build = fresh("found/build");
  const char *store = zt_tmp("found/out/sourcemaps"); /* not made yet */
  const char *script = SCRIPT_BODY "//# sourceMappingURL=app.js.map\n";
  zt_write_str(at(build, "app.js"), script);
  zt_write_str(at(build, "app.js.map"), MAP);

  struct agent_maps *m = agent_maps_new(store, 1, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  struct sym s = symbolize(m, URL);
  ZT_INT(s.st.scripts, 1);
  ZT_INT(s.st.mapped, 1);
  ZT_INT(s.st.renamed, 1);
  ZT_STR(s.name, "hello");
  /* The map and the script are kept as soon as they are found; the
   * index waits for save. */
  char *map = zt_read(at(store, stored_name(MAP, "map")));
  char *js = zt_read(at(store, stored_name(script, "js")));
  ZT_STR(map, MAP);
  ZT_STR(js, script);
  free(map);
  free(js);
  ZT_TRUE(!exists(at(store, "index.json")));
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  ZT_INT(count_files(store), 3);
  char *idx = zt_read(at(store, "index.json"));
  ZT_TRUE(idx != NULL);
  if (idx) {
    ZT_HAS(idx, "\"schema\":\t\"zamcap-sourcemaps/1\"");
    ZT_HAS(idx, "\"url\":\t\"" URL "\"");
    ZT_HAS(idx, "\"map_url\":\t\"http://127.0.0.1:9/app.js.map\"");
    char want[80];
    snprintf(want, sizeof want, "\"map\":\t\"%s\"", stored_name(MAP, "map"));
    ZT_HAS(idx, want);
    snprintf(want, sizeof want, "\"script\":\t\"%s\"",
             stored_name(script, "js"));
    ZT_HAS(idx, want);
  }
  free(idx);

  /* Offline, with the build folder gone: the store alone names it. */
  ZT_INT(zt_sh(NULL, "rm -rf '%s'", build), 0);
  m = agent_maps_new(store, 0, 0);
  ZT_INT(agent_maps_open_store(m), ZC_OK);
  s = symbolize(m, URL);
  ZT_INT(s.st.mapped, 1);
  ZT_STR(s.name, "hello");
  /* the store is read, not written: not writable */
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  ZT_INT(count_files(store), 3);
}

/* Without a sourceMappingURL comment, SCRIPT.map beside the script; by
 * file name (no prefix), the URL's path and then shorter tails of it. */
static void test_beside(void) {
  fresh("beside");
  const char *build = fresh("beside/build");
  const char *store = zt_tmp("beside/sourcemaps");
  ZT_INT(zt_sh(NULL, "mkdir -p '%s/assets'", build), 0);
  zt_write_str(at(build, "assets/app.js"), SCRIPT_BODY);
  zt_write_str(at(build, "assets/app.js.map"), MAP);
  struct agent_maps *m = agent_maps_new(store, 1, 0);
  ZT_TRUE(agent_maps_root(m, NULL, build));
  struct sym s = symbolize(m, "http://x.test/static/assets/app.js?v=3");
  ZT_INT(s.st.mapped, 1);
  ZT_STR(s.name, "hello");
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  char *idx = zt_read(at(store, "index.json"));
  ZT_TRUE(idx != NULL);
  if (idx)
    ZT_HAS(idx, "\"map_url\":\t\"http://x.test/static/assets/app.js.map\"");
  free(idx);
}

/* A map that does not parse leaves the name minified. It is kept in the
 * store all the same (maps.h: what is found is kept), so that a later
 * compare of the run folder sees what the run saw. */
static void test_broken(void) {
  fresh("broken");
  const char *build = fresh("broken/build");
  const char *store = zt_tmp("broken/sourcemaps");
  const char *bad = "{\"version\":3,\"mappings\":";
  zt_write_str(at(build, "app.js"),
               SCRIPT_BODY "//# sourceMappingURL=app.js.map\n");
  zt_write_str(at(build, "app.js.map"), bad);
  struct agent_maps *m = agent_maps_new(store, 1, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  struct sym s = symbolize(m, URL);
  ZT_INT(s.st.scripts, 1);
  ZT_INT(s.st.mapped, 0);
  ZT_STR(s.name, "a");
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  char *kept = zt_read(at(store, stored_name(bad, "map")));
  ZT_STR(kept, bad);
  free(kept);
  ZT_TRUE(exists(at(store, "index.json")));
}

/* No map: the comment names a file that is not there, no comment and no
 * SCRIPT.map, no script at all. Nothing is kept, and save writes
 * nothing, not even the store folder. */
static void test_missing(void) {
  fresh("missing");
  const char *build = fresh("missing/build");
  const char *store = zt_tmp("missing/sourcemaps");
  zt_write_str(at(build, "named.js"),
               SCRIPT_BODY "//# sourceMappingURL=named.js.map\n");
  zt_write_str(at(build, "plain.js"), SCRIPT_BODY);
  struct agent_maps *m = agent_maps_new(store, 1, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  const char *urls[] = {"http://127.0.0.1:9/named.js",
                        "http://127.0.0.1:9/plain.js",
                        "http://127.0.0.1:9/absent.js",
                        /* outside every root, and fetching is off */
                        "http://elsewhere.test/app.js"};
  for (size_t i = 0; i < sizeof urls / sizeof *urls; i++) {
    struct sym s = symbolize(m, urls[i]);
    ZT_INT(s.st.scripts, i + 1); /* each asked once, none found */
    ZT_INT(s.st.mapped, 0);
    ZT_STR(s.name, "a");
  }
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  ZT_TRUE(!exists(store));
}

/* A map URL with dot-segments is resolved first (RFC 3986), so it stays
 * under the root's prefix: "../../x.map" from /sub/app.js is the folder's
 * own x.map, never a file beside the folder. A script URL that still has
 * "..", or a percent-escape, is not looked up at all. */
static void test_dot_segments(void) {
  const char *top = fresh("dots");
  const char *build = fresh("dots/build");
  ZT_INT(zt_sh(NULL, "mkdir -p '%s/sub'", build), 0);
  zt_write_str(at(build, "sub/app.js"),
               SCRIPT_BODY "//# sourceMappingURL=../../../outside.map\n");
  /* beside the folder, where a path join without resolving would land */
  zt_write_str(at(top, "outside.map"), MAP);
  struct agent_maps *m = agent_maps_new(NULL, 0, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  struct sym s = symbolize(m, "http://127.0.0.1:9/sub/app.js");
  ZT_INT(s.st.mapped, 0);
  ZT_STR(s.name, "a");
  agent_maps_free(m);

  /* the same comment, and the folder has outside.map at its top */
  zt_write_str(at(build, "outside.map"), MAP);
  m = agent_maps_new(NULL, 0, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  s = symbolize(m, "http://127.0.0.1:9/sub/app.js");
  ZT_INT(s.st.mapped, 1);
  ZT_STR(s.name, "hello");
  agent_maps_free(m);

  /* a script URL with ".." or "%2e%2e" under a by-name root: not read,
   * though top/app.js and its map exist */
  zt_write_str(at(top, "app.js"), SCRIPT_BODY);
  zt_write_str(at(top, "app.js.map"), MAP);
  const char *urls[] = {"http://x.test/../app.js",
                        "http://x.test/%2e%2e/app.js", "/../app.js"};
  for (size_t i = 0; i < sizeof urls / sizeof *urls; i++) {
    m = agent_maps_new(NULL, 0, 0);
    ZT_TRUE(agent_maps_root(m, NULL, build));
    s = symbolize(m, urls[i]);
    ZT_INT(s.st.mapped, 0);
    agent_maps_free(m);
  }
  /* the control: the same file by a plain URL is found */
  m = agent_maps_new(NULL, 0, 0);
  ZT_TRUE(agent_maps_root(m, NULL, top));
  s = symbolize(m, "http://x.test/app.js");
  ZT_INT(s.st.mapped, 1);
  agent_maps_free(m);
}

/* A link in the build folder to a file out of it is followed: the folder
 * is the user's own build (Bazel's output is links throughout), unlike
 * what zamcap's server hands a page (serve.c refuses such links). The
 * map read through it is kept like any other. */
static void test_symlink(void) {
  const char *top = fresh("link");
  const char *build = fresh("link/build");
  const char *store = zt_tmp("link/sourcemaps");
  ZT_INT(zt_sh(NULL, "mkdir -p '%s/cache'", top), 0);
  zt_write_str(at(top, "cache/real.map"), MAP);
  zt_write_str(at(build, "app.js"),
               SCRIPT_BODY "//# sourceMappingURL=app.js.map\n");
  ZT_INT(zt_sh(NULL, "ln -s ../cache/real.map '%s/app.js.map'", build), 0);
  struct agent_maps *m = agent_maps_new(store, 1, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  struct sym s = symbolize(m, URL);
  ZT_INT(s.st.mapped, 1);
  ZT_STR(s.name, "hello");
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  char *kept = zt_read(at(store, stored_name(MAP, "map")));
  ZT_STR(kept, MAP);
  free(kept);
}

/* A store that is not writable keeps nothing; a folder that cannot be
 * made is a warning, not an error: the maps are still used. */
static void test_not_kept(void) {
  fresh("nokeep");
  const char *build = fresh("nokeep/build");
  zt_write_str(at(build, "app.js"),
               SCRIPT_BODY "//# sourceMappingURL=app.js.map\n");
  zt_write_str(at(build, "app.js.map"), MAP);
  const char *store = zt_tmp("nokeep/sourcemaps");
  struct agent_maps *m = agent_maps_new(store, 0, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  ZT_INT(symbolize(m, URL).st.mapped, 1);
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  ZT_TRUE(!exists(store));

  /* the store's parent is a file */
  zt_write_str(zt_tmp("nokeep/file"), "x");
  m = agent_maps_new(zt_tmp("nokeep/file/sourcemaps"), 1, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  ZT_INT(symbolize(m, URL).st.mapped, 1);
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
}

/* The store's index as read back: not zamcap's is an error; an entry
 * whose file names leave the store is not followed. */
static void test_store_index(void) {
  const char *store = fresh("index/sourcemaps");
  zt_write_str(at(store, "index.json"), "{\"other\": 1}");
  struct agent_maps *m = agent_maps_new(store, 0, 0);
  ZT_INT(agent_maps_open_store(m), ZC_E_PARSE);
  agent_maps_free(m);

  zt_write_str(zt_tmp("index/evil.map"), MAP);
  zt_write_str(at(store, "good.map"), MAP);
  zt_write_str(at(store, "index.json"),
               "{\"scripts\": [{\"url\": \"http://h/evil.js\", \"map\": "
               "\"../evil.map\"}, {\"url\": \"http://h/good.js\", \"map\": "
               "\"good.map\"}]}");
  m = agent_maps_new(store, 0, 0);
  ZT_INT(agent_maps_open_store(m), ZC_OK);
  /* mapped counts the scripts of m so far that have a map */
  ZT_INT(symbolize(m, "http://h/evil.js").st.mapped, 0);
  ZT_INT(symbolize(m, "http://h/good.js").st.mapped, 1);
  agent_maps_free(m);

  /* no store, or no index in it: nothing to read, no error */
  m = agent_maps_new(NULL, 0, 0);
  ZT_INT(agent_maps_open_store(m), ZC_OK);
  agent_maps_free(m);
  m = agent_maps_new(zt_tmp("index/none"), 0, 0);
  ZT_INT(agent_maps_open_store(m), ZC_OK);
  agent_maps_free(m);
}

/* At most 16 roots. */
static void test_roots(void) {
  struct agent_maps *m = agent_maps_new(NULL, 0, 0);
  int added = 0;
  for (int i = 0; i < 20; i++)
    added += agent_maps_root(m, NULL, "/nonexistent");
  ZT_INT(added, 16);
  agent_maps_free(m);
  agent_maps_free(NULL);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"found", test_found},
      {"beside", test_beside},
      {"broken", test_broken},
      {"missing", test_missing},
      {"dot_segments", test_dot_segments},
      {"symlink", test_symlink},
      {"not_kept", test_not_kept},
      {"store_index", test_store_index},
      {"roots", test_roots},
  };
  return ZT_RUN(cases, argc, argv);
}
