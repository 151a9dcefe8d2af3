/* The source-map store (agent/maps.c): a script's map found in a build
 * folder, kept under the store folder by content hash with index.json,
 * and read back from there; what is not found, and what a folder's
 * dot-segments, dotfiles, links and FIFOs lead to; what is fetched, from
 * where, and for how long (issue 26). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maps-int.h"
#include "maps.h"
#include "smap/smap.h"
#include "test.h"
#include "timeline.h"

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

  struct agent_maps *m = agent_maps_new(store, 1);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  struct sym s = symbolize(m, URL);
  ZT_INT(s.st.scripts, 1);
  ZT_INT(s.st.mapped, 1);
  ZT_INT(s.st.renamed, 1);
  ZT_STR(s.name, "hello");
  /* Nothing is written before save: the reports come first (issue 26). */
  ZT_TRUE(!exists(store));
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  ZT_INT(count_files(store), 3);
  char *map = zt_read(at(store, stored_name(MAP, "map")));
  char *js = zt_read(at(store, stored_name(script, "js")));
  ZT_STR(map, MAP);
  ZT_STR(js, script);
  free(map);
  free(js);
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
  m = agent_maps_new(store, 0);
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
  struct agent_maps *m = agent_maps_new(store, 1);
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

/* A map that does not parse leaves the name minified, and is not kept:
 * the store holds only maps that parse (issue 26), so that whatever a
 * folder or a server hands over as a "map" does not land in OUT. */
static void test_broken(void) {
  fresh("broken");
  const char *build = fresh("broken/build");
  const char *store = zt_tmp("broken/sourcemaps");
  const char *bad = "{\"version\":3,\"mappings\":";
  zt_write_str(at(build, "app.js"),
               SCRIPT_BODY "//# sourceMappingURL=app.js.map\n");
  zt_write_str(at(build, "app.js.map"), bad);
  struct agent_maps *m = agent_maps_new(store, 1);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  struct sym s = symbolize(m, URL);
  ZT_INT(s.st.scripts, 1);
  ZT_INT(s.st.mapped, 0);
  ZT_STR(s.name, "a");
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  ZT_TRUE(!exists(at(store, stored_name(bad, "map"))));
  ZT_TRUE(!exists(store));
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
  struct agent_maps *m = agent_maps_new(store, 1);
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
  struct agent_maps *m = agent_maps_new(NULL, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  struct sym s = symbolize(m, "http://127.0.0.1:9/sub/app.js");
  ZT_INT(s.st.mapped, 0);
  ZT_STR(s.name, "a");
  agent_maps_free(m);

  /* the same comment, and the folder has outside.map at its top */
  zt_write_str(at(build, "outside.map"), MAP);
  m = agent_maps_new(NULL, 0);
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
    m = agent_maps_new(NULL, 0);
    ZT_TRUE(agent_maps_root(m, NULL, build));
    s = symbolize(m, urls[i]);
    ZT_INT(s.st.mapped, 0);
    agent_maps_free(m);
  }
  /* the control: the same file by a plain URL is found */
  m = agent_maps_new(NULL, 0);
  ZT_TRUE(agent_maps_root(m, NULL, top));
  s = symbolize(m, "http://x.test/app.js");
  ZT_INT(s.st.mapped, 1);
  agent_maps_free(m);
}

/* The server's rule (agent_build_open): a link in the build folder to a
 * file out of it is not followed, nor a map named ".env" or under .git/,
 * nor a link inside the folder to a dotfile; a link that stays inside is
 * followed. What is refused never reaches the store (issue 26). */
static void test_symlink(void) {
  const char *top = fresh("link");
  const char *build = fresh("link/build");
  const char *store = zt_tmp("link/sourcemaps");
  ZT_INT(
      zt_sh(NULL, "mkdir -p '%s/cache' '%s/.git' '%s/in'", top, build, build),
      0);
  zt_write_str(at(top, "cache/real.map"), MAP);
  zt_write_str(at(build, ".env"), MAP); /* parses: only the rule refuses */
  zt_write_str(at(build, ".git/x.map"), MAP);
  zt_write_str(at(build, "out.js"),
               SCRIPT_BODY "//# sourceMappingURL=out.js.map\n");
  ZT_INT(zt_sh(NULL, "ln -s ../cache/real.map '%s/out.js.map'", build), 0);
  zt_write_str(at(build, "env.js"), SCRIPT_BODY "//# sourceMappingURL=.env\n");
  zt_write_str(at(build, "git.js"),
               SCRIPT_BODY "//# sourceMappingURL=.git/x.map\n");
  zt_write_str(at(build, "envlink.js"), SCRIPT_BODY);
  ZT_INT(zt_sh(NULL, "ln -s .env '%s/envlink.js.map'", build), 0);
  struct agent_maps *m = agent_maps_new(store, 1);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  const char *refused[] = {"out.js", "env.js", "git.js", "envlink.js"};
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:9/%s", refused[i]);
    struct sym s = symbolize(m, url);
    ZT_INT(s.st.mapped, 0);
    ZT_STR(s.name, "a");
  }
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  ZT_TRUE(!exists(store));

  /* a link that stays in the folder is the build's own */
  zt_write_str(at(build, "in/real.map"), MAP);
  ZT_INT(zt_sh(NULL, "ln -sf in/real.map '%s/out.js.map'", build), 0);
  m = agent_maps_new(store, 1);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  struct sym s = symbolize(m, "http://127.0.0.1:9/out.js");
  ZT_INT(s.st.mapped, 1);
  ZT_STR(s.name, "hello");
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  char *kept = zt_read(at(store, stored_name(MAP, "map")));
  ZT_STR(kept, MAP);
  free(kept);
}

