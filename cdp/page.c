/* A page in a fresh browser context: opening, navigating, waiting until it
 * settles, and noticing when it crashes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdp-int.h"
#include "zc-url.h"

struct cdp_page {
  struct cdp_conn *c;
  char *context, *target, *session;
  int loaded;
  int passive, crashed;  /* passive: a crash is noted, no wait is ended */
  struct cdp__reqs reqs; /* requests in flight */
  double last_net;       /* last network event, ms */
  unsigned dialogs;
  char *dialog; /* the first: 'type: "message"' */
  char *home;   /* cdp_page_home: the origin runs are expected on */
  char *away;   /* the first main-frame page on another origin */
};

void cdp__reqs_init(struct cdp__reqs *r) {
  memset(r, 0, sizeof *r);
  zc_htab_init(&r->tab, 16);
}

void cdp__reqs_free(struct cdp__reqs *r) {
  for (size_t i = 0; i < r->nreq; i++)
    free(r->req[i].id);
  free(r->req);
  zc_htab_free(&r->tab);
  memset(r, 0, sizeof *r);
}

/* The live entry of id, or NULL; *hv and *pos as zc_htab_add wants them. */
static struct cdp__req *reqs_find(struct cdp__reqs *r, const char *id,
                                  uint64_t *hv, size_t *pos) {
  *hv = zc_hash(id, strlen(id), 0x7265);
  *pos = ZC_HTAB_START;
  uint32_t i;
  while (zc_htab_next(&r->tab, *hv, pos, &i))
    if (r->req[i].hash == *hv && r->req[i].id && !strcmp(r->req[i].id, id))
      return &r->req[i];
  return NULL;
}

/* Drops the ended entries and rebuilds the hash: amortised O(1). */
static void reqs_sweep(struct cdp__reqs *r) {
  size_t w = 0;
  for (size_t i = 0; i < r->nreq; i++)
    if (r->req[i].id) r->req[w++] = r->req[i];
  r->nreq = w;
  zc_htab_clear(&r->tab, w + 16);
  for (size_t i = 0; i < w; i++) {
    size_t pos = ZC_HTAB_START;
    uint32_t k;
    while (zc_htab_next(&r->tab, r->req[i].hash, &pos, &k)) {
    }
    zc_htab_add(&r->tab, r->req[i].hash, pos, (uint32_t)i);
  }
}

void cdp__reqs_add(struct cdp__reqs *r, const char *id) {
  uint64_t hv;
  size_t pos;
  if (reqs_find(r, id, &hv, &pos)) return; /* a redirect: same request */
  ZC_GROW(r->req, r->capreq, r->nreq + 1);
  r->req[r->nreq] = (struct cdp__req){.id = zc_xstrdup(id), .hash = hv};
  zc_htab_add(&r->tab, hv, pos, (uint32_t)r->nreq++);
  r->live++;
}

void cdp__reqs_del(struct cdp__reqs *r, const char *id) {
  uint64_t hv;
  size_t pos;
  struct cdp__req *q = reqs_find(r, id, &hv, &pos);
  if (!q) return;
  free(q->id);
  q->id = NULL;
  r->live--;
  if (r->nreq > 64 && r->live < r->nreq / 2) reqs_sweep(r);
}

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The page's target crashed or went away: a passive page only notes it;
 * an active one's wait in progress ends with msg. */
static void page_lost(struct cdp_page *p, const char *msg) {
  p->crashed = 1;
  if (!p->passive) cdp__abort(p->c, ZC_E_BROWSER, msg);
}

