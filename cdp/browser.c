/* Finding, launching and attaching to Chrome, and never leaving one that
 * zamcap started behind. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cdp-int.h"

struct cdp_browser {
  int pid;        /* 0 when attached */
  int prfd, pwfd; /* launched: the DevTools pipe's ends, until connected */
  char *profile;  /* temporary --user-data-dir, removed at the end */
  char *ws_url;
  char *version;
  char *flags; /* the flags, one a line, for reports; "" attached */
  struct cdp_conn *conn;
};

/* Process groups of the Chromes this process started, for signal handlers
 * (a plain array: async-signal-safe to read). */
static volatile pid_t cdp__groups[16];

static void reg_add(pid_t pid) {
  for (size_t i = 0; i < ZC_ARRAY_LEN(cdp__groups); i++)
    if (!cdp__groups[i]) {
      cdp__groups[i] = pid;
      return;
    }
}

static void reg_del(pid_t pid) {
  for (size_t i = 0; i < ZC_ARRAY_LEN(cdp__groups); i++)
    if (cdp__groups[i] == pid) cdp__groups[i] = 0;
}

void cdp_kill_all_now(void) {
  for (size_t i = 0; i < ZC_ARRAY_LEN(cdp__groups); i++)
    if (cdp__groups[i] > 0) kill(-cdp__groups[i], SIGKILL);
}

void cdp_opts_default(struct cdp_opts *o) {
  memset(o, 0, sizeof *o);
  o->timeout_ms = 30000;
}

static int is_exec(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

char *cdp_find_chrome(const char *path) {
  if (path) {
    if (is_exec(path)) return zc_xstrdup(path);
    zc_fail(ZC_E_BROWSER, "--chrome %s: no executable there", path);
    return NULL;
  }
  const char *env = getenv("CHROME_PATH");
  if (env && *env) {
    if (is_exec(env)) return zc_xstrdup(env);
    zc_fail(ZC_E_BROWSER, "CHROME_PATH=%s: no executable there", env);
    return NULL;
  }
  static const char *const names[] = {"chromium", "chromium-browser",
                                      "google-chrome", "google-chrome-stable"};
  const char *pathv = getenv("PATH");
  for (size_t n = 0; n < ZC_ARRAY_LEN(names); n++) {
    for (const char *d = pathv ? pathv : "/usr/bin:/bin"; *d;) {
      const char *e = strchr(d, ':');
      size_t dl = e ? (size_t)(e - d) : strlen(d);
      char cand[4096];
      snprintf(cand, sizeof cand, "%.*s/%s", (int)dl, dl ? d : ".", names[n]);
      if (is_exec(cand)) return zc_xstrdup(cand);
      d += dl + (e ? 1 : 0);
    }
  }
  zc_fail(ZC_E_BROWSER,
          "no Chrome found: give --chrome PATH or set "
          "CHROME_PATH, or install chromium (Debian: apt-get install "
          "chromium)");
  return NULL;
}

static int rm_entry(const char *p, const struct stat *st, int flag,
                    struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(p);
  return 0;
}

static void rm_rf(const char *dir) {
  if (dir) nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Ends a launched Chrome: SIGTERM to its group, up to 3 s, then SIGKILL. */
static void stop_chrome(int pid) {
  if (pid <= 0) return;
  kill(-pid, SIGTERM);
  for (int i = 0; i < 60; i++) {
    int st;
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid || (r < 0 && errno == ECHILD)) break;
    zc_sleep_ms(50);
  }
  /* The group outlives its leader when renderers are slow to go. */
  kill(-pid, SIGKILL);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
  }
  reg_del(pid);
}

/* ---- discovery over HTTP ---- */

static size_t curl_sink(char *p, size_t sz, size_t n, void *arg) {
  return zc_buf_add(arg, p, sz * n) ? 0 : sz * n;
}

