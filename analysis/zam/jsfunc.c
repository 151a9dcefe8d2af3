/* Where a script's named functions are, from its text alone: each one's
 * name and first and last lines, so that a diff's hunks can be mapped to
 * the functions that hold them (seed 003 extracts changes at the method
 * level). A lexer that knows comments, strings, template literals and
 * regular expressions finds every "{"; a "{" opens a function body after
 * "function NAME(...)", a method "NAME(...)" or an arrow "=>", and an
 * anonymous function takes the name it is assigned to ("NAME = ...",
 * "NAME: ..."), as V8 names it. Functions with no name are left out: a
 * line in one belongs to the named function around it. An arrow with an
 * expression for a body has no braces and is not seen either. */
#include <stdlib.h>
#include <string.h>

#include "ana.h"

enum tk { T_IDENT, T_STR, T_NUM, T_PUNCT, T_TPL, T_RE };

struct tok {
  uint8_t kind;
  uint32_t off, len;
  int32_t line;
  int32_t match; /* ")": its "(", "}": its "{"; -1 */
};

struct lex {
  const char *s;
  size_t n, i;
  int32_t line;
  struct tok *t;
  size_t nt, cap;
  /* open "(", "[", "{" and template substitutions, by token index (-1
   * for a template's "${") */
  int32_t *stack;
  size_t depth, scap;
};

static int ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$' || c >= 0x80;
}