static void page_event(void *arg, const char *session, const char *method,
                       const cJSON *params) {
  struct cdp_page *p = arg;
  int mine = session && p->session && !strcmp(session, p->session);
  if (!strcmp(method, "Target.targetCrashed") ||
      !strcmp(method, "Target.detachedFromTarget")) {
    const char *t = jstr(params, "targetId");
    const char *s = jstr(params, "sessionId");
    if ((t && p->target && !strcmp(t, p->target)) ||
        (s && p->session && !strcmp(s, p->session))) {
      char msg[256];
      snprintf(msg, sizeof msg, "the page crashed or went away (%s)", method);
      page_lost(p, msg);
    }
    return;
  }
  if (!mine) return;
  if (!strcmp(method, "Inspector.targetCrashed")) {
    page_lost(p, "the page's renderer crashed (Inspector.targetCrashed)");
  } else if (!strcmp(method, "Page.loadEventFired")) {
    p->loaded = 1;
  } else if (!strcmp(method, "Page.frameNavigated")) {
    const cJSON *fr = cJSON_GetObjectItemCaseSensitive(params, "frame");
    const char *url = jstr(fr, "url");
    size_t n = url ? zc_url_origin_len(url) : 0;
    if (!jstr(fr, "parentId") && n && p->home && !p->away &&
        (strlen(p->home) != n || strncmp(url, p->home, n)))
      p->away = zc_xstrdup(url);
  } else if (!strcmp(method, "Page.javascriptDialogOpening")) {
    const char *type = jstr(params, "type"), *msg = jstr(params, "message");
    int unload = type && !strcmp(type, "beforeunload");
    cJSON *a = cJSON_CreateObject();
    cJSON_AddBoolToObject(a, "accept", unload);
    cdp_send(p->c, p->session, "Page.handleJavaScriptDialog", a);
    if (!p->dialogs++) {
      size_t n = strlen(msg ? msg : "") + 64;
      p->dialog = zc_xmalloc(n);
      snprintf(p->dialog, n, "%s: \"%.200s%s\"", type ? type : "dialog",
               msg ? msg : "", msg && strlen(msg) > 200 ? "..." : "");
    }
    zc_log(2, "the page opened a %s dialog; zamcap %s it",
           type ? type : "JavaScript", unload ? "accepted" : "dismissed");
  } else if (!strncmp(method, "Network.", 8)) {
    const char *id = jstr(params, "requestId");
    if (!id) return;
    p->last_net = zc_now_ms();
    /* A frame's own document is not waited for here: a cross-site frame
     * loads in a renderer of its own, which reports the request's end to
     * its own session, never to the page's (the request stayed in flight
     * for ever); the page's load event waits for its frames anyway. Nor
     * is a request with no loader: a worker's script, fetched for the
     * worker, whose session alone hears it end. */
    const char *ty = jstr(params, "type"), *fr = jstr(params, "frameId");
    const char *ld = jstr(params, "loaderId");
    if (!strcmp(method, "Network.requestWillBeSent") &&
        !(ty && !strcmp(ty, "Document") && fr && p->target &&
          strcmp(fr, p->target)) &&
        !(ld && !*ld))
      cdp__reqs_add(&p->reqs, id);
    else if (!strcmp(method, "Network.loadingFinished") ||
             !strcmp(method, "Network.loadingFailed"))
      cdp__reqs_del(&p->reqs, id);
  }
}

static enum zc_err page_enable(struct cdp_page *p) {
  static const char *const domains[] = {"Page.enable", "Network.enable",
                                        "Inspector.enable",
                                        "Performance.enable"};
  for (size_t i = 0; i < ZC_ARRAY_LEN(domains); i++) {
    enum zc_err e = cdp_call(p->c, p->session, domains[i], NULL, 0, NULL);
    if (e) return e;
  }
  return ZC_OK;
}

void cdp_page_home(struct cdp_page *p, const char *url) {
  size_t n = url ? zc_url_origin_len(url) : 0;
  free(p->home);
  free(p->away);
  p->home = n ? zc_xstrndup(url, n) : NULL;
  p->away = NULL;
}

int cdp_page_away(const struct cdp_page *p, char *url, size_t cap) {
  if (url && cap) zc_url_shown(p->away ? p->away : "", url, cap);
  if (url && cap && !p->away) url[0] = '\0';
  return p->away != NULL;
}

