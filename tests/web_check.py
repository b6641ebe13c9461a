# SPDX-License-Identifier: MIT
"""The interactive page in headless Chromium against the native library.

    python3 tests/web_check.py PAGE NATIVE MERGING SHOTS

PAGE is build/web-site/interactive/index.html (make web), NATIVE the
program tests/web_native.c (the same inputs computed natively), MERGING
examples/merging.c built, SHOTS a
directory for one screenshot per view.  The page is opened as a plain file
with its parameters in the URL (the same path a parameter typed into the
page takes); Chromium's --dump-dom gives what the page shows, read from its
data attributes.  Checks:

- merging: packets delivered per source after N cycles equal the native
  build's; under round-robin on the line the shares are within 0.01 of the
  paper's 1/2, 1/4, ... 1/64 (seed 000 Figure 4); after a warm-up, the
  shares on line and ring under both policies equal the table of
  examples/merging.c (its own copy of the model);
- allocation: for one request set (read off the page), every allocator's
  matching equals sa_switch_allocate's natively, is a matching of requested
  cells, and none is larger than MCM's;
- routing: the verifier's verdict and the route looked up hop by hop equal
  the native ones (a proven fault set, and one whose cycle it finds);
- bad input: a malformed or out-of-range parameter gives a visible message,
  and the page still draws.

Ends with one line "N passed, N failed"; exit status 1 on a failure, 2
when Chromium is missing (say so, never skip silently).
"""
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM = shutil.which('chromium') or shutil.which('chromium-browser')
FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--virtual-time-budget=10000']


def chromium(url, extra):
    with tempfile.TemporaryDirectory() as profile:
        r = subprocess.run([CHROMIUM] + FLAGS + ['--user-data-dir=' + profile] + extra + [url],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    return r.stdout.decode('utf-8', 'replace')


def dom(page, query):
    return chromium('file://' + os.path.abspath(page) + '?' + query, ['--dump-dom'])


def attr(text, element_id, name):
    m = re.search(r'id="%s"[^>]*?\b%s="([^"]*)"' % (re.escape(element_id), re.escape(name)), text)
    return html.unescape(m.group(1)) if m else None


def native(prog, *args):
    return subprocess.run([prog] + [str(a) for a in args], stdout=subprocess.PIPE, check=True).stdout.decode().split('\n')


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, what, ok, detail=''):
        if ok:
            self.passed += 1
            print('  ok      ' + what)
        else:
            self.failed += 1
            print('  FAIL    ' + what + (': ' + detail if detail else ''))


def merging(c, page, prog, topo, policy, cycles):
    text = dom(page, 'view=merging&topo=%s&policy=%s&period=18&bias=1&steps=%d' % (topo, policy, cycles))
    shown = [attr(text, 'mg-share-P%d' % i, 'data-delivered') for i in range(7)]
    want = native(prog, 'merging', topo, policy, 18, 1, cycles)[0].split()
    c.check('merging %s %s, %d cycles: delivered per source %s' % (topo, policy, cycles, ' '.join(map(str, shown))),
            shown == want, 'native %s' % ' '.join(want))
    return [int(x) for x in shown] if None not in shown else None, text


