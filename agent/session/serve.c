/* The built-in static file server: serves a build folder on 127.0.0.1,
 * on a port the kernel picks, from a thread of its own. GET and HEAD,
 * MIME types by extension, nothing outside the folder, no caching.
 *
 * One poll loop serves every connection at once, each socket
 * non-blocking: a client that does not read its answer holds only its own
 * connection (a page's second fetch goes on meanwhile), one that sends or
 * reads nothing for SRV_IDLE_MS is closed, and when all SRV_CLIENTS slots
 * are taken the longest idle connection makes room for the new one, so
 * that idle connections cannot lock the page out. */
#define _GNU_SOURCE /* realpath, accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"

#define SRV_CLIENTS 64
#define SRV_REQ_MAX 16384
#define SRV_IDLE_MS 10000.0

/* A connection: reading its request, then writing its answer (the
 * headers, then the file in pieces) through the same buffer. */
struct srv_client {
  int fd;
  int writing;
  size_t len;        /* reading: the request's bytes so far */
  size_t opos, olen; /* writing: what is left of buf to send */
  int file;          /* writing: the file, or -1 */
  off_t foff, fleft; /* its next offset and the bytes left */
  double last;       /* the last time it moved, ms */
  char req[SRV_REQ_MAX];
};

struct agent_server {
  int lfd, wake[2];
  char root[PATH_MAX];
  char url[64];
  pthread_t th;
  struct srv_client cl[SRV_CLIENTS];
};

static const char *mime_of(const char *path) {
  static const char *const m[][2] = {
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".webp", "image/webp"},
      {".ico", "image/x-icon"},
      {".wasm", "application/wasm"},
      {".txt", "text/plain; charset=utf-8"},
      {".xml", "application/xml"},
      {".woff", "font/woff"},
      {".woff2", "font/woff2"},
      {".ttf", "font/ttf"},
      {".mp4", "video/mp4"},
      {".webm", "video/webm"},
  };
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (dot && (!slash || dot > slash))
    for (size_t i = 0; i < ZC_ARRAY_LEN(m); i++)
      if (!strcasecmp(dot, m[i][0])) return m[i][1];
  return "application/octet-stream";
}

static void client_close(struct srv_client *c) {
  if (c->fd >= 0) close(c->fd);
  if (c->file >= 0) close(c->file);
  c->fd = c->file = -1;
  c->writing = 0;
}

/* The answer is the status line and a short text. */
static void reply_status(struct srv_client *c, int code, const char *text) {
  int n = snprintf(c->req, sizeof c->req,
                   "HTTP/1.1 %d %s\r\nContent-Type: "
                   "text/plain\r\nContent-Length: %zu\r\nConnection: "
                   "close\r\n\r\n%s\n",
                   code, text, strlen(text) + 1, text);
  c->opos = 0;
  c->olen = (size_t)n;
  c->fleft = 0;
  c->writing = 1;
}