static int ident_char(unsigned char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

static int tok_is(const struct lex *x, const struct tok *t, const char *w) {
  size_t n = strlen(w);
  return t->len == n && !strncmp(x->s + t->off, w, n);
}

static int keyword(const struct lex *x, const struct tok *t) {
  static const char *const kw[] = {
      "if",     "for",  "while", "switch",     "catch", "with",  "return",
      "typeof", "case", "do",    "else",       "in",    "of",    "new",
      "delete", "void", "throw", "instanceof", "yield", "await", "function"};
  if (t->kind != T_IDENT) return 0;
  for (size_t k = 0; k < ZC_ARRAY_LEN(kw); k++)
    if (tok_is(x, t, kw[k])) return 1;
  return 0;
}

static void push_tok(struct lex *x, uint8_t kind, size_t off, size_t len,
                     int32_t line) {
  ZC_GROW(x->t, x->cap, x->nt + 1);
  x->t[x->nt++] = (struct tok){.kind = kind,
                               .off = (uint32_t)off,
                               .len = (uint32_t)len,
                               .line = line,
                               .match = -1};
}

/* Whether a "/" here starts a regular expression: after an operator, an
 * opening bracket, a keyword such as return, or nothing. */
static int regex_ok(const struct lex *x) {
  if (!x->nt) return 1;
  const struct tok *p = &x->t[x->nt - 1];
  if (p->kind == T_IDENT) return keyword(x, p);
  if (p->kind != T_PUNCT) return 0;
  char c = x->s[p->off];
  return !strchr(")]}", c);
}

/* Skips a quoted string or a regular expression's body, from its opening
 * character; lines are counted. */
static void skip_quoted(struct lex *x, char q) {
  int cls = 0; /* inside a regex's [...] */
  for (x->i++; x->i < x->n; x->i++) {
    char c = x->s[x->i];
    if (c == '\\') {
      x->i++;
      continue;
    }
    if (c == '\n') {
      if (q != '`') break; /* an unclosed string ends with its line */
      x->line++;
    }
    if (q == '/' && c == '[') cls = 1;
    if (q == '/' && c == ']') cls = 0;
    if (c == q && !cls) {
      x->i++;
      return;
    }
    if (q == '`' && c == '$' && x->i + 1 < x->n && x->s[x->i + 1] == '{') {
      x->i += 2; /* a substitution: lexed as code until its "}" */
      ZC_GROW(x->stack, x->scap, x->depth + 1);
      x->stack[x->depth++] = -1;
      return;
    }
  }
}

static void skip_comment(struct lex *x) {
  if (x->s[x->i + 1] == '/') {
    while (x->i < x->n && x->s[x->i] != '\n')
      x->i++;
    return;
  }
  for (x->i += 2; x->i + 1 < x->n; x->i++) {
    if (x->s[x->i] == '\n') x->line++;
    if (x->s[x->i] == '*' && x->s[x->i + 1] == '/') {
      x->i += 2;
      return;
    }
  }
  x->i = x->n;
}

/* A bracket: opened onto the stack, or closed with its match. A "}"
 * that closes a template's substitution goes on with the template. */
static void bracket(struct lex *x, char c) {
  size_t off = x->i;
  if (strchr("([{", c)) {
    push_tok(x, T_PUNCT, off, 1, x->line);
    ZC_GROW(x->stack, x->scap, x->depth + 1);
    x->stack[x->depth++] = (int32_t)(x->nt - 1);
    x->i++;
    return;
  }
  if (c == '}' && x->depth && x->stack[x->depth - 1] == -1) {
    x->depth--;
    push_tok(x, T_TPL, off, 1, x->line);
    skip_quoted(x, '`');
    return;
  }
  push_tok(x, T_PUNCT, off, 1, x->line);
  if (x->depth) x->t[x->nt - 1].match = x->stack[--x->depth];
  x->i++;
}

static void lex_one(struct lex *x) {
  const char *s = x->s;
  unsigned char c = (unsigned char)s[x->i];
  size_t off = x->i;
  int32_t line = x->line;
  if (c == '\n') {
    x->line++;
    x->i++;
  } else if (c <= ' ') {
    x->i++;
  } else if (c == '/' && x->i + 1 < x->n && strchr("/*", s[x->i + 1])) {
    skip_comment(x);
  } else if (c == '"' || c == '\'' || c == '`' || (c == '/' && regex_ok(x))) {
    skip_quoted(x, (char)c);
    push_tok(x,
             c == '`'   ? T_TPL
             : c == '/' ? T_RE
                        : T_STR,
             off, x->i - off, line);
  } else if (ident_start(c)) {
    while (x->i < x->n && ident_char((unsigned char)s[x->i]))
      x->i++;
    push_tok(x, T_IDENT, off, x->i - off, line);
  } else if (c >= '0' && c <= '9') {
    while (x->i < x->n &&
           (ident_char((unsigned char)s[x->i]) || s[x->i] == '.'))
      x->i++;
    push_tok(x, T_NUM, off, x->i - off, line);
  } else if (strchr("()[]{}", c)) {
    bracket(x, (char)c);
  } else if (c == '=' && x->i + 1 < x->n && s[x->i + 1] == '>') {
    x->i += 2;
    push_tok(x, T_PUNCT, off, 2, line);
  } else {
    x->i++;
    push_tok(x, T_PUNCT, off, 1, line);
  }
}

/* The name an anonymous function takes from what it is assigned to, the
 * token before it at b: "NAME =", "a.NAME =", "NAME:", "'NAME':"; or NULL
 * (*len 0). */
static const char *assigned_name(const struct lex *x, long b, uint32_t *len) {
  *len = 0;
  while (b >= 0 && x->t[b].kind == T_IDENT &&
         (tok_is(x, &x->t[b], "async") || tok_is(x, &x->t[b], "static")))
    b--;
  if (b < 1 || x->t[b].kind != T_PUNCT) return NULL;
  const struct tok *op = &x->t[b], *nm = &x->t[b - 1];
  if (!tok_is(x, op, "=") && !tok_is(x, op, ":")) return NULL;
  if (b >= 2 && tok_is(x, op, "=") && x->t[b - 2].kind == T_PUNCT &&
      strchr("=!<>", x->s[x->t[b - 2].off]))
    return NULL; /* ==, !=, <=, >= */
  if (nm->kind == T_IDENT && !keyword(x, nm)) {
    *len = nm->len;
    return x->s + nm->off;
  }
  if (nm->kind == T_STR && nm->len >= 2 && tok_is(x, op, ":")) {
    *len = nm->len - 2;
    return x->s + nm->off + 1;
  }
  return NULL;
}

/* Whether the "{" at token k opens a function body; its name then (or
 * NULL, unnamed) and the token it starts at. */
static int fn_body(const struct lex *x, size_t k, const char **name,
                   uint32_t *len, size_t *start) {
  *name = NULL;
  *len = 0;
  if (!k) return 0;
  const struct tok *p = &x->t[k - 1];
  if (tok_is(x, p, "=>")) { /* (params) => { or x => { */
    long b = (long)k - 2;
    if (b >= 0 && tok_is(x, &x->t[b], ")") && x->t[b].match >= 0)
      b = x->t[b].match;
    *start = (size_t)(b < 0 ? 0 : b);
    *name = assigned_name(x, b - 1, len);
    return 1;
  }
  if (!tok_is(x, p, ")") || p->match < 1) return 0;
  long o = p->match, b = o - 1; /* the "(" and what is before it */
  const struct tok *q = &x->t[b];
  if (q->kind == T_IDENT && !keyword(x, q)) {
    long f = b - 1;
    while (f >= 0 && tok_is(x, &x->t[f], "*"))
      f--;
    *start = (size_t)(f >= 0 && tok_is(x, &x->t[f], "function") ? f : b);
    *name = x->s + q->off; /* function NAME( or a method NAME( */
    *len = q->len;
    return 1;
  }
  while (b >= 0 && tok_is(x, &x->t[b], "*"))
    b--;
  if (b >= 0 && tok_is(x, &x->t[b], "function")) {
    *start = (size_t)b;
    *name = assigned_name(x, b - 1, len);
    return 1;
  }
  return 0;
}

unsigned ana_js_functions(const char *text, size_t n, struct ana_js_fn **out) {
  struct lex x = {.s = text, .n = n};
  while (x.i < x.n)
    lex_one(&x);
  struct ana_js_fn *v = NULL;
  size_t nv = 0, cap = 0;
  for (size_t k = 0; k < x.nt; k++) {
    const struct tok *t = &x.t[k];
    if (t->kind != T_PUNCT || x.s[t->off] != '}' || t->match < 0) continue;
    const char *name;
    uint32_t len;
    size_t start;
    if (!fn_body(&x, (size_t)t->match, &name, &len, &start) || !len) continue;
    ZC_GROW(v, cap, nv + 1);
    v[nv++] = (struct ana_js_fn){.name = zc_xstrndup(name, len),
                                 .line = x.t[start].line + 1,
                                 .end = t->line + 1};
  }
  free(x.t);
  free(x.stack);
  *out = v;
  return (unsigned)nv;
}

void ana_js_functions_free(struct ana_js_fn *v, unsigned n) {
  for (unsigned i = 0; v && i < n; i++)
    free(v[i].name);
  free(v);
}

/* The innermost function holding the span [a, b] of lines (the
 * narrowest), or -1. */
static long innermost(const struct ana_js_fn *v, unsigned n, int32_t a,
                      int32_t b) {
  long best = -1;
  for (unsigned i = 0; i < n; i++)
    if (v[i].line <= a && v[i].end >= b &&
        (best < 0 || v[i].end - v[i].line < v[best].end - v[best].line))
      best = i;
  return best;
}

unsigned ana_js_holders(const struct ana_js_fn *v, unsigned n, int32_t first,
                        int32_t last, int deletion, long *out, unsigned cap,
                        int *outside) {
  unsigned k = 0;
  *outside = 0;
  if (deletion) { /* the lines went between first and first + 1 */
    long f = innermost(v, n, first, first + 1);
    if (f < 0) *outside = 1;
    if (f >= 0 && cap) out[k++] = f;
    return k;
  }
  for (int32_t l = first; l <= last; l++) {
    long f = innermost(v, n, l, l);
    if (f < 0) {
      *outside = 1;
      continue;
    }
    unsigned j = 0;
    while (j < k && out[j] != f)
      j++;
    if (j == k && k < cap) out[k++] = f;
  }
  return k;
}
