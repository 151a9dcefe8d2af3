/* Replaying Recorder steps through CDP: elements found by selector (in the
 * page, by a function zamcap injects; aria/ through the accessibility
 * tree), scrolled into view and driven with real input events. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scn.h"

int scn__key_info(const char *name, char *key, size_t keycap, char *code,
                  size_t codecap, int *keycode);

/* Runs with `this` the document (or an element an aria/ lookup found).
 * chain: the selector's parts; frames: a frame path; mode: "first" (the
 * first visible match, else the first match) or "count" (every match,
 * negative -n-1 when some of the n fail "match");
 * fromEl: `this` is a match whose inside the chain continues in. */
static const char find_js[] =
    /* The helpers have one-letter names on purpose: this code runs in the
     * page, and the analysis prunes one-letter functions (seed 000 §3.1),
     * so zamcap's own lookups stay out of the call trees it compares. */
    "function(chain, frames, mode, fromEl, match) {\n"
    "  let root = this;\n"
    "  if (frames.length) {\n"
    "    let w = (root.defaultView || root.ownerDocument.defaultView);\n"
    "    for (const i of frames) { w = w && w.frames[i]; }\n"
    "    if (!w) return mode === 'first' ? null : 0;\n"
    "    root = w.document;\n"
    "  }\n"
    "  const I = n => n.shadowRoot || n.contentDocument || n;\n"
    "  const D = (b, css) => { const out = [];\n"
    "    const W = r => { out.push(...r.querySelectorAll(css));\n"
    "      for (const e of r.querySelectorAll('*'))\n"
    "        if (e.shadowRoot) W(e.shadowRoot); };\n"
    "    W(b); return out; };\n"
    "  const X = (b, x) => { const d = b.ownerDocument || b;\n"
    "    const r = d.evaluate(x, b, null,\n"
    "      XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);\n"
    "    const out = [];\n"
    "    for (let i = 0; i < r.snapshotLength; i++) "
    "out.push(r.snapshotItem(i));\n"
    "    return out.filter(n => n.nodeType === 1); };\n"
    "  const T = (b, t) => { const out = [];\n"
    "    const H = e => (e.textContent || '').includes(t);\n"
    "    const W = r => { for (const e of r.querySelectorAll('*')) {\n"
    "      if (e.shadowRoot) W(e.shadowRoot);\n"
    "      if (H(e) && ![...e.children].some(H)) out.push(e); } };\n"
    "    W(b); return out; };\n"
    "  let nodes = [root];\n"
    "  for (let k = 0; k < chain.length; k++) {\n"
    "    const s = chain[k], next = [];\n"
    "    for (const n of nodes) {\n"
    "      const b = (k === 0 && !fromEl) ? n : I(n);\n"
    "      if (s.startsWith('xpath/')) next.push(...X(b, s.slice(6)));\n"
    "      else if (s.startsWith('pierce/')) next.push(...D(b, s.slice(7)));\n"
    "      else if (s.startsWith('text/')) next.push(...T(b, s.slice(5)));\n"
    "      else next.push(...b.querySelectorAll(s));\n"
    "    }\n"
    "    nodes = next;\n"
    "  }\n"
    "  const V = e => { const r = e.getBoundingClientRect();\n"
    "    const st = getComputedStyle(e);\n"
    "    return r.width > 0 && r.height > 0 && st.visibility !== 'hidden'\n"
    "      && st.display !== 'none'; };\n"
    "  const M = (a, w) => Object.keys(w).every(k => (w[k] !== null &&\n"
    "    typeof w[k] === 'object') ? a[k] != null && M(a[k], w[k])\n"
    "    : a[k] === w[k]);\n"
    "  const A = e => !match || (Object.entries(match.attributes || {})\n"
    "    .every(([k, v]) => e.getAttribute(k) === v) &&\n"
    "    M(e, match.properties || {}));\n"
    "  if (mode === 'count') return nodes.every(A) ? nodes.length\n"
    "    : -nodes.length - 1;\n"
    "  return nodes.find(V) || nodes[0] || null;\n"
    "}";

/* An out-of-process frame (a cross-site iframe, its own renderer) the
 * replay attached to: its target id is its frame id. */
struct rp_oopif {
  char target[64], session[64];
};

struct rp {
  struct cdp_page *p;
  struct cdp_conn *c;
  const char *s; /* the page's session */
  const struct scn_replay_opts *o;
  int modifiers; /* held: 1 Alt, 2 Control, 4 Meta, 8 Shift */
  int busy;      /* the page's main thread stopped answering */
  /* The step's frame when it is out of process: its session (NULL: the
   * page's), where its viewport lies in the page's, and how many of the
   * step's frame indices that frame used up (the rest are walked in it
   * by script, as same-process frames are). */
  const char *fs;
  double fx, fy;
  size_t fskip;
  struct rp_oopif oopif[8];
  size_t noopif;
};

static void frame_enter(struct rp *r, const struct scn_step *st);
static enum zc_err look_again(struct rp *r, const struct scn_step *st);

static enum zc_err call(struct rp *r, const char *method, cJSON *params,
                        cJSON **res) {
  /* Input, emulation, network and page commands are the page's; DOM,
   * Runtime and Accessibility go to the step's frame when it is out of
   * process. */
  const char *sess = r->fs && (!strncmp(method, "Runtime.", 8) ||
                               !strncmp(method, "DOM.", 4) ||
                               !strncmp(method, "Accessibility.", 14))
                         ? r->fs
                         : r->s;
  enum zc_err e = cdp_call(r->c, sess, method, params, 0, res);
  if (e != ZC_E_TIMEOUT || r->busy) return e;
  /* The browser answers for itself while a page's main thread is stuck in
   * the page's own script: say which of the two it is. */
  struct zc_errsave sv;
  zc_err_save(&sv);
  if (cdp_call(r->c, NULL, "Browser.getVersion", NULL, 3000, NULL)) {
    zc_err_restore(&sv);
    return e;
  }
  r->busy = 1;
  return zc_fail(ZC_E_TIMEOUT,
                 "the page did not answer %s: its main thread "
                 "is busy in the page's own script (an endless loop or a "
                 "very long task), while Chrome itself answers",
                 method);
}

static void release(struct rp *r, const char *obj) {
  if (!obj || r->busy) return; /* a busy page would not answer */
  struct zc_errsave sv;
  zc_err_save(&sv);
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "objectId", obj);
  call(r, "Runtime.releaseObject", a, NULL);
  zc_err_restore(&sv);
}

/* Runs an expression in the page; *value gets its JSON value (caller
 * frees) when value is not NULL. A thrown exception is an error. */
