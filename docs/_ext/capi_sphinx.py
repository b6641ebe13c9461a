# SPDX-License-Identifier: MIT
"""Sphinx extension: the API reference extracted from the seastar headers.

Configuration (conf.py):

    capi_root    = '..'                                   # relative to docs/
    capi_headers = ['seastar_arb.h', 'seastar_topo.h', 'seastar_route.h']

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

import capi

logger = logging.getLogger(__name__)

_ROLE = {'function': 'c:func', 'macro': 'c:macro', 'struct': 'c:struct',
         'union': 'c:union', 'enum': 'c:enum', 'enumerator': 'c:enumerator',
         'type': 'c:type', 'var': 'c:var'}
_DIRECTIVE = dict(_ROLE, function='c:function', member='c:member')

# Spans of a doc body that must not be touched when linking symbol names:
# inline literals, roles and interpreted text, and field names.
_PROTECTED_RE = re.compile(r'(``(?:[^`]|`(?!`))+``|:[\w:+.-]+:`[^`]*`|`[^`]*`_{0,2}|^[ \t]*:[^:\n]+:)', re.M)
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


# rst inline markup must be preceded / followed by one of these (or space)
_OK_BEFORE = set('-:/\'"<([{')
_OK_AFTER = set('-.,:;!?\\/\'")]}>')


def linkify(text, roles, own=None):
    """Turn bare public symbol names in a doc body into C-domain references
    (not inside literals, roles or field names)."""
    names = sorted((n for n in roles if n != own), key=len, reverse=True)
    if not names:
        return text
    word = re.compile(r'(?<![\w*`|\\.>])(%s)(\(\))?(?![\w*`|])' % '|'.join(map(re.escape, names)))

    def sub(m):
        name, role, src = m.group(1), roles[m.group(1)], m.string
        before = src[m.start() - 1] if m.start() > 0 else ' '
        after = src[m.end()] if m.end() < len(src) else ' '
        if role == 'c:func' and after == '(':
            ref = ':%s:`%s <%s>`' % (role, name, name)     # name(args): no "()"
        elif role != 'c:func' and m.group(2):
            ref = ':%s:`%s`()' % (role, name)
        else:
            ref = ':%s:`%s`' % (role, name)
        if not (before.isspace() or before in _OK_BEFORE):
            ref = '\\ ' + ref
        if not (after.isspace() or after in _OK_AFTER) and not ref.endswith('()'):
            ref = ref + '\\ '
        return ref

    out = []
    for i, part in enumerate(_PROTECTED_RE.split(text)):
        out.append(part if i % 2 else word.sub(sub, part))
    return ''.join(out)


def symbol_rst(sym, roles):
    """reStructuredText lines for one symbol (and its members)."""
    decl = sym.decl
    if sym.kind == 'enumerator':
        name, _, value = decl.partition('=')
        decl = decl if value and _SIMPLE_VALUE_RE.match(value) else name.strip()
    out = ['.. %s:: %s' % (_DIRECTIVE[sym.kind], decl or sym.name), '']
    if sym.doc:
        body = linkify(sym.doc, roles, sym.name.split('.')[-1])
        out += ['   ' + l if l.strip() else '' for l in body.split('\n')] + ['']
    if sym.kind == 'macro' and sym.value and '`' not in sym.value and len(sym.value) <= 70:
        out += ['   Defined as ``%s``.' % sym.value, '']
    for m in sym.members:
        if m.private and m.kind != 'member':
            continue
        out += ['   ' + l if l else '' for l in symbol_rst(m, roles)] + ['']
    return out


def header_layout(header):
    """(major section, minor section, symbol) for each public symbol, in
    header order; a minor banner with no major one above it counts as major."""
    for s in header.symbols:
        if s.private:
            continue
        major, minor = s.section
        if major is None and minor is not None:
            major, minor = minor, None
        yield major, minor, s


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
        roles = _symbol_roles(headers)
        result, major_sec, minor_sec, shown = [], None, None, (None, None)
        for major, minor, sym in header_layout(header):
            if major != shown[0]:
                major_sec = self._section(major) if major else None
                minor_sec = None
                if major_sec is not None:
                    result.append(major_sec)
            if minor != shown[1] or major != shown[0]:
                minor_sec = self._section(minor) if minor else None
                if minor_sec is not None and major_sec is not None:
                    major_sec.append(minor_sec)
                elif minor_sec is not None:
                    result.append(minor_sec)
            shown = (major, minor)
            target = minor_sec if minor_sec is not None else major_sec
            parsed = self._parse_symbol(sym, roles, paths[name])
            if target is None:
                result.extend(parsed)
            else:
                target.extend(parsed)
        return result

    def _section(self, title):
        sec = nodes.section()
        sec += nodes.title(title, title)
        sec['names'].append(nodes.fully_normalize_name(title))
        self.state.document.note_implicit_target(sec, sec)
        return sec

    def _parse_symbol(self, sym, roles, path):
        """Parse one symbol's directives; any warning they raise is reported
        at the symbol's doc comment in the header."""
        lines = symbol_rst(sym, roles)
        where = getattr(sym.doc, 'line', 0) or sym.line
        content = StringList(lines, items=[(path, where - 1)] * len(lines))
        node = nodes.section()
        node.document = self.state.document
        reporter = self.state.memo.reporter
        saved = reporter.get_source_and_line
        reporter.get_source_and_line = lambda lineno=None: (path, where)
        try:
            self.state.nested_parse(content, 0, node)
        finally:
            reporter.get_source_and_line = saved
        return list(node.children)


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
