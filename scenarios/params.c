/* A flow's parameters (seed 003: the same scenario with other inputs can
 * hide a regression or expose it). The Recorder JSON's "zamcap" member
 * declares them, which @puppeteer/replay ignores, so the file still
 * replays there; the steps use them as {{name}}. Read and checked here,
 * each value checked against its parameter, and the {{name}}s of the
 * steps replaced before load.c checks the steps. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scn-int.h"

enum { MAX_PARAMS = 32, MAX_CHOICES = 1000, MAX_LEN = 10000 };
/* Integers as JSON numbers hold them exactly. */
#define MAX_INT 1e15

static enum zc_err pfail(const char *path, const char *name, const char *fmt,
                         ...) __attribute__((format(printf, 3, 4)));
static enum zc_err pfail(const char *path, const char *name, const char *fmt,
                         ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (name)
    return zc_fail(ZC_E_USAGE, "%s: zamcap.parameters.%s: %s", path, name, msg);
  return zc_fail(ZC_E_USAGE, "%s: zamcap.parameters: %s", path, msg);
}

static int name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* A parameter's name as {{name}} can spell it. */
static int name_ok(const char *s) {
  if (!*s || strlen(s) > 64) return 0;
  for (; *s; s++)
    if (!name_char(*s)) return 0;
  return 1;
}

static int whole(const cJSON *v, double lo, double hi) {
  return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi &&
         v->valuedouble == floor(v->valuedouble);
}

static enum zc_err read_choice(const char *path, struct scn_param *p,
                               const cJSON *v) {
  p->kind = SCN_PARAM_CHOICE;
  int n = cJSON_GetArraySize(v);
  if (!cJSON_IsArray(v) || n < 1 || n > MAX_CHOICES)
    return pfail(path, p->name,
                 "\"choice\" must list 1 to %d values; an empty "
                 "choice has nothing to try",
                 MAX_CHOICES);
  p->choice = zc_xcalloc((size_t)n, sizeof *p->choice);
  const cJSON *c;
  cJSON_ArrayForEach(c, v) {
    char num[64];
    if (cJSON_IsNumber(c))
      snprintf(num, sizeof num, "%.17g", c->valuedouble);
    else if (!cJSON_IsString(c))
      return pfail(path, p->name,
                   "\"choice\" %zu is neither a string nor "
                   "a number",
                   p->nchoice + 1);
    p->choice[p->nchoice++] =
        zc_xstrdup(cJSON_IsString(c) ? c->valuestring : num);
  }
  return ZC_OK;
}

static enum zc_err read_int(const char *path, struct scn_param *p,
                            const cJSON *v, const cJSON *scale) {
  p->kind = SCN_PARAM_INT;
  const cJSON *a = cJSON_GetArrayItem(v, 0), *b = cJSON_GetArrayItem(v, 1);
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2 ||
      !whole(a, -MAX_INT, MAX_INT) || !whole(b, -MAX_INT, MAX_INT))
    return pfail(path, p->name,
                 "\"int\" must be [LOW, HIGH], two whole numbers");
  p->lo = (long long)a->valuedouble;
  p->hi = (long long)b->valuedouble;
  if (p->lo > p->hi)
    return pfail(path, p->name, "the range [%lld, %lld] is empty", p->lo,
                 p->hi);
  if (scale &&
      !(cJSON_IsString(scale) && (!strcmp(scale->valuestring, "log") ||
                                  !strcmp(scale->valuestring, "linear"))))
    return pfail(path, p->name, "\"scale\" must be \"log\" or \"linear\"");
  p->log = scale && !strcmp(scale->valuestring, "log");
  if (p->log && p->lo < 1)
    return pfail(path, p->name,
                 "a log scale wants a range from 1 up, not from %lld", p->lo);
  return ZC_OK;
}