static enum zc_err eval(struct rp *r, const char *expr, cJSON **value) {
  cJSON *a = cJSON_CreateObject(), *res = NULL;
  cJSON_AddStringToObject(a, "expression", expr);
  cJSON_AddBoolToObject(a, "returnByValue", 1);
  cJSON_AddBoolToObject(a, "awaitPromise", 1);
  enum zc_err e = call(r, "Runtime.evaluate", a, &res);
  if (e) return e;
  const cJSON *ex = cJSON_GetObjectItem(res, "exceptionDetails");
  if (ex) {
    const cJSON *d = cJSON_GetObjectItem(cJSON_GetObjectItem(ex, "exception"),
                                         "description");
    const cJSON *t = cJSON_GetObjectItem(ex, "text");
    e = zc_fail(ZC_E_BROWSER, "%s threw: %s", expr,
                cJSON_IsString(d)   ? d->valuestring
                : cJSON_IsString(t) ? t->valuestring
                                    : "an exception");
  } else if (value) {
    *value =
        cJSON_DetachItemFromObject(cJSON_GetObjectItem(res, "result"), "value");
  }
  cJSON_Delete(res);
  return e;
}

/* A remote object: the page's document. */
static enum zc_err document_obj(struct rp *r, char **id) {
  cJSON *a = cJSON_CreateObject(), *res = NULL;
  cJSON_AddStringToObject(a, "expression", "document");
  enum zc_err e = call(r, "Runtime.evaluate", a, &res);
  if (e) return e;
  const cJSON *o =
      cJSON_GetObjectItem(cJSON_GetObjectItem(res, "result"), "objectId");
  *id = cJSON_IsString(o) ? zc_xstrdup(o->valuestring) : NULL;
  cJSON_Delete(res);
  return *id ? ZC_OK : zc_fail(ZC_E_BROWSER, "the page has no document");
}

/* The element of an aria/ selector ("aria/Name" or "aria/Name[role=\"x\"]")
 * through Accessibility.queryAXTree; *id NULL when none. */
static enum zc_err aria_find(struct rp *r, const char *doc, const char *sel,
                             char **id) {
  *id = NULL;
  char name[512], role[64] = "";
  snprintf(name, sizeof name, "%s", sel + 5);
  char *br = strstr(name, "[role=\"");
  size_t nl = strlen(name);
  if (br && nl > 2 && name[nl - 1] == ']' && name[nl - 2] == '"') {
    name[nl - 2] = '\0';
    snprintf(role, sizeof role, "%s", br + 7);
    *br = '\0';
  }
  /* Puppeteer's ARIA handler: runs of spaces become one, and the name is
   * trimmed. */
  size_t w = 0;
  for (size_t i = 0; name[i]; i++)
    if (name[i] != ' ' || (w && name[w - 1] != ' ')) name[w++] = name[i];
  while (w && name[w - 1] == ' ')
    w--;
  name[w] = '\0';
  cJSON *a = cJSON_CreateObject(), *res = NULL;
  cJSON_AddStringToObject(a, "objectId", doc);
  /* aria/[role="x"] alone: that role, whatever the name */
  if (name[0] || !role[0]) cJSON_AddStringToObject(a, "accessibleName", name);
  if (role[0]) cJSON_AddStringToObject(a, "role", role);
  enum zc_err e = call(r, "Accessibility.queryAXTree", a, &res);
  if (e) return e;
  const cJSON *n;
  int backend = 0;
  cJSON_ArrayForEach(n, cJSON_GetObjectItem(res, "nodes")) {
    const cJSON *b = cJSON_GetObjectItem(n, "backendDOMNodeId");
    if (cJSON_IsNumber(b) && !cJSON_IsTrue(cJSON_GetObjectItem(n, "ignored"))) {
      backend = b->valueint;
      break;
    }
  }
  cJSON_Delete(res);
  if (!backend) return ZC_OK;
  a = cJSON_CreateObject();
  cJSON_AddNumberToObject(a, "backendNodeId", backend);
  if ((e = call(r, "DOM.resolveNode", a, &res))) return e;
  const cJSON *o =
      cJSON_GetObjectItem(cJSON_GetObjectItem(res, "object"), "objectId");
  if (cJSON_IsString(o)) *id = zc_xstrdup(o->valuestring);
  cJSON_Delete(res);
  return ZC_OK;
}

/* find_js on parts [from, to) of sel from root (a document, or with
 * is_el an element whose inside the chain continues in). */
static enum zc_err find_js_call(struct rp *r, const struct scn_step *st,
                                const struct scn_selector *sel, size_t from,
                                size_t to, const char *root, int is_el,
                                const char *mode, char **obj, int *count) {
  cJSON *a = cJSON_CreateObject(), *res = NULL;
  cJSON_AddStringToObject(a, "objectId", root);
  cJSON_AddStringToObject(a, "functionDeclaration", find_js);
  cJSON *args = cJSON_AddArrayToObject(a, "arguments");
  cJSON *chain = cJSON_CreateArray();
  for (size_t i = from; i < to; i++)
    cJSON_AddItemToArray(chain, cJSON_CreateString(sel->part[i]));
  cJSON *frames = cJSON_CreateArray();
  for (size_t i = r->fskip; i < st->nframe && !is_el; i++)
    cJSON_AddItemToArray(frames, cJSON_CreateNumber(st->frame[i]));
  cJSON *v;
  v = cJSON_CreateObject(), cJSON_AddItemToObject(v, "value", chain);
  cJSON_AddItemToArray(args, v);
  v = cJSON_CreateObject(), cJSON_AddItemToObject(v, "value", frames);
  cJSON_AddItemToArray(args, v);
  v = cJSON_CreateObject(), cJSON_AddStringToObject(v, "value", mode);
  cJSON_AddItemToArray(args, v);
  v = cJSON_CreateObject(), cJSON_AddBoolToObject(v, "value", is_el);
  cJSON_AddItemToArray(args, v);
  v = cJSON_CreateObject();
  cJSON *m = st->match ? cJSON_Parse(st->match) : NULL;
  if (m)
    cJSON_AddItemToObject(v, "value", m);
  else
    cJSON_AddNullToObject(v, "value");
  cJSON_AddItemToArray(args, v);
  cJSON_AddBoolToObject(a, "returnByValue", strcmp(mode, "first") != 0);
  enum zc_err e = call(r, "Runtime.callFunctionOn", a, &res);
  if (e) return e;
  const cJSON *ex = cJSON_GetObjectItem(res, "exceptionDetails");
  const cJSON *rr = cJSON_GetObjectItem(res, "result");
  if (ex) {
    const cJSON *d = cJSON_GetObjectItem(cJSON_GetObjectItem(ex, "exception"),
                                         "description");
    e = zc_fail(ZC_E_BROWSER, "selector %s: %s",
                sel->part[from < sel->n ? from : 0],
                cJSON_IsString(d) ? d->valuestring : "invalid selector");
  } else if (!strcmp(mode, "first")) {
    const cJSON *o = cJSON_GetObjectItem(rr, "objectId");
    if (cJSON_IsString(o)) *obj = zc_xstrdup(o->valuestring);
  } else {
    const cJSON *n = cJSON_GetObjectItem(rr, "value");
    *count = cJSON_IsNumber(n) ? n->valueint : 0;
  }
  cJSON_Delete(res);
  return e;
}

