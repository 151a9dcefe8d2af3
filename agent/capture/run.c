/* capture: one traced run of a scenario (or a page) in a fresh browser
 * context, and the next run's page made ready while Chrome flushes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "capture.h"

/* Rewrites a trace with zc_scrub's masks when the URLs carried secrets:
 * Chrome records every URL as the page saw it, user:password included.
 * Read and written in chunks, each kept back by the longest secret less
 * one byte, so that a secret across two chunks is found too. */
static enum zc_err scrub_trace(const char *path) {
  size_t keep = zc_secret_maxlen();
  if (!keep) return ZC_OK;
  keep--;
  size_t plen = strlen(path) + 8;
  char *tmp = zc_xmalloc(plen);
  snprintf(tmp, plen, "%s.part", path);
  int gz = strlen(path) > 3 && !strcmp(path + strlen(path) - 3, ".gz");
  gzFile in = gzopen(path, "rb");
  gzFile out = gzopen(tmp, gz ? "wb6" : "wbT"); /* T: plain, as it came */
  enum zc_err e = ZC_OK;
  if (!in || !out)
    e = zc_fail(ZC_E_IO, "%s: %s", in ? tmp : path,
                strerror(errno ? errno : EIO));
  size_t cap = ((size_t)1 << 20) + keep, have = 0, found = 0;
  char *buf = zc_xmalloc(cap + 1);
  while (!e) {
    int n = gzread(in, buf + have, (unsigned)(cap - have));
    if (n < 0) {
      e = zc_fail(ZC_E_IO, "%s: cannot read it again to mask secrets", path);
      break;
    }
    have += (size_t)n;
    buf[have] = '\0';
    found += zc_scrub(buf);
    size_t out_n = n == 0 ? have : have > keep ? have - keep : 0;
    if (out_n && gzwrite(out, buf, (unsigned)out_n) != (int)out_n)
      e = zc_fail(ZC_E_IO, "%s: cannot write: %s", tmp, strerror(errno));
    memmove(buf, buf + out_n, have - out_n);
    have -= out_n;
    if (n == 0) break;
  }
  free(buf);
  if (in) gzclose(in);
  if (out && gzclose(out) != Z_OK && !e)
    e = zc_fail(ZC_E_IO, "%s: cannot write: %s", tmp, strerror(errno));
  if (!e && rename(tmp, path) != 0)
    e = zc_fail(ZC_E_IO, "%s: %s", path, strerror(errno));
  if (e)
    remove(tmp);
  else
    zc_log(3, "%s: %zu secret%s masked", path, found, found == 1 ? "" : "s");
  free(tmp);
  return e;
}

/* Lighthouse's constants (its config/constants.js): a Moto G Power with
 * slow 4G and a 4x slower CPU; a desktop of 1350 x 940, not throttled. */
static const struct cap_preset presets[] = {
    {.name = "mobile",
     .width = 412,
     .height = 823,
     .dpr = 1.75,
     .mobile = 1,
     .ua = "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) "
           "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile "
           "Safari/537.36",
     .latency_ms = 150,
     .down_bps = 1.6e6 / 8,
     .up_bps = 750e3 / 8,
     .cpu = 4},
    {.name = "desktop", .width = 1350, .height = 940, .dpr = 1, .cpu = 1},
};

const struct cap_preset *cap_preset_find(const char *name) {
  for (size_t i = 0; name && i < ZC_ARRAY_LEN(presets); i++)
    if (!strcmp(name, presets[i].name)) return &presets[i];
  return NULL;
}

