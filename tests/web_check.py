# SPDX-License-Identifier: MIT
"""The interactive page in headless Chromium against the native library.

    python3 tests/web_check.py PAGE NATIVE MERGING SHOTS

PAGE is build/web-site/interactive/index.html (make web), NATIVE the
program tests/web_native.c (the same inputs computed natively), MERGING
examples/merging.c built, SHOTS a directory for one screenshot per view.
One headless Chromium (Debian's chromium) is driven over the DevTools
protocol on a pipe (standard library only); the page is opened as a plain
file.  Inputs reach it two ways: in the URL, and typed and clicked as a
user does; what it shows is read from the DOM.  Checks:

- merging: packets delivered per source after N cycles equal the native
  build's; under round-robin on the line the shares are within 0.01 of the
  paper's 1/2, 1/4, ... 1/64 (seed 000 Figure 4); after a warm-up, the
  shares on line and ring under both policies equal the table of
  examples/merging.c (the same model, examples/common/merging_model.h,
  compiled natively); stepping with the
  buttons gives what running the same number of cycles natively gives;
- allocation: for a request set (read off the page: drawn, or clicked
  cell by cell), every allocator's matching equals sa_switch_allocate's
  natively, also over several allocations in a row (each allocator keeps
  its state), is a matching of requested cells, and none is larger than
  MCM's; PIM1's grants shown are those whose accepts are its matching;
- routing: the verifier's verdict and the route looked up hop by hop equal
  the native ones (a proven fault set, a fault-blind refutation, a cycle),
  also after a link is failed and routers are picked by clicking;
- bad input: a malformed or out-of-range parameter, in the URL or typed,
  gives a visible message naming it, and the page still draws.

Ends with one line "N passed, N failed"; exit status 1 on a failure, 2
when Chromium is missing or does not start (said in one line, never
skipped silently).
"""
import base64
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM = shutil.which('chromium') or shutil.which('chromium-browser')


