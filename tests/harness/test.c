/* The test harness. See test.h. */
#define _DEFAULT_SOURCE /* usleep */
#define _POSIX_C_SOURCE 200809L
#include "test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zc.h"

int zt_failed_checks;
static const char *zt__skipped;

void zt_skip(const char *why) {
  zt__skipped = why;
}

void zt_fail_at(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "  FAIL %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  zt_failed_checks++;
}

int zt_true(const char *f, int l, const char *ex, int v) {
  if (!v) zt_fail_at(f, l, "expected true: %s", ex);
  return v;
}

int zt_int_eq(const char *f, int l, const char *ea, const char *eb, long long a,
              long long b) {
  if (a == b) return 1;
  zt_fail_at(f, l, "%s == %s: %lld != %lld", ea, eb, a, b);
  return 0;
}

int zt_dbl_near(const char *f, int l, const char *ea, const char *eb, double a,
                double b, double eps) {
  if (fabs(a - b) <= eps) return 1;
  zt_fail_at(f, l, "%s ~ %s: %.6g vs %.6g (eps %.3g)", ea, eb, a, b, eps);
  return 0;
}

int zt_str_eq(const char *f, int l, const char *ea, const char *eb,
              const char *a, const char *b) {
  if (a && b && strcmp(a, b) == 0) return 1;
  zt_fail_at(f, l, "%s == %s:\n---- got\n%s\n---- want\n%s\n----", ea, eb,
             a ? a : "(null)", b ? b : "(null)");
  return 0;
}

int zt_str_has(const char *f, int l, const char *ea, const char *hay,
               const char *needle) {
  if (hay && strstr(hay, needle)) return 1;
  zt_fail_at(f, l, "%s should contain \"%s\", is:\n%s", ea, needle,
             hay ? hay : "(null)");
  return 0;
}

/* The running case and the counts so far, for zt_skip_rest. */
static const char *zt__case;
static int zt__passed, zt__failed;

void zt_skip_rest(const char *why) {
  printf("skip %s: %s\n", zt__case ? zt__case : "all cases", why);
  printf("%d passed, %d failed, the rest skipped\n", zt__passed, zt__failed);
  fflush(stdout);
  /* A check that failed before still fails the program. */
  exit(zt_failed_checks ? 1 : ZT_EXIT_SKIPPED);
}

int zt_run(const struct zt_case *cases, size_t n, int argc, char **argv) {
  const char *tmp = getenv("ZC_TMP");
  if (tmp) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", tmp, tmp);
    if (system(cmd) != 0) fprintf(stderr, "cannot make %s\n", tmp);
  }
  int skipped = 0;
  for (size_t i = 0; i < n; i++) {
    int want = argc < 2;
    for (int a = 1; a < argc; a++)
      want |= strcmp(argv[a], cases[i].name) == 0;
    if (!want) continue;
    int before = zt_failed_checks;
    double t0 = zc_now_ms();
    zt__skipped = NULL;
    zt__case = cases[i].name;
    cases[i].fn();
    int ok = zt_failed_checks == before;
    if (ok && zt__skipped) {
      printf("skip %s: %s\n", cases[i].name, zt__skipped);
      skipped++;
      continue;
    }
    printf("%s %s (%.0f ms)\n", ok ? "ok  " : "FAIL", cases[i].name,
           zc_now_ms() - t0);
    fflush(stdout);
    ok ? zt__passed++ : zt__failed++;
  }
  zt__case = NULL;
  if (skipped)
    printf("%d passed, %d failed, %d skipped\n", zt__passed, zt__failed,
           skipped);
  else
    printf("%d passed, %d failed\n", zt__passed, zt__failed);
  /* Everything skipped is neither a pass nor a failure: CTest shows it
   * as skipped (SKIP_RETURN_CODE, tests/CMakeLists.txt). */
  if (zt__failed) return 1;
  if (!zt__passed) return skipped ? ZT_EXIT_SKIPPED : 1;
  return 0;
}

static char zt__paths[32][4096];
static int zt__slot;

/* The next of the rotating path buffers, filled from fmt after the
 * folder dir. */
__attribute__((format(printf, 2, 0))) static const char *
zt__vpath(const char *dir, const char *fmt, va_list ap) {
  char *p = zt__paths[zt__slot++ & 31];
  int n = snprintf(p, 4096, "%s/", dir);
  if (n > 0 && n < 4096) vsnprintf(p + n, 4096 - (size_t)n, fmt, ap);
  return p;
}

__attribute__((format(printf, 2, 3))) static const char *
zt__path(const char *dir, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *p = zt__vpath(dir, fmt, ap);
  va_end(ap);
  return p;
}

static const char *zt__env(const char *name, const char *dflt) {
  const char *d = getenv(name);
  return d ? d : dflt;
}

int zt_refused_port(int *fd) {
  struct sockaddr_in a;
  socklen_t al = sizeof a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  *fd = socket(AF_INET, SOCK_STREAM, 0);
  if (*fd < 0 || bind(*fd, (struct sockaddr *)&a, sizeof a) != 0 ||
      getsockname(*fd, (struct sockaddr *)&a, &al) != 0) {
    zt_fail_at(__FILE__, __LINE__, "cannot bind a loopback port");
    return 1;
  }
  return ntohs(a.sin_port);
}

const char *zt_tmp(const char *name) {
  return zt__path(zt__env("ZC_TMP", "/tmp"), "%s", name);
}
const char *zt_data(const char *name) {
  return zt__path(zt__env("ZC_DATA", "tests/data"), "%s", name);
}