static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void serve_one(struct agent_server *s, struct srv_client *c) {
  char method[8], target[4096];
  if (sscanf(c->req, "%7s %4095s", method, target) != 2) {
    reply_status(c, 400, "Bad Request");
    return;
  }
  int head = !strcmp(method, "HEAD");
  if (strcmp(method, "GET") && !head) {
    reply_status(c, 405, "Method Not Allowed");
    return;
  }
  /* Path: percent-decoded, query and fragment gone, no NUL. */
  char path[4096];
  size_t o = 0;
  for (const char *p = target;
       *p && *p != '?' && *p != '#' && o < sizeof path - 16; p++) {
    if (*p == '%' && hexv(p[1]) >= 0 && hexv(p[2]) >= 0) {
      char ch = (char)(hexv(p[1]) * 16 + hexv(p[2]));
      if (!ch) {
        reply_status(c, 400, "Bad Request");
        return;
      }
      path[o++] = ch;
      p += 2;
    } else {
      path[o++] = *p;
    }
  }
  path[o] = '\0';
  if (path[0] != '/') {
    reply_status(c, 400, "Bad Request");
    return;
  }
  /* A folder's index.html; then the one rule of a build's files
   * (buildfile.c): no dotfile, nothing out of the folder, regular files
   * only. */
  char full[PATH_MAX + 4200];
  snprintf(full, sizeof full, "%s%s", s->root, path);
  struct stat st;
  if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
    strncat(path, path[o - 1] == '/' ? "index.html" : "/index.html",
            sizeof path - strlen(path) - 1);
  int fd = agent_build_open(s->root, path, &st);
  if (fd < 0) {
    if (errno == EACCES)
      reply_status(c, 403, "Forbidden");
    else
      reply_status(c, 404, "Not Found");
    return;
  }
  c->olen = (size_t)snprintf(c->req, sizeof c->req,
                             "HTTP/1.1 200 OK\r\n"
                             "Content-Type: %s\r\nContent-Length: %lld\r\n"
                             "Cache-Control: no-store\r\nConnection: close"
                             "\r\n\r\n",
                             mime_of(path), (long long)st.st_size);
  c->opos = 0;
  c->file = fd;
  c->foff = 0;
  c->fleft = head ? 0 : st.st_size;
  c->writing = 1;
}

/* Sends what the socket takes now; 0 when the answer is whole or the
 * connection is gone (then it is closed). */
static int client_write(struct srv_client *c) {
  for (;;) {
    if (c->opos < c->olen) {
      ssize_t w =
          send(c->fd, c->req + c->opos, c->olen - c->opos, MSG_NOSIGNAL);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 1;
      if (w <= 0) break;
      c->opos += (size_t)w;
      c->last = zc_now_ms();
      continue;
    }
    if (c->fleft <= 0 || c->file < 0) break; /* all sent */
    size_t want =
        c->fleft < (off_t)sizeof c->req ? (size_t)c->fleft : sizeof c->req;
    ssize_t r = pread(c->file, c->req, want, c->foff);
    if (r <= 0) break; /* the file shrank: the answer ends short */
    c->foff += r;
    c->fleft -= r;
    c->opos = 0;
    c->olen = (size_t)r;
  }
  client_close(c);
  return 0;
}

/* A new connection, in a free slot or in that of the longest idle one. */
static void client_accept(struct agent_server *s) {
  int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd < 0) return;
  int slot = -1;
  for (int i = 0; i < SRV_CLIENTS && slot < 0; i++)
    if (s->cl[i].fd < 0) slot = i;
  if (slot < 0) {
    slot = 0;
    for (int i = 1; i < SRV_CLIENTS; i++)
      if (s->cl[i].last < s->cl[slot].last) slot = i;
    client_close(&s->cl[slot]);
  }
  struct srv_client *c = &s->cl[slot];
  c->fd = fd;
  c->file = -1;
  c->writing = 0;
  c->len = 0;
  c->last = zc_now_ms();
}

/* Reads what came of a request; answers when its headers are whole. */
static void client_read(struct agent_server *s, struct srv_client *c) {
  ssize_t r = recv(c->fd, c->req + c->len, SRV_REQ_MAX - 1 - c->len, 0);
  if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return;
  if (r <= 0) {
    client_close(c);
    return;
  }
  c->last = zc_now_ms();
  c->len += (size_t)r;
  c->req[c->len] = '\0';
  if (strstr(c->req, "\r\n\r\n"))
    serve_one(s, c);
  else if (c->len >= SRV_REQ_MAX - 1)
    reply_status(c, 431, "Request Header Fields Too Large");
  else
    return; /* the headers are still coming */
  client_write(c);
}

