/* --attach against a bug tracker stand-in (attach_server.py), which checks
 * each upload byte for byte: headers and their expansion from the
 * environment, the multipart parts, the messages for every way an upload
 * fails, and that no header value ever reaches a message or the log. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "attach.h"
#include "cmd.h"
#include "test.h"

#define TOKEN "s3cret-token-42"

static int server_pid = -1;
static FILE *server_out;
static char base_url[64];

/* The server's next line (one per request), waiting up to 10 s; "" when
 * none comes. Read byte by byte so that no line waits in a buffer. */
static const char *server_line(void) {
  static char line[1024];
  size_t n = 0;
  struct pollfd p = {fileno(server_out), POLLIN, 0};
  while (n + 1 < sizeof line && poll(&p, 1, 10000) == 1) {
    char c;
    if (read(p.fd, &c, 1) != 1 || c == '\n') break;
    line[n++] = c;
  }
  line[n] = '\0';
  return line;
}

static const char *report_dir(void) {
  return zt_tmp("trk/report");
}

static void make_reports(void) {
  zt_sh(NULL, "mkdir -p '%s' '%s' '%s'", report_dir(), zt_tmp("trk/partial"),
        zt_tmp("trk/empty"));
  /* Bytes a careless upload would mangle: CRLF, NUL, UTF-8, and a line
   * that looks like a boundary. */
  static const char html[] =
      "<!doctype "
      "html>\r\n<p>caf\xc3\xa9</p>\n\0\x01\xff\r\n--boundary\r\n</html>";
  zt_write(zt_tmp("trk/report/report.html"), html, sizeof html - 1);
  zt_write_str(zt_tmp("trk/report/summary.md"),
               "**1 regression-cause** (>= 50 ms, 3 pairs)\n\n| Δ ms | "
               "function |\n|---|---|\n| +588.2 | dedupeTitles |\n");
  /* Over 1 MB: libcurl streams it and asks for 100-continue. */
  struct zc_buf j;
  zc_buf_init(&j, 8 << 20);
  ZT_INT(zc_buf_printf(&j, "{\"causes\": ["), ZC_OK);
  for (int i = 0; i < 40000; i++)
    ZT_INT(zc_buf_printf(&j, "%s{\"name\": \"f%d\", \"delta_ms\": %d.5}",
                         i ? ", " : "", i, i % 977),
           ZC_OK);
  ZT_INT(zc_buf_printf(&j, "]}\n"), ZC_OK);
  zt_write(zt_tmp("trk/report/report.json"), j.ptr, j.len);
  zc_buf_free(&j);
  zt_sh(NULL, "cp '%s/summary.md' '%s/report.json' '%s/'", report_dir(),
        report_dir(), zt_tmp("trk/partial"));
}

static int server_start(void) {
  if (server_pid > 0) return 1;
  make_reports();
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "exec python3 '%s' '%s' --expect "
           "'Authorization=Bearer " TOKEN
           "' --expect 'X-Atlassian-Token=no-check'",
           zt_tests("agent/attach_server.py"), zt_tmp("trk"));
  server_pid = zt_spawn(cmd, &server_out);
  if (server_pid < 0) return 0;
  int port = atoi(server_line());
  snprintf(base_url, sizeof base_url, "http://127.0.0.1:%d", port);
  return port > 0;
}

static const char *url(const char *path) {
  static char u[4][256];
  static int k;
  k = (k + 1) % 4;
  snprintf(u[k], sizeof u[k], "%s%s", base_url, path);
  return u[k];
}

static int ends(const char *s, const char *tail) {
  size_t n = strlen(s), t = strlen(tail);
  if (n >= t && !strcmp(s + n - t, tail)) return 1;
  fprintf(stderr, "  \"%s\" does not end in \"%s\"\n", s, tail);
  return 0;
}