/* Applies find_js for one alternative. mode "first": *obj is the element
 * (or NULL); else *count. */
static enum zc_err find_one(struct rp *r, const struct scn_step *st,
                            const struct scn_selector *sel, const char *mode,
                            char **obj, int *count) {
  *obj = NULL;
  *count = 0;
  char *doc = NULL, *start = NULL;
  enum zc_err e = document_obj(r, &doc);
  if (e) return e;
  size_t first = 0;
  if (!strncmp(sel->part[0], "aria/", 5)) {
    if (st->nframe > r->fskip) {
      /* The frame's document is where the accessibility tree is asked. */
      char *fdoc = NULL;
      cJSON *a = cJSON_CreateObject(), *res = NULL;
      cJSON_AddStringToObject(a, "objectId", doc);
      struct zc_buf fn;
      zc_buf_init(&fn, 64 + (size_t)st->nframe * 40);
      e = zc_buf_printf(&fn, "function() { let w = this.defaultView;");
      for (size_t i = r->fskip; !e && i < st->nframe; i++)
        e = zc_buf_printf(&fn, " w = w && w.frames[%u];", st->frame[i]);
      if (!e) e = zc_buf_printf(&fn, " return w ? w.document : null; }");
      if (!e) cJSON_AddStringToObject(a, "functionDeclaration", fn.ptr);
      zc_buf_free(&fn);
      if (e)
        cJSON_Delete(a);
      else
        e = call(r, "Runtime.callFunctionOn", a, &res);
      const cJSON *o =
          cJSON_GetObjectItem(cJSON_GetObjectItem(res, "result"), "objectId");
      if (!e && cJSON_IsString(o)) fdoc = zc_xstrdup(o->valuestring);
      cJSON_Delete(res);
      if (e || !fdoc) goto out;
      e = aria_find(r, fdoc, sel->part[0], &start);
      release(r, fdoc);
      free(fdoc);
    } else {
      e = aria_find(r, doc, sel->part[0], &start);
    }
    if (e || !start) goto out;
    first = 1;
  }
  /* An aria/ part later in the chain is looked up inside the element the
   * parts before it found (the Recorder writes ["aria/Add to cart",
   * "aria/[role=\"generic\"]"]). */
  for (;;) {
    size_t next = first;
    while (next < sel->n && strncmp(sel->part[next], "aria/", 5))
      next++;
    if (next == sel->n) break;
    char *el = NULL;
    int unused;
    if (next > first &&
        ((e = find_js_call(r, st, sel, first, next, start ? start : doc,
                           start != NULL, "first", &el, &unused)) ||
         !el))
      goto out;
    char *found = NULL;
    e = aria_find(r, el ? el : start, sel->part[next], &found);
    if (el) release(r, el);
    free(el);
    if (start) release(r, start);
    free(start);
    start = found;
    if (e || !start) goto out;
    first = next + 1;
  }
  if (first == sel->n) { /* the chain ended on an aria/ part */
    if (!strcmp(mode, "first"))
      *obj = start, start = NULL;
    else
      *count = 1;
    goto out;
  }
  e = find_js_call(r, st, sel, first, sel->n, start ? start : doc,
                   start != NULL, mode, obj, count);
out:
  /* The match came back under an id of its own: the aria/ start goes. */
  if (start) release(r, start);
  free(start);
  release(r, doc);
  free(doc);
  return e;
}

static double step_timeout(const struct rp *r, const struct scn_scenario *s,
                           const struct scn_step *st) {
  if (st->timeout_ms > 0) return st->timeout_ms;
  if (s->timeout_ms > 0) return s->timeout_ms;
  return r->o->step_timeout_ms > 0 ? r->o->step_timeout_ms : 30000;
}

/* Whether an element is ready for a user's action, as Puppeteer's
 * locators wait for it (they do not wait for visibility by default):
 * enabled (a native form control without a "disabled" attribute) and
 * stable (its box the same over two animation frames; a page that draws
 * no frame within 100 ms counts as still). */
static const char ready_fn[] =
    "function() {\n"
    "  if (['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP']\n"
    "      .includes(this.nodeName) && this.hasAttribute('disabled'))\n"
    "    return 'disabled';\n"
    "  const r0 = this.getBoundingClientRect();\n"
    "  const f = () => new Promise(k => requestAnimationFrame(() => k(1)));\n"
    "  const t = new Promise(k => setTimeout(() => k(0), 100));\n"
    "  return Promise.race([f().then(f), t]).then(drew => {\n"
    "    if (!drew) return 'ready';\n"
    "    const r1 = this.getBoundingClientRect();\n"
    "    return r1.x === r0.x && r1.y === r0.y && r1.width === r0.width &&\n"
    "      r1.height === r0.height ? 'ready' : 'moving'; }); }";

static enum zc_err readiness(struct rp *r, const char *obj, char *why,
                             size_t cap) {
  cJSON *a = cJSON_CreateObject(), *res = NULL;
  cJSON_AddStringToObject(a, "objectId", obj);
  cJSON_AddStringToObject(a, "functionDeclaration", ready_fn);
  cJSON_AddBoolToObject(a, "returnByValue", 1);
  cJSON_AddBoolToObject(a, "awaitPromise", 1);
  enum zc_err e = call(r, "Runtime.callFunctionOn", a, &res);
  if (e) return e;
  const cJSON *v =
      cJSON_GetObjectItem(cJSON_GetObjectItem(res, "result"), "value");
  snprintf(why, cap, "%s", cJSON_IsString(v) ? v->valuestring : "ready");
  cJSON_Delete(res);
  return ZC_OK;
}

/* The first alternative that finds an element ready for the action,
 * polling until the step's timeout. */
static enum zc_err find(struct rp *r, const struct scn_scenario *s,
                        const struct scn_step *st, char **obj) {
  double deadline = zc_now_ms() + step_timeout(r, s, st);
  char why[32] = "";
  for (;;) {
    frame_enter(r, st);
    for (size_t i = 0; i < st->nsel; i++) {
      int n;
      enum zc_err e = find_one(r, st, &st->sel[i], "first", obj, &n);
      if (e) return e;
      if (!*obj) continue;
      /* scroll needs no pointer: a box that moves is no matter */
      if ((e = readiness(r, *obj, why, sizeof why)) || !strcmp(why, "ready") ||
          (st->type == SCN_SCROLL && !strcmp(why, "moving")))
        return e;
      release(r, *obj);
      free(*obj);
      *obj = NULL;
    }
    if (zc_now_ms() >= deadline)
      return why[0] ? zc_fail(ZC_E_TIMEOUT,
                              "the element was found but "
                              "stayed %s for %g s",
                              why, step_timeout(r, s, st) / 1000)
                    : zc_fail(ZC_E_TIMEOUT, "no element matched in %g s",
                              step_timeout(r, s, st) / 1000);
    enum zc_err e = look_again(r, st);
    if (e) return e;
  }
}

/* The element's box in the viewport, after scrolling it into view. */
static enum zc_err on_element(struct rp *r, const char *obj, const char *fn,
                              const char *arg, cJSON **value);