static void *serve_loop(void *arg) {
  struct agent_server *s = arg;
  for (;;) {
    struct pollfd pf[SRV_CLIENTS + 2];
    int map[SRV_CLIENTS + 2], n = 0;
    pf[n].fd = s->wake[0], pf[n].events = POLLIN, map[n++] = -1;
    pf[n].fd = s->lfd, pf[n].events = POLLIN, map[n++] = -2;
    for (int i = 0; i < SRV_CLIENTS; i++)
      if (s->cl[i].fd >= 0)
        pf[n].fd = s->cl[i].fd,
        pf[n].events = s->cl[i].writing ? POLLOUT : POLLIN, map[n++] = i;
    if (poll(pf, (nfds_t)n, 1000) < 0) {
      if (errno == EINTR) continue;
      return NULL;
    }
    if (pf[0].revents) return NULL; /* asked to stop */
    for (int k = 1; k < n; k++) {
      if (!pf[k].revents) continue;
      if (map[k] == -2) {
        client_accept(s);
        continue;
      }
      struct srv_client *c = &s->cl[map[k]];
      if (c->fd != pf[k].fd) continue; /* evicted by an accept above */
      if (c->writing)
        client_write(c);
      else
        client_read(s, c);
    }
    /* Connections that neither send nor read go. */
    double now = zc_now_ms();
    for (int i = 0; i < SRV_CLIENTS; i++)
      if (s->cl[i].fd >= 0 && now - s->cl[i].last > SRV_IDLE_MS)
        client_close(&s->cl[i]);
  }
}

enum zc_err agent_serve(const char *dir, struct agent_server **out) {
  *out = NULL;
  struct agent_server *s = zc_xcalloc(1, sizeof *s);
  for (int i = 0; i < SRV_CLIENTS; i++)
    s->cl[i].fd = s->cl[i].file = -1;
  s->lfd = s->wake[0] = s->wake[1] = -1;
  struct stat st;
  if (!realpath(dir, s->root) || stat(s->root, &st) != 0 ||
      !S_ISDIR(st.st_mode)) {
    free(s);
    return zc_fail(ZC_E_USAGE, "%s: not a folder to serve", dir);
  }
  s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* loopback only */
  a.sin_port = 0;                             /* the kernel picks */
  socklen_t al = sizeof a;
  if (s->lfd < 0 || bind(s->lfd, (struct sockaddr *)&a, sizeof a) != 0 ||
      listen(s->lfd, 64) != 0 ||
      getsockname(s->lfd, (struct sockaddr *)&a, &al) != 0 ||
      pipe(s->wake) != 0) {
    enum zc_err e = zc_fail(ZC_E_IO, "serving %s: %s", dir, strerror(errno));
    agent_server_free(s);
    return e;
  }
  snprintf(s->url, sizeof s->url, "http://127.0.0.1:%u/",
           (unsigned)ntohs(a.sin_port));
  if (pthread_create(&s->th, NULL, serve_loop, s) != 0) {
    close(s->wake[0]);
    s->wake[0] = -1; /* no thread to join */
    agent_server_free(s);
    return zc_fail(ZC_E_INTERNAL, "cannot start the file server thread");
  }
  *out = s;
  return ZC_OK;
}

const char *agent_server_url(const struct agent_server *s) {
  return s->url;
}

void agent_server_free(struct agent_server *s) {
  if (!s) return;
  if (s->wake[1] >= 0) {
    if (write(s->wake[1], "x", 1) < 0) {
    }
    if (s->wake[0] >= 0) pthread_join(s->th, NULL);
  }
  for (int i = 0; i < SRV_CLIENTS; i++)
    client_close(&s->cl[i]);
  if (s->lfd >= 0) close(s->lfd);
  if (s->wake[0] >= 0) close(s->wake[0]);
  if (s->wake[1] >= 0) close(s->wake[1]);
  free(s);
}

enum zc_err agent_build_base(const char *opt, const char *arg,
                             struct agent_server **srv, const char **base) {
  struct stat st;
  *srv = NULL;
  if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
    enum zc_err e = agent_serve(arg, srv);
    if (e) return e;
    *base = agent_server_url(*srv);
    zc_log(1, "serving %s at %s", arg, *base);
    return ZC_OK;
  }
  if (!strstr(arg, "://") && strncmp(arg, "about:", 6) &&
      strncmp(arg, "data:", 5))
    return zc_fail(ZC_E_USAGE, "%s %s: neither a URL nor a folder", opt, arg);
  *base = arg;
  return ZC_OK;
}