static enum zc_err discover(const char *base, double timeout_ms, char **ws,
                            char **version) {
  char url[1024];
  size_t bl = strlen(base);
  snprintf(url, sizeof url, "%.*s/json/version",
           (int)(bl && base[bl - 1] == '/' ? bl - 1 : bl), base);
  CURL *h = curl_easy_init();
  if (!h) return zc_fail(ZC_E_BROWSER, "cannot start libcurl");
  struct zc_buf body;
  zc_buf_init(&body, 1 << 20);
  char err[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, curl_sink);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  CURLcode rc = curl_easy_perform(h);
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(h);
  enum zc_err e = ZC_OK;
  if (rc != CURLE_OK) {
    e = zc_fail(ZC_E_BROWSER, "--browser-url %s: %s", base,
                err[0] ? err : curl_easy_strerror(rc));
  } else if (status != 200) {
    e = zc_fail(ZC_E_BROWSER,
                "--browser-url %s: GET /json/version answered "
                "HTTP %ld",
                base, status);
  } else {
    cJSON *j = cJSON_ParseWithLength(body.ptr ? body.ptr : "", body.len);
    const cJSON *w =
        cJSON_GetObjectItemCaseSensitive(j, "webSocketDebuggerUrl");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "Browser");
    if (!cJSON_IsString(w))
      e = zc_fail(ZC_E_BROWSER,
                  "--browser-url %s: /json/version has no "
                  "webSocketDebuggerUrl: is this a DevTools endpoint?",
                  base);
    else {
      *ws = zc_xstrdup(w->valuestring);
      *version = zc_xstrdup(cJSON_IsString(v) ? v->valuestring : "");
    }
    cJSON_Delete(j);
  }
  zc_buf_free(&body);
  return e;
}

/* ---- launching ---- */

/* Profiles are /tmp/zamcap-chrome-<pid of zamcap>.XXXXXX. A zamcap that was
 * killed (SIGKILL, the OOM killer) could not remove its own: the next one
 * removes those of this user whose zamcap is gone. */
static void remove_stale_profiles(void) {
  DIR *d = opendir("/tmp");
  if (!d) return;
  for (struct dirent *de; (de = readdir(d));) {
    if (strncmp(de->d_name, "zamcap-chrome-", 14)) continue;
    char *end;
    long pid = strtol(de->d_name + 14, &end, 10);
    if (end == de->d_name + 14 || *end != '.' || pid <= 0) continue;
    char path[300];
    snprintf(path, sizeof path, "/tmp/%s", de->d_name);
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
      continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive */
    zc_log(2, "removing %s, the profile of a zamcap that is gone", path);
    rm_rf(path);
  }
  closedir(d);
}

static int cloexec_pipe(int fd[2]) {
  if (pipe(fd) != 0) return -1;
  fcntl(fd[0], F_SETFD, FD_CLOEXEC);
  fcntl(fd[1], F_SETFD, FD_CLOEXEC);
  return 0;
}

/* Chrome's command line into argv (40 entries), udd the profile's
 * option; b->flags gets it as reports show it. */
static void chrome_argv(const struct cdp_opts *o, struct cdp_browser *b,
                        char *chrome, const char *udd, const char **argv) {
  int n = 0;
  argv[n++] = chrome;
  if (!o->headful) argv[n++] = "--headless";
  argv[n++] = udd;
  /* DevTools over fds 3 and 4, not a TCP port: nobody else on the
   * machine can drive this browser. */
  argv[n++] = "--remote-debugging-pipe";
  argv[n++] = "--no-first-run";
  argv[n++] = "--no-default-browser-check";
  argv[n++] = "--disable-background-networking";
  argv[n++] = "--disable-component-update";
  argv[n++] = "--disable-sync";
  argv[n++] = "--disable-default-apps";
  argv[n++] = "--disable-extensions";
  argv[n++] = "--disable-renderer-backgrounding";
  argv[n++] = "--disable-background-timer-throttling";
  argv[n++] = "--disable-backgrounding-occluded-windows";
  argv[n++] = "--mute-audio";
  argv[n++] = "--disable-gpu";
  /* Chrome loads two omnibox WebUI pages into every new browser context:
   * a renderer's work per run that no run asked for. */
  argv[n++] = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup";
  if (geteuid() == 0) argv[n++] = "--no-sandbox"; /* root has no sandbox */
  argv[n++] = "about:blank";
  argv[n] = NULL;
  /* The command line as reports show it: the profile is a fresh temporary
   * folder each time, so its name says nothing. */
  struct zc_buf fl;
  zc_buf_init(&fl, 1 << 20);
  enum zc_err fe = ZC_OK;
  for (int i = 1; !fe && i < n - 1; i++)
    fe = zc_buf_printf(&fl, "%s%s", i > 1 ? "\n" : "",
                       argv[i] == udd ? "--user-data-dir=TEMPORARY" : argv[i]);
  if (fe) zc_log(1, "Chrome's command line is too long to report");
  b->flags = zc_buf_take(&fl);
}