/* The preset's device and network on a fresh page. */
static enum zc_err apply_preset(struct cdp_conn *conn, struct cdp_page *p,
                                const struct cap_preset *ps) {
  const char *s = cdp_page_session(p);
  cJSON *a = cJSON_CreateObject();
  cJSON_AddNumberToObject(a, "width", ps->width);
  cJSON_AddNumberToObject(a, "height", ps->height);
  cJSON_AddNumberToObject(a, "deviceScaleFactor", ps->dpr);
  cJSON_AddBoolToObject(a, "mobile", ps->mobile);
  enum zc_err e =
      cdp_call(conn, s, "Emulation.setDeviceMetricsOverride", a, 0, NULL);
  if (!e) {
    a = cJSON_CreateObject();
    cJSON_AddBoolToObject(a, "enabled", ps->mobile);
    e = cdp_call(conn, s, "Emulation.setTouchEmulationEnabled", a, 0, NULL);
  }
  if (!e && ps->ua) {
    a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "userAgent", ps->ua);
    e = cdp_call(conn, s, "Emulation.setUserAgentOverride", a, 0, NULL);
  }
  if (!e && ps->latency_ms > 0) {
    a = cJSON_CreateObject();
    cJSON_AddBoolToObject(a, "offline", 0);
    cJSON_AddNumberToObject(a, "latency", ps->latency_ms);
    cJSON_AddNumberToObject(a, "downloadThroughput", ps->down_bps);
    cJSON_AddNumberToObject(a, "uploadThroughput", ps->up_bps);
    e = cdp_call(conn, s, "Network.emulateNetworkConditions", a, 0, NULL);
  }
  return e;
}

/* A fresh page for a run: its own browser context, the scenario's needs
 * (the accessibility tree), the preset and the CPU throttling set. */
static enum zc_err open_page(struct cdp_conn *conn,
                             const struct cap_run_opts *o,
                             struct cdp_page **out) {
  struct cdp_page *p = NULL;
  enum zc_err e = cdp_page_open(conn, &p);
  if (e) return e;
  if (o->scn) e = scn_prepare(p, o->scn);
  if (!e && o->preset) e = apply_preset(conn, p, o->preset);
  if (!e && o->io) e = cap_io_prepare(conn, p);
  if (!e && o->cpu_throttle > 1) {
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "rate", o->cpu_throttle);
    e = cdp_call(conn, cdp_page_session(p), "Emulation.setCPUThrottlingRate", a,
                 0, NULL);
  }
  if (e) {
    cdp_page_close(p);
    p = NULL;
  }
  *out = p;
  return e;
}

/* The spare's page, opened unless there is one; 0 (logged) if it could
 * not be. */
static int spare_page(struct cdp_conn *conn, const struct cap_run_opts *o,
                      struct cap_spare *sp) {
  if (sp->page || !open_page(conn, o, &sp->page)) return 1;
  zc_log(2, "opening the next run's page early: %s", zc_errmsg());
  return 0;
}

struct spare_open {
  struct cdp_conn *conn;
  const struct cap_run_opts *o;
  struct cap_spare *sp;
  double t, t_end; /* when it began and ended; 0: it did not */
};

/* The next run's page, opened while this run's page settles (idle): a
 * renderer starting takes CPU the page is not using then. Only in runs
 * that are not traced: a renderer that starts while Chrome traces can
 * hold up the end of the trace by 5 s (Chrome 156 waits that long for
 * its flush), so a traced run's successor opens while Chrome flushes. */
static void open_spare_idle(void *arg) {
  struct spare_open *so = arg;
  struct zc_errsave sv;
  zc_err_save(&sv);
  so->t = zc_now_ms();
  if (spare_page(so->conn, so->o, so->sp)) {
    /* Its crash must not end this run's settling. */
    cdp_page_passive(so->sp->page, 1);
    zc_log(3, "opened the next run's page while this one settled: %.0f ms",
           zc_now_ms() - so->t);
  }
  so->t_end = zc_now_ms();
  zc_err_restore(&sv);
}

static void prepare_spare(struct cdp_conn *conn, const struct cap_run_opts *o,
                          struct cap_spare *sp) {
  struct zc_errsave sv;
  zc_err_save(&sv);
  sp->prefixed = 0;
  if (!spare_page(conn, o, sp)) {
    zc_err_restore(&sv);
    return;
  }
  cdp_page_passive(sp->page, 0); /* its own steps wait on it */
  const struct scn_scenario *scn = o->scn;
  if (!o->next_base || !scn || !scn->record_from) goto out;
  /* No failure files: a step that fails here fails again, for the record,
   * in the next run itself. */
  struct scn_replay_opts ro = o->replay;
  ro.base_url = o->next_base;
  ro.fail_dir = NULL;
  double t = zc_now_ms();
  if (scn_replay(sp->page, scn, 0, scn->record_from, &ro)) {
    zc_log(2, "the next run's first steps, early: %s", zc_errmsg());
    cdp_page_close(sp->page);
    sp->page = NULL;
  } else {
    sp->prefixed = 1;
    sp->prefix_ms = zc_now_ms() - t;
    sp->base = o->next_base;
  }
out:
  /* Held while this run's trace is collected: its crash must not end
   * that. */
  if (sp->page) cdp_page_passive(sp->page, 1);
  zc_err_restore(&sv);
}

