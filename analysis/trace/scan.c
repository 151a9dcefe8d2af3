/* JSON scanning: a structural scanner walks the top-level JSON and finds
 * each value's extent (brackets and strings only, no allocation) and, for
 * trace events, the offsets of the "ph" and "name" values on the way. The
 * events zamcap needs are then read with the pull reader (jread.c) and
 * handed to the profile decoder, the thread labels or the figures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

enum { C_OTHER, C_QUOTE, C_OPEN, C_CLOSE, C_COMMA, C_END };
static unsigned char ing_cls[256];

void ing_init_cls(void) {
  if (ing_cls['"']) return;
  ing_cls['"'] = C_QUOTE;
  ing_cls['{'] = ing_cls['['] = C_OPEN;
  ing_cls['}'] = ing_cls[']'] = C_CLOSE;
  ing_cls[','] = C_COMMA;
}

/* Finds the extent of the JSON value at g->pos, reading as needed; notes
 * the "ph" and "name" values when the value is an object. Does not validate
 * what lies inside: the events that matter are parsed in full afterwards. */
static enum zc_err ing_value(struct ing *g, struct val *v) {
  size_t s = g->pos, i = s, str = 0;
  int depth = 0, in_str = 0, expect_key = 0, pending = 0, scalar = 0;
  int obj = (unsigned char)g->buf[s] == '{';
  v->ph = v->name = v->cat = ING_NOOFF;
  if (!ing_cls[(unsigned char)g->buf[s]]) scalar = 1;
  for (;;) {
    const unsigned char *b = (const unsigned char *)g->buf;
    size_t n = g->len;
    if (scalar) {
      while (i < n && !ing_cls[b[i]] && !ing_isws(b[i]) && b[i] != ':')
        i++;
      if (i < n || g->eof) goto done;
    }
    while (!scalar && i < n) {
      if (in_str) {
        const unsigned char *q = memchr(b + i, '"', n - i);
        if (!q) {
          i = n;
          break;
        }
        size_t qi = (size_t)(q - b), bs = 0;
        while (qi - bs > str + 1 && b[qi - bs - 1] == '\\')
          bs++;
        i = qi + 1;
        if (bs & 1) continue; /* an escaped quote */
        in_str = 0;
        if (depth == 0) goto done; /* the value was a string */
        if (depth == 1 && obj) {
          if (expect_key) {
            size_t kl = qi - str - 1;
            pending = kl == 2 && b[str + 1] == 'p' && b[str + 2] == 'h' ? 1
                      : kl == 4 && !memcmp(b + str + 1, "name", 4)      ? 2
                      : kl == 3 && !memcmp(b + str + 1, "cat", 3)       ? 3
                                                                        : 0;
            expect_key = 0;
          } else if (pending) {
            if (pending == 1)
              v->ph = str + 1 - s;
            else if (pending == 2)
              v->name = str + 1 - s;
            else
              v->cat = str + 1 - s;
            pending = 0;
          }
        }
        continue;
      }
      unsigned char c = b[i];
      switch (ing_cls[c]) {
      case C_OTHER: i++; continue;
      case C_QUOTE:
        in_str = 1;
        str = i++;
        continue;
      case C_OPEN:
        depth++;
        if (depth == 1 && c == '{') expect_key = 1;
        i++;
        continue;
      case C_CLOSE:
        i++;
        if (--depth <= 0) goto done;
        continue;
      case C_COMMA:
        if (depth == 1) expect_key = 1, pending = 0;
        i++;
        continue;
      }
    }
    if (g->eof)
      return zc_fail(ZC_E_PARSE,
                     "%s: truncated: the value starting at byte %llu is not "
                     "closed (the data ends at byte %llu)",
                     g->path, (unsigned long long)(g->base + s),
                     (unsigned long long)(g->base + g->len));
    size_t shift;
    g->pos = s;
    enum zc_err e = ing_more(g, s, &shift);
    if (e) return e;
    s -= shift;
    i -= shift;
    str -= str >= shift ? shift : str;
  }
done:
  v->s = s;
  v->e = i;
  g->pos = i;
  return ZC_OK;
}

/* Walks obj to the value of key (one level); 1 with the cursor there. */
int ing_find(struct jr *r, const char *key) {
  const char *k;
  size_t kn;
  if (!jr_obj(r)) return 0;
  while (jr_more(r, &k, &kn)) {
    if (jr_is(k, kn, key)) return 1;
    if (!jr_skip(r)) return 0;
  }
  return 0;
}