/* Where a pointer can reach the element, as @puppeteer/replay (Puppeteer's
 * ElementHandle.clickablePoint) finds it: the element's client rects,
 * each clipped to its document's viewport and moved through every
 * same-origin parent frame (its content box's corner), clipped again there;
 * the first one of 1 px or more each way. Fractional, in the top page's
 * CSS pixels. A box that is larger than the viewport (a fixed panel, a
 * long list at the top) is clicked in its visible part, not at a centre
 * that may lie off screen. */
static const char clickable_box_fn[] =
    "function() {\n"
    "  const clip = (b, d) => {\n"
    "    const vw = d.documentElement.clientWidth,"
    " vh = d.documentElement.clientHeight;\n"
    "    b.w = Math.max(b.x >= 0 ? Math.min(vw - b.x, b.w)"
    " : Math.min(vw, b.w + b.x), 0);\n"
    "    b.h = Math.max(b.y >= 0 ? Math.min(vh - b.y, b.h)"
    " : Math.min(vh, b.h + b.y), 0);\n"
    "    b.x = Math.max(b.x, 0); b.y = Math.max(b.y, 0);\n"
    "  };\n"
    "  const boxes = [...this.getClientRects()].map(r =>"
    " ({x: r.x, y: r.y, w: r.width, h: r.height}));\n"
    "  let win = this.ownerDocument.defaultView;\n"
    "  boxes.forEach(b => clip(b, win.document));\n"
    "  for (let fe; (fe = win.frameElement); win = win.parent) {\n"
    "    if (!fe.getClientRects().length) return null;\n"
    "    const r = fe.getBoundingClientRect(),"
    " st = win.parent.getComputedStyle(fe);\n"
    "    const dx = r.left + parseInt(st.paddingLeft, 10) +"
    " parseInt(st.borderLeftWidth, 10);\n"
    "    const dy = r.top + parseInt(st.paddingTop, 10) +"
    " parseInt(st.borderTopWidth, 10);\n"
    "    boxes.forEach(b => { b.x += dx; b.y += dy;"
    " clip(b, win.parent.document); });\n"
    "  }\n"
    "  const b = boxes.find(b => b.w >= 1 && b.h >= 1);\n"
    "  return b ? [b.x, b.y, b.w, b.h] : null;\n"
    "}";

static enum zc_err box_of(struct rp *r, const char *obj, double *x, double *y,
                          double *w, double *h) {
  cJSON *a = cJSON_CreateObject(), *box = NULL;
  cJSON_AddStringToObject(a, "objectId", obj);
  enum zc_err e = call(r, "DOM.scrollIntoViewIfNeeded", a, NULL);
  if (!e) e = on_element(r, obj, clickable_box_fn, NULL, &box);
  if (e) return e;
  double v[4];
  int n = cJSON_IsArray(box) ? cJSON_GetArraySize(box) : 0;
  for (int i = 0; i < n && i < 4; i++)
    v[i] = cJSON_GetArrayItem(box, i)->valuedouble;
  cJSON_Delete(box);
  if (n != 4)
    return zc_fail(ZC_E_BROWSER,
                   "the element has no box that can be "
                   "clicked (display: none, zero size, or out of view?)");
  *x = v[0] + r->fx, *y = v[1] + r->fy, *w = v[2], *h = v[3];
  return ZC_OK;
}

static enum zc_err mouse(struct rp *r, const char *type, double x, double y,
                         const char *button, int clicks) {
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "type", type);
  cJSON_AddNumberToObject(a, "x", x);
  cJSON_AddNumberToObject(a, "y", y);
  cJSON_AddNumberToObject(a, "modifiers", r->modifiers);
  if (button) {
    cJSON_AddStringToObject(a, "button", button);
    cJSON_AddNumberToObject(a, "clickCount", clicks);
  }
  return call(r, "Input.dispatchMouseEvent", a, NULL);
}

static enum zc_err key(struct rp *r, const char *name, int down) {
  char k[16], code[24];
  int kc;
  if (!scn__key_info(name, k, sizeof k, code, sizeof code, &kc))
    return zc_fail(ZC_E_USAGE, "unknown key %s", name);
  int bit = !strcmp(k, "Alt")       ? 1
            : !strcmp(k, "Control") ? 2
            : !strcmp(k, "Meta")    ? 4
            : !strcmp(k, "Shift")   ? 8
                                    : 0;
  /* Printable keys (a key value of one character) and Enter produce
   * text; others are raw. */
  size_t kl = strlen(k);
  unsigned char k0 = (unsigned char)k[0];
  int one = kl == (k0 < 0x80 ? 1u : k0 >= 0xF0 ? 4u : k0 >= 0xE0 ? 3u : 2u);
  const char *text = !strcmp(k, "Enter") ? "\r" : one ? k : NULL;
  if (r->modifiers & 7) text = NULL; /* a shortcut types nothing */
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "type",
                          down ? (text ? "keyDown" : "rawKeyDown") : "keyUp");
  cJSON_AddStringToObject(a, "key", k);
  if (code[0]) cJSON_AddStringToObject(a, "code", code);
  cJSON_AddNumberToObject(a, "windowsVirtualKeyCode", kc);
  cJSON_AddNumberToObject(a, "modifiers", r->modifiers);
  if (down && text) {
    cJSON_AddStringToObject(a, "text", text);
    cJSON_AddStringToObject(a, "unmodifiedText", text);
  }
  enum zc_err e = call(r, "Input.dispatchKeyEvent", a, NULL);
  if (!e && bit) r->modifiers = down ? r->modifiers | bit : r->modifiers & ~bit;
  return e;
}

/* Calls fn on an element with string arguments; *value gets the result. */
static enum zc_err on_element(struct rp *r, const char *obj, const char *fn,
                              const char *arg, cJSON **value) {
  cJSON *a = cJSON_CreateObject(), *res = NULL;
  cJSON_AddStringToObject(a, "objectId", obj);
  cJSON_AddStringToObject(a, "functionDeclaration", fn);
  cJSON_AddBoolToObject(a, "returnByValue", 1);
  if (arg) {
    cJSON *args = cJSON_AddArrayToObject(a, "arguments"), *v;
    v = cJSON_CreateObject(), cJSON_AddStringToObject(v, "value", arg);
    cJSON_AddItemToArray(args, v);
  }
  enum zc_err e = call(r, "Runtime.callFunctionOn", a, &res);
  if (e) return e;
  if (cJSON_GetObjectItem(res, "exceptionDetails"))
    e = zc_fail(ZC_E_BROWSER, "the page threw while zamcap changed the "
                              "element");
  else if (value)
    *value =
        cJSON_DetachItemFromObject(cJSON_GetObjectItem(res, "result"), "value");
  cJSON_Delete(res);
  return e;
}

