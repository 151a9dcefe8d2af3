/* The trace reader's added cost of I/O (issue 36): prints figures,
 * asserts nothing (docs/io.md records them). Each measurement runs in a
 * forked child, so that its peak RSS is its own, best of 3.
 *
 *   zc_bench_io [--requests N] [--mb MB] [--dir DIR]
 *
 * Writes a trace of about MB MB (default 100) holding N requests
 * (default 50 000: ResourceSendRequest with a one-frame stackTrace,
 * ResourceReceiveResponse with headers, ResourceReceivedData,
 * ResourceFinish), zamcap's step marks, a CPU profile and filler tasks,
 * and the .io.json an I/O run keeps beside it (a 12-frame stack for each
 * request, 1 000 stacks in all). Then measures:
 *   1. ana_load as the timed pairs read it: the requests not read;
 *   2. ana_load with the requests read too (ana_ctx_set_io 1);
 *   3. an I/O run read as the I/O pairs read it: the trace without its
 *      CPU profile, and the .io.json (ana__io_read);
 *   4. a whole I/O pair: both runs read, five timelines each, compared
 *      (ana_io_add). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ana.h"
#include "timeline.h"
#include "zam/io.h"

struct result {
  double ms, rss_mb;
  double n;
};

static double peak_rss_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

static int measure(void (*fn)(const void *, struct result *), const void *arg,
                   struct result *r) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    struct result x = {0};
    fn(arg, &x);
    x.rss_mb = peak_rss_mb();
    if (write(fd[1], &x, sizeof x) != (ssize_t)sizeof x) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  ssize_t n = read(fd[0], r, sizeof *r);
  close(fd[0]);
  int st;
  waitpid(pid, &st, 0);
  return n == (ssize_t)sizeof *r && WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

/* ---- the trace ---- */