/* The page made ready for this run, if it may serve: *prefixed when its
 * steps before recordFrom already ran for this build (their time is this
 * run's work). One made for the other build, or that crashed while it
 * waited, gives way to a fresh page (NULL). */
static struct cdp_page *take_spare(struct cap_spare *spare, const char *base,
                                   int *prefixed, double *work_ms) {
  struct cdp_page *p = spare ? spare->page : NULL;
  *prefixed = 0;
  if (!p) return NULL;
  spare->page = NULL;
  cdp_page_passive(p, 0);
  int crashed = cdp_page_crashed(p);
  if (crashed)
    zc_log(2, "the page made ready for this run crashed; opening another");
  if (crashed || (spare->prefixed && strcmp(spare->base, base))) {
    cdp_page_close(p);
    p = NULL;
  } else if (spare->prefixed) {
    *prefixed = 1;
    *work_ms = spare->prefix_ms;
  }
  spare->prefixed = 0;
  return p;
}

/* The end of a traced run: Chrome flushes the trace (hundreds of ms)
 * while the next run's page is made ready, its context created and its
 * steps before recordFrom, which are not traced, replayed. Tracing has
 * ended, so none of that is in this trace, and the next trace starts only
 * once this one is complete. */
static enum zc_err end_trace(struct cdp_conn *conn, struct cdp_page *p,
                             const struct cap_run_opts *o,
                             const char *trace_base, struct cap_run_result *res,
                             struct cap_spare *spare) {
  double t0 = zc_now_ms(), cpu0 = zc_cpu_ms();
  struct cdp_trace *tr;
  enum zc_err e = cdp_trace_end(conn, cdp_page_session(p), o->timeout_ms, &tr);
  if (e) return e;
  /* This run's page is done: if it crashes now, its steps and settling
   * are over, and the trace is still collected (Chrome says when data was
   * lost). */
  cdp_page_passive(p, 1);
  if (spare && o->next_base) prepare_spare(conn, o, spare);
  e = cdp_trace_collect(tr, trace_base, o->timeout_ms, &res->file, &res->bytes);
  if (!e) e = scrub_trace(res->file);
  double t = zc_now_ms() - t0;
  if (!e)
    zc_log(2,
           "trace streamed in %.0f ms (%.0f MB/s); zamcap CPU %.0f ms "
           "streaming",
           t, (double)res->bytes / 1e3 / (t + 1e-9), zc_cpu_ms() - cpu0);
  return e;
}

/* Heap sampling from here on: every allocation counts, also what the GC
 * took again before the end (else only what survives would show). */
static enum zc_err heap_start(struct cdp_conn *conn, struct cdp_page *p,
                              const struct cap_run_opts *o) {
  const char *ss = cdp_page_session(p);
  enum zc_err e = cdp_call(conn, ss, "HeapProfiler.enable", NULL, 0, NULL);
  if (!e) e = cdp_call(conn, ss, "Performance.enable", NULL, 0, NULL);
  if (e) return e;
  cJSON *a = cJSON_CreateObject();
  cJSON_AddNumberToObject(a, "samplingInterval", o->heap_interval);
  cJSON_AddBoolToObject(a, "includeObjectsCollectedByMajorGC", 1);
  cJSON_AddBoolToObject(a, "includeObjectsCollectedByMinorGC", 1);
  return cdp_call(conn, ss, "HeapProfiler.startSampling", a, 0, NULL);
}

/* zamcap's figures in the profile: what is retained after a forced GC
 * (Performance.getMetrics' JSHeapUsedSize, Nodes, JSEventListeners; null
 * where Chrome does not say). */