/* change as @puppeteer/replay fills (Puppeteer's Locator.fill): a
 * <select> takes the value, with input and change; a text-like input, a
 * <textarea> or contenteditable is focused and typed into key by key
 * (keydown, input, keyup), its old value cleared first unless the new one
 * extends it (then only the rest is typed); any other input (checkbox,
 * radio, date, range, color, ...) takes the value with input and change;
 * anything else cannot be filled. */
static enum zc_err change(struct rp *r, const char *obj, const char *value) {
  cJSON *how = NULL;
  enum zc_err e = on_element(
      r, obj,
      "function(v) {\n"
      "  const ev = t => this.dispatchEvent(new Event(t, {bubbles: true}));\n"
      "  if (this instanceof HTMLSelectElement) { this.focus();\n"
      "    for (const o of this.options) o.selected = o.value === v;\n"
      "    ev('input'); ev('change'); return null; }\n"
      "  const T = ['textarea', 'text', 'url', 'tel', 'search', 'password',\n"
      "             'number', 'email'];\n"
      "  const typed = this instanceof HTMLTextAreaElement ||\n"
      "    (this instanceof HTMLInputElement && T.includes(this.type));\n"
      "  if (this instanceof HTMLInputElement && !typed) { this.focus();\n"
      "    this.value = v; ev('input'); ev('change'); return null; }\n"
      "  if (!typed && !this.isContentEditable) return false;\n"
      "  const ce = !typed, cur = ce ? this.innerText : this.value;\n"
      "  this.focus();\n"
      "  if (v.length <= cur.length || !v.startsWith(cur)) {\n"
      "    if (ce) this.innerText = ''; else this.value = '';\n"
      "    return v; }\n"
      "  if (ce) { this.innerText = ''; this.innerText = cur; }\n"
      "  else { this.value = ''; this.value = cur; }\n"
      "  return v.substring(cur.length); }",
      value, &how);
  if (e) {
    cJSON_Delete(how);
    return e;
  }
  if (cJSON_IsFalse(how)) {
    cJSON_Delete(how);
    return zc_fail(ZC_E_BROWSER,
                   "the element cannot be filled out (not an "
                   "input, a <select>, a <textarea> or contenteditable)");
  }
  char *text = cJSON_IsString(how) ? zc_xstrdup(how->valuestring) : NULL;
  cJSON_Delete(how);
  for (const char *p = text; p && *p && !e;) {
    unsigned char c = (unsigned char)*p;
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    char ch[5] = "";
    memcpy(ch, p, n);
    p += n;
    if ((e = key(r, ch, 1)) == ZC_OK) e = key(r, ch, 0);
  }
  free(text);
  return e;
}

/* waitForElement as @puppeteer/replay waits: every match of the first
 * alternative that matches anything is counted (visible or not), the
 * count compared with "count" by "operator", and the matches held to
 * "attributes" and "properties"; the step is done when that holds, or
 * with "visible": false when it does not (a spinner gone). */
static enum zc_err wait_count(struct rp *r, const struct scn_scenario *s,
                              const struct scn_step *st) {
  double deadline = zc_now_ms() + step_timeout(r, s, st);
  int n = 0, all = 1;
  for (;;) {
    frame_enter(r, st);
    n = 0, all = 1;
    for (size_t i = 0; i < st->nsel && !n; i++) {
      char *obj;
      int got;
      enum zc_err e = find_one(r, st, &st->sel[i], "count", &obj, &got);
      if (e) return e;
      n = got < 0 ? -got - 1 : got;
      all = got >= 0;
    }
    int holds = (!strcmp(st->op, "==")   ? (unsigned)n == st->count
                 : !strcmp(st->op, "<=") ? (unsigned)n <= st->count
                                         : (unsigned)n >= st->count) &&
                all;
    if (holds == (st->visible != 0)) return ZC_OK;
    if (zc_now_ms() >= deadline) break;
    enum zc_err e = look_again(r, st);
    if (e) return e;
  }
  if (!st->visible)
    return zc_fail(ZC_E_TIMEOUT,
                   "waited %g s for fewer than %s %u "
                   "element%s to match (visible: false), saw %d",
                   step_timeout(r, s, st) / 1000, st->op, st->count,
                   st->count == 1 ? "" : "s", n);
  if (!all)
    return zc_fail(ZC_E_TIMEOUT,
                   "waited %g s for %s %u element%s whose "
                   "attributes and properties match; some of the %d did "
                   "not",
                   step_timeout(r, s, st) / 1000, st->op, st->count,
                   st->count == 1 ? "" : "s", n);
  return zc_fail(ZC_E_TIMEOUT, "waited %g s for %s %u element%s, saw %d",
                 step_timeout(r, s, st) / 1000, st->op, st->count,
                 st->count == 1 ? "" : "s", n);
}

/* An expression for a step in a same-process frame: evaluated in that
 * frame's own global, by an indirect eval through window.frames (a frame
 * not there gives false). NULL when the step is not in one (caller frees
 * the rest). */
static char *frame_expr(const struct rp *r, const struct scn_step *st,
                        const char *expr) {
  if (st->nframe <= r->fskip) return NULL;
  cJSON *lit = cJSON_CreateString(expr);
  char *q = cJSON_PrintUnformatted(lit);
  cJSON_Delete(lit);
  struct zc_buf b;
  zc_buf_init(&b, strlen(q ? q : "") + 64 + 24 * st->nframe);
  enum zc_err e = zc_buf_printf(&b, "(() => { let w = window;");
  for (size_t i = r->fskip; !e && i < st->nframe; i++)
    e = zc_buf_printf(&b, " w = w && w.frames[%u];", st->frame[i]);
  if (!e)
    e = zc_buf_printf(&b, " return w ? w.eval(%s) : false; })()",
                      q ? q : "false");
  free(q);
  char *out = e ? NULL : zc_buf_take(&b);
  zc_buf_free(&b);
  return out;
}

static enum zc_err wait_expr(struct rp *r, const struct scn_scenario *s,
                             const struct scn_step *st) {
  double deadline = zc_now_ms() + step_timeout(r, s, st);
  for (;;) {
    frame_enter(r, st);
    cJSON *v = NULL;
    char *expr = frame_expr(r, st, st->expression);
    enum zc_err e = eval(r, expr ? expr : st->expression, &v);
    free(expr);
    int truthy = v && !cJSON_IsFalse(v) && !cJSON_IsNull(v) &&
                 !(cJSON_IsNumber(v) && v->valuedouble == 0) &&
                 !(cJSON_IsString(v) && !v->valuestring[0]);
    cJSON_Delete(v);
    if (e) return e;
    if (truthy) return ZC_OK;
    if (zc_now_ms() >= deadline)
      return zc_fail(ZC_E_TIMEOUT, "the expression stayed false for %g s",
                     step_timeout(r, s, st) / 1000);
    if ((e = look_again(r, st))) return e;
  }
}

/* Between two looks for what a step waits on: until the step's document
 * changes, or 100 ms. A fixed 100 ms pause made a step end up to 100 ms
 * after its element appeared, so a few ms of noise could become a whole
 * pause: an A/A under the sanitizer build differed by one pause in every
 * pair (+101, +106, +106 ms on one waitForElement). Now the step ends at
 * the first look after the change that made it. A page that took the
 * observer or the timer away (or navigated, or is busy) gets the pause,
 * or the next look waits for it, as before. */
