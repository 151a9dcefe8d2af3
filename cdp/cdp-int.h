/* Private to cdp/. */
#ifndef CDP_INT_H
#define CDP_INT_H

#include "cdp.h"

/* Ends the wait in progress with err and msg (once): for event handlers
 * that learn the run cannot go on (a crashed target). */
void cdp__abort(struct cdp_conn *c, enum zc_err err, const char *msg);
double cdp__timeout(const struct cdp_conn *c, double t);
/* Target.setDiscoverTargets, once per connection: its events tell a page
 * that its target crashed or went away. */
enum zc_err cdp__discover_targets(struct cdp_conn *c);

/* The largest message kept; a larger one is dropped and fails the wait in
 * progress only (ws.c). Tests lower it. */
extern size_t cdp__max_message;
/* One received WebSocket fragment, as libwebsockets hands it over: first
 * and final say where it lies in its message, and a final one is parsed
 * and dispatched. Returns -1 when the connection must close (a message
 * over cdp__max_message does not close it). */
int cdp__receive(struct cdp_conn *c, const void *in, size_t len, int first,
                 int final);

/* For the fuzzer (tests/fuzz/): a connection with no socket, fed with
 * cdp__receive and freed with cdp_conn_free. cdp__expect makes id the
 * command awaited; cdp__take then hands over its response as cdp_call
 * would (1), or says it has not come (0). cdp__fatal is the sticky error
 * that would end the next wait. */
struct cdp_conn *cdp__conn_detached(void);
void cdp__expect(struct cdp_conn *c, uint64_t id);
int cdp__take(struct cdp_conn *c, const char *method, cJSON **result,
              enum zc_err *e);
enum zc_err cdp__fatal(const struct cdp_conn *c);

/* Requests in flight by id (page.c): a hash of ids, for a page may start
 * tens of thousands of fetches. An ended request leaves a dead entry,
 * swept when the dead outnumber the live. */
struct cdp__reqs {
  struct cdp__req {
    char *id; /* NULL: ended */
    uint64_t hash;
  } * req;
  size_t nreq, capreq;
  size_t live; /* read-only: requests in flight */
  struct zc_htab tab;
};
void cdp__reqs_init(struct cdp__reqs *r);
void cdp__reqs_free(struct cdp__reqs *r);
/* Adds id; an id already in flight (a redirect) is one request. */
void cdp__reqs_add(struct cdp__reqs *r, const char *id);
void cdp__reqs_del(struct cdp__reqs *r, const char *id);

#endif