unsigned cdp_page_dialogs(const struct cdp_page *p, char *first, size_t cap) {
  if (first && cap) snprintf(first, cap, "%s", p->dialog ? p->dialog : "");
  return p->dialogs;
}

enum zc_err cdp_page_open(struct cdp_conn *c, struct cdp_page **out) {
  *out = NULL;
  struct cdp_page *p = zc_xcalloc(1, sizeof *p);
  cdp__reqs_init(&p->reqs);
  p->c = c;
  cdp_on_event(c, page_event, p);
  cJSON *r = NULL, *a;
  enum zc_err e;
  if ((e = cdp__discover_targets(c))) goto fail;
  a = cJSON_CreateObject();
  cJSON_AddBoolToObject(a, "disposeOnDetach", 1);
  if ((e = cdp_call(c, NULL, "Target.createBrowserContext", a, 0, &r)))
    goto fail;
  p->context = zc_xstrdup(
      jstr(r, "browserContextId") ? jstr(r, "browserContextId") : "");
  cJSON_Delete(r);
  a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "url", "about:blank");
  cJSON_AddStringToObject(a, "browserContextId", p->context);
  if ((e = cdp_call(c, NULL, "Target.createTarget", a, 0, &r))) goto fail;
  p->target = zc_xstrdup(jstr(r, "targetId") ? jstr(r, "targetId") : "");
  cJSON_Delete(r);
  a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "targetId", p->target);
  cJSON_AddBoolToObject(a, "flatten", 1);
  if ((e = cdp_call(c, NULL, "Target.attachToTarget", a, 0, &r))) goto fail;
  const char *s = jstr(r, "sessionId");
  if (!s) {
    cJSON_Delete(r);
    e = zc_fail(ZC_E_BROWSER, "Target.attachToTarget gave no sessionId");
    goto fail;
  }
  p->session = zc_xstrdup(s);
  cJSON_Delete(r);
  if ((e = page_enable(p))) goto fail;
  *out = p;
  return ZC_OK;
fail:
  cdp_page_close(p);
  return e;
}

void cdp_page_close(struct cdp_page *p) {
  if (!p) return;
  struct zc_errsave saved;
  zc_err_save(&saved);
  cdp_off_event(p->c, page_event, p);
  if (p->target && *p->target) {
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "targetId", p->target);
    cdp_send(p->c, NULL, "Target.closeTarget", a);
  }
  if (p->context && *p->context) {
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "browserContextId", p->context);
    cdp_send(p->c, NULL, "Target.disposeBrowserContext", a);
  }
  cdp__reqs_free(&p->reqs);
  free(p->context);
  free(p->target);
  free(p->session);
  free(p->dialog);
  free(p->home);
  free(p->away);
  free(p);
  zc_err_restore(&saved);
}

const char *cdp_page_session(const struct cdp_page *p) {
  return p->session;
}
void cdp_page_passive(struct cdp_page *p, int on) {
  p->passive = on;
}
int cdp_page_crashed(const struct cdp_page *p) {
  return p->crashed;
}
struct cdp_conn *cdp_page_conn(const struct cdp_page *p) {
  return p->c;
}

static int page_loaded(void *arg) {
  return ((struct cdp_page *)arg)->loaded;
}

void cdp_page_expect_load(struct cdp_page *p) {
  p->loaded = 0;
}

enum zc_err cdp_page_wait_load(struct cdp_page *p, double timeout_ms) {
  return cdp_wait(p->c, page_loaded, p, cdp__timeout(p->c, timeout_ms),
                  "the page's load event");
}