static enum zc_err read_string(const char *path, struct scn_param *p,
                               const cJSON *v) {
  p->kind = SCN_PARAM_STRING;
  const cJSON *len = cJSON_GetObjectItemCaseSensitive(v, "length");
  const cJSON *al = cJSON_GetObjectItemCaseSensitive(v, "alphabet"), *k;
  if (!cJSON_IsObject(v))
    return pfail(path, p->name,
                 "\"string\" must be {\"length\": [MIN, MAX], "
                 "\"alphabet\": \"...\"}");
  cJSON_ArrayForEach(
      k, v) if (strcmp(k->string, "length") &&
                strcmp(k->string,
                       "alphabet")) return pfail(path, p->name,
                                                 "unknown field string.%s "
                                                 "(known: length, alphabet)",
                                                 k->string);
  const cJSON *a = cJSON_GetArrayItem(len, 0), *b = cJSON_GetArrayItem(len, 1);
  if (!cJSON_IsArray(len) || cJSON_GetArraySize(len) != 2 ||
      !whole(a, 0, MAX_LEN) || !whole(b, 0, MAX_LEN))
    return pfail(path, p->name,
                 "\"length\" must be [MIN, MAX], whole numbers from 0 to %d",
                 MAX_LEN);
  p->minlen = (unsigned)a->valuedouble;
  p->maxlen = (unsigned)b->valuedouble;
  if (p->minlen > p->maxlen)
    return pfail(path, p->name, "the length range [%u, %u] is empty", p->minlen,
                 p->maxlen);
  if (!cJSON_IsString(al) || !al->valuestring[0])
    return pfail(path, p->name, "\"alphabet\" must be a non-empty string");
  p->alphabet = zc_xstrdup(al->valuestring);
  const unsigned char *s = (const unsigned char *)p->alphabet;
  size_t n = strlen(p->alphabet);
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    size_t l = zc_utf8_char(s + i, n - i, &cp);
    if (!l) return pfail(path, p->name, "\"alphabet\" is not UTF-8");
    size_t k2 = 0;
    while (k2 < p->nalpha && strncmp(p->alpha[k2], (const char *)s + i, l))
      k2++;
    if (k2 == p->nalpha) { /* each character once */
      p->alpha = zc_xreallocarray(p->alpha, p->nalpha + 1, sizeof *p->alpha);
      p->alpha[p->nalpha++] = zc_xstrndup((const char *)s + i, l);
    }
    i += l;
  }
  return ZC_OK;
}

/* One parameter's spec: exactly one of choice, int and string. */
static enum zc_err read_one(const char *path, struct scn_param *p,
                            const cJSON *spec) {
  if (!cJSON_IsObject(spec))
    return pfail(path, p->name,
                 "must be an object: {\"choice\": [...]}, {\"int\": [LOW, "
                 "HIGH]} or {\"string\": {...}}");
  const cJSON *k, *v = NULL, *scale = NULL;
  const char *type = NULL;
  cJSON_ArrayForEach(k, spec) {
    if (!strcmp(k->string, "scale")) {
      scale = k;
      continue;
    }
    if (strcmp(k->string, "choice") && strcmp(k->string, "int") &&
        strcmp(k->string, "string"))
      return pfail(path, p->name,
                   "unknown type \"%s\" (known: choice, int, string)",
                   k->string);
    if (type)
      return pfail(path, p->name, "give one type, not both %s and %s", type,
                   k->string);
    type = k->string;
    v = k;
  }
  if (!type) return pfail(path, p->name, "no type: give choice, int or string");
  if (scale && strcmp(type, "int"))
    return pfail(path, p->name, "\"scale\" goes with \"int\" only");
  if (!strcmp(type, "choice")) return read_choice(path, p, v);
  if (!strcmp(type, "int")) return read_int(path, p, v, scale);
  return read_string(path, p, v);
}

void scn__params_free(struct scn_param *p, size_t n) {
  for (size_t i = 0; p && i < n; i++) {
    free(p[i].name);
    for (size_t k = 0; k < p[i].nchoice; k++)
      free(p[i].choice[k]);
    free(p[i].choice);
    for (size_t k = 0; k < p[i].nalpha; k++)
      free(p[i].alpha[k]);
    free(p[i].alpha);
    free(p[i].alphabet);
  }
  free(p);
}

enum zc_err scn__params_read(const char *path, const cJSON *z,
                             struct scn_param **out, size_t *n) {
  *out = NULL;
  *n = 0;
  const cJSON *ps = cJSON_IsObject(z)
                        ? cJSON_GetObjectItemCaseSensitive(z, "parameters")
                        : NULL;
  if (!ps) return ZC_OK;
  int count = cJSON_GetArraySize(ps);
  if (!cJSON_IsObject(ps) || count < 1 || count > MAX_PARAMS)
    return pfail(path, NULL,
                 "must be an object of 1 to %d parameters, "
                 "{\"NAME\": {\"choice\": [...]}, ...}",
                 MAX_PARAMS);
  struct scn_param *p = zc_xcalloc((size_t)count, sizeof *p);
  size_t i = 0;
  enum zc_err e = ZC_OK;
  const cJSON *spec;
  cJSON_ArrayForEach(spec, ps) {
    if (!name_ok(spec->string)) {
      e = pfail(path, NULL,
                "\"%.64s\" is no name for {{name}}: letters, digits, _ "
                "and - only",
                spec->string);
      break;
    }
    p[i].name = zc_xstrdup(spec->string);
    for (size_t k = 0; k < i && !e; k++)
      if (!strcmp(p[k].name, p[i].name))
        e = pfail(path, p[i].name, "declared twice");
    i++;
    if (e || (e = read_one(path, &p[i - 1], spec))) break;
  }
  if (e) {
    scn__params_free(p, i);
    return e;
  }
  *out = p;
  *n = i;
  return ZC_OK;
}

