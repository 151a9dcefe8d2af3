/* Private to analysis/: the JSON pull reader (jread.c) that trace/ reads
 * trace events with, and smap/ source maps. It walks one JSON value in
 * memory, in place.
 *
 * Ownership: a reader borrows the text it walks (jr_init) and owns its
 * scratch buffers, freed by jr_done; a string it returns lives until the
 * reader's next call. Arguments are borrowed. */
#ifndef ANA_JREAD_H
#define ANA_JREAD_H

#include <stddef.h>

#include "zc.h"

/* A pull reader over one JSON value in memory: no allocation but a scratch
 * buffer for strings with escapes. Every call returns 0 once an error is
 * met, and err says where; callers check err once at the end. Objects and
 * arrays are walked with jr_obj/jr_arr and then jr_more, which says whether
 * another member follows (and reads its key, for objects). */
struct jr {
  const char *p, *e; /* cursor and end */
  const char *err;   /* first syntax error, or NULL */
  int toobig;        /* err is a string decoded past ana__jr_strmax */
  int first;         /* private: at the first member of a container */
  struct zc_buf tmp; /* private: decoded strings */
  struct zc_buf fix; /* private: strings that were not UTF-8, mended */
};
/* The longest string with escapes a reader decodes (64 MiB; tests lower
 * it): beyond it the value is an error that says so, never cut short. */
extern size_t ana__jr_strmax;
void jr_init(struct jr *r, const char *p, size_t n);
void jr_done(struct jr *r);
int jr_peek(struct jr *r); /* next byte after whitespace, or -1 */
int jr_obj(struct jr *r);  /* consumes '{' */
int jr_arr(struct jr *r);  /* consumes '[' */
/* Next member: 1 with *key set (objects) and the cursor at its value, 0 at
 * the container's end (consumed) or on error. */
int jr_more(struct jr *r, const char **key, size_t *klen);
int jr_str(struct jr *r, const char **s, size_t *n); /* valid until next */
int jr_num(struct jr *r, double *v);
int jr_skip(struct jr *r);
/* Key comparison: k of length n equals the NUL-terminated lit. */
static inline int jr_is(const char *k, size_t n, const char *lit) {
  size_t i = 0;
  for (; i < n && lit[i] && k[i] == lit[i]; i++) {
  }
  return i == n && !lit[i];
}

#endif