/* stderr into a file while a call runs, to check what was logged. */
static int saved_fd = -1;
static void stderr_to_file(void) {
  fflush(stderr);
  saved_fd = dup(2);
  FILE *f = fopen(zt_tmp("stderr.txt"), "w");
  dup2(fileno(f), 2);
  fclose(f);
}
static char *stderr_back(void) {
  fflush(stderr);
  dup2(saved_fd, 2);
  close(saved_fd);
  return zt_read(zt_tmp("stderr.txt"));
}

static const char *const good_headers[] = {
    "Authorization: Bearer $ZC_TEST_TOKEN", "X-Atlassian-Token: no-check"};

/* The report folder as ls and cksum see it, to prove it untouched. */
static char *snapshot(void) {
  char *s = NULL;
  zt_sh(&s, "cd '%s' && ls -lA --time-style=full-iso . && cat * | cksum",
        report_dir());
  return s;
}

static void test_header_syntax(void) {
  char why[512];
  setenv("ZC_TEST_TOKEN", TOKEN, 1);
  setenv("ZC_TEST_EMPTY", "", 1);
  setenv("ZC_TEST_NL", "abc\r\nX-Injected: 1", 1);
  unsetenv("ZC_TEST_UNSET");
  static const char *const good[] = {
      "X-Atlassian-Token: no-check",
      "Authorization: Bearer $ZC_TEST_TOKEN",
      "Authorization: Bearer ${ZC_TEST_TOKEN}",
      "PRIVATE-TOKEN:$ZC_TEST_TOKEN",
      "X-Price: $$5 ${ZC_TEST_TOKEN}x",
      "X-Tab:\tvalue  ",
  };
  for (size_t i = 0; i < ZC_ARRAY_LEN(good); i++) {
    why[0] = '\0';
    if (!ZT_TRUE(agent_attach_header_ok(good[i], why, sizeof why)))
      fprintf(stderr, "  %s: %s\n", good[i], why);
  }
  static const struct {
    const char *h, *why;
  } bad[] = {
      {"Authorization Bearer s3cret", "wants 'Name: value'"},
      {": s3cret", "not a header name"},
      {"Bearer s3cret:x", "not a header name"},
      {"X-A:", "X-A: the value is empty"},
      {"X-A:   ", "X-A: the value is empty"},
      {"X-A: s3cret\r\nX-B: 1", "X-A: the value has a line break"},
      {"X-A: s3cret\x1b[1m", "X-A: the value has a line break"},
      {"Content-Type: text/plain", "Content-Type: zamcap sets that header"},
      {"content-length: 3", "content-length: zamcap sets that header"},
      {"Authorization: Bearer s3cret $ZC_TEST_UNSET",
       "Authorization: the environment variable ZC_TEST_UNSET is not set"},
      {"Authorization: ${ZC_TEST_UNSET}s3cret", "ZC_TEST_UNSET is not set"},
      {"X-A: $ZC_TEST_EMPTY",
       "X-A: the environment variable ZC_TEST_EMPTY is empty"},
      {"X-A: $ZC_TEST_NL", "ZC_TEST_NL has a line break"},
      {"X-A: s3cret ${ZC_TEST_TOKEN", "must start $NAME or ${NAME}"},
      {"X-A: s3cret ${}", "must start $NAME"},
      {"X-A: s3cret $1", "must start $NAME"},
      {"X-A: s3cret $", "must start $NAME"},
      {"X-A: s3cret ${ZC-TEST}", "must start $NAME"},
  };
  for (size_t i = 0; i < ZC_ARRAY_LEN(bad); i++) {
    why[0] = '\0';
    ZT_TRUE(!agent_attach_header_ok(bad[i].h, why, sizeof why));
    ZT_HAS(why, bad[i].why);
    ZT_TRUE(!strstr(why, "s3cret") && !strstr(why, "X-Injected") &&
            !strstr(why, "\r") && !strstr(why, "\n"));
  }
  /* Too long once expanded. */
  char *big = zc_xmalloc(9000);
  memset(big, 'a', 8999);
  big[8999] = '\0';
  setenv("ZC_TEST_BIG", big, 1);
  free(big);
  ZT_TRUE(!agent_attach_header_ok("X-A: $ZC_TEST_BIG", why, sizeof why));
  ZT_HAS(why, "X-A: the value is longer than 8192 bytes");
  unsetenv("ZC_TEST_BIG");
}

