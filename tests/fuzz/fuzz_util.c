/* The input as a file, and failed checks. See fuzz.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

void fuzz_fail(const char *file, int line, const char *what) {
  fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
  abort();
}

static int fuzz_tmpfile(const char *dir) {
  char tmpl[64];
  snprintf(tmpl, sizeof tmpl, "%s/zamcap-fuzz-XXXXXX", dir);
  int fd = mkstemp(tmpl);
  /* Unlinked at once: nothing is left behind, however the fuzzer ends;
   * /proc/self/fd/N still opens it. */
  if (fd >= 0) unlink(tmpl);
  return fd;
}

const char *fuzz_file(const uint8_t *data, size_t size) {
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    fd = fuzz_tmpfile("/dev/shm");
    if (fd < 0) fd = fuzz_tmpfile("/tmp");
    if (fd < 0) {
      perror("fuzz: cannot make a temporary file");
      abort();
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  if (ftruncate(fd, 0) != 0 ||
      (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
    perror("fuzz: cannot write the temporary file");
    abort();
  }
  return path;
}

static char fuzz_link[96];

static void fuzz_unlink(void) {
  if (fuzz_link[0]) unlink(fuzz_link);
}

const char *fuzz_file_named(const uint8_t *data, size_t size,
                            const char *suffix) {
  const char *path = fuzz_file(data, size);
  if (!fuzz_link[0]) {
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(fuzz_link, sizeof fuzz_link, "%s/zamcap-fuzz-%ld%s", dir,
             (long)getpid(), suffix);
    unlink(fuzz_link);
    if (symlink(path, fuzz_link) != 0) {
      perror("fuzz: cannot link the temporary file");
      abort();
    }
    atexit(fuzz_unlink);
  }
  return fuzz_link;
}
