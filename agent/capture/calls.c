/* Count runs (capture.h): V8's precise coverage with call counts, from
 * zamcap.recordFrom to settled, written as zamcap-calls/1. Coverage gives
 * each function's range as character offsets into its script; the
 * analysis knows functions by the line and column the CPU profile gives,
 * so each range is turned into lines and UTF-16 columns here, against the
 * script's own text, and the file stands alone. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

/* Precise coverage changes how V8 optimizes: count runs are never timed
 * runs. Before it starts, V8's best-effort coverage lists every function
 * the page has compiled so far, called or not (*inv, caller frees): the
 * takes of precise coverage list only those called since, and the ones
 * never called are what says whether code one build calls was in the
 * other, uncalled. Functions compiled later, under precise coverage, are
 * listed by the first take itself, called or not. */
enum zc_err cap_calls_start(struct cdp_conn *conn, struct cdp_page *p,
                            cJSON **inv) {
  *inv = NULL;
  const char *ss = cdp_page_session(p);
  enum zc_err e = cdp_call(conn, ss, "Profiler.enable", NULL, 0, NULL);
  if (!e) e = cdp_call(conn, ss, "Debugger.enable", NULL, 0, NULL);
  if (e) return e;
  /* without it, the counts stand; only uncalled functions go unlisted */
  if (cdp_call(conn, ss, "Profiler.getBestEffortCoverage", NULL, 0, inv))
    zc_log(2, "no list of the page's functions: %s", zc_errmsg());
  cJSON *a = cJSON_CreateObject();
  cJSON_AddBoolToObject(a, "callCount", 1);
  cJSON_AddBoolToObject(a, "detailed", 0);
  return cdp_call(conn, ss, "Profiler.startPreciseCoverage", a, 0, NULL);
}

/* A function's range, and where it is in lines and UTF-16 columns. */
struct fn_pos {
  const char *name;
  double calls;
  long start, end; /* UTF-16 offsets */
  long line, col, end_line, end_col;
  size_t b0, b1; /* byte offsets in the UTF-8 text */
};

static int by_start(const void *a, const void *b) {
  const struct fn_pos *x = *(const struct fn_pos *const *)a,
                      *y = *(const struct fn_pos *const *)b;
  return (x->start > y->start) - (x->start < y->start);
}

static int by_end(const void *a, const void *b) {
  const struct fn_pos *x = *(const struct fn_pos *const *)a,
                      *y = *(const struct fn_pos *const *)b;
  return (x->end > y->end) - (x->end < y->end);
}

/* The UTF-16 length of the UTF-8 sequence that starts with byte c. */
static int u16_units(unsigned char c) {
  return c >= 0xf0 ? 2 : 1;
}
static int utf8_len(unsigned char c) {
  return c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

/* Walks the text once, filling in the line, column and byte offset of
 * every function's start (and, in a second walk, of its end). */
static void place(const char *text, size_t n, struct fn_pos **v, size_t k,
                  int ends) {
  qsort(v, k, sizeof *v, ends ? by_end : by_start);
  size_t b = 0, i = 0;
  long off = 0, line = 0, col = 0;
  while (i < k) {
    long want = ends ? v[i]->end : v[i]->start;
    if (off >= want || b >= n) {
      if (ends)
        v[i]->end_line = line, v[i]->end_col = col, v[i]->b1 = b;
      else
        v[i]->line = line, v[i]->col = col, v[i]->b0 = b;
      i++;
      continue;
    }
    unsigned char c = (unsigned char)text[b];
    int u = u16_units(c), l = utf8_len(c);
    if (c == '\n')
      line++, col = 0;
    else
      col += u;
    off += u;
    b += (size_t)l <= n - b ? (size_t)l : n - b;
  }
}

/* Words that are JavaScript's own, kept as they are; every other
 * identifier stands for a name, which a minifier picks anew in each build
 * (issue 35: "the same code" across two bundles). */
static int keyword(const char *t, size_t n) {
  static const char *const kw[] = {
      "await",    "break",    "case",    "catch",      "class",    "const",
      "continue", "debugger", "default", "delete",     "do",       "else",
      "export",   "extends",  "false",   "finally",    "for",      "function",
      "if",       "import",   "in",      "instanceof", "let",      "new",
      "null",     "return",   "super",   "switch",     "this",     "throw",
      "true",     "try",      "typeof",  "var",        "void",     "while",
      "with",     "yield",    "async",   "of",         "undefined"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (strlen(kw[i]) == n && !memcmp(kw[i], t, n)) return 1;
  return 0;
}

static int id_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$' || c >= 0x80;
}

static int id_char(unsigned char c) {
  return id_start(c) || (c >= '0' && c <= '9');
}

/* FNV-1a 32 of the function's text as a minifier cannot change it: no
 * white space, and every identifier that is no keyword one name ("a"), so
 * that the same code reads the same in two builds whatever its local
 * names (nested functions included). */
static void text_hash(const char *text, const struct fn_pos *f, char out[9]) {
  uint32_t h = 2166136261u;
  for (size_t i = f->b0; i < f->b1;) {
    unsigned char c = (unsigned char)text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      i++;
      continue;
    }
    if (id_start(c) && !(i > f->b0 && id_char((unsigned char)text[i - 1]))) {
      size_t j = i;
      while (j < f->b1 && id_char((unsigned char)text[j]))
        j++;
      const char *w = keyword(text + i, j - i) ? text + i : "a";
      size_t n = w == text + i ? j - i : 1;
      for (size_t k = 0; k < n; k++) {
        h ^= (unsigned char)w[k];
        h *= 16777619u;
      }
      h ^= ' '; /* a word's end */
      h *= 16777619u;
      i = j;
      continue;
    }
    h ^= c;
    h *= 16777619u;
    i++;
  }
  snprintf(out, 9, "%08x", h);
}