static void test_url_syntax(void) {
  char why[512];
  static const char *const good[] = {
      "http://127.0.0.1:8080/upload", "https://jira.example.com/rest/api/3",
      "HTTPS://gitlab.example.com/api/v4/projects/5/uploads?x=1",
      "http://[::1]:9/x", "https://user:pw@host.example/"};
  for (size_t i = 0; i < ZC_ARRAY_LEN(good); i++)
    if (!ZT_TRUE(agent_attach_url_ok(good[i], why, sizeof why)))
      fprintf(stderr, "  %s: %s\n", good[i], why);
  static const struct {
    const char *u, *why;
  } bad[] = {
      {"ftp://example.com/x", "wants an http:// or https:// URL"},
      {"jira.example.com/rest", "wants an http:// or https:// URL"},
      {"http://", "no host"},
      {"https://:443/x", "no host"},
      {"https://u:p@/x", "no host"},
      {"http://exa mple.com/", "a space"},
      {"http://example.com/\n", "control character"},
  };
  for (size_t i = 0; i < ZC_ARRAY_LEN(bad); i++) {
    why[0] = '\0';
    ZT_TRUE(!agent_attach_url_ok(bad[i].u, why, sizeof why));
    ZT_HAS(why, bad[i].why);
  }
}

static void test_upload(void) {
  if (!ZT_TRUE(server_start())) return;
  setenv("ZC_TEST_TOKEN", TOKEN, 1);
  int v = zc_verbosity;
  zc_verbosity = 2;
  stderr_to_file();
  enum zc_err e = agent_attach(url("/rest/api/3/issue/ZC-1/attachments"),
                               good_headers, 2, report_dir());
  char *log = stderr_back();
  if (!ZT_INT(e, ZC_OK)) fprintf(stderr, "  %s\n", zc_errmsg());
  ZT_STR(server_line(), "POST /rest/api/3/issue/ZC-1/attachments 201 "
                        "report.html,summary.md,report.json");
  ZT_HAS(log, "zamcap: attached report.html, summary.md, report.json to "
              "http://127.0.0.1:");
  ZT_HAS(log, "/rest/api/3/issue/ZC-1/attachments: HTTP 201\n");
  ZT_TRUE(log && !strstr(log, TOKEN) && !strstr(log, "no-check"));
  free(log);

  /* ${NAME} works alike; quiet at verbosity 0. */
  static const char *const braced[] = {
      "X-Atlassian-Token:no-check", "Authorization: Bearer ${ZC_TEST_TOKEN}"};
  zc_verbosity = 0;
  stderr_to_file();
  e = agent_attach(url("/rest/api/3/issue/ZC-1/attachments"), braced, 2,
                   report_dir());
  log = stderr_back();
  ZT_INT(e, ZC_OK);
  ZT_STR(log, "");
  free(log);
  ZT_HAS(server_line(), " 201 report.html,summary.md,report.json");

  /* report.html missing: said, and the rest goes. */
  zc_verbosity = 1;
  stderr_to_file();
  e = agent_attach(url("/rest/api/3/issue/ZC-1/"
                       "attachments?dir=partial&files=summary.md,report.json"),
                   good_headers, 2, zt_tmp("trk/partial"));
  log = stderr_back();
  if (!ZT_INT(e, ZC_OK)) fprintf(stderr, "  %s\n", zc_errmsg());
  ZT_HAS(log, "zamcap: --attach: ");
  ZT_HAS(log, "partial/report.html is missing; attaching the others\n");
  ZT_HAS(log, "attached summary.md, report.json to ");
  ZT_TRUE(log && !strstr(log, "?dir=")); /* the query stays hidden */
  free(log);
  ZT_HAS(server_line(), " 201 summary.md,report.json");
  zc_verbosity = v;
}

