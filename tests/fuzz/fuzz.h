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
/* The same file under a name that ends in suffix (".heapprofile": the
 * readers pick the format by name): a link to it, made once per process
 * and removed at exit. */
const char *fuzz_file_named(const uint8_t *data, size_t size,
                            const char *suffix);

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
/* fuzz_heap.c's checks of a heap profile's timeline before fuzz_trace's:
 * its unit is bytes, no node's weight or figure is negative. */
void fuzz_heap_checks(const char *path);

#endif