/* Whether v (k of them, sorted by start) has a function at [start, end). */
static int listed(struct fn_pos *const *v, size_t k, long start, long end) {
  size_t lo = 0, hi = k;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid]->start < start)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < k && v[lo]->start == start; lo++)
    if (v[lo]->end == end) return 1;
  return 0;
}

/* Function f of a coverage result into *pos (its first range is the whole
 * function), its calls 0 where uncalled says so; 0 when f has no range or
 * name. */
static int fn_of(const cJSON *f, int uncalled, struct fn_pos *pos) {
  const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(f, "ranges"), 0);
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItem(f, "functionName"));
  double calls = cJSON_GetNumberValue(cJSON_GetObjectItem(r, "count"));
  if (!r || !name || !(calls >= 0)) return 0;
  *pos = (struct fn_pos){
      .name = name,
      .calls = uncalled ? 0 : calls,
      .start =
          (long)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "startOffset")),
      .end = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "endOffset"))};
  return pos->end > pos->start;
}

/* One script's functions, placed against its text: those that ran, and
 * the named ones that did not (listed by the take, or by ifns, the
 * script's functions before the counts began). */
static cJSON *script_json(struct cdp_conn *conn, const char *ss,
                          const cJSON *script, const cJSON *inv) {
  const char *url = cJSON_GetStringValue(cJSON_GetObjectItem(script, "url"));
  const char *id =
      cJSON_GetStringValue(cJSON_GetObjectItem(script, "scriptId"));
  const cJSON *fns = cJSON_GetObjectItem(script, "functions");
  if (!url || !id || strncmp(url, "http", 4) || !cJSON_IsArray(fns))
    return NULL;
  const cJSON *ifns = NULL, *x;
  cJSON_ArrayForEach(x, inv) {
    const char *xid = cJSON_GetStringValue(cJSON_GetObjectItem(x, "scriptId"));
    if (xid && !strcmp(xid, id)) ifns = cJSON_GetObjectItem(x, "functions");
  }
  size_t cap =
             (size_t)cJSON_GetArraySize(fns) + (size_t)cJSON_GetArraySize(ifns),
         k = 0, ran = 0;
  struct fn_pos *pos = zc_xcalloc(cap ? cap : 1, sizeof *pos);
  struct fn_pos **v = zc_xcalloc(cap ? cap : 1, sizeof *v);
  const cJSON *f;
  int first = 1;
  cJSON_ArrayForEach(f, fns) {
    /* the script's top level (the first function, no name, from offset 0)
     * is no function; an anonymous function that ran stays (a bundler
     * inlines named ones as such, and a map names them), and a named one
     * that never ran stays with 0 calls */
    struct fn_pos fp;
    int ok = fn_of(f, 0, &fp);
    int top = first && ok && !fp.name[0] && fp.start == 0;
    first = 0;
    if (!ok || top || (!(fp.calls > 0) && !fp.name[0])) continue;
    ran += fp.calls > 0;
    pos[k] = fp;
    v[k] = &pos[k];
    k++;
  }
  cJSON *src = NULL, *out = NULL;
  if (!ran) { /* nothing ran: no source to ask for */
    free(v);
    free(pos);
    return NULL;
  }
  qsort(v, k, sizeof *v, by_start);
  size_t k0 = k;
  cJSON_ArrayForEach(f, ifns) { /* before the counts: none ran since */
    struct fn_pos fp;
    if (k < cap && fn_of(f, 1, &fp) && fp.name[0] && fp.start > 0 &&
        !listed(v, k0, fp.start, fp.end)) {
      pos[k] = fp;
      v[k] = &pos[k];
      k++;
    }
  }
  cJSON *a = cJSON_CreateObject(); /* cdp_call takes it */
  cJSON_AddStringToObject(a, "scriptId", id);
  if (!cdp_call(conn, ss, "Debugger.getScriptSource", a, 0, &src)) {
    const char *text =
        cJSON_GetStringValue(cJSON_GetObjectItem(src, "scriptSource"));
    size_t n = text ? strlen(text) : 0;
    place(text ? text : "", n, v, k, 0);
    place(text ? text : "", n, v, k, 1);
    qsort(v, k, sizeof *v, by_start);
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "url", url);
    /* the whole script's, read as a function's: the same in two builds,
     * every function in it is the same code, run or not */
    struct fn_pos whole = {.b0 = 0, .b1 = n};
    char sh[9];
    text_hash(text ? text : "", &whole, sh);
    cJSON_AddStringToObject(out, "hash", sh);
    cJSON *arr = cJSON_AddArrayToObject(out, "functions");
    for (size_t i = 0; i < k; i++) {
      char h[9];
      text_hash(text ? text : "", v[i], h);
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "name", v[i]->name);
      cJSON_AddNumberToObject(o, "line", (double)v[i]->line);
      cJSON_AddNumberToObject(o, "col", (double)v[i]->col);
      cJSON_AddNumberToObject(o, "end_line", (double)v[i]->end_line);
      cJSON_AddNumberToObject(o, "end_col", (double)v[i]->end_col);
      cJSON_AddNumberToObject(o, "calls", v[i]->calls);
      cJSON_AddStringToObject(o, "hash", h);
      cJSON_AddItemToArray(arr, o);
    }
  } else {
    zc_log(1, "no call counts for %s: %s", url, zc_errmsg());
  }
  cJSON_Delete(src);
  free(v);
  free(pos);
  return out;
}