/* In the child: Chrome with DevTools on fds 3 and 4 and its output in
 * the log. Never returns. */
static void exec_chrome(const char **argv, int logfd, const int to_chrome[2],
                        const int from_chrome[2], pid_t parent) {
  /* Its own process group, so that zamcap can end Chrome with all its
   * helpers; its output to the log, never the terminal. */
  setpgid(0, 0);
#ifdef __linux__
  /* Chrome dies with zamcap, whatever ends zamcap (SIGKILL, the OOM
   * killer, a CI job's timeout): its helpers follow the browser. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(1); /* zamcap died before prctl */
#else
  (void)parent;
#endif
  int nul = open("/dev/null", O_RDONLY);
  if (nul >= 0) dup2(nul, 0);
  dup2(logfd, 1);
  dup2(logfd, 2);
  /* Chrome reads commands on fd 3 and writes on fd 4: moved above 9
   * first, so that no end lands on the other's number. */
  int rd = fcntl(to_chrome[0], F_DUPFD_CLOEXEC, 10);
  int wr = fcntl(from_chrome[1], F_DUPFD_CLOEXEC, 10);
  if (rd < 0 || wr < 0 || dup2(rd, 3) != 3 || dup2(wr, 4) != 4) _exit(126);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  execv(argv[0], (char *const *)argv);
  dprintf(2, "zamcap: cannot run %s: %s\n", argv[0], strerror(errno));
  _exit(127);
}

static enum zc_err launch(const struct cdp_opts *o, struct cdp_browser *b) {
  char *chrome = cdp_find_chrome(o->chrome);
  if (!chrome) return ZC_E_BROWSER;
  remove_stale_profiles();
  char tmpl[64];
  snprintf(tmpl, sizeof tmpl, "/tmp/zamcap-chrome-%ld.XXXXXX", (long)getpid());
  if (!mkdtemp(tmpl)) {
    free(chrome);
    return zc_fail(ZC_E_IO, "cannot make a temporary profile folder: %s",
                   strerror(errno));
  }
  b->profile = zc_xstrdup(tmpl);
  char udd[600];
  snprintf(udd, sizeof udd, "--user-data-dir=%s", b->profile);
  const char *argv[40];
  chrome_argv(o, b, chrome, udd, argv);

  int logfd = open(o->log_path ? o->log_path : "/dev/null",
                   O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (logfd < 0) {
    enum zc_err e = zc_fail(ZC_E_IO, "%s: cannot write Chrome's log: %s",
                            o->log_path, strerror(errno));
    free(chrome);
    return e;
  }
  int to_chrome[2], from_chrome[2];
  if (cloexec_pipe(to_chrome) != 0) {
    close(logfd);
    free(chrome);
    return zc_fail(ZC_E_IO, "cannot make the DevTools pipe: %s",
                   strerror(errno));
  }
  if (cloexec_pipe(from_chrome) != 0) {
    close(to_chrome[0]);
    close(to_chrome[1]);
    close(logfd);
    free(chrome);
    return zc_fail(ZC_E_IO, "cannot make the DevTools pipe: %s",
                   strerror(errno));
  }
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    for (int k = 0; k < 2; k++)
      close(to_chrome[k]), close(from_chrome[k]);
    close(logfd);
    free(chrome);
    return zc_fail(ZC_E_BROWSER, "cannot start Chrome: %s", strerror(errno));
  }
  if (pid == 0) exec_chrome(argv, logfd, to_chrome, from_chrome, parent);
  setpgid(pid, pid);
  close(logfd);
  close(to_chrome[0]);
  close(from_chrome[1]);
  b->pwfd = to_chrome[1];
  b->prfd = from_chrome[0];
  b->pid = (int)pid;
  reg_add(pid);
  zc_log(2, "started %s (pid %d, profile %s)", chrome, (int)pid, b->profile);

