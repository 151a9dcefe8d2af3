/* What the libFuzzer targets share: the input as a file (the readers under
 * test take paths), invariant checks that keep the input when they fail,
 * and the trace checks of fuzz_ingest and fuzz_cpuprofile. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A path whose file holds exactly data[0..size): one unlinked temporary
 * file per process (in /dev/shm when there is one), rewritten for each
 * input. Valid until the next call. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* A broken invariant: says which on stderr and aborts, so that libFuzzer
 * keeps the input as a crash. */
#define FUZZ_CHECK(x) ((x) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #x))
void fuzz_fail(const char *file, int line, const char *what)
    __attribute__((noreturn));

/* fuzz_trace.c: loads path with ana_load, in 1 MiB reads and in reads of
 * a few bytes (the two must agree), then checks the timeline, prunes it
 * and compares it with its twin, which can show no regression. size picks
 * the small read size and the pruning. */
void fuzz_trace(const char *path, size_t size);

#endif