def merging_example(c, page, example, cycles):
    """The page's shares after a warm-up of cycles / 10 and `cycles` counted
    cycles against examples/merging.c's table, a separate program with its
    own copy of the model (4 decimals each; a share that is exactly halfway
    may round either way)."""
    out = subprocess.run([example, '--cycles', str(cycles), '--no-sweep'], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=True).stdout.decode().split('\n')
    tables = [[l.split() for l in out if re.match(r'P\d\s', l)][k * 7:k * 7 + 7] for k in (0, 1)]
    for k, topo in enumerate(('line', 'ring')):
        for col, policy in ((2, 'rr'), (4, 'age')):
            text = dom(page, 'view=merging&topo=%s&policy=%s&period=18&bias=1&warmup=%d&steps=%d' % (topo, policy, cycles // 10, cycles))
            shown = [int(attr(text, 'mg-share-P%d' % i, 'data-delivered') or -1) for i in range(7)]
            total = sum(shown)
            want = [float(row[col]) for row in tables[k]]
            c.check('merging %s %s: shares %s equal examples/merging.c\'s' % (topo, policy, ' '.join('%.4f' % (s / total) for s in shown)),
                    len(want) == 7 and all(abs(s / total - w) <= 0.00005 + 1e-9 for s, w in zip(shown, want)),
                    'merging.c %s' % ' '.join('%.4f' % w for w in want))


def alloc(c, page, prog, query, shape, network, rotary, seed):
    text = dom(page, 'view=alloc&%s&rotary=%d&seed=%d' % (query, rotary, seed))
    cells = attr(text, 'al-req', 'data-cells')
    n, m = attr(text, 'al-req', 'data-n'), attr(text, 'al-req', 'data-m')
    if cells is None or n is None:
        c.check('allocation %s: the page shows a request set' % query, False)
        return
    n, m = int(n), int(m)
    want = native(prog, 'alloc', shape, network, rotary, seed, cells)
    sizes = []
    for k in range(6):
        kind = attr(text, 'al-kind-%d' % k, 'data-kind')
        size, matching = attr(text, 'al-kind-%d' % k, 'data-size'), attr(text, 'al-kind-%d' % k, 'data-matching')
        c.check('allocation %s rotary %d: %s matches %s (size %s)' % (shape, rotary, kind, matching, size),
                want[k] == '%s %s' % (size, matching), 'native %s' % want[k])
        outs = [int(x) for x in (matching or '').split(',') if x]
        valid = len(outs) == n and all(o < 0 or cells[i * m + o] == '1' for i, o in enumerate(outs)) and \
            len([o for o in outs if o >= 0]) == len(set(o for o in outs if o >= 0)) == int(size or -1)
        c.check('allocation %s rotary %d: %s is a matching of requested cells' % (shape, rotary, kind), valid)
        sizes.append(int(size or 0))
    grants = re.findall(r'class="(?:rq )?(?:nom|col)"[^>]*>g<', text[text.find('id="al-kind-3"'):text.find('id="al-kind-4"')])
    c.check('allocation %s rotary %d: PIM1\'s grants worked out from its sa_rng give the library\'s accepts (%d grants not accepted)'
            % (shape, rotary, len(grants)), attr(text, 'al-kind-3', 'data-agree') == '1')
    c.check('allocation %s rotary %d: no allocator beats MCM (%s)' % (shape, rotary, sizes), max(sizes) == sizes[5])
    return text


def route(c, page, prog, dims, method, src, dst, faults, expect_failure):
    text = dom(page, 'view=route&dims=%s&method=%s&src=%d&dst=%d&faults=%s' % (dims, method, src, dst, faults))
    proven, failure = attr(text, 'rt-verdict-data', 'data-proven'), attr(text, 'rt-verdict-data', 'data-failure')
    hops = attr(text, 'rt-route-data', 'data-hops')
    want = native(prog, 'route', dims, method, src, dst, faults)
    c.check('routing %s %s faults [%s]: verdict proven=%s failure=%s' % (dims, method, faults, proven, failure),
            want[0] == '%s %s' % (proven, failure) and failure == str(expect_failure), 'native %s' % want[0])
    c.check('routing %s %s: route %d -> %d is %s' % (dims, method, src, dst, hops), want[1] == hops, 'native %s' % want[1])
    return text


def bad_input(c, page, query, view, words):
    text = dom(page, query)
    m = re.search(r'id="%s-message"[^>]*>([^<]*)<' % view, text)
    message = html.unescape(m.group(1)) if m else ''
    drawn = 'data-ready="1"' in text
    c.check('bad input ?%s: "%s"' % (query, message), drawn and all(w in message for w in words))


def main():
    if len(sys.argv) != 5:
        print('usage: web_check.py PAGE NATIVE MERGING SHOTS', file=sys.stderr)
        return 2
    page, prog, example, shots = sys.argv[1:]
    if CHROMIUM is None:
        print('web_check: chromium is not installed, so the page cannot be tested: install Debian\'s chromium '
              '(apt-get install chromium)\n0 passed, 1 failed')
        return 2
    c = Checks()
    t0 = time.time()
    text = dom(page, 'view=merging')
    size, ms = re.search(r'data-wasm-bytes="(\d+)"', text), re.search(r'data-load-ms="([\d.]+)"', text)
    start = re.search(r'data-start-ms="([\d.]+)"', text)
    c.check('the page loads its module', size is not None and ms is not None and start is not None)
    if size and ms and start:
        print('  info    %s bytes of WebAssembly; the page was ready %s ms after it was requested (%s ms to start '
              'the module and draw)' % (size.group(1), ms.group(1), start.group(1)))

    shown, _ = merging(c, page, prog, 'line', 'rr', 5000)
    if shown:
        paper = [1 / 64, 1 / 64, 1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2]
        total = sum(shown)
        c.check('merging line rr: shares within 0.01 of seed 000 Figure 4',
                all(abs(s / total - p) < 0.01 for s, p in zip(shown, paper)),
                ' '.join('%.4f' % (s / total) for s in shown))
    merging(c, page, prog, 'ring', 'rr', 3000)
    merging(c, page, prog, 'line', 'age', 3000)
    merging_example(c, page, example, 5000)

    alloc(c, page, prog, 'preset=21364&density=0.5', '21364', 0, 0, 7)
    alloc(c, page, prog, 'preset=21364&density=0.7', '21364', 0, 1, 11)
    alloc(c, page, prog, 'preset=custom&n=8&m=8&network=4&density=0.4', '8x8', 4, 1, 3)

    route(c, page, prog, '4x4x2', 'seastar', 0, 27, '5:0', 0)
    route(c, page, prog, '4x4x2', 'dor', 0, 27, '5:0,24:2', 3)
    route(c, page, prog, '4x4x4', 'seastar', 0, 27, '56:4,57:4', 7)

    bad_input(c, page, 'view=merging&period=abc', 'mg', ['AGE_CLOCK_PERIOD', 'abc'])
    bad_input(c, page, 'view=merging&period=0', 'mg', ['AGE_CLOCK_PERIOD'])
    bad_input(c, page, 'view=merging&bias=9', 'mg', ['bias'])
    bad_input(c, page, 'view=alloc&preset=custom&n=65&m=8', 'al', ['allocator', 'size'])
    bad_input(c, page, 'view=alloc&preset=custom&n=8&m=8&density=2', 'al', ['density'])
    bad_input(c, page, 'view=route&dims=4x4', 'rt', ['torus'])
    bad_input(c, page, 'view=route&dims=64x64x64', 'rt', ['torus'])
    bad_input(c, page, 'view=route&faults=0:9', 'rt', ['failed link'])
    bad_input(c, page, 'view=merging&topo=cube', 'mg', ['topo', 'line, ring', 'cube'])
    bad_input(c, page, 'view=alloc&preset=custom&n=8&m=8&seed=-1', 'al', ['seed', '-1'])
    bad_input(c, page, 'view=route&src=0&dst=99', 'rt', ['destination'])

    os.makedirs(shots, exist_ok=True)
    for view, query in (('merging', 'view=merging&topo=line&policy=rr&steps=400'),
                        ('alloc', 'view=alloc&preset=21364&density=0.5&seed=7&rotary=1'),
                        ('route', 'view=route&dims=4x4x4&method=seastar&src=0&dst=27&faults=56:4,57:4')):
        out = os.path.abspath(os.path.join(shots, 'interactive-%s.png' % view))
        chromium('file://' + os.path.abspath(page) + '?' + query, ['--screenshot=' + out, '--window-size=1400,1100'])
        c.check('screenshot %s' % out, os.path.exists(out) and os.path.getsize(out) > 1000)
    print('  info    %.1f s' % (time.time() - t0))
    print('%d passed, %d failed' % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == '__main__':
    sys.exit(main())
