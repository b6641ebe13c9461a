# SPDX-License-Identifier: MIT
# Sphinx configuration of the seastar documentation site.
# Build it with `make docs` (docs/build.sh): Debian's python3-sphinx,
# warnings are errors, and an undocumented public symbol fails the build.
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '_ext'))

project = 'seastar'
author = 'the seastar authors'
copyright = '2026, the seastar authors'

# The version is the one of the headers (SEASTAR_ROUTE_VERSION_*).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'seastar_route.h')) as _f:
    _v = dict(re.findall(r'^#define SEASTAR_ROUTE_VERSION_(MAJOR|MINOR|PATCH) (\d+)', _f.read(), re.M))
version = release = '%s.%s.%s' % (_v['MAJOR'], _v['MINOR'], _v['PATCH']) if len(_v) == 3 else 'unknown'

extensions = ['capi_sphinx', 'globtoc']

# The API reference: headers relative to this directory's parent.
capi_root = '..'
capi_headers = ['seastar_arb.h', 'seastar_topo.h', 'seastar_route.h']

primary_domain = 'c'
highlight_language = 'c'
master_doc = root_doc = 'index'
exclude_patterns = ['_build', '_ext', '_static']
templates_path = []

html_theme = 'alabaster'
html_title = 'seastar %s' % release
html_theme_options = {
    'description': 'Router arbitration, switch allocation and k-ary n-cube routing, header-only C',
    'fixed_sidebar': True,
    'page_width': '1100px',
    'sidebar_width': '240px',
}
html_sidebars = {'**': ['about.html', 'navigation.html', 'searchbox.html']}
html_show_sourcelink = False
html_static_path = ['_static']   # custom.css (alabaster picks it up)

# The interactive page (make web) is copied into the site as interactive/;
# make docs says where it was built.
_web = os.environ.get('SEASTAR_WEB_SITE') or os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'web-site')
html_extra_path = [_web] if os.path.isdir(os.path.join(_web, 'interactive')) else []
