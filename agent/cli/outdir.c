/* The output folder. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

enum zc_err agent_outdir(const char *dir, char **out) {
  *out = NULL;
  if (dir) {
    enum zc_err e = zc_mkdirs(dir);
    if (!e) *out = zc_xstrdup(dir);
    return e;
  }
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  char stamp[32], path[64];
  strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  /* Two runs in the same second get distinct folders. */
  for (int i = 0; i < 100; i++) {
    if (i)
      snprintf(path, sizeof path, "zamcap-out/%s-%d", stamp, i);
    else
      snprintf(path, sizeof path, "zamcap-out/%s", stamp);
    if (access(path, F_OK) != 0) break;
  }
  enum zc_err e = zc_mkdirs(path);
  if (e) return e;
  /* "latest" points at the newest run; replace it atomically. */
  const char *base = path + strlen("zamcap-out/");
  unlink("zamcap-out/latest.tmp");
  if (symlink(base, "zamcap-out/latest.tmp") == 0 &&
      rename("zamcap-out/latest.tmp", "zamcap-out/latest") != 0)
    unlink("zamcap-out/latest.tmp");
  *out = zc_xstrdup(path);
  return ZC_OK;
}