static void ev(FILE *f, int *first, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void ev(FILE *f, int *first, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs(*first ? "\n" : ",\n", f);
  *first = 0;
  vfprintf(f, fmt, ap);
  va_end(ap);
}

#define PID 4242
#define TID 4242

static void write_profile(FILE *f, int *first, long long ts, int samples) {
  ev(f, first,
     "{\"args\":{\"data\":{\"startTime\":%lld}},\"cat\":"
     "\"disabled-by-default-v8.cpu_profiler\",\"id\":\"0x1\",\"name\":"
     "\"Profile\",\"ph\":\"P\",\"pid\":%d,\"tid\":%d,\"ts\":%lld}",
     ts, PID, TID, ts);
  fputs(",\n{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":["
        "{\"callFrame\":{\"codeType\":\"other\",\"functionName\":\"(root)\","
        "\"scriptId\":0},\"id\":1},"
        "{\"callFrame\":{\"codeType\":\"JS\",\"functionName\":\"render\","
        "\"scriptId\":7,\"url\":\"http://127.0.0.1:8080/app.js\","
        "\"lineNumber\":10,\"columnNumber\":2},\"id\":2,\"parent\":1},"
        "{\"callFrame\":{\"codeType\":\"JS\",\"functionName\":\"fetchJSON\","
        "\"scriptId\":7,\"url\":\"http://127.0.0.1:8080/app.js\","
        "\"lineNumber\":30,\"columnNumber\":2},\"id\":3,\"parent\":2}],"
        "\"samples\":[",
        f);
  for (int i = 0; i < samples; i++)
    fprintf(f, "%s%d", i ? "," : "", 2 + i % 2);
  fputs("]},\"timeDeltas\":[", f);
  for (int i = 0; i < samples; i++)
    fprintf(f, "%s%d", i ? "," : "", 100);
  fprintf(f,
          "]}},\"cat\":\"disabled-by-default-v8.cpu_profiler\",\"id\":"
          "\"0x1\",\"name\":\"ProfileChunk\",\"ph\":\"P\",\"pid\":%d,"
          "\"tid\":%d,\"ts\":%lld}",
          PID, TID, ts + 1);
}

/* One request's four events, about 2 KB. */
static void write_request(FILE *f, int *first, long n, long long ts) {
  ev(f, first,
     "{\"args\":{\"data\":{\"fetchPriorityHint\":\"auto\",\"frame\":"
     "\"7C43DD49FAC7B04C20FF8D16188B30A5\",\"initiator\":{\"fetchType\":"
     "\"fetch\",\"type\":\"script\"},\"isLinkPreload\":false,\"priority\":"
     "\"High\",\"requestId\":\"%d.%ld\",\"requestMethod\":\"GET\","
     "\"resourceType\":\"Other\",\"sampleTraceId\":10565137293%05ld,"
     "\"stackTrace\":[{\"columnNumber\":46,\"functionName\":\"fetchJSON\","
     "\"lineNumber\":31,\"scriptId\":\"7\",\"url\":"
     "\"http://127.0.0.1:8080/app.js\"}],\"url\":"
     "\"http://127.0.0.1:8080/api/item/%ld?token=abc\"}},\"cat\":"
     "\"devtools.timeline\",\"name\":\"ResourceSendRequest\",\"ph\":\"I\","
     "\"pid\":%d,\"s\":\"t\",\"tid\":%d,\"ts\":%lld,\"tts\":42226}",
     PID, n, n % 100000, n, PID, TID, ts);
  ev(f, first,
     "{\"args\":{\"data\":{\"connectionId\":21,\"connectionReused\":true,"
     "\"encodedDataLength\":124,\"frame\":\"7C43DD49FAC7B04C20FF8D16188B30A5\""
     ",\"fromCache\":false,\"fromServiceWorker\":false,\"headers\":[{\"name\":"
     "\"Cache-Control\",\"value\":\"no-store\"},{\"name\":\"Content-Length\","
     "\"value\":\"216\"},{\"name\":\"Content-Type\",\"value\":"
     "\"application/json\"},{\"name\":\"Connection\",\"value\":\"close\"}],"
     "\"mimeType\":\"application/json\",\"protocol\":\"http/1.1\","
     "\"requestId\":\"%d.%ld\",\"responseTime\":1795825195609.544,"
     "\"statusCode\":200,\"timing\":{\"connectEnd\":-1,\"connectStart\":-1,"
     "\"dnsEnd\":-1,\"dnsStart\":-1,\"proxyEnd\":-1,\"proxyStart\":-1,"
     "\"pushEnd\":0,\"pushStart\":0,\"receiveHeadersEnd\":4.276,"
     "\"receiveHeadersStart\":1.928,\"requestTime\":6900.619025,\"sendEnd\":"
     "1.813,\"sendStart\":1.117,\"sslEnd\":-1,\"sslStart\":-1,\"workerReady\":"
     "-1,\"workerStart\":-1}}},\"cat\":\"devtools.timeline\",\"name\":"
     "\"ResourceReceiveResponse\",\"ph\":\"I\",\"pid\":%d,\"s\":\"t\","
     "\"tid\":%d,\"ts\":%lld,\"tts\":42275}",
     PID, n, PID, TID, ts + 300);
  ev(f, first,
     "{\"args\":{\"data\":{\"encodedDataLength\":216,\"frame\":"
     "\"7C43DD49FAC7B04C20FF8D16188B30A5\",\"requestId\":\"%d.%ld\"}},"
     "\"cat\":\"devtools.timeline\",\"name\":\"ResourceReceivedData\","
     "\"ph\":\"I\",\"pid\":%d,\"s\":\"t\",\"tid\":%d,\"ts\":%lld,\"tts\":"
     "43630}",
     PID, n, PID, TID, ts + 400);
  ev(f, first,
     "{\"args\":{\"data\":{\"decodedBodyLength\":216,\"didFail\":false,"
     "\"encodedDataLength\":340,\"finishTime\":6900.623759,\"requestId\":"
     "\"%d.%ld\"}},\"cat\":\"devtools.timeline\",\"name\":\"ResourceFinish\","
     "\"ph\":\"I\",\"pid\":%d,\"s\":\"t\",\"tid\":%d,\"ts\":%lld,\"tts\":"
     "49457}",
     PID, n, PID, TID, ts + 500);
}

/* A filler task: what else a trace holds, read past by the scanner. */
static void write_filler(FILE *f, int *first, long long ts) {
  ev(f, first,
     "{\"args\":{\"data\":{\"frame\":\"7C43DD49FAC7B04C20FF8D16188B30A5\","
     "\"stackTrace\":[{\"columnNumber\":2,\"functionName\":\"render\","
     "\"lineNumber\":11,\"scriptId\":\"7\",\"url\":"
     "\"http://127.0.0.1:8080/app.js\"}],\"type\":\"click\"}},\"cat\":"
     "\"devtools.timeline\",\"dur\":120,\"name\":\"EventDispatch\",\"ph\":"
     "\"X\",\"pid\":%d,\"tdur\":110,\"tid\":%d,\"ts\":%lld,\"tts\":1}",
     PID, TID, ts);
}

static int write_trace(const char *path, long requests, double mb) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int first = 1;
  fputs("{\"traceEvents\":[", f);
  ev(f, &first,
     "{\"args\":{\"name\":\"CrRendererMain\"},\"cat\":\"__metadata\","
     "\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"ts\":0}",
     PID, TID);
  long long ts = 1000000;
  ev(f, &first,
     "{\"args\":{},\"cat\":\"blink.user_timing\",\"name\":"
     "\"zamcap:step:1:click\",\"ph\":\"I\",\"pid\":%d,\"s\":\"t\",\"tid\":"
     "%d,\"ts\":%lld}",
     PID, TID, ts);
  write_profile(f, &first, ts, 20000);
  double target = mb * 1e6;
  for (long n = 1; n <= requests; n++, ts += 1000)
    write_request(f, &first, n, ts);
  while ((double)ftell(f) < target)
    write_filler(f, &first, ts += 200);
  ev(f, &first,
     "{\"args\":{},\"cat\":\"blink.user_timing\",\"name\":\"zamcap:end\","
     "\"ph\":\"I\",\"pid\":%d,\"s\":\"t\",\"tid\":%d,\"ts\":%lld}",
     PID, TID, ts + 1000);
  fputs("\n]}\n", f);
  return fclose(f);
}

/* The .io.json: 1 000 stacks of 12 frames, each request one of them. */
static int write_sidecar(const char *path, long requests) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  fputs("{\"schema\":\"zamcap-io/1\",\"stacks\":[", f);
  for (int s = 0; s < 1000; s++) {
    fputs(s ? ",\n[" : "\n[", f);
    for (int k = 0; k < 12; k++)
      fprintf(f, "%s[\"fn%d_%d\",\"http://127.0.0.1:8080/app.js\",%d,4]",
              k ? "," : "", k, k ? s % (k + 3) : s, 10 * k + 1);
    fputs("]", f);
  }
  fputs("],\n\"requests\":[", f);
  for (long n = 1; n <= requests; n++)
    fprintf(f,
            "%s\n{\"id\":\"%d.%ld\",\"step\":1,\"stack\":%ld,\"method\":"
            "\"GET\",\"url\":\"http://127.0.0.1:8080/api/item/%ld\","
            "\"type\":\"Fetch\",\"initiator\":\"script\",\"sent\":0,"
            "\"encoded\":340,\"decoded\":216,\"status\":200}",
            n > 1 ? "," : "", PID, n, n % 1000, n);
  fputs("],\n\"writes\":[],\"wrapper\":{\"frames\":1,\"frames_failed\":0},"
        "\"totals\":{\"writes\":0,\"write_bytes\":0},\"caps\":{}}\n",
        f);
  return fclose(f);
}