static void heap_retained(struct cdp_conn *conn, const char *ss, cJSON *prof,
                          double interval) {
  cJSON *z = cJSON_AddObjectToObject(prof, "zamcap");
  /* how the profile was sampled: what its weights are known to */
  cJSON_AddNumberToObject(z, "sampling_interval_bytes", interval);
  static const char *const want[][2] = {
      {"JSHeapUsedSize", "js_heap_used_bytes"},
      {"Nodes", "dom_nodes"},
      {"JSEventListeners", "event_listeners"}};
  cJSON *res = NULL;
  enum zc_err e =
      cdp_call(conn, ss, "HeapProfiler.collectGarbage", NULL, 0, NULL);
  if (!e) e = cdp_call(conn, ss, "Performance.getMetrics", NULL, 0, &res);
  if (e) zc_log(1, "no retained memory for this run: %s", zc_errmsg());
  cJSON *m = res ? cJSON_GetObjectItem(res, "metrics") : NULL;
  for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
    const cJSON *v = NULL;
    for (cJSON *x = m ? m->child : NULL; x && !v; x = x->next) {
      const cJSON *n = cJSON_GetObjectItem(x, "name");
      if (cJSON_IsString(n) && !strcmp(n->valuestring, want[k][0]))
        v = cJSON_GetObjectItem(x, "value");
    }
    if (cJSON_IsNumber(v))
      cJSON_AddNumberToObject(z, want[k][1], v->valuedouble);
    else
      cJSON_AddNullToObject(z, want[k][1]);
  }
  cJSON_Delete(res);
}

static enum zc_err put_text(void *arg, FILE *f) {
  fputs(arg, f);
  return ZC_OK;
}

/* The run's sampling heap profile, with the retained memory, into
 * trace_base + ".heapprofile" (DevTools' Memory panel format). */
static enum zc_err heap_end(struct cdp_conn *conn, struct cdp_page *p,
                            double interval, const char *trace_base,
                            struct cap_run_result *res) {
  const char *ss = cdp_page_session(p);
  cJSON *r = NULL;
  enum zc_err e =
      cdp_call(conn, ss, "HeapProfiler.getSamplingProfile", NULL, 0, &r);
  if (e) return e;
  cJSON *prof = cJSON_DetachItemFromObject(r, "profile");
  cJSON_Delete(r);
  if (!cJSON_IsObject(prof) || !cJSON_GetObjectItem(prof, "head")) {
    cJSON_Delete(prof);
    return zc_fail(ZC_E_CDP, "HeapProfiler.getSamplingProfile: no profile");
  }
  cdp_send(conn, ss, "HeapProfiler.stopSampling", NULL);
  heap_retained(conn, ss, prof, interval);
  char *text = cJSON_PrintUnformatted(prof);
  cJSON_Delete(prof);
  if (!text) return zc_fail(ZC_E_NOMEM, "a heap profile: out of memory");
  zc_scrub(text); /* URLs with passwords or tokens */
  size_t n = strlen(trace_base) + 16;
  res->file = zc_xmalloc(n);
  snprintf(res->file, n, "%s.heapprofile", trace_base);
  res->bytes = strlen(text);
  e = zc_write_atomic(res->file, put_text, text);
  free(text);
  if (e) {
    free(res->file);
    res->file = NULL;
  }
  return e;
}

/* Waits for the page to go quiet; the next run's page may open meanwhile
 * (untraced runs). Sets res->settled_ms from t0 and adds it to work. */
static enum zc_err settle(struct cdp_conn *conn, struct cdp_page *p,
                          const struct cap_run_opts *o, double t0,
                          struct cap_run_result *res, struct cap_spare *spare) {
  const struct scn_scenario *scn = o->scn;
  double quiet = scn && scn->settle_ms >= 0 ? scn->settle_ms : o->settle_ms;
  struct spare_open so = {.conn = conn, .o = o, .sp = spare};
  int early = spare && !spare->page && o->next_base && !o->trace;
  struct cdp_settle st;
  double max = o->settle_max_ms > 0 && o->settle_max_ms < o->timeout_ms
                   ? o->settle_max_ms
                   : o->timeout_ms;
  enum zc_err e = cdp_page_settle_idle(
      p, quiet, max, early ? open_spare_idle : NULL, &so, &st);
  if (e) return e;
  if (!st.settled) {
    /* Same rule for both builds: a page that never goes quiet is measured
     * as it is at the limit; how busy it stayed is itself a finding. */
    res->unsettled = 1;
    res->busy_pct = st.waited_ms > 0 ? 100 * st.busy_ms / st.waited_ms : 0;
    zc_log(1,
           "the page did not go quiet in %.1f s (%smain thread busy "
           "%.0f %% of it, %zu request%s in flight): traced as it was",
           st.waited_ms / 1e3, st.loaded ? "" : "no load event, ",
           res->busy_pct, st.inflight, st.inflight == 1 ? "" : "s");
  }
  double tsettled = zc_now_ms();
  res->settled_ms = tsettled - t0;
  res->work_ms += res->settled_ms;
  /* Opening the next page began half-way through the quiet time: what it
   * took beyond the other half may have held the settling up, and is not
   * the run's own time (the page's own work after it still is). */
  if (so.t > 0) {
    double held = (so.t_end - so.t) - quiet / 2;
    double tail = tsettled - (so.t + quiet / 2);
    if (held > 0 && tail > 0) res->work_ms -= held < tail ? held : tail;
  }
  return ZC_OK;
}