  b->ws_url = zc_xstrdup("pipe");
  free(chrome);
  return ZC_OK;
}

enum zc_err cdp_browser_start(const struct cdp_opts *o,
                              struct cdp_browser **out) {
  *out = NULL;
  struct cdp_browser *b = zc_xcalloc(1, sizeof *b);
  b->prfd = b->pwfd = -1;
  enum zc_err e = ZC_OK;
  if (o->browser_url && !strncmp(o->browser_url, "ws://", 5)) {
    b->ws_url = zc_xstrdup(o->browser_url);
  } else if (o->browser_url) {
    if (strncmp(o->browser_url, "http://", 7) != 0) {
      e = zc_fail(ZC_E_USAGE,
                  "--browser-url %s: want http://HOST:PORT or a "
                  "ws:// URL",
                  o->browser_url);
      goto fail;
    }
    if ((e = discover(o->browser_url, o->timeout_ms, &b->ws_url, &b->version)))
      goto fail;
  } else if ((e = launch(o, b))) {
    goto fail;
  }
  if (b->prfd >= 0) {
    e = cdp_connect_pipe(b->prfd, b->pwfd, b->pid, o->timeout_ms, &b->conn);
    b->prfd = b->pwfd = -1; /* the connection's now */
  } else {
    e = cdp_connect(b->ws_url, b->pid, o->timeout_ms, &b->conn);
  }
  if (e) goto fail;
  cJSON *r = NULL;
  if ((e = cdp_call(b->conn, NULL, "Browser.getVersion", NULL, 0, &r))) {
    /* a Chrome that could not start says why in its log */
    if (b->pid && o->log_path) {
      char why[1024];
      snprintf(why, sizeof why, "%s", zc_errmsg());
      e = zc_fail(e, "%s (see %s)", why, o->log_path);
    }
    goto fail;
  }
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "product");
  free(b->version);
  b->version = zc_xstrdup(cJSON_IsString(p) ? p->valuestring : "unknown");
  cJSON_Delete(r);
  zc_log(2, "connected to %s at %s", b->version, b->ws_url);
  *out = b;
  return ZC_OK;
fail:
  cdp_browser_free(b);
  return e;
}

void cdp_browser_free(struct cdp_browser *b) {
  if (!b) return;
  struct zc_errsave saved;
  zc_err_save(&saved);
  if (b->conn && b->pid) {
    /* Ask first: Chrome then flushes its profile and exits on its own. */
    cdp_call(b->conn, NULL, "Browser.close", NULL, 2000, NULL);
  }
  cdp_conn_free(b->conn);
  if (b->prfd >= 0) close(b->prfd);
  if (b->pwfd >= 0) close(b->pwfd);
  stop_chrome(b->pid);
  rm_rf(b->profile);
  free(b->profile);
  free(b->ws_url);
  free(b->version);
  free(b->flags);
  free(b);
  zc_err_restore(&saved);
}

const char *cdp_browser_version(const struct cdp_browser *b) {
  return b->version;
}
const char *cdp_browser_ws_url(const struct cdp_browser *b) {
  return b->ws_url;
}
int cdp_browser_pid(const struct cdp_browser *b) {
  return b->pid;
}
const char *cdp_browser_flags(const struct cdp_browser *b) {
  return b->flags ? b->flags : "";
}
struct cdp_conn *cdp_browser_conn(struct cdp_browser *b) {
  return b->conn;
}