void ing_copy(char *dst, size_t cap, const char *s, size_t n) {
  if (n >= cap) n = cap - 1;
  memcpy(dst, s, n);
  dst[n] = '\0';
}

/* A number, or a string that holds one: some tools write "pid": "7512". */
static int ing_numish(struct jr *r, double *d) {
  if (jr_peek(r) != '"') return jr_num(r, d);
  const char *s;
  size_t n;
  char b[40], *end;
  if (!jr_str(r, &s, &n)) return 0;
  ing_copy(b, sizeof b, s, n);
  *d = strtod(b, &end);
  return end != b && !*end;
}

static enum zc_err ing_event(struct ing *g, const struct val *v) {
  uint64_t off = g->base + v->s;
  const char *text = g->buf + v->s;
  struct jr r;
  jr_init(&r, text, v->e - v->s);
  char ph[4] = "", name[64] = "", id[48] = "";
  double pid = 0, tid = 0, ts = 0, dur = -1, tdur = -1;
  int has_ts = 0;
  const char *args = NULL, *k, *s;
  size_t kn, sn;
  enum zc_err e = ZC_OK;
  /* The top level first: "args" usually comes before "name" (keys are
   * sorted), so it is noted and read once the event's kind is known. */
  if (jr_obj(&r)) {
    while (jr_more(&r, &k, &kn)) {
      if (jr_is(k, kn, "ph") && jr_str(&r, &s, &sn))
        ing_copy(ph, sizeof ph, s, sn);
      else if (jr_is(k, kn, "name") && jr_str(&r, &s, &sn))
        ing_copy(name, sizeof name, s, sn);
      else if (jr_is(k, kn, "pid"))
        ing_numish(&r, &pid);
      else if (jr_is(k, kn, "tid"))
        ing_numish(&r, &tid);
      else if (jr_is(k, kn, "ts"))
        has_ts = ing_numish(&r, &ts);
      else if (jr_is(k, kn, "dur"))
        ing_numish(&r, &dur);
      else if (jr_is(k, kn, "tdur"))
        ing_numish(&r, &tdur);
      else if (jr_is(k, kn, "id")) {
        if (jr_peek(&r) == '"' && jr_str(&r, &s, &sn))
          ing_copy(id, sizeof id, s, sn);
        else {
          double d = 0;
          jr_num(&r, &d);
          snprintf(id, sizeof id, "#%.0f", d);
        }
      } else {
        if (jr_is(k, kn, "args")) args = r.p;
        jr_skip(&r);
      }
    }
  }
  if (r.err) goto bad;
  g->parsed++;
  int64_t ipid = pid > -9e18 && pid < 9e18 ? (int64_t)pid : 0;
  int64_t itid = tid > -9e18 && tid < 9e18 ? (int64_t)tid : 0;
  if (!strcmp(name, "CpuProfile")) {
    e = ing_cpuprofile_event(g, &r, args, ipid, itid, off);
    if (r.err) goto bad;
    goto out;
  }
  if (ph[0] != 'P' && ph[0] != 'M') {
    if (args && ing_is_meta(name)) {
      r.p = args;
      ing_meta_event(g, &r, name, ipid);
      r.err = NULL; /* what the frames are is a label, not data */
      goto out;
    }
    if (ph[0] == 'X' && ana_ctx_cpu_time(g->ctx) &&
        ing_cpu_wanted(name, strlen(name)))
      ing_cpu_event(g, ipid, itid, has_ts ? ts : NAN, dur, tdur,
                    strcmp(name, "RunTask") != 0);
    if (ing_vital_is(name))
      ing_vital_event(g, &r, args, ph[0], name, id, has_ts ? ts : NAN);
    else
      ing_figure_event(g, ph[0], name, ipid, itid, has_ts ? ts : NAN, dur);
    goto out;
  }
  if (!args) goto out;
  r.p = args;
  if (!strcmp(ph, "M") && !strcmp(name, "thread_name")) {
    if (ing_find(&r, "name") && jr_str(&r, &s, &sn))
      ing_thread_name(g, ipid, itid, s, sn);
  } else if (!strcmp(ph, "P") && !strcmp(name, "Profile")) {
    ing_profile_event(g, &r, ipid, itid, id, has_ts, ts);
  } else if (!strcmp(ph, "P") && !strcmp(name, "ProfileChunk")) {
    e = ing_profile_chunk(g, &r, ipid, id, off);
  }
  if (r.err) goto bad;
out:
  jr_done(&r);
  return e;
bad:
  jr_done(&r);
  if (r.toobig)
    return zc_fail(ZC_E_TOOBIG,
                   "%s: byte %llu: a string over %zu MiB in "
                   "one event",
                   g->path,
                   (unsigned long long)(off + (uint64_t)(r.err - text)),
                   ana__jr_strmax >> 20);
  return zc_fail(ZC_E_PARSE,
                 "%s: byte %llu: malformed event (bad JSON or "
                 "an unexpected value at byte %llu)",
                 g->path, (unsigned long long)off,
                 (unsigned long long)(off + (uint64_t)(r.err - text)));
}