static enum zc_err put_text(void *arg, FILE *f) {
  fputs(arg, f);
  return ZC_OK;
}

enum zc_err cap_calls_end(struct cdp_conn *conn, struct cdp_page *p,
                          const cJSON *inv, const char *trace_base, char **file,
                          uint64_t *bytes) {
  *file = NULL;
  const char *ss = cdp_page_session(p);
  cJSON *r = NULL;
  enum zc_err e =
      cdp_call(conn, ss, "Profiler.takePreciseCoverage", NULL, 0, &r);
  if (e) return e;
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddStringToObject(doc, "schema", "zamcap-calls/1");
  cJSON *scripts = cJSON_AddArrayToObject(doc, "scripts");
  const cJSON *s;
  cJSON_ArrayForEach(s, cJSON_GetObjectItem(r, "result")) {
    cJSON *o = script_json(conn, ss, s, cJSON_GetObjectItem(inv, "result"));
    if (o) cJSON_AddItemToArray(scripts, o);
  }
  cJSON_Delete(r);
  cdp_send(conn, ss, "Profiler.stopPreciseCoverage", NULL);
  char *text = cJSON_PrintUnformatted(doc);
  cJSON_Delete(doc);
  if (!text) return zc_fail(ZC_E_NOMEM, "call counts: out of memory");
  zc_scrub(text); /* URLs with passwords or tokens */
  size_t n = strlen(trace_base) + 16;
  *file = zc_xmalloc(n);
  snprintf(*file, n, "%s.calls.json", trace_base);
  *bytes = strlen(text);
  e = zc_write_atomic(*file, put_text, text);
  free(text);
  if (e) {
    free(*file);
    *file = NULL;
  }
  return e;
}