/* The server's own checks fail when the request is wrong: here a token
 * that is not the one expected. */
static void test_server_checks(void) {
  if (!ZT_TRUE(server_start())) return;
  setenv("ZC_TEST_TOKEN", "wrong-token-9", 1);
  enum zc_err e = agent_attach(url("/rest/api/3/issue/ZC-1/attachments"),
                               good_headers, 2, report_dir());
  ZT_INT(e, ZC_E_IO);
  ZT_TRUE(ends(zc_errmsg(), ": HTTP 400: check failed: header authorization "
                            "has another value"));
  ZT_TRUE(!strstr(zc_errmsg(), "wrong-token-9"));
  ZT_HAS(server_line(), " 400 check failed");
  setenv("ZC_TEST_TOKEN", TOKEN, 1);
  /* And one header short. */
  e = agent_attach(url("/rest/api/3/issue/ZC-1/attachments"), good_headers, 1,
                   report_dir());
  ZT_HAS(zc_errmsg(),
         "HTTP 400: check failed: header x-atlassian-token missing");
  ZT_HAS(server_line(), " 400 ");
}

static void test_failures(void) {
  if (!ZT_TRUE(server_start())) return;
  setenv("ZC_TEST_TOKEN", TOKEN, 1);
  char *before = snapshot();
  char msg[2048];
  const char *u = url("/fail");

  /* HTTP 403: status, URL and the answer's first line. */
  ZT_INT(agent_attach(u, good_headers, 2, report_dir()), ZC_E_IO);
  snprintf(msg, sizeof msg, "--attach %s: HTTP 403: forbidden: bad token", u);
  ZT_STR(zc_errmsg(), msg);
  ZT_STR(server_line(), "POST /fail 403 ");

  /* The answer quotes the token back: it is starred out. */
  ZT_INT(agent_attach(url("/echo"), good_headers, 2, report_dir()), ZC_E_IO);
  ZT_TRUE(ends(zc_errmsg(), "/echo: HTTP 401: no such token: "
                            "*************** (Authorization: Bearer "
                            "***************)"));
  ZT_TRUE(!strstr(zc_errmsg(), TOKEN) && !strstr(zc_errmsg(), "s3cret"));
  ZT_STR(server_line(), "POST /echo 401 ");

  /* A redirect is not followed, and its user and query are not shown. */
  ZT_INT(agent_attach(url("/redirect"), good_headers, 2, report_dir()),
         ZC_E_IO);
  snprintf(msg, sizeof msg,
           "/redirect: HTTP 302 (a redirect to %s/moved?..., not followed)",
           base_url);
  ZT_HAS(zc_errmsg(), msg);
  ZT_TRUE(!strstr(zc_errmsg(), "pw") && !strstr(zc_errmsg(), "abc"));
  ZT_STR(server_line(), "POST /redirect 302 ");

  /* A long answer is cut. */
  ZT_INT(agent_attach(url("/long"), good_headers, 2, report_dir()), ZC_E_IO);
  ZT_HAS(zc_errmsg(), "/long: HTTP 500: xxxxxxxxxx");
  ZT_TRUE(ends(zc_errmsg(), "xxx..."));
  ZT_TRUE(strlen(zc_errmsg()) < 300);
  ZT_STR(server_line(), "POST /long 500 ");

  /* User, password and query stay out of the message. */
  int port = atoi(base_url + strlen("http://127.0.0.1:"));
  char secret_url[256];
  snprintf(secret_url, sizeof secret_url,
           "http://someone:pa55word@127.0.0.1:%d/fail?token=abc#frag", port);
  ZT_INT(agent_attach(secret_url, good_headers, 2, report_dir()), ZC_E_IO);
  snprintf(msg, sizeof msg, "--attach http://127.0.0.1:%d/fail?...: HTTP 403",
           port);
  ZT_HAS(zc_errmsg(), msg);
  ZT_TRUE(!strstr(zc_errmsg(), "pa55word") && !strstr(zc_errmsg(), "abc"));
  ZT_STR(server_line(), "POST /fail?token=abc 403 ");

  /* Nothing listens: a closed port. */
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  socklen_t al = sizeof a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, (struct sockaddr *)&a, sizeof a);
  getsockname(fd, (struct sockaddr *)&a, &al);
  close(fd);
  char closed[128];
  snprintf(closed, sizeof closed, "http://127.0.0.1:%d/upload",
           ntohs(a.sin_port));
  double t0 = zc_now_ms();
  ZT_INT(agent_attach(closed, good_headers, 2, report_dir()), ZC_E_IO);
  ZT_TRUE(zc_now_ms() - t0 < 5000);
  snprintf(msg, sizeof msg, "--attach %s: ", closed);
  ZT_HAS(zc_errmsg(), msg);
  ZT_HAS(zc_errmsg(), "onnect"); /* libcurl's words: Couldn't connect... */

  /* TLS to a server that speaks none: verification is on, the handshake
   * fails. */
  snprintf(msg, sizeof msg, "https://127.0.0.1:%d/fail", port);
  ZT_INT(agent_attach(msg, good_headers, 2, report_dir()), ZC_E_IO);
  ZT_HAS(zc_errmsg(), msg);
  ZT_TRUE(!strstr(zc_errmsg(), TOKEN));

  /* Headers: an unset variable, a malformed header. No request is made:
   * the next line the server prints is the next request's. */
  static const char *const unset[] = {"X-Atlassian-Token: no-check",
                                      "Authorization: Bearer $ZC_TEST_UNSET"};
  unsetenv("ZC_TEST_UNSET");
  ZT_INT(agent_attach(u, unset, 2, report_dir()), ZC_E_USAGE);
  ZT_STR(zc_errmsg(), "--attach-header Authorization: the environment variable "
                      "ZC_TEST_UNSET is not set");
  static const char *const malformed[] = {"Authorization Bearer " TOKEN};
  ZT_INT(agent_attach(u, malformed, 1, report_dir()), ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "--attach-header wants 'Name: value'");
  ZT_TRUE(!strstr(zc_errmsg(), TOKEN));
  ZT_INT(agent_attach("ftp://127.0.0.1/x", good_headers, 2, report_dir()),
         ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "--attach wants an http:// or https:// URL");

  /* A folder with nothing to send: one message, no log. */
  stderr_to_file();
  ZT_INT(agent_attach(u, good_headers, 2, zt_tmp("trk/empty")), ZC_E_IO);
  char *log = stderr_back();
  ZT_STR(log, "");
  free(log);
  ZT_HAS(zc_errmsg(), "--attach: nothing to attach: ");
  ZT_HAS(zc_errmsg(),
         "trk/empty has none of report.html, summary.md, report.json");

  ZT_INT(agent_attach(u, NULL, 0, report_dir()), ZC_E_IO);
  ZT_STR(server_line(), "POST /fail 403 ");

  /* Whatever failed, the report is as it was. */
  char *after = snapshot();
  ZT_STR(after, before);
  free(before);
  free(after);
}