/* A FIFO named as a map, as a script, or in the store: opened without
 * blocking and refused (before issue 26, fopen waited for a writer for
 * ever). The alarm fails the test instead of hanging it. */
static void test_fifo(void) {
  fresh("fifo");
  const char *build = fresh("fifo/build");
  const char *store = fresh("fifo/sourcemaps");
  zt_write_str(at(build, "app.js"),
               SCRIPT_BODY "//# sourceMappingURL=app.js.map\n");
  ZT_INT(zt_sh(NULL, "mkfifo '%s/app.js.map' '%s/plain.js' '%s/s.map'", build,
               build, store),
         0);
  zt_write_str(at(store, "index.json"),
               "{\"scripts\": [{\"url\": \"http://h/s.js\", \"map\": "
               "\"s.map\"}]}");
  alarm(20);
  struct agent_maps *m = agent_maps_new(NULL, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  ZT_INT(symbolize(m, URL).st.mapped, 0);
  ZT_INT(symbolize(m, "http://127.0.0.1:9/plain.js").st.mapped, 0);
  agent_maps_free(m);
  m = agent_maps_new(store, 0);
  ZT_INT(agent_maps_open_store(m), ZC_OK);
  ZT_INT(symbolize(m, "http://h/s.js").st.mapped, 0);
  agent_maps_free(m);
  alarm(0);
}

/* tests/agent/mapserve.py serving dir on 127.0.0.1, logging each path it
 * is asked for to log; its port, and its pid in *pid. */
static int mapserve(const char *dir, const char *log, const char *args,
                    int *pid) {
  char cmd[8192];
  unlink(log);
  snprintf(cmd, sizeof cmd, "exec python3 '%s' '%s' '%s' %s",
           zt_tests("agent/mapserve.py"), dir, log, args);
  FILE *out = NULL;
  *pid = zt_spawn(cmd, &out);
  char line[32] = "";
  if (!out || !fgets(line, sizeof line, out)) line[0] = '\0';
  if (out) fclose(out);
  return atoi(line);
}

/* Lines the server logged (requests), 0 when none. */
static int requests(const char *log) {
  char *t = zt_read(log);
  int n = 0;
  for (const char *p = t; p && *p; p++)
    n += *p == '\n';
  free(t);
  return n;
}

/* A folder build fetches nothing (issue 26: the README said so, and
 * libcurl fetched a comment's http://127.0.0.1:PORT/ map and followed its
 * redirect): not a map its comment names by absolute URL, not a script a
 * trace names outside the folder (an eval'd script's sourceURL). */
static void test_folder_fetches_nothing(void) {
  fresh("nofetch");
  const char *build = fresh("nofetch/build");
  const char *site = fresh("nofetch/site");
  const char *log = zt_tmp("nofetch/log");
  zt_write_str(at(site, "x.map"), MAP);
  zt_write_str(at(site, "app.js"), SCRIPT_BODY);
  zt_write_str(at(site, "app.js.map"), MAP);
  int pid;
  int port = mapserve(site, log, "", &pid);
  ZT_TRUE(port > 0);
  char script[256], url[128];
  snprintf(script, sizeof script,
           SCRIPT_BODY "//# sourceMappingURL=http://127.0.0.1:%d/x.map\n",
           port);
  zt_write_str(at(build, "app.js"), script);
  const char *store = zt_tmp("nofetch/sourcemaps");
  struct agent_maps *m = agent_maps_new(store, 1);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  ZT_INT(symbolize(m, URL).st.mapped, 0);
  snprintf(url, sizeof url, "http://127.0.0.1:%d/app.js", port);
  ZT_INT(symbolize(m, url).st.mapped, 0);
  ZT_INT(agent_maps_fetches(m), 0);
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  zt_stop(pid);
  ZT_INT(requests(log), 0);
  ZT_TRUE(!exists(store));
}

/* A URL build's maps come from its own origin only: a redirect to
 * another origin is not followed, an absolute map URL on another origin
 * is not fetched; a redirect within the origin is. */
static void test_url_build_origins(void) {
  fresh("origins");
  const char *a = fresh("origins/a");
  const char *b = fresh("origins/b");
  const char *alog = zt_tmp("origins/a.log"), *blog = zt_tmp("origins/b.log");
  zt_write_str(at(b, "evil.map"), MAP);
  int bpid, apid;
  int bport = mapserve(b, blog, "", &bpid);
  char args[512], script[256];
  snprintf(args, sizeof args,
           "--redirect '/out.js.map=http://127.0.0.1:%d/evil.map' "
           "--redirect /in.js.map=/app.js.map",
           bport);
  zt_write_str(at(a, "app.js"),
               SCRIPT_BODY "//# sourceMappingURL=app.js.map\n");
  zt_write_str(at(a, "app.js.map"), MAP);
  zt_write_str(at(a, "out.js"), SCRIPT_BODY);
  zt_write_str(at(a, "in.js"), SCRIPT_BODY);
  snprintf(script, sizeof script,
           SCRIPT_BODY "//# sourceMappingURL=http://127.0.0.1:%d/evil.map\n",
           bport);
  zt_write_str(at(a, "abs.js"), script);
  int aport = mapserve(a, alog, args, &apid);
  ZT_TRUE(aport > 0 && bport > 0);
  char base[64], url[128];
  snprintf(base, sizeof base, "http://127.0.0.1:%d/", aport);
  struct agent_maps *m = agent_maps_new(NULL, 0);
  ZT_TRUE(agent_maps_fetch_from(m, base));
  const char *names[] = {"app.js", "in.js", "out.js", "abs.js"};
  const int want[] = {1, 2, 2, 2}; /* mapped: so far, of m's scripts */
  for (size_t i = 0; i < 4; i++) {
    snprintf(url, sizeof url, "%s%s", base, names[i]);
    ZT_INT(symbolize(m, url).st.mapped, want[i]);
  }
  agent_maps_free(m);
  zt_stop(apid);
  zt_stop(bpid);
  ZT_TRUE(requests(alog) >= 6);
  ZT_INT(requests(blog), 0);
}

/* The kinds of address a fetch is refused unless the build is there. */
static void test_addr_kind(void) {
  struct {
    const char *ip;
    int kind;
  } v4[] = {{"127.0.0.1", AGENT_ADDR_LOOPBACK},
            {"0.0.0.0", AGENT_ADDR_LOOPBACK},
            {"10.1.2.3", AGENT_ADDR_PRIVATE},
            {"172.16.0.1", AGENT_ADDR_PRIVATE},
            {"172.32.0.1", AGENT_ADDR_PUBLIC},
            {"192.168.1.1", AGENT_ADDR_PRIVATE},
            {"100.64.0.1", AGENT_ADDR_PRIVATE},
            {"169.254.169.254", AGENT_ADDR_LINK_LOCAL},
            {"93.184.216.34", AGENT_ADDR_PUBLIC}};
  for (size_t i = 0; i < sizeof v4 / sizeof *v4; i++) {
    struct sockaddr_in a = {.sin_family = AF_INET};
    inet_pton(AF_INET, v4[i].ip, &a.sin_addr);
    ZT_INT(agent_addr_kind((struct sockaddr *)&a), v4[i].kind);
  }
  struct {
    const char *ip;
    int kind;
  } v6[] = {{"::1", AGENT_ADDR_LOOPBACK},
            {"fe80::1", AGENT_ADDR_LINK_LOCAL},
            {"fd00::1", AGENT_ADDR_PRIVATE},
            {"::ffff:169.254.169.254", AGENT_ADDR_LINK_LOCAL},
            {"::ffff:127.0.0.1", AGENT_ADDR_LOOPBACK},
            {"2606:2800:220:1::1", AGENT_ADDR_PUBLIC}};
  for (size_t i = 0; i < sizeof v6 / sizeof *v6; i++) {
    struct sockaddr_in6 a = {.sin6_family = AF_INET6};
    inet_pton(AF_INET6, v6[i].ip, &a.sin6_addr);
    ZT_INT(agent_addr_kind((struct sockaddr *)&a), v6[i].kind);
  }
}

/* Three scripts served at one byte a second: the run's fetching budget
 * (here 1.5 s) ends them all, where each took its own 30 s before. */
static void test_fetch_budget(void) {
  fresh("slow");
  const char *site = fresh("slow/site");
  const char *log = zt_tmp("slow/log");
  char args[256] = "";
  for (int i = 0; i < 3; i++) {
    char name[16];
    snprintf(name, sizeof name, "s%d.js", i);
    zt_write_str(at(site, name), SCRIPT_BODY);
    snprintf(args + strlen(args), sizeof args - strlen(args), " --slow /%s",
             name);
  }
  int pid;
  int port = mapserve(site, log, args, &pid);
  char base[64], url[128];
  snprintf(base, sizeof base, "http://127.0.0.1:%d/", port);
  struct agent_maps *m = agent_maps_new(NULL, 0);
  ZT_TRUE(agent_maps_fetch_from(m, base));
  agent_maps_fetch_budget(m, 1500);
  double t0 = zc_now_ms();
  for (int i = 0; i < 3; i++) {
    snprintf(url, sizeof url, "%ss%d.js", base, i);
    ZT_INT(symbolize(m, url).st.mapped, 0);
  }
  double ms = zc_now_ms() - t0;
  ZT_TRUE(ms < 4000);
  agent_maps_free(m);
  zt_stop(pid);
}

static void on_alarm(int sig) {
  (void)sig;
  zc_interrupted = SIGTERM;
}

/* SIGTERM during a fetch ends it at once (curl's progress callback), and
 * nothing more is fetched. */
static void test_fetch_interrupted(void) {
  fresh("term");
  const char *site = fresh("term/site");
  const char *log = zt_tmp("term/log");
  zt_write_str(at(site, "s.js"), SCRIPT_BODY);
  zt_write_str(at(site, "t.js"), SCRIPT_BODY);
  int pid;
  int port = mapserve(site, log, "--slow /s.js", &pid);
  char base[64], url[128];
  snprintf(base, sizeof base, "http://127.0.0.1:%d/", port);
  struct agent_maps *m = agent_maps_new(NULL, 0);
  ZT_TRUE(agent_maps_fetch_from(m, base));
  signal(SIGALRM, on_alarm);
  alarm(1);
  double t0 = zc_now_ms();
  snprintf(url, sizeof url, "%ss.js", base);
  ZT_INT(symbolize(m, url).st.mapped, 0);
  ZT_TRUE(zc_now_ms() - t0 < 3000);
  unsigned before = agent_maps_fetches(m);
  snprintf(url, sizeof url, "%st.js", base);
  ZT_INT(symbolize(m, url).st.mapped, 0);
  ZT_INT(agent_maps_fetches(m), before);
  zc_interrupted = 0;
  signal(SIGALRM, SIG_DFL);
  agent_maps_free(m);
  zt_stop(pid);
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
  struct agent_maps *m = agent_maps_new(store, 0);
  ZT_TRUE(agent_maps_root(m, "http://127.0.0.1:9/", build));
  ZT_INT(symbolize(m, URL).st.mapped, 1);
  ZT_INT(agent_maps_save(m), ZC_OK);
  agent_maps_free(m);
  ZT_TRUE(!exists(store));

  /* the store's parent is a file */
  zt_write_str(zt_tmp("nokeep/file"), "x");
  m = agent_maps_new(zt_tmp("nokeep/file/sourcemaps"), 1);
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
  struct agent_maps *m = agent_maps_new(store, 0);
  ZT_INT(agent_maps_open_store(m), ZC_E_PARSE);
  agent_maps_free(m);

  zt_write_str(zt_tmp("index/evil.map"), MAP);
  zt_write_str(at(store, "good.map"), MAP);
  zt_write_str(at(store, "index.json"),
               "{\"scripts\": [{\"url\": \"http://h/evil.js\", \"map\": "
               "\"../evil.map\"}, {\"url\": \"http://h/good.js\", \"map\": "
               "\"good.map\"}]}");
  m = agent_maps_new(store, 0);
  ZT_INT(agent_maps_open_store(m), ZC_OK);
  /* mapped counts the scripts of m so far that have a map */
  ZT_INT(symbolize(m, "http://h/evil.js").st.mapped, 0);
  ZT_INT(symbolize(m, "http://h/good.js").st.mapped, 1);
  agent_maps_free(m);

  /* no store, or no index in it: nothing to read, no error */
  m = agent_maps_new(NULL, 0);
  ZT_INT(agent_maps_open_store(m), ZC_OK);
  agent_maps_free(m);
  m = agent_maps_new(zt_tmp("index/none"), 0);
  ZT_INT(agent_maps_open_store(m), ZC_OK);
  agent_maps_free(m);
}

/* At most 16 roots. */
static void test_roots(void) {
  struct agent_maps *m = agent_maps_new(NULL, 0);
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
      {"fifo", test_fifo},
      {"folder_fetches_nothing", test_folder_fetches_nothing},
      {"url_build_origins", test_url_build_origins},
      {"addr_kind", test_addr_kind},
      {"fetch_budget", test_fetch_budget},
      {"fetch_interrupted", test_fetch_interrupted},
      {"not_kept", test_not_kept},
      {"store_index", test_store_index},
      {"roots", test_roots},
  };
  return ZT_RUN(cases, argc, argv);
}
