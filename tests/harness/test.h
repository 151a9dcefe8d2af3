/* A tiny test harness: typed asserts that print both operands, a runner,
 * and the closing "N passed, N failed" line. A failed check does not stop
 * the test function, so one run shows every failure. */
#ifndef ZT_TEST_H
#define ZT_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

extern int zt_failed_checks;

void zt_fail_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int zt_int_eq(const char *f, int l, const char *ea, const char *eb, long long a,
              long long b);
int zt_dbl_near(const char *f, int l, const char *ea, const char *eb, double a,
                double b, double eps);
int zt_str_eq(const char *f, int l, const char *ea, const char *eb,
              const char *a, const char *b);
int zt_str_has(const char *f, int l, const char *ea, const char *hay,
               const char *needle);

int zt_true(const char *f, int l, const char *ex, int v);
#define ZT_TRUE(x) zt_true(__FILE__, __LINE__, #x, (x) ? 1 : 0)
#define ZT_INT(a, b)                                                           \
  zt_int_eq(__FILE__, __LINE__, #a, #b, (long long)(a), (long long)(b))
#define ZT_NEAR(a, b, eps)                                                     \
  zt_dbl_near(__FILE__, __LINE__, #a, #b, (double)(a), (double)(b), (eps))
#define ZT_STR(a, b) zt_str_eq(__FILE__, __LINE__, #a, #b, (a), (b))
#define ZT_HAS(hay, needle)                                                    \
  zt_str_has(__FILE__, __LINE__, #hay, (hay), (needle))

/* Marks the running case as skipped, with the reason: what this machine
 * lacks. The case is then counted neither passed nor failed, and the
 * closing line says how many were skipped. */
void zt_skip(const char *why);

struct zt_case {
  const char *name;
  void (*fn)(void);
};
/* Runs the cases (all, or those named on the command line), prints one
 * line each and the totals; returns the exit status: 0 when none failed
 * and one passed, ZT_EXIT_SKIPPED when every case run was skipped, else
 * 1. */
#define ZT_EXIT_SKIPPED 77
int zt_run(const struct zt_case *cases, size_t n, int argc, char **argv);
#define ZT_RUN(cases, argc, argv)                                              \
  zt_run((cases), sizeof(cases) / sizeof((cases)[0]), (argc), (argv))

/* Files for tests: ZC_TMP (a fresh folder per test program) and ZC_DATA
 * (tests/data). Paths live in 32 rotating static buffers: no more than 32
 * in one expression. */
const char *zt_tmp(const char *name);
const char *zt_data(const char *name);
/* A path in the source tree's tests/ folder, or in the demo apps'
 * scenarios/demo/, as printf makes it from fmt: zt_demo("%s/old", app). */
const char *zt_tests(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
const char *zt_demo(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void zt_write(const char *path, const void *data, size_t n);
void zt_write_str(const char *path, const char *s);
char *zt_read(const char *path); /* caller frees; NULL if absent */
/* The zamcap under test: $ZAMCAP, else ./zamcap (the build folder). */
const char *zt_zamcap(void);
/* A file of the Chromium tests' page folder tests/agent/APP/. */
const char *zt_agent_app(const char *app, const char *f);
/* Runs a shell command; returns its exit status, its stdout and stderr
 * in *out (caller frees) when out is not NULL. */
int zt_sh(char **out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int zt_vsh(char **out, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* What vsnprintf makes of fmt, in a string of its own (caller frees). */
char *zt_vformat(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

/* Runs zamcap with the arguments fmt makes (words of a shell command
 * line: "compare '%s' '%s' --out '%s'"), as zt_sh runs a command. When
 * zamcap says it found no Chrome to run (no chromium on PATH, or
 * CHROME_PATH naming nothing), the program ends there as zt_skip_rest
 * ends it: a machine without Chromium skips, never fails. A test of that
 * very message runs zamcap through zt_sh. */
int zt_run_zamcap(char **out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* For a program whose cases drive Chromium: when zamcap would find no
 * Chrome here (its own search, cdp_find_chrome: CHROME_PATH, else
 * chromium or google-chrome on PATH), zt_skip_rest. */
void zt_need_chrome(void);
/* Skips the running case and every case after it, and ends the program
 * with ZT_EXIT_SKIPPED, which CTest shows as skipped (1 if a check has
 * already failed). For what the machine lacks, such as Chromium. */
void zt_skip_rest(const char *why) __attribute__((noreturn));

/* JSON files, such as the report.json zamcap writes. cJSON's own header
 * is the test's to include. */
struct cJSON;
/* The JSON file at the path printf makes from fmt, parsed (caller frees
 * with cJSON_Delete); a file missing or not JSON is a failed check and
 * NULL. */
struct cJSON *zt_json(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* The member of o at path, keys and array indices joined by dots
 * ("verdict.exit_code", "runs.0.trace"), or NULL. */
const struct cJSON *zt_jget(const struct cJSON *o, const char *path);
/* That member's number, or -1e9 when it is not one (no measured figure
 * is that, and it still converts to int); its string, or "". */
double zt_jnum(const struct cJSON *o, const char *path);
const char *zt_jstr(const struct cJSON *o, const char *path);

/* Whether exit code rc of a comparison whose report.json is in folder
 * dir is a verdict: 0 or 1, or 5 with the report saying why the pairs
 * could not decide (issue 34: a loaded machine is inconclusive, never
 * "not slower"). Checks it, for tests whose subject is not the verdict. */
int zt_verdict_ok(int rc, const char *dir);

/* A loopback TCP port that refuses connections whatever else the machine
 * runs: bound by *fd but not listening. Close *fd when done. */
int zt_refused_port(int *fd);

/* Starts a shell command in the background with its stdout on a pipe;
 * *out reads it. Returns the pid (its own process group), or -1. */
int zt_spawn(const char *cmd, FILE **out);
/* Ends a spawned command's group and reaps it. */
void zt_stop(int pid);
/* Starts a headless Chromium of the test's own (CHROME_PATH, else
 * chromium; the flags of the e2e tests) on the profile folder, with
 * DevTools on a port it picks, and waits up to wait_ms for its
 * DevToolsActivePort: *port gets the port (0 when it did not come), path
 * (cap bytes) the browser's WebSocket path, *out its stdout. Returns the
 * pid for zt_stop, or -1. */
int zt_chrome_devtools(const char *profile, int wait_ms, int *port, char *path,
                       size_t cap, FILE **out);
/* Processes left in process group pgid, after waiting up to wait_ms for
 * them to go. */
int zt_group_alive(int pgid, double wait_ms);
/* Checks, from a zamcap -v log ("started ... (pid N, profile P)"), that
 * the Chrome it started left no process of its group and its profile
 * folder is gone. */
void zt_no_orphan(const char *log);

/* 1 in a build with AddressSanitizer, whose shadow memory needs far more
 * address space than any cap a test would set (RLIMIT_AS, ulimit -v):
 * such a test caps the resident size instead (ASAN_OPTIONS'
 * hard_rss_limit_mb, or the peak measured after). */
#if defined(__SANITIZE_ADDRESS__)
#define ZT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZT_ASAN 1
#endif
#endif
#ifndef ZT_ASAN
#define ZT_ASAN 0
#endif

#endif