static volatile int stop_flag;
static void on_alarm(int sig) {
  stop_flag = sig;
}

/* A server that takes the connection and never answers; a signal sets
 * the stop flag, as zamcap's SIGINT handler sets cdp_interrupted. */
static void test_interrupt(void) {
  if (!ZT_TRUE(server_start())) return;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  socklen_t al = sizeof a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (!ZT_INT(bind(fd, (struct sockaddr *)&a, sizeof a), 0) ||
      !ZT_INT(listen(fd, 4), 0)) {
    close(fd);
    return;
  }
  getsockname(fd, (struct sockaddr *)&a, &al);
  char u[128];
  snprintf(u, sizeof u, "http://127.0.0.1:%d/hang", ntohs(a.sin_port));
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, &old);
  struct itimerval it = {{0, 0}, {0, 300000}};
  setitimer(ITIMER_REAL, &it, NULL);
  stop_flag = 0;
  double t0 = zc_now_ms();
  ZT_INT(agent_attach_stoppable(u, good_headers, 2, report_dir(), &stop_flag),
         ZC_E_INTERRUPTED);
  double took = zc_now_ms() - t0;
  ZT_TRUE(took >= 250 && took < 15000); /* the hang itself is endless */
  ZT_TRUE(ends(zc_errmsg(), "/hang: interrupted"));
  sigaction(SIGALRM, &old, NULL);
  close(fd);
}