/* ---- measurements ---- */

struct job {
  const char *trace;
  int io; /* ana_ctx_set_io */
};

static void do_load(const void *arg, struct result *r) {
  const struct job *j = arg;
  struct ana_ctx *c = ana_ctx_new();
  ana_ctx_set_io(c, j->io);
  struct ana_timeline *tl = NULL;
  double t0 = zc_now_ms();
  if (ana_load(c, j->trace, &tl)) {
    fprintf(stderr, "zc_bench_io: %s\n", zc_errmsg());
    _exit(1);
  }
  r->ms = zc_now_ms() - t0;
  r->n = tl->io ? (double)tl->io->nitems : (double)tl->samples;
}

static void do_read(const void *arg, struct result *r) {
  const struct job *j = arg;
  struct ana_ctx *c = ana_ctx_new();
  struct ana_io_run *run = NULL;
  double t0 = zc_now_ms();
  if (ana__io_read(c, j->trace, &run)) {
    fprintf(stderr, "zc_bench_io: %s\n", zc_errmsg());
    _exit(1);
  }
  r->ms = zc_now_ms() - t0;
  r->n = (double)run->nitems;
}

static void do_pair(const void *arg, struct result *r) {
  const struct job *j = arg;
  struct ana_opts o;
  ana_opts_default(&o);
  struct ana_io *io = ana_io_new(&o, 5, 100, NULL, 1);
  double t0 = zc_now_ms();
  if (ana_io_add(io, j->trace, j->trace)) {
    fprintf(stderr, "zc_bench_io: %s\n", zc_errmsg());
    _exit(1);
  }
  unsigned n;
  struct io_cause *c = ana__io_causes(io, &n);
  r->ms = zc_now_ms() - t0;
  r->n = n;
  ana__io_causes_free(c, n);
}

