/* serve: builds as the browser reaches them. A build folder is served on
 * 127.0.0.1 by zamcap itself (serve.c), by one rule of what a file of
 * that build is (buildfile.c), which the map finder (maps.c) follows too.
 *
 * Ownership: arguments are borrowed. */
#ifndef AGENT_SERVE_H
#define AGENT_SERVE_H

#include <stddef.h>

#include "zc.h"

struct stat;

/* The built-in static file server (serve.c): dir on 127.0.0.1, on an
 * ephemeral port, until agent_server_free. */
struct agent_server;
enum zc_err agent_serve(const char *dir, struct agent_server **out);
const char *agent_server_url(const struct agent_server *s); /* ends in / */
void agent_server_free(struct agent_server *s);

/* A file of a build folder, by the one rule of the built-in server and
 * the map finder: path ('/'-separated, percent-decoded, relative to root,
 * which realpath resolved) has no segment that starts with '.'; resolved,
 * it lies under root, with no dotfile on the way (a link inside the
 * folder is followed, one out of it is not); it is a regular file (a
 * FIFO is opened without blocking and refused). Returns a descriptor open
 * for reading, with *st filled, or -1 and errno (ENOENT: not a file of
 * this build). */
int agent_build_open(const char *root, const char *path, struct stat *st);
/* Such a file's bytes (NUL-terminated, caller frees), or NULL: not one, or
 * over max bytes. */
char *agent_build_read(const char *root, const char *path, size_t max,
                       size_t *n);

/* A build given on the command line (opt names the option, for messages):
 * a folder is served (*srv set, free it) and *base is its URL; a URL
 * (scheme://…, about:, data:) is *base as it is. Else ZC_E_USAGE. */
enum zc_err agent_build_base(const char *opt, const char *arg,
                             struct agent_server **srv, const char **base);

#endif
