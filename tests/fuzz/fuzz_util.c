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