/* The length of v in characters; SIZE_MAX when v is not UTF-8. */
static size_t utf8_count(const char *v) {
  size_t n = strlen(v), c = 0;
  for (size_t i = 0; i < n; c++) {
    uint32_t cp;
    size_t l = zc_utf8_char((const unsigned char *)v + i, n - i, &cp);
    if (!l) return SIZE_MAX;
    i += l;
  }
  return c;
}

/* Whether the character at v (l bytes) is in p's alphabet. */
static int in_alphabet(const struct scn_param *p, const char *v, size_t l) {
  for (size_t k = 0; k < p->nalpha; k++)
    if (strlen(p->alpha[k]) == l && !strncmp(p->alpha[k], v, l)) return 1;
  return 0;
}

static int string_valid(const struct scn_param *p, const char *v, char *why,
                        size_t cap) {
  size_t c = utf8_count(v), n = strlen(v);
  if (c == SIZE_MAX) {
    snprintf(why, cap, "not UTF-8");
    return 0;
  }
  if (c < p->minlen || c > p->maxlen) {
    snprintf(why, cap, "%zu characters, not %u to %u", c, p->minlen, p->maxlen);
    return 0;
  }
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    size_t l = zc_utf8_char((const unsigned char *)v + i, n - i, &cp);
    if (!in_alphabet(p, v + i, l)) {
      snprintf(why, cap, "'%.*s' is not in the alphabet \"%s\"", (int)l, v + i,
               p->alphabet);
      return 0;
    }
    i += l;
  }
  return 1;
}

int scn_param_valid(const struct scn_param *p, const char *v, char *why,
                    size_t cap) {
  switch (p->kind) {
  case SCN_PARAM_CHOICE:
    for (size_t k = 0; k < p->nchoice; k++)
      if (!strcmp(p->choice[k], v)) return 1;
    snprintf(why, cap, "not one of its %zu choices", p->nchoice);
    return 0;
  case SCN_PARAM_INT: {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || strchr(" \t\n+", v[0])) {
      snprintf(why, cap, "not a whole number");
      return 0;
    }
    if (x < p->lo || x > p->hi) {
      snprintf(why, cap, "outside the range [%lld, %lld]", p->lo, p->hi);
      return 0;
    }
    return 1;
  }
  case SCN_PARAM_STRING: return string_valid(p, v, why, cap);
  }
  return 0;
}

char *scn_param_first(const struct scn_param *p) {
  char num[32];
  switch (p->kind) {
  case SCN_PARAM_CHOICE: return zc_xstrdup(p->choice[0]);
  case SCN_PARAM_INT:
    snprintf(num, sizeof num, "%lld", p->lo);
    return zc_xstrdup(num);
  case SCN_PARAM_STRING: break;
  }
  size_t l = strlen(p->alpha[0]);
  char *s = zc_xmalloc(l * p->minlen + 1);
  for (unsigned i = 0; i < p->minlen; i++)
    memcpy(s + i * l, p->alpha[0], l);
  s[l * p->minlen] = '\0';
  return s;
}

void scn_param_text(const struct scn_param *p, char *out, size_t cap) {
  size_t n;
  switch (p->kind) {
  case SCN_PARAM_CHOICE:
    n = (size_t)snprintf(out, cap, "one of %zu (", p->nchoice);
    for (size_t k = 0; k < p->nchoice && n < cap; k++)
      n += (size_t)snprintf(out + n, cap - n, "%s%s", k ? ", " : "",
                            p->choice[k]);
    if (n < cap) snprintf(out + n, cap - n, ")");
    return;
  case SCN_PARAM_INT:
    snprintf(out, cap, "an integer from %lld to %lld%s", p->lo, p->hi,
             p->log ? ", log scale" : "");
    return;
  case SCN_PARAM_STRING:
    snprintf(out, cap, "a string of %u to %u characters from \"%s\"", p->minlen,
             p->maxlen, p->alphabet);
    return;
  }
}