enum zc_err cdp_page_navigate(struct cdp_page *p, const char *url,
                              double timeout_ms) {
  p->loaded = 0;
  cJSON *a = cJSON_CreateObject(), *r = NULL;
  cJSON_AddStringToObject(a, "url", url);
  enum zc_err e =
      cdp_call(p->c, p->session, "Page.navigate", a, timeout_ms, &r);
  if (e) return e;
  const char *err = jstr(r, "errorText");
  if (err && *err) {
    e = zc_fail(ZC_E_BROWSER, "navigating to %s: %s", url, err);
    cJSON_Delete(r);
    return e;
  }
  cJSON_Delete(r);
  char what[600];
  snprintf(what, sizeof what, "the load event of %s", url);
  return cdp_wait(p->c, page_loaded, p, cdp__timeout(p->c, timeout_ms), what);
}

/* Main-thread task time so far, in ms (Performance.getMetrics). */
static enum zc_err page_task_ms(struct cdp_page *p, double *ms) {
  cJSON *r = NULL;
  enum zc_err e =
      cdp_call(p->c, p->session, "Performance.getMetrics", NULL, 0, &r);
  if (e) return e;
  *ms = 0;
  const cJSON *m;
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r, "metrics")) {
    const char *n = jstr(m, "name");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, "value");
    if (n && !strcmp(n, "TaskDuration") && cJSON_IsNumber(v))
      *ms = v->valuedouble * 1000.0;
  }
  cJSON_Delete(r);
  return ZC_OK;
}

enum zc_err cdp_page_settle(struct cdp_page *p, double quiet_ms,
                            double timeout_ms) {
  return cdp_page_settle_idle(p, quiet_ms, timeout_ms, NULL, NULL, NULL);
}

enum zc_err cdp_page_settle_idle(struct cdp_page *p, double quiet_ms,
                                 double timeout_ms, void (*idle)(void *),
                                 void *arg, struct cdp_settle *st) {
  /* Quiet: the load event came, no request is in flight, none ended in
   * the last quiet_ms, and in no 100 ms slice of the last quiet_ms was the
   * main thread busy for 50 ms (a long task, or most of one). Polling
   * Performance.getMetrics runs no script in the page. */
  const double slice = 100;
  double start = zc_now_ms(), last_busy = start, prev_task, first_task;
  enum zc_err e = page_task_ms(p, &prev_task);
  if (e) return e;
  first_task = prev_task;
  if (st) memset(st, 0, sizeof *st);
  if (!p->loaded) last_busy = zc_now_ms();
  for (;;) {
    if ((e = cdp_wait(p->c, NULL, NULL, slice, NULL))) return e;
    double now = zc_now_ms(), task;
    if ((e = page_task_ms(p, &task))) return e;
    if (task - prev_task >= 50) last_busy = now;
    prev_task = task;
    double since_net =
        p->reqs.live ? 0 : now - (p->last_net > 0 ? p->last_net : start);
    if (st) {
      st->loaded = p->loaded;
      st->waited_ms = now - start;
      st->busy_ms = task - first_task;
      st->inflight = p->reqs.live;
    }
    if (p->loaded && !p->reqs.live && since_net >= quiet_ms &&
        now - last_busy >= quiet_ms) {
      if (st) st->settled = 1;
      return ZC_OK;
    }
    if (idle && p->loaded && !p->reqs.live && since_net >= quiet_ms / 2 &&
        now - last_busy >= quiet_ms / 2) {
      /* Task time the page spends meanwhile shows in the next poll. A
       * crash of this page meanwhile may have ended idle's own wait: it
       * is this page's error. */
      idle(arg);
      idle = NULL;
      if (p->crashed)
        return zc_fail(ZC_E_BROWSER, "the page's renderer crashed while it "
                                     "settled");
    }
    if (now - start >= timeout_ms && st) return ZC_OK; /* st->settled 0 */
    if (now - start >= timeout_ms)
      return zc_fail(ZC_E_TIMEOUT,
                     "the page did not settle in %.0f s (%s%zu request%s in "
                     "flight, main thread last busy %.0f ms ago)",
                     timeout_ms / 1000, p->loaded ? "" : "no load event, ",
                     p->reqs.live, p->reqs.live == 1 ? "" : "s",
                     now - last_busy);
  }
}
