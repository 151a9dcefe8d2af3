"""Finding functions in JavaScript source by the position V8 reports, and the
places inside them where the eval injects code (tests/eval/README.md).

Stdlib only. A tokenizer that knows strings, template literals, comments and
regular-expression literals (the usual heuristic: a `/` starts a regex where
an expression may start) is enough to match brackets, find a function's body
from its position and list, in that body but not in functions nested in it:

- conditions: the parenthesized expression of `if` and `while`, and the
  middle part of `for (init; cond; step)`;
- calls of built-in APIs that take a callback: `x.map(cb)`, `x.forEach(cb)`,
  ..., `x.sort(cmp)`, `s.replace(re, function ...)`, and `JSON.parse(s)` /
  `JSON.stringify(v)` with one argument (a reviver / replacer can be added).

Positions: V8 gives 0-based line and column, the column in UTF-16 code units,
lines ended by LF, CR, CRLF, U+2028 or U+2029. A function's position is the
`(` of its parameter list (or the parameter of `x => ...`).
"""

import re

KEYWORDS_BEFORE_EXPR = {
    'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void',
    'throw', 'case', 'do', 'else', 'yield', 'await', 'extends'}
CONTROL = {'if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof',
           'new', 'delete', 'void', 'throw', 'case', 'in', 'of', 'instanceof',
           'yield', 'await', 'else', 'do'}
PUNCT3 = ['>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=',
          '??=']