double scn_param_number(const struct scn_param *p, const char *v) {
  if (p->kind == SCN_PARAM_INT) return strtod(v, NULL);
  if (p->kind == SCN_PARAM_STRING) {
    size_t c = utf8_count(v);
    return c == SIZE_MAX ? NAN : (double)c;
  }
  return NAN;
}

void scn__values_free(char **v, size_t n) {
  for (size_t i = 0; v && i < n; i++)
    free(v[i]);
  free(v);
}

/* One --param's "name=value" put into v. */
static enum zc_err assign_one(const char *path, const struct scn_param *p,
                              size_t np, const char *as, char **v,
                              unsigned char *set) {
  const char *eq = strchr(as, '=');
  if (!eq || eq == as)
    return zc_fail(ZC_E_USAGE, "--param %s: give NAME=VALUE", as);
  size_t k = 0, nl = (size_t)(eq - as);
  while (k < np && (strlen(p[k].name) != nl || strncmp(p[k].name, as, nl)))
    k++;
  if (k == np) {
    char names[512] = "";
    for (size_t i = 0, n = 0; i < np && n < sizeof names; i++)
      n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                            p[i].name);
    return zc_fail(ZC_E_USAGE,
                   "--param %.*s: %s declares no such parameter "
                   "(it has %s)",
                   (int)nl, as, path, names);
  }
  char why[256], text[600];
  if (set[k]) return zc_fail(ZC_E_USAGE, "--param %s given twice", p[k].name);
  if (!scn_param_valid(&p[k], eq + 1, why, sizeof why)) {
    scn_param_text(&p[k], text, sizeof text);
    return zc_fail(ZC_E_USAGE, "--param %s: %s; %s is %s", as, why, p[k].name,
                   text);
  }
  set[k] = 1;
  free(v[k]);
  v[k] = zc_xstrdup(eq + 1);
  return ZC_OK;
}

enum zc_err scn__values(const char *path, const struct scn_param *p, size_t np,
                        const char *const *given, const char *const *assign,
                        size_t n, char ***out) {
  *out = NULL;
  if (n && !np)
    return zc_fail(ZC_E_USAGE,
                   "--param %s: %s declares no parameters "
                   "(zamcap.parameters)",
                   assign[0], path);
  char **v = zc_xcalloc(np + 1, sizeof *v);
  unsigned char set[MAX_PARAMS] = {0};
  enum zc_err e = ZC_OK;
  for (size_t k = 0; k < np && !e; k++) {
    char why[256];
    v[k] = given ? zc_xstrdup(given[k]) : scn_param_first(&p[k]);
    if (given && !scn_param_valid(&p[k], given[k], why, sizeof why))
      e = pfail(path, p[k].name, "the value \"%s\": %s", given[k], why);
  }
  for (size_t i = 0; i < n && !e; i++)
    e = assign_one(path, p, np, assign[i], v, set);
  if (e) {
    scn__values_free(v, np);
    return e;
  }
  *out = v;
  return ZC_OK;
}

/* Appends v percent-encoded as encodeURIComponent does. */
static enum zc_err put_encoded(struct zc_buf *b, const char *v) {
  static const char keep[] = "-_.!~*'()";
  enum zc_err e = ZC_OK;
  for (const unsigned char *s = (const unsigned char *)v; *s && !e; s++)
    if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
        (*s >= '0' && *s <= '9') || strchr(keep, *s))
      e = zc_buf_addc(b, (char)*s);
    else
      e = zc_buf_printf(b, "%%%02X", *s);
  return e;
}

/* The substitution of one string: its {{name}}s replaced (percent-encoded
 * in a URL), into *out (caller frees); NULL when there was none. The
 * text between the braces, spaces trimmed, names a parameter when it is
 * a name at all; other braces stay as they are. */
