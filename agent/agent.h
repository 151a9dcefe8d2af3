/* agent: the zamcap command line. Subcommands live in their own files and
 * share the output-folder helpers here. Arguments are borrowed. */
#ifndef AGENT_H
#define AGENT_H

#include "zc.h"

int agent_compare(int argc, char **argv);

int agent_tree(int argc, char **argv);
int agent_html(int argc, char **argv); /* zamcap html OUT */
int agent_record(int argc, char **argv);
/* zamcap SCENARIO --old ... --new ...: argv[0] is the scenario. */
int agent_run(int argc, char **argv);

/* The exit code for an error (DESIGN.md); interrupted is 128 + signal. */
int agent_exit_for(enum zc_err e);

/* Prints "zamcap: msg" and "try 'zamcap CMD --help'" and returns 2. */
int agent_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parses a non-negative number of milliseconds (or a count); returns 0 if
 * s is not one. */
int agent_parse_ms(const char *s, double *out);
int agent_parse_uint(const char *s, unsigned *out);

/* Makes the output folder: dir itself when given, else
 * zamcap-out/<UTC timestamp>/ with a "latest" link beside it. Sets *out
 * (caller frees). */
enum zc_err agent_outdir(const char *dir, char **out);

/* The built-in static file server (serve.c): dir on 127.0.0.1, on an
 * ephemeral port, until agent_server_free. */
struct agent_server;
enum zc_err agent_serve(const char *dir, struct agent_server **out);
const char *agent_server_url(const struct agent_server *s); /* ends in / */
void agent_server_free(struct agent_server *s);

/* A build given on the command line (opt names the option, for messages):
 * a folder is served (*srv set, free it) and *base is its URL; a URL
 * (scheme://…, about:, data:) is *base as it is. Else ZC_E_USAGE. */
enum zc_err agent_build_base(const char *opt, const char *arg,
                             struct agent_server **srv, const char **base);

#endif