PUNCT2 = ['=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--',
          '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '**']
ID_START = re.compile(r'[A-Za-z_$\u00a0-\uffff\\]')
ID_PART = re.compile(r'[A-Za-z0-9_$\u00a0-\uffff\\\u200c\u200d]*')
NUMBER = re.compile(r'0[xX][0-9a-fA-F_]+n?|0[oO][0-7_]+n?|0[bB][01_]+n?|'
                    r'(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?n?')

# Built-in methods whose first argument is a callback run during the call.
ARRAY_CALLBACK_APIS = {'map', 'forEach', 'filter', 'some', 'every', 'find',
                       'findIndex', 'findLast', 'findLastIndex', 'reduce',
                       'reduceRight', 'flatMap', 'sort'}
REPLACE_APIS = {'replace', 'replaceAll'}


class Token:
    __slots__ = ('kind', 'value', 'start', 'end', 'nl')

    def __init__(self, kind, value, start, end, nl):
        self.kind, self.value, self.start, self.end, self.nl = kind, value, start, end, nl

    def __repr__(self):
        return '%s(%r@%d)' % (self.kind, self.value, self.start)


class JSError(Exception):
    pass


def tokenize(src):
    """Tokens: kind is 'name', 'num', 'str', 'tmpl', 'regex' or 'punct'.
    Template literals are split: the text parts are 'tmpl' tokens and `${`
    and the `}` that closes it are punct tokens '${' and '}$'."""
    toks = []
    i, n = 0, len(src)
    braces = []          # '{' or '${' for each open brace
    nl = False
    while i < n:
        c = src[i]
        if c in ' \t\v\f\ufeff\u00a0':
            i += 1
            continue
        if c in '\n\r\u2028\u2029':
            nl = True
            i += 1
            continue
        if c == '/' and i + 1 < n and src[i + 1] == '/':
            j = i + 2
            while j < n and src[j] not in '\n\r\u2028\u2029':
                j += 1
            i = j
            continue
        if c == '/' and i + 1 < n and src[i + 1] == '*':
            j = src.find('*/', i + 2)
            if j < 0:
                raise JSError('unterminated comment at %d' % i)
            if re.search('[\n\r\u2028\u2029]', src[i:j]):
                nl = True
            i = j + 2
            continue
        start = i
        if c in '"\'':
            j = i + 1
            while j < n and src[j] != c:
                if src[j] == '\\':
                    j += 1
                elif src[j] in '\n\r':
                    raise JSError('unterminated string at %d' % i)
                j += 1
            i = j + 1
            toks.append(Token('str', src[start:i], start, i, nl))
        elif c == '`' or (c == '}' and braces and braces[-1] == '${'):
            if c == '}':
                braces.pop()
                toks.append(Token('punct', '}$', i, i + 1, nl))
                nl = False
            j = i + 1
            while True:
                if j >= n:
                    raise JSError('unterminated template at %d' % start)
                if src[j] == '\\':
                    j += 2
                    continue
                if src[j] == '`':
                    toks.append(Token('tmpl', src[i:j + 1], i, j + 1, nl))
                    i = j + 1
                    break
                if src[j] == '$' and j + 1 < n and src[j + 1] == '{':
                    toks.append(Token('tmpl', src[i:j], i, j, nl))
                    toks.append(Token('punct', '${', j, j + 2, False))
                    braces.append('${')
                    i = j + 2
                    break
                j += 1
        elif ID_START.match(c) or c == '#':
            m = ID_PART.match(src, i + 1)
            i = m.end()
            toks.append(Token('name', src[start:i], start, i, nl))
        elif c.isdigit() or (c == '.' and i + 1 < n and src[i + 1].isdigit()):
            m = NUMBER.match(src, i)
            i = m.end() if m and m.end() > i else i + 1
            toks.append(Token('num', src[start:i], start, i, nl))
        elif c == '/' and regex_allowed(toks):
            j = i + 1
            in_class = False
            while j < n:
                d = src[j]
                if d == '\\':
                    j += 2
                    continue
                if d in '\n\r':
                    raise JSError('unterminated regex at %d' % i)
                if in_class:
                    if d == ']':
                        in_class = False
                elif d == '[':
                    in_class = True
                elif d == '/':
                    break
                j += 1
            j += 1
            m = ID_PART.match(src, j)
            i = m.end()
            toks.append(Token('regex', src[start:i], start, i, nl))
        else:
            for p in PUNCT3 + PUNCT2:
                if src.startswith(p, i):
                    # `?.5` is `? .5`, not optional chaining
                    if p == '?.' and i + 2 < n and src[i + 2].isdigit():
                        continue
                    i += len(p)
                    break
            else:
                i += 1
            v = src[start:i]
            if v == '{':
                braces.append('{')
            elif v == '}':
                if braces:
                    braces.pop()
            toks.append(Token('punct', v, start, i, nl))
        nl = False
    return toks


def regex_allowed(toks):
    if not toks:
        return True
    t = toks[-1]
    if t.kind in ('num', 'str', 'regex'):
        return False
    if t.kind == 'tmpl':
        return not t.value.endswith('`')
    if t.kind == 'name':
        return t.value in KEYWORDS_BEFORE_EXPR
    return t.value not in (')', ']', '}', '}$', '++', '--')


class Source:
    """One JavaScript file: its text, tokens, bracket pairs and positions."""

    def __init__(self, text):
        self.text = text
        self.toks = tokenize(text)
        self.match = {}
        stack = []
        for k, t in enumerate(self.toks):
            if t.kind != 'punct':
                continue
            if t.value in ('(', '[', '{', '${'):
                stack.append(k)
            elif t.value in (')', ']', '}', '}$'):
                if not stack:
                    raise JSError('unbalanced %r at %d' % (t.value, t.start))
                o = stack.pop()
                self.match[o] = k
                self.match[k] = o
        if stack:
            raise JSError('unclosed %r at %d' % (self.toks[stack[-1]].value,
                                                 self.toks[stack[-1]].start))
        self.by_start = {t.start: k for k, t in enumerate(self.toks)}
        self.line_starts = [0]
        for m in re.finditer('\r\n|[\n\r\u2028\u2029]', text):
            self.line_starts.append(m.end())
        self._fn_bodies = None

    # -- positions --

    def offset(self, line0, col16):
        """Character offset of V8's (0-based line, UTF-16 column)."""
        if line0 >= len(self.line_starts):
            return None
        i = self.line_starts[line0]
        units = 0
        while units < col16 and i < len(self.text):
            units += 2 if ord(self.text[i]) > 0xFFFF else 1
            i += 1
        return i

    def line_of(self, offset):
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    # -- functions --

    def function_body_tokens(self):
        """Token index pairs (open brace, close brace) of every function body,
        and (first, last) token ranges of expression-bodied arrows."""
        if self._fn_bodies is not None:
            return self._fn_bodies
        toks, out = self.toks, []
        for k, t in enumerate(toks):
            if t.kind != 'punct':
                continue
            if t.value == '{' and self.is_function_brace(k):
                out.append((k, self.match[k]))
            elif t.value == '=>' and k + 1 < len(toks) and toks[k + 1].value != '{':
                out.append((k + 1, self.expression_end(k + 1)))
        self._fn_bodies = out
        return out

    def is_function_brace(self, k):
        toks = self.toks
        if k == 0:
            return False
        prev = toks[k - 1]
        if prev.value == '=>':
            return True
        if prev.value != ')' or prev.kind != 'punct':
            return False
        o = self.match[k - 1]
        if o == 0:
            return False
        before = toks[o - 1]
        if before.kind == 'name':
            return before.value not in CONTROL
        return before.value in ('*', ']') or before.kind == 'str'

    def expression_end(self, k):
        """Last token index of the expression starting at token k (an arrow's
        expression body): up to a `,` `;` or closing bracket at its depth."""
        toks, depth = self.toks, 0
        j = k
        while j < len(toks):
            v = toks[j].value if toks[j].kind == 'punct' else None
            if v in ('(', '[', '{', '${'):
                j = self.match[j] + 1
                continue
            if v in (')', ']', '}', '}$', ',', ';'):
                return j - 1
            j += 1
        return len(toks) - 1

    def find_function(self, line0, col16):
        """The function V8 places at (line0, col16): a dict with the token
        indices of its body braces, or None when it is not found or has an
        expression body."""
        off = self.offset(line0, col16)
        if off is None:
            return None
        k = self.by_start.get(off)
        if k is None:
            return None
        toks = self.toks
        # The position is the `(` of the parameters; allow a name first
        # (a method's name, or `x` of `x => ...`).
        for j in range(k, min(k + 3, len(toks))):
            t = toks[j]
            if t.kind == 'punct' and t.value == '(':
                close = self.match[j]
                if close + 1 >= len(toks):
                    return None
                nxt = toks[close + 1]
                if nxt.value == '{':
                    return self._fn(j, close + 1)
                if nxt.value == '=>' and close + 2 < len(toks) and toks[close + 2].value == '{':
                    return self._fn(j, close + 2)
                return None
            if t.kind == 'name' and j + 1 < len(toks) and toks[j + 1].value == '=>':
                if j + 2 < len(toks) and toks[j + 2].value == '{':
                    return self._fn(j, j + 2)
                return None
        return None

    def _fn(self, params_tok, open_tok):
        close_tok = self.match[open_tok]
        nested = [(a, b) for a, b in self.function_body_tokens()
                  if open_tok < a and b < close_tok]
        # keep outermost nested ranges only
        nested.sort()
        outer = []
        for a, b in nested:
            if outer and a <= outer[-1][1]:
                continue
            outer.append((a, b))
        # parameters of nested functions hold no code of this function either
        return {'params': params_tok, 'open': open_tok, 'close': close_tok,
                'nested': outer}

    def own_token_indices(self, fn):
        """Token indices in fn's body, not in nested functions."""
        j = fn['open'] + 1
        nested = iter(fn['nested'] + [(fn['close'], fn['close'])])
        a, b = next(nested)
        while j < fn['close']:
            if j == a:
                j = b + 1
                a, b = next(nested)
                continue
            yield j
            j += 1

    def body_insert_offset(self, fn):
        """Where code goes at the start of fn's body: after `{` and after a
        directive prologue ('use strict';)."""
        toks = self.toks
        j = fn['open'] + 1
        pos = toks[fn['open']].end
        while j < fn['close'] and toks[j].kind == 'str':
            nxt = toks[j + 1] if j + 1 < len(toks) else None
            if nxt is not None and nxt.value == ';':
                pos = nxt.end
                j += 2
            elif nxt is not None and (nxt.nl or nxt.value == '}'):
                pos = toks[j].end
                j += 1
            else:
                break
        return pos

    # -- sites --

    def conditions(self, fn):
        """(start, end) character ranges of the condition expressions in
        fn's own body."""
        toks, out = self.toks, []
        own = set(self.own_token_indices(fn))
        for j in sorted(own):
            t = toks[j]
            if t.kind != 'name' or t.value not in ('if', 'while', 'for'):
                continue
            if j > 0 and toks[j - 1].value in ('.', '?.'):
                continue
            if j + 1 >= len(toks) or toks[j + 1].value != '(':
                continue
            o, c = j + 1, self.match[j + 1]
            if t.value in ('if', 'while'):
                if c > o + 1:
                    out.append((toks[o + 1].start, toks[c - 1].end))
                continue
            semis, q = [], o + 1
            while q < c:
                v = toks[q].value if toks[q].kind == 'punct' else None
                if v in ('(', '[', '{', '${'):
                    q = self.match[q] + 1
                    continue
                if v == ';':
                    semis.append(q)
                q += 1
            if len(semis) == 2 and semis[1] > semis[0] + 1:
                out.append((toks[semis[0] + 1].start, toks[semis[1] - 1].end))
        return out

    def call_args(self, open_paren):
        """Token ranges (first, last) of the top-level arguments of a call."""
        toks, c = self.toks, self.match[open_paren]
        args, q, first = [], open_paren + 1, open_paren + 1
        while q < c:
            v = toks[q].value if toks[q].kind == 'punct' else None
            if v in ('(', '[', '{', '${'):
                q = self.match[q] + 1
                continue
            if v == ',':
                args.append((first, q - 1))
                first = q + 1
            q += 1
        if first < c:
            args.append((first, c - 1))
        return [a for a in args if a[0] <= a[1]]

    def is_function_literal(self, first, last):
        toks = self.toks
        t = toks[first]
        if t.kind == 'name' and t.value in ('function', 'async'):
            return True
        if t.value == '(' and self.match[first] + 1 <= last and \
                toks[self.match[first] + 1].value == '=>':
            return True
        return t.kind == 'name' and first + 1 <= last and toks[first + 1].value == '=>'

    def api_calls(self, fn):
        """Calls of callback-taking built-ins in fn's own body. Each is a dict:
        api (name), kind ('wrap': wrap the argument range start..end in a
        callback wrapper; 'add': insert a new last argument at `at`)."""
        toks, out = self.toks, []
        own = set(self.own_token_indices(fn))
        for j in sorted(own):
            t = toks[j]
            if t.kind != 'name' or j + 1 >= len(toks) or toks[j + 1].value != '(':
                continue
            if j == 0 or toks[j - 1].value not in ('.', '?.'):
                continue
            args = self.call_args(j + 1)
            recv = toks[j - 2] if j >= 2 else None
            api = t.value
            if recv is not None and recv.kind == 'name' and recv.value == 'JSON' and \
                    api in ('parse', 'stringify'):
                if len(args) == 1:
                    out.append({'api': 'JSON.' + api, 'kind': 'add',
                                'at': toks[args[0][1]].end, 'line': self.line_of(t.start)})
                continue
            if api in ARRAY_CALLBACK_APIS and args:
                a = args[0]
            elif api in REPLACE_APIS and len(args) == 2 and self.is_function_literal(*args[1]):
                a = args[1]
            else:
                continue
            out.append({'api': api, 'kind': 'wrap', 'start': toks[a[0]].start,
                        'end': toks[a[1]].end, 'line': self.line_of(t.start)})
        return out


def apply_insertions(text, inserts):
    """inserts: (offset, order, text). At one offset, lower `order` goes
    first: callers use it to nest (a range that ends there closes before one
    that starts there)."""
    out, last = [], 0
    for off, _, s in sorted(inserts, key=lambda x: (x[0], x[1])):
        out.append(text[last:off])
        out.append(s)
        last = off
    out.append(text[last:])
    return ''.join(out)


def wrap_range(start, end, before, after):
    """Two insertions that wrap text[start:end]. At one offset, closings go
    before openings, an inner range closes first and an outer one opens
    first; insertions at a point (order 0) come after both."""
    n = end - start
    return [(start, -n, before), (end, -10**9 + n, after)]
