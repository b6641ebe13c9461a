#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Extract the documented C API of the seastar headers (standard library only).

The headers document every public symbol where it is declared:

* ``/** ... */`` right above a function, a type (struct, enum, typedef), a
  macro, or a struct field / enum value;
* ``/**< ... */`` right after a struct field or an enum value (or after a
  ``#define`` on the same line).

Comment bodies are reStructuredText with field lists (``:param x:``,
``:returns:``, ``:paper:``).  Public symbols start with ``sa_``/``SA_``/
``sr_``/``SR_``; a double underscore (``sa__``) marks a private one.  Fields of
public structs and values of public enums are public too.

This module is used two ways:

* by the Sphinx extension ``capi_sphinx`` (docs/_ext), which turns the parsed
  symbols into C-domain directives and fails the build on an undocumented one;
* from the command line, by ``make test`` (tests/contract.sh)::

      python3 docs/_ext/capi.py --check seastar_arb.h seastar_route.h

  prints every undocumented public symbol (and every ``:param x:`` that names
  no parameter) and exits 1 if there is any.  ``--list`` prints every symbol.

The parser is not a C compiler: it understands the header style of this
project (top-level declarations, ``extern "C"`` blocks, function definitions
with bodies, ``typedef struct/enum { ... } name;`` blocks, ``#define`` with and
without arguments, ``#if``/``#else`` variants of one definition).
"""

import re
import sys

PUBLIC_RE = re.compile(r'^(?:sa|sr|SA|SR)_(?!_)')

_TOKEN_RE = re.compile(r'''
    (?P<mdoc>/\*\*<(?:.|\n)*?\*/)           # /**< member doc */
  | (?P<doc>/\*\*(?![*/])(?:.|\n)*?\*/)     # /** doc */ (not /**/ or /***)
  | (?P<comment>/\*(?:.|\n)*?\*/)
  | (?P<lcomment>//[^\n]*)
  | (?P<pp>\#(?:[^\n\\/]|\\(?:.|\n)|/\*(?:.|\n)*?\*/|/(?!\*))*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)*')
  | (?P<lbrace>\{) | (?P<rbrace>\}) | (?P<semi>;) | (?P<comma>,)
  | (?P<ws>\s+)
  | (?P<other>[^\s{};,"'/\#]+|/)
''', re.X)

_COMMENT_RE = re.compile(r'/\*(?:.|\n)*?\*/|//[^\n]*')
_IDENT_RE = re.compile(r'[A-Za-z_]\w*')
_FUNCPTR_RE = re.compile(r'\(\s*\*\s*([A-Za-z_]\w*)\s*\)')
_DROP_WORDS = {'static', 'inline', 'extern', '__inline', '__inline__',
               '__forceinline'}


class Token(object):
    __slots__ = ('kind', 'text', 'start', 'end', 'line')

    def __init__(self, kind, text, start, end, line):
        self.kind, self.text, self.start, self.end, self.line = kind, text, start, end, line


class Symbol(object):
    """One public (or private) symbol found in a header.

    kind: function, macro, struct, union, enum, enumerator, member, type, var.
    name: the C name (members: ``struct.field``).
    decl: the declaration as the Sphinx C domain wants it (no body, no
          SA_API, no ``static inline``).
    doc:  the comment body (reStructuredText), '' if none.
    members: for struct/union/enum, the list of member Symbols.
    params: parameter names (functions and function-like macros), or None.
    value: the replacement text of an object-like macro, or None.
    section: (major title, minor title) of the banner comments above it.
    """

    def __init__(self, kind, name, decl, doc, path, line, section=(None, None)):
        self.kind, self.name, self.decl, self.doc = kind, name, decl, doc
        self.path, self.line, self.section = path, line, section
        self.members = []
        self.params = None
        self.value = None
        self.private = not PUBLIC_RE.match(name.split('.')[-1] if kind == 'member' else name)

    def __repr__(self):
        return 'Symbol(%s %s)' % (self.kind, self.name)


# ---------------------------------------------------------------- comments

class DocText(str):
    """A doc comment body; .line is the header line of its first line."""
    line = 0


def comment_body(text, line=0):
    """The reStructuredText body of a ``/** ... */`` or ``/**< ... */``
    that starts on header line ``line``."""
    body = text[3:-2]
    if body.startswith('<'):
        body = body[1:]
    lines = body.split('\n')
    first, rest = lines[0].strip(), lines[1:]
    # " * text" style: strip the stars when every non-blank line has one.
    starred = [l for l in rest if l.strip()]
    if starred and all(l.lstrip().startswith('*') for l in starred):
        rest = [re.sub(r'^\s*\*', '', l) for l in rest]
    rest = [l.rstrip() for l in rest]
    indents = [len(l) - len(l.lstrip()) for l in rest if l.strip()]
    cut = min(indents) if indents else 0
    rest = [l[cut:] for l in rest]
    lines = [first] + rest
    while lines and not lines[0].strip():
        lines.pop(0)
        line += 1
    while lines and not lines[-1].strip():
        lines.pop()
    doc = DocText('\n'.join(lines))
    doc.line = line
    return doc


def _banner(text):
    """(level, title) of a section banner comment, or None.

    A banner is a plain comment whose first line is a rule of '=' (level 1)
    or '-' (level 2), followed by the title lines and another rule.
    """
    lines = [re.sub(r'^\s*\*?', '', l).strip() for l in text[2:-2].split('\n')]
    lines = [l for l in lines if l]
    if len(lines) < 2:
        return None
    m = re.fullmatch(r'(=|-)\1{9,}', lines[0])
    if not m:
        return None
    title = []
    for l in lines[1:]:
        if re.fullmatch(r'[=-]{10,}', l):
            break
        title.append(l)
    if not title:
        return None
    return (1 if m.group(1) == '=' else 2), ' '.join(title)


def _clean(text):
    """Declaration text without comments, whitespace collapsed."""
    text = _COMMENT_RE.sub(' ', text)
    text = re.sub(r'\s+', ' ', text).strip()
    text = re.sub(r'\s*([()\[\],])\s*', r'\1', text)
    text = text.replace(',', ', ')
    return text


def _split_top(text, sep=','):
    """Split text on sep outside (), [] and {}."""
    parts, depth, cur = [], 0, ''
    for ch in text:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def declarator_name(decl):
    """Name declared by a declaration such as ``int (*f)(int)``,
    ``uint8_t x[4]``, ``unsigned flag : 1``, ``const char *p``."""
    m = _FUNCPTR_RE.search(decl)
    if m:
        return m.group(1)
    d = re.sub(r':\s*\w+\s*$', '', decl).strip()          # bit-field width
    d = re.sub(r'(\s*\[[^\]]*\])+$', '', d)                # array bounds
    d = re.sub(r'\s*=.*$', '', d)                          # initialiser
    idents = _IDENT_RE.findall(d)
    return idents[-1] if idents else None


def param_names(arglist):
    """Parameter names of a C parameter list or macro argument list."""
    names = []
    for p in _split_top(arglist):
        if not p or p in ('void', '...'):
            continue
        n = declarator_name(p)
        if n and n not in ('void',):
            names.append(n)
    return names


# ------------------------------------------------------------------ parser

def tokenize(src):
    toks, pos, line = [], 0, 1
    while pos < len(src):
        m = _TOKEN_RE.match(src, pos)
        if m is None:                   # cannot happen; be safe
            kind, text, end = 'other', src[pos], pos + 1
        else:
            kind, text, end = m.lastgroup, m.group(0), m.end()
        if kind == 'pp':
            bol = src.rfind('\n', 0, pos) + 1
            if src[bol:pos].strip():    # '#' inside a line: not a directive
                kind, text, end = 'other', '#', pos + 1
        toks.append(Token(kind, text, pos, end, line))
        line += text.count('\n')
        pos = end
    return toks


def _match_brace(toks, i):
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].kind == 'lbrace':
            depth += 1
        elif toks[j].kind == 'rbrace':
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


class Header(object):
    """Parse one header; .symbols is the list of top-level Symbols in order,
    deduplicated by name (an #if/#else pair or a prototype plus definition
    gives one symbol)."""

    def __init__(self, path, text=None, display=None):
        self.path = display or path
        if text is None:
            with open(path, encoding='utf-8') as f:
                text = f.read()
        self.src = text
        self.symbols = []
        self._by_name = {}
        self._section = [None, None]
        self._parse()

    # -- helpers
    def _add(self, sym):
        old = self._by_name.get(sym.name)
        if old is None:
            self._by_name[sym.name] = sym
            self.symbols.append(sym)
            return
        # Merge a second declaration of the same name.
        if not old.doc and sym.doc:
            old.doc = sym.doc
        if sym.members and not old.members:
            old.kind, old.decl, old.members = sym.kind, sym.decl, sym.members
        if old.params is None and sym.params is not None:
            old.params = sym.params

    def _sym(self, kind, name, decl, doc, line):
        return Symbol(kind, name, decl, doc, self.path, line, tuple(self._section))

    # -- preprocessor
    def _define(self, tok, doc, guard_candidate):
        text = tok.text
        mdoc = re.search(r'/\*\*<(?:.|\n)*?\*/', text)
        if mdoc and not doc:
            doc = comment_body(mdoc.group(0), tok.line + text[:mdoc.start()].count('\n'))
        body = _COMMENT_RE.sub(' ', text.replace('\\\n', ' '))
        m = re.match(r'#\s*define\s+([A-Za-z_]\w*)(\([^)]*\))?(.*)$', body, re.S)
        if not m:
            return
        name, args, value = m.group(1), m.group(2), m.group(3).strip()
        if guard_candidate == name and not value and args is None:
            return                                          # include guard
        decl = name + (re.sub(r'\s+', ' ', args).replace(' ,', ',') if args else '')
        sym = self._sym('macro', name, decl, doc, tok.line)
        if args is not None:
            sym.params = param_names(args[1:-1])
        else:
            sym.value = re.sub(r'\s+', ' ', value)
        self._add(sym)

    # -- aggregates
    def _members(self, toks, kind, owner):
        """Members of a struct/union (sep ';') or enum (sep ',') body."""
        sep = 'comma' if kind == 'enum' else 'semi'
        members, start, pre_doc, post_doc, depth, line = [], None, '', '', 0, 0
        end_pos = None

        def finish(end):
            text = _clean(self.src[start:end])
            if not text:
                return
            doc = pre_doc or post_doc
            if pre_doc and post_doc:
                doc = DocText(pre_doc + '\n\n' + post_doc)
                doc.line = pre_doc.line
            if kind == 'enum':
                name = _IDENT_RE.match(text)
                if not name:
                    return
                name = name.group(0)
                s = Symbol('enumerator', name, text, doc, self.path, line, tuple(self._section))
                members.append(s)
                return
            decls = _split_top(text)
            first = declarator_name(decls[0]) or ''
            base = decls[0][:decls[0].rfind(first)].rstrip(' *') if first else ''
            for i, d in enumerate(decls):
                full = d if i == 0 else base + ' ' + d
                name = declarator_name(full)
                if not name:
                    continue
                full = re.sub(r'\s*:\s*\w+\s*$', '', full)   # drop bit-field width
                s = Symbol('member', owner + '.' + name, full, doc, self.path, line,
                           tuple(self._section))
                members.append(s)

        for t in toks:
            k = t.kind
            if k in ('ws', 'comment', 'lcomment', 'pp'):
                continue
            if k == 'doc':
                if start is None:
                    pre_doc = comment_body(t.text, t.line)
                continue
            if k == 'mdoc':
                body = comment_body(t.text, t.line)
                if start is not None:
                    post_doc = body
                elif members:
                    # after the separator: belongs to the member just closed
                    last = [m for m in members if m.line == members[-1].line]
                    for m in last:
                        if not m.doc:
                            m.doc = body
                continue
            if k == 'other':
                depth += t.text.count('(') + t.text.count('[') - t.text.count(')') - t.text.count(']')
            elif k == 'lbrace':
                depth += 1
            elif k == 'rbrace':
                depth -= 1
            if k == sep and depth == 0:
                if start is not None:
                    finish(t.start)
                start, pre_doc, post_doc = None, '', ''
                continue
            if start is None:
                start, line = t.start, t.line
            end_pos = t.end
        if start is not None:
            finish(end_pos)
        return members

    # -- top level
    def _parse(self):
        toks = tokenize(self.src)
        n = len(toks)
        i = 0
        pending = ''             # a /** doc */ waiting for its declaration
        start = None             # token index where the current declaration began
        doc = ''
        agg = None               # (kind, tag, members, decl text) of a {...} body
        extern_depth = 0
        guard = None             # first #ifndef NAME before any declaration
        seen_decl = False
        while i < n:
            t = toks[i]
            k = t.kind
            if k in ('ws', 'lcomment'):
                i += 1
                continue
            if k == 'comment':
                if start is None:
                    b = _banner(t.text)
                    if b:
                        self._section[b[0] - 1] = b[1]
                        if b[0] == 1:
                            self._section[1] = None
                i += 1
                continue
            if k == 'doc':
                if start is None:
                    pending = comment_body(t.text, t.line)
                i += 1
                continue
            if k == 'mdoc':
                # after a top-level declaration on the same line
                if start is None and self.symbols and not self.symbols[-1].doc:
                    self.symbols[-1].doc = comment_body(t.text, t.line)
                i += 1
                continue
            if k == 'pp':
                if start is None:
                    d = re.match(r'#\s*(\w+)\s*(\w*)', t.text)
                    word = d.group(1) if d else ''
                    if word == 'ifndef' and not seen_decl and guard is None:
                        guard = d.group(2)
                    elif word == 'define':
                        self._define(t, pending, guard if not seen_decl else None)
                        if guard and d.group(2) == guard:
                            seen_decl = True
                        pending = ''
                i += 1
                continue
            if k == 'rbrace' and start is None:
                if extern_depth:
                    extern_depth -= 1
                pending = ''
                i += 1
                continue
            # significant token: part of a declaration
            if start is None:
                start, doc, pending, agg = i, pending, '', None
                seen_decl = True
            if k == 'lbrace':
                pre = _clean(self.src[toks[start].start:t.start])
                if re.fullmatch(r'extern\s*"C(\+\+)?"', pre):
                    extern_depth += 1
                    start = None
                    pending = doc
                    i += 1
                    continue
                j = _match_brace(toks, i)
                m = re.search(r'\b(struct|union|enum)\b\s*([A-Za-z_]\w*)?\s*$', pre)
                if m and '=' not in pre and agg is None:
                    owner = m.group(2) or ''
                    agg = [m.group(1), owner, toks[i + 1:j], pre]
                    i = j + 1
                    continue
                if '(' in pre and '=' not in pre and agg is None:
                    self._declaration(pre, doc, toks[start].line, body=True)
                    start = None
                    i = j + 1
                    continue
                i = j + 1                      # initialiser: skip it
                continue
            if k == 'semi':
                text = self.src[toks[start].start:t.start]
                if agg is not None:
                    self._aggregate(agg, text, doc, toks[start].line)
                else:
                    self._declaration(_clean(text), doc, toks[start].line, body=False)
                start, agg = None, None
                i += 1
                continue
            i += 1

    def _aggregate(self, agg, text, doc, line):
        kind, tag, body, pre = agg
        # text runs from the declaration start to ';' and includes the body;
        # the declarators follow the last '}'.
        tail = _clean(_COMMENT_RE.sub(' ', text).rsplit('}', 1)[-1])
        names = [declarator_name(d) for d in _split_top(tail) if d]
        names = [x for x in names if x]
        is_typedef = re.match(r'typedef\b', pre) is not None
        if is_typedef and names:
            name = names[0]
        elif tag:
            name = tag
        else:
            name = ''
        if not name:
            # anonymous enum: its values are top-level constants
            if kind == 'enum':
                for mem in self._members(body, kind, ''):
                    self._add(mem)
            return
        sym = self._sym(kind, name, name, doc, line)
        sym.members = self._members(body, kind, name)
        self._add(sym)

    def _declaration(self, text, doc, line, body):
        if not text:
            return
        if re.match(r'typedef\b', text):
            name = declarator_name(text)
            if not name:
                return
            sym = self._sym('type', name, text[len('typedef'):].strip(), doc, line)
            m = _FUNCPTR_RE.search(text)
            if m:
                rest = text[m.end():].strip()
                if rest.startswith('('):
                    sym.params = param_names(rest[1:rest.rfind(')')])
            self._add(sym)
            return
        if re.fullmatch(r'(struct|union|enum)\s+\w+', text):
            return                                         # forward declaration
        paren = text.find('(')
        fp = _FUNCPTR_RE.search(text)
        if paren >= 0 and not (fp and fp.start() == paren) and '=' not in text[:paren]:
            # function: the name is the identifier before its parameter list
            name = None
            for m in re.finditer(r'([A-Za-z_]\w*)\s*\(', text):
                cand = m.group(1)
                if cand.isupper() or cand.startswith('__'):
                    continue
                name, pstart = cand, m.end()
                break
            if not name:
                return
            depth, k = 1, pstart
            while k < len(text) and depth:
                depth += {'(': 1, ')': -1}.get(text[k], 0)
                k += 1
            args = text[pstart:k - 1]
            decl = _strip_specifiers(text[:k])
            sym = self._sym('function', name, decl, doc, line)
            sym.params = param_names(args)
            self._add(sym)
            return
        # variable
        name = declarator_name(re.sub(r'=.*$', '', text))
        if name:
            self._add(self._sym('var', name, _strip_specifiers(re.sub(r'\s*=.*$', '', text)),
                                doc, line))


def _strip_specifiers(decl):
    """Drop API macros (leading all-caps words, with optional (...)),
    storage classes and inline from the front of a declaration."""
    out = decl.strip()
    while True:
        m = re.match(r'([A-Za-z_]\w*)\s*', out)
        if not m:
            break
        w = m.group(1)
        if w in _DROP_WORDS or (w.isupper() and len(w) > 1 and w not in ('FILE',)):
            rest = out[m.end():]
            if w.isupper() and rest.startswith('('):
                depth, k = 0, 0
                for k, ch in enumerate(rest):
                    depth += {'(': 1, ')': -1}.get(ch, 0)
                    if depth == 0:
                        break
                rest = rest[k + 1:].lstrip()
            elif w == '__attribute__':
                break
            out = rest
            continue
        break
    return out


# ------------------------------------------------------------------ checks

def public_symbols(header):
    """Every public symbol of a header, members included, in order."""
    out = []
    for s in header.symbols:
        if s.private:
            continue
        out.append(s)
        for m in s.members:
            if not m.private or m.kind == 'member':
                out.append(m)
    return out


def problems(header):
    """List of (path, line, message) for undocumented public symbols and
    :param: fields that name no parameter."""
    out = []
    for s in public_symbols(header):
        if not s.doc.strip():
            out.append((s.path, s.line, 'undocumented %s %s' % (s.kind, s.name)))
        if s.params is not None:
            for m in re.finditer(r'^:param\s+(?:[^:]*\s)?([A-Za-z_]\w*)\s*:', s.doc, re.M):
                if m.group(1) not in s.params:
                    out.append((s.path, s.line, '%s %s: ":param %s:" names no parameter (%s)'
                                % (s.kind, s.name, m.group(1), ', '.join(s.params) or 'none')))
    return out


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--check', action='store_true',
                    help='report undocumented public symbols; exit 1 if any')
    ap.add_argument('--list', action='store_true', help='list every public symbol')
    ap.add_argument('headers', nargs='+')
    a = ap.parse_args(argv)
    total, bad = 0, []
    for path in a.headers:
        try:
            h = Header(path)
        except OSError as e:
            print('capi: %s' % e, file=sys.stderr)
            return 2
        syms = public_symbols(h)
        total += len(syms)
        if a.list:
            for s in syms:
                print('%s:%d: %s %s%s' % (s.path, s.line, s.kind, s.name,
                                          '' if s.doc else '  (UNDOCUMENTED)'))
        bad += problems(h)
    for path, line, msg in bad:
        print('%s:%d: %s' % (path, line, msg))
    if bad:
        print('capi: %d problem(s) in the doc comments of %s' % (len(bad), ' '.join(a.headers)))
        return 1
    print('capi: all %d public symbols of %s are documented' % (total, ' '.join(a.headers)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
