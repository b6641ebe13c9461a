# SPDX-License-Identifier: MIT
"""Sphinx extension: ``glob-toctree``, a toctree whose glob patterns can
exclude documents.

    .. glob-toctree::
       :caption: Guides
       :exclude: api-*

       getting-started
       *

Entries with glob characters (``*``, ``?``, ``[``) expand to every document
they match, sorted, except the current one, documents already listed in this
directive, and documents matching an ``:exclude:`` pattern (space-separated).
A pattern that matches nothing is not an error, so a page added later (on
another branch) is picked up without editing the index, and a toctree of
optional pages does not warn while they are absent.  Every other toctree
option is passed through.
"""

import re

from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.directives.other import TocTree
from sphinx.util.matching import patfilter

_GLOB_RE = re.compile(r'.*[*?\[].*')


class GlobTocTree(TocTree):
    option_spec = dict(TocTree.option_spec, exclude=directives.unchanged)

    def run(self):
        env = self.state.document.settings.env
        docs = sorted(env.found_docs - {env.docname})
        skip = set()
        for pat in self.options.pop('exclude', '').split():
            skip.update(patfilter(docs, pat))
        entries = [e.strip() for e in self.content if e.strip()]
        listed = {e for e in entries if not _GLOB_RE.match(e)}
        content = []
        for e in entries:
            if _GLOB_RE.match(e):
                found = [d for d in patfilter(docs, e) if d not in skip and d not in listed]
                content.extend(found)
                listed.update(found)
            else:
                content.append(e)
        self.options.pop('glob', None)
        self.content = StringList(content, source=env.doc2path(env.docname))
        env.glob_toctrees.add(env.docname)   # re-read when pages come or go
        return super().run()


def setup(app):
    app.add_directive('glob-toctree', GlobTocTree)
    return {'version': '1.0', 'parallel_read_safe': True, 'parallel_write_safe': True}