/* The header values go through the one masking every command's output
 * goes through (issue 26 follow-up): not only attach's own messages. A
 * child registers a command line's secrets as main does, masks its
 * stdout, and prints each form of them; the reports, traces and history
 * are scrubbed with the same zc_scrub. */
#define HDR_TOKEN "k3y-With@Sign-77"
static int masked_child(int fd) {
  dup2(fd, 1);
  dup2(fd, 2);
  setenv("ZC_TEST_TOKEN", TOKEN, 1);
  struct agent_args a;
  agent_args_init(&a);
  a.attach = "https://tracker.example/upload";
  a.headers[a.nheaders++] = "Authorization: Bearer $ZC_TEST_TOKEN";
  a.headers[a.nheaders++] = "X-Api-Key: " HDR_TOKEN;
  a.headers[a.nheaders++] = "X-Pair: left-half-0001 right-half-0002";
  agent_args_secrets(&a);
  agent_mask_stdout();
  char json[] =
      "{\"name\": \"" TOKEN "\", \"url\": \"/?k=k3y-With%40Sign-77\"}";
  size_t k = zc_scrub(json);
  printf("report: %s (%zu masked)\n", json, k);
  printf("raw %s %s, in a URL k3y-With%%40Sign-77, words %s %s\n", TOKEN,
         HDR_TOKEN, "left-half-0001", "right-half-0002");
  zc_log(1, "log %s %s", TOKEN, HDR_TOKEN);
  fflush(stdout);
  return 0;
}

static void test_masked_everywhere(void) {
  int fd[2];
  if (!ZT_INT(pipe(fd), 0)) return;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    int rc = masked_child(fd[1]);
    exit(rc); /* atexit: the mask thread drains */
  }
  close(fd[1]);
  char out[8192];
  size_t n = 0;
  ssize_t r;
  while (n + 1 < sizeof out &&
         (r = read(fd[0], out + n, sizeof out - 1 - n)) > 0)
    n += (size_t)r;
  out[n] = '\0';
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ZT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ZT_HAS(out, "(2 masked)");
  ZT_HAS(out, "raw ");
  ZT_HAS(out, "log ");
  static const char *const forms[] = {TOKEN,
                                      HDR_TOKEN,
                                      "k3y-With%40Sign",
                                      "left-half-0001",
                                      "right-half-0002",
                                      "s3cret"};
  for (size_t i = 0; i < ZC_ARRAY_LEN(forms); i++)
    if (!ZT_TRUE(strstr(out, forms[i]) == NULL))
      fprintf(stderr, "  %s shown in:\n%s\n", forms[i], out);
}

int main(int argc, char **argv) {
  /* The uploads go to 127.0.0.1 directly, whatever proxy is set. */
  static const char *const proxies[] = {"http_proxy",  "HTTP_PROXY",
                                        "https_proxy", "HTTPS_PROXY",
                                        "all_proxy",   "ALL_PROXY"};
  for (size_t i = 0; i < ZC_ARRAY_LEN(proxies); i++)
    unsetenv(proxies[i]);
  static const struct zt_case cases[] = {
      {"header_syntax", test_header_syntax},
      {"url_syntax", test_url_syntax},
      {"upload", test_upload},
      {"server_checks", test_server_checks},
      {"failures", test_failures},
      {"interrupt", test_interrupt},
      {"masked_everywhere", test_masked_everywhere},
  };
  int rc = ZT_RUN(cases, argc, argv);
  if (server_pid > 0) {
    fclose(server_out);
    zt_stop(server_pid);
  }
  return rc;
}