static const char change_js[] =
    "new Promise(res => {\n"
    "  let t = 0;\n"
    "  const o = new MutationObserver(() => fin());\n"
    "  const fin = () => { o.disconnect(); clearTimeout(t); res(1); };\n"
    "  o.observe(document, {subtree: true, childList: true,\n"
    "                       attributes: true, characterData: true});\n"
    "  t = setTimeout(fin, 100); })";

static enum zc_err look_again(struct rp *r, const struct scn_step *st) {
  double t0 = zc_now_ms();
  char *fx = frame_expr(r, st, change_js);
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "expression", fx ? fx : change_js);
  cJSON_AddBoolToObject(a, "awaitPromise", 1);
  cJSON_AddBoolToObject(a, "returnByValue", 1);
  free(fx);
  struct zc_errsave sv;
  zc_err_save(&sv);
  const char *sess = r->fs ? r->fs : r->s;
  cJSON *res = NULL;
  enum zc_err e = cdp_call(r->c, sess, "Runtime.evaluate", a, 1000, &res);
  /* 1 when the wait ran (a step's frame not there yet gives false at
   * once: that is no change, and gets the pause) */
  const cJSON *v =
      cJSON_GetObjectItem(cJSON_GetObjectItem(res, "result"), "value");
  int seen = !e && !cJSON_GetObjectItem(res, "exceptionDetails") &&
             cJSON_IsNumber(v) && v->valuedouble == 1;
  cJSON_Delete(res);
  if (e == ZC_E_INTERRUPTED) return e;
  zc_err_restore(&sv);
  double left = 100 - (zc_now_ms() - t0);
  if (!seen && left > 0) return cdp_wait(r->c, NULL, NULL, left, NULL);
  return ZC_OK;
}

/* The session of an out-of-process frame, attached on first use. */
static const char *oopif_session(struct rp *r, const char *frame) {
  for (size_t i = 0; i < r->noopif; i++)
    if (!strcmp(r->oopif[i].target, frame)) return r->oopif[i].session;
  if (r->noopif == ZC_ARRAY_LEN(r->oopif)) return NULL;
  cJSON *a = cJSON_CreateObject(), *res = NULL;
  cJSON_AddStringToObject(a, "targetId", frame);
  cJSON_AddBoolToObject(a, "flatten", 1);
  if (cdp_call(r->c, NULL, "Target.attachToTarget", a, 0, &res)) return NULL;
  const char *sid = cJSON_GetStringValue(cJSON_GetObjectItem(res, "sessionId"));
  struct rp_oopif *o = &r->oopif[r->noopif];
  const char *out = NULL;
  if (sid && strlen(sid) < sizeof o->session &&
      strlen(frame) < sizeof o->target) {
    snprintf(o->target, sizeof o->target, "%s", frame);
    snprintf(o->session, sizeof o->session, "%s", sid);
    out = o->session;
    r->noopif++;
  }
  cJSON_Delete(res);
  return out;
}

/* Where an out-of-process frame's viewport lies in the page's: its
 * <iframe>'s content box, through the same-process frames around it. */
static const char frame_origin_fn[] =
    "function() {\n"
    "  let fe = this, x = 0, y = 0;\n"
    "  for (;;) {\n"
    "    const r = fe.getBoundingClientRect(),\n"
    "      st = fe.ownerDocument.defaultView.getComputedStyle(fe);\n"
    "    x += r.left + parseFloat(st.paddingLeft) + "
    "parseFloat(st.borderLeftWidth);\n"
    "    y += r.top + parseFloat(st.paddingTop) + "
    "parseFloat(st.borderTopWidth);\n"
    "    const up = fe.ownerDocument.defaultView.frameElement;\n"
    "    if (!up) return [x, y];\n"
    "    fe = up;\n"
    "  }\n"
    "}";

/* The object of a frame's <iframe> in the page's session, or NULL. */
static char *frame_owner(struct rp *r, const char *frame) {
  cJSON *a = cJSON_CreateObject(), *own = NULL, *obj = NULL;
  cJSON_AddStringToObject(a, "frameId", frame);
  char *id = NULL;
  if (!cdp_call(r->c, r->s, "DOM.getFrameOwner", a, 0, &own)) {
    cJSON *b = cJSON_CreateObject();
    cJSON_AddItemToObject(
        b, "backendNodeId",
        cJSON_Duplicate(cJSON_GetObjectItem(own, "backendNodeId"), 1));
    if (!cdp_call(r->c, r->s, "DOM.resolveNode", b, 0, &obj)) {
      const char *oid = cJSON_GetStringValue(
          cJSON_GetObjectItem(cJSON_GetObjectItem(obj, "object"), "objectId"));
      if (oid) id = zc_xstrdup(oid);
    }
  }
  cJSON_Delete(own);
  cJSON_Delete(obj);
  return id;
}

/* The document position of a frame's <iframe> among its document's frames
 * (window.frames' order), or a large number. */
static int frame_rank(struct rp *r, const char *frame) {
  char *own = frame_owner(r, frame);
  if (!own) return 1 << 20;
  cJSON *a = cJSON_CreateObject(), *v = NULL;
  cJSON_AddStringToObject(a, "objectId", own);
  cJSON_AddStringToObject(
      a, "functionDeclaration",
      "function() { return [...this.ownerDocument"
      ".querySelectorAll('iframe, frame')].indexOf(this); }");
  cJSON_AddBoolToObject(a, "returnByValue", 1);
  int rank = 1 << 20;
  if (!cdp_call(r->c, r->s, "Runtime.callFunctionOn", a, 0, &v)) {
    const cJSON *x =
        cJSON_GetObjectItem(cJSON_GetObjectItem(v, "result"), "value");
    if (cJSON_IsNumber(x) && x->valueint >= 0) rank = x->valueint;
  }
  cJSON_Delete(v);
  release(r, own);
  free(own);
  return rank;
}

/* For a step in a frame: the frame tree is walked by the indices (the
 * page's frames, and the out-of-process ones Chrome lists as targets with
 * their parent frame, in their <iframe>s' document order, as
 * window.frames counts them); when an index leads into an out-of-process
 * frame, the step runs in its session (r->fs, r->fx, r->fy) and the
 * remaining indices are walked in it by script (r->fskip). */
