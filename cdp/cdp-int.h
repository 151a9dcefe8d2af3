/* Private to cdp/. */
#ifndef CDP_INT_H
#define CDP_INT_H

#include "cdp.h"

/* Ends the wait in progress with err and msg (once): for event handlers
 * that learn the run cannot go on (a crashed target). */
void cdp__abort(struct cdp_conn *c, enum zc_err err, const char *msg);
double cdp__timeout(const struct cdp_conn *c, double t);

#endif
