#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of capi.py, the doc-comment extractor (standard library only).

    python3 docs/_ext/test_capi.py

Run by tests/contract.sh before the check of the real headers.  Each case is
a small header in the project's style with a known set of symbols.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capi  # noqa: E402

HEADER = r'''/* t.h - a test header.
 */
#ifndef SA_T_H
#define SA_T_H
#include <stdint.h>
#ifndef SA_API
/** Linkage; define it before including
 *  the header to change it. */
#define SA_API static inline
#endif
#ifdef __cplusplus
extern "C" {
#endif
/* ======================================================================
 * Limits
 * ====================================================================== */
/** Smaller of two values. */
#define SA_MIN(a, b) ((a) < (b) ? (a) : (b))
#define SA_UNDOC_MACRO 3
#define SA__PRIVATE_MACRO 4
#define SA_TRAILING 7 /**< documented after the value */
/** Continued
 *  macro. */
#define SA_LONG(x, \
                y) \
    ((x) + (y))
/** Documented above its #ifndef. */
#ifndef SA_OVERRIDE
#define SA_OVERRIDE 1
#endif

/** Result codes. */
typedef enum sa_result {
    SA_OK = 0,          /**< success */
    SA_ERR_X,           /**< a long explanation that
                             continues on the next line */
    SA_ERR_UNDOC,
    SA_COUNT            /**< number of codes */
} sa_result;

/* ----------------------------------------------------------------------
 * Callbacks (a minor section)
 * ---------------------------------------------------------------------- */

/**
 * A callback.
 *
 * :param ctx: context.
 * :param x: a value.
 */
typedef int (*sa_callback)(void *ctx, int x);

typedef struct sa_thing sa_thing;
/** A thing. */
struct sa_thing {
    /** documented above */
    uint32_t above;
    int a, b;                     /**< two ints */
    unsigned flag : 1;            /**< one bit */
    void (*fn)(void *ctx, int y); /**< a callback */
    uint8_t arr[SA_MIN(4, 8)];    /**< an array */
    int undoc_field;
};

/** Anonymous enum constants. */
enum { SA_K1 = 1, /**< one */
       SA_K2 = SA_MIN(1, 2) /**< two */ };

typedef enum { SA_E_A, SA_E_B } sa_undoc_enum;

/* Private helper. */
SA_API int sa__helper(int x) { return x + 1; }

/**
 * Multi-line signature.
 *
 * :param a: the a.
 * :param group: registers.
 * :param cb: callback.
 * :param zz: not a parameter.
 * :returns: a string.
 */
SA_API const char *
sa_multi(int a,
         const uint64_t group[2],
         void (*cb)(int q)) {
    if (a) { return "}"; }
    { char c = '{'; (void)c; }
    return "{";
}

SA_API int sa_undoc(void);

/** A prototype, defined later. */
SA_API int sa_proto(int x);
SA_API int sa_proto(int x) { return x; }

#if defined(SA_T_SOMETHING)
/** One definition in two variants. */
SA_API int sa_variant(void) { return 1; }
#else
SA_API int sa_variant(void) { return 2; }
#endif

/** Returns a struct. */
SA_API sa_thing sa_make(void) {
    sa_thing t = {0};
    return t;
}

#ifdef __cplusplus
}
#endif
#endif /* SA_T_H */
'''


