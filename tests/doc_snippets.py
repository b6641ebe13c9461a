#!/usr/bin/env python3
"""doc_snippets.py - extract the C and C++ code blocks of README.md and
docs/*.rst as files that tests/contract.sh compiles (as C and as C++).

Usage: doc_snippets.py OUTDIR FILE...

Which blocks: in Markdown, blocks fenced ```c, ```cpp or ```c++; in
reStructuredText, ``.. code-block:: c`` (or cpp, c++) and literal ``::``
blocks whose text calls a library function (a name starting sa_ or sr_
followed by an opening parenthesis; shell lines and the like are not C).

What each becomes:
  - a block with an ``#include`` line is a whole file and is compiled as
    it stands;
  - any other block is a fragment: it becomes the body of a function
    ``int doc_snippet_N(void)`` (ending in ``return 0;``), after
    ``#include`` of <stdio.h>, <stdlib.h>, <string.h>, seastar_arb.h and
    seastar_route.h;
  - a line that is only ``...`` (text left out) is dropped.

A comment just above a block (after the previous block) can say more:
  reStructuredText  ``.. snippet: context <C code>``   Markdown
  ``<!-- snippet: context <C code> -->``: the code (declarations a fragment
  takes from the surrounding text) goes before the block, at the top of the
  function for a fragment, at the top of the file for a whole file;
  ``.. snippet: not C <reason>`` / ``<!-- snippet: not C <reason> -->``: the
  block is pseudo-code and is not compiled (it is listed).

Writes OUTDIR/snippet_N.c for each block and prints one line per block:
  ``snippet_N.c LANG ORIGIN`` where LANG is c (compile as C and as C++) or
  cpp (C++ only), or ``- skip ORIGIN REASON`` for a block marked not C.
"""
import os
import re
import sys

CALLS_LIBRARY = re.compile(r'\bs[ar]_[a-z0-9_]+\s*\(')
PRELUDE = ('#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n'
           '#include "seastar_arb.h"\n#include "seastar_route.h"\n')


def marker(lines):
    """The snippet: comment among lines, as (kind, text) or None."""
    found = None
    for line in lines:
        m = re.match(r'\s*(?:\.\.|<!--)\s*snippet:\s*(context|not C)\s*(.*?)\s*(?:-->)?\s*$', line)
        if m:
            found = (m.group(1), m.group(2))
    return found


def markdown_blocks(text):
    lines = text.split('\n')
    out, since = [], 0
    i = 0
    while i < len(lines):
        m = re.match(r'^```\s*(c|cpp|c\+\+)\s*$', lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            lang = 'c' if m.group(1) == 'c' else 'cpp'
            out.append((i + 1, lang, lines[i + 1:j], marker(lines[since:i])))
            since = j + 1
            i = j + 1
            continue
        i += 1
    return out


def rst_body(lines, start):
    """The indented body of a directive or literal block from lines[start:]
    (options and blank lines first); returns (body lines dedented, end)."""
    i = start
    while i < len(lines) and re.match(r'^\s+:[a-z-]+:', lines[i]):
        i += 1
    body = []
    while i < len(lines) and (lines[i].strip() == '' or lines[i].startswith((' ', '\t'))):
        body.append(lines[i])
        i += 1
    while body and body[-1].strip() == '':
        body.pop()
    while body and body[0].strip() == '':
        body.pop(0)
    indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
    return [l[indent:] for l in body], i


def rst_blocks(text):
    lines = text.split('\n')
    out, since = [], 0
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r'^\s*\.\.\s+code-block::\s*(c|cpp|c\+\+)\s*$', line)
        literal = (line.rstrip().endswith('::') and not re.match(r'^\s*\.\.\s', line))
        if m or literal:
            body, end = rst_body(lines, i + 1)
            if m:
                out.append((i + 1, 'c' if m.group(1) == 'c' else 'cpp', body, marker(lines[since:i])))
                since = end
            elif body and CALLS_LIBRARY.search('\n'.join(body)):
                out.append((i + 1, 'c', body, marker(lines[since:i])))
                since = end
            i = max(end, i + 1)
            continue
        i += 1
    return out


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    outdir = sys.argv[1]
    n = 0
    for path in sys.argv[2:]:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        blocks = markdown_blocks(text) if path.endswith('.md') else rst_blocks(text)
        for line, lang, body, mark in blocks:
            origin = '%s:%d' % (path, line)
            if mark and mark[0] == 'not C':
                print('- skip %s %s' % (origin, mark[1] or '(no reason given)'))
                continue
            context = mark[1] + '\n' if mark and mark[0] == 'context' else ''
            body = [l for l in body if l.strip() != '...']
            n += 1
            name = 'snippet_%d.c' % n
            whole = any(l.lstrip().startswith('#include') for l in body)
            if whole:
                src = '/* %s */\n%s%s\n' % (origin, context, '\n'.join(body))
            else:
                src = ('/* %s */\n%s\nint doc_snippet_%d(void);\nint doc_snippet_%d(void) {\n%s%s\nreturn 0;\n}\n'
                       % (origin, PRELUDE, n, n, context, '\n'.join(body)))
            with open(os.path.join(outdir, name), 'w', encoding='utf-8') as f:
                f.write(src)
            print('%s %s %s' % (name, lang, origin))
    return 0


if __name__ == '__main__':
    sys.exit(main())