static void frame_enter(struct rp *r, const struct scn_step *st) {
  r->fs = NULL;
  r->fx = r->fy = 0;
  r->fskip = 0;
  if (!st->nframe) return;
  struct zc_errsave sv;
  zc_err_save(&sv);
  cJSON *tree = NULL, *targets = NULL;
  if (cdp_call(r->c, r->s, "Page.getFrameTree", NULL, 0, &tree) ||
      cdp_call(r->c, NULL, "Target.getTargets", NULL, 0, &targets))
    goto out;
  const cJSON *node = cJSON_GetObjectItem(tree, "frameTree");
  for (size_t i = 0; i < st->nframe && node; i++) {
    const char *fid = cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(node, "frame"), "id"));
    /* The children: in process, then out of process; ranked by place. */
    struct kid {
      const cJSON *node;
      const char *oopif;
      int rank;
    } kids[64];
    size_t n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(node, "childFrames")) {
      if (n == 64) break;
      kids[n].node = c, kids[n].oopif = NULL;
      kids[n++].rank = -1;
    }
    size_t inproc = n;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(targets, "targetInfos")) {
      const char *ty = cJSON_GetStringValue(cJSON_GetObjectItem(c, "type"));
      const char *pf =
          cJSON_GetStringValue(cJSON_GetObjectItem(c, "parentFrameId"));
      const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "targetId"));
      if (n < 64 && ty && !strcmp(ty, "iframe") && pf && fid && id &&
          !strcmp(pf, fid)) {
        kids[n].node = NULL, kids[n].oopif = id;
        kids[n++].rank = -1;
      }
    }
    if (n > inproc) /* only then does the order need asking */
      for (size_t k = 0; k < n; k++) {
        const char *id =
            kids[k].oopif
                ? kids[k].oopif
                : cJSON_GetStringValue(cJSON_GetObjectItem(
                      cJSON_GetObjectItem(kids[k].node, "frame"), "id"));
        kids[k].rank = id ? frame_rank(r, id) : 1 << 20;
      }
    for (size_t k = 1; k < n; k++) /* stable insertion sort by rank */
      for (size_t j = k; j > 0 && kids[j - 1].rank > kids[j].rank; j--) {
        struct kid t = kids[j];
        kids[j] = kids[j - 1];
        kids[j - 1] = t;
      }
    if (st->frame[i] >= n) break;
    const struct kid *k = &kids[st->frame[i]];
    if (!k->oopif) {
      node = k->node;
      continue;
    }
    const char *sid = oopif_session(r, k->oopif);
    if (!sid) break;
    char *own = frame_owner(r, k->oopif);
    if (own) {
      cJSON *a = cJSON_CreateObject(), *v = NULL;
      cJSON_AddStringToObject(a, "objectId", own);
      cJSON_AddStringToObject(a, "functionDeclaration", frame_origin_fn);
      cJSON_AddBoolToObject(a, "returnByValue", 1);
      if (!cdp_call(r->c, r->s, "Runtime.callFunctionOn", a, 0, &v)) {
        const cJSON *xy =
            cJSON_GetObjectItem(cJSON_GetObjectItem(v, "result"), "value");
        if (cJSON_GetArraySize(xy) == 2) {
          r->fx = cJSON_GetArrayItem(xy, 0)->valuedouble;
          r->fy = cJSON_GetArrayItem(xy, 1)->valuedouble;
        }
      }
      cJSON_Delete(v);
      release(r, own);
      free(own);
    }
    r->fs = sid;
    r->fskip = i + 1;
    break; /* frames inside it are walked by script, in its session */
  }
out:
  cJSON_Delete(tree);
  cJSON_Delete(targets);
  zc_err_restore(&sv);
}

static enum zc_err run_step(struct rp *r, const struct scn_scenario *s,
                            const struct scn_step *st) {
  static const char *const buttons[] = {"left", "middle", "right", "back",
                                        "forward"};
  enum zc_err e = ZC_OK;
  char *obj = NULL;
  double x, y, w, h;
  if (st->wait_load) cdp_page_expect_load(r->p);
  switch (st->type) {
  case SCN_SET_VIEWPORT: {
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "width", st->width);
    cJSON_AddNumberToObject(a, "height", st->height);
    cJSON_AddNumberToObject(a, "deviceScaleFactor", st->scale);
    cJSON_AddBoolToObject(a, "mobile", st->mobile);
    if ((e = call(r, "Emulation.setDeviceMetricsOverride", a, NULL))) break;
    a = cJSON_CreateObject();
    cJSON_AddBoolToObject(a, "enabled", st->touch);
    e = call(r, "Emulation.setTouchEmulationEnabled", a, NULL);
    break;
  }
  case SCN_NAVIGATE: {
    if (st->start_page) break; /* a new tab's own page: already there */
    char *url = scn_map_url(s, st->url, r->o->base_url);
    e = url ? cdp_page_navigate(r->p, url, step_timeout(r, s, st))
            : zc_fail(ZC_E_NOMEM, "the mapped URL");
    free(url);
    break;
  }
  case SCN_CLICK:
  case SCN_DOUBLE_CLICK:
  case SCN_HOVER:
    if ((e = find(r, s, st, &obj))) break;
    if ((e = box_of(r, obj, &x, &y, &w, &h))) break;
    x += st->has_offset ? st->offset_x : w / 2;
    y += st->has_offset ? st->offset_y : h / 2;
    if ((e = mouse(r, "mouseMoved", x, y, NULL, 0)) || st->type == SCN_HOVER)
      break;
    for (int k = 1; k <= (st->type == SCN_DOUBLE_CLICK ? 2 : 1) && !e; k++) {
      e = mouse(r, "mousePressed", x, y, buttons[st->button], k);
      /* a long press holds the button, as replay does */
      if (!e && st->duration_ms > 0)
        e = cdp_wait(r->c, NULL, NULL, st->duration_ms, NULL);
      if (!e) e = mouse(r, "mouseReleased", x, y, buttons[st->button], k);
    }
    break;
  case SCN_CHANGE:
    if ((e = find(r, s, st, &obj))) break;
    if ((e = box_of(r, obj, &x, &y, &w, &h))) break;
    e = change(r, obj, st->value);
    break;
  case SCN_KEY_DOWN:
  case SCN_KEY_UP: e = key(r, st->key, st->type == SCN_KEY_DOWN); break;
  case SCN_SCROLL: {
    char fn[160];
    if (st->nsel) {
      if ((e = find(r, s, st, &obj))) break;
      snprintf(fn, sizeof fn, "function() { this.scrollTo(%.0f, %.0f); }",
               st->x, st->y);
      e = on_element(r, obj, fn, NULL, NULL);
    } else {
      frame_enter(r, st);
      snprintf(fn, sizeof fn, "window.scrollTo(%.0f, %.0f)", st->x, st->y);
      char *in = frame_expr(r, st, fn);
      e = eval(r, in ? in : fn, NULL);
      free(in);
    }
    break;
  }
  case SCN_WAIT_ELEMENT: e = wait_count(r, s, st); break;
  case SCN_WAIT_EXPRESSION: e = wait_expr(r, s, st); break;
  case SCN_CLOSE:
    break; /* the run ends with its last step; zamcap closes the page */
  case SCN_EMULATE_NETWORK: {
    /* both throughputs 0: offline, as DevTools' own preset */
    cJSON *a = cJSON_CreateObject();
    cJSON_AddBoolToObject(a, "offline", st->download == 0 && st->upload == 0);
    cJSON_AddNumberToObject(a, "latency", st->latency);
    cJSON_AddNumberToObject(a, "downloadThroughput", st->download);
    cJSON_AddNumberToObject(a, "uploadThroughput", st->upload);
    e = call(r, "Network.emulateNetworkConditions", a, NULL);
    break;
  }
  }
  if (!e && st->wait_load) e = cdp_page_wait_load(r->p, step_timeout(r, s, st));
  release(r, obj);
  free(obj);
  r->fs = NULL, r->fx = r->fy = 0, r->fskip = 0;
  return e;
}

