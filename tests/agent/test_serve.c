/* The built-in static file server: what it serves, with which types, and
 * what it refuses (paths out of the folder, other methods). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "serve.h"
#include "test.h"

/* One raw HTTP request; the whole response comes back (caller frees). */
static char *request(const char *url, const char *raw) {
  int port = 0;
  sscanf(url, "http://127.0.0.1:%d/", &port);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  /* a server that does not answer fails the test instead of hanging it */
  struct timeval tv = {8, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    close(fd);
    return NULL;
  }
  if (write(fd, raw, strlen(raw)) < 0) {
  }
  struct zc_buf b;
  zc_buf_init(&b, 1 << 24);
  char chunk[4096];
  ssize_t n;
  while ((n = read(fd, chunk, sizeof chunk)) > 0)
    ZT_INT(zc_buf_add(&b, chunk, (size_t)n), ZC_OK);
  close(fd);
  return zc_buf_take(&b);
}

/* A connection that sends raw and then reads nothing; its fd. */
static int stall(const char *url, const char *raw) {
  int port = 0;
  sscanf(url, "http://127.0.0.1:%d/", &port);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  /* a small receive window, so that a large answer stalls early */
  int small = 4096;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    close(fd);
    return -1;
  }
  if (write(fd, raw, strlen(raw)) < 0) {
  }
  return fd;
}

static char *get(const char *url, const char *path) {
  char raw[1024];
  snprintf(raw, sizeof raw, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
  return request(url, raw);
}

static void test_serve(void) {
  const char *dir = zt_tmp("site");
  zt_sh(NULL,
        "mkdir -p '%s/sub' && echo '<p>hi' > '%s/index.html' && "
        "echo 'let a = 1;' > '%s/sub/app.3f9a1c2e.js' && echo '{}' > "
        "'%s/d.json' && printf 'x' > '%s/sub/blob.bin' && echo secret > '%s/../"
        "secret.txt' && ln -sf /etc/hostname '%s/link' && mkdir -p '%s/.git' "
        "&& echo secret > '%s/.git/config' && echo secret > '%s/.env' && "
        "echo secret > '%s/sub/.hidden' && ln -sf .env '%s/env-link'",
        dir, dir, dir, dir, dir, zt_tmp(""), dir, dir, dir, dir, dir, dir);
  struct agent_server *s = NULL;
  if (!ZT_INT(agent_serve(dir, &s), ZC_OK)) return;
  const char *url = agent_server_url(s);
  ZT_TRUE(!strncmp(url, "http://127.0.0.1:", 17));
  char *r = get(url, "/");
  ZT_HAS(r, "HTTP/1.1 200 OK");
  ZT_HAS(r, "Content-Type: text/html; charset=utf-8");
  ZT_HAS(r, "\r\n\r\n<p>hi");
  free(r);
  r = get(url, "/sub/app.3f9a1c2e.js?v=3#x");
  ZT_HAS(r, "Content-Type: text/javascript");
  ZT_HAS(r, "Content-Length: 11");
  free(r);
  r = get(url, "/d.json");
  ZT_HAS(r, "Content-Type: application/json");
  free(r);
  r = get(url, "/sub/blob.bin");
  ZT_HAS(r, "application/octet-stream");
  free(r);
  r = get(url, "/sub%2Fapp.3f9a1c2e.js");
  ZT_HAS(r, "200 OK");
  free(r);
  /* Nothing outside the folder, however it is asked for. */
  static const char *const escapes[] = {
      "/../secret.txt", "/%2e%2e/secret.txt", "/sub/../../secret.txt", "/link",
      "/nope.html", "/sub/%00x",
      /* a checkout's dotfiles */
      "/.env", "/.git/config", "/sub/.hidden", "/%2eenv", "/sub/./.hidden",
      "/env-link"};
  for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
    r = get(url, escapes[i]);
    ZT_TRUE(r && (strstr(r, "404 Not Found") || strstr(r, "400 Bad")));
    ZT_TRUE(r && !strstr(r, "secret"));
    free(r);
  }
  r = request(url, "HEAD /index.html HTTP/1.1\r\n\r\n");
  ZT_HAS(r, "Content-Length: 6"); /* "<p>hi\n" */
  ZT_TRUE(r && !strstr(r, "<p>hi"));
  free(r);
  r = request(url, "POST /index.html HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
  ZT_HAS(r, "405 Method Not Allowed");
  free(r);
  r = request(url, "garbage\r\n\r\n");
  ZT_HAS(r, "400 Bad Request");
  free(r);
  agent_server_free(s);
  ZT_INT(agent_serve(zt_tmp("no-such-dir"), &s), ZC_E_USAGE);
  ZT_HAS(zc_errmsg(), "not a folder to serve");
}

/* Connections do not wait on each other: a client that asked for 32 MB
 * and reads none of it, and 64 idle connections with half a request, do
 * not stop the page's next request; stopping the server with them still
 * open returns at once. */
static void test_concurrent(void) {
  const char *dir = zt_tmp("busy-site");
  zt_sh(NULL,
        "mkdir -p '%s' && echo '<p>hi' > '%s/index.html' && "
        "head -c 33554432 /dev/zero > '%s/big.bin'",
        dir, dir, dir);
  struct agent_server *s = NULL;
  if (!ZT_INT(agent_serve(dir, &s), ZC_OK)) return;
  const char *url = agent_server_url(s);
  int slow = stall(url, "GET /big.bin HTTP/1.1\r\n\r\n");
  ZT_TRUE(slow >= 0);
  zc_sleep_ms(200); /* the server fills the socket and must wait */
  double t0 = zc_now_ms();
  char *r = get(url, "/index.html");
  ZT_HAS(r, "\r\n\r\n<p>hi");
  free(r);
  int idle[64];
  for (int i = 0; i < 64; i++)
    idle[i] = stall(url, "GET /index.h");
  zc_sleep_ms(200);
  r = get(url, "/index.html");
  ZT_HAS(r, "\r\n\r\n<p>hi");
  free(r);
  ZT_TRUE(zc_now_ms() - t0 < 5000); /* not the 10 s idle limit */
  double t1 = zc_now_ms();
  agent_server_free(s);
  ZT_TRUE(zc_now_ms() - t1 < 3000);
  close(slow);
  for (int i = 0; i < 64; i++)
    if (idle[i] >= 0) close(idle[i]);
}

int main(int argc, char **argv) {
  static const struct zt_case cases[] = {
      {"serve", test_serve},
      {"concurrent", test_concurrent},
  };
  return ZT_RUN(cases, argc, argv);
}