class Browser:
    """One headless Chromium, one page, over --remote-debugging-pipe
    (commands on its fd 3, answers on its fd 4, each a JSON text ended by a
    NUL byte)."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix='seastar-web-')
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def child():
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
        self.proc = subprocess.Popen([CHROMIUM, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
                                      '--remote-debugging-pipe', '--user-data-dir=' + self.profile, 'about:blank'],
                                     preexec_fn=child, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf, self.next_id, self.session = b'', 0, None
        target = self.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        self.session = self.call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        self.call('Emulation.setDeviceMetricsOverride', {'width': 1400, 'height': 1100, 'deviceScaleFactor': 1, 'mobile': False})

    def call(self, method, params=None):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if self.session:
            msg['sessionId'] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b'\0')
        deadline = time.time() + 60
        while True:
            while b'\0' not in self.buf:
                if time.time() > deadline:
                    raise RuntimeError('chromium did not answer %s' % method)
                chunk = os.read(self.from_r, 1 << 20)
                if not chunk:
                    raise RuntimeError('chromium closed its pipe')
                self.buf += chunk
            text, self.buf = self.buf.split(b'\0', 1)
            answer = json.loads(text)
            if answer.get('id') == self.next_id:
                if 'error' in answer:
                    raise RuntimeError('%s: %s' % (method, answer['error']))
                return answer['result']

    def js(self, expression):
        r = self.call('Runtime.evaluate', {'expression': expression, 'returnByValue': True})
        if 'exceptionDetails' in r:
            raise RuntimeError('page script: %s' % r['exceptionDetails'].get('text'))
        return r['result'].get('value')

    def open(self, page, query):
        self.js('document.body && (document.body.dataset.ready = "left")')   # the page being left
        self.call('Page.navigate', {'url': 'file://' + os.path.abspath(page) + '?' + query})
        for _ in range(400):
            if self.js('document.body && document.body.dataset.ready') == '1':
                return
            time.sleep(0.025)
        raise RuntimeError('the page did not get ready: %s' % self.js('document.getElementById("status").textContent'))

    def dom(self):
        return self.js('document.documentElement.outerHTML')

    def shot(self, path):
        with open(path, 'wb') as f:
            f.write(base64.b64decode(self.call('Page.captureScreenshot', {'format': 'png'})['data']))

    def close(self):
        try:
            self.session = None
            self.call('Browser.close')
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def attr(text, element_id, name):
    m = re.search(r'id="%s"[^>]*?\b%s="([^"]*)"' % (re.escape(element_id), re.escape(name)), text)
    return html.unescape(m.group(1)) if m else None


def native(prog, *args):
    return subprocess.run([prog] + [str(a) for a in args], stdout=subprocess.PIPE, check=True).stdout.decode().split('\n')


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, what, ok, detail=''):
        what = what if len(what) <= 300 else what[:300] + '...'
        if ok:
            self.passed += 1
            print('  ok      ' + what)
        else:
            self.failed += 1
            detail = detail if len(detail) <= 300 else detail[:300] + '...'
            print('  FAIL    ' + what + (': ' + detail if detail else ''))


def delivered(text):
    return [attr(text, 'mg-share-P%d' % i, 'data-delivered') for i in range(7)]


def merging(c, b, page, prog, topo, policy, cycles, pbias=1):
    b.open(page, 'view=merging&topo=%s&policy=%s&period=18&bias=1&pbias=%d&steps=%d' % (topo, policy, pbias, cycles))
    shown = delivered(b.dom())
    want = native(prog, 'merging', topo, policy, 18, 1, cycles, pbias)[0].split()
    c.check('merging %s %s, processor bias %d, %d cycles: delivered per source %s'
            % (topo, policy, pbias, cycles, ' '.join(map(str, shown))), shown == want, 'native %s' % ' '.join(want))
    return [int(x) for x in shown] if None not in shown else None


def merging_example(c, b, page, example, cycles):
    """The page's shares after a warm-up of cycles / 10 and `cycles` counted
    cycles against examples/merging.c's table, the same model
    (examples/common/merging_model.h) compiled natively (4 decimals each; a share that is exactly halfway
    may round either way)."""
    out = subprocess.run([example, '--cycles', str(cycles), '--no-sweep'], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=True).stdout.decode().split('\n')
    rows = [l.split() for l in out if re.match(r'P\d\s', l)]
    for k, topo in enumerate(('line', 'ring')):
        for col, policy in ((2, 'rr'), (4, 'age')):
            b.open(page, 'view=merging&topo=%s&policy=%s&period=18&bias=1&warmup=%d&steps=%d' % (topo, policy, cycles // 10, cycles))
            shown = [int(x or -1) for x in delivered(b.dom())]
            total = sum(shown)
            want = [float(row[col]) for row in rows[k * 7:k * 7 + 7]]
            c.check('merging %s %s: shares %s equal examples/merging.c\'s' % (topo, policy, ' '.join('%.4f' % (s / total) for s in shown)),
                    len(want) == 7 and all(abs(s / total - w) <= 0.00005 + 1e-9 for s, w in zip(shown, want)),
                    'merging.c %s' % ' '.join('%.4f' % w for w in want))


def merging_typed(c, b, page, prog):
    """The controls as a user works them: choose the ring, step 10 times,
    run 490 cycles; and a typed malformed period."""
    b.open(page, 'view=merging')
    b.js('var e = document.getElementById("mg-topo"); e.value = "ring"; e.dispatchEvent(new Event("change"));'
         'for (var i = 0; i < 10; i++) document.getElementById("mg-step").click();'
         'document.getElementById("mg-steps").value = "490"; document.getElementById("mg-run").click();')
    shown = delivered(b.dom())
    want = native(prog, 'merging', 'ring', 'rr', 18, 1, 500)[0].split()
    c.check('merging, clicked: ring, 10 steps and a run of 490: delivered %s' % ' '.join(map(str, shown)),
            shown == want, 'native %s' % ' '.join(want))
    b.js('document.getElementById("mg-period").value = "12x"; document.getElementById("mg-reset").click();')
    message = b.js('document.getElementById("mg-message").textContent')
    c.check('merging, typed period "12x": "%s"' % message, 'AGE_CLOCK_PERIOD' in (message or '') and '12x' in message)


def allocations(b, n):
    """The matchings the page shows: per allocator (data-size data-matching)."""
    text = b.dom()
    return text, ['%s %s' % (attr(text, 'al-kind-%d' % k, 'data-size'), attr(text, 'al-kind-%d' % k, 'data-matching'))
                  for k in range(n)]


def check_matchings(c, label, text, cells, n, m, shown, want):
    sizes = []
    for k in range(6):
        kind = attr(text, 'al-kind-%d' % k, 'data-kind')
        c.check('%s: %s matches %s' % (label, kind, shown[k]), k < len(want) and want[k] == shown[k],
                'native %s' % (want[k] if k < len(want) else 'nothing'))
        size, matching = shown[k].split(' ')
        outs = [int(x) for x in matching.split(',') if x]
        valid = len(outs) == n and all(o < 0 or cells[i * m + o] == '1' for i, o in enumerate(outs)) and \
            len([o for o in outs if o >= 0]) == len(set(o for o in outs if o >= 0)) == int(size)
        c.check('%s: %s is a matching of requested cells' % (label, kind), valid)
        sizes.append(int(size))
    c.check('%s: no allocator beats MCM (%s)' % (label, sizes), max(sizes) == sizes[5])
    c.check('%s: PIM1\'s grants shown give its accepts' % label, attr(text, 'al-kind-3', 'data-agree') == '1')


def alloc(c, b, page, prog, query, shape, network, rotary, seed, rounds):
    """`rounds` allocations in a row ("new requests + allocate" clicked
    after the first): each allocator keeps its state."""
    b.open(page, 'view=alloc&%s&rotary=%d&seed=%d' % (query, rotary, seed))
    seen = []
    for r in range(rounds):
        if r:
            b.js('document.getElementById("al-auto").click()')
        text, shown = allocations(b, 6)
        cells = attr(text, 'al-req', 'data-cells')
        seen.append((text, cells, shown))
    n, m = int(attr(seen[0][0], 'al-req', 'data-n')), int(attr(seen[0][0], 'al-req', 'data-m'))
    want = native(prog, 'alloc', shape, network, rotary, seed, '/'.join(s[1] for s in seen))
    for r, (text, cells, shown) in enumerate(seen):
        check_matchings(c, 'allocation %s rotary %d, #%d' % (shape, rotary, r + 1), text, cells, n, m, shown, want[6 * r:6 * r + 6])


def alloc_clicked(c, b, page, prog):
    """Requests clicked cell by cell on an empty 6 x 5 crossbar."""
    b.open(page, 'view=alloc&preset=custom&n=6&m=5&network=2&density=0&seed=1&rotary=1&allocate=0')
    clicked = [(0, 1), (1, 1), (2, 3), (3, 0), (5, 4), (4, 1), (4, 3)]
    for i, j in clicked:
        b.js('document.querySelector(\'#al-requests td[data-i="%d"][data-j="%d"]\').click()' % (i, j))
    b.js('document.getElementById("al-step").click()')
    text, shown = allocations(b, 6)
    cells = attr(text, 'al-req', 'data-cells')
    expect = ''.join('1' if (i, j) in clicked else '0' for i in range(6) for j in range(5))
    c.check('allocation, clicked: the request set is the cells clicked', cells == expect, '%s, not %s' % (cells, expect))
    want = native(prog, 'alloc', '6x5', 2, 1, 1, cells)
    check_matchings(c, 'allocation 6x5 rotary 1, clicked', text, cells, 6, 5, shown, want)
    b.js('document.getElementById("al-next").click()')
    caption = b.js('document.querySelector("#al-kind-0 h3").textContent')
    c.check('allocation, stepped: SPAA shows "%s"' % caption, 'nominate' in (caption or ''))


def verdict(b):
    text = b.dom()
    return (attr(text, 'rt-verdict-data', 'data-proven'), attr(text, 'rt-verdict-data', 'data-failure'),
            attr(text, 'rt-route-data', 'data-hops'))


def route_compare(c, label, prog, dims, method, src, dst, faults, shown, expect_failure):
    proven, failure, hops = shown
    want = native(prog, 'route', dims, method, src, dst, faults)
    c.check('%s: verdict proven=%s failure=%s' % (label, proven, failure),
            want[0] == '%s %s' % (proven, failure) and failure == str(expect_failure), 'native %s' % want[0])
    c.check('%s: route %d -> %d is %s' % (label, src, dst, hops), want[1] == hops, 'native %s' % want[1])


def route(c, b, page, prog, dims, method, src, dst, faults, expect_failure):
    b.open(page, 'view=route&dims=%s&method=%s&src=%d&dst=%d&faults=%s' % (dims, method, src, dst, faults))
    route_compare(c, 'routing %s %s faults [%s]' % (dims, method, faults), prog, dims, method, src, dst, faults,
                  verdict(b), expect_failure)


def route_clicked(c, b, page, prog):
    """Fail a link of the route by clicking it, then pick routers."""
    b.open(page, 'view=route&dims=4x4x2&method=seastar&src=0&dst=27')
    b.js('document.querySelector(\'#rt-svg path[data-node="24"][data-port="2"]\').dispatchEvent(new MouseEvent("click", {bubbles: true}))')
    faults = b.js('document.getElementById("rt-faults").value')
    c.check('routing, clicked: the link 24 y+ is failed ("%s")' % faults, faults == '24:2')
    route_compare(c, 'routing 4x4x2, link clicked', prog, '4x4x2', 'seastar', 0, 27, '24:2', verdict(b), 0)
    for node in (5, 30):
        b.js('document.querySelector(\'#rt-svg g[data-node="%d"]\').dispatchEvent(new MouseEvent("click", {bubbles: true}))' % node)
    route_compare(c, 'routing 4x4x2, routers clicked', prog, '4x4x2', 'seastar', 5, 30, '24:2', verdict(b), 0)


def bad_input(c, b, page, query, view, words):
    b.open(page, query)
    message = b.js('document.getElementById("%s-message").textContent' % view) or ''
    c.check('bad input ?%s: "%s"' % (query, message), all(w in message for w in words))


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
    try:
        b = Browser()
    except (RuntimeError, OSError) as e:
        print('web_check: chromium (%s) did not start: %s\n0 passed, 1 failed' % (CHROMIUM, e))
        return 2
    try:
        b.open(page, 'view=merging')
        size, ms, start = (b.js('document.body.dataset.%s' % k) for k in ('wasmBytes', 'loadMs', 'startMs'))
        c.check('the page loads its module', size is not None and ms is not None)
        print('  info    %s bytes of WebAssembly; the page was ready %s ms after it was requested (%s ms to start '
              'the module and draw)' % (size, ms, start))

        shown = merging(c, b, page, prog, 'line', 'rr', 5000)
        if shown:
            paper = [1 / 64, 1 / 64, 1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2]
            total = sum(shown)
            c.check('merging line rr: shares within 0.01 of seed 000 Figure 4',
                    all(abs(s / total - p) < 0.01 for s, p in zip(shown, paper)),
                    ' '.join('%.4f' % (s / total) for s in shown))
        merging(c, b, page, prog, 'ring', 'rr', 3000)
        merging(c, b, page, prog, 'line', 'age', 3000)
        merging(c, b, page, prog, 'ring', 'age', 3000, 0)
        merging_example(c, b, page, example, 5000)
        merging_typed(c, b, page, prog)

        alloc(c, b, page, prog, 'preset=21364&density=0.5', '21364', 0, 0, 7, 3)
        alloc(c, b, page, prog, 'preset=21364&density=0.7', '21364', 0, 1, 11, 3)
        alloc(c, b, page, prog, 'preset=custom&n=8&m=8&network=4&density=0.4', '8x8', 4, 1, 3, 2)
        alloc_clicked(c, b, page, prog)

        route(c, b, page, prog, '4x4x2', 'seastar', 0, 27, '5:0', 0)
        route(c, b, page, prog, '4x4x2', 'dor', 0, 27, '5:0,24:2', 3)
        route(c, b, page, prog, '4x4x4', 'seastar', 0, 27, '56:4,57:4', 7)
        route(c, b, page, prog, '8x8x8', 'seastar', 0, 300, '233:4,235:4', 7)
        route(c, b, page, prog, '8x8x8', 'search', 0, 300, '233:4,235:4', 0)
        route_clicked(c, b, page, prog)

        bad_input(c, b, page, 'view=merging&period=abc', 'mg', ['AGE_CLOCK_PERIOD', 'abc'])
        bad_input(c, b, page, 'view=merging&period=0', 'mg', ['AGE_CLOCK_PERIOD'])
        bad_input(c, b, page, 'view=merging&bias=9', 'mg', ['bias', 'above 7'])
        bad_input(c, b, page, 'view=merging&bias=99999999999', 'mg', ['bias', 'above 7'])
        bad_input(c, b, page, 'view=merging&pbias=1.5', 'mg', ['processor port', '1.5'])
        bad_input(c, b, page, 'view=merging&topo=cube', 'mg', ['topo', 'line, ring', 'cube'])
        bad_input(c, b, page, 'view=alloc&preset=custom&n=65&m=8', 'al', ['allocator', 'size'])
        bad_input(c, b, page, 'view=alloc&preset=custom&n=8&m=8&density=2', 'al', ['density'])
        bad_input(c, b, page, 'view=alloc&preset=custom&n=8&m=8&seed=-1', 'al', ['seed', '-1'])
        bad_input(c, b, page, 'view=route&dims=4x4', 'rt', ['torus'])
        bad_input(c, b, page, 'view=route&dims=64x64x64', 'rt', ['torus'])
        bad_input(c, b, page, 'view=route&faults=0:9', 'rt', ['failed link'])
        bad_input(c, b, page, 'view=route&src=0&dst=99', 'rt', ['destination'])

        os.makedirs(shots, exist_ok=True)
        for view, query in (('merging', 'view=merging&topo=line&policy=rr&steps=400'),
                            ('alloc', 'view=alloc&preset=21364&density=0.5&seed=7&rotary=1'),
                            ('route', 'view=route&dims=4x4x4&method=seastar&src=0&dst=27&faults=56:4,57:4')):
            out = os.path.abspath(os.path.join(shots, 'interactive-%s.png' % view))
            b.open(page, query)
            b.shot(out)
            c.check('screenshot %s' % out, os.path.exists(out) and os.path.getsize(out) > 1000)
    except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
        c.check('the checks ran to the end', False, str(e))
    finally:
        b.close()
    print('  info    %.1f s' % (time.time() - t0))
    print('%d passed, %d failed' % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == '__main__':
    sys.exit(main())
