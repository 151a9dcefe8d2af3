/* Running zamcap as a user does, and reading the JSON it writes: the
 * helpers every end-to-end test shares. See test.h. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cdp.h"
#include "test.h"
#include "zc.h"

void zt_need_chrome(void) {
  char *chrome = cdp_find_chrome(NULL);
  if (!chrome) {
    char why[1024];
    snprintf(why, sizeof why, "no Chrome to run: %s", zc_errmsg());
    zt_skip_rest(why);
  }
  free(chrome);
}

/* Whether zamcap's output says it found no Chrome: cdp_find_chrome's
 * messages when no --chrome was given. */
static int no_chrome(const char *out) {
  if (!out) return 0;
  if (strstr(out, "no Chrome found")) return 1;
  const char *env = strstr(out, "CHROME_PATH=");
  return env && strstr(env, ": no executable there");
}

int zt_run_zamcap(char **out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *args = zt_vformat(fmt, ap);
  va_end(ap);
  char *log = NULL;
  int rc = zt_sh(&log, "'%s' %s", zt_zamcap(), args);
  free(args);
  if (no_chrome(log)) {
    char why[1024];
    const char *line = strstr(log, "no Chrome found");
    if (!line) line = strstr(log, "CHROME_PATH=");
    snprintf(why, sizeof why, "no Chrome to run: %.*s",
             (int)strcspn(line, "\n"), line);
    free(log);
    zt_skip_rest(why);
  }
  if (out)
    *out = log;
  else
    free(log);
  return rc;
}

struct cJSON *zt_json(const char *fmt, ...) {
  char path[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(path, sizeof path, fmt, ap);
  va_end(ap);
  char *text = zt_read(path);
  cJSON *j = text ? cJSON_Parse(text) : NULL;
  if (!j)
    zt_fail_at(__FILE__, __LINE__, "%s: %s", path,
               text ? "not JSON" : "cannot read");
  free(text);
  return j;
}

const struct cJSON *zt_jget(const struct cJSON *o, const char *path) {
  char key[256];
  while (o && *path) {
    size_t n = strcspn(path, ".");
    snprintf(key, sizeof key, "%.*s", (int)n, path);
    if (cJSON_IsArray(o) && key[0] >= '0' && key[0] <= '9')
      o = cJSON_GetArrayItem(o, atoi(key));
    else
      o = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    path += n + (path[n] == '.');
  }
  return o;
}

double zt_jnum(const struct cJSON *o, const char *path) {
  const cJSON *v = zt_jget(o, path);
  return cJSON_IsNumber(v) ? v->valuedouble : -1e9;
}

const char *zt_jstr(const struct cJSON *o, const char *path) {
  const cJSON *v = zt_jget(o, path);
  return cJSON_IsString(v) ? v->valuestring : "";
}
