"""Sphinx extension: the API reference extracted from the seastar headers.

Configuration (conf.py):

    capi_root    = '..'                                   # relative to docs/
    capi_headers = ['seastar_arb.h', 'seastar_route.h']

Directive::

    .. capi:: seastar_arb.h

emits every public symbol of the header, in header order, as Sphinx C-domain
directives (c:function, c:struct with c:member, c:enum with c:enumerator,
c:macro, c:type, c:var) whose content is the symbol's doc comment.  The
header's banner comments become sections.  Put the directive last on a page.

Whether or not a page uses the directive, every configured header is checked
when the build starts: each undocumented public symbol (and each
``:param x:`` naming no parameter) is a warning, so ``sphinx -W`` fails and
lists them all (with ``--keep-going``).  Parsing lives in capi.py (stdlib
only, also usable from the command line).
"""

import os
import re

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.nodes import nested_parse_with_titles

import capi

logger = logging.getLogger(__name__)

_ROLE = {'function': 'c:func', 'macro': 'c:macro', 'struct': 'c:struct',
         'union': 'c:union', 'enum': 'c:enum', 'enumerator': 'c:enumerator',
         'type': 'c:type', 'var': 'c:var'}
_DIRECTIVE = dict(_ROLE, function='c:function', member='c:member')

# Spans of a doc body that must not be touched when linking symbol names:
# inline literals, roles and interpreted text, and field names.
_PROTECTED_RE = re.compile(r'(``.+?``|:[\w:+.-]+:`[^`]*`|`[^`]*`_{0,2}|^[ \t]*:[^:\n]+:)', re.M)
# enumerator values shown in the signature only when Sphinx surely parses them
_SIMPLE_VALUE_RE = re.compile(r'^[\w\s()+\-*/|&<>~^]*$')


def _header_paths(config, confdir):
    root = os.path.normpath(os.path.join(confdir, config.capi_root))
    return [(h, os.path.join(root, h)) for h in config.capi_headers]


def _parse(path, display):
    return capi.Header(path, display=display)


def _symbol_roles(headers):
    roles = {}
    for h in headers:
        for s in capi.public_symbols(h):
            if s.kind in _ROLE:
                roles[s.name] = _ROLE[s.kind]
    return roles


def linkify(text, roles, own=None):
    """Turn bare public symbol names in a doc body into C-domain references."""
    names = sorted((n for n in roles if n != own), key=len, reverse=True)
    if not names:
        return text
    word = re.compile(r'(?<![\w*`:|\\.>-])(%s)(\(\))?(?![\w*`])' % '|'.join(map(re.escape, names)))

    def sub(m):
        role = roles[m.group(1)]
        if role != 'c:func' and m.group(2):
            return ':%s:`%s`()' % (role, m.group(1))
        return ':%s:`%s`' % (role, m.group(1))

    out = []
    for i, part in enumerate(_PROTECTED_RE.split(text)):
        out.append(part if i % 2 else word.sub(sub, part))
    return ''.join(out)


def _indent(text, n):
    pad = ' ' * n
    return [pad + l if l.strip() else '' for l in text.split('\n')]


def _title(text, char):
    text = re.sub(r'([*`|\\])', r'\\\1', text)
    return [text, char * max(len(text), 4), '']


def symbol_rst(sym, roles, indent=0):
    """reStructuredText lines for one symbol (and its members)."""
    decl = sym.decl
    if sym.kind == 'enumerator':
        name, _, value = decl.partition('=')
        decl = decl if value and _SIMPLE_VALUE_RE.match(value) else name.strip()
    kind = sym.kind
    if kind == 'type' and not sym.decl:
        decl = sym.name
    lines = ['.. %s:: %s' % (_DIRECTIVE[kind], decl), '']
    own = sym.name.split('.')[-1]
    body = linkify(sym.doc, roles, own) if sym.doc else ''
    if body:
        lines += _indent(body, 3) + ['']
    if kind == 'macro' and sym.value and '`' not in sym.value and len(sym.value) <= 70:
        lines += ['   Defined as ``%s``.' % sym.value, '']
    for m in sym.members:
        if m.private and m.kind != 'member':
            continue
        lines += _indent('\n'.join(symbol_rst(m, roles)), 3) + ['']
    pad = ' ' * indent
    return [pad + l if l else '' for l in lines]


def header_rst(header, roles, chars='-~'):
    """reStructuredText of a whole header: sections and symbols."""
    lines, shown = [], [None, None]
    for s in header.symbols:
        if s.private:
            continue
        major, minor = s.section
        if major is None and minor is not None:       # a minor banner first
            major, minor = minor, None
        if major != shown[0]:
            shown = [major, None]
            if major:
                lines += _title(major, chars[0])
        if minor != shown[1]:
            shown[1] = minor
            if minor:
                lines += _title(minor, chars[1])
        lines += symbol_rst(s, roles)
    return lines


class CApiDirective(Directive):
    required_arguments = 1
    has_content = False

    def run(self):
        env = self.state.document.settings.env
        app = env.app
        paths = dict(_header_paths(app.config, app.confdir))
        name = self.arguments[0]
        if name not in paths:
            raise self.error('capi: %s is not in capi_headers (%s)'
                             % (name, ', '.join(sorted(paths))))
        headers = [_parse(p, h) for h, p in sorted(paths.items())]
        for p in paths.values():
            env.note_dependency(p)
        header = [h for h in headers if h.path == name][0]
        lines = header_rst(header, _symbol_roles(headers))
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=paths[name]), node)
        return node.children


def check_headers(app):
    """At the start of the build: warn for every documentation problem."""
    count = 0
    for display, path in _header_paths(app.config, app.confdir):
        try:
            h = _parse(path, display)
        except OSError as e:
            logger.warning('capi: cannot read %s: %s', path, e)
            continue
        count += len(capi.public_symbols(h))
        for p, line, msg in capi.problems(h):
            logger.warning('capi: %s', msg, location='%s:%d' % (path, line))
    logger.info('capi: checked %d public symbols', count)


def setup(app):
    app.add_config_value('capi_root', '..', 'env')
    app.add_config_value('capi_headers', [], 'env')
    app.add_directive('capi', CApiDirective)
    app.connect('builder-inited', check_headers)
    return {'version': '1.0', 'parallel_read_safe': True, 'parallel_write_safe': True}
