/* The storage wrapper's source (io-wrap.js), embedded at build time by
 * analysis/report/embed.cmake as a C array (no NUL at its end). Private
 * to agent/capture/. */
#ifndef CAP_IO_WRAP_H
#define CAP_IO_WRAP_H

#include <stddef.h>

extern const unsigned char cap__io_wrap_js[];
extern const size_t cap__io_wrap_js_len;

#endif
