/* Fuzzes the DevTools message layer (cdp/ws.c): the input is what Chrome
 * sends on the WebSocket, messages split at 0x1e and each cut into
 * fragments at 0x1f, fed to a connection with no socket (cdp-int.h) while
 * commands 1, 2, ... are awaited in turn, as cdp_call awaits them. */
#include <string.h>

#include "cdp-int.h"
#include "fuzz.h"

struct seen {
  struct cdp_conn *c;
  uint64_t events;
};

static void on_event(void *arg, const char *session, const char *method,
                     const cJSON *params) {
  struct seen *w = arg;
  (void)params;
  FUZZ_CHECK(method != NULL);
  w->events++;
  /* What page.c does with a crash: end the wait in progress. */
  if (!strcmp(method, "Inspector.targetCrashed") && session)
    cdp__abort(w->c, ZC_E_BROWSER, session);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  zc_verbosity = 0;
  struct seen w = {cdp__conn_detached(), 0};
  cdp_on_event(w.c, on_event, &w);
  uint64_t id = 1, msgs = 0;
  cdp__expect(w.c, id);
  const uint8_t *p = data, *end = data + size;
  for (;;) {
    const uint8_t *mend = memchr(p, 0x1e, (size_t)(end - p));
    if (!mend) mend = end;
    for (const uint8_t *f = p, *fend;; f = fend + 1) {
      fend = memchr(f, 0x1f, (size_t)(mend - f));
      if (!fend) fend = mend;
      FUZZ_CHECK(
          cdp__receive(w.c, f, (size_t)(fend - f), f == p, fend == mend) == 0);
      if (fend == mend) break;
    }
    msgs++;
    cJSON *r;
    enum zc_err e;
    if (cdp__take(w.c, "Fuzz.call", &r, &e)) {
      FUZZ_CHECK(e == ZC_OK ? r != NULL : e == ZC_E_CDP && !r);
      FUZZ_CHECK(e == ZC_OK || strstr(zc_errmsg(), "Fuzz.call: "));
      cJSON_Delete(r);
      cdp__expect(w.c, ++id);
    }
    if (mend == end) break;
    p = mend + 1;
  }
  FUZZ_CHECK(!cdp__fatal(w.c) || cdp__fatal(w.c) == ZC_E_BROWSER);
  struct cdp_stats st;
  cdp_conn_stats(w.c, &st);
  FUZZ_CHECK(st.rx_messages == msgs && w.events <= msgs);
  FUZZ_CHECK(st.rx_bytes <= size);
  cdp_conn_free(w.c);
  return 0;
}