/* Does the string at s (inside an event ending at e) read lit" ? */
static int ing_lit(const char *s, const char *e, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(e - s) > n && !memcmp(s, lit, n) && s[n] == '"';
}

/* Is this event one we parse? Decided from the raw "ph" and "name". */
static int ing_wanted(const struct ing *g, const struct val *v) {
  if (v->ph == ING_NOOFF) return 0;
  const char *p = g->buf + v->s + v->ph, *e = g->buf + v->e;
  if (p[1] != '"') return 0;
  if (p[0] == 'P' || p[0] == 'M') return 1;
  if (v->name == ING_NOOFF) return 0;
  const char *n = g->buf + v->s + v->name;
  if (n[0] == 'C' &&
      (ing_lit(n, e, "CpuProfile") || ing_lit(n, e, "CommitLoad")))
    return 1;
  if (ing_vital_wanted(n, e)) return 1;
  if (p[0] == 'X') {
    if (ing_lit(n, e, "RunTask") || ing_lit(n, e, "Layout") ||
        ing_lit(n, e, "UpdateLayoutTree"))
      return 1;
    const char *q = memchr(n, '"', (size_t)(e - n));
    return q && ana_ctx_cpu_time(g->ctx) && ing_cpu_wanted(n, (size_t)(q - n));
  }
  if (n[0] == 'T')
    return ing_lit(n, e, "TracingStartedInBrowser") ||
           ing_lit(n, e, "TracingStartedInPage") ||
           ing_lit(n, e, "TracingSessionIdForWorker");
  if (n[0] == 'F') return ing_lit(n, e, "FrameCommittedInBrowser");
  if (p[0] == 'I' || p[0] == 'R')
    return (size_t)(e - n) > 7 && !memcmp(n, "zamcap:", 7);
  return 0;
}

enum zc_err ing_events(struct ing *g, int bare) {
  enum zc_err e;
  int c;
  g->pos++; /* '[' */
  if ((e = ing_peek(g, &c))) return e;
  if (c == ']') {
    g->pos++;
    return ZC_OK;
  }
  for (;;) {
    if (c != '{') {
      if (c < 0 && bare) return ZC_OK; /* "[ev," then EOF: allowed */
      if (c < 0)
        return zc_fail(ZC_E_PARSE,
                       "%s: truncated: the event array is not "
                       "closed (the data ends at byte %llu)",
                       g->path, (unsigned long long)(g->base + g->len));
      return zc_fail(ZC_E_PARSE,
                     "%s: byte %llu: expected a trace event "
                     "object, found '%c'",
                     g->path, (unsigned long long)(g->base + g->pos), c);
    }
    /* SIGINT or SIGTERM: a long trace stops here (issue 26). */
    if (!(g->events & 1023) && zc_interrupted)
      return zc_fail(ZC_E_INTERRUPTED, "%s: interrupted while reading it",
                     g->path);
    struct val v;
    if ((e = ing_value(g, &v))) return e;
    g->events++;
    /* The "loading" category was recorded (CLS can be told, 0 or not). */
    if (!g->saw_loading && v.cat != ING_NOOFF &&
        ing_lit(g->buf + v.s + v.cat, g->buf + v.e, "loading"))
      g->saw_loading = 1;
    if (ing_wanted(g, &v) && (e = ing_event(g, &v))) return e;
    if ((e = ing_peek(g, &c))) return e;
    if (c == ']') {
      g->pos++;
      return ZC_OK;
    }
    if (c < 0 && bare) {
      /* The JSON Array Format lets a writer that died leave out the ']'. */
      zc_log(2, "%s: the event array has no closing ']' (allowed)", g->path);
      return ZC_OK;
    }
    if (c != ',') {
      if (c < 0)
        return zc_fail(ZC_E_PARSE,
                       "%s: truncated: the event array is not "
                       "closed (the data ends at byte %llu)",
                       g->path, (unsigned long long)(g->base + g->len));
      return zc_fail(ZC_E_PARSE,
                     "%s: byte %llu: expected ',' or ']' after "
                     "an event, found '%c'",
                     g->path, (unsigned long long)(g->base + g->pos), c);
    }
    g->pos++;
    if ((e = ing_peek(g, &c))) return e;
    if (c == ']') { /* a trailing comma: tolerated */
      g->pos++;
      return ZC_OK;
    }
  }
}

