/* Every command's output through zc_scrub's masks: once the command line's
 * URLs have registered their secrets, stdout becomes a pipe that a thread
 * drains, masks and writes to the real stdout (diagnostics on stderr are
 * masked by zc_log itself). A secret cut across two reads is held back
 * until the bytes after it have come. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int mask_out = -1; /* the real stdout */
static pthread_t mask_th;
static int mask_on;

static void mask_write(const char *p, size_t n) {
  while (n) {
    ssize_t w = write(mask_out, p, n);
    if (w <= 0) return; /* a closed reader: the rest is dropped */
    p += w;
    n -= (size_t)w;
  }
}

static void *mask_loop(void *arg) {
  int in = *(int *)arg;
  free(arg);
  size_t keep = zc_secret_maxlen(), cap = 65536 + keep, len = 0;
  char *b = zc_xmalloc(cap + 1);
  for (;;) {
    ssize_t r = read(in, b + len, cap - len);
    if (r < 0) continue; /* EINTR */
    len += (size_t)r;
    b[len] = '\0';
    /* NULs would end zc_scrub early: text output has none, but mask each
     * NUL-separated run so that none hides a secret. */
    for (size_t i = 0; i < len; i += strlen(b + i) + 1)
      zc_scrub(b + i);
    /* Bytes that could start a secret continued in the next read wait. */
    size_t out = r == 0 ? len : len > keep ? len - keep : 0;
    mask_write(b, out);
    memmove(b, b + out, len - out);
    len -= out;
    if (r == 0) break;
  }
  free(b);
  close(in);
  return NULL;
}

static void mask_end(void) {
  if (!mask_on) return;
  mask_on = 0;
  fflush(stdout);
  close(STDOUT_FILENO); /* the reader's end of file */
  pthread_join(mask_th, NULL);
  dup2(mask_out, STDOUT_FILENO);
  close(mask_out);
}

void agent_mask_stdout(void) {
  if (mask_on || !zc_secret_maxlen()) return;
  int fd[2];
  fflush(stdout);
  if (pipe(fd) != 0) return;
  mask_out = dup(STDOUT_FILENO);
  int *in = zc_xmalloc(sizeof *in);
  *in = fd[0];
  if (mask_out < 0 || dup2(fd[1], STDOUT_FILENO) < 0 ||
      pthread_create(&mask_th, NULL, mask_loop, in) != 0) {
    if (mask_out >= 0) dup2(mask_out, STDOUT_FILENO), close(mask_out);
    close(fd[0]);
    close(fd[1]);
    free(in);
    return;
  }
  close(fd[1]);
  /* Chrome and the other children get neither end's spare copies. */
  fcntl(mask_out, F_SETFD, FD_CLOEXEC);
  fcntl(fd[0], F_SETFD, FD_CLOEXEC);
  mask_on = 1;
  atexit(mask_end);
}

/* --history's password: a URI's user:password and query (zc_url_secrets,
 * whatever its scheme's case), and a libpq keyword string's password=
 * value (refused later, but never printed meanwhile). */
static void history_secrets(const char *spec) {
  if (!spec) return;
  if (strstr(spec, "://")) zc_url_secrets(spec);
  for (const char *p = spec; (p = strstr(p, "password")) != NULL;) {
    p += 8;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p != '=') continue;
    p++;
    while (*p == ' ' || *p == '\t')
      p++;
    char q = *p == '\'' ? '\'' : 0;
    const char *v = p + (q != 0);
    size_t n = q ? strcspn(v, "'") : strcspn(v, " \t");
    zc_secret_add_forms(v, n);
  }
}

void agent_args_url_secrets(const struct agent_args *a) {
  agent_url_secrets("--old", a->old);
  agent_url_secrets("--new", a->new_);
  agent_url_secrets("--url", a->url);
  agent_url_secrets("--browser-url", a->cdp.browser_url);
  /* bisect's builds: --builds B0, then B1 ... Bn among the operands (the
   * first is the scenario); every report of the bisection names them */
  agent_url_secrets("--builds", a->builds);
  for (int i = 1; a->builds && i < a->noperands; i++)
    agent_url_secrets("--builds", a->operands[i]);
  history_secrets(a->history);
}