static enum zc_err subst(const char *s, int url, const struct scn_param *p,
                         size_t np, char *const *values, char **out, char *bad,
                         size_t badcap) {
  *out = NULL;
  if (!strstr(s, "{{")) return ZC_OK;
  struct zc_buf b;
  zc_buf_init(&b, 16 << 20);
  enum zc_err e = ZC_OK;
  const char *at = s, *o;
  while (!e && (o = strstr(at, "{{")) != NULL) {
    const char *c = strstr(o + 2, "}}");
    if (!c) break;
    const char *n0 = o + 2, *n1 = c;
    while (n0 < n1 && *n0 == ' ')
      n0++;
    while (n1 > n0 && n1[-1] == ' ')
      n1--;
    int is_name = n1 > n0;
    for (const char *q = n0; q < n1; q++)
      is_name &= name_char(*q);
    size_t k = 0;
    while (is_name && k < np &&
           (strlen(p[k].name) != (size_t)(n1 - n0) ||
            strncmp(p[k].name, n0, (size_t)(n1 - n0))))
      k++;
    if (is_name && k == np) {
      snprintf(bad, badcap, "%.*s", (int)(n1 - n0), n0);
      e = ZC_E_USAGE;
      break;
    }
    e = zc_buf_add(&b, at, (size_t)(is_name ? o - at : c + 2 - at));
    if (!e && is_name)
      e = url ? put_encoded(&b, values[k])
              : zc_buf_add(&b, values[k], strlen(values[k]));
    at = c + 2;
  }
  if (!e) e = zc_buf_add(&b, at, strlen(at));
  if (e) {
    zc_buf_free(&b);
    return e;
  }
  *out = zc_buf_take(&b);
  return ZC_OK;
}

/* A substitution under way: the parameters, their values, the step. */
struct sub {
  const char *path;
  const struct scn_param *p;
  size_t np;
  char *const *values;
  int step;
  const char *type;
};

/* Replaces item, a string of parent (an object or a list), with its
 * substitution; nothing when it is no string or has no {{name}}. */
static enum zc_err sub_item(const struct sub *x, cJSON *parent, cJSON *item,
                            int url) {
  if (!cJSON_IsString(item)) return ZC_OK;
  char *r = NULL, bad[80] = "";
  enum zc_err e = subst(item->valuestring, url, x->p, x->np, x->values, &r, bad,
                        sizeof bad);
  if (e == ZC_E_USAGE && bad[0]) {
    char names[512] = "";
    for (size_t i = 0, n = 0; i < x->np && n < sizeof names; i++)
      n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                            x->p[i].name);
    return zc_fail(ZC_E_USAGE,
                   "%s: step %d (%s): {{%s}} names no parameter (declared: "
                   "%s)",
                   x->path, x->step, x->type, bad, names);
  }
  if (e)
    return zc_fail(e, "%s: step %d (%s): a value too long", x->path, x->step,
                   x->type);
  if (!r) return ZC_OK;
  cJSON *n = cJSON_CreateString(r);
  free(r);
  int ok = n && (cJSON_IsObject(parent)
                     ? cJSON_ReplaceItemInObjectCaseSensitive(parent,
                                                              item->string, n)
                     : cJSON_ReplaceItemViaPointer(parent, item, n));
  if (!ok) {
    cJSON_Delete(n);
    return zc_fail(ZC_E_NOMEM, "%s: out of memory", x->path);
  }
  return ZC_OK;
}

/* The selectors: strings, or lists of strings (chains). */
static enum zc_err sub_selectors(const struct sub *x, cJSON *sel) {
  cJSON *alt = sel ? sel->child : NULL;
  enum zc_err e = ZC_OK;
  while (alt && !e) {
    cJSON *next = alt->next;
    if (cJSON_IsArray(alt)) {
      cJSON *part = alt->child;
      while (part && !e) {
        cJSON *pn = part->next;
        e = sub_item(x, alt, part, 0);
        part = pn;
      }
    } else {
      e = sub_item(x, sel, alt, 0);
    }
    alt = next;
  }
  return e;
}

enum zc_err scn__params_subst(const char *path, cJSON *steps,
                              const struct scn_param *p, size_t np,
                              char *const *values) {
  if (!np || !cJSON_IsArray(steps)) return ZC_OK;
  struct sub x = {.path = path, .p = p, .np = np, .values = values};
  enum zc_err e = ZC_OK;
  cJSON *st;
  cJSON_ArrayForEach(st, steps) {
    x.step++;
    if (!cJSON_IsObject(st)) continue; /* load.c says what is wrong */
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(st, "type");
    x.type = cJSON_IsString(t) ? t->valuestring : "?";
    static const char *const keys[] = {"value", "url", "expression"};
    for (size_t k = 0; k < ZC_ARRAY_LEN(keys) && !e; k++) {
      cJSON *v = cJSON_GetObjectItemCaseSensitive(st, keys[k]);
      if (v) e = sub_item(&x, st, v, k == 1);
    }
    cJSON *sel = cJSON_GetObjectItemCaseSensitive(st, "selectors");
    if (!e && cJSON_IsArray(sel)) e = sub_selectors(&x, sel);
    if (e) break;
  }
  return e;
}
