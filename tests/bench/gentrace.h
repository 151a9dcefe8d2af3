/* gentrace.h: synthetic Chrome trace generator for the benchmark. */
#ifndef ZAMCAP_GENTRACE_H
#define ZAMCAP_GENTRACE_H

struct gentrace_opts {
  unsigned long long target_bytes; /* approximate file size to write */
  unsigned seed;                   /* deterministic output for a seed */
  unsigned nodes; /* approx distinct call-tree nodes (profile nodes) on
                     the main thread, e.g. 100000 */
  int regress;    /* nonzero: the "new" build: one named deep function
                     gets extra samples */
  int reorder;    /* nonzero: shuffle the order in which top-level tasks
                     first run */
  int gzip;       /* nonzero: write gzip (zlib gzopen/gzwrite) */
};

/* Writes a trace to path. Returns 0, or -1 with errno set. */
int gentrace_write(const char *path, const struct gentrace_opts *o);

#endif