static enum zc_err mark(struct rp *r, const char *name) {
  char expr[200];
  snprintf(expr, sizeof expr, "performance.mark(\"%s\"), undefined", name);
  return eval(r, expr, NULL);
}

static enum zc_err failure_text(void *arg, FILE *f) {
  const char *const *l = arg;
  fprintf(f, "url: %s\nerror: %s\n", l[0], l[1]);
  return ZC_OK;
}

/* A failed step keeps a screenshot and the page's URL. */
static void keep_failure(struct rp *r, const struct scn_step *st, char *shot,
                         size_t cap) {
  shot[0] = '\0';
  if (!r->o->fail_dir) return;
  struct zc_errsave sv;
  zc_err_save(&sv);
  char base[4096];
  snprintf(base, sizeof base, "%s/%s-step-%u", r->o->fail_dir,
           r->o->fail_name ? r->o->fail_name : "run", st->index + 1);
  cJSON *res = NULL, *url = NULL;
  /* Short limits: a page that crashed or hangs answers nothing, and the
   * run's error is what matters; a page known busy is not asked. */
  cJSON *a = r->busy ? NULL : cJSON_CreateObject();
  if (a) cJSON_AddStringToObject(a, "format", "png");
  if (a && !cdp_call(r->c, r->s, "Page.captureScreenshot", a, 5000, &res)) {
    cJSON *d = cJSON_GetObjectItem(res, "data");
    long n = cJSON_IsString(d)
                 ? zc_b64_decode(d->valuestring, strlen(d->valuestring))
                 : -1;
    snprintf(shot, cap, "%s.png", base);
    FILE *f = n > 0 ? fopen(shot, "wb") : NULL;
    if (!f || fwrite(d->valuestring, 1, (size_t)n, f) != (size_t)n)
      shot[0] = '\0';
    if (f && fclose(f) != 0) shot[0] = '\0';
  }
  cJSON_Delete(res);
  char txt[4200];
  snprintf(txt, sizeof txt, "%s.txt", base);
  cJSON *q = r->busy ? NULL : cJSON_CreateObject(), *qr = NULL;
  if (q) {
    cJSON_AddStringToObject(q, "expression", "location.href");
    cJSON_AddBoolToObject(q, "returnByValue", 1);
  }
  if (q && !cdp_call(r->c, r->s, "Runtime.evaluate", q, 2000, &qr))
    url =
        cJSON_DetachItemFromObject(cJSON_GetObjectItem(qr, "result"), "value");
  cJSON_Delete(qr);
  /* through zc_write_atomic, which masks a token in the page's URL */
  const char *lines[] = {cJSON_IsString(url) ? url->valuestring : "(unknown)",
                         sv.msg};
  if (zc_write_atomic(txt, failure_text, lines)) {
    /* the run's error is what matters: the text is a convenience */
  }
  cJSON_Delete(url);
  zc_err_restore(&sv);
}

static void describe(const struct scn_step *st, char *out, size_t cap) {
  size_t o = 0;
  if (st->implicit) {
    snprintf(out, cap, "loading the build's URL (the flow never navigates)");
    return;
  }
  o += (size_t)snprintf(out, cap, "step %u (%s", st->index + 1,
                        scn_type_name(st->type));
  for (size_t i = 0; i < st->nsel && o < cap; i++) {
    o += (size_t)snprintf(out + o, cap - o, "%s", i ? " | " : ", selectors ");
    for (size_t k = 0; k < st->sel[i].n && o < cap; k++)
      o += (size_t)snprintf(out + o, cap - o, "%s%s", k ? " >> " : "",
                            st->sel[i].part[k]);
  }
  if (o < cap) snprintf(out + o, cap - o, ")");
}

enum zc_err scn_prepare(struct cdp_page *p, const struct scn_scenario *s) {
  for (size_t i = 0; i < s->n; i++)
    for (size_t k = 0; k < s->steps[i].nsel; k++)
      if (!strncmp(s->steps[i].sel[k].part[0], "aria/", 5))
        return cdp_call(cdp_page_conn(p), cdp_page_session(p),
                        "Accessibility.enable", NULL, 0, NULL);
  return ZC_OK;
}

/* The out-of-process frames' sessions, let go whatever ended the replay
 * (sending needs no answer: a page being torn down takes them along). */
static void oopif_detach(struct rp *r) {
  for (size_t i = 0; i < r->noopif; i++) {
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "sessionId", r->oopif[i].session);
    cdp_send(r->c, NULL, "Target.detachFromTarget", a);
  }
  r->noopif = 0;
}

enum zc_err scn_replay(struct cdp_page *p, const struct scn_scenario *s,
                       size_t from, size_t to,
                       const struct scn_replay_opts *o) {
  struct rp r;
  memset(&r, 0, sizeof r);
  r.p = p, r.c = cdp_page_conn(p), r.s = cdp_page_session(p), r.o = o;
  if (o->shot && o->shot_cap) o->shot[0] = '\0';
  if (to > s->n) to = s->n;
  for (size_t i = from; i < to; i++) {
    const struct scn_step *st = &s->steps[i];
    char name[96];
    snprintf(name, sizeof name, "zamcap:step:%u:%s", st->index + 1,
             scn_type_name(st->type));
    zc_log(2, "step %u: %s%s", st->index + 1, scn_type_name(st->type),
           st->implicit ? " (added: the build's URL)" : "");
    enum zc_err e = st->implicit ? ZC_OK : mark(&r, name);
    if (!e && !st->implicit && o->on_step)
      o->on_step(o->step_arg, st->index + 1);
    if (!e) e = run_step(&r, s, st);
    if (e) {
      oopif_detach(&r);
      if (e == ZC_E_INTERRUPTED) return e;
      char what[1024], shot[4200], why[1024];
      /* zc_fail writes the buffer zc_errmsg reads: copy it first. */
      snprintf(why, sizeof why, "%s", zc_errmsg());
      describe(st, what, sizeof what);
      keep_failure(&r, st, shot, sizeof shot);
      if (o->shot && o->shot_cap) snprintf(o->shot, o->shot_cap, "%s", shot);
      return zc_fail(e == ZC_E_TIMEOUT ? ZC_E_TIMEOUT : ZC_E_BROWSER,
                     "%s: %s%s%s", what, why, shot[0] ? "; screenshot: " : "",
                     shot);
    }
  }
  oopif_detach(&r);
  if (to == s->n) return mark(&r, "zamcap:end");
  return ZC_OK;
}