/* tests/ is ZC_DATA's parent, the repository its grandparent. */
const char *zt_tests(const char *fmt, ...) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/..", zt__env("ZC_DATA", "tests/data"));
  va_list ap;
  va_start(ap, fmt);
  const char *p = zt__vpath(dir, fmt, ap);
  va_end(ap);
  return p;
}

const char *zt_demo(const char *fmt, ...) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/../../scenarios/demo",
           zt__env("ZC_DATA", "tests/data"));
  va_list ap;
  va_start(ap, fmt);
  const char *p = zt__vpath(dir, fmt, ap);
  va_end(ap);
  return p;
}

const char *zt_agent_app(const char *app, const char *f) {
  return zt_tests("agent/%s/%s", app, f);
}

const char *zt_zamcap(void) {
  const char *b = getenv("ZAMCAP");
  return b ? b : "./zamcap";
}

void zt_write(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
    exit(2);
  }
}

void zt_write_str(const char *path, const char *s) {
  zt_write(path, s, strlen(s));
}

char *zt_read(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  struct zc_buf b;
  zc_buf_init(&b, (size_t)1 << 30);
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    if (zc_buf_add(&b, chunk, n)) {
      zt_fail_at(__FILE__, __LINE__, "%s: over 1 GiB: not read whole", path);
      break;
    }
  fclose(f);
  return zc_buf_take(&b);
}

char *zt_vformat(const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  char *s = zc_xmalloc(n > 0 ? (size_t)n + 1 : 1);
  if (n >= 0)
    vsnprintf(s, (size_t)n + 1, fmt, ap);
  else
    s[0] = 0;
  return s;
}

int zt_vsh(char **out, const char *fmt, va_list ap) {
  char *cmd = zt_vformat(fmt, ap);
  /* "(CMD) 2>&1": the command's stderr with its stdout */
  char *full = zc_xmalloc(strlen(cmd) + 9);
  sprintf(full, "(%s) 2>&1", cmd);
  free(cmd);
  FILE *p = popen(full, "r");
  if (!p) {
    free(full);
    return -1;
  }
  struct zc_buf b;
  zc_buf_init(&b, (size_t)64 << 20);
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, p)) > 0)
    if (zc_buf_add(&b, chunk, got)) {
      zt_fail_at(__FILE__, __LINE__, "output of '%s' over 64 MiB", full);
      break;
    }
  int st = pclose(p);
  free(full);
  if (out)
    *out = zc_buf_take(&b);
  else
    zc_buf_free(&b);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int zt_sh(char **out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = zt_vsh(out, fmt, ap);
  va_end(ap);
  return rc;
}

int zt_spawn(const char *cmd, FILE **out) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  setpgid(pid, pid);
  *out = fdopen(fd[0], "r");
  return (int)pid;
}

int zt_chrome_devtools(const char *profile, int wait_ms, int *port, char *path,
                       size_t cap, FILE **out) {
  char cmd[4400], file[4200], line[64] = "";
  snprintf(cmd, sizeof cmd,
           "exec \"${CHROME_PATH:-chromium}\" --headless --no-sandbox "
           "--disable-gpu --disable-background-networking "
           "--disable-component-update --disable-sync --no-first-run "
           "--user-data-dir='%s' --remote-debugging-port=0 about:blank "
           "2>/dev/null",
           profile);
  int pid = zt_spawn(cmd, out);
  snprintf(file, sizeof file, "%s/DevToolsActivePort", profile);
  *port = 0;
  path[0] = '\0';
  for (int waited = 0; pid > 0 && !path[0] && waited < wait_ms; waited += 50) {
    FILE *f = fopen(file, "r");
    if (f && fgets(line, sizeof line, f) && fgets(path, (int)cap, f))
      path[strcspn(path, "\n")] = '\0';
    if (f) fclose(f);
    if (!path[0]) usleep(50000);
  }
  if (path[0]) *port = atoi(line);
  return pid;
}

void zt_stop(int pid) {
  if (pid <= 0) return;
  kill(-pid, SIGTERM);
  for (int i = 0; i < 40 && waitpid(pid, NULL, WNOHANG) == 0; i++)
    usleep(50000);
  kill(-pid, SIGKILL);
  waitpid(pid, NULL, 0);
}

int zt_group_alive(int pgid, double wait_ms) {
  double end = zc_now_ms() + wait_ms;
  for (;;) {
    if (kill(-pgid, 0) != 0 && errno == ESRCH) return 0;
    if (zc_now_ms() > end) return 1;
    usleep(50000);
  }
}

/* The Chrome pid and profile from a -v log; 0 if none was started. */
static int zt_chrome_of(const char *log, char *profile, size_t cap) {
  const char *p = log ? strstr(log, "(pid ") : NULL;
  if (!p) return 0;
  int pid = atoi(p + 5);
  const char *q = strstr(p, "profile ");
  if (q) {
    q += 8;
    size_t n = strcspn(q, ")");
    snprintf(profile, cap, "%.*s", (int)n, q);
  }
  return pid;
}

void zt_no_orphan(const char *log) {
  char profile[512] = "";
  int pid = zt_chrome_of(log, profile, sizeof profile);
  if (!ZT_TRUE(pid > 0)) return;
  ZT_INT(zt_group_alive(pid, 3000), 0);
  struct stat st;
  ZT_TRUE(profile[0] && stat(profile, &st) != 0);
}
