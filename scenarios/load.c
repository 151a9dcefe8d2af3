/* Loading and validating DevTools Recorder JSON, and mapping its URLs
 * onto a build. Everything that cannot run is refused here, before any
 * browser starts, with the step's number and what is wrong. Steps are
 * numbered from 1, as the Recorder panel shows them. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scn-int.h"
#include "zc-url.h"

static const char *const type_names[] = {
    "setViewport",
    "navigate",
    "click",
    "doubleClick",
    "hover",
    "change",
    "keyDown",
    "keyUp",
    "scroll",
    "waitForElement",
    "waitForExpression",
    "close",
    "emulateNetworkConditions",
};

const char *scn_type_name(enum scn_type t) {
  return (size_t)t < ZC_ARRAY_LEN(type_names) ? type_names[t] : "?";
}

/* Recorder step types zamcap knows but cannot replay. */
static const char *const refused[] = {"customStep", "waitForNavigation"};

struct ld {
  const char *path;
  int step; /* 1-based; 0 outside steps */
  const char *type;
};

static enum zc_err ld_fail(const struct ld *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static enum zc_err ld_fail(const struct ld *l, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (l->step)
    return zc_fail(ZC_E_USAGE, "%s: step %d (%s): %s", l->path, l->step,
                   l->type ? l->type : "?", msg);
  return zc_fail(ZC_E_USAGE, "%s: %s", l->path, msg);
}

static const cJSON *get(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* Key names the replay can type, as the Recorder's schema lists them
 * (Puppeteer's US keyboard layout): the name, the key value sent, the DOM
 * code, the Windows key code. Names of the form KeyA, Digit1, Numpad1 and
 * F1..F24 are made below; a single character is below too. */
struct key {
  const char *name, *key, *code;
  int keycode;
};
static const struct key keys[] = {
    {"Enter", "Enter", "Enter", 13},
    {"NumpadEnter", "Enter", "NumpadEnter", 13},
    {"Tab", "Tab", "Tab", 9},
    {"Escape", "Escape", "Escape", 27},
    {"Backspace", "Backspace", "Backspace", 8},
    {"Delete", "Delete", "Delete", 46},
    {"Insert", "Insert", "Insert", 45},
    {"ArrowLeft", "ArrowLeft", "ArrowLeft", 37},
    {"ArrowUp", "ArrowUp", "ArrowUp", 38},
    {"ArrowRight", "ArrowRight", "ArrowRight", 39},
    {"ArrowDown", "ArrowDown", "ArrowDown", 40},
    {"Home", "Home", "Home", 36},
    {"End", "End", "End", 35},
    {"PageUp", "PageUp", "PageUp", 33},
    {"PageDown", "PageDown", "PageDown", 34},
    {"Shift", "Shift", "ShiftLeft", 16},
    {"ShiftLeft", "Shift", "ShiftLeft", 16},
    {"ShiftRight", "Shift", "ShiftRight", 16},
    {"Control", "Control", "ControlLeft", 17},
    {"ControlLeft", "Control", "ControlLeft", 17},
    {"ControlRight", "Control", "ControlRight", 17},
    {"Alt", "Alt", "AltLeft", 18},
    {"AltLeft", "Alt", "AltLeft", 18},
    {"AltRight", "Alt", "AltRight", 18},
    {"AltGraph", "AltGraph", "AltRight", 225},
    {"Meta", "Meta", "MetaLeft", 91},
    {"MetaLeft", "Meta", "MetaLeft", 91},
    {"MetaRight", "Meta", "MetaRight", 92},
    {"CapsLock", "CapsLock", "CapsLock", 20},
    {"NumLock", "NumLock", "NumLock", 144},
    {"ScrollLock", "ScrollLock", "ScrollLock", 145},
    {"Pause", "Pause", "Pause", 19},
    {"PrintScreen", "PrintScreen", "PrintScreen", 44},
    {"ContextMenu", "ContextMenu", "ContextMenu", 93},
    {"Space", " ", "Space", 32},
    {"Clear", "Clear", "Numpad5", 12},
    {"Help", "Help", "Help", 6},
    {"Select", "Select", "Select", 41},
    {"NumpadDecimal", ".", "NumpadDecimal", 110},
    {"NumpadMultiply", "*", "NumpadMultiply", 106},
    {"NumpadAdd", "+", "NumpadAdd", 107},
    {"NumpadSubtract", "-", "NumpadSubtract", 109},
    {"NumpadDivide", "/", "NumpadDivide", 111},
    {"NumpadEqual", "=", "NumpadEqual", 187},
    {"Semicolon", ";", "Semicolon", 186},
    {"Equal", "=", "Equal", 187},
    {"Comma", ",", "Comma", 188},
    {"Minus", "-", "Minus", 189},
    {"Period", ".", "Period", 190},
    {"Slash", "/", "Slash", 191},
    {"Backquote", "`", "Backquote", 192},
    {"BracketLeft", "[", "BracketLeft", 219},
    {"Backslash", "\\", "Backslash", 220},
    {"BracketRight", "]", "BracketRight", 221},
    {"Quote", "'", "Quote", 222},
};

/* A printable ASCII character's code and key code: the key it is on. */
static int char_key(unsigned char c, char *code, size_t cap, int *keycode) {
  static const char shifted[] = ")!@#$%^&*(";
  const char *sh = c ? strchr(shifted, c) : NULL;
  if (c >= 'a' && c <= 'z') c = (unsigned char)(c - 'a' + 'A');
  if (c >= 'A' && c <= 'Z') {
    snprintf(code, cap, "Key%c", c);
    *keycode = c;
    return 1;
  }
  if (sh) c = (unsigned char)('0' + (sh - shifted));
  if (c >= '0' && c <= '9') {
    snprintf(code, cap, "Digit%c", c);
    *keycode = c;
    return 1;
  }
  static const char base[] = ";=,-./`[\\]' ", up[] = ":+<_>?~{|}\"";
  const char *u = strchr(up, c);
  if (u && *u) c = (unsigned char)base[u - up];
  for (size_t i = 0; i < ZC_ARRAY_LEN(keys); i++)
    if (keys[i].key[0] == (char)c && !keys[i].key[1] &&
        strncmp(keys[i].code, "Numpad", 6)) {
      snprintf(code, cap, "%s", keys[i].code);
      *keycode = keys[i].keycode;
      return 1;
    }
  code[0] = '\0';
  *keycode = 0;
  return 1; /* another character: typed as text, with no key */
}

int scn__key_info(const char *name, char *key, size_t keycap, char *code,
                  size_t codecap, int *keycode);
int scn__key_info(const char *name, char *key, size_t keycap, char *code,
                  size_t codecap, int *keycode) {
  for (size_t i = 0; i < ZC_ARRAY_LEN(keys); i++)
    if (!strcmp(keys[i].name, name)) {
      snprintf(key, keycap, "%s", keys[i].key);
      snprintf(code, codecap, "%s", keys[i].code);
      *keycode = keys[i].keycode;
      return 1;
    }
  size_t n = strlen(name);
  char *end;
  /* KeyA..KeyZ, Digit0..9, Numpad0..9, F1..F24 */
  if (n == 4 && !strncmp(name, "Key", 3) && name[3] >= 'A' && name[3] <= 'Z') {
    snprintf(key, keycap, "%c", name[3] - 'A' + 'a');
    snprintf(code, codecap, "%s", name);
    *keycode = name[3];
    return 1;
  }
  if ((n == 6 && !strncmp(name, "Digit", 5)) ||
      (n == 7 && !strncmp(name, "Numpad", 6))) {
    char d = name[n - 1];
    if (d < '0' || d > '9') return 0;
    snprintf(key, keycap, "%c", d);
    snprintf(code, codecap, "%s", name);
    *keycode = name[0] == 'N' ? 96 + d - '0' : d;
    return 1;
  }
  if (name[0] == 'F' && n >= 2 && n <= 3) {
    long f = strtol(name + 1, &end, 10);
    if (*end || f < 1 || f > 24) return 0;
    snprintf(key, keycap, "%s", name);
    snprintf(code, codecap, "%s", name);
    *keycode = (int)(111 + f);
    return 1;
  }
  /* One character (one UTF-8 sequence) types itself, on its key. */
  unsigned char c = (unsigned char)name[0];
  size_t want = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  if (n == 0 || n != want) return 0;
  snprintf(key, keycap, "%s", name);
  return char_key(n == 1 ? c : 0, code, codecap, keycode);
}

static enum zc_err ld_selectors(const struct ld *l, const cJSON *js,
                                struct scn_step *st, int required) {
  if (!js) {
    if (required) return ld_fail(l, "no \"selectors\"");
    return ZC_OK;
  }
  if (!cJSON_IsArray(js) || !cJSON_GetArraySize(js))
    return ld_fail(l, "\"selectors\" must be a non-empty list");
  st->nsel = (size_t)cJSON_GetArraySize(js);
  st->sel = zc_xcalloc(st->nsel, sizeof *st->sel);
  size_t i = 0;
  const cJSON *alt;
  cJSON_ArrayForEach(alt, js) {
    struct scn_selector *s = &st->sel[i++];
    /* An alternative is a string or a chain (a list of strings). */
    const cJSON *one = cJSON_IsString(alt) ? alt : NULL;
    size_t n = one ? 1 : (size_t)cJSON_GetArraySize(alt);
    if (!one && (!cJSON_IsArray(alt) || !n))
      return ld_fail(l,
                     "selector %zu is neither a string nor a list of "
                     "strings",
                     i);
    s->part = zc_xcalloc(n, sizeof *s->part);
    const cJSON *p = one ? one : alt->child;
    for (size_t k = 0; k < n; k++, p = p->next) {
      if (!cJSON_IsString(p) || !p->valuestring[0])
        return ld_fail(l, "selector %zu has an empty or non-string part", i);
      const char *v = p->valuestring;
      if ((!strncmp(v, "aria/", 5) && !v[5]) ||
          (!strncmp(v, "xpath/", 6) && !v[6]) ||
          (!strncmp(v, "pierce/", 7) && !v[7]) ||
          (!strncmp(v, "text/", 5) && !v[5]))
        return ld_fail(l, "selector %zu: \"%s\" has nothing after its kind", i,
                       v);
      s->part[s->n++] = zc_xstrdup(v);
    }
  }
  return ZC_OK;
}

int scn_add_origin(struct scn_scenario *s, const char *url) {
  size_t o = zc_url_origin_len(url);
  if (!o) return 0;
  for (size_t i = 0; i < s->norigins; i++)
    if (strlen(s->origins[i]) == o && !strncmp(s->origins[i], url, o)) return 1;
  s->origins =
      zc_xreallocarray(s->origins, s->norigins + 1, sizeof *s->origins);
  s->origins[s->norigins++] = zc_xstrndup(url, o);
  return 1;
}

static int url_ok(const char *u) {
  if (!*u) return 0;
  for (const char *p = u; *p; p++)
    if ((unsigned char)*p <= 0x20 || *p == '"' || *p == '<' || *p == '>' ||
        *p == '\\')
      return 0;
  const char *colon = strchr(u, ':');
  const char *slash = strchr(u, '/');
  if (colon && (!slash || colon < slash)) {
    /* Absolute: http(s) with a host, or about:/data:/file: as they are. */
    if (!strncmp(u, "http://", 7) || !strncmp(u, "https://", 8))
      return zc_url_origin_len(u) > 0;
    return !strncmp(u, "about:", 6) || !strncmp(u, "data:", 5) ||
           !strncmp(u, "file:", 5);
  }
  return 1; /* relative */
}

static int num(const cJSON *o, const char *k, double *v) {
  const cJSON *j = get(o, k);
  if (!cJSON_IsNumber(j)) return 0;
  *v = j->valuedouble;
  return 1;
}

/* setViewport: the size, scale and kind of screen. */
static enum zc_err ld_viewport(struct ld *l, const cJSON *js,
                               struct scn_step *st) {
  double v;
  if (!num(js, "width", &v) || v < 1 || v > 10000)
    return ld_fail(l, "\"width\" must be a number of pixels");
  st->width = (unsigned)v;
  if (!num(js, "height", &v) || v < 1 || v > 10000)
    return ld_fail(l, "\"height\" must be a number of pixels");
  st->height = (unsigned)v;
  st->scale = num(js, "deviceScaleFactor", &v) && v > 0 ? v : 1;
  st->mobile = cJSON_IsTrue(get(js, "isMobile"));
  st->touch = cJSON_IsTrue(get(js, "hasTouch"));
  return ZC_OK;
}

/* navigate: an http(s) URL, a relative one, about:, data:, file:, or the
 * new tab a recording began on. */
static enum zc_err ld_navigate(struct ld *l, const cJSON *js,
                               struct scn_step *st) {
  const cJSON *s;
  s = get(js, "url");
  if (!cJSON_IsString(s)) return ld_fail(l, "no \"url\"");
  /* A recording begun on a new tab starts there: that page is the
   * browser's, not the app's, and a fresh page needs no visit to it. */
  if (!strncmp(s->valuestring, "chrome://new-tab-page", 21) ||
      !strncmp(s->valuestring, "chrome://newtab", 15)) {
    st->start_page = 1;
    st->wait_load = 0;
    st->url = zc_xstrdup(s->valuestring);
    return ZC_OK;
  }
  if (!url_ok(s->valuestring))
    return ld_fail(l, "bad URL \"%s\"", s->valuestring);
  st->url = zc_xstrdup(s->valuestring);
  return ZC_OK;
}

/* emulateNetworkConditions. */
static enum zc_err ld_network(struct ld *l, const cJSON *js,
                              struct scn_step *st) {
  /* download and upload in bytes/s (-1: no limit; both 0: offline) and
   * latency in ms, as Network.emulateNetworkConditions takes them */
  if (!num(js, "download", &st->download) || !num(js, "upload", &st->upload) ||
      !num(js, "latency", &st->latency))
    return ld_fail(l, "\"download\", \"upload\" and \"latency\" must be "
                      "numbers");
  if (st->download < -1 || st->upload < -1 || st->latency < 0)
    return ld_fail(l, "throughput must be -1 (no limit) or more, latency "
                      "0 or more");
  return ZC_OK;
}

/* click, doubleClick, hover: where, with which button, for how long. */
static enum zc_err ld_pointer(struct ld *l, const cJSON *js,
                              struct scn_step *st) {
  const cJSON *s;
  enum zc_err e;
  if ((e = ld_selectors(l, get(js, "selectors"), st, 1))) return e;
  if (get(js, "offsetX") || get(js, "offsetY")) {
    if (!num(js, "offsetX", &st->offset_x) ||
        !num(js, "offsetY", &st->offset_y))
      return ld_fail(l, "\"offsetX\" and \"offsetY\" go together, as "
                        "numbers");
    st->has_offset = 1;
  }
  s = get(js, "button");
  if (s) {
    static const char *const b[] = {"primary", "auxiliary", "secondary", "back",
                                    "forward"};
    st->button = -1;
    for (int i = 0; i < 5; i++)
      if (cJSON_IsString(s) && !strcmp(s->valuestring, b[i])) st->button = i;
    if (st->button < 0)
      return ld_fail(l, "\"button\" must be primary, auxiliary, secondary, "
                        "back or forward");
  }
  if (get(js, "duration") && (!num(js, "duration", &st->duration_ms) ||
                              st->duration_ms < 0 || st->duration_ms > 600000))
    return ld_fail(l, "\"duration\" must be milliseconds");
  /* The pointer the Recorder saw; @puppeteer/replay's runner clicks with
   * the mouse whatever it says, and so does zamcap. */
  s = get(js, "deviceType");
  if (s && !(cJSON_IsString(s) && (!strcmp(s->valuestring, "mouse") ||
                                   !strcmp(s->valuestring, "pen") ||
                                   !strcmp(s->valuestring, "touch"))))
    return ld_fail(l, "\"deviceType\" must be mouse, pen or touch");
  return ZC_OK;
}

/* change: the element and the value typed into it. */
static enum zc_err ld_change(struct ld *l, const cJSON *js,
                             struct scn_step *st) {
  const cJSON *s;
  enum zc_err e;
  if ((e = ld_selectors(l, get(js, "selectors"), st, 1))) return e;
  s = get(js, "value");
  if (!cJSON_IsString(s)) return ld_fail(l, "no \"value\"");
  st->value = zc_xstrdup(s->valuestring);
  return ZC_OK;
}

/* keyDown, keyUp: a key Chrome knows. */
static enum zc_err ld_key(struct ld *l, const cJSON *js, struct scn_step *st) {
  const cJSON *s = get(js, "key");
  char kv[16], code[24];
  int kc;
  if (!cJSON_IsString(s)) return ld_fail(l, "no \"key\"");
  if (!scn__key_info(s->valuestring, kv, sizeof kv, code, sizeof code, &kc))
    return ld_fail(l, "unknown key \"%s\"", s->valuestring);
  st->key = zc_xstrdup(s->valuestring);
  return ZC_OK;
}

/* waitForElement: how many, compared how, visible, matching what. */
static enum zc_err ld_wait_element(struct ld *l, const cJSON *js,
                                   struct scn_step *st) {
  const cJSON *s;
  double v;
  enum zc_err e;
  if ((e = ld_selectors(l, get(js, "selectors"), st, 1))) return e;
  st->count = 1;
  if (get(js, "count")) {
    if (!num(js, "count", &v) || v < 0 || v > 1e6 || v != (double)(unsigned)v)
      return ld_fail(l, "\"count\" must be a whole number");
    st->count = (unsigned)v;
  }
  snprintf(st->op, sizeof st->op, ">=");
  s = get(js, "operator");
  if (s) {
    if (!cJSON_IsString(s) ||
        (strcmp(s->valuestring, ">=") && strcmp(s->valuestring, "==") &&
         strcmp(s->valuestring, "<=")))
      return ld_fail(l, "\"operator\" must be \">=\", \"==\" or \"<=\"");
    snprintf(st->op, sizeof st->op, "%s", s->valuestring);
  }
  st->visible = !cJSON_IsFalse(get(js, "visible"));
  if (get(js, "properties") || get(js, "attributes")) {
    const cJSON *at = get(js, "attributes"), *pr = get(js, "properties"), *x;
    if ((at && !cJSON_IsObject(at)) || (pr && !cJSON_IsObject(pr)))
      return ld_fail(l, "\"attributes\" and \"properties\" must be "
                        "objects");
    cJSON_ArrayForEach(x, at) if (!cJSON_IsString(x)) return ld_fail(
        l, "attribute \"%s\" must be a string", x->string);
    cJSON *m = cJSON_CreateObject();
    if (at) cJSON_AddItemToObject(m, "attributes", cJSON_Duplicate(at, 1));
    if (pr) cJSON_AddItemToObject(m, "properties", cJSON_Duplicate(pr, 1));
    st->match = cJSON_PrintUnformatted(m);
    cJSON_Delete(m);
    if (!st->match) return ld_fail(l, "out of memory");
  }
  return ZC_OK;
}

/* waitForExpression: a script that must turn true. */
static enum zc_err ld_wait_expression(struct ld *l, const cJSON *js,
                                      struct scn_step *st) {
  const cJSON *s;
  s = get(js, "expression");
  if (!cJSON_IsString(s) || !s->valuestring[0])
    return ld_fail(l, "no \"expression\"");
  st->expression = zc_xstrdup(s->valuestring);
  return ZC_OK;
}

/* scroll: the page or an element, to x and y. */
static enum zc_err ld_scroll(struct ld *l, const cJSON *js,
                             struct scn_step *st) {
  enum zc_err e;
  if ((e = ld_selectors(l, get(js, "selectors"), st, 0))) return e;
  if (!num(js, "x", &st->x)) st->x = 0;
  if (!num(js, "y", &st->y)) st->y = 0;
  return ZC_OK;
}

/* The fields every step may have: its type, target, timeout and frame. */
static enum zc_err ld_step_head(struct ld *l, const cJSON *js,
                                struct scn_step *st) {
  const cJSON *t = get(js, "type");
  if (!cJSON_IsObject(js)) return ld_fail(l, "a step must be an object");
  if (!cJSON_IsString(t)) return ld_fail(l, "no \"type\"");
  l->type = t->valuestring;
  size_t k = 0;
  for (; k < ZC_ARRAY_LEN(type_names); k++)
    if (!strcmp(type_names[k], t->valuestring)) break;
  if (k == ZC_ARRAY_LEN(type_names)) {
    for (size_t r = 0; r < ZC_ARRAY_LEN(refused); r++)
      if (!strcmp(refused[r], t->valuestring))
        return ld_fail(l, "zamcap cannot replay this step type");
    return ld_fail(l, "unknown step type");
  }
  st->type = (enum scn_type)k;
  const cJSON *target = get(js, "target");
  if (target &&
      (!cJSON_IsString(target) || strcmp(target->valuestring, "main")))
    return ld_fail(l, "only the \"main\" target is supported (popups and "
                      "other tabs are not)");
  double v;
  if (get(js, "timeout")) {
    if (!num(js, "timeout", &v) || v <= 0)
      return ld_fail(l, "\"timeout\" must be a positive number of ms");
    st->timeout_ms = v;
  }
  const cJSON *fr = get(js, "frame");
  if (fr) {
    if (!cJSON_IsArray(fr)) return ld_fail(l, "\"frame\" must be a list");
    st->nframe = (size_t)cJSON_GetArraySize(fr);
    st->frame = zc_xcalloc(st->nframe + 1, sizeof *st->frame);
    size_t i = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, fr) {
      if (!cJSON_IsNumber(f) || f->valuedouble < 0 || f->valuedouble > 1000)
        return ld_fail(l, "\"frame\" must list frame indices");
      st->frame[i++] = (unsigned)f->valuedouble;
    }
  }
  /* A step that the Recorder saw navigate waits for the new page. */
  const cJSON *ev;
  cJSON_ArrayForEach(ev, get(js, "assertedEvents")) {
    const cJSON *et = get(ev, "type");
    if (cJSON_IsString(et) && !strcmp(et->valuestring, "navigation"))
      st->wait_load = st->type != SCN_NAVIGATE;
  }
  return ZC_OK;
}

static enum zc_err ld_step(struct ld *l, const cJSON *js, struct scn_step *st) {
  enum zc_err e = ld_step_head(l, js, st);
  if (e) return e;
  switch (st->type) {
  case SCN_SET_VIEWPORT: return ld_viewport(l, js, st);
  case SCN_NAVIGATE: return ld_navigate(l, js, st);
  case SCN_CLOSE: return ZC_OK;
  case SCN_EMULATE_NETWORK: return ld_network(l, js, st);
  case SCN_CLICK:
  case SCN_DOUBLE_CLICK:
  case SCN_HOVER: return ld_pointer(l, js, st);
  case SCN_CHANGE: return ld_change(l, js, st);
  case SCN_KEY_DOWN:
  case SCN_KEY_UP: return ld_key(l, js, st);
  case SCN_SCROLL: return ld_scroll(l, js, st);
  case SCN_WAIT_ELEMENT: return ld_wait_element(l, js, st);
  case SCN_WAIT_EXPRESSION: return ld_wait_expression(l, js, st);
  }
  return ZC_OK;
}

/* The file's text as JSON (*js: free it with cJSON_Delete). */
static enum zc_err ld_parse(struct ld *l, const char *text, size_t len,
                            cJSON **js) {
  *js = cJSON_ParseWithLength(text, len);
  if (!*js) {
    const char *at = cJSON_GetErrorPtr();
    size_t off = at && at >= text && at <= text + len ? (size_t)(at - text) : 0;
    int line = 1;
    for (size_t i = 0; i < off; i++)
      line += text[i] == '\n';
    return ld_fail(l, "not valid JSON (line %d, byte %zu)", line, off);
  }
  return ZC_OK;
}

/* The scenario file's text (*text, caller frees). */
static enum zc_err ld_read(struct ld *l, char **text, size_t *len) {
  const char *path = l->path;
  *text = NULL;
  FILE *f = fopen(path, "rb");
  if (!f)
    return zc_fail(ZC_E_USAGE, "%s: cannot read: %s", path, strerror(errno));
  struct zc_buf b;
  zc_buf_init(&b, 16 << 20);
  char chunk[65536];
  size_t n;
  enum zc_err e = ZC_OK;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    if ((e = zc_buf_add(&b, chunk, n))) break;
  fclose(f);
  if (e) {
    zc_buf_free(&b);
    return ld_fail(l, "over 16 MB: not a scenario");
  }
  *len = b.len;
  *text = b.ptr ? zc_buf_take(&b) : zc_xstrdup("");
  zc_buf_free(&b);
  return ZC_OK;
}

/* The app's origins: the first navigate's, and every other the flow
 * navigates to on a development host (zc_url_host: localhost,
 * *.localhost, 127.x, 0.0.0.0, [::1], a name without dots such as
 * "frontend"): a flow recorded on http://frontend:3000/ and then
 * http://localhost:3000/x is one app. --origin adds more
 * (scn_add_origin). */
static void ld_origins(struct scn_scenario *s) {
  size_t i;
  for (i = 0; i < s->n && !s->origin; i++)
    if (s->steps[i].type == SCN_NAVIGATE && !s->steps[i].start_page &&
        zc_url_origin_len(s->steps[i].url))
      s->origin =
          zc_xstrndup(s->steps[i].url, zc_url_origin_len(s->steps[i].url));
  if (!s->origin) s->origin = zc_xstrdup("");
  if (s->origin[0]) scn_add_origin(s, s->origin);
  for (i = 0; i < s->n; i++) {
    const struct scn_step *sp = &s->steps[i];
    if (sp->type == SCN_NAVIGATE && !sp->start_page && !sp->implicit &&
        zc_url_host(sp->url) != ZC_HOST_OTHER)
      scn_add_origin(s, sp->url);
  }
}

/* A flow recorded on a page that was already open never navigates
 * (@puppeteer/replay accepts it and acts on whatever page it is given):
 * each run then loads the build's URL first, after the steps that set the
 * page up. Returns where that navigate was added, SIZE_MAX if none was. */
static size_t ld_add_navigate(struct scn_scenario *s) {
  int navigates = 0;
  size_t added_at = SIZE_MAX;
  for (size_t k = 0; k < s->n; k++)
    navigates |= s->steps[k].type == SCN_NAVIGATE && !s->steps[k].start_page;
  if (!navigates) {
    size_t at = 0;
    while (at < s->n && (s->steps[at].type == SCN_SET_VIEWPORT ||
                         s->steps[at].type == SCN_EMULATE_NETWORK ||
                         s->steps[at].start_page))
      at++;
    s->steps = zc_xreallocarray(s->steps, s->n + 1, sizeof *s->steps);
    memmove(&s->steps[at + 1], &s->steps[at], (s->n - at) * sizeof *s->steps);
    struct scn_step *nav = &s->steps[at];
    memset(nav, 0, sizeof *nav);
    nav->type = SCN_NAVIGATE;
    nav->url = zc_xstrdup(""); /* relative: the build's own URL */
    nav->implicit = 1;
    added_at = at;
    nav->index = at < s->n ? s->steps[at + 1].index : (unsigned)s->n;
    s->n++;
  }
  return added_at;
}

/* zamcap's own fields ("zamcap": recordFrom, settleMs); added_at is where
 * ld_add_navigate added a step. */
static enum zc_err ld_zamcap(struct ld *l, const cJSON *z,
                             struct scn_scenario *s, size_t added_at) {
  if (!z) return ZC_OK;
  const cJSON *k;
  if (!cJSON_IsObject(z)) {
    return ld_fail(l, "\"zamcap\" must be an object");
  }
  cJSON_ArrayForEach(k, z) {
    if (!strcmp(k->string, "recordFrom")) {
      size_t nfile = s->n - (added_at != SIZE_MAX); /* the file's */
      if (!cJSON_IsNumber(k) || k->valuedouble < 1 ||
          k->valuedouble > (double)nfile ||
          k->valuedouble != (double)(size_t)k->valuedouble) {
        return ld_fail(l,
                       "zamcap.recordFrom must be a step number from 1 to "
                       "%zu",
                       nfile);
      }
      s->record_from = (size_t)k->valuedouble - 1;
      /* an added navigate moves the steps after it by one */
      if (s->record_from >= added_at) s->record_from++;
    } else if (!strcmp(k->string, "parameters")) {
      continue; /* read before the steps (params.c) */
    } else if (!strcmp(k->string, "settleMs")) {
      if (!cJSON_IsNumber(k) || k->valuedouble < 0) {
        return ld_fail(l, "zamcap.settleMs must be a number of ms");
      }
      s->settle_ms = k->valuedouble;
    } else {
      return ld_fail(l,
                     "unknown field zamcap.%s (known: recordFrom, "
                     "settleMs, parameters)",
                     k->string);
    }
  }
  return ZC_OK;
}

/* The flow's parameters, their values (given, else the first values
 * with assign's put in) and each step's {{name}}s replaced. */
static enum zc_err ld_params(struct ld *l, cJSON *js, struct scn_scenario *s,
                             const char *const *given,
                             const char *const *assign, size_t nassign) {
  enum zc_err e =
      scn__params_read(l->path, get(js, "zamcap"), &s->params, &s->nparams);
  if (!e)
    e = scn__values(l->path, s->params, s->nparams, given, assign, nassign,
                    &s->values);
  if (!e)
    e = scn__params_subst(l->path,
                          cJSON_GetObjectItemCaseSensitive(js, "steps"),
                          s->params, s->nparams, s->values);
  return e;
}

/* The scenario of the file's text (taken), with given values or the
 * first ones and assign's. */
static enum zc_err ld_flow(const char *path, char *text, size_t len,
                           const char *const *given, const char *const *assign,
                           size_t nassign, struct scn_scenario **out) {
  *out = NULL;
  struct ld l = {.path = path};
  cJSON *js;
  enum zc_err e = ld_parse(&l, text, len, &js);
  if (e) {
    free(text);
    return e;
  }
  struct scn_scenario *s = zc_xcalloc(1, sizeof *s);
  s->path = zc_xstrdup(path);
  s->settle_ms = -1;
  s->src = text;
  s->srclen = len;
  const cJSON *steps = get(js, "steps");
  if (!cJSON_IsObject(js) || !cJSON_IsArray(steps)) {
    e = ld_fail(&l, "no \"steps\" list: is this a DevTools Recorder export?");
    goto out;
  }
  if ((e = ld_params(&l, js, s, given, assign, nassign))) goto out;
  const cJSON *t = get(js, "title");
  s->title = zc_xstrdup(cJSON_IsString(t) ? t->valuestring : "");
  double v;
  if (get(js, "timeout")) {
    if (!num(js, "timeout", &v) || v <= 0) {
      e = ld_fail(&l, "\"timeout\" must be a positive number of ms");
      goto out;
    }
    s->timeout_ms = v;
  }
  s->n = (size_t)cJSON_GetArraySize(steps);
  if (!s->n) {
    e = ld_fail(&l, "the scenario has no steps");
    goto out;
  }
  s->steps = zc_xcalloc(s->n, sizeof *s->steps);
  size_t i = 0;
  const cJSON *st;
  cJSON_ArrayForEach(st, steps) {
    l.step = (int)i + 1;
    l.type = NULL;
    s->steps[i].index = (unsigned)i;
    if ((e = ld_step(&l, st, &s->steps[i]))) goto out;
    i++;
  }
  l.step = 0;
  ld_origins(s);
  size_t added_at = ld_add_navigate(s);
  /* zamcap's own fields, which other Recorder tools ignore. */
  if ((e = ld_zamcap(&l, get(js, "zamcap"), s, added_at))) goto out;
out:
  cJSON_Delete(js);
  if (e) {
    scn_free(s);
    return e;
  }
  *out = s;
  return ZC_OK;
}

enum zc_err scn_load_with(const char *path, const char *const *assign, size_t n,
                          struct scn_scenario **out) {
  *out = NULL;
  struct ld l = {.path = path};
  char *text;
  size_t len;
  enum zc_err e = ld_read(&l, &text, &len);
  if (e) return e;
  return ld_flow(path, text, len, NULL, assign, n, out);
}

enum zc_err scn_load(const char *path, struct scn_scenario **out) {
  return scn_load_with(path, NULL, 0, out);
}

enum zc_err scn_expand(const struct scn_scenario *s, const char *const *values,
                       struct scn_scenario **out) {
  *out = NULL;
  if (!s->src) return zc_fail(ZC_E_INTERNAL, "%s: no text kept", s->path);
  enum zc_err e = ld_flow(s->path, zc_xstrndup(s->src, s->srclen), s->srclen,
                          values, NULL, 0, out);
  /* --origin's origins, added after loading, go with the expansion */
  for (size_t i = 0; !e && i < s->norigins; i++)
    scn_add_origin(*out, s->origins[i]);
  return e;
}

void scn_free(struct scn_scenario *s) {
  if (!s) return;
  for (size_t i = 0; s->steps && i < s->n; i++) {
    struct scn_step *st = &s->steps[i];
    for (size_t k = 0; k < st->nsel; k++) {
      for (size_t j = 0; j < st->sel[k].n; j++)
        free(st->sel[k].part[j]);
      free(st->sel[k].part);
    }
    free(st->sel);
    free(st->frame);
    free(st->url);
    free(st->value);
    free(st->key);
    free(st->match);
    free(st->expression);
  }
  free(s->steps);
  scn__params_free(s->params, s->nparams);
  scn__values_free(s->values, s->nparams);
  free(s->src);
  free(s->path);
  free(s->title);
  free(s->origin);
  for (size_t i = 0; i < s->norigins; i++)
    free(s->origins[i]);
  free(s->origins);
  free(s);
}

/* Appends while *e is clear; the first failure stays in *e. */
static void map_put(struct zc_buf *b, const char *p, size_t n, enum zc_err *e) {
  if (!*e) *e = zc_buf_add(b, p, n);
}

char *scn_map_url(const struct scn_scenario *s, const char *url,
                  const char *base) {
  size_t bo = zc_url_origin_len(base), uo = zc_url_origin_len(url);
  /* The result is never longer than both parts and a '/'. */
  struct zc_buf b;
  zc_buf_init(&b, strlen(base) + strlen(url) + 2);
  enum zc_err e = ZC_OK;
  if (uo) {
    /* Absolute: on one of the app's origins, swap in the build's. */
    int app = 0;
    for (size_t i = 0; i < s->norigins && !app; i++)
      app = uo == strlen(s->origins[i]) && !strncmp(url, s->origins[i], uo);
    if (bo && app) {
      map_put(&b, base, bo, &e);
      map_put(&b, url + uo, strlen(url + uo), &e);
    } else {
      map_put(&b, url, strlen(url), &e);
    }
  } else if (!url[0]) {
    /* The navigate added to a flow that never navigates: the build's URL
     * as given, file, query and fragment (a hash route) kept. */
    map_put(&b, base, strlen(base), &e);
  } else if (strchr(url, ':') && strchr(url, ':') < url + strcspn(url, "/?#")) {
    map_put(&b, url, strlen(url), &e); /* about:, data:, file: */
  } else if (!strncmp(url, "//", 2)) {
    const char *colon = strchr(base, ':');
    map_put(&b, base, colon ? (size_t)(colon - base + 1) : 0, &e);
    map_put(&b, url, strlen(url), &e);
  } else if (url[0] == '/') {
    map_put(&b, base, bo, &e);
    map_put(&b, url, strlen(url), &e);
  } else {
    /* Relative to the base's folder (its path up to the last '/'); a query
     * or fragment alone keeps the base's path. */
    size_t end = bo + strcspn(base + bo, "?#");
    if (url[0] != '?' && url[0] != '#') {
      size_t slash = end;
      while (slash > bo && base[slash - 1] != '/')
        slash--;
      end = slash;
    }
    map_put(&b, base, end, &e);
    if (end == bo && url[0] != '?' && url[0] != '#') map_put(&b, "/", 1, &e);
    map_put(&b, url, strlen(url), &e);
  }
  if (e) {
    zc_buf_free(&b);
    return NULL;
  }
  return zc_buf_take(&b);
}
