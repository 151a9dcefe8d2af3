/* "A file of this build": the one rule that the built-in server (serve.c)
 * and the map finder (maps.c) share (issue 26). See agent.h. */
#define _GNU_SOURCE /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"

/* Whether a path has a segment that starts with '.': .git/, .env, ../, ./
 * (a build folder may be a checkout: its dotfiles are not the build's). */
static int dot_segment(const char *p) {
  if (p[0] == '.') return 1;
  for (; *p; p++)
    if (*p == '/' && p[1] == '.') return 1;
  return 0;
}

int agent_build_open(const char *root, const char *path, struct stat *st) {
  while (*path == '/')
    path++;
  if (dot_segment(path)) {
    errno = ENOENT;
    return -1;
  }
  char full[PATH_MAX + 4200], real[PATH_MAX];
  if ((size_t)snprintf(full, sizeof full, "%s/%s", root, path) >= sizeof full) {
    errno = ENAMETOOLONG;
    return -1;
  }
  /* realpath resolves "..", links and all: what is left must lie in the
   * folder, and be no dotfile there either (a link to .env). */
  size_t rl = strlen(root);
  if (!realpath(full, real) || strncmp(real, root, rl) != 0 ||
      (real[rl] != '/' && real[rl] != '\0') || dot_segment(real + rl)) {
    errno = ENOENT;
    return -1;
  }
  /* O_NOFOLLOW: the last part cannot have become a link since; O_NONBLOCK:
   * a FIFO opens at once, and fstat refuses it. */
  int fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
    close(fd);
    errno = ENOENT;
    return -1;
  }
  return fd;
}

char *agent_build_read(const char *root, const char *path, size_t max,
                       size_t *n) {
  struct stat st;
  int fd = agent_build_open(root, path, &st);
  if (fd < 0) return NULL;
  if ((unsigned long long)st.st_size > max) {
    close(fd);
    return NULL;
  }
  /* The size fstat said, no more: a file that grows meanwhile is cut. */
  size_t want = (size_t)st.st_size, got = 0;
  char *b = zc_xmalloc(want + 1);
  while (got < want) {
    ssize_t r = read(fd, b + got, want - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  b[got] = '\0';
  *n = got;
  return b;
}