static int ing_keyis(const struct ing *g, const struct val *k, const char *s) {
  size_t n = strlen(s);
  return k->e - k->s == n + 2 && memcmp(g->buf + k->s + 1, s, n) == 0;
}

/* A DevTools export's metadata: its "sourceMaps" ([{url, sourceMapUrl,
 * sourceMap}], written when the export includes scripts and maps) are
 * kept; the rest is not read. A malformed entry is skipped. */
static void ing_metadata(struct ing *g, const struct val *v) {
  struct jr r;
  jr_init(&r, g->buf + v->s, v->e - v->s);
  const char *k, *s;
  size_t kn, sn;
  if (jr_obj(&r))
    while (jr_more(&r, &k, &kn)) {
      if (!jr_is(k, kn, "sourceMaps") || jr_peek(&r) != '[') {
        jr_skip(&r);
        continue;
      }
      jr_arr(&r);
      while (jr_more(&r, NULL, NULL) && jr_obj(&r)) {
        struct ana_embedded_map em = {.url = NULL, .mapn = 0};
        while (jr_more(&r, &k, &kn)) {
          if (jr_is(k, kn, "sourceMap") && jr_peek(&r) == '{') {
            const char *b = r.p;
            if (jr_skip(&r)) {
              free(em.map);
              em.map = zc_xstrndup(b, (size_t)(r.p - b));
              em.mapn = (size_t)(r.p - b);
            }
          } else if ((jr_is(k, kn, "url") || jr_is(k, kn, "sourceMapUrl")) &&
                     jr_peek(&r) == '"' && jr_str(&r, &s, &sn)) {
            char **dst = jr_is(k, kn, "url") ? &em.url : &em.map_url;
            free(*dst);
            *dst = zc_xstrndup(s, sn);
          } else {
            jr_skip(&r);
          }
        }
        if (em.url && em.map && !r.err) {
          ZC_GROW(g->emb, g->capemb, (size_t)g->nemb + 1);
          g->emb[g->nemb++] = em;
        } else {
          free(em.url);
          free(em.map_url);
          free(em.map);
        }
      }
    }
  jr_done(&r);
}

/* A top-level object: {"traceEvents": [...], ...} or a .cpuprofile. */
enum zc_err ing_object(struct ing *g) {
  enum zc_err e;
  int c;
  g->pos++; /* '{' */
  for (int first = 1;; first = 0) {
    if ((e = ing_peek(g, &c))) return e;
    if (c == '}' && first) break;
    if (c != '"') goto bad;
    struct val k;
    if ((e = ing_value(g, &k))) return e;
    int is_events = ing_keyis(g, &k, "traceEvents");
    int is_meta = ing_keyis(g, &k, "metadata");
    const char *cpk[] = {"nodes",   "samples", "timeDeltas", "startTime",
                         "endTime", "head",    "timestamps"};
    int cpf = -1;
    for (int i = 0; i < 7; i++)
      if (ing_keyis(g, &k, cpk[i])) cpf = i;
    if ((e = ing_peek(g, &c))) return e;
    if (c != ':') goto bad;
    g->pos++;
    if ((e = ing_peek(g, &c))) return e;
    if (c < 0) goto bad;
    if (is_events && c == '[') {
      if ((e = ing_events(g, 0))) return e;
    } else {
      struct val v;
      if ((e = ing_value(g, &v))) return e;
      if (cpf >= 0 && (e = ing_cpuprofile_field(g, cpf, &v))) return e;
      if (is_meta && c == '{') ing_metadata(g, &v);
    }
    if ((e = ing_peek(g, &c))) return e;
    if (c == '}') break;
    if (c != ',') goto bad;
    g->pos++;
  }
  g->pos++;
  return ZC_OK;
bad:
  if (c < 0)
    return zc_fail(ZC_E_PARSE,
                   "%s: truncated: the top-level object is not "
                   "closed (the data ends at byte %llu)",
                   g->path, (unsigned long long)(g->base + g->len));
  return zc_fail(ZC_E_PARSE,
                 "%s: byte %llu: unexpected '%c' in the "
                 "top-level object",
                 g->path, (unsigned long long)(g->base + g->pos), c);
}
