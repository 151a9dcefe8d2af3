/* Running a program for a command (git, a project's build): an argv, no
 * shell unless the argv asks for one, in a folder, with one more variable
 * in its environment, its output kept or logged. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"

/* The child: its folder, its variable, its output, then the program. */
static void child(char *const argv[], const char *dir, const char *env,
                  int out_fd, int log_fd) {
  int null = open("/dev/null", O_RDWR);
  if (null >= 0) dup2(null, 0);
  dup2(out_fd >= 0 ? out_fd : log_fd >= 0 ? log_fd : null, 1);
  dup2(log_fd >= 0 ? log_fd : null, 2);
  if (dir && chdir(dir) != 0) _exit(126);
  if (env) {
    char *e = strdup(env), *eq = e ? strchr(e, '=') : NULL;
    if (eq) {
      *eq = '\0';
      setenv(e, eq + 1, 1);
    }
  }
  signal(SIGPIPE, SIG_DFL);
  execvp(argv[0], argv);
  _exit(127);
}

/* Reads the child's output until it closes it, up to cap bytes kept, or
 * until zamcap is asked to stop (stoppable). */
static void read_all(int fd, struct zc_buf *b, int stoppable) {
  char chunk[8192];
  for (;;) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (stoppable && zc_interrupted) return;
    int r = poll(&p, 1, 100);
    if (r < 0 && errno != EINTR) return;
    if (r <= 0) continue;
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    if (zc_buf_add(b, chunk, (size_t)n)) {
      /* past the cap: the rest is read and let go */
    }
  }
}

enum zc_err agent_exec(char *const argv[], const char *dir, const char *env,
                       const char *log_path, char **out, size_t cap,
                       int *status) {
  int pfd[2] = {-1, -1}, log_fd = -1;
  *status = -1;
  if (out) *out = NULL;
  if (out && pipe(pfd) != 0)
    return zc_fail(ZC_E_IO, "%s: pipe: %s", argv[0], strerror(errno));
  /* never through a link: OUT/worktrees/<sha>.log may have been made by
   * someone else */
  if (log_path)
    log_fd = open(log_path,
                  O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (log_path && log_fd < 0) {
    int err = errno;
    if (out) close(pfd[0]), close(pfd[1]);
    return zc_fail(ZC_E_IO, "%s: cannot write there: %s", log_path,
                   strerror(err));
  }
  /* A child started after a stop is cleanup (git worktree remove): it
   * runs to its end; a second signal still ends it. */
  int stoppable = !zc_interrupted;
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0); /* its group: ended whole on a stop */
    child(argv, dir, env, out ? pfd[1] : -1, log_fd);
  }
  if (log_fd >= 0) close(log_fd);
  if (pid < 0) {
    if (out) close(pfd[0]), close(pfd[1]);
    return zc_fail(ZC_E_IO, "%s: fork: %s", argv[0], strerror(errno));
  }
  setpgid(pid, pid); /* as the child does: whichever runs first */
  zc_child_add(pid);
  struct zc_buf b;
  zc_buf_init(&b, cap ? cap : 1);
  if (out) {
    close(pfd[1]);
    read_all(pfd[0], &b, stoppable);
    close(pfd[0]);
  }
  int st = 0;
  int ended = zc_child_wait(pid, stoppable, 1e300, &st);
  zc_child_del(pid);
  if (ended == 2) {
    zc_buf_free(&b);
    return zc_fail(ZC_E_INTERRUPTED, "%s: interrupted", argv[0]);
  }
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (out) {
    char *t = zc_xmalloc(b.len + 1);
    if (b.len) memcpy(t, b.ptr, b.len);
    t[b.len] = '\0';
    *out = t;
  }
  zc_buf_free(&b);
  return ZC_OK;
}

enum zc_err agent_git_diff(const char *repo, const char *from, const char *to,
                           char **out) {
  /* The same text whatever the user's git config says: prefixes a/ and
   * b/ (diff.noprefix, diff.mnemonicPrefix), no external diff or textconv
   * (diff.external, GIT_EXTERNAL_DIFF), the whole tree (diff.relative),
   * no colour, paths unquoted. */
  char *argv[] = {"git",
                  "-C",
                  (char *)repo,
                  "-c",
                  "core.quotePath=false",
                  "diff",
                  "-U0",
                  "--no-color",
                  "--no-ext-diff",
                  "--no-textconv",
                  "--no-relative",
                  "--src-prefix=a/",
                  "--dst-prefix=b/",
                  (char *)from,
                  (char *)to,
                  "--",
                  NULL};
  int st = -1;
  enum zc_err e = agent_exec(argv, NULL, NULL, NULL, out, 64u << 20, &st);
  if (!e && st != 0)
    e = zc_fail(ZC_E_IO, "git diff %.12s %.12s in %s: exit %d", from, to, repo,
                st);
  return e;
}