class HeaderTest(unittest.TestCase):
    def setUp(self):
        self.h = capi.Header('t.h', text=HEADER)
        self.sym = {s.name: s for s in capi.public_symbols(self.h)}

    def test_symbols_found(self):
        expected = {
            'SA_API', 'SA_MIN', 'SA_UNDOC_MACRO', 'SA_TRAILING', 'SA_LONG', 'SA_OVERRIDE',
            'sa_result', 'SA_OK', 'SA_ERR_X', 'SA_ERR_UNDOC', 'SA_COUNT',
            'sa_callback', 'sa_thing', 'sa_thing.above', 'sa_thing.a', 'sa_thing.b',
            'sa_thing.flag', 'sa_thing.fn', 'sa_thing.arr', 'sa_thing.undoc_field',
            'SA_K1', 'SA_K2', 'sa_undoc_enum', 'SA_E_A', 'SA_E_B',
            'sa_multi', 'sa_undoc', 'sa_proto', 'sa_variant', 'sa_make'}
        self.assertEqual(expected, set(self.sym))

    def test_private_and_guard_excluded(self):
        names = {s.name for s in self.h.symbols}
        self.assertIn('sa__helper', names)
        self.assertNotIn('SA_T_H', names)
        self.assertNotIn('SA__PRIVATE_MACRO', set(self.sym))

    def test_kinds_and_declarations(self):
        s = self.sym
        self.assertEqual('function', s['sa_multi'].kind)
        self.assertEqual(['a', 'group', 'cb'], s['sa_multi'].params)
        self.assertTrue(s['sa_multi'].decl.startswith('const char *'))
        self.assertNotIn('SA_API', s['sa_multi'].decl)
        self.assertEqual('SA_MIN(a, b)', s['SA_MIN'].decl)
        self.assertEqual('SA_LONG(x, y)', s['SA_LONG'].decl)
        self.assertEqual('7', s['SA_TRAILING'].value)
        self.assertEqual('static inline', s['SA_API'].value)
        self.assertEqual('type', s['sa_callback'].kind)
        self.assertEqual(['ctx', 'x'], s['sa_callback'].params)
        self.assertEqual('struct', s['sa_thing'].kind)
        self.assertEqual('enum', s['sa_result'].kind)
        self.assertEqual('unsigned flag', s['sa_thing.flag'].decl)
        self.assertEqual('int b', s['sa_thing.b'].decl)
        self.assertEqual('sa_thing sa_make(void)', s['sa_make'].decl)

    def test_docs_attached(self):
        s = self.sym
        self.assertEqual('Linkage; define it before including\nthe header to change it.',
                         s['SA_API'].doc)
        self.assertEqual('documented after the value', s['SA_TRAILING'].doc)
        self.assertEqual('Documented above its #ifndef.', s['SA_OVERRIDE'].doc)
        self.assertEqual('a long explanation that\ncontinues on the next line', s['SA_ERR_X'].doc)
        self.assertEqual('number of codes', s['SA_COUNT'].doc)
        self.assertEqual('documented above', s['sa_thing.above'].doc)
        self.assertEqual('two ints', s['sa_thing.b'].doc)
        self.assertEqual('two', s['SA_K2'].doc)
        self.assertEqual('A thing.', s['sa_thing'].doc)
        self.assertEqual('A prototype, defined later.', s['sa_proto'].doc)
        self.assertEqual('One definition in two variants.', s['sa_variant'].doc)
        self.assertTrue(s['sa_multi'].doc.startswith('Multi-line signature.\n\n:param a:'))

    def test_sections(self):
        self.assertEqual(('Limits', None), self.sym['SA_MIN'].section)
        self.assertEqual(('Limits', 'Callbacks (a minor section)'), self.sym['sa_make'].section)

    def test_problems(self):
        msgs = sorted(m for _, _, m in capi.problems(self.h))
        self.assertEqual(sorted([
            'undocumented macro SA_UNDOC_MACRO',
            'undocumented enumerator SA_ERR_UNDOC',
            'undocumented member sa_thing.undoc_field',
            'undocumented enum sa_undoc_enum',
            'undocumented enumerator SA_E_A',
            'undocumented enumerator SA_E_B',
            'undocumented function sa_undoc',
            'function sa_multi: ":param zz:" names no parameter (a, group, cb)',
        ]), msgs)

    def test_line_numbers(self):
        lines = HEADER.split('\n')
        self.assertIn('sa_undoc(void)', lines[self.sym['sa_undoc'].line - 1])
        self.assertIn('SA_UNDOC_MACRO', lines[self.sym['SA_UNDOC_MACRO'].line - 1])


class RealHeadersTest(unittest.TestCase):
    """The project's headers parse, and every function name the parser finds
    is a real 'sa_'/'sr_' definition of the header."""

    def test_headers(self):
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
        for name in ('seastar_arb.h', 'seastar_topo.h', 'seastar_route.h'):
            path = os.path.join(root, name)
            if not os.path.exists(path):
                continue
            h = capi.Header(path)
            with open(path) as f:
                text = f.read()
            for s in capi.public_symbols(h):
                if s.kind == 'function':
                    self.assertRegex(text, r'\b%s\s*\(' % s.name)


if __name__ == '__main__':
    unittest.main(verbosity=1)