static void best_of(const char *what, void (*fn)(const void *, struct result *),
                    const struct job *j, double mb) {
  struct result best = {0}, x;
  for (int k = 0; k < 3; k++) {
    if (measure(fn, j, &x)) {
      printf("%-52s failed\n", what);
      return;
    }
    if (!k || x.ms < best.ms) best = x;
  }
  printf("%-52s %8.0f ms %7.1f MB/s %7.1f MB RSS\n", what, best.ms,
         mb / (best.ms / 1e3), best.rss_mb);
}

int main(int argc, char **argv) {
  long requests = 50000;
  double mb = 100;
  const char *dir = "/tmp";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--requests") && i + 1 < argc)
      requests = atol(argv[++i]);
    else if (!strcmp(argv[i], "--mb") && i + 1 < argc)
      mb = atof(argv[++i]);
    else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
      dir = argv[++i];
    else {
      fprintf(stderr, "usage: zc_bench_io [--requests N] [--mb MB] "
                      "[--dir DIR]\n");
      return 2;
    }
  }
  char trace[4200], side[4200];
  snprintf(trace, sizeof trace, "%s/zc-bench-io.json", dir);
  snprintf(side, sizeof side, "%s/zc-bench-io.io.json", dir);
  if (write_trace(trace, requests, mb) || write_sidecar(side, requests)) {
    perror("zc_bench_io: writing the trace");
    return 1;
  }
  struct stat st;
  stat(trace, &st);
  double tmb = (double)st.st_size / 1e6;
  stat(side, &st);
  printf("trace %.1f MB with %ld requests; .io.json %.1f MB\n", tmb, requests,
         (double)st.st_size / 1e6);
  struct job plain = {trace, 0}, both = {trace, 1};
  best_of("1. ana_load, requests not read (timed pairs)", do_load, &plain, tmb);
  best_of("2. ana_load, requests read too", do_load, &both, tmb);
  best_of("3. an I/O run read (trace, no profile; .io.json)", do_read, &plain,
          tmb);
  best_of("4. an I/O pair: read, 5 timelines each, compared", do_pair, &plain,
          2 * tmb);
  unlink(trace);
  unlink(side);
  return 0;
}
