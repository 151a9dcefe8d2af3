/* attach: uploads a finished report to a bug tracker or any endpoint that
 * takes files as multipart/form-data (--attach URL, --attach-header H).
 *
 * Header values may name environment variables ($NAME, ${NAME}; $$ is a
 * literal $), expanded at upload time, so that tokens stay out of shell
 * history. A header value, expanded or not, never appears in a message:
 * only header names and variable names do.
 *
 * Ownership: arguments are borrowed. */
#ifndef AGENT_ATTACH_H
#define AGENT_ATTACH_H

#include <stddef.h>

#include "zc.h"

/* The files attached, in this order, those of them that exist in the
 * output folder. */
extern const char *const agent_attach_files[3];

/* Checks one --attach-header before anything is captured: "Name: value"
 * with Name an HTTP token, not one zamcap sets itself (Content-Type,
 * Content-Length, Transfer-Encoding), a value that is not empty, has no
 * control characters, and whose variables are set and expand to a clean
 * value. Returns 1 if h is good; else 0 with a one-line reason in why (cap
 * bytes), e.g. "--attach-header Authorization: the environment variable
 * ZC_TOKEN is not set", fit to print after "zamcap: ". */
int agent_attach_header_ok(const char *h, char *why, size_t cap);
/* Registers header h's secrets with zc_secret_add_forms: its expanded
 * value, each long word of it and the environment variables' values, so
 * that the one masking every command's output goes through hides them
 * (terminal, reports, traces, history), not only attach's own messages. */
void agent_attach_header_secrets(const char *h);

/* Checks an --attach URL early in the same way: http:// or https://, a
 * host, no spaces or control characters. */
int agent_attach_url_ok(const char *url, char *why, size_t cap);

/* POSTs report.html, summary.md and report.json from outdir to url in one
 * multipart/form-data request, each a part named "file" with its base name
 * as filename, with the nheaders headers (expanded as above) added. A file
 * that is missing is said at verbosity 1 and the rest go; none at all is
 * ZC_E_IO. No redirect is followed; TLS is verified ($CURL_CA_BUNDLE names
 * another CA bundle); connecting may take 10 s and the whole upload 120 s.
 *
 * On a 2xx answer logs the status at verbosity 1 and returns ZC_OK. Else
 * returns an error (zc_errmsg): ZC_E_USAGE for a bad header or URL,
 * ZC_E_IO for a transfer that failed or a status other than 2xx, naming
 * the URL (without user, password or query), the HTTP status and the
 * first line of the answer (cut at 200 bytes, header values starred
 * out); ZC_E_INTERRUPTED within a second of *stop turning non-zero (pass
 * &cdp_interrupted; NULL: never). Nothing in outdir is changed. */
enum zc_err agent_attach_stoppable(const char *url, const char *const *headers,
                                   unsigned nheaders, const char *outdir,
                                   const volatile int *stop);
/* The same, not stoppable. */
enum zc_err agent_attach(const char *url, const char *const *headers,
                         unsigned nheaders, const char *outdir);

/* One request to a bug tracker's API (tracker.c), sent as --attach sends
 * its upload (no redirect, TLS verified, the same limits): method, url,
 * nheaders full header lines (their values never appear in a message),
 * and a body (body_len bytes, its Content-Type among the headers), or
 * else nfiles files as multipart parts named field ("file" when NULL).
 * On ZC_OK the server answered: status, retry_after (the seconds its
 * Retry-After asked for, -1 when none) and answer (its body, at most 4
 * MiB, NUL-terminated; free it) are set, whatever the status. Else
 * ZC_E_IO (the transfer failed; the message names method and URL) or
 * ZC_E_INTERRUPTED (*stop turned non-zero). */
struct agent_http {
  const char *method, *url; /* in */
  const char *const *headers;
  unsigned nheaders;
  const char *body;
  size_t body_len;
  const char *const *files;
  unsigned nfiles;
  const char *field;
  const volatile int *stop;
  long status, retry_after; /* out */
  char *answer;
};
enum zc_err agent_http_send(struct agent_http *q);

/* An answer's first line for a message: shortened to 200 bytes, control
 * characters as '?', the registered secrets starred out. */
void agent_http_line(const char *body, char *out, size_t cap);

#endif