enum zc_err cap_run(struct cdp_conn *conn, const struct cap_run_opts *o,
                    const char *trace_base, struct cap_run_result *res,
                    struct cap_spare *spare) {
  memset(res, 0, sizeof *res);
  double topen = zc_now_ms(), ttraced = 0;
  enum zc_err e = ZC_OK;
  const struct scn_scenario *scn = o->scn;
  int prefixed = 0;
  struct cap_io *io = NULL;
  cJSON *inv = NULL; /* count runs: the functions before the counts */
  struct cdp_page *p = take_spare(spare, o->base, &prefixed, &res->work_ms);
  if (!p && (e = open_page(conn, o, &p))) return e;
  cdp_page_home(p, o->base);
  struct scn_replay_opts ro = o->replay;
  ro.shot = res->shot;
  ro.shot_cap = sizeof res->shot;
  double tready = zc_now_ms();
  if (scn && (e = zc_mkdirs(o->replay.fail_dir))) goto out;
  /* Steps before zamcap.recordFrom (a login, say) stay out of the trace. */
  if (!prefixed && scn && scn->record_from &&
      (e = scn_replay(p, scn, 0, scn->record_from, &ro)))
    goto out;
  double tstart = zc_now_ms();
  if (!prefixed) res->work_ms = tstart - tready;
  if (o->trace && (e = cdp_trace_start(conn, cdp_page_session(p), o->categories,
                                       o->compress)))
    goto out;
  if (o->heap_interval > 0 && (e = heap_start(conn, p, o))) goto out;
  if (o->calls && (e = cap_calls_start(conn, p, &inv))) goto out;
  /* (warm-ups of an I/O plan are untraced: nothing kept) */
  if (o->io && o->trace && trace_base && (e = cap_io_start(conn, p, &io)))
    goto out;
  if (io) ro.on_step = cap_io_step, ro.step_arg = io;
  if (io && !scn) cap_io_step(io, 1); /* a page alone: one step */
  double t0 = zc_now_ms();
  ttraced = t0 - tstart; /* Tracing.start */
  if (scn)
    e = scn_replay(p, scn, scn->record_from, scn->n, &ro);
  else
    e = cdp_page_navigate(p, o->base, o->timeout_ms);
  if (!e) e = settle(conn, p, o, t0, res, spare);
  if (!e && io) e = cap_io_end(io, trace_base);
  if (!e && o->trace) e = end_trace(conn, p, o, trace_base, res, spare);
  if (!e && o->heap_interval > 0)
    e = heap_end(conn, p, o->heap_interval, trace_base, res);
  if (!e && o->calls)
    e = cap_calls_end(conn, p, inv, trace_base, &res->file, &res->bytes);
out:
  cJSON_Delete(inv);
  cap_io_free(io);
  res->dialogs = cdp_page_dialogs(p, res->dialog, sizeof res->dialog);
  if (cdp_page_away(p, res->away, sizeof res->away))
    zc_log(1,
           "warning: the page navigated to %s, another host than the "
           "build's; that page was measured as it is",
           res->away);
  if (res->dialogs)
    zc_log(1,
           "the page opened %u JavaScript dialog%s (the first: %s); "
           "zamcap dismissed %s",
           res->dialogs, res->dialogs == 1 ? "" : "s", res->dialog,
           res->dialogs == 1 ? "it" : "them");
  {
    double tclose = zc_now_ms();
    cdp_page_close(p);
    zc_log(2,
           "run: context %.0f ms, steps and settling %.0f ms, starting "
           "the trace %.0f ms, closing %.0f ms",
           tready - topen, res->work_ms, ttraced, zc_now_ms() - tclose);
  }
  return e;
}
