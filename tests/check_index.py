#!/usr/bin/env python3
"""check_index.py - the API index of a header (the comment block tagged
>>index near its top) lists exactly the public functions the header
defines, each with the signature of its definition and under the tag of
the section (/* >>name ...) that defines it.

Usage: check_index.py HEADER [PREFIX]   (PREFIX: sa_ by default)

A public function is a definition ``SA_API <type> <prefix>name(...) {``
whose name does not start with the private prefix (``sa__``).  Signatures
are compared token by token (identifiers, numbers and punctuation), so
spacing does not matter.  Prints every difference; exit status 1 if any.
"""
import re
import sys

TOKEN = re.compile(r'[A-Za-z_][A-Za-z0-9_]*|\d+|\S')


def tokens(text):
    return TOKEN.findall(text)


def index_entries(text):
    """{name: (tag, tokens)} from the >>index comment block."""
    start = text.index('>>index')
    end = text.index('*/', start)
    entries, tag = {}, None
    for raw in text[start:end].split('\n')[1:]:
        line = re.sub(r'^\s*\*\s?', '', raw).rstrip()
        m = re.match(r'^\s*>>([a-z0-9]+)\s+(.*)$', line)
        if m:
            tag, line = m.group(1), m.group(2)
        line = line.strip()
        if not line or '(' not in line:
            continue
        m = re.search(r'\b([A-Za-z_][A-Za-z0-9_]*)\s*\(', line)
        name = m.group(1)
        if name in entries:
            entries[name] = ('duplicate', entries[name][1])
        else:
            entries[name] = (tag, tokens(line))
    return entries


def definitions(text, prefix, api):
    """{name: (section tag, tokens)} of the public function definitions."""
    defs = {}
    sections = [(m.start(), m.group(1)) for m in re.finditer(r'/\* >>([a-z0-9]+)', text)]
    pattern = re.compile(r'^' + api + r'\s+([^;{}()]*?\b(' + prefix + r'[A-Za-z0-9_]*)\s*\(([^)]*)\))\s*\{',
                         re.M | re.S)
    for m in pattern.finditer(text):
        name = m.group(2)
        if name.startswith(prefix + '_'):
            continue
        tag = None
        for pos, t in sections:
            if pos < m.start():
                tag = t
        defs[name] = (tag, tokens(m.group(1)))
    return defs


def main():
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    header = sys.argv[1]
    prefix = sys.argv[2] if len(sys.argv) > 2 else 'sa_'
    api = prefix.upper().rstrip('_') + '_API'
    with open(header, encoding='utf-8') as f:
        text = f.read()
    if '>>index' not in text:
        print('%s: no >>index block' % header)
        return 1
    index, defs = index_entries(text), definitions(text, prefix, api)
    problems = []
    for name in sorted(set(index) | set(defs)):
        if name not in defs:
            problems.append('%s: listed in the index but not defined' % name)
        elif name not in index:
            problems.append('%s: defined (>>%s) but not in the index' % (name, defs[name][0]))
        elif index[name][0] == 'duplicate':
            problems.append('%s: listed twice in the index' % name)
        else:
            if index[name][1] != defs[name][1]:
                problems.append('%s: index says "%s", definition says "%s"'
                                % (name, ' '.join(index[name][1]), ' '.join(defs[name][1])))
            if index[name][0] != defs[name][0]:
                problems.append('%s: listed under >>%s, defined in >>%s' % (name, index[name][0], defs[name][0]))
    for p in problems:
        print(p)
    print('%s: %d functions in the index, %d public definitions, %d problems'
          % (header, len(index), len(defs), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
